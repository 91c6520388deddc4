"""Hoyle's Snooker Pool (``snooker_pool_hoyle``): rules, refusals and ledger properties.

Rule numbers ``rN`` are Hoyle's (the Snooker Pool rules in Hoyle's Games Modernized); the "derived" scenarios are the
examples of the games survey (§7.10), the "ledger" ones those of the ledger scoring language §7.

Where the ledger scoring language §4 (now written down in full) changed the game, the assertions changed
with it: ``pots`` take the object form ``{"ball": B, "pocket": P}``; a red potted when on a
colour costs its own value, 1 (§4.5, §4.14: was the value on); balls out of place are paid
besides the stroke's penalty and do not end the visit (§4.8: were merged by r17 and ended it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.ledger import PoolState
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_refused_at,
    assert_replay_deterministic_and_round_trips,
    try_events,
)

G = get("snooker_pool_hoyle")
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
ABC = {"players": ["A", "B", "C"]}
AB = {"players": ["A", "B"]}
SIDES = {"sides": ["X", "Y"], "players": {"X": ["Ann", "Cat"], "Y": ["Bob", "Dan"]}}


def stroke(first_hit: str | None, *pots: str, **fields: Any) -> dict[str, Any]:
    """A ``stroke`` event: what the white hit first, the balls potted, other fields."""
    ev: dict[str, Any] = {"type": "stroke", "first_hit": first_hit}
    if pots:
        ev["pots"] = [{"ball": b} for b in pots]
    if "pots" in fields:
        fields["pots"] = [{"ball": b} for b in fields["pots"]]
    ev.update(fields)
    return ev


def miss(**fields: Any) -> dict[str, Any]:
    """A stroke in which the white touched no ball."""
    return stroke(None, **fields)


#: A red and the black, fifteen times: one 120 break that leaves the colours, on yellow.
CLEAR_REDS = [stroke("red", "red"), stroke("black", "black")] * 15
#: The colours in order: the rest of a 147.
SEQUENCE = [stroke(c, c) for c in COLOURS]


def play(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return G.view(replay(G, setup, list(events)))


# ------------------------------------------------------------------ rule by rule

SCENARIOS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], dict[str, Any]]] = [
    # the games survey §7.10 (derived)
    (
        "derived_red_black_then_miss_pays_one_each",
        ABC,
        [stroke("red", "red"), stroke("black", "black"), miss()],
        {
            "scores": {"A": 14, "B": -7, "C": -7},
            "at_table": "B",
            "on": "red",
            "reds": 14,
            "colours": COLOURS,
            "break": 0,
        },
    ),
    (
        "derived_r9_red_with_pink_cannoned_in_receives_1_pays_6",
        ABC,
        [stroke("red", "red", "pink")],
        {"scores": {"A": -10, "B": 5, "C": 5}, "at_table": "B", "reds": 14, "colours": COLOURS},
    ),
    (
        "derived_r11_miss_on_blue_after_red_pays_5_each",
        ABC,
        [stroke("red", "red"), miss(aim="blue")],
        {"scores": {"A": -8, "B": 4, "C": 4}, "at_table": "B", "on": "red"},
    ),
    (
        "derived_r17_wrong_ball_and_ball_off_pays_highest_only",
        ABC,
        [stroke("pink", off_table=["black"])],
        {"scores": {"A": -14, "B": 7, "C": 7}, "colours": COLOURS},
    ),
    (
        "r17_miss_and_coup_on_black_pays_7_once",
        ABC,
        [stroke("red", "red"), miss(aim="black", off_table=["white"])],
        {"scores": {"A": -12, "B": 6, "C": 6}},
    ),
    # the ledger scoring language §6 (the 1908 examples hold in Hoyle's game too)
    (
        "ledger_red_blue_then_miss",
        ABC,
        [stroke("red", "red"), stroke("blue", "blue"), miss()],
        {"scores": {"A": 10, "B": -5, "C": -5}},
    ),
    (
        "ledger_pink_struck_first_on_a_red_pays_6_each",
        ABC,
        [stroke("pink")],
        {"scores": {"A": -12, "B": 6, "C": 6}, "at_table": "B"},
    ),
    # r3 / r9 / r10: red, colour, red...
    (
        "r3_red_then_colour_then_red_alternate",
        ABC,
        [stroke("red", "red"), stroke("pink", "pink"), stroke("red", "red")],
        {
            "scores": {"A": 16, "B": -8, "C": -8},
            "on": "colour",
            "break": 8,
            "reds": 13,
            "colours": COLOURS,
            "at_table": "A",
            "player": "A",
        },
    ),
    (
        "r9_several_reds_in_one_stroke_count_one_each",
        ABC,
        [stroke("red", "red", "red", "red")],
        {"scores": {"A": 6, "B": -3, "C": -3}, "reds": 12, "on": "colour", "break": 3},
    ),
    (
        "r9_two_reds_struck_at_once_are_fair",
        AB,
        [stroke("red", "red", simultaneous="red")],
        {"scores": {"A": 1, "B": -1}, "on": "colour"},
    ),
    (
        "red_and_blue_struck_at_once_pay_the_higher",
        AB,
        [stroke("red", "red", simultaneous="blue")],
        {"scores": {"A": -5, "B": 5}, "reds": 15, "at_table": "B"},
    ),
    (
        # the ledger scoring language §4.5: the red potted on a colour costs its own value (was 5)
        "r10_colour_taken_with_a_red_is_a_fault_paying_1_and_the_red_goes_back",
        ABC,
        [stroke("red", "red"), stroke("blue", "blue", "red")],
        {"scores": {"A": 0, "B": 0, "C": 0}, "reds": 14, "colours": COLOURS, "at_table": "B"},
    ),
    (
        "r10_colour_goes_in_off_another_ball_and_counts",
        AB,
        [stroke("red", "red"), stroke("brown", "brown", aim="brown")],
        {"scores": {"A": 5, "B": -5}, "on": "red"},
    ),
    (
        "aim_decides_the_value_on_when_the_colour_is_free",
        AB,
        [stroke("red", "red"), stroke("pink", aim="pink")],
        {"scores": {"A": 1, "B": -1}, "at_table": "B"},
    ),
    # penalties
    (
        "r8_in_off_after_a_red_forfeits_the_red_and_pays_1",
        ABC,
        [stroke("red", "red", "white")],
        {"scores": {"A": -2, "B": 1, "C": 1}, "reds": 15, "at_table": "B"},
    ),
    (
        "r8_in_off_after_the_pink_pays_6",
        ABC,
        [stroke("red", "red"), stroke("pink", "white")],
        {"scores": {"A": -10, "B": 5, "C": 5}, "colours": COLOURS},
    ),
    (
        "r11_miss_on_a_red_pays_1",
        ABC,
        [miss()],
        {"scores": {"A": -2, "B": 1, "C": 1}, "at_table": "B"},
    ),
    (
        "r11_miss_and_running_in_pays_1",
        ABC,
        [miss(pots=["white"])],
        {"scores": {"A": -2, "B": 1, "C": 1}},
    ),
    (
        "r12_colour_hit_first_reds_dropped_pays_the_colour_reds_replaced",
        ABC,
        [stroke("green", "red", "red")],
        {"scores": {"A": -6, "B": 3, "C": 3}, "reds": 15},
    ),
    (
        "r13_red_struck_when_aiming_at_the_black_pays_7",
        ABC,
        [stroke("red", "red"), stroke("red", aim="black")],
        {"scores": {"A": -12, "B": 6, "C": 6}},
    ),
    (
        "r13_blue_struck_when_aiming_at_the_yellow_pays_5",
        ABC,
        [stroke("red", "red"), stroke("blue", aim="yellow")],
        {"scores": {"A": -8, "B": 4, "C": 4}},
    ),
    (
        "r14_sequence_colour_with_another_cannoned_in_receives_2_pays_3",
        AB,
        [*CLEAR_REDS, stroke("yellow", "yellow", "green")],
        {
            "scores": {"A": 119, "B": -119},
            "colours": COLOURS[1:],
            "on": "green",
            "at_table": "B",
            "break": 0,
        },
    ),
    (
        "r15_white_in_with_the_yellow_puts_the_yellow_back_and_pays_2",
        AB,
        [*CLEAR_REDS, stroke("yellow", "yellow", "white")],
        {"scores": {"A": 118, "B": -118}, "colours": COLOURS, "on": "yellow", "at_table": "B"},
    ),
    (
        "r16_white_touching_a_colour_cannot_score",
        ABC,
        [stroke("red", "red", fouls=["white_touching"])],
        {"scores": {"A": 0, "B": 0, "C": 0}, "reds": 15, "at_table": "B"},
    ),
    (
        "r16_white_touching_still_pays_its_penalties",
        ABC,
        [stroke("blue", fouls=["white_touching"])],
        {"scores": {"A": -10, "B": 5, "C": 5}},
    ),
    (
        "r18_forcing_the_blue_off_pays_5_and_it_is_respotted",
        ABC,
        [stroke("red", off_table=["blue"])],
        {"scores": {"A": -10, "B": 5, "C": 5}, "colours": COLOURS, "reds": 15},
    ),
    (
        "r18_forcing_a_red_off_puts_it_back",
        AB,
        [stroke("red", "red", off_table=["red"])],
        {"scores": {"A": -1, "B": 1}, "reds": 15},
    ),
    (
        "r18_white_forced_off_pays_as_a_coup",
        ABC,
        [stroke("red", "red"), stroke("pink", off_table=["white"])],
        {"scores": {"A": -10, "B": 5, "C": 5}},
    ),
    (
        "r19_push_cannot_score_and_ends_the_visit",
        ABC,
        [stroke("red", "red", fouls=["push"])],
        {"scores": {"A": 0, "B": 0, "C": 0}, "reds": 15, "at_table": "B"},
    ),
    (
        "r19_fouled_ball_with_a_wrong_ball_potted_pays_the_ball",
        AB,
        [stroke("red", "black", fouls=["fouled_ball"])],
        {"scores": {"A": -7, "B": 7}, "colours": COLOURS},
    ),
    (
        "r20_out_of_turn_pot_pays_1_each_and_the_red_goes_back",
        ABC,
        [stroke("red", "red", player="B")],
        {
            "scores": {"A": 1, "B": -2, "C": 1},
            "reds": 15,
            "at_table": "A",
            "on": "red",
            "events": 1,
        },
    ),
    (
        "r20_out_of_turn_miss_pays_1_besides_the_penalty",
        ABC,
        [miss(player="C")],
        {"scores": {"A": 2, "B": 2, "C": -4}, "at_table": "A"},
    ),
    (
        "r20_out_of_turn_in_a_break_leaves_the_break_alone",
        ABC,
        [stroke("red", "red"), stroke("blue", "blue", player="B")],
        {"scores": {"A": 3, "B": -3, "C": 0}, "on": "colour", "break": 1, "at_table": "A"},
    ),
    (
        "r20_striker_named_himself_plays_in_turn",
        AB,
        [stroke("red", "red", player="A")],
        {"scores": {"A": 1, "B": -1}, "on": "colour"},
    ),
    (
        # the ledger scoring language §4.8: the charge does not end the visit (it used to)
        "r4_r5_misplaced_balls_received_and_paid_and_the_visit_goes_on",
        ABC,
        [stroke("red", "red", misplaced_balls=2)],
        {"scores": {"A": -2, "B": 1, "C": 1}, "reds": 14, "at_table": "A", "on": "colour"},
    ),
    (
        # the ledger scoring language §4.8: paid besides the penalty, not merged by r17 (was 3 each)
        "r4_misplaced_balls_are_paid_besides_a_miss",
        ABC,
        [miss(misplaced_balls=3)],
        {"scores": {"A": -8, "B": 4, "C": 4}},
    ),
    # turn, the last red, the sequence, the end
    (
        "a_stroke_that_pots_nothing_passes_the_turn_round_the_table",
        ABC,
        [stroke("red"), stroke("red"), stroke("red")],
        {"scores": {"A": 0, "B": 0, "C": 0}, "at_table": "A", "break": 0},
    ),
    (
        "last_red_leaves_a_free_colour_which_is_respotted",
        AB,
        [*CLEAR_REDS[:28], stroke("red", "red"), stroke("pink", "pink")],
        {
            "scores": {"A": 119, "B": -119},
            "reds": 0,
            "colours": COLOURS,
            "on": "yellow",
            "break": 119,
        },
    ),
    (
        "after_the_last_red_a_failed_colour_leaves_the_next_player_on_yellow",
        AB,
        [*CLEAR_REDS[:28], stroke("red", "red"), stroke("pink", aim="pink")],
        {"reds": 0, "on": "yellow", "at_table": "B", "break": 0},
    ),
    (
        "colours_in_sequence_stay_down",
        AB,
        [*CLEAR_REDS, *SEQUENCE[:3]],
        {"colours": ["blue", "pink", "black"], "on": "blue", "break": 129},
    ),
    (
        "a_maximum_147_ends_the_game",
        AB,
        [*CLEAR_REDS, *SEQUENCE],
        {
            "scores": {"A": 147, "B": -147},
            "over": True,
            "winner": "A",
            "shared": False,
            "at_table": None,
            "player": None,
            "on": None,
            "reds": 0,
            "colours": [],
            "events": 36,
        },
    ),
    # sides (the ledger scoring language §1.1)
    (
        "sides_partners_take_their_sides_visits_in_turn",
        SIDES,
        [stroke("red")] * 3,
        {"at_table": "Y", "player": "Dan"},
    ),
    (
        "sides_score_as_parties",
        SIDES,
        [stroke("red", "red"), stroke("black", "black"), stroke("red"), miss()],
        {"scores": {"X": 9, "Y": -9}, "at_table": "X", "player": "Cat"},
    ),
    (
        "sides_a_partner_playing_out_of_turn_costs_his_side",
        SIDES,
        [stroke("red", "red", player="Cat")],
        {"scores": {"X": -1, "Y": 1}, "at_table": "X", "player": "Ann", "reds": 15},
    ),
    (
        "sides_without_names_have_unnamed_players",
        {"sides": ["X", "Y"]},
        [],
        {"scores": {"X": 0, "Y": 0}, "at_table": "X", "player": None},
    ),
]


@pytest.mark.parametrize(
    ("setup", "events", "expected"),
    [pytest.param(s, e, x, id=name) for name, s, e, x in SCENARIOS],
)
def test_scenario(setup, events, expected):
    view = play(setup, events)
    assert {k: view[k] for k in expected} == expected
    assert sum(view["scores"].values()) == 0


def test_new_game_state_has_every_key():
    assert play(ABC, []) == {
        "game": "snooker_pool_hoyle",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"A": 0, "B": 0, "C": 0},
        "at_table": "A",
        "player": "A",
        "events": 0,
        "on": "red",
        "reds": 15,
        "colours": COLOURS,
        "break": 0,
    }


def test_default_setup_is_two_players():
    assert play({}, [])["scores"] == {"P1": 0, "P2": 0}


def test_level_balances_at_the_end_share_the_game():
    data = G.dump(G.initial(AB))
    data.update(balances=[-7, 7], reds=0, colours=["black"], on="black")
    state = G.apply(G.load(data), stroke("black", "black"))
    view = G.view(state)
    assert (view["over"], view["shared"], view["winner"]) == (True, True, None)


def test_highest_balance_wins_among_three():
    view = play(ABC, [*CLEAR_REDS, *SEQUENCE])
    assert view["scores"] == {"A": 294, "B": -147, "C": -147}
    assert view["winner"] == "A"


def test_alias_finds_the_game():
    assert get("snooker_pool") is G
    assert get("Snooker-Pool-Hoyle") is G


def test_describe_documents_every_field_value_and_foul():
    d = G.describe()
    assert (d["id"], d["family"], d["aliases"]) == (
        "snooker_pool_hoyle",
        "ledger",
        ["snooker_pool"],
    )
    [ev] = d["events"]
    names = [f["name"] for f in ev["fields"]]
    assert names == [
        "first_hit",
        "simultaneous",
        "pots",
        "off_table",
        "fouls",
        "aim",
        "player",
        "misplaced_balls",
    ]
    for f in (*ev["fields"], *d["setup"]):
        assert f["doc"]
        if f["item"]:
            assert f["item"]["doc"]
    fields = {f["name"]: f for f in ev["fields"]}
    assert fields["first_hit"]["required"] is True
    ball, pocket = fields["pots"]["item"]["fields"]
    assert ball["choices"] == ["white", "red", *COLOURS]
    assert pocket["required"] is False
    assert fields["fouls"]["item"]["choices"] == [
        "white_touching",
        "push",
        "double_hit",
        "fouled_ball",
    ]
    assert all(f["doc"] for f in d["fouls"])
    assert {"on", "reds", "colours", "break", "player"} <= set(d["state"])
    json.dumps(d)


# ------------------------------------------------------------------------ refused

REFUSALS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], Any, str]] = [
    ("not_an_object", AB, [], ["stroke"], "unknown_type"),
    ("unknown_type", AB, [], {"type": "pot", "ball": "red"}, "unknown_type"),
    ("obstruction_is_not_hoyles", AB, [], {"type": "obstruction", "by": "A"}, "unknown_type"),
    ("after_the_end", AB, [*CLEAR_REDS, *SEQUENCE], miss(), "game_over"),
    ("unknown_type_before_game_over", AB, [*CLEAR_REDS, *SEQUENCE], {"type": "x"}, "unknown_type"),
    ("unknown_field", AB, [], stroke("red", cushion=True), "unknown_field"),
    ("first_hit_missing", AB, [], {"type": "stroke", "pots": ["red"]}, "missing_field"),
    ("white_as_first_hit", AB, [], stroke("white"), "bad_value"),
    ("unknown_ball", AB, [], stroke("red", "purple"), "bad_value"),
    ("pots_not_a_list", AB, [], {"type": "stroke", "first_hit": "red", "pots": "red"}, "bad_value"),
    ("pot_as_a_bare_name", AB, [], {**stroke("red"), "pots": ["red"]}, "bad_value"),
    ("pot_without_ball", AB, [], {**stroke("red"), "pots": [{"pocket": "top_left"}]}, "bad_value"),
    (
        "pot_with_extra_key",
        AB,
        [],
        {**stroke("red"), "pots": [{"ball": "red", "x": 1}]},
        "bad_value",
    ),
    (
        "pot_in_unknown_pocket",
        AB,
        [],
        {**stroke("red"), "pots": [{"ball": "red", "pocket": "corner"}]},
        "bad_value",
    ),
    ("misplaced_negative", AB, [], stroke("red", misplaced_balls=-1), "bad_value"),
    ("misplaced_too_many", AB, [], stroke("red", misplaced_balls=23), "bad_value"),
    ("misplaced_bool", AB, [], stroke("red", misplaced_balls=True), "bad_value"),
    ("wrong_ball_code_is_1908_only", AB, [], stroke("red", fouls=["wrong_ball"]), "unknown_foul"),
    ("intentional_miss_is_1908_only", AB, [], miss(fouls=["intentional_miss"]), "unknown_foul"),
    ("unknown_player", AB, [], stroke("red", player="Zed"), "unknown_player"),
    ("side_name_is_not_a_player", SIDES, [], stroke("red", player="X"), "unknown_player"),
    ("yellow_twice", AB, [], stroke("red", "yellow", "yellow"), "impossible"),
    ("black_potted_and_off", AB, [], stroke("red", "black", off_table=["black"]), "impossible"),
    ("white_twice", AB, [], stroke("red", "white", off_table=["white"]), "impossible"),
    ("more_reds_than_on_the_table", AB, [], stroke("red", *["red"] * 16), "not_on_table"),
    (
        "yellow_already_down",
        AB,
        [*CLEAR_REDS, SEQUENCE[0]],
        stroke("green", "yellow"),
        "not_on_table",
    ),
    ("red_when_none_left", AB, CLEAR_REDS, stroke("red"), "not_on_table"),
    ("object_ball_moved_on_a_miss", AB, [], miss(pots=["red"]), "impossible"),
    ("simultaneous_without_first_hit", AB, [], miss(simultaneous="red"), "impossible"),
    ("same_colour_twice_at_once", AB, [], stroke("pink", simultaneous="pink"), "impossible"),
    (
        "two_reds_at_once_with_one_left",
        AB,
        CLEAR_REDS[:28],
        stroke("red", simultaneous="red"),
        "not_on_table",
    ),
    ("free_colour_without_aim_on_a_red", AB, [stroke("red", "red")], stroke("red"), "aim_required"),
    ("free_colour_without_aim_on_a_miss", AB, [stroke("red", "red")], miss(), "aim_required"),
    ("aim_red_on_a_colour", AB, [stroke("red", "red")], stroke("red", aim="red"), "bad_aim"),
    ("aim_colour_on_a_red", AB, [], stroke("blue", aim="blue"), "bad_aim"),
    ("aim_out_of_sequence", AB, CLEAR_REDS, stroke("green", aim="green"), "bad_aim"),
]


@pytest.mark.parametrize(
    ("setup", "before", "event", "code"),
    [pytest.param(s, b, e, c, id=name) for name, s, b, e, c in REFUSALS],
)
def test_refused_event_names_code_and_index_and_changes_nothing(setup, before, event, code):
    assert_refused_at(G, setup, before, event, code)


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param({"players": ["Ann"]}, id="one_player"),
        pytest.param({"players": ["Ann", "Ann"]}, id="repeated_name"),
        pytest.param({"players": ["Ann", ""]}, id="empty_name"),
        pytest.param({"players": "Ann, Bob"}, id="players_not_a_list"),
        pytest.param({"players": {"X": ["Ann"]}}, id="players_object_without_sides"),
        pytest.param({"players": ["Ann", "Bob"], "target": 50}, id="unknown_key"),
        pytest.param({"sides": ["X"]}, id="one_side"),
        pytest.param({"sides": ["X", "X"]}, id="repeated_side"),
        pytest.param({"sides": ["X", "Y"], "players": ["Ann", "Bob"]}, id="sides_with_a_list"),
        pytest.param({"sides": ["X", "Y"], "players": {"Z": ["Ann"]}}, id="unknown_side"),
        pytest.param({"sides": ["X", "Y"], "players": {"X": []}}, id="empty_side"),
        pytest.param(
            {"sides": ["X", "Y"], "players": {"X": ["Ann"], "Y": ["Ann"]}}, id="name_on_two_sides"
        ),
        pytest.param(["Ann", "Bob"], id="setup_not_an_object"),
    ],
)
def test_bad_setup_is_refused_with_index_minus_one(setup):
    with pytest.raises(RuleError) as info:
        G.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


# ---------------------------------------------------------------------- properties


def _ball_on(s: PoolState, rng: random.Random) -> str:
    if s.on == "colour":
        return rng.choice(COLOURS)
    assert s.on is not None
    return s.on


def random_event(rng: random.Random, s: PoolState) -> Any:
    """A plausible stroke for ``s`` (now and then a malformed or impossible one)."""
    roll = rng.random()
    if roll < 0.04:
        garbage = [
            {"type": "pot"},
            [],
            stroke("white"),
            stroke("red", "purple"),
            {"type": "stroke", "first_hit": None, "pots": [{"ball": "black"}]},
            stroke("red", fouls=["x"]),
        ]
        return rng.choice(garbage)
    on = _ball_on(s, rng)
    on_table = ["red"] * min(s.reds, 3) + list(s.colours)
    ev = stroke(on)
    if s.on == "colour" and rng.random() < 0.7:
        ev["aim"] = on
    if roll < 0.55:
        n = rng.randint(1, min(3, s.reds)) if on == "red" else 1
        ev["pots"] = [{"ball": on} for _ in range(n)]
    elif roll < 0.65:
        ev["first_hit"] = None
    elif roll < 0.75:
        ev["first_hit"] = rng.choice(on_table)
    if rng.random() < 0.08:
        extra = rng.choice(on_table)
        if extra != on:
            ev.setdefault("pots", []).append({"ball": extra})
    if rng.random() < 0.05:
        ev.setdefault("pots", []).append({"ball": "white", "pocket": "top_left"})
    if rng.random() < 0.03:
        ev["off_table"] = [rng.choice(["white", *on_table])]
    if rng.random() < 0.05:
        ev["fouls"] = [rng.choice(["push", "white_touching", "double_hit", "fouled_ball"])]
    if rng.random() < 0.04:
        ev["misplaced_balls"] = rng.randint(1, 3)
    if rng.random() < 0.04:
        ev["player"] = rng.choice([p for names in s.seats.members for p in names if p] or ["Zed"])
    return ev


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A setup and a random game from it: every event tried, accepted or refused."""
    setup = draw(
        st.sampled_from(
            [AB, ABC, {"players": ["A", "B", "C", "D", "E"]}, SIDES, {"sides": ["X", "Y", "Z"]}]
        )
    )
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(min_value=0, max_value=120))
    return {"setup": setup, "tried": try_events(G, setup, random_event, rng, n)}


_PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_PROPS
@given(games())
def test_balances_always_sum_to_zero(game):
    state = G.initial(game["setup"])
    for ev, ok in game["tried"]:
        if ok:
            state = G.apply(state, ev)
            assert sum(state.balances) == 0
            assert G.view(state)["break"] >= 0


@_PROPS
@given(games())
def test_refused_event_changes_nothing(game):
    assert_refusals_change_nothing(G, game["setup"], game["tried"])


@_PROPS
@given(games())
def test_replay_is_deterministic_and_dump_round_trips(game):
    events = [ev for ev, ok in game["tried"] if ok]
    assert_replay_deterministic_and_round_trips(G, game["setup"], events)


def test_random_play_reaches_the_end_of_the_game():
    rng = random.Random(7)
    finished = 0
    for _ in range(20):
        t = Timeline(G, ABC)
        for _ in range(400):
            if t.state.over:
                finished += 1
                break
            try:
                t.push(random_event(rng, t.state))
            except RuleError:
                pass
    assert finished >= 10


# ------------------------------------------- the ledger scoring language §4.5-4.6's printed examples

AFTER_RED = [stroke("red", "red")]  # A: +1 each, on a colour of his choice


@pytest.mark.parametrize(
    ("before", "event", "received", "paid"),
    [
        pytest.param([], stroke("red", "red", "pink"), 1, 6, id="s4_6_red_and_pink_r9"),
        pytest.param(
            AFTER_RED,
            stroke("blue", "blue", "yellow", "black"),
            5,
            7,
            id="s4_6_blue_with_yellow_and_black",
        ),
        pytest.param(
            CLEAR_REDS, stroke("yellow", "yellow", "pink"), 2, 6, id="s4_6_yellow_with_pink_r14"
        ),
        pytest.param(
            CLEAR_REDS, stroke("yellow", "yellow", "white"), 0, 2, id="s4_6_yellow_in_off_r15"
        ),
        pytest.param(AFTER_RED, stroke("red", aim="black"), 0, 7, id="s4_5_red_first_aiming_black"),
        pytest.param([], stroke("pink"), 0, 6, id="s4_5_pink_first_on_a_red"),
        pytest.param(
            AFTER_RED,
            stroke("black", aim="black", off_table=["yellow"]),
            0,
            2,
            id="s4_5_yellow_forced_off_aiming_black_costs_2",
        ),
    ],
)
def test_pages_hoyle_examples_receive_and_pay(before, event, received, paid):
    start = play(AB, before)["scores"]["A"]
    view = play(AB, [*before, event])
    assert view["scores"]["A"] - start == received - paid
    assert view["at_table"] == "B"


def test_s4_6_yellow_with_pink_keeps_the_yellow_down_and_respots_the_pink():
    view = play(AB, [*CLEAR_REDS, stroke("yellow", "yellow", "pink")])
    assert (view["colours"], view["on"]) == (COLOURS[1:], "green")
    view = play(AB, [*CLEAR_REDS, stroke("yellow", "yellow", "white")])
    assert (view["colours"], view["on"]) == (COLOURS, "yellow")
