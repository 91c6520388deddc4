"""Issue 28, item 21: a visitor on a phone opens Chester (the demo's bagatelle league, its
results confirmed, no table published) and finds its table, marked provisional, on the
league's page and the division's. Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from frames.management.commands.demo_match_nights import play_nights
from leagues.management.commands.demo_league import build_demo_bagatelle_league
from leagues.models import Fixture, Publication

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_a_visitor_finds_chesters_provisional_table_on_a_phone(phone, live_server):
    league = build_demo_bagatelle_league()
    season = league.seasons.get()
    secretary = get_user_model().objects.get(username="secretary")
    play_nights(StringIO(), "Chester", season, secretary, 1)
    confirmed = Fixture.objects.filter(season=season, result_confirmed_at__isnull=False)
    assert confirmed.count() == 2 and not Publication.objects.exists()

    page = phone().new_page()
    page.goto("/chester/")
    expect(page.get_by_text("Provisional table.")).to_be_visible()
    table = page.locator("table.league-table")
    expect(table).to_have_count(1)
    expect(table.locator("caption")).to_contain_text("provisional")
    expect(table.locator("tr.team-row")).to_have_count(4)
    expect(page.get_by_text("Worked out from the 2 results confirmed so far")).to_be_visible()
    shot(page, "chester-home-provisional.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.get_by_role("link", name="Division One").first.click()
    expect(page.get_by_role("heading", name="Division One", level=1)).to_be_visible()
    expect(page.get_by_text("No table has been published yet.", exact=True)).to_be_visible()
    expect(page.get_by_text("Provisional table.")).to_be_visible()
    rows = page.locator("table.league-table tr.team-row")
    expect(rows).to_have_count(4)
    names = [rows.nth(i).locator("td.team").inner_text().strip() for i in range(4)]
    assert sorted(names) == sorted(season.teams.values_list("name", flat=True))
    winners = {f.home.name if f.home_frames > f.away_frames else f.away.name for f in confirmed}
    if all(f.home_frames != f.away_frames for f in confirmed):
        assert set(names[:2]) == winners  # the night's two winners head the table
    shot(page, "chester-division-provisional.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
