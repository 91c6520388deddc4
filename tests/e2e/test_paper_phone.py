"""A captain of a bagatelle league keys a paper score sheet in on a phone: the boxes take
the points the game scores (131 and 96), not tens, and the match page shows them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from frames.models import Frame
from leagues.models import Season
from tests.conftest import make_league
from tests.frames.matchnight_helpers import drawn, frames_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_bagatelle_paper_sheet_takes_131_and_96_on_a_phone(phone, live_server):
    league = make_league(teams_per_division=4, players_per_team=6)
    Season.objects.filter(pk=league.season.pk).update(game_id="english_bagatelle")
    match = drawn(league)
    first = frames_of(match)[0].number

    page = phone(league.captain).new_page()
    page.goto(f"/matches/{match.pk}/paper/")
    expect(page.get_by_role("heading", name="Key in the paper score sheet")).to_be_visible()
    expect(page.get_by_text("(points)")).to_be_visible()
    home = page.locator(f'input[name="home_{first}"]')
    away = page.locator(f'input[name="away_{first}"]')
    home.press_sequentially("131")
    away.press_sequentially("96")
    page.get_by_role("button", name="Save the scores").click()

    page.wait_for_url(f"**/matches/{match.pk}/")
    expect(page.get_by_text("The paper scores are in.")).to_be_visible()
    expect(page.get_by_text("131–96").first).to_be_visible()
    frame = Frame.objects.get(match=match, number=first)
    assert (frame.home_score, frame.away_score, frame.result_source) == (131, 96, "paper")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
