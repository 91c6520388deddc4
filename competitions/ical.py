"""A player's or a team's cup ties as an iCalendar feed (in the style of leagues/ical.py):
each tie on its round's night, or as a reminder on its deadline when the round has no
night."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q, QuerySet
from django.urls import reverse
from icalendar import Calendar, Event

from leagues.ical import MATCH_LENGTH, MATCH_START
from leagues.models import Player, Team

from .models import Tie
from .selectors import TIE_JOINS


def _ties() -> QuerySet[Tie]:
    return (
        Tie.objects.filter(bye=False)
        .select_related(*TIE_JOINS, "round", "group", "competition", "fixture__venue")
        .order_by("round__date", "round__deadline", "group__deadline", "id")
    )


def player_ties(player: Player) -> list[Tie]:
    """The player's ties: as the entrant, or a partner (one query)."""
    return list(
        _ties().filter(
            Q(home__player=player)
            | Q(home__partner=player)
            | Q(away__player=player)
            | Q(away__partner=player)
        )
    )


def team_ties(team: Team) -> list[Tie]:
    """The team's cup ties (one query)."""
    return list(_ties().filter(Q(home__team=team) | Q(away__team=team)))


def ties_calendar(title: str, ties: list[Tie]) -> bytes:
    tz = ZoneInfo(settings.TIME_ZONE)
    cal = Calendar()
    cal.add("prodid", "-//Marker//cup ties//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", title)
    site = settings.SITE_URL.rstrip("/")
    for tie in ties:
        night = tie.round.date if tie.round is not None else None
        if tie.fixture is not None and tie.fixture.date is not None:
            night = tie.fixture.date
        deadline = (tie.round.deadline if tie.round is not None else None) or (
            tie.group.deadline if tie.group is not None else None
        )
        event = Event()
        event.add("uid", f"cup-tie-{tie.pk}@marker")
        where = tie.round.name if tie.round is not None else tie.group.name if tie.group else ""
        home = tie.home.name if tie.home else "to be decided"
        away = tie.away.name if tie.away else "to be decided"
        if night is not None:
            start = datetime.combine(night, MATCH_START, tzinfo=tz)
            event.add("summary", f"{tie.competition.name} {where}: {home} v {away}")
            event.add("dtstart", start)
            event.add("dtend", start + MATCH_LENGTH)
        elif deadline is not None:
            start = deadline.astimezone(tz)
            event.add("summary", f"Play by: {tie.competition.name} {where}: {home} v {away}")
            event.add("dtstart", start - timedelta(hours=1))
            event.add("dtend", start)
        else:
            continue
        event.add("dtstamp", start)
        if tie.fixture is not None:
            venue = tie.fixture.venue
            event.add("location", f"{venue.name}, {venue.address}".strip(", "))
        event.add("url", site + reverse("tie-detail", args=[tie.pk]))
        if tie.decided:
            event.add("description", f"{tie.get_status_display()}")
        cal.add_component(event)
    return cal.to_ical()
