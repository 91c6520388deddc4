"""The league's rule book on a phone and on paper (issue 29, item 4): it fits the screen,
and printed it is A4 with the site's navigation and the buttons left off. Screenshots go
to MARKER_SHOTS when set, to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import make_league

from .test_every_page import MEASURE, TAP_TARGETS, WIDEST

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("MARKER_SHOTS", "")


def test_the_rule_book_fits_a_phone_and_prints_on_a4(phone):
    league = make_league(teams_per_division=2, players_per_team=5)
    slug = league.season.league.slug
    page = phone().new_page()
    page.goto(reverse("league-rules", args=[slug]))
    assert page.locator("h1").inner_text().endswith(": the rules")
    assert page.locator("#house-rules").get_by_text("White balls in the set").is_visible()
    assert page.locator("#game-rules").get_by_text("Bar billiards is a pub game").is_visible()
    assert page.evaluate(WIDEST) == []
    assert page.evaluate(MEASURE, TAP_TARGETS) == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "rule-book-phone.png"))

    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    assert not page.locator("p.actions").is_visible()
    assert not page.locator("p.crumbs").is_visible()
    assert page.locator(".print-only").is_visible()
    pdf = page.pdf(prefer_css_page_size=True)
    # The first page's box is A4 (595 × 842 points), as the print style sheet asks.
    assert b"/MediaBox [0 0 595" in pdf or b"/MediaBox [0 0 594.9" in pdf
    if SHOTS:
        (Path(SHOTS) / "rule-book.pdf").write_bytes(pdf)
        page.screenshot(path=str(Path(SHOTS) / "rule-book-print.png"))
