"""The hole map's API gives what the page draws from: the table's `shape` and where each
place sits (`x`, `y`), as the game's `table_map()` declares them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules import registry
from tests.conftest import built_once, make_league
from tests.frames.ratings.test_pages import make_night
from tests.frames.ratings_support import BB

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    def build():
        league = make_league(teams_per_division=4, players_per_team=4)
        return league, make_night(league)

    yield from built_once(django_db_blocker, build)


def test_the_hole_map_api_gives_the_shape_and_where_each_place_sits(built, db):
    _league, night = built
    player = night["home"]
    body = Client().get(reverse("api-player-hole-map", args=[player.pk]), {"game": BB}).json()
    declared = registry.get(BB).table_map()
    assert declared is not None
    assert body["drawable"] and body["shape"] == declared.shape
    assert [(p["place"], p["x"], p["y"]) for p in body["places"]] == [
        (s.name, s.x, s.y) for s in declared.spots
    ]
    assert sum(p["pots"] for p in body["places"]) == body["total"] == 5


def test_a_game_with_nothing_to_draw_answers_a_blank_shape(built, db):
    _league, night = built
    url = reverse("api-player-hole-map", args=[night["home"].pk])
    body = Client().get(url, {"game": "parisian_31_pool"}).json()
    assert body == {
        "drawable": False,
        "place": "",
        "shape": "",
        "places": [],
        "total": 0,
        "frames": 0,
    }
