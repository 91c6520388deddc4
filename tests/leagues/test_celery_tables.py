"""The tables' tasks on a real Celery worker consuming from Redis.

Skipped when Redis is not reachable on a developer's machine; with CI=true a missing
Redis fails instead. The worker listens on a queue of its own, so other test runs
sharing the Redis database cannot take its messages (or give it theirs).
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from leagues import publication_job, publishing, standings, tasks
from leagues.models import Publication, SentNotification, TableSnapshot
from tests.conftest import make_league


def _wait_for(predicate, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _recipients(league) -> set[str]:
    emails = {t.captain.email for t in league.teams} | {league.vice_captain.email}
    return {e.lower() for e in emails if e}


def _assert_one_effect(league, publication) -> None:
    publication.refresh_from_db()
    assert publication.state == Publication.State.DONE, publication.error
    assert TableSnapshot.objects.filter(publication=publication).count() == 2
    sent = sorted(m.to[0] for m in mail.outbox)
    assert sent == sorted(_recipients(league))  # each captain exactly once
    assert SentNotification.objects.filter(publication=publication).count() == len(sent)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_publish_task_sent_twice_has_one_effect(redis_worker):
    league = make_league(teams_per_division=4, players_per_team=1)
    now = timezone.now()
    publication = Publication.objects.create(
        season=league.season, as_of=now, created_at=now, heartbeat_at=now
    )
    first = tasks.publish_tables.delay(publication.pk)
    second = tasks.publish_tables.delay(publication.pk)
    results = sorted([first.get(timeout=60), second.get(timeout=60)])
    assert results == ["published", "skipped"]
    _assert_one_effect(league, publication)
    assert publication.attempts == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_publication_requested_in_a_transaction_is_queued_after_commit(redis_worker):
    league = make_league(teams_per_division=4, players_per_team=1)
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    assert _wait_for(
        lambda: Publication.objects.filter(pk=publication.pk, state="done").exists()
    ), Publication.objects.get(pk=publication.pk).step
    _assert_one_effect(league, publication)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_sweeper_on_the_worker_heals_a_publication_left_running(redis_worker):
    """A worker claimed the job, wrote one table and died: the heartbeat went stale."""
    league = make_league(teams_per_division=4, players_per_team=1)
    then = timezone.now() - timedelta(minutes=10)
    publication = Publication.objects.create(
        season=league.season, as_of=then, created_at=then, heartbeat_at=then
    )
    assert publication_job.publication_claim(publication_id=publication.pk, now=then)
    kept = publication_job._snapshot(
        publication, standings.tables(league.season, as_of=then)[0], then
    )
    healed = tasks.sweep_publications.delay().get(timeout=60)
    assert healed == [publication.pk]
    assert _wait_for(lambda: Publication.objects.filter(pk=publication.pk, state="done").exists())
    _assert_one_effect(league, publication)
    assert TableSnapshot.objects.get(publication=publication, division=league.premier).pk == kept.pk
    assert tasks.sweep_publications.delay().get(timeout=60) == []
