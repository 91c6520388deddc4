"""Snooker's pool, Billiard Association rules of 1908 (``snookers_pool_1908``).

The worked examples of the ledger scoring language §7, each rule's penalty figure as §3.6 derives it
from the book (The Billiard Handbook, 1908, Snooker's pool rules 1-30), and every refusal
§1.3, §2.1 and §3.13 list. Rule numbers are the book's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import RuleError, get, replay
from tests.rules.conftest import assert_refused_at

G = get("snookers_pool_1908")
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
ABC = {"players": ["Ann", "Bob", "Cat"]}
AB = {"players": ["Ann", "Bob"]}
SIDES = {"sides": ["X", "Y"], "players": {"X": ["Ann", "Cat"], "Y": ["Bob", "Dan"]}}


def stroke(first_hit: str | None, *pots: str, **fields: Any) -> dict[str, Any]:
    """A ``stroke``: what the white hit first, the balls pocketed, other fields."""
    ev: dict[str, Any] = {"type": "stroke", "first_hit": first_hit}
    if pots:
        ev["pots"] = [{"ball": b} for b in pots]
    ev.update(fields)
    return ev


def miss(**fields: Any) -> dict[str, Any]:
    return stroke(None, **fields)


#: A red and the black, fifteen times: the colours are left, on the yellow.
CLEAR_REDS = [stroke("red", "red"), stroke("black", "black")] * 15
SEQUENCE = [stroke(c, c) for c in COLOURS]


def play(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return G.view(replay(G, setup, list(events)))


# ------------------------------------------------------------ the page's examples


def test_worked_example_red_blue_then_a_miss():
    """§7: Ann pots a red (+1 each), the blue (+5 each), then misses a red (1 each)."""
    view = play(ABC, [stroke("red", "red"), stroke("blue", "blue"), miss()])
    assert view["scores"] == {"Ann": 10, "Bob": -5, "Cat": -5}


def test_worked_example_pink_struck_first_on_a_red_pays_6_each():
    view = play(ABC, [stroke("pink")])
    assert view["scores"] == {"Ann": -12, "Bob": 6, "Cat": 6}


def test_worked_example_two_reds_one_in_a_named_pocket_score_2_from_each():
    ev = {
        "type": "stroke",
        "first_hit": "red",
        "pots": [{"ball": "red"}, {"ball": "red", "pocket": "middle_left"}],
    }
    view = play(ABC, [ev])
    assert view["scores"] == {"Ann": 4, "Bob": -2, "Cat": -2}
    assert (view["reds"], view["on"], view["break"]) == (13, "colour", 2)


def test_new_game_state_is_the_pages():
    assert play(ABC, []) == {
        "game": "snookers_pool_1908",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"Ann": 0, "Bob": 0, "Cat": 0},
        "at_table": "Ann",
        "player": "Ann",
        "events": 0,
        "on": "red",
        "reds": 15,
        "colours": COLOURS,
        "break": 0,
        "skips": {"Ann": 0, "Bob": 0, "Cat": 0},
    }


# ------------------------------------------- §3.6: each rule's figure from one formula

AFTER_RED = [stroke("red", "red")]  # AB: Ann +1, on a colour of her choice

PENALTIES: list[tuple[str, list[dict[str, Any]], dict[str, Any], int]] = [
    # (name, before, stroke, penalty paid to Bob) — 2 players, Ann strikes
    ("r24_miss_on_a_red_pays_1", [], miss(), 1),
    ("r24_miss_of_the_declared_black_pays_7", AFTER_RED, miss(aim="black"), 7),
    ("r24_r25_wrong_ball_first_pays_its_value", [], stroke("blue"), 5),
    ("r24_lower_ball_first_pays_the_value_on", AFTER_RED, stroke("red", aim="pink"), 6),
    ("r24_r27_in_off_pays_the_ball_struck", AFTER_RED, stroke("blue", "white"), 5),
    ("r24_in_off_a_red_pays_1", [], stroke("red", "red", "white"), 1),
    ("r24_wrong_ball_potted_pays_its_value", [], stroke("red", "green"), 3),
    (
        "r24_wrong_ball_potted_lower_pays_the_value_on",
        AFTER_RED,
        stroke("pink", "pink", "yellow"),
        6,
    ),
    ("r29_two_pool_balls_potted_pay_the_higher", AFTER_RED, stroke("blue", "blue", "black"), 7),
    ("r26_red_and_pool_ball_at_once_pay_the_higher", [], stroke("red", simultaneous="brown"), 4),
    ("r22_ball_forced_off_pays_its_value", [], stroke("red", off_table=["pink"]), 6),
    (
        "r22_lower_ball_forced_off_pays_the_value_on",
        AFTER_RED,
        stroke("black", off_table=["red"]),
        7,
    ),
    ("r22_white_forced_off_pays_the_value_on", AFTER_RED, stroke("green", off_table=["white"]), 3),
    ("r22_white_off_after_a_higher_ball_first", [], stroke("black", off_table=["white"]), 7),
    ("r20_wrong_ball_pays_the_black", [], stroke("red", "red", fouls=["wrong_ball"]), 7),
    ("r28_intentional_miss_pays_the_black", [], miss(fouls=["intentional_miss"]), 7),
    ("r24_coup_pays_the_value_on", [], miss(pots=[{"ball": "white"}]), 1),
]


@pytest.mark.parametrize(
    ("before", "event", "penalty"),
    [pytest.param(b, e, p, id=name) for name, b, e, p in PENALTIES],
)
def test_penalty_is_the_highest_of_the_value_on_and_every_ball(before, event, penalty):
    start = play(AB, before)["scores"]["Ann"]
    view = play(AB, [*before, event])
    assert view["scores"]["Ann"] == start - penalty
    assert sum(view["scores"].values()) == 0


def test_several_faults_in_one_stroke_pay_the_highest_only():
    # a miss of the red (1), the white in (1), and the wrong ball (7): 7 once
    view = play(ABC, [miss(pots=[{"ball": "white"}], fouls=["wrong_ball"])])
    assert view["scores"] == {"Ann": -14, "Bob": 7, "Cat": 7}


# ---------------------------------------------------------------- strokes and turns


def test_push_and_the_like_score_nothing_pay_nothing_and_end_the_visit():
    for code in ("push", "double_hit", "feet_off_floor", "before_rest", "moved_touching_ball"):
        view = play(ABC, [stroke("red", "red", fouls=[code])])
        assert view["scores"] == {"Ann": 0, "Bob": 0, "Cat": 0}, code
        assert (view["at_table"], view["reds"]) == ("Bob", 14), code  # rule 10: the red is gone


def test_rule_10_reds_pocketed_or_forced_off_in_a_foul_are_gone_for_good():
    view = play(AB, [stroke("red", "red", "red", "pink", off_table=["red"])])
    assert view["reds"] == 12
    assert view["colours"] == COLOURS  # the pink is respotted
    assert view["scores"] == {"Ann": -6, "Bob": 6}


def test_rule_9_a_pool_ball_with_a_red_is_a_foul():
    view = play(ABC, [stroke("red", "red", "yellow")])
    assert view["scores"] == {"Ann": -4, "Bob": 2, "Cat": 2}
    assert (view["reds"], view["colours"], view["at_table"]) == (14, COLOURS, "Bob")


def test_rule_28_intentional_miss_pays_7_and_the_striker_plays_again():
    view = play(ABC, [stroke("red", "red"), miss(aim="blue", fouls=["intentional_miss"])])
    assert view["scores"] == {"Ann": -12, "Bob": 6, "Cat": 6}
    assert (view["at_table"], view["on"], view["break"]) == ("Ann", "colour", 1)


def test_rule_28_replay_on_a_red_with_no_red_left_is_on_the_lowest_pool_ball():
    events = [*CLEAR_REDS[:28], stroke("red", off_table=["red"], fouls=["intentional_miss"])]
    view = play(AB, events)
    assert (view["reds"], view["at_table"], view["on"]) == (0, "Ann", "yellow")


def test_rule_17_out_of_turn_pays_the_penalty_and_forfeits_the_next_turn():
    view = play(ABC, [stroke("pink", player="Cat")])
    assert view["scores"] == {"Ann": 6, "Bob": 6, "Cat": -12}
    assert view["skips"] == {"Ann": 0, "Bob": 0, "Cat": 1}
    assert (view["at_table"], view["on"], view["reds"]) == ("Ann", "red", 15)
    # Ann misses, Bob misses: Cat is passed over, Ann plays
    view = play(ABC, [stroke("pink", player="Cat"), stroke("red"), stroke("red")])
    assert (view["at_table"], view["skips"]["Cat"]) == ("Ann", 0)


def test_rule_17_a_clean_stroke_out_of_turn_scores_nothing_and_is_put_back():
    view = play(ABC, [stroke("red", "red"), stroke("blue", "blue", player="Bob")])
    assert view["scores"] == {"Ann": 2, "Bob": -1, "Cat": -1}
    assert (view["at_table"], view["on"], view["break"], view["reds"]) == ("Ann", "colour", 1, 14)
    assert view["skips"]["Bob"] == 1


def test_rule_17_with_sides_the_whole_side_forfeits_and_keeps_its_partner_order():
    # Cat (X) strikes at Ann's turn: X forfeits its next visit
    events = [stroke("red", player="Cat"), stroke("red"), stroke("red")]
    view = play(SIDES, events)
    # Ann's visit ends; Bob (Y) plays; X passed over; Y again with Dan
    assert (view["at_table"], view["player"]) == ("Y", "Dan")
    view = play(SIDES, [*events, stroke("red")])
    assert (view["at_table"], view["player"]) == ("X", "Cat")


def test_rule_21_touched_ball_changes_nothing_but_the_count():
    before = play(ABC, [stroke("red", "red")])
    after = play(ABC, [stroke("red", "red"), {"type": "touched_ball"}])
    assert {**before, "events": 2} == after


def test_rule_23_obstruction_pays_every_ball_on_the_table_and_keeps_the_turn():
    view = play(ABC, [{"type": "obstruction", "by": "Cat"}])
    assert view["scores"] == {"Ann": 42, "Bob": 42, "Cat": -84}  # 15 + 27
    assert view["at_table"] == "Ann"
    view = play(SIDES, [{"type": "obstruction", "by": "Y"}])
    assert view["scores"] == {"X": 42, "Y": -42}


def test_rule_7_the_last_red_gives_a_free_choice_respotted_then_the_sequence():
    view = play(AB, [*CLEAR_REDS[:28], stroke("red", "red"), stroke("pink", "pink")])
    assert (view["reds"], view["colours"], view["on"], view["break"]) == (0, COLOURS, "yellow", 119)
    view = play(AB, [*CLEAR_REDS, *SEQUENCE[:2]])
    assert (view["colours"], view["on"]) == (COLOURS[2:], "brown")


def test_a_maximum_ends_the_game_and_the_highest_balance_wins():
    view = play(ABC, [*CLEAR_REDS, *SEQUENCE])
    assert view["scores"] == {"Ann": 294, "Bob": -147, "Cat": -147}
    assert (view["over"], view["winner"], view["shared"], view["on"], view["at_table"]) == (
        True,
        "Ann",
        False,
        None,
        None,
    )


def test_level_highest_balances_share_the_game():
    data = G.dump(G.initial(AB))
    data.update(balances=[-7, 7], reds=0, colours=["black"], on="black")
    view = G.view(G.apply(G.load(data), stroke("black", "black")))
    assert (view["over"], view["shared"], view["winner"]) == (True, True, None)


def test_describe_lists_the_1908_events_and_fouls():
    d = G.describe()
    assert [e["type"] for e in d["events"]] == ["stroke", "touched_ball", "obstruction"]
    assert [f["code"] for f in d["fouls"]] == [
        "push",
        "double_hit",
        "feet_off_floor",
        "before_rest",
        "moved_touching_ball",
        "wrong_ball",
        "intentional_miss",
    ]
    fields = [f["name"] for f in d["events"][0]["fields"]]
    assert "misplaced_balls" not in fields
    assert "skips" in d["state"]


# ------------------------------------------------------------------------ refused

POT = {"type": "stroke", "first_hit": "red"}

REFUSALS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], Any, str]] = [
    ("not_an_object", AB, [], ["stroke"], "unknown_type"),
    ("unknown_type", AB, [], {"type": "pot"}, "unknown_type"),
    ("after_the_black", AB, [*CLEAR_REDS, *SEQUENCE], miss(), "game_over"),
    (
        "touched_ball_after_the_black",
        AB,
        [*CLEAR_REDS, *SEQUENCE],
        {"type": "touched_ball"},
        "game_over",
    ),
    ("unknown_type_after_the_end", AB, [*CLEAR_REDS, *SEQUENCE], {"type": "x"}, "unknown_type"),
    ("unknown_field", AB, [], {**POT, "cushion": True}, "unknown_field"),
    ("misplaced_balls_is_hoyles", AB, [], {**POT, "misplaced_balls": 1}, "unknown_field"),
    ("touched_ball_with_a_field", AB, [], {"type": "touched_ball", "by": "Ann"}, "unknown_field"),
    ("first_hit_missing", AB, [], {"type": "stroke"}, "missing_field"),
    ("obstruction_without_by", AB, [], {"type": "obstruction"}, "missing_field"),
    ("white_as_first_hit", AB, [], stroke("white"), "bad_value"),
    ("unknown_ball", AB, [], stroke("red", "purple"), "bad_value"),
    ("pots_not_a_list", AB, [], {**POT, "pots": "red"}, "bad_value"),
    ("pot_not_an_object", AB, [], {**POT, "pots": ["red"]}, "bad_value"),
    ("pot_with_another_key", AB, [], {**POT, "pots": [{"ball": "red", "hole": 1}]}, "bad_value"),
    ("pot_without_ball", AB, [], {**POT, "pots": [{"pocket": "top_left"}]}, "bad_value"),
    (
        "pot_in_no_such_pocket",
        AB,
        [],
        {**POT, "pots": [{"ball": "red", "pocket": "corner"}]},
        "bad_value",
    ),
    ("off_table_not_a_list", AB, [], {**POT, "off_table": "red"}, "bad_value"),
    ("hoyles_foul_code", AB, [], stroke("red", fouls=["white_touching"]), "unknown_foul"),
    ("unknown_foul", AB, [], stroke("red", fouls=["scratch"]), "unknown_foul"),
    ("player_nobody", AB, [], stroke("red", player="Zed"), "unknown_player"),
    ("obstruction_by_nobody", AB, [], {"type": "obstruction", "by": "Zed"}, "unknown_player"),
    ("side_name_as_player", SIDES, [], stroke("red", player="X"), "unknown_player"),
    ("pool_ball_twice", AB, [], stroke("red", "yellow", "yellow"), "impossible"),
    ("pool_ball_potted_and_off", AB, [], stroke("red", "black", off_table=["black"]), "impossible"),
    ("white_twice", AB, [], stroke("red", "white", off_table=["white"]), "impossible"),
    ("object_ball_moved_on_a_miss", AB, [], miss(pots=[{"ball": "red"}]), "impossible"),
    ("simultaneous_without_first_hit", AB, [], miss(simultaneous="red"), "impossible"),
    ("same_pool_ball_at_once", AB, [], stroke("pink", simultaneous="pink"), "impossible"),
    ("more_reds_than_on_the_table", AB, [], stroke("red", *["red"] * 16), "not_on_table"),
    (
        "pool_ball_already_down",
        AB,
        [*CLEAR_REDS, SEQUENCE[0]],
        stroke("green", "yellow"),
        "not_on_table",
    ),
    ("first_hit_already_down", AB, [*CLEAR_REDS, SEQUENCE[0]], stroke("yellow"), "not_on_table"),
    ("red_when_none_left", AB, CLEAR_REDS, stroke("red"), "not_on_table"),
    (
        "two_reds_at_once_with_one_left",
        AB,
        CLEAR_REDS[:28],
        stroke("red", simultaneous="red"),
        "not_on_table",
    ),
    ("colour_free_without_aim", AB, [stroke("red", "red")], stroke("red"), "aim_required"),
    ("colour_free_miss_without_aim", AB, [stroke("red", "red")], miss(), "aim_required"),
    ("aim_red_on_a_colour", AB, [stroke("red", "red")], stroke("red", aim="red"), "bad_aim"),
    ("aim_colour_on_a_red", AB, [], stroke("blue", aim="blue"), "bad_aim"),
    ("aim_out_of_sequence", AB, CLEAR_REDS, stroke("green", aim="green"), "bad_aim"),
]


@pytest.mark.parametrize(
    ("setup", "before", "event", "code"),
    [pytest.param(s, b, e, c, id=name) for name, s, b, e, c in REFUSALS],
)
def test_refused_with_the_pages_code_at_its_index_and_nothing_changes(setup, before, event, code):
    err = assert_refused_at(G, setup, before, event, code)
    assert err.message


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param({"players": ["Ann"]}, id="one_player"),
        pytest.param({"players": ["Ann", "Ann"]}, id="repeated_name"),
        pytest.param({"players": "Ann"}, id="players_not_a_list"),
        pytest.param({"players": ["Ann", "Bob"], "reds": 10}, id="unknown_key"),
        pytest.param({"sides": ["X"]}, id="one_side"),
        pytest.param({"sides": ["X", "Y"], "players": {"X": []}}, id="empty_side"),
        pytest.param({"sides": ["X", "Y"], "players": {"Z": ["Ann"]}}, id="unknown_side"),
        pytest.param([], id="not_an_object"),
    ],
)
def test_bad_setup_is_refused_at_index_minus_one(setup):
    with pytest.raises(RuleError) as info:
        G.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


def test_statistics_credit_an_obstruction_to_the_player_named():
    events = [stroke("red", "red"), {"type": "obstruction", "by": "Bob"}]
    lines = G.player_statistics(AB, events)
    assert lines["Bob"] == {"balls_potted": 0, "penalties_paid": 41, "net": -42}
    assert lines["Ann"] == {"balls_potted": 1, "penalties_paid": 0, "net": 42}
