"""The bagatelle family: every worked example the page (the bagatelle scoring language) or the books
print, as a named test. "S000" is The Rules of Bagatelle (Masters Traditional Games), "H" the
1908 handbook (Modern Billiards); numbers are the books' lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import get, replay


def play(game: str, events: Sequence[Mapping[str, Any]], setup: Any = None) -> dict[str, Any]:
    g = get(game)
    return g.view(replay(g, setup or {}, list(events)))


def ball(to: Any = None, **fields: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "ball"}
    if to is not None:
        ev["to"] = to
    ev.update(fields)
    return ev


BLACK_TO_9 = ball(1, first_hit="black", others=[{"ball": "black", "to": 9}])


# --------------------------------------------------------------- S000 Victorian


def test_page_initial_state_is_printed_victorian_state():
    # the bagatelle scoring language 1.6 prints the state of a Victorian game before the first ball
    assert play("victorian_bagatelle", []) == {
        "game": "victorian_bagatelle",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"P1": 0, "P2": 0},
        "at_table": "P1",
        "player": "P1",
        "events": 0,
        "round": 1,
        "balls_left": 8,
        "turn_score": 0,
        "required": "black",
        "on_table": {"black": 1},
        "cups_filled": [],
        "loser": None,
        "playoff": [],
        "next": "ball",
    }


def test_victorian_black_in_the_9_scores_18():
    # S000 14: the black scores double, "deposited into ... the middle thus scoring 18"
    v = play(
        "victorian_bagatelle",
        [ball("back", first_hit="black", others=[{"ball": "black", "to": 9}])],
    )
    assert v["scores"]["P1"] == 18


def test_victorian_maximum_turn_is_54():
    # S000 14 / page 3.1: the black in the 9 (18) and the eight whites in cups 1-8 (36)
    v = play("victorian_bagatelle", [BLACK_TO_9] + [ball(c) for c in range(2, 9)])
    assert v["scores"] == {"P1": 54, "P2": 0}
    assert v["at_table"] == "P2" and v["balls_left"] == 8 and v["on_table"] == {"black": 1}


def test_victorian_cups_hold_one_ball():
    v = play("victorian_bagatelle", [BLACK_TO_9, ball(2), ball(3)])
    assert v["cups_filled"] == [1, 2, 3, 9]


def test_victorian_ball_missing_the_black_is_removed_and_tries_again():
    # S000 12: "the ball is removed from the table, does not score and the player tries again"
    v = play("victorian_bagatelle", [ball(5), ball("table")])
    assert v["scores"]["P1"] == 0
    assert v["cups_filled"] == [] and v["on_table"] == {"black": 1}
    assert v["required"] == "black" and v["balls_left"] == 6


def test_victorian_after_the_black_is_struck_nothing_is_required():
    # S000 12: "Thereafter ... it is not necessary to strike the black ball or any other ball"
    v = play("victorian_bagatelle", [ball("table", first_hit="black"), ball(7)])
    assert v["required"] is None and v["scores"]["P1"] == 7
    assert v["on_table"] == {"black": 1, "white": 1}


def test_victorian_first_to_target_finishes_turn_and_second_plays_his():
    # S000 15: the first player reaches the target; he completes his turn and the second
    # player completes a turn; then the higher score wins
    turn54 = [BLACK_TO_9] + [ball(c) for c in range(2, 9)]
    early = play("victorian_bagatelle", [BLACK_TO_9], {"target": 10})
    assert early["over"] is False and early["balls_left"] == 7
    after_first = play("victorian_bagatelle", turn54, {"target": 10})
    assert after_first["over"] is False and after_first["at_table"] == "P2"
    v = play("victorian_bagatelle", turn54 + [ball("back")] * 8, {"target": 10})
    assert v["over"] is True and v["winner"] == "P1" and v["round"] == 1


# --------------------------------------------------------------- S000 Sans Egal


def test_sans_egal_missing_the_black_forfeits_5_and_the_ball_stays():
    # S000 18: "it is not removed from the table but the player forfeits 5 points and does
    # not score anything should the ball drop ... the onus ... falls to the opponent"
    v = play("sans_egal", [ball(8)])
    assert v["scores"] == {"P1": -5, "P2": 0}
    assert v["cups_filled"] == [8] and v["required"] == "black" and v["at_table"] == "P2"


def test_sans_egal_opponents_ball_knocked_in_scores_for_the_opponent():
    # S000 19: "If a player knocks an opponent's ball into a pocket, the ball is scored for
    # the opponent"
    v = play(
        "sans_egal",
        [
            ball("table", first_hit="black"),  # P1's red rests on the table
            ball("table"),  # P2's white rests on the table (no duty now)
            ball(3, first_hit="white", others=[{"ball": "white", "to": 6}]),
        ],
    )
    assert v["scores"] == {"P1": 3, "P2": 6}


def test_sans_egal_highest_after_four_balls_each_wins():
    # S000 20: "The highest scorer after playing all 4 balls wins"
    events = [ball(9, first_hit="black")] + [ball("back")] * 7
    v = play("sans_egal", events)
    assert v["over"] and v["winner"] == "P1" and v["scores"] == {"P1": 9, "P2": 0}


def test_sans_egal_variant_black_scores_its_hole_plus_own_balls_holed():
    # S000 23: "The player who scores the black scores the value of that hole plus the
    # value of any of his own balls already holed (whether by himself or the opponent)"
    v = play(
        "sans_egal_variant",
        [
            ball(4, first_hit="black"),  # P1's red in the 4: 4
            ball("table", first_hit="black"),  # P2's white on the table
            ball(2, first_hit="black", others=[{"ball": "black", "to": 9}]),
        ],
    )
    # P1: 4, then 2 (his red) + 9 (the black at face value) + 4 (his red already holed)
    assert v["scores"] == {"P1": 19, "P2": 0}


# ------------------------------------------------------------- S000 Northern, Southern


def test_northern_must_strike_white_once_the_black_is_potted_then_a_cushion():
    # S000 26-28
    events = [ball("table", first_hit="black", others=[{"ball": "black", "to": 9}])]
    v = play("northern_bagatelle", events)
    assert v["scores"]["P1"] == 18 and v["required"] == "white"
    v = play(
        "northern_bagatelle",
        [*events, ball(5, first_hit="white", others=[{"ball": "white", "to": 3}])],
    )
    assert v["scores"]["P1"] == 26 and v["required"] == "cushion"
    v = play(
        "northern_bagatelle",
        [*events, ball(5, first_hit="white", others=[{"ball": "white", "to": 3}]), ball(4)],
    )
    assert v["scores"]["P1"] == 26  # no cushion: out of play, scores nothing
    v = play(
        "northern_bagatelle",
        [
            *events,
            ball(5, first_hit="white", others=[{"ball": "white", "to": 3}]),
            ball(4, cushion=True),
        ],
    )
    assert v["scores"]["P1"] == 30


def test_southern_nomination_and_side_pockets():
    # S000 31-36: two reds, side pockets, a nomination before every stroke
    v = play(
        "southern_bagatelle",
        [ball("left", first_hit="red", nominated="left", others=[{"ball": "red", "to": 9}])],
    )
    assert v["scores"]["P1"] == 5 + 18 and v["required"] == "red"
    v = play("southern_bagatelle", [ball(7, first_hit="red", nominated=9)])
    assert v["scores"]["P1"] == 0 and v["cups_filled"] == [7]


# ------------------------------------------------------------------ S000 arches


def test_mississippi_arch_after_a_cushion_scores_its_number():
    # S000 40; the typical arches 6-4-1-7-8-2-5-3 (S000 38)
    v = play("mississippi", [ball(arch=8, cushion=True)])
    assert v["scores"] == {"P1": 8, "P2": 0}


def test_mississippi_arch_without_a_cushion_scores_for_each_opponent():
    # S000 43: "the score made by that ball is given to each of the opponents scores"
    v = play("mississippi", [ball(arch=7)], {"players": 3})
    assert v["scores"] == {"P1": 0, "P2": 7, "P3": 7}


def test_mississippi_resting_ball_knocked_through_scores():
    # S000 41: a ball that struck a cushion stays on the table; knocked through, it scores
    v = play(
        "mississippi",
        [
            ball("table", cushion=True),
            ball("back", cushion=True, first_hit="white", others=[{"ball": "white", "arch": 5}]),
        ],
    )
    assert v["scores"]["P1"] == 5 and v["on_table"] == {}


def test_mississippi_ball_without_cushion_is_removed():
    # S000 42
    v = play("mississippi", [ball("table")])
    assert v["on_table"] == {}


def test_la_trou_madame_needs_no_cushion():
    # S000 45
    v = play("la_trou_madame", [ball(arch=7), ball("table")])
    assert v["scores"]["P1"] == 7 and v["on_table"] == {"white": 1} and v["required"] is None


def test_arch_and_cup_variation_adds_the_cup():
    # S000 47: "also fall into a cup scores the value of the cup in addition"
    v = play("la_trou_madame", [ball(9, arch=6)], {"cup_bonus": True})
    assert v["scores"]["P1"] == 15
    v = play("la_trou_madame", [ball(9, arch=6)])
    assert v["scores"]["P1"] == 6


# -------------------------------------------------------------------- H bagatelle


def test_1908_black_counts_double_into_whatever_hole():
    # H 1943-1945
    v = play("bagatelle_1908", [ball(2, first_hit="black", others=[{"ball": "black", "to": 7}])])
    assert v["scores"]["P1"] == 16


def test_1908_no_ball_has_to_strike_the_black():
    v = play("bagatelle_1908", [ball(5)])
    assert v["scores"]["P1"] == 5 and v["required"] is None
    v = play("bagatelle_1908", [ball(5)], {"black_first": True})
    assert v["scores"]["P1"] == 0 and v["required"] == "black"


def test_1908_sides_take_turns_member_by_member():
    setup = {"sides": ["A", "B"], "players": {"A": ["Ann", "Al"], "B": ["Bob", "Bea"]}, "rounds": 1}
    seen = []
    g = get("bagatelle_1908")
    s = g.initial(setup)
    for _ in range(4):
        seen.append((g.view(s)["at_table"], g.view(s)["player"]))
        for _ in range(8):
            s = g.apply(s, ball("back"))
    assert seen == [("A", "Ann"), ("B", "Bob"), ("A", "Al"), ("B", "Bea")]
    # level at 0-0 after the agreed round: both sides play off, Ann first again
    v = g.view(s)
    assert not v["over"] and v["playoff"] == ["A", "B"] and v["round"] == 2
    assert (v["at_table"], v["player"]) == ("A", "Ann")


def test_english_nothing_scores_until_the_king_is_struck():
    # H 1954
    v = play("english_bagatelle", [ball(6), ball(5, first_hit="king")])
    assert v["scores"]["P1"] == 5 and v["cups_filled"] == [5, 6] and v["required"] is None


def test_english_pins_count_five_each_once_the_king_is_struck():
    # H 1964: "Pins knocked down count five each"
    v = play("english_bagatelle", [ball(1, pins=2), ball(2, first_hit="king", pins=3)], {"pins": 6})
    assert v["scores"]["P1"] == 2 + 15


def test_english_king_over_the_line_is_out_until_the_next_player():
    # H 1956
    v = play(
        "english_bagatelle",
        [ball("table", first_hit="king", others=[{"ball": "king", "to": "back"}])],
    )
    assert v["on_table"] == {"white": 1}
    v = play(
        "english_bagatelle",
        [ball("table", first_hit="king", others=[{"ball": "king", "to": "back"}])]
        + [ball("off")] * 7,
    )
    assert v["on_table"] == {"king": 1} and v["at_table"] == "P2"


def test_carombolette_a_miss_forfeits_a_ball():
    # H 1982: "A cue-ball which does not strike the object or other ball ... shall not count,
    # and the player so missing shall forfeit one ball"
    v = play("carombolette", [ball(10)])
    assert v["scores"]["P1"] == 0 and v["balls_left"] == 6


def test_carombolette_red_doubles_and_is_respotted():
    # H 1978
    v = play(
        "carombolette",
        [
            ball(1, first_hit="red", others=[{"ball": "red", "to": 10}]),
            ball(2, first_hit="red", others=[{"ball": "red", "to": 10}]),
        ],
    )
    assert v["scores"]["P1"] == 1 + 20 + 2 + 20 and v["on_table"] == {"red": 1}


def test_carombolette_pool_mode_counts_the_arched_pockets():
    # H 1990
    v = play("carombolette", [ball(9, first_hit="red")], {"mode": "pool"})
    assert v["scores"]["P1"] == 9


def test_pigeon_hole_red_counts_double_and_first_to_100_wins():
    # H 1908, 1916
    v = play(
        "pigeon_hole_jenny_lind",
        [ball(9, first_hit="red", others=[{"ball": "red", "to": 9}])],
        {"target": 20},
    )
    assert v["over"] and v["winner"] == "P1" and v["scores"]["P1"] == 27


def test_pigeon_hole_respot_the_red():
    # H 1910
    events = [ball(3, first_hit="red", others=[{"ball": "red", "to": 4}])]
    v = play("pigeon_hole_jenny_lind", events)
    assert v["can_respot"] is True and v["scores"]["P1"] == 11
    v = play("pigeon_hole_jenny_lind", [*events, {"type": "respot_red"}])
    assert v["on_table"] == {"red": 1} and v["scores"]["P1"] == 11 and v["balls_left"] == 7


def test_pigeon_hole_knocking_off_on_purpose_loses_the_game():
    # H 1914: "Any person who purposely throws or knocks balls from the table, loses the game"
    v = play("pigeon_hole_jenny_lind", [ball("off", fouls=["deliberate_off"])])
    assert v["over"] and v["winner"] == "P2" and v["out"] == ["P1"]


def test_parepa_ball_number_plus_pocket_number():
    # H 1932: "counts the number on each ball he has pocketed, adding to it the number of
    # the pocket"
    v = play("parepa", [ball("table", cue="white", first_hit=30, others=[{"ball": 30, "to": 4}])])
    assert v["scores"]["P1"] == 34 and v["at_table"] == "P1" and v["cue_choices"] == [30]


def test_parepa_failing_to_count_passes_the_white():
    # H 1930
    v = play("parepa", [ball("table", cue="white", first_hit=30)])
    assert v["at_table"] == "P2" and v["cue_choices"] == ["white"]


def test_klondike_scores():
    # H 2027-2032: pin 20 / 40, points 10 / 20, red in the alley 100, white then alley
    v = play(
        "klondike",
        [
            ball("pin"),
            ball("points"),
            ball("alley", others=[{"ball": "red", "to": "alley"}]),
            ball("table", others=[{"ball": "red", "to": "pin"}]),
            ball("table", others=[{"ball": "red", "to": "points"}]),
            ball("alley"),
        ],
    )
    assert v["scores"]["P1"] == 20 + 10 + 100 + 40 + 20 + 0 and v["at_table"] == "P2"


def test_klondike_three_failed_launches_are_one_shot():
    # H 2026
    v = play("klondike", [ball("not_out"), ball("not_out")])
    assert v["failed_launches"] == 2 and v["balls_left"] == 6
    v = play("klondike", [ball("not_out")] * 3)
    assert v["failed_launches"] == 0 and v["balls_left"] == 5


def test_devil_all_the_pins_in_one_spin_count_860():
    # H 2063
    v = play(
        "devil_among_the_tailors", [ball(pins={"10": 12, "20": 10, "30": 8, "50": 4, "black": 1})]
    )
    assert v["scores"]["P1"] == 860


def test_monte_carlo_lowest_in_four_shots_loses():
    # H 1892-1897: four shots, "back" is a shot, a struck ball's count is added
    events = [ball(5), ball("back"), ball(10, others=[{"ball": "object", "to": 50}]), ball(5)] + [
        ball(20)
    ] * 4
    v = play("monte_carlo", events)
    assert v["scores"] == {"P1": 70, "P2": 80}
    assert v["over"] and v["loser"] == "P1" and v["winner"] == "P2"


def test_monte_carlo_short_is_not_a_shot():
    v = play("monte_carlo", [ball("short")])
    assert v["balls_left"] == 4


def test_high_number_pool_tie_rolls_off():
    # H 1871-1873
    v = play("high_number_pool", [ball(12), ball(12), ball(3)])
    assert v["playoff"] == ["P1", "P2"] and not v["over"] and v["at_table"] == "P2"
    v = play("high_number_pool", [ball(12), ball(12), ball(3), ball(5)])
    assert v["over"] and v["winner"] == "P2"


def test_la_barraque_ends_at_the_target_and_the_lowest_loses():
    # H 1881
    v = play(
        "parisian_pool_la_barraque", [ball(12), ball(3), ball(10)], {"target": 20, "players": 3}
    )
    assert not v["over"]
    v = play(
        "parisian_pool_la_barraque",
        [ball(12), ball(3), ball(10), ball(9)],
        {"target": 20, "players": 3},
    )
    assert v["over"] and v["loser"] == "P2" and v["winner"] is None


def test_shuffle_board_hanger_flipped_scores_six():
    # H 2087
    events = [ball()] + [ball("out")] * 7
    v = play("shuffle_board", events)
    assert v["next"] == "count" and v["balls_left"] == 0 and v["at_table"] == "P2"
    v = play(
        "shuffle_board",
        [
            *events,
            {"type": "count", "weights": [{"player": "P1", "zone": "hanger", "flip": "made"}]},
        ],
    )
    assert v["scores"] == {"P1": 6, "P2": 0} and v["round"] == 2 and v["at_table"] == "P2"


def test_shuffle_board_equal_leading_weights_void_the_roll():
    # H 2093: "When an equal number of opposing weights project the same distance ... a tie"
    events = [ball(), ball()] + [ball("out")] * 6
    count = {
        "type": "count",
        "weights": [{"player": "P1", "zone": 3}, {"player": "P2", "zone": 3, "level": True}],
    }
    v = play("shuffle_board", [*events, count])
    assert v["scores"] == {"P1": 0, "P2": 0}


# ------------------------------------------------------- the page's own statements


def test_northern_with_target_and_rounds_ends_when_either_is_met():
    # page 3.4: with both, the game ends at the end of the round in which either is met
    stick = [ball(9, first_hit="black", others=[{"ball": "black", "to": 8}])] + [ball("back")] * 7
    nothing = [ball("back")] * 8
    v = play("northern_bagatelle", stick + nothing, {"target": 20, "rounds": 5})
    assert v["over"] and v["winner"] == "P1" and v["round"] == 1  # 25 >= 20 in round 1
    v = play("northern_bagatelle", nothing * 2, {"target": 20, "rounds": 1})
    assert not v["over"] and v["playoff"] == ["P1", "P2"]  # rounds met, level: play-off


def test_ties_shared_ends_level():
    v = play("victorian_bagatelle", [ball("back")] * 16, {"target": 1, "ties": "shared"})
    assert not v["over"]  # nobody has reached the target: round 2
    v = play("devil_among_the_tailors", [ball(pins={})] * 2, {"rounds": 1, "ties": "shared"})
    assert v["over"] and v["shared"] and v["winner"] is None and v["loser"] is None


def test_victorian_equal_turns_with_three_players():
    # page 1.3: a player who reaches the target early finishes his turn and everyone else
    # in the round plays theirs
    turn54 = [BLACK_TO_9] + [ball(c) for c in range(2, 9)]
    v = play("victorian_bagatelle", turn54 + [ball("back")] * 8, {"players": 3, "target": 50})
    assert not v["over"] and v["at_table"] == "P3"
    v = play("victorian_bagatelle", turn54 + [ball("back")] * 16, {"players": 3, "target": 50})
    assert v["over"] and v["winner"] == "P1"


def test_parepa_table_cleared_sets_all_eleven_up_for_the_next_player():
    # page 5.1: after a counting shot with no numbered ball left, the turn ends and the
    # eleven balls are set up again
    everything = [{"ball": n, "to": 1} for n in range(10, 101, 10)]
    v = play(
        "parepa", [ball("table", cue="white", first_hit=10, others=everything)], {"target": 5000}
    )
    assert v["scores"]["P1"] == 550 + 10 and v["at_table"] == "P2"
    assert len(v["on_table"]) == 11 and v["pocketed"] == [] and v["cue_choices"] == ["white"]


def test_parepa_round_counts_the_turn_coming_back_to_the_first_player():
    miss = ball("table", cue="white")
    assert play("parepa", [miss])["round"] == 1
    assert play("parepa", [miss, miss])["round"] == 2


def test_klondike_players_level_play_off_six_more_shots():
    six = [ball("pin")] * 6
    v = play("klondike", six + six)
    assert v["playoff"] == ["P1", "P2"] and v["round"] == 2 and v["balls_left"] == 6
    v = play("klondike", six + six + six + [ball("table")] * 6)
    assert v["over"] and v["winner"] == "P1" and v["scores"] == {"P1": 240, "P2": 120}


def test_carombolette_red_respotted_even_into_a_capacity_board():
    # the red drops (and must fit), then goes back on its spot: the hole stays free
    events = [ball(3, first_hit="red", others=[{"ball": "red", "to": 4}]), ball(4, first_hit="red")]
    v = play("carombolette", events, {"capacity": 1})
    assert v["scores"]["P1"] == 3 + 8 + 4 and v["cups_filled"] == [3, 4]


def test_sans_egal_playoff_is_a_round_of_four_balls_each():
    v = play("sans_egal", [ball("back")] * 8)
    assert v["playoff"] == ["P1", "P2"] and v["round"] == 2 and v["balls_left"] == 4
    assert v["on_table"] == {"black": 1} and v["required"] == "black"


def test_monte_carlo_two_players_the_other_wins():
    v = play("monte_carlo", [ball(5)] * 4 + [ball(10)] * 4)
    assert (v["loser"], v["winner"]) == ("P1", "P2")


# ------------------------------------------------ spec sections 5.1 and 3.6, made explicit


def test_parepa_a_winning_shot_that_clears_the_table_leaves_the_balls_in_the_pockets():
    # bagatelle.md 5.1: "a winning shot that clears the table leaves them there: the balls
    # are set up again only for a next player"
    from rules import get as get_game

    g = get_game("parepa")
    numbers = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    shot = {
        "type": "ball",
        "cue": "white",
        "to": 2,
        "first_hit": 10,
        "others": [{"ball": n, "to": 1} for n in numbers],
    }
    state = g.apply(g.initial({"players": ["Ann", "Bob"]}), shot)
    view = g.view(state)
    assert view["over"] is True and view["winner"] == "Ann"
    assert view["scores"]["Ann"] == sum(numbers) + 10 * 1 + 2  # the white counts 0 + pocket
    assert view["pocketed"] == ["white", *numbers]


def test_parepa_a_clearing_shot_short_of_the_target_sets_the_balls_up_for_the_next_player():
    from rules import get as get_game

    g = get_game("parepa")
    shot = {
        "type": "ball",
        "cue": "white",
        "to": "table",
        "first_hit": 10,
        "others": [{"ball": n, "to": 1} for n in (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)],
    }
    view = g.view(g.apply(g.initial({"players": ["Ann", "Bob"], "target": 1000}), shot))
    assert view["over"] is False and view["at_table"] == "Bob"
    assert view["pocketed"] == [] and view["cue_choices"] == ["white"]


def test_mississippi_a_no_cushion_gift_in_a_playoff_goes_to_the_others_in_the_playoff():
    # bagatelle.md 3.6: "with cushion false its value is given to each other participant
    # instead (during a playoff: each other participant in the playoff)"
    from rules import get as get_game

    g = get_game("mississippi")
    state = g.initial({"players": ["Ann", "Bob", "Cat"], "rounds": 1})
    through = {"type": "ball", "arch": 8, "cushion": True}
    back = {"type": "ball", "to": "back"}
    for turn in ([through] + [back] * 8, [through] + [back] * 8, [back] * 9):
        for ball in turn:
            state = g.apply(state, ball)
    view = g.view(state)
    assert view["playoff"] == ["Ann", "Bob"] and view["scores"] == {"Ann": 8, "Bob": 8, "Cat": 0}
    view = g.view(g.apply(state, {"type": "ball", "arch": 5, "cushion": False}))
    assert view["scores"] == {"Ann": 8, "Bob": 13, "Cat": 0}
