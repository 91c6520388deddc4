"""The bagatelle family: every refusal the bagatelle scoring language 1.5 lists (and the sections'
own), each with its code AND the index of the event, the state left as it was."""

from __future__ import annotations

from typing import Any

import pytest

from rules import InvalidEvent, get
from tests.rules.conftest import assert_refused_at


def ball(to: Any = None, **fields: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "ball"}
    if to is not None:
        ev["to"] = to
    ev.update(fields)
    return ev


BLACK_TO_9 = ball(1, first_hit="black", others=[{"ball": "black", "to": 9}])
ROLL = [ball()] + [ball("out")] * 7  # a shuffle-board roll: P1 has one weight on the board

CASES: list[tuple[str, str, dict[str, Any], list[dict[str, Any]], dict[str, Any]]] = [
    # (name, game, setup, events before, refused event) -> code is the name's prefix
    ("game_over", "high_number_pool", {}, [ball(3), ball(5)], ball(1)),
    ("game_over", "klondike", {"players": 2}, [ball("pin")] * 6 + [ball("alley")] * 6, ball("pin")),
    ("unknown_type", "victorian_bagatelle", {}, [], {"type": "pot"}),
    ("unknown_type", "victorian_bagatelle", {}, [], {"type": "respot_red"}),
    ("unknown_type", "devil_among_the_tailors", {}, [], {"type": "count", "weights": []}),
    ("unknown_field", "victorian_bagatelle", {}, [], ball(3, spin=True)),
    ("unknown_field", "victorian_bagatelle", {}, [], ball(3, nominated=3)),
    ("unknown_field", "klondike", {}, [], ball("pin", first_hit="red")),
    ("unknown_field", "high_number_pool", {}, [], ball(3, others=[])),
    (
        "unknown_field",
        "victorian_bagatelle",
        {},
        [],
        ball(3, first_hit="black", others=[{"ball": "black", "to": 9, "arch": 2}]),
    ),
    ("missing_field", "victorian_bagatelle", {}, [], ball(first_hit="black")),
    ("missing_field", "southern_bagatelle", {}, [], ball(3, first_hit="red")),
    ("missing_field", "parepa", {}, [], ball("table")),
    ("missing_field", "devil_among_the_tailors", {}, [], ball()),
    ("missing_field", "mississippi", {}, [], ball(cushion=True)),
    ("missing_field", "shuffle_board", {}, ROLL, {"type": "count"}),
    (
        "missing_field",
        "victorian_bagatelle",
        {},
        [],
        ball(3, first_hit="black", others=[{"to": 9}]),
    ),
    ("bad_value", "victorian_bagatelle", {}, [], ball(10)),
    ("bad_value", "victorian_bagatelle", {}, [], ball("left")),
    ("bad_value", "victorian_bagatelle", {}, [], ball(3, first_hit="red")),
    ("bad_value", "victorian_bagatelle", {}, [], ball(True)),
    ("bad_value", "victorian_bagatelle", {}, [], ball(3, cushion=1)),
    (
        "bad_value",
        "victorian_bagatelle",
        {},
        [],
        ball(3, first_hit="black", others=[{"ball": "black", "to": "table"}]),
    ),
    ("bad_value", "pigeon_hole_jenny_lind", {}, [], ball("back")),
    ("bad_value", "pigeon_hole_jenny_lind", {}, [], ball("off", fouls=["push"])),
    ("bad_value", "mississippi", {}, [], ball(9, cushion=True)),
    ("bad_value", "mississippi", {}, [], ball(arch=9)),
    ("bad_value", "english_bagatelle", {"pins": 4}, [], ball(3, pins=5)),
    ("bad_value", "english_bagatelle", {}, [], ball(3, pins=1)),
    ("bad_value", "devil_among_the_tailors", {}, [], ball(pins={"10": 13})),
    ("bad_value", "devil_among_the_tailors", {}, [], ball(pins={"40": 1})),
    ("bad_value", "devil_among_the_tailors", {}, [], ball(pins={"black": 2})),
    ("bad_value", "monte_carlo", {}, [], ball(7)),
    ("bad_value", "klondike", {}, [], ball("pin", others=[{"ball": "red", "to": "table"}])),
    ("bad_value", "carombolette", {}, [], ball(11, first_hit="red")),
    ("bad_value", "carombolette", {"mode": "pool"}, [], ball(10, first_hit="red")),
    (
        "bad_value",
        "shuffle_board",
        {},
        ROLL,
        {"type": "count", "weights": [{"player": "P1", "zone": 2, "flip": "made"}]},
    ),
    ("bad_value", "parepa", {}, [], ball("table", cue="red")),
    ("not_on_table", "victorian_bagatelle", {}, [], ball(3, first_hit="white")),
    (
        "not_on_table",
        "southern_bagatelle",
        {},
        [],
        ball(3, first_hit="red", nominated=3, others=[{"ball": "red", "to": 1}] * 3),
    ),
    (
        "not_on_table",
        "english_bagatelle",
        {},
        [ball("table", first_hit="king", others=[{"ball": "king", "to": "off"}])],
        ball(3, king_struck=True),
    ),
    ("not_on_table", "parepa", {}, [], ball("table", cue="white", first_hit="white")),
    ("not_on_table", "shuffle_board", {}, [], ball(others=[{"ball": "P2", "to": "out"}])),
    (
        "nothing_struck",
        "victorian_bagatelle",
        {},
        [BLACK_TO_9, ball("table")],
        ball(3, others=[{"ball": "white", "to": 4}]),
    ),
    ("nothing_struck", "klondike", {}, [], ball("not_out", others=[{"ball": "red", "to": "pin"}])),
    ("nothing_struck", "monte_carlo", {}, [], ball("short", others=[{"ball": "object", "to": 5}])),
    ("cup_full", "victorian_bagatelle", {}, [BLACK_TO_9], ball(9)),
    ("cup_full", "la_trou_madame", {}, [ball(4, arch=2)], ball(4, arch=3)),
    ("count_due", "shuffle_board", {}, ROLL, ball()),
    ("no_count_due", "shuffle_board", {}, [ball()], {"type": "count", "weights": []}),
    (
        "bad_count",
        "shuffle_board",
        {},
        ROLL,
        {"type": "count", "weights": [{"player": "P2", "zone": 1}]},
    ),
    (
        "bad_count",
        "shuffle_board",
        {},
        [ball(), ball(), *[ball("out")] * 6],
        {"type": "count", "weights": [{"player": "P1", "zone": 1}, {"player": "P2", "zone": 3}]},
    ),
    (
        "bad_count",
        "shuffle_board",
        {},
        ROLL,
        {"type": "count", "weights": [{"player": "P1", "zone": 1, "level": True}]},
    ),
    (
        "bad_count",
        "shuffle_board",
        {},
        [ball(), ball(), *[ball("out")] * 6],
        {
            "type": "count",
            "weights": [
                {"player": "P1", "zone": 3},
                {"player": "P2", "zone": "hanger", "flip": "made"},
            ],
        },
    ),
    ("cannot_respot", "pigeon_hole_jenny_lind", {}, [], {"type": "respot_red"}),
    (
        "cannot_respot",
        "pigeon_hole_jenny_lind",
        {},
        [ball("table", first_hit="red", others=[{"ball": "red", "to": 4}])],
        {"type": "respot_red"},
    ),
    ("no_ball_off", "pigeon_hole_jenny_lind", {}, [], ball(3, fouls=["deliberate_off"])),
    ("bad_cue", "parepa", {}, [], ball("table", cue=30)),
    (
        "bad_cue",
        "parepa",
        {},
        [ball("table", cue="white", first_hit=30, others=[{"ball": 30, "to": 4}])],
        ball("table", cue=40),
    ),
]


@pytest.mark.parametrize(
    ("code", "game", "setup", "before", "event"),
    CASES,
    ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)],
)
def test_refused_with_code_and_index_state_unchanged(code, game, setup, before, event):
    err = assert_refused_at(get(game), setup, before, event, code)
    assert err.message


def test_every_code_the_page_lists_is_tested():
    page = {
        "game_over",
        "unknown_type",
        "unknown_field",
        "missing_field",
        "bad_value",
        "not_on_table",
        "nothing_struck",
        "cup_full",
        "count_due",
        "no_count_due",
        "bad_count",
        "cannot_respot",
        "no_ball_off",
        "bad_cue",
    }
    assert page <= {c[0] for c in CASES}


def test_message_names_the_field():
    err = assert_refused_at(get("victorian_bagatelle"), {}, [], ball(10), "bad_value")
    assert "to" in err.message
    err = assert_refused_at(
        get("victorian_bagatelle"),
        {},
        [],
        ball(3, first_hit="black", others=[{"ball": "blue", "to": 9}]),
        "bad_value",
    )
    assert "others[0].ball" in err.message


BAD_SETUPS = [
    ("victorian_bagatelle", {"rounds": 3}),
    ("victorian_bagatelle", {"target": None}),
    ("victorian_bagatelle", {"target": "120"}),
    ("victorian_bagatelle", {"players": 1}),
    ("victorian_bagatelle", {"players": ["Ann", "Ann"]}),
    ("victorian_bagatelle", {"sides": ["A", "B"]}),
    ("victorian_bagatelle", {"capacity": 0}),
    ("victorian_bagatelle", {"ties": "coin"}),
    ("sans_egal", {"players": 3}),
    ("shuffle_board", {"players": ["A", "B", "C"]}),
    ("devil_among_the_tailors", {"players": 11}),
    ("northern_bagatelle", {"target": None, "rounds": None}),
    ("bagatelle_1908", {"sides": ["A", "B"], "players": {"A": ["Ann", "Al"], "B": ["Bob"]}}),
    ("bagatelle_1908", {"sides": ["A", "B"], "players": {"A": ["Ann"], "C": ["Bob"]}}),
    ("pigeon_hole_jenny_lind", {"ties": "playoff"}),
    ("parepa", {"target": None}),
    ("carombolette", {"mode": "snooker"}),
    ("monte_carlo", {"receptacles": []}),
]


@pytest.mark.parametrize(("game", "setup"), BAD_SETUPS)
def test_bad_setup_is_refused_at_index_minus_one(game, setup):
    with pytest.raises(InvalidEvent) as info:
        get(game).initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


def test_cli_exit_2_and_error_on_stderr(tmp_path):
    import json

    from rules.__main__ import main

    doc = {"game": "victorian_bagatelle", "events": [ball(3), ball(10)]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    import io

    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path)], stdout=out, stderr=err) == 2
    answer = json.loads(err.getvalue())
    assert (answer["error"], answer["index"]) == ("bad_value", 1)
    assert "to" in answer["message"]
