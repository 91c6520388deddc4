"""A player subscribes to their own calendar from a phone: the address on /me/data/, Copy
puts it on the clipboard, the address answers the calendar without a login, and "Revoke
and make a new address" kills the old one. Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.conftest import make_league

pytestmark = pytest.mark.django_db(transaction=True)


def shot(what, name: str) -> None:
    """A screenshot of a page (the whole of it) or of one element."""
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        full = {"full_page": True} if hasattr(what, "goto") else {}
        what.screenshot(path=os.path.join(folder, name), **full)


def test_a_player_copies_subscribes_and_revokes_their_calendar_on_a_phone(phone):
    league = make_league(teams_per_division=3, players_per_team=4)
    context = phone(league.player_user, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/me/data/")
    card = page.get_by_role("region", name="Your calendar")
    card.scroll_into_view_if_needed()
    address = card.get_by_label("Your calendar's address")
    url = address.input_value()
    assert "/calendar/" in url and url.endswith(".ics")
    subscribe = card.get_by_role("link", name="Subscribe")
    assert subscribe.get_attribute("href") == "webcal://" + url.split("://", 1)[1]
    shot(page, "calendar-page.png")
    shot(card, "calendar-card.png")

    card.get_by_role("button", name="Copy").click()
    expect(card.get_by_role("status")).to_contain_text("copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    feed = page.request.get(url)
    assert feed.status == 200 and b"BEGIN:VEVENT" in feed.body()

    card.get_by_role("button", name="Revoke and make a new address").click()
    expect(page.get_by_text("the old one no longer works")).to_be_visible()
    new = page.get_by_label("Your calendar's address").input_value()
    assert new != url
    assert page.request.get(url).status == 404
    assert page.request.get(new).status == 200
    shot(page, "calendar-revoked.png")
