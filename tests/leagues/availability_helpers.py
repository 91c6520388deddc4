"""Helpers for the availability tests (no tests here): the small league's first fixture
moved to a date a week ahead, its home squad given email addresses, reading the links out
of the queued messages."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from django.utils import timezone

from leagues.models import Fixture, Registration
from notifications.events import Event
from notifications.models import Notification

LINK = re.compile(r"https?://\S+?(/availability/[^/\s]+/)")


def fixture_of(league) -> Fixture:
    """teams[0] (captain, vice-captain, Rita and six others) at home to teams[1]."""
    return Fixture.objects.select_related("home", "away", "venue", "season").get(
        home=league.teams[0], away=league.teams[1]
    )


def fixture_on(league, day: date) -> Fixture:
    fixture = fixture_of(league)
    Fixture.objects.filter(pk=fixture.pk).update(date=day)
    return fixture_of(league)


def soon(league, days: int = 7) -> Fixture:
    """The fixture, a week from today (the pages and the API use the real clock)."""
    return fixture_on(league, timezone.localdate() + timedelta(days=days))


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def squad(team, with_email: bool = True) -> list:
    """The team's players (roster order by id), each given an email address."""
    regs = (
        Registration.objects.filter(team=team, status=Registration.Status.ACTIVE)
        .select_related("player")
        .order_by("id")
    )
    players = [r.player for r in regs]
    if with_email:
        for p in players:
            if not p.email:
                p.email = f"player{p.pk}@example.org"
                p.save(update_fields=["email"])
    return players


def asked(key_prefix: str = "availability:") -> list[Notification]:
    return list(
        Notification.objects.filter(event=Event.AVAILABILITY_ASKED, key__startswith=key_prefix)
        .select_related("recipient")
        .order_by("id")
    )


def link_path(notification: Notification) -> str:
    found = LINK.search(notification.body)
    assert found, notification.body
    return found.group(1)


def token_of(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[1]
