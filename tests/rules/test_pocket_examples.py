"""The pocket family (the pocket scoring language): every worked example the page or the book prints.

Line numbers are those of the 1908 Brunswick handbook (The Billiard Handbook (1908)).
Each expected value is worked out by hand in the test's comments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import get, replay

# ------------------------------------------------------------------ event builders

POCKETS = ("head_left", "head_right", "side_left", "side_right", "foot_left", "foot_right")
ALL = list(range(1, 16))


def pot(ball: Any, pocket: str | None = None, bank: bool | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"ball": ball}
    if pocket is not None:
        item["pocket"] = pocket
    if bank is not None:
        item["bank"] = bank
    return item


def S(*pots: Any, **fields: Any) -> dict[str, Any]:  # noqa: N802 - reads like the sheet
    """A stroke: pots given as balls or pot items, then any other field."""
    ev: dict[str, Any] = {"type": "stroke"}
    if pots:
        ev["pots"] = [p if isinstance(p, Mapping) else pot(p) for p in pots]
    ev.update(fields)
    return ev


def C(*balls: Any, **fields: Any) -> dict[str, Any]:  # noqa: N802
    """A stroke that calls ``balls`` and pots exactly them."""
    return S(*balls, call=[{"ball": b} for b in balls], **fields)


SAFE = {"type": "stroke", "call": []}  # a safety: reaches a cushion, pots nothing


def play(game: str, setup: Mapping[str, Any] | None, events: Sequence[Any]) -> dict[str, Any]:
    g = get(game)
    return g.view(replay(g, setup or {}, list(events)))


def table_without(*balls: int) -> list[int]:
    return [b for b in ALL if b not in balls]


def foul(player: str, code: str, **fields: Any) -> dict[str, Any]:
    return {"type": "foul", "player": player, "code": code, **fields}


# ----------------------------------------------------------------- the page's example


def test_page_example_fifteen_ball_before_any_event():
    assert play("fifteen_ball_pool", {}, []) == {
        "game": "fifteen_ball_pool",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"P1": 0, "P2": 0},
        "at_table": "P1",
        "events": 0,
        "loser": None,
        "next": "break",
        "on_table": ALL,
        "scratches": {"P1": 0, "P2": 0},
    }


# ------------------------------------------------------------------ continuous pool


def test_continuous_rule2_each_failed_opening_costs_two_and_he_breaks_again():
    # 1002-1004: the balls are set up again, he forfeits two points each time.
    v = play("continuous_pool", {}, [S(cushion=False), S(cushion=False)])
    assert v["scores"] == {"P1": -4, "P2": 0}
    assert (v["at_table"], v["next"], v["on_table"]) == ("P1", "break", ALL)
    assert v["scratches"] == {"P1": 0, "P2": 0}  # rule 24: "except as provided in Rule 2"


def test_continuous_rule3_uncalled_ball_is_spotted_and_the_hand_lost_without_penalty():
    # 1008: the opening pots the 3 (counts: no call on a non-match opening); then the 5
    # drops without a call: it does not count, is spotted, and P2 plays; no points off.
    v = play("continuous_pool", {}, [S(3), S(5, call=[])])
    assert v["scores"] == {"P1": 1, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P2", table_without(3))


def test_continuous_rule3_every_called_ball_must_drop():
    # 1008: "Should he call more than one ball, he must pocket all the balls he calls".
    v = play("continuous_pool", {}, [S(3), S(5, call=[{"ball": 5}, {"ball": 6}])])
    assert v["scores"] == {"P1": 1, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P2", table_without(3))


def test_continuous_rule5_balls_potted_besides_the_called_one_count():
    # 1014: called the 5, potted the 5 and the 6: both count, he plays on.
    v = play("continuous_pool", {}, [S(3), S(5, 6, call=[{"ball": 5}])])
    assert v["scores"] == {"P1": 3, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P1", table_without(3, 5, 6))


def test_continuous_rule9_own_ball_in_a_pocket_loses_the_balls_and_a_point():
    # 1022: 5 called and potted, the cue ball follows it in: the 5 is spotted, 1 point off.
    v = play("continuous_pool", {}, [S(3), C(5, pots=[pot(5), pot("cue")])])
    assert v["scores"] == {"P1": 0, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P2", table_without(3))
    assert v["scratches"] == {"P1": 1, "P2": 0}


def test_continuous_rule7_a_miss_forfeits_one_point():
    # 1018
    v = play("continuous_pool", {}, [S(), S(fouls=["miss"])])
    assert v["scores"] == {"P1": 0, "P2": -1}
    assert v["at_table"] == "P1"


def test_continuous_rule14_touching_an_object_ball_loses_the_hand_only():
    # 1032: the touched ball is replaced; nothing counts, no points off.
    v = play("continuous_pool", {}, [S(3), C(5, fouls=["touched_ball"])])
    assert v["scores"] == {"P1": 1, "P2": 0}
    assert (v["at_table"], v["on_table"], v["scratches"]) == (
        "P2",
        table_without(3),
        {"P1": 0, "P2": 0},
    )


def test_continuous_rule22_touch_after_a_fair_pot_keeps_the_ball_and_loses_the_hand():
    # 1050
    v = play("continuous_pool", {}, [S(3), C(5, fouls=["touch_after"])])
    assert v["scores"] == {"P1": 2, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P2", table_without(3, 5))


def test_continuous_rule24_three_scratches_forfeit_every_ball_on_the_table():
    # 1056: P1 opens with the 1 (1 point) and plays on; then three misses (each -1) with
    # P2 playing safe between them: P1 ends on 1 - 3 = -2, and P2 scores the 14 balls
    # left. The rack is over: rack 2, the offender breaks, his count is back to 0.
    events = [S(1), S(fouls=["miss"]), SAFE, S(fouls=["miss"]), SAFE, S(fouls=["miss"])]
    v = play("continuous_pool", {}, events)
    assert v["scores"] == {"P1": -2, "P2": 14}
    assert (v["rack"], v["next"], v["at_table"], v["on_table"]) == (2, "break", "P1", ALL)
    assert v["scratches"] == {"P1": 0, "P2": 0}


def test_continuous_rule28_the_player_who_scored_the_last_ball_may_lead_himself():
    # 1064: P1 clears the rack on the opening stroke (15 points); by default P2 breaks
    # rack 2, but P1 chooses to break it himself. Once a stroke is played, no more choice.
    events = [S(*ALL)]
    v = play("continuous_pool", {}, events)
    assert (v["scores"], v["rack"], v["at_table"], v["next"]) == (
        {"P1": 15, "P2": 0},
        2,
        "P2",
        "break",
    )
    v = play("continuous_pool", {}, [*events, {"type": "choose_break", "player": "P1"}])
    assert (v["at_table"], v["next"], v["on_table"]) == ("P1", "break", ALL)


def test_continuous_rule2_match_opening_must_call_to_count():
    # 1006: in a match, the opening stroke pots the 3 without a call: no count, P2 plays.
    v = play("continuous_pool", {"match": True}, [S(3)])
    assert v["scores"] == {"P1": 0, "P2": 0}
    assert (v["at_table"], v["next"], v["on_table"]) == ("P2", "play", ALL)


def test_continuous_note_to_rule3_match_ball_in_another_pocket_does_not_count():
    # 1010
    events = [
        S(3, call=[{"ball": 3, "pocket": "head_left"}], pots=[pot(3, "head_left")]),
        S(call=[{"ball": 5, "pocket": "foot_left"}], pots=[pot(5, "foot_right")]),
    ]
    v = play("continuous_pool", {"match": True}, events)
    assert v["scores"] == {"P1": 1, "P2": 0}
    assert (v["at_table"], v["on_table"]) == ("P2", table_without(3))


def test_continuous_final_night_play_stops_when_the_target_is_reached():
    # 952: the game ends as soon as the leader has enough, mid-rack.
    v = play("continuous_pool", {"target": 3}, [S(1, 2, 3)])
    assert (v["over"], v["winner"], v["loser"], v["at_table"], v["next"]) == (
        True,
        "P1",
        "P2",
        None,
        "none",
    )


# ----------------------------------------------------------------- fifteen-ball pool


def test_fifteen_ball_sixty_one_wins_two_handed():
    # 1090: 15+14+13+12 on the opening (54), then the 7 called: 61 > 0 + 59 left.
    events = [S(15, 14, 13, 12)]
    v = play("fifteen_ball_pool", {}, events)
    assert (v["over"], v["scores"]["P1"]) == (False, 54)
    v = play("fifteen_ball_pool", {}, [*events, C(7)])
    assert (v["over"], v["winner"], v["loser"], v["scores"]) == (
        True,
        "P1",
        "P2",
        {"P1": 61, "P2": 0},
    )


def test_fifteen_ball_rule1_failed_opening_three_off_and_the_next_player_plays():
    # 1094: the next player plays the balls as they lie, with a call.
    v = play("fifteen_ball_pool", {}, [S(cushion=False)])
    assert (v["scores"], v["at_table"], v["next"]) == ({"P1": -3, "P2": 0}, "P2", "play")
    assert v["scratches"] == {"P1": 0, "P2": 0}


def test_fifteen_ball_rule1_balls_potted_on_the_opening_count_without_a_call():
    v = play("fifteen_ball_pool", {}, [S(15)])
    assert (v["scores"], v["at_table"], v["on_table"]) == (
        {"P1": 15, "P2": 0},
        "P1",
        table_without(15),
    )


def test_fifteen_ball_rule1_match_failed_opening_six_off_and_he_breaks_again():
    # 1096
    v = play("fifteen_ball_pool", {"match": True}, [S(cushion=False), S(cushion=False)])
    assert (v["scores"], v["at_table"], v["next"]) == ({"P1": -12, "P2": 0}, "P1", "break")


def test_fifteen_ball_rule2_three_forfeitures_in_succession_lose_the_game():
    # 1098: P1 opens (no pot); -3 three times for P2, P1 playing safe between: P2 loses
    # at once, P1 wins.
    events = [S(), S(fouls=["miss"]), SAFE, S(fouls=["miss"]), SAFE]
    v = play("fifteen_ball_pool", {}, events)
    assert (v["over"], v["scratches"]["P2"]) == (False, 2)
    v = play("fifteen_ball_pool", {}, [*events, S(fouls=["miss"])])
    assert (v["over"], v["loser"], v["winner"], v["scores"]) == (
        True,
        "P2",
        "P1",
        {"P1": 0, "P2": -9},
    )


def test_fifteen_ball_rule2_cue_ball_pocketed_without_a_cushion_forfeits_three_only():
    # 1100
    v = play("fifteen_ball_pool", {}, [S(), S(pots=[pot("cue")], cushion=False)])
    assert v["scores"] == {"P1": 0, "P2": -3}


def test_fifteen_ball_rule3_more_than_two_players_end_when_the_lowest_cannot_catch_up():
    # 1102: A opens 15+14+13+12 = 54, calls the 11 (65), the 10 (75), then misses (72).
    # B calls the 9 (9) and the 8 (17): 1..7 = 28 left, C on 0: 0 + 28 >= 17, play on.
    # B calls the 7 (24): 21 left, 0 + 21 < 24: over; A wins, C (lowest) loses.
    setup = {"players": ["A", "B", "C"]}
    events = [S(15, 14, 13, 12), C(11), C(10), S(fouls=["miss"]), C(9), C(8)]
    v = play("fifteen_ball_pool", setup, events)
    assert (v["over"], v["scores"]) == (False, {"A": 72, "B": 17, "C": 0})
    v = play("fifteen_ball_pool", setup, [*events, C(7)])
    assert (v["over"], v["winner"], v["loser"], v["on_table"]) == (
        True,
        "A",
        "C",
        [1, 2, 3, 4, 5, 6],
    )


def test_fifteen_ball_rule4_playing_out_of_turn_forfeits_three():
    # 1104: P1 opens, P2 plays safe; P2 then plays out of his turn: 3 off, it counts as
    # a scratch, P1 is still at the table.
    v = play("fifteen_ball_pool", {}, [S(), S(), foul("P2", "out_of_turn")])
    assert (v["scores"], v["scratches"], v["at_table"]) == (
        {"P1": 0, "P2": -3},
        {"P1": 0, "P2": 1},
        "P1",
    )


# ----------------------------------------------------------------- American pyramid


def test_pyramid_first_to_eight_balls_wins_two_handed():
    # 1114: five on the opening, then the 6, then the 7 and 8 called together.
    events = [S(1, 2, 3, 4, 5), C(6), C(7, 8)]
    v = play("american_pyramid_pool", {}, events)
    assert (v["over"], v["winner"], v["loser"], v["scores"]) == (
        True,
        "P1",
        "P2",
        {"P1": 8, "P2": 0},
    )


def test_pyramid_rule1_a_forfeit_with_no_ball_is_owed_and_the_next_ball_pays_it():
    # 1118-1120: P1 fails the opening with no ball: he owes one, P2 plays. P2 pots the 3
    # (1 ball), plays safe. P1 pots the 5: it goes back on the table and pays the debt;
    # his score stays 0 but the stroke counts, so he plays again.
    events = [S(cushion=False), C(3), SAFE, C(5)]
    v = play("american_pyramid_pool", {}, events[:1])
    assert (v["owed"], v["at_table"], v["next"]) == ({"P1": 1, "P2": 0}, "P2", "play")
    v = play("american_pyramid_pool", {}, events)
    assert (v["owed"], v["scores"], v["at_table"], v["on_table"]) == (
        {"P1": 0, "P2": 0},
        {"P1": 0, "P2": 1},
        "P1",
        table_without(3),
    )


def test_pyramid_rule1_match_failed_opening_he_breaks_again():
    # 1122
    v = play("american_pyramid_pool", {"match": True}, [S(cushion=False)])
    assert (v["owed"], v["at_table"], v["next"]) == ({"P1": 1, "P2": 0}, "P1", "break")


def test_pyramid_rule3_cue_ball_pocketed_after_a_failure_forfeits_but_one_ball():
    # 1126: P1 opens with the 1 and the 2 (2 balls), then pockets the cue ball without
    # reaching a cushion: one ball back, the 2 (the last credited).
    v = play("american_pyramid_pool", {}, [S(1, 2), S(pots=[pot("cue")], cushion=False)])
    assert (v["scores"], v["on_table"], v["at_table"]) == (
        {"P1": 1, "P2": 0},
        table_without(1),
        "P2",
    )


def test_pyramid_rule2_called_ball_missed_nothing_counts_no_penalty():
    # 1124
    v = play("american_pyramid_pool", {}, [S(1), S(6, call=[{"ball": 5}])])
    assert (v["scores"], v["on_table"], v["at_table"]) == (
        {"P1": 1, "P2": 0},
        table_without(1),
        "P2",
    )


def test_pyramid_three_forfeits_two_handed_give_the_table_to_the_opponent():
    # 1140 -> continuous rule 24: P2's three misses; every ball left (14) goes to P1.
    events = [S(1), SAFE, S(fouls=["miss"]), SAFE, S(fouls=["miss"]), SAFE, S(fouls=["miss"])]
    v = play("american_pyramid_pool", {"target": 15}, events)
    assert (v["over"], v["winner"], v["loser"], v["on_table"]) == (True, "P1", "P2", [])
    assert (v["scores"], v["owed"]) == ({"P1": 15, "P2": 0}, {"P1": 0, "P2": 3})


# ------------------------------------------------------------------- rotation pool


def test_rotation_opening_strikes_the_one_and_any_ball_potted_counts():
    # 1200-1202: any ball potted, "irrespective of its number", counts; he plays on, on
    # the lowest ball.
    v = play("rotation_pool", {}, [S(7), S(3, first_hit=1)])
    assert (v["scores"], v["at_table"], v["must_hit"]) == ({"P1": 10, "P2": 0}, "P1", 1)
    v = play("rotation_pool", {}, [S(7), S(1)])
    assert (v["scores"]["P1"], v["must_hit"]) == (8, 2)


def test_rotation_failing_to_hit_the_required_ball_forfeits_three():
    # 1204: P1 hits the 2 first while the 1 is on the table: a scratch of 3.
    v = play("rotation_pool", {}, [S(7), S(2, first_hit=2)])
    assert (v["scores"], v["scratches"], v["at_table"], v["on_table"]) == (
        {"P1": 4, "P2": 0},
        {"P1": 1, "P2": 0},
        "P2",
        table_without(7),
    )


# ------------------------------------------------------------------ high-low-jack


def test_high_low_jack_high_is_the_fifteen_and_scores_at_once():
    # 1286
    v = play("high_low_jack", {}, [S(15)])
    assert (v["scores"], v["specials"], v["rack_totals"]) == (
        {"P1": 1, "P2": 0},
        {"high": "P1", "low": None, "jack": None},
        {"P1": 15, "P2": 0},
    )


def test_high_low_jack_a_whole_rack_gives_high_low_jack_and_game():
    # 1286: P1 clears the table on the opening: High, Low, Jack and Game (120): 4 points.
    # Rack 2 is broken by P2 (the next after the breaker), totals and specials start again.
    v = play("high_low_jack", {}, [S(*ALL)])
    assert (v["scores"], v["rack"], v["at_table"], v["next"]) == (
        {"P1": 4, "P2": 0},
        2,
        "P2",
        "break",
    )
    assert v["rack_totals"] == {"P1": 0, "P2": 0}
    assert v["specials"] == {"high": None, "low": None, "jack": None}


def test_high_low_jack_the_first_balls_holed_count_out_first():
    # 1288: to 2 points; P1 has the Low (1), then pots the 15 and the 9 together: High
    # takes him out; the 9 is added to his rack total but no Jack is scored after the end.
    v = play("high_low_jack", {"target": 2}, [S(1), C(15, 9)])
    assert (v["over"], v["winner"], v["scores"]) == (True, "P1", {"P1": 2, "P2": 0})
    assert v["specials"] == {"high": "P1", "low": "P1", "jack": None}
    assert v["rack_totals"] == {"P1": 25, "P2": 0}


def test_high_low_jack_each_one_to_go_plays_the_bank_on_a_single_ball():
    # 1292-1294: to 2, three players. Rack 1: A opens 15+14+13+12+4 = 58 (High), plays
    # safe; B calls the 9 and pots 9,2,5,6,7,8,10,11 = 58 (Jack), plays safe; C calls the 1
    # and pots 1 and 3 = 4 (Low): the table is empty, A and B share the best total, so no
    # Game. Each is one short: the 1-ball alone, to be banked. B (next after A) breaks it:
    # potted without a bank it is spotted and C plays; C banks it in and wins.
    setup = {"players": ["A", "B", "C"], "target": 2}
    events = [
        S(15, 14, 13, 12, 4),
        SAFE,
        S(9, 2, 5, 6, 7, 8, 10, 11, call=[{"ball": 9}]),
        SAFE,
        S(1, 3, call=[{"ball": 1}]),
    ]
    v = play("high_low_jack", setup, events)
    assert (v["scores"], v["rack"], v["next"], v["on_table"], v["at_table"]) == (
        {"A": 1, "B": 1, "C": 1},
        2,
        "bank",
        [1],
        "B",
    )
    v = play("high_low_jack", setup, [*events, S(1)])
    assert (v["at_table"], v["on_table"], v["over"]) == ("C", [1], False)
    v = play("high_low_jack", setup, [*events, S(1), S(pot(1, bank=True))])
    assert (v["over"], v["winner"], v["scores"]) == (True, "C", {"A": 1, "B": 1, "C": 2})


# ---------------------------------------------------------------- B.B.C. Co. pool


def test_bbc_rule4_red_and_yellow_on_the_break_the_other_colour_goes_to_the_opponent():
    # 2115: A breaks, pots a red and a yellow and selects the red.
    v = play("bbc_co_pool", {}, [S("red", "yellow", group="red")])
    assert (v["groups"], v["scores"], v["on_table"], v["at_table"]) == (
        {"home": "red", "away": "yellow"},
        {"home": 1, "away": 1},
        {"red": 6, "yellow": 6, "black": 1},
        "home",
    )


def test_bbc_rule5_the_black_before_seven_loses():
    # 2117
    v = play("bbc_co_pool", {}, [S("black")])
    assert (v["over"], v["winner"], v["next"], v["at_table"]) == (True, "away", "none", None)


def test_bbc_rule6_potting_only_the_opponents_colour_ends_the_visit():
    # 2119: home takes red on the break, then pots a yellow only: away gets it, away plays.
    v = play("bbc_co_pool", {}, [S("red"), S("yellow")])
    assert (v["scores"], v["at_table"]) == ({"home": 1, "away": 1}, "away")


def test_bbc_rule7_a_scratch_loses_the_inning_but_the_balls_count():
    # 2123
    v = play("bbc_co_pool", {}, [S("red"), S("red", "yellow", "cue")])
    assert (v["scores"], v["at_table"], v["on_table"]) == (
        {"home": 2, "away": 1},
        "away",
        {"red": 5, "yellow": 6, "black": 1},
    )


def test_bbc_rule8_after_a_failed_break_the_next_player_chooses_his_colour_first():
    # 2125: home fails to break; away chooses yellow and breaks, potting nothing but
    # reaching the cushions: the colours are taken, home plays.
    v = play("bbc_co_pool", {}, [S(cushion=False), S(group="yellow")])
    assert (v["groups"], v["next"], v["at_table"]) == (
        {"home": "red", "away": "yellow"},
        "play",
        "home",
    )


def test_bbc_rule3_seven_then_the_black_wins():
    # 2113: home pots its seven reds in a visit, then the black.
    events = [S("red", "red", "red"), S("red", "red"), S("red", "red")]
    v = play("bbc_co_pool", {}, events)
    assert (v["next"], v["scores"], v["at_table"]) == ("black", {"home": 7, "away": 0}, "home")
    v = play("bbc_co_pool", {}, [*events, S("black")])
    assert (v["over"], v["winner"]) == (True, "home")


# ------------------------------------------------------------------------ golf pool


def test_golf_rules_4_and_11_a_hole_made_in_one_stroke_scores_one():
    # 2000, 2014: P1 banks the red into the left side pocket at once: 1 on his card.
    v = play("golf_pool", {}, [S(pot("red", "side_left", True))])
    assert (v["card"], v["at_table"], v["hole"], v["pocket"]) == (
        {"P1": [1], "P2": []},
        "P2",
        1,
        "side_left",
    )


def test_golf_rule6_white_in_a_pocket_adds_three_besides_the_stroke():
    # 2004: 1 + 3; the player continues.
    v = play("golf_pool", {}, [S(pot("white", "foot_left"))])
    assert (v["scores"], v["at_table"], v["card"]) == (
        {"P1": 4, "P2": 0},
        "P1",
        {"P1": [], "P2": []},
    )


def test_golf_rule7_no_cushion_adds_three():
    # 2006
    v = play("golf_pool", {}, [S(cushion=False)])
    assert (v["scores"], v["at_table"]) == ({"P1": 4, "P2": 0}, "P1")


def test_golf_rule4_holes_follow_in_order_and_rule12_the_lowest_total_wins():
    # 2000: side_left, head_left, head_right, side_right, foot_right, foot_left.
    # P1 makes every hole in one; P2 takes two (a plain stroke then the hole): 6 v 12.
    holes = ["side_left", "head_left", "head_right", "side_right", "foot_right", "foot_left"]
    events: list[dict[str, Any]] = []
    for n, pocket in enumerate(holes):
        made = S(pot("red", pocket, n == 0 or None))
        events += [made, S(), made]
    v = play("golf_pool", {}, events[:3])
    assert (v["hole"], v["pocket"], v["at_table"]) == (2, "head_left", "P1")
    v = play("golf_pool", {}, events)
    assert (v["over"], v["winner"], v["scores"]) == (True, "P1", {"P1": 6, "P2": 12})
    assert v["card"] == {"P1": [1] * 6, "P2": [2] * 6}


# ------------------------------------------------------------------- two-ball pool

ABC = {"players": ["A", "B", "C"]}


def test_two_ball_a_pot_brings_a_new_lead_with_the_red():
    # 1210-1212: A leads the red, B plays the white at it; C plays the red at the white
    # and pots it: B (the white's owner) loses a life, paid to C; D is the next to lead.
    events = [{"type": "lead"}, S(), S("white")]
    v = play("two_ball_pool", ABC, events[:2])
    assert (v["at_table"], v["plays_with"], v["owners"]) == (
        "C",
        "red",
        {"red": "A", "white": "B"},
    )
    v = play("two_ball_pool", ABC, events)
    assert v["lives"] == {"A": 3, "B": 2, "C": 3}
    assert (v["scores"], v["pool"]) == ({"A": -1, "B": -2, "C": 0}, 3)
    assert (v["next"], v["at_table"], v["owners"], v["plays_with"]) == (
        "lead",
        "A",
        {"red": None, "white": None},
        None,
    )


def test_two_ball_rule5_a_failed_hazard_costs_the_taker_a_life():
    # 1224: B is to play; C takes the hazard and fails: C pays A (the red's owner).
    v = play("two_ball_pool", ABC, [{"type": "lead"}, S(hazard="C")])
    assert (v["lives"], v["scores"]) == ({"A": 3, "B": 3, "C": 2}, {"A": 0, "B": -1, "C": -2})
    assert (v["owners"], v["at_table"]) == ({"red": "A", "white": "B"}, "C")


def test_two_ball_rule7_out_of_turn_loses_a_life_unless_he_pockets_the_object_ball():
    # 1228: C plays out of turn while B is to play: a life into the pool. Then A plays out
    # of turn and pockets the object (the red, his own): he pays a life into the pool and
    # the next after B (C) leads.
    v = play("two_ball_pool", ABC, [{"type": "lead"}, foul("C", "out_of_turn")])
    assert (v["lives"], v["pool"], v["at_table"]) == ({"A": 3, "B": 3, "C": 2}, 4, "B")
    v = play(
        "two_ball_pool",
        ABC,
        [{"type": "lead"}, foul("A", "out_of_turn", pocketed=True)],
    )
    assert (v["lives"], v["pool"], v["next"], v["at_table"]) == (
        {"A": 2, "B": 3, "C": 3},
        4,
        "lead",
        "C",
    )


def test_two_ball_rule8_the_misdirector_loses_the_life():
    # 1230
    v = play("two_ball_pool", ABC, [{"type": "lead"}, foul("C", "misdirect")])
    assert (v["lives"], v["next"], v["at_table"]) == ({"A": 3, "B": 3, "C": 2}, "lead", "B")


def test_two_ball_rule3_the_first_man_killed_may_take_the_privilege_at_once():
    # 1220: one life each. A leads, B misses: B is out (pays A), the privilege is his.
    setup = {"players": ["A", "B", "C"], "lives": 1}
    events = [{"type": "lead"}, S(fouls=["miss"])]
    v = play("two_ball_pool", setup, events)
    assert (v["lives"], v["may_revive"], v["privilege_left"]) == (
        {"A": 1, "B": 0, "C": 1},
        ["B"],
        True,
    )
    v = play("two_ball_pool", setup, [*events, {"type": "privilege", "player": "B"}])
    assert (v["lives"], v["may_revive"], v["privilege_left"], v["pool"]) == (
        {"A": 1, "B": 1, "C": 1},
        [],
        False,
        4,
    )


def test_two_ball_rule15_two_left_who_holes_his_opponents_ball_leads_for_him():
    # 1244: two lives each. A leads, B pots the red: A loses a life (paid to B) and B,
    # having holed his only opponent's ball, leads for him.
    v = play("two_ball_pool", {"lives": 2, "players": ["A", "B"]}, [{"type": "lead"}, S("red")])
    assert (v["lives"], v["next"], v["at_table"]) == ({"A": 1, "B": 2}, "lead", "B")


# ----------------------------------------------------------- colour-ball life pool


def test_colour_ball_red_plays_first_upon_the_spotted_white():
    # 1302-1304 and rule 3 (1327)
    v = play("color_ball_life_pool", {}, [])
    assert (v["at_table"], v["on"], v["on_table"], v["stars_left"]) == ("P2", "white", ["white"], 0)


def test_colour_ball_rule7_all_object_balls_pocketed_the_next_plays_on_his_spotted_ball():
    # 1335: B (red) pots the white: A loses a life paid to B; nothing else to play on, so
    # B's ball stays on the spot and C (yellow) plays on it.
    v = play("color_ball_life_pool", ABC, [S("white")])
    assert (v["lives"], v["scores"], v["pool"]) == (
        {"A": 2, "B": 3, "C": 3},
        {"A": -2, "B": 0, "C": -1},
        3,
    )
    assert (v["at_table"], v["on"], v["on_table"]) == ("C", "red", ["red"])


def test_colour_ball_rule16_a_life_lost_is_paid_to_the_owner_of_the_ball_played_on():
    # 1353: C misses the red: C pays B. A plays next on the nearest of red and yellow.
    v = play("color_ball_life_pool", ABC, [S("white"), S(fouls=["miss"])])
    assert (v["lives"], v["scores"]) == ({"A": 2, "B": 3, "C": 2}, {"A": -2, "B": 1, "C": -2})
    assert (v["at_table"], v["on"], v["on_table"]) == ("A", None, ["red", "yellow"])


def test_colour_ball_rule15_own_ball_holed_with_another_the_other_owner_is_not_liable():
    # 1351: B pots the white and his own red: B loses a life to A (owner of the ball on),
    # A loses nothing.
    v = play("color_ball_life_pool", ABC, [S("white", "red")])
    assert (v["lives"], v["scores"]) == ({"A": 3, "B": 2, "C": 3}, {"A": 0, "B": -2, "C": -1})


def test_colour_ball_rules18_19_a_foul_stroke_takes_no_life_next_plays_on_his_ball():
    # 1357-1359
    v = play("color_ball_life_pool", ABC, [S("white", fouls=["feet"])])
    assert (v["lives"], v["at_table"], v["on"], v["on_table"]) == (
        {"A": 3, "B": 3, "C": 3},
        "C",
        "red",
        ["red"],
    )


def test_colour_ball_rule8_the_first_player_killed_may_star():
    # 1337, 1391: three players, one life each for A; B pots the white: A is out and may
    # star the lowest number on the board (3), paying another stake.
    setup = {"players": ["A", "B", "C"], "lives": {"A": 1, "B": 3, "C": 3}}
    v = play("color_ball_life_pool", setup, [S("white")])
    assert (v["lives"], v["may_revive"], v["stars_left"]) == ({"A": 0, "B": 3, "C": 3}, ["A"], 1)
    v = play("color_ball_life_pool", setup, [S("white"), {"type": "star", "player": "A"}])
    # rule 35: no more lives than he began with (1), nor than the lowest on the board (3)
    assert (v["lives"], v["stars_left"], v["pool"]) == ({"A": 1, "B": 3, "C": 3}, 0, 4)


def test_colour_ball_rule14_obstruction_puts_the_player_out_at_once():
    # 1349
    v = play("color_ball_life_pool", ABC, [foul("C", "obstruction")])
    assert (v["lives"], v["may_revive"]) == ({"A": 3, "B": 3, "C": 0}, [])


def test_colour_ball_rule31_two_left_with_equal_lives_divide():
    # 1383: four players, one life each (all pay 1: pool 4). B (red) pots the white: A is
    # out and pays B; A may star (three others in) but C plays on: the star is gone. C pots
    # the red: B is out and pays C. Two left with a life each: C and D divide the 4.
    setup = {"players": ["A", "B", "C", "D"], "lives": 1}
    v = play("color_ball_life_pool", setup, [S("white"), S("red")])
    assert (v["over"], v["shared"], v["winner"], v["pool"]) == (True, True, None, 0)
    assert v["scores"] == {"A": -2, "B": -1, "C": 2, "D": 1}


def test_continuous_the_stroke_that_clears_the_rack_and_reaches_the_target_ends_it():
    # 952: no new rack is set up once the target is reached.
    v = play("continuous_pool", {"target": 15}, [S(*ALL)])
    assert (v["over"], v["winner"], v["rack"], v["on_table"]) == (True, "P1", 1, [])


def test_continuous_three_scratches_that_give_the_opponent_the_target_end_the_game():
    # 1056 with 952: P2 takes the 14 balls left and so reaches 14.
    events = [S(1), S(fouls=["miss"]), SAFE, S(fouls=["miss"]), SAFE, S(fouls=["miss"])]
    v = play("continuous_pool", {"target": 14}, events)
    assert (v["over"], v["winner"], v["scores"], v["rack"], v["on_table"]) == (
        True,
        "P2",
        {"P1": -2, "P2": 14},
        1,
        [],
    )


# ------------------------------------------------- the page's rules, one test each


def test_pyramid_three_forfeits_with_three_players_have_no_effect():
    # page: "With more players the rule does not apply (the count goes on, with no effect)".
    setup = {"players": ["A", "B", "C"]}
    miss, safe = S(fouls=["miss"]), SAFE
    events = [S(1), safe, miss, safe, safe, miss, safe, safe, miss]  # B misses thrice
    v = play("american_pyramid_pool", setup, events)
    assert (v["over"], v["scratches"]["B"], v["owed"]["B"]) == (False, 3, 3)


def test_rotation_with_calls_needs_a_call_after_the_opening():
    # page: "true in rotation pool adds calls to it".
    v = play("rotation_pool", {"call_shot": True}, [S(), S(1)])
    assert (v["scores"], v["at_table"], v["on_table"]) == ({"P1": 0, "P2": 0}, "P1", ALL)


def test_bbc_a_forfeit_before_the_colours_are_taken_is_owed():
    # page: "with none to give, or before the colours are taken, his side owes one".
    v = play("bbc_co_pool", {}, [S(), S(fouls=["miss"])])
    assert (v["owed"], v["groups"], v["at_table"]) == (
        {"home": 0, "away": 1},
        {"home": None, "away": None},
        "home",
    )


def test_bbc_forfeit_ball_false_turns_the_forfeits_off():
    v = play("bbc_co_pool", {"forfeit_ball": False}, [S(), S(fouls=["miss"])])
    assert v["owed"] == {"home": 0, "away": 0}


def test_bbc_the_black_with_a_foul_after_seven_loses():
    events = [S("red", "red", "red"), S("red", "red"), S("red", "red"), S("black", fouls=["feet"])]
    v = play("bbc_co_pool", {}, events)
    assert (v["over"], v["winner"]) == (True, "away")


def test_golf_a_scratch_and_a_foul_together_cost_four():
    # page item 14
    v = play("golf_pool", {}, [S(pot("white", "head_left"), cushion=False)])
    assert v["scores"] == {"P1": 4, "P2": 0}


def test_golf_the_right_pocket_without_the_bank_on_hole_one_is_a_scratch():
    v = play("golf_pool", {}, [S(pot("red", "side_left"))])
    assert (v["scores"], v["card"], v["at_table"]) == (
        {"P1": 4, "P2": 0},
        {"P1": [], "P2": []},
        "P1",
    )


def test_two_ball_open_privilege_goes_to_a_later_man_out():
    # page: with "open", any player may take it straight after he is put out, until taken.
    setup = {"players": ["A", "B", "C"], "lives": 1, "privilege": "open"}
    events = [{"type": "lead"}, S(fouls=["miss"])]  # B out (first), does not take it
    v = play("two_ball_pool", setup, [*events, S(fouls=["miss"])])  # C plays, misses: out
    assert (v["may_revive"], v["privilege_left"]) == (["C"], True)
    v = play("two_ball_pool", {**setup, "privilege": "first"}, [*events, S(fouls=["miss"])])
    assert (v["may_revive"], v["privilege_left"]) == ([], False)


def test_colour_ball_eight_players_have_two_stars():
    # rule 9 (1339)
    v = play("color_ball_life_pool", {"players": [f"P{i}" for i in range(1, 9)]}, [])
    assert v["stars_left"] == 2


def test_colour_ball_a_star_not_taken_at_once_is_gone():
    # page: "If nobody stars after a kill that offered one, no star can be taken later".
    setup = {"players": ["A", "B", "C"], "lives": {"A": 1, "B": 3, "C": 3}}
    v = play("color_ball_life_pool", setup, [S("white"), S()])
    assert (v["stars_left"], v["may_revive"]) == (0, [])


def test_colour_ball_division_does_not_apply_to_three_players():
    # rule 32 (1385): "There is no division at three pool."
    setup = {"players": ["A", "B", "C"], "lives": {"A": 1, "B": 2, "C": 2}}
    v = play("color_ball_life_pool", setup, [S("white")])
    assert (v["over"], v["lives"]) == (False, {"A": 0, "B": 2, "C": 2})


def test_life_games_pay_halves_when_two_divide_an_odd_pool():
    # page: "a half is shown as .5". Four players with a life each pay 1 (pool 4). B pots
    # the white (A pays B); A stars (pool 5); C pots the red (B pays C); D pots the yellow
    # (C pays D): A and D are left with a life each and divide 5: 2.5 each.
    setup = {"players": ["A", "B", "C", "D"], "lives": 1}
    events = [S("white"), {"type": "star", "player": "A"}, S("red")]
    v = play("color_ball_life_pool", setup, events)
    assert (v["pool"], v["over"], v["at_table"], v["on"]) == (5, False, "D", "yellow")
    v = play("color_ball_life_pool", setup, [*events, S("yellow")])
    assert (v["over"], v["shared"], v["pool"]) == (True, True, 0)
    assert v["scores"] == {"A": -0.5, "B": -1, "C": -1, "D": 2.5}
