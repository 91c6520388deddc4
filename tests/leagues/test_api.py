"""The league API: reads for everyone, writes only for who may, clear errors, nothing saved
on bad input, and an OpenAPI schema."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from leagues.models import Fixture, Registration, Team
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


@pytest.fixture
def api():
    return APIClient()


def test_public_can_list_fixtures_of_a_team(api, league):
    team = league.teams[0]
    data = api.get(reverse("api-fixture-list"), {"team": team.pk}).json()
    assert data["count"] == 6
    assert all(team.pk in (f["home"], f["away"]) for f in data["results"])


def test_players_api_never_shows_email(api, league):
    data = api.get(reverse("api-player-list")).json()
    assert data["results"] and all(set(p) == {"id", "name"} for p in data["results"])


def test_captain_adds_player_through_api_and_gets_201(api, league):
    api.force_authenticate(league.captain)
    url = reverse("api-team-roster", args=[league.teams[0].pk])
    response = api.post(url, {"name": "Oscar Oakes"}, format="json")
    assert response.status_code == 201
    assert response.json()["player"]["name"] == "Oscar Oakes"


def test_roster_add_with_no_name_answers_per_field_and_saves_nothing(api, league):
    api.force_authenticate(league.captain)
    before = Registration.objects.count()
    response = api.post(reverse("api-team-roster", args=[league.teams[0].pk]), {}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid" and "name" in body["fields"]
    assert Registration.objects.count() == before


def test_drafting_a_player_of_another_team_is_refused_naming_the_team(api, league):
    api.force_authenticate(league.captain)
    other = league.teams[1].registrations.first()
    response = api.post(
        reverse("api-team-roster", args=[league.teams[0].pk]),
        {"player": other.player_id, "kind": "drafted"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "plays_for_another_team"
    assert league.teams[1].name in body["message"]


def test_other_captain_cannot_change_my_roster(api, league):
    api.force_authenticate(league.other_captain)
    before = Registration.objects.count()
    response = api.post(
        reverse("api-team-roster", args=[league.teams[0].pk]), {"name": "X"}, format="json"
    )
    assert response.status_code == 403
    reg = league.teams[0].registrations.first()
    response = api.delete(reverse("api-team-roster-entry", args=[league.teams[0].pk, reg.pk]))
    assert response.status_code == 403
    assert Registration.objects.count() == before
    reg.refresh_from_db()
    assert reg.status == "active"


def test_captain_removes_player_through_api(api, league):
    api.force_authenticate(league.vice_captain)
    reg = league.teams[0].registrations.filter(player__user__isnull=True).first()
    response = api.delete(reverse("api-team-roster-entry", args=[league.teams[0].pk, reg.pk]))
    assert response.status_code == 200
    reg.refresh_from_db()
    assert reg.status == "removed"


def test_captain_renames_own_team_but_not_another(api, league):
    api.force_authenticate(league.captain)
    ok = api.patch(
        reverse("api-team-detail", args=[league.teams[0].pk]), {"name": "The Crown"}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["name"] == "The Crown"
    denied = api.patch(
        reverse("api-team-detail", args=[league.teams[1].pk]), {"name": "Mine"}, format="json"
    )
    assert denied.status_code == 403
    assert Team.objects.get(pk=league.teams[1].pk).name != "Mine"


def test_signed_in_user_enters_a_team_for_an_open_season(api, league):
    league.season.status = "registration"
    league.season.save()
    api.force_authenticate(league.outsider)
    response = api.post(
        reverse("api-team-list"),
        {"season": league.season.pk, "name": "New Team", "venue": VenueFactory().pk},
        format="json",
    )
    assert response.status_code == 201
    assert Team.objects.get(name="New Team").captain == league.outsider


def test_only_the_secretary_moves_fixtures(api, league):
    fixture = Fixture.objects.filter(season=league.season).order_by("-date").first()
    new_date = fixture.date.replace(year=fixture.date.year + 1)
    url = reverse("api-fixture-move", args=[fixture.pk])
    api.force_authenticate(league.captain)
    assert api.post(url, {"date": new_date.isoformat()}, format="json").status_code == 403
    api.force_authenticate(league.secretary)
    response = api.post(url, {"date": new_date.isoformat()}, format="json")
    assert response.status_code == 200 and response.json()["date"] == new_date.isoformat()


def test_bad_date_answers_per_field(api, league):
    fixture = Fixture.objects.filter(season=league.season).first()
    api.force_authenticate(league.secretary)
    response = api.post(
        reverse("api-fixture-move", args=[fixture.pk]), {"date": "soon"}, format="json"
    )
    assert response.status_code == 400 and "date" in response.json()["fields"]


def test_secretary_generates_fixtures_through_api(api, league):
    api.force_authenticate(league.secretary)
    response = api.post(
        reverse("api-fixtures-generate", args=[league.season.pk]),
        {"start_date": "2027-01-05", "blackout_dates": ["2027-01-12"]},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["created"] == 24
    assert not Fixture.objects.filter(season=league.season, date="2027-01-12").exists()


def test_openapi_schema_lists_the_league_endpoints(api):
    response = api.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in [
        "/api/teams/",
        "/api/fixtures/",
        "/api/teams/{id}/roster/",
        "/api/seasons/",
        "/api/divisions/",
        "/api/venues/",
        "/api/players/",
        "/api/leagues/",
    ]:
        assert path in paths, path


def test_api_docs_page_is_served(client):
    assert client.get(reverse("api-docs")).status_code == 200
