"""Issue 30 part 3's "done when" on a phone: the match page has a Share button that uses
the share sheet where the phone has one and otherwise copies the link ("Link copied"); the
card it shares is a PNG of the Open Graph size. Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import io
import os
from datetime import date
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from PIL import Image
from playwright.sync_api import expect

from tests.conftest import make_league
from tests.frames.ratings_support import confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


@pytest.fixture
def match(settings, live_server):
    settings.SITE_URL = live_server.url
    cache.clear()
    league = make_league(teams_per_division=4, players_per_team=4)
    fixture = fixtures_of(league)[0]
    home, away = roster(fixture.home), roster(fixture.away)
    return confirmed_match(
        fixture,
        date(2026, 9, 8),
        [
            ([home[0]], [away[0]], 620, 380),
            ([home[1]], [away[1]], 200, 450),
            ([home[2], home[3]], [away[2], away[3]], 900, 310),
        ],
    )


def test_the_share_button_copies_the_link_where_there_is_no_share_sheet(phone, live_server, match):
    context = phone(permissions=["clipboard-read", "clipboard-write"])
    # No share sheet: desktop Chromium may have one, a phone's browser without it must copy.
    context.add_init_script(
        "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
    )
    page = context.new_page()
    page.goto(f"/matches/{match.pk}/")
    button = page.get_by_role("button", name="Share")
    expect(button).to_be_visible()
    shot(page, "result-card-match-page.png")
    button.click()
    expect(page.get_by_role("status")).to_have_text("Link copied")
    assert (
        page.evaluate("navigator.clipboard.readText()") == f"{live_server.url}/matches/{match.pk}/"
    )
    shot(page, "result-card-link-copied.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_share_button_opens_the_share_sheet_with_the_score(phone, match):
    context = phone()
    context.add_init_script(
        "window.__shared = []; Navigator.prototype.share = async function (d) { window.__shared.push(d); };"
        "Navigator.prototype.canShare = () => true;"
    )
    page = context.new_page()
    page.goto(f"/matches/{match.pk}/")
    page.get_by_role("button", name="Share").click()
    # (polled from here: the page's CSP forbids the eval wait_for_function polls with)
    for _ in range(100):
        if page.evaluate("window.__shared.length") == 1:
            break
        page.wait_for_timeout(100)
    shared = page.evaluate("window.__shared[0]")
    home, away = match.fixture.home.name, match.fixture.away.name
    assert shared["title"] == f"{home} 2–1 {away}"
    assert shared["text"].startswith(f"{home} beat {away} 2–1")
    assert shared["url"].endswith(f"/matches/{match.pk}/")
    expect(page.get_by_role("status")).to_have_text("")


def test_the_card_the_page_names_is_a_png_of_the_open_graph_size(phone, match):
    page = phone().new_page()
    page.goto(f"/matches/{match.pk}/")
    image_url = page.locator('meta[property="og:image"]').get_attribute("content")
    response = page.request.get(image_url)
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    picture = Image.open(io.BytesIO(response.body()))
    assert picture.size == (1200, 630)
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        with open(os.path.join(folder, "result-card-match.png"), "wb") as out:
            out.write(response.body())
    # The card as a phone shows it (in a page of its own: axe checks every page visited).
    page.set_content(
        f'<html lang="en"><body><img src="{image_url}" alt="The card" width="360"></body></html>'
    )
    page.wait_for_function(
        "document.images[0].complete && document.images[0].naturalWidth === 1200"
    )
    shot(page, "result-card-in-the-browser.png")


def test_a_cup_tie_and_a_frame_page_share_their_cards_too(phone, match):
    from competitions.models import Tie
    from competitions.services.entries import entry_create
    from competitions.services.setup import competition_create
    from competitions.services.ties import tie_record_paper
    from tests.competitions.helpers import NOW, drawn, registered_players
    from tests.factories import make_secretary

    season = match.fixture.season
    secretary = make_secretary(season.league, username="cards-secretary")

    league = SimpleNamespace(season=season)  # what `registered_players` reads
    comp = competition_create(
        actor=secretary, season=season, name="Landlord's Cup", kind="singles", now=NOW
    )
    for player in registered_players(league, 2):
        entry_create(actor=secretary, competition=comp, player=player, now=NOW)
    drawn(comp, secretary)
    tie = Tie.objects.get(competition=comp, status="scheduled")
    tie_record_paper(
        actor=secretary,
        tie=tie,
        frames=[{"home": 300, "away": 200}, {"home": 120, "away": 250}, {"home": 310, "away": 0}],
        now=NOW,
    )
    page = phone().new_page()
    page.goto(f"/ties/{tie.pk}/")
    expect(page.get_by_role("button", name="Share")).to_be_visible()
    image_url = page.locator('meta[property="og:image"]').get_attribute("content")
    shot(page, "result-card-tie-page.png")
    response = page.request.get(image_url)
    assert Image.open(io.BytesIO(response.body())).size == (1200, 630)
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        with open(os.path.join(folder, "result-card-tie.png"), "wb") as out:
            out.write(response.body())
        frame = match.frames.get(number=3)
        with open(os.path.join(folder, "result-card-frame.png"), "wb") as out:
            out.write(page.request.get(f"/frames/{frame.pk}/card.png").body())
    page.goto(f"/frames/{match.frames.get(number=3).pk}/worm/")
    expect(page.get_by_role("button", name="Share")).to_be_visible()
    shot(page, "result-card-worm-page.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
