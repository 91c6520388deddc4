"""Issue 2's "done when": a captain logs in on a phone and edits their roster."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from leagues.models import Registration
from tests.conftest import make_league
from tests.links import league_reverse

pytestmark = pytest.mark.django_db(transaction=True)


def test_captain_logs_in_and_edits_the_roster_on_a_phone(phone, live_server):
    league = make_league()
    team = league.teams[0]
    page = phone().new_page()
    page.goto(f"/teams/{team.pk}/")  # the address before leagues were tenants redirects
    expect(page.get_by_role("heading", name=team.name)).to_be_visible()
    expect(page.get_by_text("Edit roster")).to_have_count(0)  # not signed in yet

    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill(league.captain.username)
    page.get_by_label("Password").fill("pw-for-tests-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(team.get_absolute_url())
    page.get_by_role("link", name="Edit roster").click()

    page.get_by_label("Player's name").fill("Nora Nobbs")
    page.get_by_role("button", name="Add to roster").click()
    expect(page.get_by_text("Nora Nobbs added to the roster.")).to_be_visible()
    page.get_by_role("button", name="Remove Nora Nobbs").click()
    expect(page.get_by_text("Nora Nobbs removed from the roster.")).to_be_visible()

    reg = Registration.objects.get(team=team, player__name="Nora Nobbs")
    assert reg.status == "removed"

    # Another team's roster stays closed to this captain.
    response = page.goto(league_reverse("team-roster", args=[league.teams[1].pk]))
    assert response.status == 403
