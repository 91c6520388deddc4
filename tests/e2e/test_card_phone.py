"""The paper card on a phone: the captain photographs the signed card from the match page
(a JPEG carrying GPS), and sees it beside the scorecard, stored without its location, on
the filesystem and on an S3-compatible server alike; the secretary sees it when settling.
Site notices: the banner on the league's pages, dismissed for this browser, and the pad's
header."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from frames.models import CardPhoto
from leagues.notices import services as notices
from tests.conftest import make_league
from tests.e2e.conftest import assert_accessible
from tests.e2e.test_every_page import MEASURE, TAP_TARGETS
from tests.factories import make_site_admin
from tests.frames import card_helpers
from tests.frames.card_helpers import has_no_metadata, phone_jpeg
from tests.frames.matchnight_helpers import drawn, fixture_of, frames_of

pytestmark = pytest.mark.django_db(transaction=True)

card_storage = card_helpers.card_storage
s3_server = card_helpers.s3_server
SHOTS = os.environ.get("MARKER_SCREENSHOTS", "")


def assert_thumb_sized(page) -> None:
    """Every tap target at least 44 × 44 px (as tests/e2e/test_every_page.py measures)."""
    assert page.evaluate(MEASURE, TAP_TARGETS) == []


def shot(page, name: str) -> None:
    """A screenshot for a person to look at, when MARKER_SCREENSHOTS names a directory."""
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_a_phone_photo_of_the_card_appears_on_the_scorecard_without_gps(
    phone, live_server, card_storage
):
    league = make_league(teams_per_division=4, players_per_team=6)
    match = drawn(league)
    fixture = fixture_of(league)
    fixture.date = timezone.localdate() - timedelta(days=3)
    fixture.save(update_fields=["date"])

    page = phone(league.captain).new_page()
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_text("No card received").first).to_be_visible()
    photo_input = page.locator('input[type="file"][capture="environment"]')
    assert photo_input.get_attribute("accept") == "image/*"
    photo_input.set_input_files(
        files=[{"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg()}]
    )
    page.get_by_role("button", name="Add the photo").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    expect(page.get_by_text("The photo of the card is stored")).to_be_visible()

    thumb = page.get_by_role("img", name="Photo 1 of the signed card")
    expect(thumb).to_be_visible()
    # The thumbnail loads lazily (loading="lazy"): as the captain scrolls to it. How far
    # below the screen the browser starts loading depends on its estimate of the network.
    thumb.scroll_into_view_if_needed()
    # Loaded through the permission-checked view (a broken image has no natural width).
    # (polled from here: the page's CSP forbids eval, which wait_for_function's polling
    # needs when the image is not loaded at the first look)
    for _ in range(100):
        if thumb.evaluate("img => img.complete && img.naturalWidth > 0"):
            break
        page.wait_for_timeout(100)
    if not thumb.evaluate("img => img.complete && img.naturalWidth > 0"):
        src = thumb.get_attribute("src")
        again = page.request.get(src)
        pytest.fail(
            f"the thumbnail {src} did not load: GET again answers {again.status} "
            f"{again.text()[:200]!r}; rows {list(CardPhoto.objects.values_list('pk', 'thumbnail'))}; "
            f"in the storage {card_storage.names()}"
        )
    expect(page.get_by_text("No card received")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)
    assert_thumb_sized(page)
    shot(page, f"card-match-page-{card_storage.kind}")

    # What the storage holds has no EXIF, so no GPS; what the page served is the same.
    photo = CardPhoto.objects.get(match=match)
    stored = card_storage(photo.image.name)
    assert has_no_metadata(stored)
    served = page.request.get(f"/cards/{photo.pk}/")
    assert served.ok and served.body() == stored

    # The secretary settling the result sees the card beside the scores.
    settle = phone(league.secretary).new_page()
    settle.goto(f"/matches/{match.pk}/settle/")
    expect(settle.get_by_role("img", name="Photo 1 of the signed card")).to_be_visible()
    assert_thumb_sized(settle)
    shot(settle, f"card-settle-page-{card_storage.kind}")


def test_a_notice_on_the_league_pages_dismissed_here_and_on_the_pad(phone, live_server):
    league = make_league(teams_per_division=4, players_per_team=6)
    match = drawn(league)
    the_league = league.season.league
    admin = make_site_admin(username="site-admin")
    notices.notice_create(league=None, title="Marker is down for an upgrade at 23:00", actor=admin)
    notices.notice_create(
        league=the_league,
        title="AGM on Friday",
        body="At the Kings Head, 8 pm. Captains please come.",
        level="warning",
        actor=league.secretary,
    )
    page = phone(league.captain).new_page()
    page.goto(f"/{the_league.slug}/")
    agm = page.get_by_role("region", name="Warning: AGM on Friday")
    expect(agm).to_be_visible()
    expect(page.get_by_text("Marker is down for an upgrade at 23:00", exact=True)).to_be_visible()
    assert_thumb_sized(page)
    shot(page, "notice-banner")
    agm.get_by_role("button", name="Dismiss").click()
    expect(agm).to_be_hidden()
    page.goto(f"/{the_league.slug}/")
    expect(page.get_by_text("AGM on Friday", exact=True)).to_be_hidden()
    expect(page.get_by_text("Marker is down for an upgrade at 23:00", exact=True)).to_be_visible()

    # The pad shows the site's and the league's notices in its header (the AGM's dismissed
    # on this browser; a new one appears).
    notices.notice_create(league=the_league, title="Table 2 is closed", actor=league.secretary)
    frame = frames_of(match)[0]
    pad = phone(league.captain).new_page()
    pad.goto(f"/frames/{frame.pk}/pad/")
    header = pad.locator("#pad-notices")
    expect(header.get_by_text("Table 2 is closed")).to_be_visible()
    expect(header.get_by_text("AGM on Friday")).to_be_visible()  # a new browser context
    assert_thumb_sized(pad)
    shot(pad, "notice-pad")

    # The secretary's pages: the notices, the fixtures without a card.
    office = phone(league.secretary).new_page()
    office.goto(f"/{the_league.slug}/notices/")
    expect(office.get_by_role("heading", name=f"{the_league.name}'s notices")).to_be_visible()
    assert_thumb_sized(office)
    shot(office, "notices-page")
    fixture = fixture_of(league)
    fixture.date = timezone.localdate() - timedelta(days=3)
    fixture.save(update_fields=["date"])
    office.goto(f"/{the_league.slug}/fixtures/no-card/")
    expect(
        office.get_by_role("link", name=f"{fixture.home.name} v {fixture.away.name}")
    ).to_be_visible()
    assert office.evaluate("document.documentElement.scrollWidth") <= 390
    assert_thumb_sized(office)
    shot(office, "no-card-list")
