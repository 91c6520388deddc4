"""A ranking series' standings on a phone: nothing wider than the screen, tap targets of
44 × 44 px, no serious axe-core violation; a tap on a player opens the explanation (what
counted, what was dropped, the tie-break) and the date of birth is nowhere on the page."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from tests.conftest import make_league
from tests.series.test_series import _grand_prix

from .test_every_page import look, visit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_standings_fit_a_phone_and_a_tap_explains_a_total(phone):
    problems: list[str] = []
    league = make_league(teams_per_division=2, players_per_team=4)
    series, players = _grand_prix(league, played=4)
    bob = players[2]
    bob.date_of_birth = date(1958, 4, 17)
    bob.save(update_fields=["date_of_birth"])
    page = phone().new_page()
    visit(page, reverse("series-detail", args=[series.pk]), "series-detail", problems)
    explanation = page.locator(f"#player-{bob.pk} p.why").first
    assert not explanation.is_visible()
    page.locator(f"#player-{bob.pk} summary").click()
    assert explanation.is_visible()
    text = page.locator(f"#player-{bob.pk}").inner_text()
    assert "Best 4: 25 + 18 + 12 + 12 = 67." in text
    assert "To pass Cat (80)" in text
    look(page, "series-detail-open", "series-detail-open", problems)
    assert "1958" not in page.content() and "17 April" not in page.content()
    visit(page, reverse("series-events", args=[series.pk]), "series-events", problems)
    secretary = phone(league.secretary).new_page()
    visit(secretary, reverse("series-edit", args=[series.pk]), "series-edit", problems)
    event = series.events.order_by("number").last()
    visit(
        secretary,
        reverse("series-event-results", args=[event.pk]),
        "series-event-results",
        problems,
    )
    assert problems == [], "\n".join(problems)
