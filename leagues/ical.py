"""A team's fixtures as an iCalendar feed captains can subscribe to on their phones."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from icalendar import Calendar, Event

MATCH_START = time(20, 0)
MATCH_LENGTH = timedelta(hours=3)


def team_calendar(team, fixtures) -> bytes:
    tz = ZoneInfo(settings.TIME_ZONE)
    cal = Calendar()
    cal.add("prodid", "-//Marker//league fixtures//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{team.name} fixtures")
    for fixture in fixtures:
        if fixture.date is None:
            continue
        start = datetime.combine(fixture.date, MATCH_START, tzinfo=tz)
        event = Event()
        event.add("uid", f"fixture-{fixture.pk}@marker")
        home_away = "home" if fixture.home_id == team.pk else "away"
        status = " (postponed)" if fixture.status == "postponed" else ""
        event.add("summary", f"{fixture.home.name} v {fixture.away.name} ({home_away}){status}")
        event.add("dtstart", start)
        event.add("dtend", start + MATCH_LENGTH)
        event.add("dtstamp", start)
        event.add("location", f"{fixture.venue.name}, {fixture.venue.address}".strip(", "))
        event.add("url", settings.SITE_URL.rstrip("/") + fixture.get_absolute_url())
        if fixture.status == "postponed":
            event.add("status", "CANCELLED")
        cal.add_component(event)
    return cal.to_ical()
