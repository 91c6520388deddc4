"""The demo Grand Prix: six opens, best four, four played; its standings are those the
demo's placings give by hand."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from series import selectors
from series import standings as calc
from series.models import Series

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demo_grand_prix():
    call_command("demo_league")
    call_command("demo_series")
    call_command("demo_series")  # a second run changes nothing
    series = Series.objects.get(league__slug="norwich")
    table = selectors.series_standings(series)
    assert (len(table.events), table.played_count, series.best_n) == (6, 4, 4)
    # Worked by hand from demo_series.PLACINGS (25/18/12/8, 2 beyond): the third player
    # 12+18+25+25 = 80, the second 18+25+12+12 = 67, the first 25+12+18+8 = 63, the
    # fourth 8+12+18+12 = 50, the fifth 12+8+12+8 = 40, the sixth 8+8+18 = 34, the
    # eighth 2+8+8 = 18, the seventh 2+8+2 = 12.
    assert [calc.fmt(r.total) for r in table.rows] == [
        "80",
        "67",
        "63",
        "50",
        "40",
        "34",
        "18",
        "12",
    ]
    assert table.next_event is not None and table.next_event.name == "Open 5"
    assert all(r.needs_above for r in table.rows[1:])
