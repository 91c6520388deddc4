"""The carom family: every refusal of the carom scoring language ("Refused input"), with its code and
its event's index, and the state left as it was; bad setups (index -1); the order in which
the checks run (the page's table, top to bottom)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import RuleError, get, replay
from tests.rules.conftest import assert_refused_at

C = "cushion"


def stroke(*contacts: str, **fields: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "stroke", "contacts": list(contacts)}
    ev.update(fields)
    return ev


def pot(ball: Any, pocket: Any = None, **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"ball": ball} if pocket is None else {"ball": ball, "pocket": pocket}
    p.update(extra)
    return p


AB = {"players": ["Ann", "Bob"]}
ABC = {"players": ["Ann", "Bob", "Cat"]}
CONCEDE = {"type": "concede", "player": "Bob"}
TIME_UP = {"type": "time_up"}
LAY_OFF = {"type": "lay_off"}
SPOT = {"type": "spot_balls"}
RED = stroke("red", nominate="red")  # Russian pool: an opening stroke at the red
TO_OPEN_RUSSIAN = [RED]

# (name, game, setup, events before, refused event, code)
REFUSALS: list[tuple[str, str, dict[str, Any], list[Any], Any, str]] = [
    # game_over: any event after the game is over
    ("stroke_after_concede", "three_ball_carom", AB, [CONCEDE], stroke("red"), "game_over"),
    ("time_up_after_time_up", "english_billiards", AB, [TIME_UP], TIME_UP, "game_over"),
    (
        "concede_after_the_target",
        "cushion_carom",
        AB | {"target": 1},
        [stroke(C, "red", "white")],
        CONCEDE,
        "game_over",
    ),
    ("spot_balls_after_the_end", "little_corporal", AB, [TIME_UP], SPOT, "game_over"),
    ("lay_off_after_the_end", "four_ball_carom", AB, [TIME_UP], LAY_OFF, "game_over"),
    ("malformed_event_after_the_end", "russian_pool", AB, [TIME_UP], {"type": "pot"}, "game_over"),
    # unknown_type
    ("event_not_an_object", "space_game", AB, [], ["stroke"], "unknown_type"),
    ("event_without_type", "progressive_carom", AB, [], {"contacts": []}, "unknown_type"),
    ("type_not_a_string", "balkline_14in", AB, [], {"type": 1}, "unknown_type"),
    ("unknown_type", "spanish_billiards", AB, [], {"type": "shot"}, "unknown_type"),
    ("lay_off_outside_four_ball", "three_ball_carom", AB, [], LAY_OFF, "unknown_type"),
    (
        "lay_off_in_the_pocket_four_ball",
        "american_four_ball_pocket",
        AB,
        [],
        LAY_OFF,
        "unknown_type",
    ),
    ("spot_balls_in_four_ball", "four_ball_carom", AB, [LAY_OFF], SPOT, "unknown_type"),
    ("spot_balls_in_bank_shot_h843", "bank_shot_carom", AB, [], SPOT, "unknown_type"),
    ("spot_balls_in_english", "english_billiards", AB, [], SPOT, "unknown_type"),
    ("spot_balls_in_american", "american_four_ball_pocket", AB, [], SPOT, "unknown_type"),
    ("spot_balls_in_russian", "russian_pool", AB, [], SPOT, "unknown_type"),
    # unknown_field
    (
        "pots_in_a_carom_game",
        "three_ball_carom",
        AB,
        [],
        stroke("red", pots=[pot("red")]),
        "unknown_field",
    ),
    (
        "pots_in_four_ball",
        "four_ball_carom",
        AB,
        [LAY_OFF],
        stroke("white", pots=[pot("white")]),
        "unknown_field",
    ),
    (
        "space_in_a_game_without_spaces",
        "english_billiards",
        AB,
        [],
        stroke("red", space="crotch_1"),
        "unknown_field",
    ),
    (
        "returned_in_a_game_without_spaces",
        "spanish_billiards",
        AB,
        [],
        stroke("red", returned=False),
        "unknown_field",
    ),
    (
        "nominate_outside_russian_pool",
        "english_billiards",
        AB,
        [],
        stroke("red", nominate="red"),
        "unknown_field",
    ),
    (
        "pins_outside_the_pin_games",
        "three_ball_carom",
        AB,
        [],
        stroke("red", pins=[]),
        "unknown_field",
    ),
    (
        "pins_before_ball_outside_the_pin_games",
        "american_four_ball_pocket",
        AB,
        [],
        stroke("white", pins_before_ball=[]),
        "unknown_field",
    ),
    ("choice_outside_english", "spanish_billiards", AB, [], stroke(choice="miss"), "unknown_field"),
    (
        "a_pot_with_another_key",
        "english_billiards",
        AB,
        [],
        stroke("red", pots=[pot("red", "top_left", hole=3)]),
        "unknown_field",
    ),
    (
        "lay_off_with_a_field",
        "four_ball_carom",
        AB,
        [],
        {"type": "lay_off", "player": "Ann"},
        "unknown_field",
    ),
    ("time_up_with_a_field", "russian_pool", AB, [], {"type": "time_up", "at": 3}, "unknown_field"),
    # missing_field
    ("nominate_absent_in_russian_pool", "russian_pool", AB, [], stroke("red"), "missing_field"),
    (
        "a_pot_without_ball",
        "spanish_billiards",
        AB,
        [],
        stroke("red", pots=[{"pocket": "top_left"}]),
        "missing_field",
    ),
    (
        "a_russian_pot_without_pocket",
        "russian_pool",
        AB,
        [],
        stroke("red", nominate="red", pots=[pot("red")]),
        "missing_field",
    ),
    (
        "a_russian_pot_with_a_null_pocket",
        "russian_pool",
        AB,
        [],
        stroke("red", nominate="red", pots=[{"ball": "red", "pocket": None}]),
        "missing_field",
    ),
    ("concede_without_player", "bank_shot_carom", AB, [], {"type": "concede"}, "missing_field"),
    # bad_value
    ("contacts_not_a_list", "three_ball_carom", AB, [], stroke(contacts="red"), "bad_value"),
    ("returned_not_a_bool", "balkline_18in_1shot", AB, [], stroke("red", returned=1), "bad_value"),
    ("unknown_ball_in_contacts", "cushion_carom", AB, [], stroke("red", "blue"), "bad_value"),
    ("cue_in_contacts", "three_cushion_carom", AB, [], stroke("cue"), "bad_value"),
    ("red_in_four_ball", "four_ball_carom", AB, [LAY_OFF], stroke("red"), "bad_value"),
    ("white_in_russian_pool", "russian_pool", AB, [], stroke("white", nominate="red"), "bad_value"),
    (
        "unknown_ball_potted",
        "english_billiards",
        AB,
        [],
        stroke("red", pots=[pot("pink")]),
        "bad_value",
    ),
    (
        "unknown_ball_off_the_table",
        "progressive_carom",
        AB,
        [],
        stroke("red", off_table=["pink"]),
        "bad_value",
    ),
    (
        "unknown_pocket",
        "american_four_ball_pocket",
        AB,
        [],
        stroke("white", pots=[pot("white", "corner")]),
        "bad_value",
    ),
    ("unknown_pin", "spanish_billiards", AB, [], stroke("red", pins=["king"]), "bad_value"),
    (
        "a_spanish_pin_in_the_little_corporal",
        "little_corporal",
        AB,
        [],
        stroke("red", pins=["head"]),
        "bad_value",
    ),
    ("unknown_space", "balkline_14in", AB, [], stroke("red", space="crotch_1"), "bad_value"),
    ("space_not_a_string", "space_game", AB, [], stroke("red", space=1), "bad_value"),
    (
        "unknown_foul_code",
        "three_ball_carom",
        AB,
        [],
        stroke("red", fouls=["pin_200"]),
        "bad_value",
    ),
    (
        "english_foul_code_in_spanish",
        "spanish_billiards",
        AB,
        [],
        stroke("red", fouls=["balk_contact"]),
        "bad_value",
    ),
    (
        "russian_foul_code_in_three_ball",
        "three_ball_carom",
        AB,
        [],
        stroke("red", fouls=["obstruction"]),
        "bad_value",
    ),
    (
        "unknown_choice",
        "english_billiards",
        AB,
        [],
        stroke(fouls=["push"], choice="both"),
        "bad_value",
    ),
    ("unknown_nomination", "russian_pool", AB, [], stroke("red", nominate="pink"), "bad_value"),
    (
        "concede_by_a_stranger",
        "english_billiards",
        AB,
        [],
        {"type": "concede", "player": "Zed"},
        "bad_value",
    ),
    (
        "concede_player_not_a_string",
        "three_ball_carom",
        AB,
        [],
        {"type": "concede", "player": 1},
        "bad_value",
    ),
    ("a_pot_not_an_object", "spanish_billiards", AB, [], stroke("red", pots=["red"]), "bad_value"),
    # impossible
    (
        "ball_twice_in_pots",
        "english_billiards",
        AB,
        [],
        stroke("red", pots=[pot("red"), pot("red")]),
        "impossible",
    ),
    (
        "cue_twice_in_pots",
        "spanish_billiards",
        AB,
        [],
        stroke("red", pots=[pot("cue"), pot("cue")]),
        "impossible",
    ),
    (
        "ball_twice_off_the_table",
        "three_ball_carom",
        AB,
        [],
        stroke("red", off_table=["white", "white"]),
        "impossible",
    ),
    (
        "ball_both_potted_and_off_the_table",
        "american_four_ball_pocket",
        AB,
        [],
        stroke("white", pots=[pot("cue")], off_table=["cue"]),
        "impossible",
    ),
    ("pin_twice", "spanish_billiards", AB, [], stroke("red", pins=["head", "head"]), "impossible"),
    (
        "pin_in_both_lists",
        "little_corporal",
        AB,
        [],
        stroke("red", pins=["middle"], pins_before_ball=["middle"]),
        "impossible",
    ),
    (
        "object_ball_potted_on_a_miss",
        "english_billiards",
        AB,
        [],
        stroke(C, pots=[pot("red")]),
        "impossible",
    ),
    (
        "object_ball_off_the_table_on_a_miss",
        "four_ball_carom",
        AB,
        [LAY_OFF],
        stroke(C, off_table=["deep_red"]),
        "impossible",
    ),
    ("pin_in_pins_on_a_miss", "spanish_billiards", AB, [], stroke(C, pins=["left"]), "impossible"),
    (
        "returned_without_a_space_before",
        "balkline_14in",
        AB,
        [],
        stroke("red", "white", space="corner_1", returned=True),
        "impossible",
    ),
    (
        "returned_to_another_space",
        "space_game",
        AB,
        [stroke("red", "white", space="corner_1")],
        stroke("red", "white", space="corner_2", returned=True),
        "impossible",
    ),
    (
        "returned_to_no_space",
        "three_ball_carom",
        AB,
        [stroke("red", "white", space="crotch_1")],
        stroke("red", "white", returned=True),
        "impossible",
    ),
    # not_now
    ("lay_off_after_the_lay_off", "four_ball_carom", AB, [LAY_OFF], LAY_OFF, "not_now"),
    (
        "lay_off_later_in_the_game",
        "four_ball_carom",
        AB,
        [LAY_OFF, stroke("white")],
        LAY_OFF,
        "not_now",
    ),
    (
        "stroke_before_the_lay_off",
        "four_ball_carom",
        AB,
        [],
        stroke("white", "deep_red"),
        "not_now",
    ),
    (
        "opening_nomination_not_the_red",
        "russian_pool",
        AB,
        [],
        stroke("brown", nominate="brown"),
        "not_now",
    ),
    (
        "opening_nomination_of_a_cannon",
        "russian_pool",
        AB,
        [],
        stroke("red", "brown", nominate="cannon"),
        "not_now",
    ),
    ("choice_without_a_foul", "english_billiards", AB, [], stroke(C, choice="miss"), "not_now"),
    (
        "choice_on_a_foul_that_touched_a_ball",
        "english_billiards",
        AB,
        [],
        stroke("red", fouls=["push"], choice="foul"),
        "not_now",
    ),
    (
        "choice_on_not_out_of_balk_alone",
        "english_billiards",
        AB,
        [],
        stroke(fouls=["not_out_of_balk"], choice="miss"),
        "not_now",
    ),
    (
        "concede_with_three_players",
        "russian_pool",
        ABC,
        TO_OPEN_RUSSIAN,
        {"type": "concede", "player": "Cat"},
        "not_now",
    ),
    # the order of the checks (the page's table, top to bottom)
    ("game_over_before_unknown_type", "three_ball_carom", AB, [CONCEDE], "x", "game_over"),
    (
        "unknown_field_before_missing_field",
        "russian_pool",
        AB,
        [],
        stroke("red", player="Ann"),
        "unknown_field",
    ),
    (
        "pot_key_before_missing_nominate",
        "russian_pool",
        AB,
        [],
        stroke("red", pots=[pot("red", "top_left", x=1)]),
        "unknown_field",
    ),
    ("missing_field_before_bad_value", "russian_pool", AB, [], stroke("blue"), "missing_field"),
    (
        "missing_pot_ball_before_bad_pocket",
        "english_billiards",
        AB,
        [],
        stroke("red", pots=[pot("red", "nowhere"), {"pocket": "top_left"}]),
        "missing_field",
    ),
    (
        "bad_value_before_impossible",
        "english_billiards",
        AB,
        [],
        stroke(C, pots=[pot("red"), pot("red")], choice="x"),
        "bad_value",
    ),
    (
        "impossible_before_not_now",
        "four_ball_carom",
        AB,
        [],
        stroke("white", off_table=["cue", "cue"]),
        "impossible",
    ),
    (
        "impossible_before_not_now_nomination",
        "russian_pool",
        AB,
        [],
        stroke(C, nominate="brown", pots=[pot("red", "top_left")]),
        "impossible",
    ),
]


@pytest.mark.parametrize(
    ("game", "setup", "before", "event", "code"),
    [pytest.param(g, s, b, e, c, id=n) for n, g, s, b, e, c in REFUSALS],
)
def test_refused_with_code_and_index_and_nothing_changes(game, setup, before, event, code):
    err = assert_refused_at(get(game), setup, before, event, code)
    assert err.message


MESSAGES: list[tuple[str, str, dict[str, Any], str]] = [
    ("contacts", "three_ball_carom", stroke("red", "blue"), "contacts"),
    ("nominate", "russian_pool", stroke("red"), "nominate"),
    ("choice", "english_billiards", stroke(C, choice="miss"), "choice"),
    ("pins", "spanish_billiards", stroke("red", pins=["x"]), "pins"),
    ("pots", "english_billiards", stroke("red", pots=[pot("red", "x")]), "pots"),
    ("returned", "balkline_14in", stroke("red", space="corner_1", returned=True), "returned"),
    ("off_table", "cushion_carom", stroke(C, off_table=["red"]), "off_table"),
]


@pytest.mark.parametrize(
    ("game", "event", "field"),
    [pytest.param(g, e, f, id=n) for n, g, e, f in MESSAGES],
)
def test_refusal_message_names_the_field(game, event, field):
    with pytest.raises(RuleError) as info:
        replay(get(game), AB, [stroke("white"), event] if game != "russian_pool" else [event])
    assert field in info.value.message
    assert info.value.index == (0 if game == "russian_pool" else 1)


# ----------------------------------------------------------------------- bad setups

BAD_SETUPS: list[tuple[str, str, Any]] = [
    ("not_an_object", "three_ball_carom", ["Ann", "Bob"]),
    ("unknown_key", "english_billiards", {"reds": 1}),
    ("one_player", "three_ball_carom", {"players": ["Ann"]}),
    ("one_player_in_russian_pool", "russian_pool", {"players": ["Ann"]}),
    ("three_players_in_a_two_player_game", "spanish_billiards", {"players": ["A", "B", "C"]}),
    ("repeated_name", "russian_pool", {"players": ["Ann", "Bob", "Ann"]}),
    ("empty_name", "cushion_carom", {"players": ["Ann", ""]}),
    ("players_not_a_list", "space_game", {"players": "Ann, Bob"}),
    ("leads_not_a_player", "four_ball_carom", {"players": ["Ann", "Bob"], "leads": "Zed"}),
    ("target_zero", "little_corporal", {"target": 0}),
    ("target_not_whole", "balkline_18in_2shot", {"target": 12.5}),
    ("target_a_string", "progressive_carom", {"target": "100"}),
    ("space_kind_the_game_has_not", "three_ball_carom", {"space_limits": {"balk": 2}}),
    ("crotch_in_a_balk_line_game", "balkline_14in", {"space_limits": {"crotch": 3}}),
    ("space_limits_in_english", "english_billiards", {"space_limits": {"crotch": 3}}),
    ("space_limit_zero", "space_game", {"space_limits": {"corner": 0}}),
    ("carom_values_unknown", "american_four_ball_pocket", {"carom_values": "modern"}),
    ("carom_values_in_another_game", "four_ball_carom", {"carom_values": "uniform"}),
    ("penalty_to_unknown", "american_four_ball_pocket", {"penalty_to": "referee"}),
    ("penalty_to_in_spanish", "spanish_billiards", {"penalty_to": "self"}),
]


@pytest.mark.parametrize(
    ("game", "setup"),
    [pytest.param(g, s, id=n) for n, g, s in BAD_SETUPS],
)
def test_bad_setup_is_refused_with_index_minus_one(game, setup):
    with pytest.raises(RuleError) as info:
        get(game).initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)
    assert info.value.message
