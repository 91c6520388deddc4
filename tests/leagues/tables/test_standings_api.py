"""The tables' API: published table with provisional results, the live table, publishing
and its progress, awards, deductions and the points scheme."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.fixtures import services as fixture_services
from leagues.models import Fixture, Publication
from leagues.tables import services as table_services

pytestmark = pytest.mark.django_db


LEAGUE_SIZE = {"teams_per_division": 4, "players_per_team": 1}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_publish_over_the_api_and_read_the_published_table(
    league, django_capture_on_commit_callbacks
):
    fixture = Fixture.objects.filter(division=league.premier).first()
    fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=Decimal(6),
        away_frames=Decimal(3),
        home_score=2000,
        away_score=1500,
        confirmed_at=timezone.now(),
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = api(league.secretary).post(
            reverse("api-season-publications", args=[league.season.pk])
        )
    assert response.status_code == 202
    assert response.json()["state"] == "queued"  # the job runs once the request commits
    pub_id = response.json()["id"]
    detail = api(league.secretary).get(reverse("api-publication-detail", args=[pub_id])).json()
    assert (detail["state"], detail["progress"]) == ("done", 100)
    assert detail["emails_sent"] > 0
    table = api().get(reverse("api-division-table", args=[league.premier.pk])).json()
    assert table["published"] and table["publication"] == pub_id
    assert table["rows"][0]["team"] == fixture.home.name
    assert table["rows"][0]["points"] == "6.0"
    assert table["provisional_results"] == []
    later = Fixture.objects.filter(division=league.premier, result_confirmed_at__isnull=True)[0]
    table_services.fixture_award(
        fixture=later, outcome="walkover", home_frames=9, away_frames=0, reason="no show"
    )
    table = api().get(reverse("api-division-table", args=[league.premier.pk])).json()
    assert [r["id"] for r in table["provisional_results"]] == [later.pk]
    assert table["provisional_results"][0]["outcome"] == "walkover"
    live = (
        api(league.secretary)
        .get(reverse("api-division-table-live", args=[league.premier.pk]))
        .json()
    )
    assert live["provisional"] and sum(r["played"] for r in live["rows"]) == 4
    assert any("no show" in n["text"] for n in live["notes"])


def test_only_the_secretary_publishes_or_sees_the_live_table(league):
    url = reverse("api-season-publications", args=[league.season.pk])
    assert api(league.captain).post(url).status_code == 403
    assert api().post(url).status_code in (401, 403)
    assert Publication.objects.count() == 0
    live = reverse("api-division-table-live", args=[league.premier.pk])
    assert api(league.captain).get(live).status_code == 403


def test_award_and_deduction_over_the_api(league):
    fixture = Fixture.objects.filter(division=league.premier).first()
    url = reverse("api-fixture-award", args=[fixture.pk])
    body = {"outcome": "conceded", "home_frames": "2", "away_frames": "7", "reason": "short"}
    assert api(league.captain).post(url, body).status_code == 403
    response = api(league.secretary).post(url, body)
    assert response.status_code == 200 and response.json()["outcome"] == "conceded"
    bad = api(league.secretary).post(url, body | {"home_frames": "7"})
    assert bad.status_code == 400 and bad.json()["error"] == "no_winner"
    team = league.teams[0]
    url = reverse("api-team-deductions", args=[team.pk])
    assert api(league.captain).post(url, {"points": "1", "reason": "x"}).status_code == 403
    response = api(league.secretary).post(url, {"points": "1.5", "reason": "late sheet"})
    assert response.status_code == 201
    assert api().get(url).json()[0]["reason"] == "late sheet"


def test_points_scheme_over_the_api(league):
    url = reverse("api-season-points-scheme", args=[league.season.pk])
    assert api().get(url).json()["tie_breakers"] == [
        "points",
        "frames_won",
        "aggregate",
        "head_to_head",
    ]
    response = api(league.secretary).post(
        url,
        {"points_per_match_win": "3", "tie_breakers": ["points", "head_to_head"]},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["points_per_match_win"] == "3.0"
    assert response.json()["tie_breakers"] == ["points", "head_to_head"]
    bad = api(league.secretary).post(url, {"tie_breakers": ["points", "points"]}, format="json")
    assert bad.status_code == 400
    assert api(league.captain).post(url, {"points_per_frame": "2"}).status_code == 403
