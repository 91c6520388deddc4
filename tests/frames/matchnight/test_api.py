"""The whole match night through the API (DRF), and its refusals: one error shape,
`{"error": code, "message": text}`, with the status the service chose."""

from __future__ import annotations

import secrets

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from frames.draw import commitment, derive_seed, validate_draw
from frames.models import Match
from tests.frames.matchnight_helpers import as_draw, drawn, fixture_of, roster, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def url(name: str, match, **kwargs) -> str:
    return reverse(name, kwargs={"pk": match.pk, **kwargs})


def test_the_whole_match_night_through_the_api(league):
    home, away = api(league.captain), api(league.other_captain)
    response = home.post(reverse("api-match-open", args=[fixture_of(league).pk]))
    assert response.status_code == 201
    body = response.json()
    match = Match.objects.get(pk=body["id"])
    assert body["status"] == "setup" and body["game_id"] == "bar_billiards_4pin"
    assert body["secrets"] is None and body["commitments"]["server"]
    assert home.post(reverse("api-match-open", args=[fixture_of(league).pk])).status_code == 200

    for client, side in ((home, "home"), (away, "away")):
        players = [p.pk for p in roster(league, side)[:6]]
        response = client.post(
            url("api-match-presence", match), {"side": side, "players": players}, format="json"
        )
        assert response.status_code == 200, response.json()
    assert len(response.json()["presences"]["away"]) == 6

    # Both captains' devices commit, then reveal once all three commitments are in.
    mine = {"home": secrets.token_hex(16), "away": secrets.token_hex(16)}
    for client, side in ((home, "home"), (away, "away")):
        response = client.post(
            url("api-match-commit", match), {"side": side, "commitment": commitment(mine[side])}
        )
        assert response.status_code == 200
    assert response.json()["secrets"] is None  # sealed until the draw
    refused = home.post(url("api-match-draw", match))
    assert refused.status_code == 400 and refused.json()["error"] == "not_revealed"
    for client, side in ((home, "home"), (away, "away")):
        assert (
            client.post(
                url("api-match-reveal", match), {"side": side, "secret": mine[side]}
            ).status_code
            == 200
        )

    response = away.post(url("api-match-draw", match))
    assert response.status_code == 200
    body = response.json()
    server = body["secrets"]["server"]
    assert body["secrets"]["home"] == mine["home"] and body["secrets"]["away"] == mine["away"]
    assert commitment(server) == body["commitments"]["server"]
    assert body["seed"] == str(derive_seed(mine["home"], mine["away"], server))
    assert body["algorithm"] == "marker-draw-1" and len(body["home_hat"]) == 6
    assert [f["number"] for f in body["frames"]] == list(range(1, 10))
    present = {s: body["home_hat" if s == "home" else "away_hat"] for s in ("home", "away")}
    assert validate_draw(as_draw(match), present["home"], present["away"]) == []
    for frame in body["frames"]:
        playing = {p["id"] for p in frame["home_players"] + frame["away_players"]}
        assert frame["referee"]["id"] not in playing

    # Order of play: proposed by one captain, accepted by the other.
    order = [1, 2, 3, 4, 6, 5, 7, 8, 9]
    response = home.post(
        url("api-match-reorder", match), {"side": "home", "order": order}, format="json"
    )
    assert response.json()["reorder_proposal"] == {"order": order, "proposed_by": "home"}
    response = away.post(url("api-match-reorder-accept", match), {"side": "away"})
    assert [f["number"] for f in response.json()["frames"]] == order

    # Scores from paper, then both confirm.
    sheet = [{"number": n, "home_score": 400, "away_score": 900} for n in range(1, 10)]
    sheet[0] = {"number": 1, "home_score": 900, "away_score": 900}
    response = away.post(url("api-match-paper", match), {"frames": sheet}, format="json")
    assert response.status_code == 200
    result = response.json()["result"]
    assert (result["home_frames"], result["away_frames"]) == ("0.5", "8.5")
    assert (result["home_score"], result["away_score"]) == (900 + 8 * 400, 9 * 900)
    assert response.json()["status"] == "complete"
    home.post(url("api-match-confirm", match), {"side": "home"})
    response = away.post(url("api-match-confirm", match), {"side": "away"})
    body = response.json()
    assert body["status"] == "confirmed"
    # Shown by the public name of the captain's player record, never the login (issue 34):
    # this captain has none.
    assert body["confirmations"]["home"]["by"] == "a captain"
    assert league.captain.username not in response.content.decode()
    fixture = api().get(reverse("api-fixture-detail", args=[fixture_of(league).pk])).json()
    assert (fixture["home_frames"], fixture["away_frames"]) == ("0.5", "8.5")
    assert fixture["result_confirmed_at"] is not None
    log = [entry["action"] for entry in api().get(url("api-match-detail", match)).json()["log"]]
    assert log.count("confirmed") == 2 and "reorder_accepted" in log


@pytest.mark.parametrize(
    ("who", "status"),
    [("player_user", 403), ("outsider", 403), ("secretary", 403), (None, 403)],
)
def test_only_a_captain_may_confirm_through_the_api(league, who, status):
    match = drawn(league)
    api(league.captain).post(
        url("api-match-paper", match),
        {"frames": [{"number": n, "home_score": 500, "away_score": 0} for n in range(1, 10)]},
        format="json",
    )
    before = snapshot()
    client = api(getattr(league, who) if who else None)
    response = client.post(url("api-match-confirm", match), {"side": "home"})
    assert response.status_code == status
    assert set(response.json()) >= {"error", "message"}
    assert snapshot() == before


def test_a_captain_confirming_for_the_other_side_is_refused(league):
    match = drawn(league)
    api(league.captain).post(
        url("api-match-paper", match),
        {"frames": [{"number": n, "home_score": 500, "away_score": 0} for n in range(1, 10)]},
        format="json",
    )
    response = api(league.captain).post(url("api-match-confirm", match), {"side": "away"})
    assert response.status_code == 403
    assert response.json()["error"] == "not_captain"


@pytest.mark.parametrize(
    ("name", "payload", "code", "status"),
    [
        ("api-match-reveal", {"side": "home", "secret": "nope"}, "not_all_committed", 400),
        ("api-match-commit", {"side": "home", "commitment": "xyz"}, "bad_commitment", 400),
        ("api-match-draw", {}, "not_all_committed", 400),
        ("api-match-confirm", {"side": "home"}, "not_drawn", 409),
        ("api-match-presence", {"side": "home", "players": [999999]}, "invalid", 400),
        ("api-match-presence", {"side": "west", "players": []}, "invalid", 400),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(league, name, payload, code, status):
    client = api(league.captain)
    match = Match.objects.get(
        pk=client.post(reverse("api-match-open", args=[fixture_of(league).pk])).json()["id"]
    )
    for side, captain in (("home", client), ("away", api(league.other_captain))):
        captain.post(
            url("api-match-presence", match),
            {"side": side, "players": [p.pk for p in roster(league, side)[:6]]},
            format="json",
        )
    before = snapshot()
    response = client.post(url(name, match), payload, format="json")
    assert (response.status_code, response.json()["error"]) == (status, code)
    assert response.json()["message"]
    assert snapshot() == before


def test_a_player_of_another_team_in_the_squad_is_refused_by_the_api(league):
    client = api(league.captain)
    match = Match.objects.get(
        pk=client.post(reverse("api-match-open", args=[fixture_of(league).pk])).json()["id"]
    )
    before = snapshot()
    response = client.post(
        url("api-match-presence", match),
        {"side": "home", "players": [roster(league, "away")[0].pk]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"] == "plays_for_another_team"
    assert response.json()["other_team"] == "Premier Team 2"
    assert snapshot() == before


def test_a_referee_playing_the_frame_is_refused_by_the_api(league):
    match = drawn(league)
    frame = match.frames.get(number=1)
    playing = frame.players.get(side="away").player
    before = snapshot()
    response = api(league.other_captain).post(
        url("api-match-referee", match, number=1), {"player": playing.pk}
    )
    assert response.status_code == 400
    assert response.json() | {"message": ""} == {
        "error": "referee_plays_frame",
        "message": "",
        "field": "player",
    }
    assert snapshot() == before


def test_settling_is_for_the_secretary(league):
    match = drawn(league)
    api(league.captain).post(
        url("api-match-paper", match),
        {"frames": [{"number": n, "home_score": 500, "away_score": 0} for n in range(1, 10)]},
        format="json",
    )
    api(league.other_captain).post(
        url("api-match-dispute", match), {"side": "away", "reason": "Frame 9 was ours"}
    )
    assert (
        api(league.captain).post(url("api-match-settle", match), {"decision": "accept"}).status_code
        == 403
    )
    response = api(league.secretary).post(
        url("api-match-settle", match),
        {
            "decision": "correct",
            "note": "",
            "frames": [{"number": 9, "home_score": 0, "away_score": 500}],
        },
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "confirmed" and body["result"]["away_frames"] == "1.0"
    assert body["dispute"]["reason"] == "Frame 9 was ours"


def test_every_match_command_is_in_the_openapi_schema(league):
    schema = api().get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for tail in (
        "presence",
        "commit",
        "reveal",
        "agree-short",
        "draw",
        "redraw",
        "reorder",
        "reorder/accept",
        "reorder/reject",
        "paper",
        "confirm",
        "dispute",
        "settle",
    ):
        operation = paths[f"/api/matches/{{id}}/{tail}/"]["post"]
        assert {"200", "400", "403", "404", "409"} <= set(operation["responses"]), tail
    assert "/api/matches/{id}/frames/{number}/referee/" in paths
    assert "get" in paths["/api/matches/{id}/"]
    assert "/api/fixtures/{id}/match/" in paths
