"""Where to play on a phone (docs/directory.md; issue 32, part 4): the directory lists the
demo-style venues with their tables, league nights and a plain OpenStreetMap link; a
captain posts "Join a team"; the league's secretary publishes it; a player answers through
the site; the captain reads the answer and replies, and no page shows either side's email
address; once the post's time has passed it is gone from the list. Screenshots go to
$SCREENSHOTS (if set)."""

from __future__ import annotations

import os
import re
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.db.models import F
from django.utils import timezone
from playwright.sync_api import expect

from leagues.directory import services
from leagues.models import DirectoryPost
from tests.conftest import make_league

pytestmark = pytest.mark.django_db(transaction=True)

#: How long to wait for a page or an element: generous, for a loaded machine.
WAIT = 30_000
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def opened(phone, user=None):
    context = phone(user)
    context.set_default_timeout(WAIT)
    return context.new_page()


def no_address(page) -> None:
    html = page.content()
    assert not EMAIL.search(html), EMAIL.search(html)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_captain_finds_a_player_through_where_to_play(phone):
    league = make_league(teams_per_division=2, players_per_team=2)
    team = league.teams[0]
    venue = team.venue
    services.venue_details_set(
        venue=venue,
        actor=league.secretary,
        town="Norwich",
        address="17 Bishopgate",
        latitude=Decimal("52.63380"),
        longitude=Decimal("1.30170"),
    )
    services.venue_table_set(
        venue=venue,
        actor=league.secretary,
        game_id="bar_billiards_4pin",
        count=2,
        notes="one in the back room",
    )
    services.venue_night_set(venue=venue, actor=league.secretary, weekday=1, starts_at=time(19, 30))
    league_name = league.season.league.name

    # Anyone: the directory lists the venue, its tables, night, league, team and map link.
    anyone = opened(phone)
    anyone.goto("/where-to-play/")
    card = anyone.locator(".venue-entry", has_text=venue.name)
    expect(card).to_contain_text(
        "4-pin bar billiards: 2 tables, one in the back room", timeout=WAIT
    )
    expect(card).to_contain_text("Tuesday from 19:30", timeout=WAIT)
    expect(card).to_contain_text(league_name, timeout=WAIT)
    expect(card).to_contain_text(team.name, timeout=WAIT)
    osm = card.get_by_role("link", name=f"{venue.name} on OpenStreetMap")
    expect(osm).to_have_attribute(
        "href",
        "https://www.openstreetmap.org/?mlat=52.63380&mlon=1.30170#map=18/52.63380/1.30170",
        timeout=WAIT,
    )
    anyone.get_by_label("Name or town").fill("norwich")
    anyone.get_by_role("button", name="Search").click()
    expect(anyone.locator(".venue-entry", has_text=venue.name)).to_be_visible(timeout=WAIT)
    shot(anyone, "directory.png")
    no_address(anyone)

    # The captain posts "Join a team" for their team.
    captain = opened(phone, league.captain)
    captain.goto("/where-to-play/posts/")
    captain.get_by_role("link", name="Post", exact=True).click()
    captain.get_by_label("Join a team").check()
    captain.get_by_role("combobox", name="League").select_option(label=league_name)
    captain.get_by_role("combobox", name="Team").select_option(label=team.name)
    captain.get_by_label("Title").fill("Two players wanted, Tuesdays")
    captain.get_by_label("Text").fill("Friendly side, beginners welcome.")
    captain.get_by_role("button", name="Send to the secretary").click()
    expect(captain.get_by_text("waits for")).to_be_visible(timeout=WAIT)
    post = DirectoryPost.objects.get()
    assert post.status == DirectoryPost.Status.PENDING

    # Not listed until the secretary publishes it.
    anyone.goto("/where-to-play/posts/")
    expect(anyone.get_by_text("No posts up just now.")).to_be_visible(timeout=WAIT)
    secretary = opened(phone, league.secretary)
    secretary.goto(league.season.league.get_absolute_url())
    secretary.get_by_role("link", name="Posts to check").click()
    secretary.get_by_role("button", name="Publish “Two players wanted, Tuesdays”").click()
    expect(secretary.get_by_text("is published")).to_be_visible(timeout=WAIT)
    shot(secretary, "directory-moderate.png")

    # A player answers through the site.
    player = opened(phone, league.outsider)
    player.goto("/where-to-play/posts/")
    player.get_by_role("link", name="Two players wanted, Tuesdays").click()
    player.get_by_label("Your message").fill("I play on Tuesdays and would love a game.")
    player.get_by_role("button", name="Send").click()
    expect(player.get_by_text("I play on Tuesdays and would love a game.")).to_be_visible(
        timeout=WAIT
    )
    no_address(player)

    # The captain sees it in their conversations, and replies.
    captain.goto("/where-to-play/posts/mine/")
    captain.get_by_role("link", name="Two players wanted, Tuesdays").last.click()
    expect(captain.get_by_text("I play on Tuesdays and would love a game.")).to_be_visible(
        timeout=WAIT
    )
    captain.get_by_label("Your message").fill("Come along next Tuesday at 7.30.")
    captain.get_by_role("button", name="Send").click()
    expect(captain.get_by_text("Come along next Tuesday at 7.30.")).to_be_visible(timeout=WAIT)
    shot(captain, "directory-conversation.png")
    no_address(captain)
    player.reload()
    expect(player.get_by_text("Come along next Tuesday at 7.30.")).to_be_visible(timeout=WAIT)
    no_address(player)

    anyone.goto("/where-to-play/posts/")
    expect(anyone.get_by_role("link", name="Two players wanted, Tuesdays")).to_be_visible(
        timeout=WAIT
    )
    # Time moves past its expiry (its thirty days are behind it): gone from the list, by
    # query, before the daily task has run; the task then names it expired.
    month = timedelta(days=31)
    DirectoryPost.objects.filter(pk=post.pk).update(
        created_at=F("created_at") - month,
        moderated_at=F("moderated_at") - month,
        expires_at=F("expires_at") - month,
    )
    assert DirectoryPost.objects.get(pk=post.pk).expires_at < timezone.now()
    anyone.reload()
    expect(anyone.get_by_text("No posts up just now.")).to_be_visible(timeout=WAIT)
    assert services.posts_expire() == 1
    captain.goto("/where-to-play/posts/mine/")
    expect(captain.get_by_text("Expired")).to_be_visible(timeout=WAIT)
