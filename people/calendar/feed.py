"""A person's own calendar feed, gathered from a list of sources.

Each source is a function of the feed's `Scope` (the player, their current teams, the
time) returning `Item`s: an iCalendar event (made where that kind of thing has its home:
`leagues.ical.fixture_event`, `competitions.ical.tie_event`) and the reminder it
carries. `SOURCES` lists them; adding a kind of event to everyone's calendar is adding a
function to it. The feed then gives each event its DTSTAMP, SEQUENCE and LAST-MODIFIED
from `CalendarEventVersion` (the same UID on every refresh; SEQUENCE and LAST-MODIFIED
move when the event changes), and one VTIMEZONE per time zone its events are in.

Queries: the scope (1), one per source, the versions (1), and one write when an event is
new or changed: constant in the number of events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from icalendar import Alarm, Calendar, Event

from competitions.ical import tie_event, tie_night, ties_of
from leagues.availability.selectors import availability_deadlines_for_player
from leagues.ical import add_timezones, fixture_event, league_timezone
from leagues.models import CalendarEventVersion, Fixture, Player, Registration, Season

#: A fixture (a match night, a cup tie's night) reminds this long before it starts.
MATCH_REMINDER = timedelta(hours=3)
#: A deadline (a tie's play-by date) reminds this long before it passes.
DEADLINE_REMINDER = timedelta(days=1)
#: Sources with no season to bound them leave out what ended before this long ago.
HISTORY = timedelta(days=31)


@dataclass(frozen=True)
class Scope:
    """Whose calendar, and when: the player, the teams they are on in current seasons
    (ids: active registrations, seasons not finished), the time of the request, and the
    earliest time a source without a season to bound it goes back to (`since`)."""

    player: Player
    team_ids: tuple[int, ...]
    now: datetime
    since: datetime


@dataclass(frozen=True)
class Reminder:
    """A VALARM: shown `before` the event's start (or its end, for a deadline)."""

    before: timedelta
    text: str
    from_end: bool = False


@dataclass(frozen=True)
class Item:
    """One event of the feed (no DTSTAMP, SEQUENCE or LAST-MODIFIED: the feed adds
    them) and its reminder, if any."""

    event: Event
    reminder: Reminder | None = None


Source = Callable[[Scope], Iterable[Item]]


def scope_for(player: Player, *, now: datetime | None = None) -> Scope:
    """The player's scope (one query: their current teams)."""
    now = now or timezone.now()
    teams = (
        Registration.objects.filter(player=player, status=Registration.Status.ACTIVE)
        .exclude(season__status=Season.Status.FINISHED)
        .order_by("team_id")
        .values_list("team_id", flat=True)
    )
    return Scope(player=player, team_ids=tuple(teams), now=now, since=now - HISTORY)


# ------------------------------------------------------------------------- sources


def fixture_items(scope: Scope) -> list[Item]:
    """Every league fixture of the player's current teams, from their side (home or
    away), reminding three hours before unless postponed or played (one query). Cup
    fixtures come as ties (`tie_items`)."""
    if not scope.team_ids:
        return []
    teams = set(scope.team_ids)
    fixtures = (
        Fixture.objects.filter(Q(home__in=teams) | Q(away__in=teams), kind=Fixture.Kind.LEAGUE)
        .select_related("home", "away", "venue", "season__league")
        .order_by("date", "id")
    )
    items = []
    for fixture in fixtures:
        team = fixture.home if fixture.home_id in teams else fixture.away
        side = "home" if team.pk == fixture.home_id else "away"
        tz = league_timezone(fixture.season.league)
        event = fixture_event(fixture, team, tz, uid=f"fixture-{fixture.pk}-{side}@marker")
        if event is None:
            continue
        live = fixture.status == Fixture.Status.SCHEDULED and not fixture.has_result
        reminder = (
            Reminder(MATCH_REMINDER, f"{fixture.home.name} v {fixture.away.name} tonight")
            if live
            else None
        )
        items.append(Item(event, reminder))
    return items


def tie_items(scope: Scope) -> list[Item]:
    """Every cup tie of current seasons the player is in, or one of their teams is (one
    query): a tie with a night reminds three hours before it, a tie to be played by a
    deadline one day before the deadline; a decided tie reminds of nothing."""
    items = []
    for tie in ties_of(player=scope.player, teams=scope.team_ids, current=True):
        event = tie_event(tie, league_timezone(tie.competition.league))
        if event is None:
            continue
        reminder = None
        if not tie.decided:
            if tie_night(tie) is not None:
                reminder = Reminder(MATCH_REMINDER, f"{event['summary']} tonight")
            else:
                reminder = Reminder(DEADLINE_REMINDER, f"{event['summary']}", from_end=True)
        items.append(Item(event, reminder))
    return items


def deadline_item(
    *, uid: str, summary: str, deadline: datetime, tz: ZoneInfo, url: str = ""
) -> Item:
    """An answer-by or play-by deadline as an item: an hour ending at the deadline (in
    `tz`, the league's), reminding one day before it. For a source whose rows are
    deadlines (the availability answers' `availability_deadlines_for_player`)."""
    end = deadline.astimezone(tz)
    event = Event()
    event.add("uid", uid)
    event.add("summary", summary)
    event.add("dtstart", end - timedelta(hours=1))
    event.add("dtend", end)
    if url:
        event.add("url", url)
    return Item(event, Reminder(DEADLINE_REMINDER, summary, from_end=True))


def availability_items(scope: Scope) -> list[Item]:
    """The answer-by deadlines of the availability asks made to the player (one query),
    each reminding a day before, linking to their availability page."""
    url = settings.SITE_URL.rstrip("/") + reverse("my-availability")
    return [
        deadline_item(
            uid=f"availability-{fixture.pk}-{team.pk}@marker",
            summary=f"Answer: are you playing {fixture.home.name} v {fixture.away.name}?",
            deadline=deadline,
            tz=league_timezone(team.season.league),
            url=url,
        )
        for fixture, team, deadline in availability_deadlines_for_player(scope.player, scope.since)
    ]


#: What a person's calendar holds, source by source.
SOURCES: tuple[Source, ...] = (fixture_items, tie_items, availability_items)


# ------------------------------------------------------------------------ the feed


def _alarm(reminder: Reminder) -> Alarm:
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", reminder.text)
    alarm.add(
        "trigger",
        -reminder.before,
        parameters={"RELATED": "END"} if reminder.from_end else {},
    )
    return alarm


def _digest(event: Event) -> str:
    return hashlib.sha256(event.to_ical()).hexdigest()


def _versions(events: dict[str, Event], now: datetime) -> dict[str, CalendarEventVersion]:
    """Each event's version: as stored while its digest is unchanged; a new event's is
    0, a changed one's the next, both stamped `now` (one read, one write if any)."""
    stored = {v.uid: v for v in CalendarEventVersion.objects.filter(uid__in=list(events))}
    changed = []
    for uid, event in events.items():
        digest = _digest(event)
        old = stored.get(uid)
        if old is not None and old.digest == digest:
            continue
        version = CalendarEventVersion(
            uid=uid,
            digest=digest,
            sequence=0 if old is None else old.sequence + 1,
            modified_at=now,
        )
        stored[uid] = version
        changed.append(version)
    if changed:
        # Two feeds refreshed at once write the same version: the last one stands.
        CalendarEventVersion.objects.bulk_create(
            changed,
            update_conflicts=True,
            unique_fields=["uid"],
            update_fields=["digest", "sequence", "modified_at"],
        )
    return stored


def person_calendar(
    player: Player, *, now: datetime | None = None, sources: Iterable[Source] = SOURCES
) -> bytes:
    """The player's calendar: every source's events, each with its reminder, UID,
    SEQUENCE, LAST-MODIFIED and DTSTAMP, and the time zones they are in."""
    scope = scope_for(player, now=now)
    events: dict[str, Event] = {}
    for source in sources:
        for item in source(scope):
            if item.reminder is not None:
                item.event.add_component(_alarm(item.reminder))
            events.setdefault(str(item.event["uid"]), item.event)
    versions = _versions(events, scope.now)
    cal = Calendar()
    cal.add("prodid", "-//Marker//my calendar//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    # No name: the address may be shared, and it names no one (public names only).
    cal.add("x-wr-calname", "Marker: my matches")
    cal.add("x-wr-caldesc", "Your fixtures, cup ties and deadlines in Marker")
    cal.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT1H")
    for uid, event in events.items():
        version = versions[uid]
        event.add("dtstamp", version.modified_at)
        event.add("last-modified", version.modified_at)
        event.add("sequence", version.sequence)
        cal.add_component(event)
    add_timezones(cal)
    return cal.to_ical()
