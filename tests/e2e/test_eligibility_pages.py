"""The registration rules' pages on a phone (390 × 844): the secretary's rules and
transfers pages, a captain's roster with a refused transfer, and sign-off's flag of an
unregistered player. Nothing wider than the screen; axe runs on each page (the `phone`
fixture). `MARKER_SHOTS=/some/dir` saves a screenshot of each."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from frames.matchnight import signoff
from leagues.models import Registration
from leagues.teams import eligibility_services
from leagues.teams import services as team_services
from tests.conftest import make_league
from tests.frames.matchnight_helpers import NIGHT, drawn
from tests.links import league_reverse

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("MARKER_SHOTS", "")
WIDEST = """() => Array.from(document.querySelectorAll('body *'))
  .filter(el => el.getBoundingClientRect().right > 391 && !el.closest('.table-scroll, [hidden]'))
  .map(el => el.tagName.toLowerCase() + '.' + el.className)"""


def look(page, name: str) -> None:
    assert page.evaluate(WIDEST) == [], f"{name} is wider than the phone"
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_the_registration_rules_pages_on_a_phone(phone):
    league = make_league()
    season = league.season
    eligibility_services.season_rules_update(
        season=season,
        actor=league.secretary,
        min_notice_days=3,
        play_up_allowed=True,
        play_up_cap=6,
        transfers_need_approval=True,
    )
    # A transfer waiting for the secretary, and one refused: the player has played.
    waiting = Registration.objects.filter(team=league.teams[2], status="active").first().player
    eligibility_services.transfer_request(
        player=waiting, to_team=league.teams[0], actor=league.captain, reason="Moved pubs"
    )
    played = Registration.objects.filter(team=league.teams[1], status="active").first().player
    team_services.registration_mark_played(team=league.teams[1], player=played)

    secretary = phone(league.secretary).new_page()
    secretary.goto(league_reverse("season-registration-rules", [season.pk]))
    expect(secretary.get_by_text("Players are registered 3 days before they play")).to_be_visible()
    look(secretary, "registration-rules")
    secretary.goto(league_reverse("season-transfers", [season.pk]))
    expect(secretary.get_by_role("button", name="Approve")).to_be_visible()
    look(secretary, "transfers")

    captain = phone(league.captain).new_page()
    captain.goto(league_reverse("team-roster", [league.teams[0].pk]))
    captain.select_option("#id_transfer-player", str(played.pk))
    captain.get_by_role("button", name="Ask for the transfer").click()
    expect(captain.get_by_role("alert")).to_contain_text(
        "Transfers only for players who have not played (rule 8)"
    )
    look(captain, "roster-transfer-refused")

    # Sign-off: frame 1's home player turns out not to be registered (the others were
    # registered a month before the night, past the notice).
    Registration.objects.filter(season=season).update(created_at=NIGHT - timedelta(days=30))
    match = drawn(league)
    signoff.match_key_in_paper(
        match=match, scores={n: (900, 100) for n in range(1, 10)}, actor=league.captain
    )
    player = match.frames.get(number=1).players.get(side="home").player
    Registration.objects.filter(team=league.teams[0], player=player).delete()
    secretary.goto(match.get_absolute_url())
    expect(secretary.get_by_role("button", name="Forfeit frame 1")).to_be_visible()
    look(secretary, "sign-off-ineligible")
    secretary.get_by_role("button", name="Forfeit frame 1").click()
    expect(secretary.get_by_text("Forfeit applied by the secretary").first).to_be_visible()
    look(secretary, "sign-off-forfeited")
