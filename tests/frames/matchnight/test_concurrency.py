"""Two captains pressing at the same moment: the match row lock serialises them, so the
result is recorded exactly once (PostgreSQL, real transactions, real threads)."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from frames.matchnight import signoff
from frames.models import Match, MatchLog
from leagues.models import Fixture
from tests.conftest import make_league
from tests.frames.matchnight_helpers import drawn, key_all, later

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(*calls):
    """Run the calls in threads released together; re-raise the first error."""
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    if errors:
        raise errors[0]


def test_both_captains_confirming_at_once_record_the_result_once():
    league = make_league()
    match = key_all(league, drawn(league))
    at_once(
        lambda: signoff.match_confirm(
            match=match, side="home", actor=league.captain, now=later(200)
        ),
        lambda: signoff.match_confirm(
            match=match, side="away", actor=league.other_captain, now=later(201)
        ),
    )
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert MatchLog.objects.filter(match=match, action="result_recorded").count() == 1
    assert Fixture.objects.get(pk=match.fixture_id).result_confirmed_at is not None


def test_two_sweeps_at_once_confirm_a_result_once():
    league = make_league()
    match = key_all(league, drawn(league), now=later(150))
    due = later(150, hours=49)
    at_once(
        lambda: signoff.match_autoconfirm_due(now=due),
        lambda: signoff.match_autoconfirm_due(now=due),
    )
    assert MatchLog.objects.filter(match=match, action="auto_confirmed").count() == 1
    assert MatchLog.objects.filter(match=match, action="result_recorded").count() == 1
