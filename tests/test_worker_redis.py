"""A real Celery worker, consuming from Redis, runs the league's tasks.

Skipped when Redis is not reachable on a developer's machine; in CI (CI=true) a missing
Redis is a failure, never a skip.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail

from config.celery import app
from leagues import services, tasks
from leagues.models import Invitation
from tests.factories import TeamFactory

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _redis_up() -> bool:
    url = urlparse(REDIS_URL)
    try:
        with socket.create_connection((url.hostname, url.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def _reset_connections() -> None:
    """Drop pooled broker connections so the next use connects to the configured broker."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    amqp = app.amqp
    if getattr(amqp, "_producer_pool", None) is not None:
        amqp._producer_pool = None
    app.__dict__.pop("backend", None)


@pytest.fixture
def redis_worker():
    if not _redis_up():
        if IN_CI:
            pytest.fail(f"Redis is required in CI at {REDIS_URL}")
        pytest.skip("Redis is not running")
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    app.conf.update(broker_url=REDIS_URL, task_always_eager=False, result_backend=REDIS_URL)
    _reset_connections()
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield app
    finally:
        app.conf.update(saved)
        _reset_connections()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_real_worker_sends_an_invitation_once_when_the_task_is_sent_twice(redis_worker, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    team = TeamFactory(name="The Crown")
    invitation = services.invitation_create(
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
