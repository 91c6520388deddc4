"""Issue 18: a newcomer follows a cup from the home page, through its bracket on a phone,
from round one to the final; the bracket prints on one A4 page. Screenshots go to
$SCREENSHOTS (if set)."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from competitions.models import Tie
from competitions.services.draws import draw_commit, knockout_draw_from_groups
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper
from tests.competitions.helpers import NOW, drawn, registered_players
from tests.conftest import make_league

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def played_cup(league, entrants: int):
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Singles Cup", kind="singles", now=NOW
    )
    for player in registered_players(league, entrants):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    drawn(comp, league.secretary)
    while ties := list(Tie.objects.filter(competition=comp, status="scheduled").order_by("id")):
        for tie in ties:
            tie_record_paper(
                actor=league.secretary,
                tie=tie,
                frames=[{"home": 300, "away": 200}, {"home": 250, "away": 100}],
                now=NOW,
            )
    comp.refresh_from_db()
    return comp


def test_a_newcomer_follows_the_bracket_from_round_one_to_the_final_on_a_phone(phone):
    league = make_league(teams_per_division=4, players_per_team=4)
    comp = played_cup(league, 12)  # 16 slots: four byes in round one
    final = Tie.objects.get(competition=comp, round__number=4)
    page = phone().new_page()

    page.goto("/")
    page.get_by_role("link", name="Cups and competitions").first.click()
    page.get_by_role("link", name="Singles Cup").click()
    expect(page.get_by_role("heading", name="Singles Cup")).to_be_visible()
    bracket = page.get_by_role("region", name="Singles Cup bracket")
    expect(bracket.get_by_role("heading", name="Round 1")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page fits
    shot(page, "bracket-round-1.png")

    # Round one: a bye and a played tie, whose page names its winner.
    first = bracket.locator('li.round[data-round="1"] li.tie.status-played a').first
    first.click()
    expect(page.get_by_text("Winner:")).to_be_visible()
    page.go_back()

    # Swipe through the rounds to the final; its winner is the cup's.
    final_round = bracket.locator('li.round[data-round="4"]')
    final_round.scroll_into_view_if_needed()
    expect(final_round.get_by_role("heading")).to_be_in_viewport()
    shot(page, "bracket-final.png")
    winner = final.winner.name
    expect(final_round.locator(".entrant.winner")).to_have_text(re.compile(re.escape(winner)))
    final_round.get_by_role("link").click()
    expect(page.get_by_text(f"Winner: {winner}")).to_be_visible()

    # Printed: the whole draw on one A4 page.
    page.goto(f"/competitions/{comp.pk}/")
    page.emulate_media(media="print")
    shot(page, "bracket-print.png")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1


def played_groups(league, entrants: int):
    """A group event as the demo's Singles: groups of three, races to two, each group's
    winner into the knock-out; every group match played, the knock-out drawn."""
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Group Singles",
        kind="group_knockout",
        group_size=3,
        group_qualifiers=1,
        group_race_to=2,
        now=NOW,
    )
    for player in registered_players(league, entrants):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    drawn(comp, league.secretary)
    for tie in Tie.objects.filter(competition=comp, group__isnull=False).order_by("id"):
        tie_record_paper(
            actor=league.secretary,
            tie=tie,
            frames=[{"home": 300, "away": 200}, {"home": 250, "away": 100}],
            now=NOW,
        )
    draw_commit(actor=league.secretary, competition=comp, now=NOW)
    return knockout_draw_from_groups(actor=league.secretary, competition=comp, now=NOW)


def test_a_group_event_prints_on_one_a4_page(phone):
    """Issue 28: twelve entrants in four groups of three, their matches and the knock-out
    printed on one A4 page (it took three)."""
    league = make_league(teams_per_division=4, players_per_team=4)
    comp = played_groups(league, 12)
    page = phone(user=league.secretary).new_page()
    page.goto(f"/competitions/{comp.pk}/")
    expect(page.get_by_role("heading", name="Groups")).to_be_visible()
    expect(page.get_by_role("button", name="Set the deadline").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page fits
    shot(page, "groups-phone.png")
    page.emulate_media(media="print")
    shot(page, "groups-print.png")
    pdf = page.pdf(format="A4")
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        with open(os.path.join(folder, "groups-print.pdf"), "wb") as out:
            out.write(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
