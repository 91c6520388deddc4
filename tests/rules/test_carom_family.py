"""The carom family as carom.md declares it: every game registered with its vocabulary
(events, stroke fields, balls, pins, spaces, foul codes), setup defaults and state keys;
the declared statistics, display, participants and outcome; the seeded random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import get, replay
from rules.registry import games
from rules.simulate import simulate_game
from rules.simulate.carom import simulate

C = "cushion"

# game: (target, object balls, spaces with their default limits, spot_balls, lay_off)
PAGE: dict[str, tuple[int, tuple[str, ...], dict[str, int], bool, bool]] = {
    "three_ball_carom": (100, ("white", "red"), {"crotch": 3}, True, False),
    "balkline_14in": (100, ("white", "red"), {"balk": 2, "anchor": 2}, True, False),
    "balkline_18in_1shot": (500, ("white", "red"), {"balk": 1, "anchor": 1}, True, False),
    "balkline_18in_2shot": (500, ("white", "red"), {"balk": 2, "anchor": 2}, True, False),
    "space_game": (100, ("white", "red"), {"corner": 3, "side": 2}, True, False),
    "progressive_carom": (100, ("white", "red"), {"crotch": 3}, True, False),
    "four_ball_carom": (100, ("white", "deep_red", "light_red"), {"crotch": 3}, False, True),
    "cushion_carom": (100, ("white", "red"), {"crotch": 3}, True, False),
    "three_cushion_carom": (50, ("white", "red"), {"crotch": 3}, True, False),
    "bank_shot_carom": (100, ("white", "red"), {"crotch": 3}, False, False),
    "little_corporal": (100, ("white", "red"), {"crotch": 3}, True, False),
    "american_four_ball_pocket": (100, ("white", "deep_red", "light_red"), {}, False, False),
    "english_billiards": (100, ("white", "red"), {}, False, False),
    "spanish_billiards": (30, ("white", "red"), {}, True, False),
    "russian_pool": (100, ("red", "brown", "green", "yellow"), {}, False, False),
}
POCKET_GAMES = {
    "american_four_ball_pocket",
    "english_billiards",
    "spanish_billiards",
    "russian_pool",
}
PINS = {
    "spanish_billiards": ["middle", "head", "foot", "left", "right"],
    "little_corporal": ["middle"],
}
GENERAL_FOULS = [
    "not_tip",
    "push",
    "in_hand",
    "feet",
    "touch_moving",
    "wrong_ball",
    "double_hit",
    "touched_ball",
    "touched_own_ball",
    "frozen",
    "assisted",
    "lifted_ball",
]
OWN_FOULS = {
    "four_ball_carom": ["red_off_table"],
    "english_billiards": ["balk_contact", "not_out_of_balk", "push_twice"],
    "russian_pool": ["balls_moving", "obstruction"],
}
STATE_KEYS = {
    "game",
    "over",
    "winner",
    "shared",
    "scores",
    "at_table",
    "run",
    "innings",
    "next",
    "space",
    "space_counts",
    "events",
}


def test_list_shows_every_game_of_the_page_in_the_family():
    family = {g.id for g in games() if g.family == "carom"}
    assert family == set(PAGE)


@pytest.mark.parametrize("game_id", list(PAGE))
def test_vocabulary_is_the_pages(game_id):
    target, balls, spaces, spot, lay_off = PAGE[game_id]
    d = get(game_id).describe()
    events = [e["type"] for e in d["events"]]
    assert ("spot_balls" in events) == spot
    assert ("lay_off" in events) == lay_off
    assert {"stroke", "time_up", "concede"} <= set(events)
    stroke = {f["name"]: f for f in d["events"][0]["fields"]}
    expected_fields = ["contacts", "fouls", "off_table"]
    expected_fields += ["pots"] if game_id in POCKET_GAMES else []
    expected_fields += ["space", "returned"] if spaces else []
    expected_fields += ["pins", "pins_before_ball"] if game_id in PINS else []
    expected_fields += ["nominate"] if game_id == "russian_pool" else []
    expected_fields += ["choice"] if game_id == "english_billiards" else []
    assert list(stroke) == expected_fields
    assert stroke["contacts"]["item"]["choices"] == [*balls, C]
    assert stroke["off_table"]["item"]["choices"] == [*balls, "cue"]
    assert stroke["fouls"]["item"]["choices"] == GENERAL_FOULS_ORDER(d)
    assert sorted(f["code"] for f in d["fouls"]) == sorted(
        GENERAL_FOULS + OWN_FOULS.get(game_id, [])
    )
    if game_id in POCKET_GAMES:
        pot = {f["name"]: f for f in stroke["pots"]["item"]["fields"]}
        assert pot["ball"]["choices"] == [*balls, "cue"] and pot["ball"]["required"]
        assert pot["pocket"]["required"] == (game_id == "russian_pool")
        assert pot["pocket"]["choices"] == [
            "top_left",
            "top_right",
            "middle_left",
            "middle_right",
            "baulk_left",
            "baulk_right",
        ]
    if game_id in PINS:
        assert stroke["pins"]["item"]["choices"] == PINS[game_id]
    if game_id == "russian_pool":
        assert stroke["nominate"]["required"]
        assert stroke["nominate"]["choices"] == ["red", "brown", "green", "yellow", "cannon"]
    setup = {o["name"]: o for o in d["setup"]}
    assert setup["target"]["default"] == target
    assert ("space_limits" in setup) == bool(spaces)
    if spaces:
        limits = {f["name"]: f["default"] for f in setup["space_limits"]["fields"]}
        assert limits == spaces
    extra = {"carom_values", "penalty_to"} if game_id == "american_four_ball_pocket" else set()
    assert (
        set(setup)
        == {"players", "leads", "target"} | ({"space_limits"} if spaces else set()) | extra
    )
    assert setup["leads"]["choices_from"] == "players"


def GENERAL_FOULS_ORDER(d: dict[str, Any]) -> list[str]:  # noqa: N802
    """The foul codes in the order describe() declares them."""
    return [f["code"] for f in d["fouls"]]


@pytest.mark.parametrize("game_id", list(PAGE))
def test_new_game_state_has_the_pages_keys(game_id):
    game = get(game_id)
    players = ["Ann", "Bob", "Cat"] if game_id == "russian_pool" else ["Ann", "Bob"]
    view = game.view(game.initial({"players": players, "leads": "Bob"}))
    assert STATE_KEYS <= set(view)
    assert view["scores"] == dict.fromkeys(players, 0)
    assert view["innings"] == {p: int(p == "Bob") for p in players}
    assert view["at_table"] == "Bob" and view["run"] == 0 and view["events"] == 0
    expected_next = {
        "four_ball_carom": "lay_off",
        "english_billiards": "stroke",
        "american_four_ball_pocket": "stroke",
    }.get(game_id, "opening")
    assert view["next"] == expected_next
    assert (view["space"], view["space_counts"], view["over"], view["winner"]) == (
        None,
        0,
        False,
        None,
    )
    assert set(game.describe()["state"]) >= STATE_KEYS


@pytest.mark.parametrize("game_id", list(PAGE))
def test_declared_statistics_display_participants_and_outcome(game_id):
    game = get(game_id)
    d = game.describe()
    assert [s["name"] for s in d["statistics"]] == [
        "points",
        "innings",
        "average",
        "high_run",
        "misses",
    ]
    assert d["participants"]["max"] == (None if game_id == "russian_pool" else 2)
    keys = [e["key"] for e in d["display"]]
    assert keys[:4] == ["scores", "at_table", "run", "innings"]
    assert ("space" in keys) == bool(PAGE[game_id][2])
    setup, events = simulate(game, random.Random(7), 300)
    state = replay(game, setup, events)
    view = game.view(state)
    lines = game.player_statistics(setup, events)
    for name, line in lines.items():
        assert line["points"] == view["scores"][name]
        assert line["innings"] == view["innings"][name]
        assert line["high_run"] >= 0
        if line["innings"]:
            assert line["average"] == pytest.approx(line["points"] / line["innings"])
    assert sum(line["misses"] for line in lines.values()) <= len(events)
    ended = game.apply(state, {"type": "time_up"})
    out = game.outcome(ended)
    assert out.over and dict(out.scores) == view["scores"]
    best = max(view["scores"].values())
    leaders = [p for p, s in view["scores"].items() if s == best]
    assert out.winner == (leaders[0] if len(leaders) == 1 else None)
    assert out.shared == (len(leaders) > 1)


@pytest.mark.parametrize("game_id", list(PAGE))
def test_simulated_games_are_legal_seeded_and_long(game_id):
    game = get(game_id)
    a = simulate(game_id, random.Random(3), 400)
    assert a == simulate(game, random.Random(3), 400)
    assert a != simulate(game, random.Random(4), 400)
    setup, events = a
    assert len(events) == 400 and replay(game, setup, events).events == 400
    # the core's generic entry point uses the family's generator: a game played to its end
    played = simulate_game(game, {"players": setup["players"], "target": 15}, seed=5)
    assert game.outcome(replay(game, {"players": setup["players"], "target": 15}, played)).over


def test_russian_pool_seats_any_number_of_players_and_rotates():
    game = get("russian_pool")
    players = ["A", "B", "C", "D", "E"]
    state = game.initial({"players": players, "leads": "D"})
    order = []
    for _ in range(6):
        order.append(game.view(state)["at_table"])
        nominate = "red" if game.view(state)["next"] == "opening" else "green"
        state = game.apply(state, {"type": "stroke", "contacts": [nominate], "nominate": nominate})
    assert order == ["D", "E", "A", "B", "C", "D"]
    assert game.view(state)["innings"] == {"A": 1, "B": 1, "C": 1, "D": 2, "E": 2}


# ------------------------------------------------------------------ command line


def _golden(game_id: str) -> Any:
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data" / game_id
    return sorted(data.glob("*.json"))[0]


@pytest.mark.parametrize("game_id", list(PAGE))
def test_cli_replays_each_golden_game_as_the_engine_does(game_id):
    import json

    from tests.rules.test_cli import cli

    path = _golden(game_id)
    doc = json.loads(path.read_text(encoding="utf-8"))
    proc = cli("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    game = get(game_id)
    assert json.loads(proc.stdout) == game.view(replay(game, doc.get("setup"), doc["events"]))


def test_cli_refuses_bad_input_with_exit_2_code_and_index():
    import json

    from tests.rules.test_cli import cli, error_of

    doc = {
        "game": "spanish_billiards",
        "events": [{"type": "stroke", "contacts": ["red"]}, {"type": "stroke", "pins": ["king"]}],
    }
    err = error_of(cli("replay", "-", stdin=json.dumps(doc)))
    assert (err["error"], err["index"]) == ("bad_value", 1)
    assert "pins" in err["message"]
    bad_setup = {"game": "russian_pool", "setup": {"players": ["Ann"]}, "events": []}
    err = error_of(cli("replay", "-", stdin=json.dumps(bad_setup)))
    assert (err["error"], err["index"]) == ("bad_setup", -1)
