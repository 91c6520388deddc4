"""The paper score sheet takes what the game declares a score is (`Game.score_step`):
a bagatelle league's sheet takes 131-96, a tens game's still asks for tens."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from frames.models import Frame, Match
from leagues.models import Season
from rules import registry

from .matchnight_helpers import drawn, frames_of

pytestmark = pytest.mark.django_db

BAGATELLE = "english_bagatelle"


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def bagatelle_match(league) -> Match:
    """A drawn match of the league's season, the season playing English bagatelle."""
    Season.objects.filter(pk=league.season.pk).update(game_id=BAGATELLE)
    match = drawn(league)
    assert match.game_id == BAGATELLE
    return match


def test_the_games_declare_the_steps_the_sheet_uses():
    assert registry.get(BAGATELLE).score_step == 1
    assert registry.get("bar_billiards_4pin").score_step == 10


def test_a_bagatelle_sheet_asks_for_points_and_takes_131_96(league, client):
    match = bagatelle_match(league)
    client.force_login(league.captain)
    url = reverse("match-paper", args=[match.pk])
    html = client.get(url).content.decode()
    boxes = re.findall(r"<input[^>]*type=\"number\"[^>]*>", html)
    assert len(boxes) == 18 and all('step="1"' in box for box in boxes)
    assert "(points)" in html and "in tens" not in html
    first = frames_of(match)[0].number
    response = client.post(url, {f"home_{first}": 131, f"away_{first}": 96})
    assert response.status_code == 302
    frame = Frame.objects.get(match=match, number=first)
    assert (frame.home_score, frame.away_score, frame.winner) == (131, 96, "home")
    assert frame.result_source == "paper"


def test_a_tens_sheet_still_asks_for_tens(league, client):
    match = drawn(league)
    client.force_login(league.captain)
    url = reverse("match-paper", args=[match.pk])
    html = client.get(url).content.decode()
    boxes = re.findall(r"<input[^>]*type=\"number\"[^>]*>", html)
    assert len(boxes) == 18 and all('step="10"' in box for box in boxes)
    assert "(points, in tens)" in html
    response = client.post(url, {"home_1": 131, "away_1": 96})
    assert response.status_code == 400 and "in tens" in response.content.decode()
    assert not Frame.objects.filter(match=match, status="complete").exists()


def test_the_api_takes_a_bagatelle_sheets_scores(league):
    match = bagatelle_match(league)
    api = APIClient()
    api.force_authenticate(league.captain)
    sheet = [{"number": f.number, "home_score": 131, "away_score": 96} for f in frames_of(match)]
    response = api.post(
        reverse("api-match-paper", kwargs={"pk": match.pk}), {"frames": sheet}, format="json"
    )
    assert response.status_code == 200, response.content
    result = response.json()["result"]
    assert (result["home_score"], result["away_score"]) == (131 * 9, 96 * 9)
