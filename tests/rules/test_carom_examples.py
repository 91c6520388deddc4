"""The carom family: every worked example of the carom scoring language and of the 1908 handbook (H).

Each example is one stroke played in open play (``next`` is ``"stroke"``) unless its name
says it is an opening stroke, and is checked as (what the striker's score changed by, what
the other players' scores changed by, whether the striker is still at the table). The
expected values come from the page and the book, line by line, not from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import Timeline, get, replay

C = "cushion"


def stroke(*contacts: str, **fields: Any) -> dict[str, Any]:
    """A ``stroke``: what the cue ball touched, in order, and any other fields."""
    ev: dict[str, Any] = {"type": "stroke", "contacts": list(contacts)}
    ev.update(fields)
    return ev


def pot(ball: str, pocket: str | None = None) -> dict[str, Any]:
    """One entry of ``pots``."""
    return {"ball": ball} if pocket is None else {"ball": ball, "pocket": pocket}


#: Events that bring each game to open play (``next == "stroke"``) scoring nothing.
_TO_OPEN_PLAY: dict[str, list[dict[str, Any]]] = {
    # the opening stroke hits the white only: no count, no point, the table passes
    **{
        g: [stroke("white")]
        for g in (
            "three_ball_carom",
            "balkline_14in",
            "balkline_18in_1shot",
            "balkline_18in_2shot",
            "space_game",
            "progressive_carom",
            "cushion_carom",
            "three_cushion_carom",
            "bank_shot_carom",
            "little_corporal",
            "spanish_billiards",
        )
    },
    # the lay-off, then the opening stroke on the white only: one ball, no count, no point
    "four_ball_carom": [{"type": "lay_off"}, stroke("white")],
    "american_four_ball_pocket": [],
    "english_billiards": [],
    # the opening stroke at the red, touching it only: worth nothing, the table passes
    "russian_pool": [stroke("red", nominate="red")],
}


def worth(
    game_id: str,
    event: Mapping[str, Any],
    setup: Mapping[str, Any] | None = None,
    opening: bool = False,
) -> tuple[int, int, bool]:
    """(the striker's change, the others' change, the striker still at the table) for one
    stroke played in open play, or as the opening stroke when ``opening``."""
    game = get(game_id)
    full = {"players": ["Ann", "Bob"], "target": None, **(setup or {})}
    t = Timeline(game, full)
    if not opening:
        for ev in _TO_OPEN_PLAY[game_id]:
            t.push(ev)
        assert t.view()["next"] == "stroke"
    elif game_id == "four_ball_carom":
        t.push({"type": "lay_off"})
    before = t.view()
    striker = before["at_table"]
    t.push(event)
    after = t.view()
    mine = after["scores"][striker] - before["scores"][striker]
    others = sum(after["scores"].values()) - sum(before["scores"].values()) - mine
    return mine, others, after["at_table"] == striker


# (name, game, event, expected (striker, others, plays on), opening?)
Example = tuple[str, str, dict[str, Any], tuple[int, int, bool], bool]

EXAMPLES: list[Example] = [
    # ---- three-cushion carom: the page's worked strokes (H 823-833)
    (
        "three_cushion_red_then_three_cushions",
        "three_cushion_carom",
        stroke("red", C, C, C, "white"),
        (1, 0, True),
        False,
    ),
    (
        "three_cushion_cushions_around_the_first_ball",
        "three_cushion_carom",
        stroke(C, "red", C, C, "white"),
        (1, 0, True),
        False,
    ),
    (
        "three_cushion_three_cushions_first_white_then_red",
        "three_cushion_carom",
        stroke(C, C, C, "white", "red"),
        (1, 0, True),
        False,
    ),
    (
        "three_cushion_red_touched_again_is_not_the_second_ball",
        "three_cushion_carom",
        stroke("red", C, "red", C, C, "white"),
        (1, 0, True),
        False,
    ),
    (
        "three_cushion_two_cushions_no_count",
        "three_cushion_carom",
        stroke("red", C, C, "white"),
        (0, 0, False),
        False,
    ),
    (
        "three_cushion_cushions_after_completion_no_count",
        "three_cushion_carom",
        stroke("red", "white", C, C, C),
        (0, 0, False),
        False,
    ),
    (
        "three_cushion_one_cushion_before_no_count",
        "three_cushion_carom",
        stroke("red", C, "white", C, C),
        (0, 0, False),
        False,
    ),
    (
        "three_cushion_one_ball_only_no_count",
        "three_cushion_carom",
        stroke(C, C, C, "red"),
        (0, 0, False),
        False,
    ),
    (
        "three_cushion_miss_gives_the_opponent_1_h829",
        "three_cushion_carom",
        stroke(C, C, C),
        (0, 1, False),
        False,
    ),
    (
        "three_cushion_more_than_three_cushions_still_1_h829",
        "three_cushion_carom",
        stroke(C, C, C, C, C, "red", "white"),
        (1, 0, True),
        False,
    ),
    # ---- three-ball carom (H 541-593)
    (
        "three_ball_a_carom_counts_one_h559",
        "three_ball_carom",
        stroke("white", "red"),
        (1, 0, True),
        False,
    ),
    (
        "three_ball_a_miss_counts_one_for_the_opponent_h559",
        "three_ball_carom",
        stroke(C),
        (0, 1, False),
        False,
    ),
    (
        "three_ball_opening_must_hit_the_red_first_h557",
        "three_ball_carom",
        stroke("white", "red"),
        (0, 0, False),
        True,
    ),
    (
        "three_ball_opening_on_the_red_counts_h557",
        "three_ball_carom",
        stroke("red", "white"),
        (1, 0, True),
        True,
    ),
    (
        "three_ball_touched_own_ball_scores_one_for_the_opponent_h573",
        "three_ball_carom",
        stroke("red", "white", fouls=["touched_own_ball"]),
        (0, 1, False),
        False,
    ),
    (
        "three_ball_foul_is_no_count_h487",
        "three_ball_carom",
        stroke("red", "white", fouls=["push"]),
        (0, 0, False),
        False,
    ),
    (
        "three_ball_count_stands_when_the_ball_jumps_off_h563",
        "three_ball_carom",
        stroke("red", "white", off_table=["cue"]),
        (1, 0, True),
        False,
    ),
    # ---- progressive carom (H 765-769)
    (
        "progressive_one_cushion_counts_one_h767",
        "progressive_carom",
        stroke(C, "red", "white"),
        (1, 0, True),
        False,
    ),
    (
        "progressive_two_cushions_count_two_h769",
        "progressive_carom",
        stroke("red", C, C, "white"),
        (2, 0, True),
        False,
    ),
    (
        "progressive_five_cushions_count_five_h769",
        "progressive_carom",
        stroke(C, C, C, C, C, "red", "white"),
        (5, 0, True),
        False,
    ),
    (
        "progressive_ball_to_ball_counts_one_h769",
        "progressive_carom",
        stroke("red", "white"),
        (1, 0, True),
        False,
    ),
    (
        "progressive_cushions_after_completion_count_nothing",
        "progressive_carom",
        stroke("red", "white", C, C),
        (1, 0, True),
        False,
    ),
    # ---- cushion carom (H 807-821)
    (
        "cushion_cushion_before_the_carom_h811",
        "cushion_carom",
        stroke(C, "red", "white"),
        (1, 0, True),
        False,
    ),
    (
        "cushion_cushion_between_the_balls_h811",
        "cushion_carom",
        stroke("red", C, "white"),
        (1, 0, True),
        False,
    ),
    (
        "cushion_ball_to_ball_no_count",
        "cushion_carom",
        stroke("red", "white", C),
        (0, 0, False),
        False,
    ),
    (
        "cushion_miss_counts_one_for_the_non_striker_h815",
        "cushion_carom",
        stroke(C, C),
        (0, 1, False),
        False,
    ),
    # ---- bank-shot carom (H 835-845)
    (
        "bank_shot_cushion_before_the_first_ball_h839",
        "bank_shot_carom",
        stroke(C, "white", "red"),
        (1, 0, True),
        False,
    ),
    (
        "bank_shot_cushion_between_the_balls_no_count_h839",
        "bank_shot_carom",
        stroke("red", C, "white"),
        (0, 0, False),
        False,
    ),
    (
        "bank_shot_opening_needs_the_cushion_and_the_red_h839",
        "bank_shot_carom",
        stroke(C, "red", "white"),
        (1, 0, True),
        True,
    ),
    (
        "bank_shot_opening_without_cushion_no_count_h839",
        "bank_shot_carom",
        stroke("red", "white"),
        (0, 0, False),
        True,
    ),
    # ---- four-ball carom (H 771-791)
    (
        "four_ball_any_two_of_three_count_one_h773",
        "four_ball_carom",
        stroke("deep_red", "light_red"),
        (1, 0, True),
        False,
    ),
    (
        "four_ball_all_three_still_one",
        "four_ball_carom",
        stroke("white", "deep_red", "light_red"),
        (1, 0, True),
        False,
    ),
    (
        "four_ball_opening_on_the_white_counts_h777",
        "four_ball_carom",
        stroke("white", "deep_red"),
        (1, 0, True),
        True,
    ),
    (
        "four_ball_opening_not_on_the_white_gives_one_h779",
        "four_ball_carom",
        stroke("deep_red", "white"),
        (0, 1, False),
        True,
    ),
    (
        "four_ball_opening_miss_gives_one_only_h779",
        "four_ball_carom",
        stroke(C),
        (0, 1, False),
        True,
    ),
    (
        "four_ball_red_off_table_foul_h781",
        "four_ball_carom",
        stroke("white", "deep_red", fouls=["red_off_table"]),
        (0, 0, False),
        False,
    ),
    # ---- the Little Corporal (H 1719-1731)
    (
        "little_corporal_pin_counts_five_h1723",
        "little_corporal",
        stroke("red", pins=["middle"]),
        (5, 0, True),
        False,
    ),
    (
        "little_corporal_carom_and_pin_make_six",
        "little_corporal",
        stroke("red", "white", pins=["middle"]),
        (6, 0, True),
        False,
    ),
    (
        "little_corporal_pin_direct_counts_nothing_h1725",
        "little_corporal",
        stroke("red", "white", pins_before_ball=["middle"]),
        (0, 0, False),
        False,
    ),
    (
        "little_corporal_pin_direct_and_a_miss_gives_one",
        "little_corporal",
        stroke(C, pins_before_ball=["middle"]),
        (0, 1, False),
        False,
    ),
    # ---- English billiards (H 847-929): the 2 and 3 strokes (H 863-865)
    (
        "english_white_potted_2_h863",
        "english_billiards",
        stroke("white", pots=[pot("white")]),
        (2, 0, True),
        False,
    ),
    (
        "english_in_off_the_white_2_h863",
        "english_billiards",
        stroke("white", pots=[pot("cue")]),
        (2, 0, True),
        False,
    ),
    ("english_cannon_2_h863", "english_billiards", stroke("white", "red"), (2, 0, True), False),
    (
        "english_red_potted_3_h865",
        "english_billiards",
        stroke("red", pots=[pot("red")]),
        (3, 0, True),
        False,
    ),
    (
        "english_in_off_the_red_3_h865",
        "english_billiards",
        stroke("red", pots=[pot("cue")]),
        (3, 0, True),
        False,
    ),
    # the 4 to 10 strokes (H 867-879), as the page lists them
    (
        "english_4_white_and_in_off_the_white_h867",
        "english_billiards",
        stroke("white", pots=[pot("white"), pot("cue")]),
        (4, 0, True),
        False,
    ),
    (
        "english_4_cannon_and_white_potted_h867",
        "english_billiards",
        stroke("red", "white", pots=[pot("white")]),
        (4, 0, True),
        False,
    ),
    (
        "english_4_cannon_and_in_off_the_white_h867",
        "english_billiards",
        stroke("white", "red", pots=[pot("cue")]),
        (4, 0, True),
        False,
    ),
    (
        "english_5_cannon_and_red_potted_h869",
        "english_billiards",
        stroke("white", "red", pots=[pot("red")]),
        (5, 0, True),
        False,
    ),
    (
        "english_5_cannon_and_in_off_the_red_h869",
        "english_billiards",
        stroke("red", "white", pots=[pot("cue")]),
        (5, 0, True),
        False,
    ),
    (
        "english_6_red_first_red_and_in_off_h871",
        "english_billiards",
        stroke("red", pots=[pot("red"), pot("cue")]),
        (6, 0, True),
        False,
    ),
    (
        "english_6_white_first_cannon_white_and_in_off_h871",
        "english_billiards",
        stroke("white", "red", pots=[pot("white"), pot("cue")]),
        (6, 0, True),
        False,
    ),
    (
        "english_7_white_first_white_cannon_red_h873",
        "english_billiards",
        stroke("white", "red", pots=[pot("white"), pot("red")]),
        (7, 0, True),
        False,
    ),
    (
        "english_7_cannon_red_and_white_potted_h873",
        "english_billiards",
        stroke("red", "white", pots=[pot("red"), pot("white")]),
        (7, 0, True),
        False,
    ),
    (
        "english_7_white_first_all_down_no_cannon_h873",
        "english_billiards",
        stroke("white", pots=[pot("white"), pot("red"), pot("cue")]),
        (7, 0, True),
        False,
    ),
    (
        "english_8_red_first_red_cannon_in_off_h875",
        "english_billiards",
        stroke("red", "white", pots=[pot("red"), pot("cue")]),
        (8, 0, True),
        False,
    ),
    (
        "english_8_red_first_all_down_no_cannon_h875",
        "english_billiards",
        stroke("red", pots=[pot("red"), pot("white"), pot("cue")]),
        (8, 0, True),
        False,
    ),
    (
        "english_9_white_first_cannon_all_down_h877",
        "english_billiards",
        stroke("white", "red", pots=[pot("white"), pot("red"), pot("cue")]),
        (9, 0, True),
        False,
    ),
    (
        "english_10_red_first_cannon_all_down_h879",
        "english_billiards",
        stroke("red", "white", pots=[pot("red"), pot("white"), pot("cue")]),
        (10, 0, True),
        False,
    ),
    # misses, coups, balls off the table, fouls (H 893-921)
    ("english_miss_counts_one_h903", "english_billiards", stroke(C), (0, 1, False), False),
    (
        "english_coup_into_a_pocket_counts_three_h903",
        "english_billiards",
        stroke(pots=[pot("cue")]),
        (0, 3, False),
        False,
    ),
    (
        "english_coup_off_the_table_counts_three_h903",
        "english_billiards",
        stroke(C, off_table=["cue"]),
        (0, 3, False),
        False,
    ),
    (
        "english_ball_forced_off_gains_nothing_h905",
        "english_billiards",
        stroke("red", "white", pots=[pot("red")], off_table=["white"]),
        (0, 0, False),
        False,
    ),
    (
        "english_foul_scores_nothing_h893",
        "english_billiards",
        stroke("red", "white", fouls=["double_hit"]),
        (0, 0, False),
        False,
    ),
    (
        "english_not_out_of_balk_is_a_miss_h915",
        "english_billiards",
        stroke(fouls=["not_out_of_balk"]),
        (0, 1, False),
        False,
    ),
    (
        "english_balk_contact_scores_a_miss_by_default_h911",
        "english_billiards",
        stroke("red", fouls=["balk_contact"]),
        (0, 1, False),
        False,
    ),
    (
        "english_balk_contact_taken_as_the_foul_h911",
        "english_billiards",
        stroke("red", fouls=["balk_contact"], choice="foul"),
        (0, 0, False),
        False,
    ),
    (
        "english_foul_while_giving_a_miss_claim_the_miss_h921",
        "english_billiards",
        stroke(fouls=["feet"], choice="miss"),
        (0, 1, False),
        False,
    ),
    (
        "english_foul_while_giving_a_miss_enforce_the_foul_h921",
        "english_billiards",
        stroke(fouls=["feet"], choice="foul"),
        (0, 0, False),
        False,
    ),
    (
        "english_ball_knocked_in_while_addressing_counts_three_h919",
        "english_billiards",
        stroke(pots=[pot("cue", "top_left")]),
        (0, 3, False),
        False,
    ),
    (
        "english_push_twice_scores_nothing_h917",
        "english_billiards",
        stroke("red", "white", fouls=["push_twice"]),
        (0, 0, False),
        False,
    ),
    # ---- the Spanish game (H 931-942)
    (
        "spanish_one_pin_after_a_ball_gains_two_h937",
        "spanish_billiards",
        stroke("red", pins=["head"]),
        (2, 0, True),
        False,
    ),
    (
        "spanish_two_pins_gain_four_h937",
        "spanish_billiards",
        stroke("red", pins=["head", "foot"]),
        (4, 0, True),
        False,
    ),
    (
        "spanish_middle_pin_alone_gains_five_h937",
        "spanish_billiards",
        stroke("white", pins=["middle"]),
        (5, 0, True),
        False,
    ),
    (
        "spanish_middle_pin_with_another_two_each",
        "spanish_billiards",
        stroke("white", pins=["middle", "left"]),
        (4, 0, True),
        False,
    ),
    (
        "spanish_red_potted_three_and_two_a_pin_h938",
        "spanish_billiards",
        stroke("red", pots=[pot("red")], pins=["right"]),
        (5, 0, True),
        False,
    ),
    (
        "spanish_white_potted_two_and_two_a_pin_h939",
        "spanish_billiards",
        stroke("white", pots=[pot("white")], pins=["foot"]),
        (4, 0, True),
        False,
    ),
    (
        "spanish_each_carom_counts_two_h939",
        "spanish_billiards",
        stroke("red", "white"),
        (2, 0, True),
        False,
    ),
    (
        "spanish_in_off_the_red_three_ours",
        "spanish_billiards",
        stroke("red", pots=[pot("cue")]),
        (3, 0, True),
        False,
    ),
    (
        "spanish_pins_before_a_ball_lose_two_each_h940",
        "spanish_billiards",
        stroke("red", pins_before_ball=["head", "foot"]),
        (-4, 0, False),
        False,
    ),
    (
        "spanish_pin_before_a_ball_then_a_carom",
        "spanish_billiards",
        stroke("red", "white", pins_before_ball=["left"]),
        (0, 0, False),
        False,
    ),
    (
        "spanish_own_ball_pocketed_without_a_hit_forfeits_three_h941",
        "spanish_billiards",
        stroke(C, pots=[pot("cue")]),
        (-3, 0, False),
        False,
    ),
    (
        "spanish_missing_altogether_forfeits_one_h941",
        "spanish_billiards",
        stroke(C),
        (-1, 0, False),
        False,
    ),
    (
        "spanish_miss_and_a_pin_forfeit_three",
        "spanish_billiards",
        stroke(pins_before_ball=["middle"]),
        (-3, 0, False),
        False,
    ),
    (
        "spanish_off_the_table_without_a_hit_forfeits_three_h942",
        "spanish_billiards",
        stroke(off_table=["cue"]),
        (-3, 0, False),
        False,
    ),
    (
        "spanish_off_the_table_after_a_carom_loses_its_gain_h942",
        "spanish_billiards",
        stroke("red", "white", off_table=["cue"]),
        (-2, 0, False),
        False,
    ),
    (
        "spanish_off_the_table_after_a_pocket_loses_its_gain_h942",
        "spanish_billiards",
        stroke("red", pots=[pot("red")], pins=["head"], off_table=["cue"]),
        (-5, 0, False),
        False,
    ),
    (
        "spanish_touched_own_ball_costs_a_miss_h573",
        "spanish_billiards",
        stroke("red", "white", fouls=["touched_own_ball"]),
        (-1, 0, False),
        False,
    ),
    (
        "spanish_opening_not_on_the_red_gains_nothing_h933",
        "spanish_billiards",
        stroke("white", "red", pins=["head"]),
        (0, 0, False),
        True,
    ),
    (
        "spanish_opening_on_the_red_gains_h933",
        "spanish_billiards",
        stroke("red", "white"),
        (2, 0, True),
        True,
    ),
    # ---- the original American four-ball pocket game (H 793-805)
    (
        "american_red_potted_three_h797",
        "american_four_ball_pocket",
        stroke("deep_red", pots=[pot("deep_red")]),
        (3, 0, True),
        False,
    ),
    (
        "american_carom_on_the_reds_three_h797",
        "american_four_ball_pocket",
        stroke("deep_red", "light_red"),
        (3, 0, True),
        False,
    ),
    (
        "american_white_potted_two_h797",
        "american_four_ball_pocket",
        stroke("white", pots=[pot("white")]),
        (2, 0, True),
        False,
    ),
    (
        "american_carom_red_and_white_two_h797",
        "american_four_ball_pocket",
        stroke("white", "light_red"),
        (2, 0, True),
        False,
    ),
    (
        "american_carom_on_all_three_is_the_three_carom",
        "american_four_ball_pocket",
        stroke("white", "deep_red", "light_red"),
        (3, 0, True),
        False,
    ),
    (
        "american_pots_and_carom_added_up",
        "american_four_ball_pocket",
        stroke("white", "deep_red", pots=[pot("white"), pot("deep_red")]),
        (7, 0, True),
        False,
    ),
    ("american_miss_one_h803", "american_four_ball_pocket", stroke(C), (0, 1, False), False),
    (
        "american_cue_pocketed_after_a_red_three_h803",
        "american_four_ball_pocket",
        stroke("light_red", "deep_red", pots=[pot("cue")]),
        (0, 3, False),
        False,
    ),
    (
        "american_cue_pocketed_after_the_white_two_h803",
        "american_four_ball_pocket",
        stroke("white", pots=[pot("cue")]),
        (0, 2, False),
        False,
    ),
    (
        "american_cue_pocketed_without_a_hit_three_h803",
        "american_four_ball_pocket",
        stroke(pots=[pot("cue")]),
        (0, 3, False),
        False,
    ),
    (
        "american_cue_off_after_a_red_three_h803",
        "american_four_ball_pocket",
        stroke("deep_red", off_table=["cue"]),
        (0, 3, False),
        False,
    ),
    (
        "american_cue_off_after_the_white_two_h803",
        "american_four_ball_pocket",
        stroke("white", "deep_red", off_table=["cue"]),
        (0, 2, False),
        False,
    ),
    (
        "american_foul_gains_nothing",
        "american_four_ball_pocket",
        stroke("deep_red", "light_red", fouls=["push"]),
        (0, 0, False),
        False,
    ),
]

#: Examples played with a setup other than the default.
SETUP_EXAMPLES: list[tuple[str, str, dict[str, Any], dict[str, Any], tuple[int, int, bool]]] = [
    (
        "american_uniform_caroms_count_one_h799",
        "american_four_ball_pocket",
        {"carom_values": "uniform"},
        stroke("deep_red", "light_red"),
        (1, 0, True),
    ),
    (
        "american_uniform_pots_keep_their_values_h799",
        "american_four_ball_pocket",
        {"carom_values": "uniform"},
        stroke("white", "deep_red", pots=[pot("deep_red")]),
        (4, 0, True),
    ),
    (
        "american_penalty_to_self_comes_off_the_striker",
        "american_four_ball_pocket",
        {"penalty_to": "self"},
        stroke("white", pots=[pot("cue")]),
        (-2, 0, False),
    ),
]

R = "russian_pool"
#: Russian pool (H 2131-2181), two players.
RUSSIAN: list[tuple[str, dict[str, Any], tuple[int, int, bool]]] = [
    ("cannon_counts_two_h2139", stroke("red", "brown", nominate="cannon"), (2, 0, True)),
    (
        "nominated_cannon_and_a_complete_miss_costs_two_h2139",
        stroke(C, nominate="cannon"),
        (-2, 0, False),
    ),
    (
        "brown_into_a_middle_pocket_nine_h2143",
        stroke("brown", nominate="brown", pots=[pot("brown", "middle_left")]),
        (9, 0, True),
    ),
    (
        "brown_into_another_pocket_loses_nine_h2143",
        stroke("brown", nominate="brown", pots=[pot("brown", "top_left")]),
        (-9, 0, False),
    ),
    (
        "in_off_the_brown_into_a_middle_pocket_nine_h2143",
        stroke("brown", nominate="brown", pots=[pot("cue", "middle_right")]),
        (9, 0, True),
    ),
    (
        "red_into_a_top_pocket_three_h2145",
        stroke("red", nominate="red", pots=[pot("red", "top_right")]),
        (3, 0, True),
    ),
    (
        "in_off_the_red_into_a_baulk_pocket_loses_three_h2145",
        stroke("red", nominate="red", pots=[pot("cue", "baulk_left")]),
        (-3, 0, False),
    ),
    (
        "green_into_the_left_baulk_pocket_six_h2147",
        stroke("green", nominate="green", pots=[pot("green", "baulk_left")]),
        (6, 0, True),
    ),
    (
        "green_into_the_right_baulk_pocket_loses_six_h2147",
        stroke("green", nominate="green", pots=[pot("green", "baulk_right")]),
        (-6, 0, False),
    ),
    (
        "yellow_into_the_right_baulk_pocket_four_h2149",
        stroke("yellow", nominate="yellow", pots=[pot("yellow", "baulk_right")]),
        (4, 0, True),
    ),
    (
        "red_and_white_in_top_pockets_score_six_h2165",
        stroke("red", nominate="red", pots=[pot("red", "top_left"), pot("cue", "top_right")]),
        (6, 0, True),
    ),
    (
        "red_and_white_in_middle_pockets_lose_six_h2165",
        stroke("red", nominate="red", pots=[pot("red", "middle_left"), pot("cue", "middle_right")]),
        (-6, 0, False),
    ),
    (
        "losing_hazard_with_a_colour_in_a_wrong_pocket_is_neutral_h2165",
        stroke("red", nominate="red", pots=[pot("cue", "top_left"), pot("red", "baulk_left")]),
        (0, 0, False),
    ),
    (
        "winning_hazard_with_the_white_in_a_wrong_pocket_is_neutral_h2165",
        stroke("red", nominate="red", pots=[pot("red", "top_left"), pot("cue", "middle_left")]),
        (0, 0, False),
    ),
    (
        "saving_clause_of_the_cannon_h2157",
        stroke("red", "brown", nominate="red", pots=[pot("brown", "top_left")]),
        (2, 0, True),
    ),
    (
        "ball_off_the_table_forfeits_nine_h2175",
        stroke("red", nominate="red", off_table=["red"]),
        (-9, 0, False),
    ),
    (
        "obstruction_forfeits_eighteen_h2177",
        stroke("red", nominate="red", fouls=["obstruction"]),
        (-18, 0, False),
    ),
    (
        "foul_cannot_score_but_loses_its_bad_items_h2171",
        stroke("red", nominate="red", fouls=["push"], pots=[pot("red", "middle_left")]),
        (-3, 0, False),
    ),
    ("miss_costs_the_nominated_ball_ours", stroke(C, nominate="brown"), (-9, 0, False)),
    (
        "coup_costs_the_nominated_ball_ours",
        stroke(nominate="green", pots=[pot("cue", "baulk_left")]),
        (-6, 0, False),
    ),
    (
        "wrong_ball_costs_the_nominated_ball_and_cannot_score_ours",
        stroke("red", nominate="yellow", pots=[pot("red", "top_left")]),
        (-4, 0, False),
    ),
]


@pytest.mark.parametrize(
    ("game", "event", "expected", "opening"),
    [pytest.param(g, e, x, o, id=n) for n, g, e, x, o in EXAMPLES],
)
def test_worked_example(game, event, expected, opening):
    assert worth(game, event, opening=opening) == expected


@pytest.mark.parametrize(
    ("game", "setup", "event", "expected"),
    [pytest.param(g, s, e, x, id=n) for n, g, s, e, x in SETUP_EXAMPLES],
)
def test_worked_example_with_setup(game, setup, event, expected):
    assert worth(game, event, setup) == expected


@pytest.mark.parametrize(
    ("event", "expected"),
    [pytest.param(e, x, id=f"russian_{n}") for n, e, x in RUSSIAN],
)
def test_russian_pool_worked_example(event, expected):
    assert worth(R, event) == expected


# --------------------------------------------------------------- whole sequences


def view(game: str, events: Sequence[Mapping[str, Any]], setup: Mapping[str, Any]) -> Any:
    g = get(game)
    return g.view(replay(g, setup, list(events)))


def test_page_innings_example_one_up_in_three_ball():
    """carom.md "End": one up; the leader's opening hits the red only and the table passes
    (innings 1 and 1); the other player misses, the leader scores 1 and wins; the innings
    stay 1 and 1 (the stroke that ends the game begins no inning)."""
    setup = {"players": ["Ann", "Bob"], "target": 1}
    after_one = view("three_ball_carom", [stroke("red")], setup)
    assert after_one["innings"] == {"Ann": 1, "Bob": 1}
    assert after_one["at_table"] == "Bob"
    end = view("three_ball_carom", [stroke("red"), stroke(C)], setup)
    assert (end["over"], end["winner"], end["scores"]) == (True, "Ann", {"Ann": 1, "Bob": 0})
    assert end["innings"] == {"Ann": 1, "Bob": 1}
    assert end["at_table"] is None and end["next"] == "none"


def _crotched(space: str = "crotch_2", **kw: Any) -> dict[str, Any]:
    return stroke("red", "white", space=space, **kw)


def test_crotch_three_counts_then_the_hand_is_out_h585():
    setup = {"players": ["Ann", "Bob"]}
    events = [stroke("white"), _crotched(), _crotched(), _crotched(), _crotched()]
    v = view("three_ball_carom", events, setup)
    # Bob's first count puts the balls in the crotch; counts 1-3 in it: the third stands
    assert v["scores"] == {"Ann": 0, "Bob": 4}
    assert v["at_table"] == "Ann" and v["space_counts"] == 0


def test_crotch_count_that_drives_a_ball_out_plays_on_h585():
    setup = {"players": ["Ann", "Bob"]}
    events = [stroke("white"), _crotched(), _crotched(), _crotched(), stroke("red", "white")]
    v = view("three_ball_carom", events, setup)
    assert v["scores"] == {"Ann": 0, "Bob": 4}
    assert v["at_table"] == "Bob" and v["run"] == 4


def test_fourteen_inch_two_shots_in_balk_then_void_h617():
    setup = {"players": ["Ann", "Bob"]}
    bal = stroke("red", "white", space="corner_1")
    # the opening count leaves both balls in balk; shot 1 in balk counts, shot 2 must
    # drive a ball out or it is void and the hand is out
    v = view("balkline_14in", [stroke("red", "white", space="corner_1"), bal, bal], setup)
    assert v["scores"] == {"Ann": 2, "Bob": 0}
    assert v["at_table"] == "Bob" and v["space"] == "corner_1" and v["space_counts"] == 0


def test_fourteen_inch_ball_driven_out_and_back_is_in_for_the_first_time_h617():
    setup = {"players": ["Ann", "Bob"]}
    bal = stroke("red", "white", space="side_1")
    back = stroke("red", "white", space="side_1", returned=True)
    v = view("balkline_14in", [bal, bal, back, bal, back], setup)
    # counts: in (free), 1st in balk, driven out and back, 1st again, out and back
    assert v["scores"] == {"Ann": 5, "Bob": 0}
    assert v["at_table"] == "Ann" and v["space_counts"] == 0


def test_fourteen_inch_anchor_two_shots_h625():
    setup = {"players": ["Ann", "Bob"]}
    anc = stroke("red", "white", space="anchor_3")
    v = view("balkline_14in", [anc, anc, anc], setup)
    assert v["scores"] == {"Ann": 2, "Bob": 0} and v["at_table"] == "Bob"


def test_eighteen_inch_one_shot_in_balk_h670():
    setup = {"players": ["Ann", "Bob"]}
    bal = stroke("red", "white", space="end_2")
    out = stroke("red", "white")
    v = view("balkline_18in_1shot", [bal, out, bal, bal], setup)
    # a free count leaves them in balk; the next drives them out (counts); a free count
    # leaves them in again; the next leaves them in: the one shot is void, the hand is out
    assert v["scores"] == {"Ann": 3, "Bob": 0}
    assert v["at_table"] == "Bob"


def test_eighteen_inch_games_are_500_up_h651_h701():
    for game in ("balkline_18in_1shot", "balkline_18in_2shot"):
        assert view(game, [], {})["target"] == 500


def test_space_game_three_in_a_corner_two_in_a_side_strip_h761():
    setup = {"players": ["Ann", "Bob"]}
    corner = stroke("red", "white", space="corner_4")
    side = stroke("red", "white", space="side_2")
    v = view("space_game", [corner, corner, corner, corner], setup)
    # the first leaves them in the corner; counts 1 and 2 there stand; the third is void
    assert v["scores"] == {"Ann": 3, "Bob": 0} and v["at_table"] == "Bob"
    v = view("space_game", [side, side, side], setup)
    assert v["scores"] == {"Ann": 2, "Bob": 0} and v["at_table"] == "Bob"


def test_four_ball_opens_with_a_lay_off_h777():
    setup = {"players": ["Ann", "Bob"]}
    v = view("four_ball_carom", [], setup)
    assert v["next"] == "lay_off" and v["at_table"] == "Ann"
    v = view("four_ball_carom", [{"type": "lay_off"}], setup)
    assert v["next"] == "opening" and v["at_table"] == "Bob"
    assert v["innings"] == {"Ann": 1, "Bob": 1}


def test_little_corporal_is_100_up_h1731():
    assert view("little_corporal", [], {})["target"] == 100


def test_spanish_is_thirty_up_h933():
    assert view("spanish_billiards", [], {})["target"] == 30


def test_russian_pool_three_players_in_rotation_h2135():
    setup = {"players": ["Ann", "Bob", "Cat"]}
    events = [
        stroke("red", nominate="red", pots=[pot("red", "top_left")]),  # Ann +3, plays on
        stroke(C, nominate="red"),  # Ann misses: -3, Bob in
        stroke("brown", nominate="brown", pots=[pot("brown", "middle_left")]),  # Bob +9
        stroke("green", nominate="green"),  # Bob: nothing, Cat in
        stroke("yellow", nominate="yellow"),  # Cat: nothing, Ann in
    ]
    v = view(R, events, setup)
    assert v["scores"] == {"Ann": 0, "Bob": 9, "Cat": 0}
    assert v["at_table"] == "Ann"
    assert v["innings"] == {"Ann": 2, "Bob": 1, "Cat": 1}


def test_page_state_example_is_the_new_three_ball_game():
    """carom.md "State": the printed state is a new three-ball game with the default setup."""
    printed = {
        "game": "three_ball_carom",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"P1": 0, "P2": 0},
        "at_table": "P1",
        "run": 0,
        "innings": {"P1": 1, "P2": 0},
        "next": "opening",
        "space": None,
        "space_counts": 0,
        "events": 0,
    }
    state = view("three_ball_carom", [], {})
    assert {k: state[k] for k in printed} == printed


def test_page_setup_example_is_accepted():
    """carom.md "Setup": the printed setup, Ann leading, 100 up."""
    state = view("three_ball_carom", [], {"players": ["Ann", "Bob"], "leads": "Ann", "target": 100})
    assert (state["at_table"], state["target"], state["innings"]) == (
        "Ann",
        100,
        {"Ann": 1, "Bob": 0},
    )
