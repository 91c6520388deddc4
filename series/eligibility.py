"""A category series' eligibility: ladies, over-N and under-N by date of birth on a
given day (or on the day of entry), checked when a player enters one of its events or is
given a placing in an off-system one. A refusal names the category, never the date."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import timezone

from marker.errors import DomainError

from .models import Series, SeriesEvent

CODE = "series_not_eligible"


def age_on(born: date, day: date) -> int:
    """Whole years old on `day`.

    >>> age_on(date(1976, 3, 1), date(2026, 2, 28)), age_on(date(1976, 3, 1), date(2026, 3, 1))
    (49, 50)
    """
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def eligible(series: Series, player: Any, on: date) -> bool:
    """Whether `player` is in the series' category on the day `on` (of entry)."""
    if series.category == Series.Category.OPEN:
        return True
    if series.category == Series.Category.LADIES:
        return bool(player.plays_ladies)
    born = player.date_of_birth
    if born is None:
        return False
    age = age_on(born, series.age_reckoned_on(on))
    assert series.category_age is not None
    if series.category == Series.Category.OVER:
        return age >= series.category_age
    return age < series.category_age


def check(series: Series, player: Any, on: date, event_name: str) -> None:
    """Refuse a player outside the series' category, naming the category only."""
    if eligible(series, player, on):
        return
    category = series.category_name
    if series.category == Series.Category.LADIES:
        why = "Ladies' events are for players who have said so on their personal-data page."
    elif player.date_of_birth is None:
        why = (
            f"{category} is checked by date of birth, and none is recorded: the player "
            "adds it on their personal-data page."
        )
    else:
        why = f"By the date of birth recorded, {player.public_name} is not in it."
    raise DomainError(
        CODE,
        f"{player.public_name} is not eligible for {event_name}: it counts for the "
        f"{series.name}, a {category} series. {why}",
        field="player",
    )


def check_entry(competition: Any, player: Any, now: datetime) -> None:
    """The competitions app's entry hook: every category series the competition counts
    for must take the player."""
    on = timezone.localdate(now)
    events = SeriesEvent.objects.filter(competition=competition).exclude(
        series__category=Series.Category.OPEN
    )
    for event in events.select_related("series"):
        check(event.series, player, on, competition.name)
