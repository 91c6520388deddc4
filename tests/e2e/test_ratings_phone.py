"""Issue 20's "done when": a newcomer opens a player's ratings, hole map and a frame's
worm from the player and frame pages on a phone. Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os
from datetime import date, timedelta

import pytest
from playwright.sync_api import expect

from frames.ratings import services
from tests.conftest import make_league
from tests.frames.ratings.test_pages import make_night
from tests.frames.ratings_support import BB, confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_newcomer_opens_ratings_hole_map_and_worm_on_a_phone(phone, live_server):
    league = make_league(teams_per_division=4, players_per_team=4)
    night = make_night(league)
    player = night["home"]
    used = {f.pk for f in fixtures_of(league)[:6]}
    for week, fixture in enumerate(
        f for f in fixtures_of(league, league.second) if f.pk not in used
    ):
        a = roster(fixture.away)
        confirmed_match(
            fixture,
            date(2026, 10, 6) + timedelta(weeks=week),
            [([player], [a[0]], 600 + 100 * (week % 3), 500 if week % 4 else 900)],
        )
    run = services.ratings_request(game_id=BB, since=None, reason="rebuild")
    services.ratings_run(run_id=run.pk)

    page = phone().new_page()
    page.goto(f"/players/{player.pk}/")
    expect(page.get_by_role("heading", name="Ratings")).to_be_visible()  # loaded by htmx
    expect(page.get_by_role("img", name="Rating over")).to_be_visible()
    expect(page.get_by_role("img", name="Where 5 pots went")).to_be_visible()
    shot(page, "ratings-player.png")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone

    page.goto(f"/matches/{night['match'].pk}/")
    expect(page.get_by_role("heading", name="What the ratings expect")).to_be_visible()
    page.get_by_role("link", name="frame 1's worm").click()  # from the match page
    expect(page.get_by_role("img", name="The worm")).to_be_visible()
    shot(page, "ratings-worm.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
