"""The officers page: each command it posts (`action`) does its one thing; a refused,
invalid or unknown one shows the page again (400) with its reason and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Invitation, LeagueRole
from tests.conftest import make_league
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def page():
    league = make_league(teams_per_division=2, players_per_team=1)
    client = Client()
    client.force_login(league.secretary)
    the_league = league.season.league
    return the_league, league.secretary, client, reverse("league-officers", args=[the_league.slug])


def test_the_secretary_removes_an_officer_and_cancels_an_invitation(page):
    league, _, client, url = page
    role = LeagueRole.objects.create(
        league=league, user=UserFactory(username="ria"), role=LeagueRole.Role.RESULTS_SECRETARY
    )
    invitation = Invitation.objects.create(
        kind=Invitation.Kind.OFFICER, league=league, role="secretary", email="new@example.org"
    )
    assert client.post(url, {"action": "remove", "role": role.pk}).status_code == 302
    assert not LeagueRole.objects.filter(pk=role.pk).exists()
    assert client.post(url, {"action": "cancel", "role": invitation.pk}).status_code == 302
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_the_last_secretary_is_not_removed_from_the_page(page):
    league, secretary, client, url = page
    own = LeagueRole.objects.get(league=league, user=secretary, role=LeagueRole.Role.SECRETARY)
    response = client.post(url, {"action": "remove", "role": own.pk})
    assert response.status_code == 400
    assert "keeps at least one secretary" in response.content.decode()
    assert LeagueRole.objects.filter(pk=own.pk).exists()


def test_a_roster_invitation_is_not_cancelled_as_an_officers(page):
    league, _, client, url = page
    team = league.seasons.first().teams.first()
    roster = Invitation.objects.create(team=team, name="Ivy", email="ivy@example.org")
    assert client.post(url, {"action": "cancel", "role": roster.pk}).status_code == 404
    assert Invitation.objects.filter(pk=roster.pk).exists()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"action": "remove", "role": ""}, "Choose an officer."),
        ({"action": "cancel", "role": "x"}, "Choose an officer."),
        ({"action": "promote"}, "Unknown action."),
        ({}, "Unknown action."),
    ],
)
def test_an_invalid_or_unknown_command_shows_the_page_again(page, data, reason):
    league, _, client, url = page
    before = list(LeagueRole.objects.filter(league=league).values_list("pk", flat=True))
    response = client.post(url, data)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert list(LeagueRole.objects.filter(league=league).values_list("pk", flat=True)) == before
