"""A team's fixtures as an iCalendar feed captains can subscribe to on their phones, and
the one place a fixture becomes a calendar event (`fixture_event`), which a person's own
calendar (`people.calendar`) builds on."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from icalendar import Calendar, Event

MATCH_START = time(20, 0)
MATCH_LENGTH = timedelta(hours=3)


def league_timezone(league) -> ZoneInfo:
    """The time zone a league's match nights are in. Every league of an instance plays in
    the site's (`TIME_ZONE`, Europe/London by default): the nights, the reminders and the
    pages all read it; this is the one place a calendar asks."""
    return ZoneInfo(settings.TIME_ZONE)


def add_timezones(cal: Calendar) -> None:
    """Add a VTIMEZONE for each time zone the calendar's events name (TZID), covering the
    years its events are in (and the next), so it stays short."""
    years = [event.decoded("dtstart").year for event in cal.walk("VEVENT") if "dtstart" in event]
    if years:
        cal.add_missing_timezones(
            first_date=date(min(years), 1, 1), last_date=date(max(years) + 2, 1, 1)
        )


def fixture_event(fixture, team, tz: ZoneInfo, *, uid: str | None = None) -> Event | None:
    """A dated fixture as an event seen from `team`'s side (home or away): its night at
    the league's match time in the league's time zone (TZID), the venue, the page, and
    STATUS:CANCELLED while it is postponed. None for a fixture with no date.
    `fixture` needs its home and away teams and venue loaded; `tz` is its league's
    (`league_timezone`)."""
    if fixture.date is None:
        return None
    start = datetime.combine(fixture.date, MATCH_START, tzinfo=tz)
    event = Event()
    event.add("uid", uid or f"fixture-{fixture.pk}@marker")
    home_away = "home" if fixture.home_id == team.pk else "away"
    status = " (postponed)" if fixture.status == "postponed" else ""
    event.add("summary", f"{fixture.home.name} v {fixture.away.name} ({home_away}){status}")
    event.add("dtstart", start)
    event.add("dtend", start + MATCH_LENGTH)
    event.add("location", f"{fixture.venue.name}, {fixture.venue.address}".strip(", "))
    event.add("url", settings.SITE_URL.rstrip("/") + fixture.get_absolute_url())
    if fixture.has_result:
        event.add("description", f"Result: {fixture.frames_display}")
    if fixture.status == "postponed":
        event.add("status", "CANCELLED")
    else:
        event.add("status", "CONFIRMED")
    return event


def team_calendar(team, fixtures) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//Marker//league fixtures//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{team.name} fixtures")
    tz = league_timezone(team.season.league)
    for fixture in fixtures:
        event = fixture_event(fixture, team, tz)
        if event is None:
            continue
        event.add("dtstamp", event.decoded("dtstart"))
        cal.add_component(event)
    add_timezones(cal)
    return cal.to_ical()
