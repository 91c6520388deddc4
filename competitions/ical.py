"""A player's or a team's cup ties as an iCalendar feed (in the style of leagues/ical.py):
each tie on its round's night, or as a reminder on its deadline when the round has no
night."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q, QuerySet
from django.urls import reverse
from icalendar import Calendar, Event

from leagues.ical import MATCH_LENGTH, MATCH_START, add_timezones, league_timezone
from leagues.models import Player, Season, Team

from .models import Tie
from .selectors import TIE_JOINS


def _ties() -> QuerySet[Tie]:
    return (
        Tie.objects.filter(bye=False)
        .select_related(
            *TIE_JOINS, "round", "group", "competition__season__league", "fixture__venue"
        )
        .order_by("round__date", "round__deadline", "group__deadline", "id")
    )


def ties_of(
    *, player: Player | None = None, teams: Iterable[int] = (), current: bool = False
) -> list[Tie]:
    """The ties `player` is in (as the entrant, or a partner) or one of the `teams` (ids)
    is in, in one query; `current`: only of seasons not finished. What a tie is for a
    calendar has this one home: a person's own calendar (`people.calendar`) reads its ties
    here and makes its events with `tie_event`."""
    who = Q(home__team__in=list(teams)) | Q(away__team__in=list(teams))
    if player is not None:
        who |= (
            Q(home__player=player)
            | Q(home__partner=player)
            | Q(away__player=player)
            | Q(away__partner=player)
        )
    ties = _ties()
    if current:
        ties = ties.exclude(competition__season__status=Season.Status.FINISHED)
    return list(ties.filter(who))


def player_ties(player: Player) -> list[Tie]:
    """The player's ties: as the entrant, or a partner (one query)."""
    return ties_of(player=player)


def team_ties(team: Team) -> list[Tie]:
    """The team's cup ties (one query)."""
    return ties_of(teams=[team.pk])


def tie_night(tie: Tie) -> date | None:
    """The night a tie is played: its cup fixture's date, else its round's."""
    if tie.fixture is not None and tie.fixture.date is not None:
        return tie.fixture.date
    return tie.round.date if tie.round is not None else None


def tie_deadline(tie: Tie) -> datetime | None:
    """When a tie must be played by: its round's deadline, else its group's."""
    if tie.round is not None and tie.round.deadline is not None:
        return tie.round.deadline
    return tie.group.deadline if tie.group is not None else None


def tie_event(tie: Tie, tz: ZoneInfo) -> Event | None:
    """A tie as an event: on its night (`tie_night`) at the match time, else as a
    "Play by" hour ending at its deadline (`tie_deadline`); None with neither. In `tz`
    (the league's, `leagues.ical.league_timezone`)."""
    night, deadline = tie_night(tie), tie_deadline(tie)
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
        end = deadline.astimezone(tz)
        event.add("summary", f"Play by: {tie.competition.name} {where}: {home} v {away}")
        event.add("dtstart", end - timedelta(hours=1))
        event.add("dtend", end)
    else:
        return None
    if tie.fixture is not None:
        venue = tie.fixture.venue
        event.add("location", f"{venue.name}, {venue.address}".strip(", "))
    event.add("url", settings.SITE_URL.rstrip("/") + reverse("tie-detail", args=[tie.pk]))
    if tie.decided:
        event.add("description", f"{tie.get_status_display()}")
    if tie.fixture is not None and tie.fixture.status == "postponed":
        event.add("status", "CANCELLED")
    return event


def ties_calendar(title: str, ties: list[Tie]) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//Marker//cup ties//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", title)
    for tie in ties:
        tz = league_timezone(tie.competition.league)
        event = tie_event(tie, tz)
        if event is None:
            continue
        stamp = tie_night(tie)
        event.add(
            "dtstamp",
            datetime.combine(stamp, MATCH_START, tzinfo=tz) if stamp else event.decoded("dtend"),
        )
        cal.add_component(event)
    add_timezones(cal)
    return cal.to_ical()
