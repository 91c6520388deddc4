"""A real Celery worker, consuming from Redis, runs the league's tasks (the `redis_worker`
fixture in tests/conftest.py: skipped without Redis locally, a failure in CI)."""

from __future__ import annotations

import pytest
from django.core import mail

from leagues import invitations, tasks
from leagues.models import Invitation
from tests.factories import TeamFactory


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_real_worker_sends_an_invitation_once_when_the_task_is_sent_twice(redis_worker, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    team = TeamFactory(name="The Crown")
    invitation = invitations.invitation_create(
        team=team, invited_by=team.captain, name="Ann", email="ann@example.org"
    )
    first = tasks.send_invitation.delay(invitation.pk)
    second = tasks.send_invitation.delay(invitation.pk)
    results = sorted([first.get(timeout=30), second.get(timeout=30)])
    # The on-commit send plus two explicit sends: exactly one of them sent the email.
    invitation.refresh_from_db()
    assert invitation.sent_at is not None
    assert len([m for m in mail.outbox if "ann@example.org" in m.to]) == 1
    assert results in ([False, False], [False, True])
    assert Invitation.objects.filter(pk=invitation.pk, sent_at__isnull=False).count() == 1
