"""Competitions across leagues on a phone: from the county's page to its championship's
bracket, the A and B teams of two member leagues drawn, settled on aggregate. Screenshots
go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from leagues.models import Organisation, OrganisationRole
from tests.competitions.helpers import NOW, drawn
from tests.conftest import make_league
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_county_championship_on_a_phone(phone):
    norwich = make_league(teams_per_division=2, players_per_team=2)
    yarmouth = make_league(teams_per_division=2, players_per_team=2)
    county = Organisation.objects.create(
        name="Norfolk County Bar Billiards Association", slug="norfolk"
    )
    county.leagues.set([norwich.season.league, yarmouth.season.league])
    officer = UserFactory(username="county")
    OrganisationRole.objects.create(organisation=county, user=officer, role="secretary")
    championship = competition_create(
        actor=officer,
        organisation=county,
        game_id="bar_billiards_4pin",
        name="County Championship",
        kind="team_knockout",
        settle_by="aggregate",
        now=NOW,
    )
    for small in (norwich, yarmouth):
        for team in small.teams[:2]:
            entry_create(actor=officer, competition=championship, team=team, now=NOW)
    drawn(championship, officer)

    page = phone().new_page()
    page.goto("/org/norfolk/")
    # the county's competitions load in place on its page
    expect(page.get_by_role("heading", name="Competitions")).to_be_visible()
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, "county-organisation.png"), full_page=True)
    page.get_by_role("link", name="County Championship").click()
    expect(page.get_by_role("heading", name="County Championship")).to_be_visible()
    expect(page.get_by_text("Aggregate score over all frames")).to_be_visible()
    expect(page.get_by_role("link", name=norwich.season.league.name)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page fits
    if folder:
        page.screenshot(path=os.path.join(folder, "county-championship.png"), full_page=True)
    # each member league's competitions page links to it
    page.goto(f"/seasons/{yarmouth.season.pk}/competitions/")
    page.get_by_role("link", name="County Championship").click()
    expect(page.get_by_role("heading", name="County Championship")).to_be_visible()
