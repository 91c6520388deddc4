"""What ranking series hold of a person (`marker.personal_data`): their placings in
events run off-system. Kept on erasure: they hang on the player record, which is
renamed; standings show 'Former player N'."""

from __future__ import annotations

from typing import Any

from marker.personal_data import Person, Section

from .models import SeriesResult


def _results(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "series": r.event.series.name,
            "event": r.event.name,
            "placing": r.placing,
        }
        for r in SeriesResult.objects.filter(player=person.player)
        .select_related("event__series")
        .order_by("event__series_id", "event__number")
    ]


SECTIONS: tuple[Section, ...] = (
    Section(
        "series_results",
        ("series.SeriesResult.player",),
        export=_results,
        description="placings in ranking series' off-system events (kept, renamed)",
    ),
)

NOT_PERSONAL: dict[str, str] = {
    "series.Series.name": "a ranking series' name",
    "series.Series.points_table": "a series' points table: numbers",
    "series.Series.tie_breakers": "the order of a series' tie-breakers",
    "series.SeriesEvent.name": "an event's name",
}
