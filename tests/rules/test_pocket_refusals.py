"""The pocket family (the pocket scoring language "Refused input"): every refusal the page lists, with
its code at its own index, the state left as it was; and the refused setups (index -1)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import RuleError, get
from tests.rules.conftest import assert_refused_at
from tests.rules.test_pocket_examples import C, S, foul, pot

LEAD = {"type": "lead"}
ABC = {"players": ["A", "B", "C"]}

REFUSALS: list[tuple[str, str, dict[str, Any], list[Any], Any, str]] = [
    # unknown_type
    ("event_type_unknown", "fifteen_ball_pool", {}, [], {"type": "shot"}, "unknown_type"),
    ("foul_in_continuous", "continuous_pool", {}, [], foul("P2", "out_of_turn"), "unknown_type"),
    ("lead_in_fifteen_ball", "fifteen_ball_pool", {}, [], LEAD, "unknown_type"),
    ("star_in_two_ball", "two_ball_pool", {}, [], {"type": "star", "player": "P1"}, "unknown_type"),
    # unknown_field
    ("field_unknown", "rotation_pool", {}, [], S(spin=True), "unknown_field"),
    ("group_in_fifteen_ball", "fifteen_ball_pool", {}, [], S(group="red"), "unknown_field"),
    ("call_in_golf", "golf_pool", {}, [], S(call=[]), "unknown_field"),
    ("fouls_in_golf", "golf_pool", {}, [], S(fouls=["miss"]), "unknown_field"),
    ("field_inside_a_pot", "fifteen_ball_pool", {}, [], S(pot(3) | {"spin": 1}), "unknown_field"),
    (
        "field_inside_a_call",
        "fifteen_ball_pool",
        {},
        [S()],
        S(3, call=[{"ball": 3, "how": "kiss"}]),
        "unknown_field",
    ),
    (
        "pocketed_outside_two_ball",
        "fifteen_ball_pool",
        {},
        [],
        foul("P2", "out_of_turn", pocketed=True),
        "unknown_field",
    ),
    # bad_value
    ("ball_sixteen", "fifteen_ball_pool", {}, [], S(16), "bad_value"),
    ("ball_as_a_string", "fifteen_ball_pool", {}, [], S("3"), "bad_value"),
    ("pocket_unknown", "fifteen_ball_pool", {}, [], S(pot(3, "corner")), "bad_value"),
    ("cushion_not_bool", "fifteen_ball_pool", {}, [], S(cushion=1), "bad_value"),
    ("player_unknown", "fifteen_ball_pool", {}, [], foul("Zed", "out_of_turn"), "bad_value"),
    ("group_unknown", "bbc_co_pool", {}, [], S("red", "yellow", group="blue"), "bad_value"),
    ("colour_ball_beyond_the_players", "color_ball_life_pool", {}, [], S("yellow"), "bad_value"),
    ("hazard_unknown_player", "two_ball_pool", {}, [LEAD], S(hazard="Zed"), "bad_value"),
    # unknown_foul
    ("foul_code_unknown", "fifteen_ball_pool", {}, [], S(fouls=["push"]), "unknown_foul"),
    (
        "simultaneous_in_fifteen_ball",
        "fifteen_ball_pool",
        {},
        [],
        S(fouls=["simultaneous"]),
        "unknown_foul",
    ),
    (
        "obstruction_in_two_ball",
        "two_ball_pool",
        {},
        [LEAD],
        foul("P1", "obstruction"),
        "unknown_foul",
    ),
    # not_on_table
    ("ball_already_potted", "fifteen_ball_pool", {}, [S(3)], S(3), "not_on_table"),
    ("called_ball_gone", "fifteen_ball_pool", {}, [S(3)], C(3), "not_on_table"),
    ("first_hit_gone", "rotation_pool", {}, [S(1)], S(first_hit=1), "not_on_table"),
    ("more_reds_than_left", "bbc_co_pool", {}, [S(*["red"] * 6)], S("red", "red"), "not_on_table"),
    (
        "dead_players_ball",
        "color_ball_life_pool",
        ABC,
        [foul("A", "obstruction")],
        S(on="white"),
        "not_on_table",
    ),
    # duplicate_ball
    ("ball_potted_twice", "fifteen_ball_pool", {}, [], S(3, 3), "duplicate_ball"),
    ("ball_potted_and_off", "fifteen_ball_pool", {}, [], S(3, off_table=[3]), "duplicate_ball"),
    (
        "ball_called_twice",
        "fifteen_ball_pool",
        {},
        [S()],
        S(3, call=[{"ball": 3}, {"ball": 3}]),
        "duplicate_ball",
    ),
    ("black_twice", "bbc_co_pool", {}, [], S("black", off_table=["black"]), "duplicate_ball"),
    # inconsistent
    ("miss_with_a_pot", "fifteen_ball_pool", {}, [], S(3, fouls=["miss"]), "inconsistent"),
    ("no_first_hit_with_a_pot", "fifteen_ball_pool", {}, [], S(3, first_hit=None), "inconsistent"),
    (
        "miss_with_first_hit",
        "rotation_pool",
        {},
        [],
        S(first_hit=1, fouls=["miss"]),
        "inconsistent",
    ),
    (
        "two_ball_miss_with_object_potted",
        "two_ball_pool",
        {},
        [LEAD],
        S("red", fouls=["miss"]),
        "inconsistent",
    ),
    # call_not_allowed
    ("call_on_the_opening", "fifteen_ball_pool", {}, [], C(3), "call_not_allowed"),
    ("call_in_rotation", "rotation_pool", {}, [S()], C(1), "call_not_allowed"),
    (
        "call_on_the_bank_ball",
        "high_low_jack",
        {"players": ["A", "B", "C"], "target": 2},
        [
            S(15, 14, 13, 12, 4),
            S(call=[]),
            S(9, 2, 5, 6, 7, 8, 10, 11, call=[{"ball": 9}]),
            S(call=[]),
            S(1, 3, call=[{"ball": 1}]),
        ],
        C(1),
        "call_not_allowed",
    ),
    # pocket_required
    (
        "called_pocket_pot_without_pocket",
        "fifteen_ball_pool",
        {},
        [S()],
        S(3, call=[{"ball": 3, "pocket": "head_left"}]),
        "pocket_required",
    ),
    ("match_call_without_pocket", "continuous_pool", {"match": True}, [], C(3), "pocket_required"),
    ("golf_pot_without_pocket", "golf_pool", {}, [], S("red"), "pocket_required"),
    # group_required / group_not_allowed
    ("both_colours_without_choice", "bbc_co_pool", {}, [], S("red", "yellow"), "group_required"),
    ("choice_with_one_colour", "bbc_co_pool", {}, [], S("red", group="red"), "group_not_allowed"),
    (
        "choice_after_colours_taken",
        "bbc_co_pool",
        {},
        [S("red")],
        S("red", "yellow", group="red"),
        "group_not_allowed",
    ),
    # on_required / on_mismatch
    (
        "nearest_ball_not_named",
        "color_ball_life_pool",
        ABC,
        [S("white"), S(fouls=["miss"])],
        S(),
        "on_required",
    ),
    (
        "on_not_the_ball_named",
        "color_ball_life_pool",
        ABC,
        [S("white"), S(fouls=["miss"]), S(on="red", fouls=["feet"])],  # B plays on A's white
        S(on="yellow"),
        "on_mismatch",
    ),
    # not_now
    ("stroke_when_a_lead_is_due", "two_ball_pool", {}, [], S(), "not_now"),
    ("lead_when_none_is_due", "two_ball_pool", {}, [LEAD], LEAD, "not_now"),
    (
        "choose_break_mid_rack",
        "continuous_pool",
        {},
        [S()],
        {"type": "choose_break", "player": "P2"},
        "not_now",
    ),
    (
        "choose_break_first_rack",
        "continuous_pool",
        {},
        [],
        {"type": "choose_break", "player": "P2"},
        "not_now",
    ),
    (
        "out_of_turn_by_the_player_at_the_table",
        "fifteen_ball_pool",
        {},
        [],
        foul("P1", "out_of_turn"),
        "not_now",
    ),
    (
        "foul_by_a_player_who_is_out",
        "color_ball_life_pool",
        ABC,
        [foul("A", "obstruction")],
        foul("A", "out_of_turn"),
        "not_now",
    ),
    ("hazard_by_the_object_balls_owner", "two_ball_pool", ABC, [LEAD], S(hazard="A"), "not_now"),
    ("star_not_open", "color_ball_life_pool", ABC, [], {"type": "star", "player": "A"}, "not_now"),
    (
        "privilege_not_open",
        "two_ball_pool",
        {},
        [LEAD],
        {"type": "privilege", "player": "P1"},
        "not_now",
    ),
    (
        "pocketed_while_a_lead_is_due",
        "two_ball_pool",
        ABC,
        [],
        foul("B", "out_of_turn", pocketed=True),
        "not_now",
    ),
    # game_over
    ("stroke_after_the_end", "bbc_co_pool", {}, [S("black")], S(), "game_over"),
    ("stroke_after_the_target", "continuous_pool", {"target": 1}, [S(1)], S(), "game_over"),
    (
        "lead_after_the_end",
        "two_ball_pool",
        {"lives": 1},
        [LEAD, S(fouls=["miss"])],
        {"type": "lead"},
        "game_over",
    ),
]


@pytest.mark.parametrize(
    ("game", "setup", "before", "event", "code"),
    [pytest.param(g, s, b, e, c, id=name) for name, g, s, b, e, c in REFUSALS],
)
def test_refused_event_names_code_and_index_and_changes_nothing(game, setup, before, event, code):
    err = assert_refused_at(get(game), setup, before, event, code)
    # the message names the field at fault (one given, or one missing), or the event's type
    names = {*event, event.get("type"), "group", "on"} - {"type"}
    assert any(name in err.message for name in names), err.message


def test_refusal_message_names_the_field():
    err = assert_refused_at(get("fifteen_ball_pool"), {}, [], S(16), "bad_value")
    assert "pots[0].ball" in err.message


BAD_SETUPS: list[tuple[str, str, Any]] = [
    ("unknown_key", "fifteen_ball_pool", {"lives": 3}),
    ("players_not_a_list", "fifteen_ball_pool", {"players": "Ann"}),
    ("one_player", "fifteen_ball_pool", {"players": ["Ann"]}),
    ("thirteen_players", "fifteen_ball_pool", {"players": [f"P{i}" for i in range(13)]}),
    ("three_in_continuous", "continuous_pool", {"players": ["A", "B", "C"]}),
    ("duplicate_names", "rotation_pool", {"players": ["A", "A"]}),
    ("target_not_an_int", "continuous_pool", {"target": "200"}),
    ("pyramid_target_sixteen", "american_pyramid_pool", {"target": 16}),
    ("high_low_jack_target_one", "high_low_jack", {"target": 1}),
    ("bool_for_match", "fifteen_ball_pool", {"match": 1}),
    ("bbc_three_sides", "bbc_co_pool", {"sides": ["a", "b", "c"]}),
    ("bbc_three_partners", "bbc_co_pool", {"players": {"home": ["A", "B", "C"], "away": ["D"]}}),
    ("bbc_unknown_side", "bbc_co_pool", {"players": {"there": ["A"]}}),
    ("two_ball_privilege_word", "two_ball_pool", {"privilege": "sometimes"}),
    ("two_ball_seventeen", "two_ball_pool", {"players": [f"P{i}" for i in range(17)]}),
    ("lives_zero", "two_ball_pool", {"lives": 0}),
    ("lives_for_a_stranger", "color_ball_life_pool", {"lives": {"P1": 3, "Zed": 2}}),
    ("negative_stake", "color_ball_life_pool", {"stake": -1}),
    ("golf_one_player", "golf_pool", {"players": ["A"]}),
    (
        "golf_three_a_side",
        "golf_pool",
        {"sides": ["X", "Y"], "players": {"X": ["A", "B", "C"], "Y": ["D"]}},
    ),
    ("setup_not_an_object", "golf_pool", ["A", "B"]),
]


@pytest.mark.parametrize(
    ("game", "setup"), [pytest.param(g, s, id=name) for name, g, s in BAD_SETUPS]
)
def test_bad_setup_is_refused_with_index_minus_one(game, setup):
    with pytest.raises(RuleError) as info:
        get(game).initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)
