"""The county's ranking on a phone: from the county's page to its bar billiards ranking,
players of both member leagues, movement since a month before and new entries, a player
shown by initials, the page fitting 390 px with every tap target 44 px. Screenshots go to
$SCREENSHOTS (if set)."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from frames.ratings.rankings import months_before
from tests.e2e.test_every_page import MEASURE, TAP_TARGETS
from tests.factories import LeagueFactory, PlayerFactory
from tests.frames.rankings_support import county, history

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_county_ranking_on_a_phone(phone):
    today = timezone.localdate()
    before = months_before(today, 2)  # ranked a month ago already
    lately = today - timedelta(days=3)
    norwich = LeagueFactory(name="Norwich & District 4-Pin League", slug="norwich")
    yarmouth = LeagueFactory(name="Great Yarmouth & District 4-Pin League", slug="yarmouth")
    county(norwich, yarmouth, min_frames=3)
    alan = PlayerFactory(name="Alan Adcock")
    history(alan, [(before, norwich, 10.0)] * 3 + [(lately, yarmouth, 14.0)])
    history(
        PlayerFactory(name="Barry Bunn"), [(before, norwich, 20.0)] * 3 + [(lately, norwich, 9.0)]
    )
    history(
        PlayerFactory(name="Carol Cubitt"),
        [(before, yarmouth, 5.0)] * 3 + [(lately, yarmouth, 16.0)],
    )
    history(PlayerFactory(name="Nora Nobbs", private_name=True), [(lately, yarmouth, 5.0)] * 3)
    history(PlayerFactory(name="Harry Howlett"), [(lately, norwich, 25.0)] * 2)

    page = phone().new_page()
    page.goto("/org/norfolk/")
    page.get_by_role("link", name="Rankings").click()
    page.get_by_role("link", name="4-pin bar billiards").click()
    expect(page.get_by_role("heading", name="4-pin bar billiards ranking")).to_be_visible()
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Carol Cubitt")
    expect(rows.nth(0)).to_contain_text("▲ 2")  # 3rd a month ago
    expect(rows.nth(1)).to_contain_text("Alan Adcock")
    expect(rows.nth(1)).to_contain_text("Great Yarmouth & District 4-Pin League")
    expect(rows.nth(1)).to_contain_text("Norwich & District 4-Pin League")
    expect(rows.nth(2)).to_contain_text("▼ 2")  # Barry: 1st a month ago
    expect(rows.nth(3)).to_contain_text("N. N.")
    expect(rows.nth(3)).to_contain_text("new")
    expect(page.get_by_text("Nora Nobbs")).to_have_count(0)
    expect(page.get_by_text("fewer than 3 rated frames in the last twelve months")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page fits
    assert page.evaluate(MEASURE, TAP_TARGETS) == []
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, "county-ranking.png"), full_page=True)
    # a row leads to the player's ratings
    rows.nth(1).get_by_role("link", name="Alan Adcock").click()
    expect(page).to_have_url(re.compile(rf"/players/{alan.pk}/ratings/$"))
