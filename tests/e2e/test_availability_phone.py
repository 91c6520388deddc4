"""Issue 30's "done when": a captain asks for availability on a phone, three players answer
from the links in their messages on their phones without logging in, and match night opens
with those three present. Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from frames.models import Presence
from leagues.models import Availability
from tests.conftest import make_league
from tests.leagues.availability_helpers import asked, link_path, soon, squad

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_three_players_answer_from_their_links_and_match_night_opens_with_them(phone, live_server):
    league = make_league(teams_per_division=2, players_per_team=5)
    fixture = soon(league)
    team = league.teams[0]
    players = squad(team)
    slug = fixture.season.league.slug

    captain = phone(league.captain).new_page()
    captain.goto(fixture.get_absolute_url())
    shot(captain, "availability-fixture.png")
    captain.get_by_role("button", name=f"Ask {team.name}'s squad").click()  # one tap
    expect(captain.get_by_role("heading", name=f"Who is playing for {team.name}?")).to_be_visible()
    expect(captain.get_by_text(f"Asked {len(players)} players.")).to_be_visible()
    shot(captain, "availability-sheet-asked.png")
    assert captain.evaluate("document.documentElement.scrollWidth") <= 390

    messages = {n.recipient.email: n for n in asked()}
    assert len(messages) == len(players)
    answering = players[:3]
    for player in answering:
        page = phone().new_page()  # no login: a fresh phone
        page.goto(link_path(messages[player.email]))
        expect(page.get_by_role("heading", name=f"Are you playing, {player.name}?")).to_be_visible()
        expect(page.get_by_text("You have not answered yet.")).to_be_visible()
        if player == answering[0]:
            shot(page, "availability-answer.png")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.get_by_role("button", name="Yes, I'm in").click()
        expect(page.get_by_text("Thanks: you're in.")).to_be_visible()
        expect(page.get_by_role("status").filter(has_text="Your answer: Yes")).to_be_visible()
        if player == answering[0]:
            shot(page, "availability-answered.png")
    assert set(
        Availability.objects.filter(fixture=fixture, answer="yes").values_list("player", flat=True)
    ) == {p.pk for p in answering}

    captain.goto(f"/{slug}/fixtures/{fixture.pk}/availability/{team.pk}/")
    expect(captain.locator("ul.availability-counts li.answer-yes")).to_contain_text("3")
    shot(captain, "availability-sheet-after.png")

    captain.goto(f"/fixtures/{fixture.pk}/match/")
    captain.get_by_role("button", name="Open match night").click()
    expect(captain.get_by_role("heading", name=f"{team.name} home")).to_be_visible()
    present = Presence.objects.filter(match__fixture=fixture, side="home")
    assert {p.player_id for p in present} == {p.pk for p in answering}
    for player in answering:
        expect(captain.get_by_role("checkbox", name=player.name, exact=True)).to_be_checked()
    for player in players[3:]:
        expect(captain.get_by_role("checkbox", name=player.name, exact=True)).not_to_be_checked()
    shot(captain, "availability-match-night.png")

    me = phone(league.player_user).new_page()
    me.goto("/me/availability/")
    expect(me.get_by_role("heading", name="My availability")).to_be_visible()
    shot(me, "availability-mine.png")
