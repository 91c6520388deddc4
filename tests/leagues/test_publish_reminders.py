"""The daily reminder: each captain of tomorrow's fixtures is emailed, once."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core import mail

from leagues.fixtures import services as fixture_services
from leagues.fixtures import tasks
from leagues.models import Fixture, SentNotification

pytestmark = pytest.mark.django_db


LEAGUE_SIZE = {"teams_per_division": 4, "players_per_team": 1}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def test_captains_of_tomorrows_fixtures_are_reminded_once(league):
    night = Fixture.objects.filter(season=league.season).order_by("date").first().date
    tomorrow = list(Fixture.objects.filter(season=league.season, date=night))
    assert tomorrow
    expected = set()
    for f in tomorrow:
        for team in (f.home, f.away):
            expected |= {u.email for u in (team.captain, team.vice_captain) if u and u.email}
    sent = tasks.send_fixture_reminders(night.isoformat())
    assert sent == len(mail.outbox) == len(expected)
    assert {m.to[0] for m in mail.outbox} == expected
    first = mail.outbox[0]
    assert first.subject.startswith("Tomorrow: ")
    # Run again (a retry, a second beat): nobody is emailed twice.
    assert tasks.send_fixture_reminders(night.isoformat()) == 0
    assert len(mail.outbox) == len(expected)
    assert SentNotification.objects.filter(kind="reminder").count() == len(expected)


def test_vice_captain_is_reminded_too_and_the_email_says_where(league):
    fixture = Fixture.objects.filter(home=league.teams[0]).order_by("date").first()
    fixture_services.reminders_send(day=fixture.date)
    to_vice = [m for m in mail.outbox if m.to == [league.vice_captain.email]]
    assert len(to_vice) == 1
    assert fixture.venue.name in to_vice[0].body
    assert f"{fixture.home.name} v {fixture.away.name}" in to_vice[0].body


def test_postponed_and_played_fixtures_and_other_days_are_not_reminded(league):
    night = Fixture.objects.filter(season=league.season).order_by("date").first().date
    fixtures = list(Fixture.objects.filter(season=league.season, date=night).order_by("id"))
    fixture_services.fixture_postpone(fixture=fixtures[0])
    for f in fixtures[1:]:
        Fixture.objects.filter(pk=f.pk).update(status=Fixture.Status.PLAYED)
    assert fixture_services.reminders_send(day=night) == 0
    assert fixture_services.reminders_send(day=date(2030, 1, 1)) == 0
    assert mail.outbox == []


def test_default_day_is_tomorrow(league, monkeypatch):
    seen = []
    monkeypatch.setattr(fixture_services, "reminders_send", lambda *, day: seen.append(day) or 0)
    tasks.send_fixture_reminders()
    from django.utils import timezone

    assert seen == [timezone.localdate() + timedelta(days=1)]


def test_beat_schedules_the_reminder_daily_and_the_sweeper_every_minute(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["tables-fixture-reminders"]["task"] == "leagues.tasks.send_fixture_reminders"
    assert schedule["tables-sweep-publications"]["schedule"] == 60.0
    assert schedule["tables-sweep-publications"]["task"] == "leagues.publishing.sweep_publications"
