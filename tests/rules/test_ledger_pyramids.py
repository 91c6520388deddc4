"""English pyramids (``english_pyramids``): the ledger scoring language §5, The Billiard Handbook (1908),
The laws of English pyramids, rules 1-19 (rule numbers are the book's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import RuleError, get, replay
from tests.rules.conftest import assert_refused_at

G = get("english_pyramids")
AB = {"players": ["Ann", "Bob"]}
ABC = {"players": ["Ann", "Bob", "Cat"]}
SIDES = {"sides": ["X", "Y"], "players": {"X": ["Ann", "Cat"], "Y": ["Bob", "Dan"]}}


def stroke(first_hit: str | None, *pots: str, **fields: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "stroke", "first_hit": first_hit}
    if pots:
        ev["pots"] = [{"ball": b} for b in pots]
    ev.update(fields)
    return ev


def reds(k: int) -> dict[str, Any]:
    """A red struck and ``k`` reds pocketed."""
    return stroke("red", *["red"] * k)


MISS = stroke(None)
SAFE = stroke("red")  # a red struck, nothing pocketed: the visit ends, no forfeit


def play(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return G.view(replay(G, setup, list(events)))


# ------------------------------------------------------------ the page's examples


def test_worked_example_one_player_takes_all_fifteen_the_last_counting_two():
    view = play(AB, [reds(1)] * 15)
    assert view["balls"] == {"Ann": 16, "Bob": 0}
    assert view["scores"] == {"Ann": 16, "Bob": -16}
    assert (view["over"], view["winner"], view["reds"]) == (True, "Ann", 0)


def test_worked_example_fifteen_in_one_visit_without_the_endgame_detour():
    view = play(AB, [reds(13), reds(2)])
    assert (view["balls"]["Ann"], view["over"]) == (16, True)


def test_worked_example_three_players_on_8_5_and_3_at_1_a_ball():
    events = [reds(8), SAFE, reds(5), SAFE, reds(3)]
    view = play({**ABC, "reds": 16}, events)
    assert view["balls"] == {"Ann": 8, "Bob": 5, "Cat": 3}
    assert view["scores"] == {"Ann": 8, "Bob": -3, "Cat": -5}
    assert (view["over"], view["winner"]) == (True, "Ann")


def test_new_game_state_is_the_pages():
    assert play(AB, []) == {
        "game": "english_pyramids",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"Ann": 0, "Bob": 0},
        "at_table": "Ann",
        "player": "Ann",
        "events": 0,
        "phase": "play",
        "reds": 15,
        "balls": {"Ann": 0, "Bob": 0},
        "owed": {"Ann": 0, "Bob": 0},
        "cue_ball": "white",
        "white_party": None,
    }


# ----------------------------------------------------------------------- counting


def test_rule_8_9_a_losing_hazard_puts_a_ball_back_on_the_spot():
    view = play(AB, [reds(2), stroke("red", "white")])
    assert (view["balls"]["Ann"], view["reds"], view["at_table"]) == (1, 14, "Bob")


def test_rule_11_a_forfeit_with_no_ball_is_owed_and_paid_from_the_next_pot():
    view = play(AB, [MISS])
    assert (view["owed"], view["scores"]) == ({"Ann": 1, "Bob": 0}, {"Ann": -1, "Bob": 1})
    view = play(AB, [MISS, SAFE, reds(3)])
    assert (view["owed"]["Ann"], view["balls"]["Ann"], view["reds"]) == (0, 2, 13)


def test_rule_11_owed_balls_still_owed_at_the_finish_are_deducted():
    view = play({**AB, "reds": 2}, [MISS, reds(2)])
    # Ann owes 1; Bob pots both (2 balls, an even number: no bonus); over: 2 against -1
    assert view["scores"] == {"Ann": -3, "Bob": 3}
    assert (view["over"], view["owed"]) == (True, {"Ann": 1, "Bob": 0})


def test_rule_10_a_losing_hazard_gains_nothing_and_the_reds_go_back():
    view = play(AB, [stroke("red", "red", "red", "white")])
    assert (view["reds"], view["owed"]["Ann"], view["balls"]["Ann"]) == (15, 1, 0)


def test_at_most_one_forfeit_a_stroke():
    view = play(AB, [reds(3), stroke("red", "white", off_table=["red"])])
    assert view["balls"]["Ann"] == 2


def test_coup_is_one_forfeit():
    view = play(AB, [reds(2), stroke(None, "white")])
    assert (view["balls"]["Ann"], view["reds"]) == (1, 14)


def test_rule_13_a_moved_ball_gains_nothing_and_ends_the_visit():
    view = play(AB, [reds(1), stroke("red", "red", fouls=["moved_ball"])])
    assert (view["balls"]["Ann"], view["reds"], view["at_table"]) == (1, 14, "Bob")


def test_rule_14_a_red_forced_off_gains_nothing_and_goes_back():
    view = play(AB, [stroke("red", "red", off_table=["red"])])
    assert (view["balls"]["Ann"], view["reds"], view["at_table"], view["owed"]["Ann"]) == (
        0,
        15,
        "Bob",
        0,
    )


def test_rule_7_a_winning_hazard_keeps_the_table():
    view = play(AB, [reds(1), reds(2)])
    assert (view["at_table"], view["balls"]["Ann"]) == ("Ann", 3)


def test_rule_15_an_even_number_of_reds_has_no_bonus():
    view = play({**AB, "reds": 16}, [reds(16)])
    assert view["balls"]["Ann"] == 16


def test_price_multiplies_the_settlement():
    view = play({**AB, "price": 5}, [reds(3), SAFE])
    assert view["scores"] == {"Ann": 15, "Bob": -15}


def test_tied_leaders_each_take_the_full_difference():
    view = play({**ABC, "reds": 10}, [reds(2), SAFE, reds(2), SAFE])
    assert view["scores"] == {"Ann": 2, "Bob": 2, "Cat": -4}


def test_level_counts_at_the_end_share_the_game():
    view = play({**AB, "reds": 4}, [reds(2), SAFE, reds(2)])
    assert view["scores"] == {"Ann": 0, "Bob": 0}
    assert (view["over"], view["winner"], view["shared"]) == (True, None, True)


# ------------------------------------------------------------------------ endgame


TO_ENDGAME = [reds(14)]  # 15 reds: Ann 14 balls, one red left, two players


def test_rule_16_the_last_red_starts_the_endgame_white_against_red():
    view = play(AB, TO_ENDGAME)
    assert (view["phase"], view["white_party"], view["at_table"], view["cue_ball"]) == (
        "endgame",
        "Ann",
        "Ann",
        "white",
    )
    view = play(AB, [*TO_ENDGAME, SAFE])
    assert (view["at_table"], view["cue_ball"]) == ("Bob", "red")
    view = play(AB, [*TO_ENDGAME, SAFE, stroke("white")])
    assert (view["at_table"], view["cue_ball"], view["phase"]) == ("Ann", "white", "endgame")


def test_rule_17_pocketing_his_own_ball_ends_the_game_the_other_adds_one():
    view = play(AB, [*TO_ENDGAME, stroke("red", "white")])
    assert view["balls"] == {"Ann": 14, "Bob": 1}
    assert (view["over"], view["phase"], view["reds"]) == (True, "over", 1)


def test_rule_17_a_miss_in_the_endgame_ends_it():
    view = play(AB, [*TO_ENDGAME, SAFE, stroke(None)])
    assert view["balls"] == {"Ann": 15, "Bob": 0}
    assert (view["over"], view["reds"], view["owed"]) == (True, 1, {"Ann": 0, "Bob": 0})


def test_the_red_pocketing_his_own_ball_leaves_no_red():
    view = play(AB, [*TO_ENDGAME, SAFE, stroke("white", "red")])
    assert (view["balls"], view["reds"]) == ({"Ann": 15, "Bob": 0}, 0)


def test_the_red_pocketing_the_white_is_the_last_hazard():
    view = play(AB, [*TO_ENDGAME, SAFE, stroke("white", "white")])
    assert (view["balls"], view["reds"], view["over"]) == ({"Ann": 14, "Bob": 2}, 1, True)


def test_endgame_ball_forced_off_is_put_back_and_the_turn_passes():
    view = play(AB, [*TO_ENDGAME, stroke("red", off_table=["red"])])
    assert (view["phase"], view["reds"], view["at_table"]) == ("endgame", 1, "Bob")


def test_endgame_moved_ball_gains_nothing():
    view = play(AB, [*TO_ENDGAME, stroke("red", "red", fouls=["moved_ball"])])
    assert (view["phase"], view["reds"], view["at_table"], view["balls"]["Ann"]) == (
        "endgame",
        1,
        "Bob",
        14,
    )


def test_endgame_owed_balls_are_deducted_at_the_finish():
    # Bob owes 1; Ann takes 14 (endgame); Bob, with the red, pockets the white: 2 balls
    view = play(AB, [SAFE, MISS, reds(14), SAFE, stroke("white", "white")])
    assert (view["balls"], view["owed"]) == ({"Ann": 14, "Bob": 2}, {"Ann": 0, "Bob": 1})
    assert view["scores"] == {"Ann": 13, "Bob": -13}


def test_three_parties_play_on_at_the_last_red():
    view = play(ABC, [reds(14)])
    assert (view["phase"], view["reds"], view["at_table"]) == ("play", 1, "Ann")
    view = play(ABC, [reds(14), MISS])
    assert (view["reds"], view["balls"]["Ann"], view["at_table"]) == (2, 13, "Bob")


# -------------------------------------------------------------------------- sides


def test_sides_partners_alternate_visits():
    view = play(SIDES, [SAFE, SAFE])
    assert (view["at_table"], view["player"]) == ("X", "Cat")
    view = play(SIDES, [SAFE, SAFE, SAFE, SAFE])
    assert (view["at_table"], view["player"]) == ("X", "Ann")


def test_sides_out_on_forfeit_keeps_a_partner_until_he_forfeits():
    setup = {**SIDES, "partners": "out_on_forfeit"}
    view = play(setup, [SAFE, SAFE])
    assert (view["at_table"], view["player"]) == ("X", "Ann")
    view = play(setup, [MISS, SAFE])
    assert (view["at_table"], view["player"]) == ("X", "Cat")


# ------------------------------------------------------------------------ refused

R = {"type": "stroke", "first_hit": "red"}

REFUSALS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], Any, str]] = [
    ("not_an_object", AB, [], "stroke", "unknown_type"),
    ("unknown_type", AB, [], {"type": "touched_ball"}, "unknown_type"),
    ("after_the_end", AB, [reds(15)], SAFE, "game_over"),
    ("simultaneous", AB, [], {**R, "simultaneous": "red"}, "unknown_field"),
    ("aim", AB, [], {**R, "aim": "red"}, "unknown_field"),
    ("misplaced_balls", AB, [], {**R, "misplaced_balls": 0}, "unknown_field"),
    ("first_hit_missing", AB, [], {"type": "stroke"}, "missing_field"),
    ("a_snooker_ball", AB, [], stroke("red", "yellow"), "bad_value"),
    ("white_first_before_the_endgame", AB, [], stroke("white"), "bad_value"),
    ("own_ball_first_in_the_endgame", AB, [reds(14), SAFE], stroke("red"), "bad_value"),
    ("pot_not_an_object", AB, [], {**R, "pots": ["red"]}, "bad_value"),
    ("unknown_foul", AB, [], {**R, "fouls": ["push"]}, "unknown_foul"),
    ("player_nobody", AB, [], {**R, "player": "Zed"}, "unknown_player"),
    ("not_the_player_at_the_table", AB, [], {**R, "player": "Bob"}, "not_your_turn"),
    (
        "field_checks_come_before_the_turn",
        AB,
        [],
        {"type": "stroke", "first_hit": "white", "player": "Bob"},
        "bad_value",
    ),
    ("partner_not_due", SIDES, [], {**R, "player": "Cat"}, "not_your_turn"),
    ("more_reds_than_on_the_table", {**AB, "reds": 3}, [], reds(4), "not_on_table"),
    ("white_twice", AB, [], stroke("red", "white", off_table=["white"]), "impossible"),
    ("red_moved_on_a_miss", AB, [], stroke(None, "red"), "impossible"),
]


@pytest.mark.parametrize(
    ("setup", "before", "event", "code"),
    [pytest.param(s, b, e, c, id=name) for name, s, b, e, c in REFUSALS],
)
def test_refused_with_the_pages_code_at_its_index_and_nothing_changes(setup, before, event, code):
    assert_refused_at(G, setup, before, event, code)


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param({"players": ["Ann"]}, id="one_player"),
        pytest.param({"reds": 1}, id="one_red"),
        pytest.param({"reds": 31}, id="too_many_reds"),
        pytest.param({"price": 0}, id="price_zero"),
        pytest.param({"price": 1.5}, id="price_not_whole"),
        pytest.param({"partners": "never"}, id="unknown_partners_rule"),
        pytest.param({"target": 8}, id="unknown_key"),
    ],
)
def test_bad_setup_is_refused_at_index_minus_one(setup):
    with pytest.raises(RuleError) as info:
        G.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)
