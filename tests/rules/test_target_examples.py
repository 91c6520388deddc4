"""The target family: every worked example of the target scoring language and of the 1908 handbook
(cited H + line), and the page's rules game by game, as named tests.

Expected values are worked out by hand from the page and the book, in the comments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import get, replay


def play(
    game: str, setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    g = get(game)
    return g.view(replay(g, setup, list(events)))


def S(*contacts: Any, **fields: Any) -> dict[str, Any]:  # noqa: N802 - a stroke, as on the pad
    """A stroke: the contacts in order, then any other fields."""
    ev: dict[str, Any] = {"type": "stroke"}
    if contacts:
        ev["contacts"] = list(contacts)
    for key, value in fields.items():
        if key == "pots":
            value = [p if isinstance(p, dict) else {"ball": p} for p in value]
        if key == "pins":
            value = [p if isinstance(p, dict) else {"pin": p} for p in value]
        ev[key] = value
    return ev


def P(pin: str, by: str, **more: Any) -> dict[str, Any]:  # noqa: N802
    return {"pin": pin, "by": by, **more}


def proclaim(who: str) -> dict[str, Any]:
    return {"type": "proclaim", "player": who}


def privilege(who: str, **more: Any) -> dict[str, Any]:
    return {"type": "privilege", "player": who, **more}


def retire(who: str) -> dict[str, Any]:
    return {"type": "retire", "player": who}


# =========================================================== the page's own examples


def test_page_setup_example_is_accepted_by_the_three_private_ball_games():
    setup = {"players": ["Ann", "Bob", "Cat"], "private": {"Ann": 9, "Bob": 14, "Cat": 6}}
    for game in ("forty_one_pool", "kelly_pool", "pin_pool"):
        view = play(game, setup, [])
        assert view["at_table"] == "Ann"
        assert view["in_game"] == ["Ann", "Bob", "Cat"]
        assert "private" not in view and "totals" not in view  # secret until the end


def test_page_state_example_is_a_new_kelly_game():
    view = play("kelly_pool", {"players": ["Ann", "Bob"], "private": {"Ann": 3, "Bob": 8}}, [])
    expected = {
        "game": "kelly_pool",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"Ann": 0, "Bob": 0},
        "at_table": "Ann",
        "events": 0,
        "next": "stroke",
        "in_game": ["Ann", "Bob"],
        "pending": None,
        "paid": {"Ann": 0, "Bob": 0},
        "racks": {"Ann": [], "Bob": []},
        "on_table": list(range(1, 16)),
    }
    assert view == expected


def test_page_players_as_a_number_names_them_p1_to_pn():
    view = play("two_pin_pool", {"players": 3}, [])
    assert list(view["scores"]) == ["P1", "P2", "P3"]
    assert play("bottle_pool", {}, [])["in_game"] == ["P1", "P2"]


def test_page_carom_terms_three_balls_touched_make_a_double():
    # "two balls touched make a single carom, all three object balls a double": bull dog,
    # 2 and 3 and 5 touched = 2 caroms, worth 2 in stage 1 (after the opening on the 3)
    view = play("bull_dog_pool", {}, [S(3, 2, 5)])
    assert view["run"] == 2 and view["at_table"] == "P1"


# ==================================================================== forty-one pool

FO = {"players": ["Ann", "Bob", "Cat"], "private": {"Ann": 18, "Bob": 6, "Cat": 10}}


def test_forty_one_exactly_41_ends_it_and_the_owing_player_is_the_loser():
    # H 1264: exactly 41 declares pool; the most distant is defeated; H 1276: owing a
    # ball is worse than having none, which is worse than having one.
    view = play(
        "forty_one_pool",
        FO,
        [
            S(15, pots=[15]),  # Ann 18 + 15 = 33
            S(1, pots=[1]),  # Bob 6 + 1 = 7
            S(),  # Cat misses: a scratch, nothing to give: owes 1
            S(8, pots=[8]),  # Ann 33 + 8 = 41
        ],
    )
    assert view["over"] and view["winner"] == "Ann"
    assert view["loser"] == "Cat"  # Bob has a ball; Cat owes one
    assert view["scores"] == {"Ann": 23, "Bob": 1, "Cat": 0}
    assert view["owed"] == {"Ann": 0, "Bob": 0, "Cat": 1}
    assert view["private"] == {"Ann": 18, "Bob": 6, "Cat": 10}
    assert view["totals"] == {"Ann": 41, "Bob": 7, "Cat": 10}
    assert view["at_table"] is None and view["next"] == "none"


def test_forty_one_one_stroke_a_turn():
    # H 1262: one shot to an inning, counting all the balls of that shot
    view = play("forty_one_pool", FO, [S(3, 4, pots=[3, 4])])
    assert view["racks"]["Ann"] == [3, 4] and view["at_table"] == "Bob"


def test_forty_one_scratch_gives_back_the_ball_he_prefers():
    # H 1268-1270: a scratch owes a ball; with more than one in the rack he spots the one
    # he prefers
    events = [S(3, 5, pots=[3, 5]), S(), S(), S(pots=[{"ball": "cue"}], spot=[5])]
    view = play("forty_one_pool", FO, events)
    # Ann pots 3 and 5; Bob and Cat miss (each owes 1, nothing to give); Ann goes in-off
    # without touching a ball: a scratch; she gives the 5
    assert view["racks"]["Ann"] == [3]
    assert view["owed"] == {"Ann": 0, "Bob": 1, "Cat": 1}
    assert 5 in view["on_table"] and 3 not in view["on_table"]
    assert view["scores"]["Ann"] == 3


def test_forty_one_scratch_without_spot_gives_the_lowest():
    view = play("forty_one_pool", FO, [S(3, 5, pots=[3, 5]), S(), S(), S(7, fouls=["no_cushion"])])
    assert view["racks"]["Ann"] == [5] and view["owed"]["Ann"] == 0


def test_forty_one_owed_ball_is_paid_from_the_next_balls_pocketed():
    # H 1270: with none in the rack he spots the first he pockets; pocketing more than one
    # on that shot, he spots the one he elects
    view = play("forty_one_pool", FO, [S(), S(), S(), S(4, 7, pots=[4, 7], spot=[7])])
    assert view["racks"]["Ann"] == [4] and view["owed"]["Ann"] == 0
    assert view["scores"]["Ann"] == 4


def test_forty_one_balls_pocketed_on_a_scratch_are_spotted_and_he_owes_one():
    view = play("forty_one_pool", FO, [S(9, pots=[9, "cue"])])
    assert view["racks"]["Ann"] == [] and view["owed"]["Ann"] == 1
    assert 9 in view["on_table"]


def test_forty_one_other_fouls_void_the_stroke():
    view = play("forty_one_pool", FO, [S(9, pots=[9], fouls=["feet"])])
    assert view["racks"]["Ann"] == [] and view["owed"]["Ann"] == 0
    assert view["at_table"] == "Bob" and 9 in view["on_table"]


def test_forty_one_burst_spots_every_ball_and_offers_a_new_small_ball():
    # H 1272: more than 41 is a burst; all his balls are spotted; he may have a new ball
    events = [S(15, pots=[15]), S(), S(), S(9, pots=[9])]  # Ann 18 + 15 + 9 = 42
    view = play("forty_one_pool", FO, events)
    assert view["racks"]["Ann"] == [] and view["scores"]["Ann"] == 0
    assert {9, 15} <= set(view["on_table"])
    view = play("forty_one_pool", FO, [*events, privilege("Ann", drawn=7)])
    assert view["paid"]["Ann"] == 0  # forty-one's privilege is free
    ended = play(
        "forty_one_pool",
        FO,
        [*events, privilege("Ann", drawn=7), S(), S(), S(15, 14, 5, pots=[15, 14, 5])],
    )
    # her new ball is 7: 7 + 34 = 41
    assert ended["winner"] == "Ann" and ended["private"]["Ann"] == 7


def test_forty_one_empty_table_ends_it_nearest_wins():
    # H 1266: pool is also declared when all balls are pocketed; nearest wins, most
    # distant loses (a target of 200 lets the table empty)
    setup = {"players": ["Ann", "Bob"], "private": {"Ann": 6, "Bob": 7}, "target": 200}
    events = [
        S(1, 2, 3, 4, 5, pots=[1, 2, 3, 4, 5]),  # Ann 15
        S(6, 7, 8, 9, 10, pots=[6, 7, 8, 9, 10]),  # Bob 40
        S(11, 12, 13, 14, 15, pots=[11, 12, 13, 14, 15]),  # Ann 15 + 65 = 80
    ]
    view = play("forty_one_pool", setup, events)
    assert view["over"] and view["winner"] == "Ann" and view["loser"] == "Bob"
    assert view["totals"] == {"Ann": 86, "Bob": 47}
    assert view["on_table"] == []


# ======================================================================== kelly pool

KP = {"players": ["Ann", "Bob", "Cat"], "private": {"Ann": 9, "Bob": 5, "Cat": 12}}


def test_kelly_small_ball_9_needs_22_points():
    # H 1461: "if the second small ball ... is marked No. 9, he must gain twenty-two
    # points from the balls on the table"
    view = play("kelly_pool", KP, [S(15, 7, pots=[15, 7]), proclaim("Ann")])
    assert view["over"] and view["winner"] == "Ann"
    assert view["scores"]["Ann"] == 22 and view["totals"]["Ann"] == 31


def test_kelly_21_points_on_ball_9_is_not_pool():
    from rules import RuleError

    with pytest.raises(RuleError) as info:
        play("kelly_pool", KP, [S(14, 7, pots=[14, 7]), proclaim("Ann")])
    assert (info.value.code, info.value.index) == ("not_now", 1)


def test_kelly_plays_on_while_pocketing():
    view = play("kelly_pool", KP, [S(2, pots=[2]), S(3, pots=[3]), S(4)])
    assert view["racks"]["Ann"] == [2, 3] and view["at_table"] == "Bob"


def test_kelly_proclaim_late_waits_for_his_turn_to_come_round():
    # H 1473: he must proclaim before the next stroke; else only when his turn comes round
    from rules import RuleError

    reach = [S(15, 7, pots=[15, 7]), S(4)]  # Ann makes 31, then plays on and pots nothing
    with pytest.raises(RuleError) as info:
        play("kelly_pool", KP, [*reach, proclaim("Ann")])
    assert info.value.code == "not_now"
    view = play("kelly_pool", KP, [*reach, S(4), S(4), proclaim("Ann")])
    assert view["winner"] == "Ann"


def test_kelly_another_player_proclaiming_properly_meanwhile_wins():
    # H 1473: meanwhile anyone who makes the number and proclaims it properly wins
    events = [S(15, 7, pots=[15, 7]), S(4), S(14, 12, pots=[14, 12]), proclaim("Bob")]
    view = play("kelly_pool", KP, events)  # Bob 5 + 26 = 31
    assert view["winner"] == "Bob" and view["totals"]["Ann"] == 31


def test_kelly_scratch_forfeits_three_and_spots_the_balls():
    # H 1471, 1489: pocketing with the cue ball in too: the balls go back, three forfeited
    view = play("kelly_pool", KP, [S(4, pots=[4, "cue"])])
    assert view["scores"]["Ann"] == -3 and 4 in view["on_table"]
    assert view["at_table"] == "Bob"


def test_kelly_burst_must_claim_the_privilege_or_retire():
    # H 1463-1467: over 31 is a burst: out, unless the privilege is claimed; a new ball
    # is drawn and he keeps the old or the new
    burst = [S(15, 10, pots=[15, 10])]  # Ann 9 + 25 = 34
    view = play("kelly_pool", KP, burst)
    assert view["pending"] == "Ann" and view["next"] == "decide"
    assert view["scores"]["Ann"] == 0 and view["racks"]["Ann"] == []
    assert view["at_table"] == "Bob" and {10, 15} <= set(view["on_table"])
    view = play("kelly_pool", KP, [*burst, privilege("Ann", drawn=3, keep="old")])
    assert view["pending"] is None and view["paid"]["Ann"] == 1 and view["next"] == "stroke"
    view = play("kelly_pool", KP, [*burst, retire("Ann")])
    assert view["in_game"] == ["Bob", "Cat"] and not view["over"]


def test_kelly_privilege_keeps_his_place_in_the_order():
    # H 1467-1469: "if No. 2 bursts, he appears again under privilege as No. 2"
    events = [S(1), S(15, 14, pots=[15, 14]), privilege("Bob", drawn=2)]  # Bob 5 + 29
    view = play("kelly_pool", KP, events)
    assert view["in_game"] == ["Ann", "Bob", "Cat"] and view["at_table"] == "Cat"
    view = play("kelly_pool", KP, [*events, S(1), S(1)])
    assert view["at_table"] == "Bob"


def test_kelly_out_of_turn_count_is_void_but_a_burst_stands_unless_called():
    # H 1475
    view = play("kelly_pool", KP, [S(6, pots=[6], player="Cat")])
    assert view["scores"]["Cat"] == 0 and 6 in view["on_table"] and view["at_table"] == "Ann"
    view = play("kelly_pool", KP, [S(15, 6, pots=[15, 6], player="Cat")])  # 12 + 21
    assert view["pending"] == "Cat" and view["at_table"] == "Ann"
    view = play("kelly_pool", KP, [S(15, 6, pots=[15, 6], player="Cat", called=True)])
    assert view["pending"] is None


def test_kelly_last_player_left_wins():
    two = {"players": ["Ann", "Bob"], "private": {"Ann": 9, "Bob": 5}}
    view = play("kelly_pool", two, [S(15, 10, pots=[15, 10]), retire("Ann")])
    assert view["over"] and view["winner"] == "Bob"


# ========================================================================== pin pool

PP = {"players": ["Ann", "Bob"], "private": {"Ann": 16, "Bob": 3}}
ALL_PINS = ["head", "left", "right", "foot", "middle"]


def test_pin_pool_ball_16_needs_15():
    # H 1539: "a player drawing the 16 ball needs 15 for pool": all five pins, 1+2+3+4+5
    view = play("pin_pool", PP, [S("red", pins=ALL_PINS), proclaim("Ann")])
    assert view["winner"] == "Ann" and view["totals"]["Ann"] == 31


def test_pin_pool_natural_wins_whatever_the_count():
    # H 1555: the four outside pins down, the centre pin standing
    view = play("pin_pool", PP, [S("red", pins=["head", "left", "right", "foot"])])
    assert view["over"] and view["winner"] == "Ann" and view["scores"]["Ann"] == 0


def test_pin_pool_pins_before_a_ball_do_not_count():
    # H 1549-1551
    view = play("pin_pool", PP, [S("red", pins_before_ball=["middle"], pins=["head"])])
    assert view["scores"]["Ann"] == 1 and view["at_table"] == "Bob"


def test_pin_pool_burst_goes_back_to_the_private_ball():
    # H 1559: over 31, his score is reduced to the number on his ball
    events = [S("red", pins=["foot", "left"]), S("red"), S("red", pins=["middle", "right"])]
    view = play("pin_pool", PP, events)  # 16 + 7 = 23; then + 7 = 30; no burst
    assert view["scores"]["Ann"] == 14
    events = [S("red", pins=["foot", "left", "middle"]), S("red"), S("white", pins=["foot"])]
    view = play("pin_pool", PP, events)  # 16 + 12 = 28; + 4 = 32: burst
    assert view["scores"]["Ann"] == 0 and view["at_table"] == "Bob"
    view = play("pin_pool", PP, [*events, privilege("Ann", drawn=2)])
    assert view["paid"]["Ann"] == 1


def test_pin_pool_interference_bursts_regardless_of_count():
    # H 1575
    view = play("pin_pool", PP, [S("red", pins=["head"]), S(), S("red", fouls=["interference"])])
    assert view["scores"]["Ann"] == 0


def test_pin_pool_void_strokes_count_nothing():
    # H 1583, 1589
    view = play("pin_pool", PP, [S("red", pins=["middle"], fouls=["pins_not_set"])])
    assert view["scores"]["Ann"] == 0 and view["at_table"] == "Bob"


def test_pin_pool_out_of_turn_bursts_unless_called():
    # H 1573: the count is void, but a burst is scored against him (he may then draw)
    setup = {"players": ["Ann", "Bob"], "private": {"Ann": 16, "Bob": 30}, "private_range": [1, 30]}
    burst = [S("red", pins=["middle"], player="Bob")]  # 30 + 5: over
    view = play("pin_pool", setup, [*burst, privilege("Bob", drawn=1)])
    assert view["paid"]["Bob"] == 1 and view["at_table"] == "Ann"
    from rules import RuleError

    for stroke in (
        S("red", pins=["head"], player="Bob"),  # 31: the count is void, no burst
        S("red", pins=["middle"], player="Bob", called=True),  # called: cannot burst
    ):
        with pytest.raises(RuleError) as info:
            play("pin_pool", setup, [stroke, privilege("Bob", drawn=1)])
        assert info.value.code == "not_now"
        assert play("pin_pool", setup, [stroke])["scores"]["Bob"] == 0


def test_pin_pool_privilege_only_before_his_next_stroke():
    from rules import RuleError

    events = [S("red", pins=["foot", "left", "middle"]), S("red"), S("white", pins=["foot"])]
    with pytest.raises(RuleError) as info:
        play("pin_pool", PP, [*events, S(), S(), privilege("Ann", drawn=2)])
    assert info.value.code == "not_now"


# ======================================================================= bottle pool

BP = {"players": ["Ann", "Bob"]}


def test_bottle_pool_counting():
    # H 1501: a carom 1; the 1 ball 1; the 2 ball 2; carom and bottle upset 5
    view = play(
        "bottle_pool",
        BP,
        [
            S(1, 2),  # carom: 1
            S(1, pots=[1]),  # 1 ball: 1
            S(2, pots=[2]),  # 2 ball: 2
            S(1, "bottle", bottle={"to": "over", "by": "cue"}),  # bottle: 5
            S(1, 2, "bottle", pots=[2], bottle={"to": "cushion", "by": "cue"}),  # 1+2+5
        ],
    )
    assert view["scores"]["Ann"] == 17 and view["at_table"] == "Ann"


def test_bottle_pool_burst_starts_a_new_string_with_the_excess():
    # H 1510: more than 31 bursts; the excess counts on his new string; the next plays
    events = [S(1, "bottle", bottle={"to": "over", "by": "cue"})] * 6  # 30
    events += [S(1, 2, pots=[2])]  # 33: 2 over
    view = play("bottle_pool", BP, events)
    assert view["scores"]["Ann"] == 2 and view["at_table"] == "Bob"


def test_bottle_pool_seating_the_bottle_wins_and_the_lowest_loses():
    # H 1511, 1508
    setup = {"players": ["Ann", "Bob", "Cat"]}
    events = [S(), S(1, 2), S(2, "bottle", bottle={"to": "seated", "by": "cue"})]
    view = play("bottle_pool", setup, events)
    # Ann misses: -1; Bob caroms: 1, plays on; Bob seats the bottle
    assert view["over"] and view["winner"] == "Bob" and view["loser"] == "Ann"


def test_bottle_pool_object_ball_touching_the_bottle_first_spoils_the_upset():
    # H 1512
    view = play(
        "bottle_pool",
        BP,
        [S(1, "bottle", bottle={"to": "over", "by": "cue", "object_touched": True})],
    )
    assert view["scores"]["Ann"] == 0 and view["at_table"] == "Bob"


def test_bottle_pool_bottle_off_the_table_forfeits_a_point():
    # H 1513
    view = play("bottle_pool", BP, [S(1, "bottle", bottle={"to": "off", "by": "cue"})])
    assert view["scores"]["Ann"] == -1 and view["at_table"] == "Bob"


def test_bottle_pool_object_ball_sends_bottle_to_cushion_loses_the_shot_only():
    # H 1525
    view = play("bottle_pool", BP, [S(1, 2, bottle={"to": "cushion", "by": "object"})])
    assert view["scores"]["Ann"] == 0 and view["at_table"] == "Bob"


def test_bottle_pool_fouls_forfeit_a_point():
    # H 1521: (1) a miss, (3) the bottle by his cue, (4) the cue ball in a pocket,
    # (6) the bottle with the cue ball before an object ball, (7) no foot on the floor
    for stroke in (
        S(),
        S(1, bottle={"to": "over", "by": "player"}),
        S(1, pots=["cue"]),
        S("bottle", 1, bottle={"to": "over", "by": "cue"}),
        S(1, 2, fouls=["feet"]),
    ):
        view = play("bottle_pool", BP, [stroke])
        assert view["scores"]["Ann"] == -1 and view["at_table"] == "Bob", stroke


def test_bottle_pool_proclaim():
    # H 1529
    events = [S(1, "bottle", bottle={"to": "over", "by": "cue"})] * 6 + [S(1, pots=[1])]
    view = play("bottle_pool", BP, [*events, proclaim("Ann")])
    assert view["winner"] == "Ann" and view["loser"] == "Bob"


# ==================================================================== parisian 31

PA = {"players": ["Ann", "Bob"]}


def test_parisian_cups_add_up_one_stroke_a_turn():
    view = play("parisian_31_pool", PA, [S(cup=12), S(cup=7), S(cup=None)])
    assert view["scores"] == {"Ann": 12, "Bob": 7} and view["at_table"] == "Bob"


def test_parisian_burst_pays_to_buy_back_in():
    # H 1855, 1861
    events = [S(cup=12), S(cup=1), S(cup=12), S(cup=1), S(cup=8)]  # Ann 32
    view = play("parisian_31_pool", PA, events)
    assert view["scores"]["Ann"] == 0 and view["pending"] == "Ann"
    view = play("parisian_31_pool", PA, [*events, privilege("Ann")])
    assert view["paid"]["Ann"] == 1 and view["at_table"] == "Bob" and view["next"] == "stroke"


def test_parisian_pool_called_at_his_turn_without_striking():
    # H 1859: he may call pool without striking a ball when his turn comes again
    events = [S(cup=12), S(cup=1), S(cup=12), S(cup=1), S(cup=7), S(cup=1)]  # Ann 31
    view = play("parisian_31_pool", PA, [*events, proclaim("Ann")])
    assert view["winner"] == "Ann"


def test_parisian_out_of_turn_bursts_unless_called_by_the_game_keeper():
    # H 1863
    events = [S(cup=12), S(cup=12), S(cup=12), S(cup=12)]  # 24 each, Ann to play
    view = play("parisian_31_pool", PA, [*events, S(cup=10, player="Bob")])
    assert view["pending"] == "Bob" and view["scores"]["Bob"] == 0
    view = play("parisian_31_pool", PA, [*events, S(cup=10, player="Bob", called=True)])
    assert view["pending"] is None and view["scores"]["Bob"] == 24 and view["at_table"] == "Ann"


# ===================================================================== skittle pool

SK = {"players": ["Ann", "Bob"]}


def test_skittle_white_pins_count_after_a_ball():
    # H 1427: white pins from 3 to 10; w4 6, w6 8, w8 10 (the book's named pins)
    view = play("skittle_pool", SK, [S("red", pins=["w4", "w6", "w8"])])
    assert view["scores"]["Ann"] == 24 and view["at_table"] == "Bob"


def test_skittle_black_pin_rubs_out_the_score():
    # H 1439
    events = [S("red", pins=["w8"]), S("red"), S("red", pins=["w1", "b2"])]
    view = play("skittle_pool", SK, events)
    assert view["scores"]["Ann"] == 0 and view["pending"] == "Ann"
    view = play("skittle_pool", SK, [*events, privilege("Ann")])
    assert view["paid"]["Ann"] == 1


def test_skittle_black_pin_on_the_first_stroke_costs_nothing_but_scores_nothing():
    # H 1441
    view = play("skittle_pool", SK, [S("red", pins=["w8", "b1"])])
    assert view["scores"]["Ann"] == 0 and view["pending"] is None


def test_skittle_third_miss_in_a_row_is_a_burst():
    # H 1445
    events = [S("red", pins=["w8"]), S(), S(), S(), S()]
    view = play("skittle_pool", SK, events)
    assert view["misses"]["Ann"] == 2 and view["scores"]["Ann"] == 10
    view = play("skittle_pool", SK, [*events, S("red"), S()])
    assert view["scores"]["Ann"] == 0 and view["pending"] == "Ann"
    assert view["misses"]["Ann"] == 0


def test_skittle_fifty_or_more_wins():
    # H 1426: fifty points or more
    events = [S("red", pins=["w8", "w7", "w6"]), S(), S("red", pins=["w8", "w7", "w6"])]
    view = play("skittle_pool", SK, events)  # 27 + 27 = 54
    assert view["over"] and view["winner"] == "Ann" and view["scores"]["Ann"] == 54


def test_skittle_out_of_turn_loses_the_points():
    # H 1451
    view = play("skittle_pool", SK, [S("red", pins=["w8"], player="Bob")])
    assert view["scores"]["Bob"] == 0 and view["at_table"] == "Ann"


def test_skittle_white_pin_before_a_ball_is_foul():
    # H 1455
    view = play("skittle_pool", SK, [S(), S(), S("red", pins_before_ball=["w1"], pins=["w8"])])
    assert view["scores"]["Ann"] == 0 and view["misses"]["Ann"] == 0


# ================================================================ red, white and blue

RW = {"players": ["Ann", "Bob"]}


def test_rwb_red_and_white_on_one_stroke_then_only_blue_is_needed():
    # H 1603: "Should the red and the white pins be made on such a stroke, it would only
    # be necessary to obtain the blue pin to win the game"
    view = play("red_white_blue", RW, [S("blue", pins=[P("red", "red"), P("white", "white")])])
    assert view["pins_held"]["Ann"] == ["red", "white"] and view["needs"]["Ann"] == "blue"
    assert view["at_table"] == "Ann" and view["scores"]["Ann"] == 2
    view = play(
        "red_white_blue",
        RW,
        [
            S("blue", pins=[P("red", "red"), P("white", "white")]),
            S("red", pins=[P("blue", "blue")]),
        ],
    )
    assert view["over"] and view["winner"] == "Ann"


def test_rwb_white_and_blue_cannot_be_scored_before_the_red():
    # H 1603: "but the white and blue pins could not be scored unless the red had first
    # been knocked down"; H 1601, 1645: a burst, and a chip
    view = play("red_white_blue", RW, [S("red", pins=[P("white", "white"), P("blue", "blue")])])
    assert view["pins_held"]["Ann"] == [] and view["at_table"] == "Bob"
    assert view["paid"]["Ann"] == 1


def test_rwb_burst_loses_the_pins_held():
    events = [S("white", pins=[P("red", "red")]), S("red", pins=[P("blue", "blue")])]
    view = play("red_white_blue", RW, events)
    assert view["pins_held"]["Ann"] == [] and view["needs"]["Ann"] == "red"


def test_rwb_pin_by_the_wrong_ball_is_a_burst():
    view = play("red_white_blue", RW, [S("white", pins=[P("red", "white")])])
    assert view["at_table"] == "Bob" and view["paid"]["Ann"] == 1


def test_rwb_pin_knocked_before_a_ball_is_foul_and_no_burst():
    # H 1605, 1629: no count, no burst, a chip
    events = [S("white", pins=[P("red", "red")]), S(pins_before_ball=["white"])]
    view = play("red_white_blue", RW, events)
    assert view["pins_held"]["Ann"] == ["red"] and view["paid"]["Ann"] == 1
    assert view["at_table"] == "Bob"


def test_rwb_pin_knocked_by_another_pin_is_void_with_a_chip():
    # H 1605, 1639
    events = [S("white", pins=[P("red", "red"), P("white", "pin")])]
    view = play("red_white_blue", RW, events)
    assert view["pins_held"]["Ann"] == [] and view["paid"]["Ann"] == 1


def test_rwb_out_of_turn_and_prompting_cost_a_chip():
    # H 1641, 1643
    events = [S("white", pins=[P("red", "red")], player="Bob"), {"type": "prompt", "player": "Bob"}]
    view = play("red_white_blue", RW, events)
    assert view["paid"]["Bob"] == 2 and view["pins_held"]["Bob"] == [] and view["at_table"] == "Ann"


def test_rwb_chips_are_off_with_chip_fines_false():
    view = play("red_white_blue", {**RW, "chip_fines": False}, [S()])
    assert view["paid"]["Ann"] == 0


def test_chicago_blue_and_white_then_only_red_is_needed():
    # H 1671: "Should the blue and the white pins be made on such a shot, it is only
    # necessary to obtain the red pin to win"
    events = [S("red", pins=[P("white", "white"), P("blue", "blue")])]
    view = play("red_white_blue_chicago", RW, events)
    assert view["pins_held"]["Ann"] == ["blue", "white"] and view["needs"]["Ann"] == "red"
    view = play("red_white_blue_chicago", RW, [*events, S("white", pins=[P("red", "red")])])
    assert view["winner"] == "Ann"


def test_chicago_red_and_white_need_the_blue_first():
    # H 1671-1673: "the red and white pins could not be made unless the blue had first
    # been scored"
    view = play(
        "red_white_blue_chicago", RW, [S("blue", pins=[P("red", "red"), P("white", "white")])]
    )
    assert view["pins_held"]["Ann"] == [] and view["at_table"] == "Bob"
    assert view["paid"]["Ann"] == 0  # no chips in Chicago by default


def test_chicago_a_pin_already_held_is_a_burst():
    # H 1669
    events = [
        S("red", pins=[P("blue", "blue")]),
        S("red", pins=[P("blue", "blue"), P("red", "red")]),
    ]
    view = play("red_white_blue_chicago", RW, events)
    assert view["pins_held"]["Ann"] == [] and view["at_table"] == "Bob"


# ======================================================================= two-pin pool

TP = {"players": ["Ann", "Bob", "Cat"], "unit": 5, "pools": 2}


def test_two_pin_white_pin_everyone_pays_the_striker_and_he_plays_on():
    # H 1707, 1713-1715
    view = play("two_pin_pool", TP, [S("red", pins=["white"])])
    assert view["scores"] == {"Ann": 10, "Bob": -5, "Cat": -5}
    assert view["pools"] == 1 and view["at_table"] == "Ann" and not view["over"]


def test_two_pin_black_pin_alone_the_striker_pays_everyone():
    # H 1709
    view = play("two_pin_pool", TP, [S("red", pins=["black"])])
    assert view["scores"] == {"Ann": -10, "Bob": 5, "Cat": 5} and view["at_table"] == "Bob"


def test_two_pin_both_pins_is_a_stand_off():
    # H 1711
    view = play("two_pin_pool", TP, [S("red", pins=["black", "white"])])
    assert view["scores"] == {"Ann": 0, "Bob": 0, "Cat": 0} and view["at_table"] == "Bob"


def test_two_pin_game_ends_after_the_set_number_of_pools():
    view = play("two_pin_pool", TP, [S("red", pins=["white"]), S(), S("red", pins=["white"])])
    # Ann +10, then misses; Bob +10: Ann 5, Bob 5, Cat -10: level at the top
    assert view["over"] and view["shared"] and view["winner"] is None
    assert view["scores"] == {"Ann": 5, "Bob": 5, "Cat": -10} and view["pools"] == 2


def test_two_pin_time_up_ends_on_the_balances():
    view = play("two_pin_pool", {"pools": None}, [S("red", pins=["black"]), {"type": "time_up"}])
    assert view["winner"] == "P2" and view["scores"] == {"P1": -1, "P2": 1}


# ====================================================================== bouchon pool

BO = {"players": ["Ann", "Bob", "Cat"], "stake": 10}


def test_bouchon_banked_object_ball_fells_the_pool_cork_and_wins_the_pool():
    # H 1743, 1757
    view = play("bouchon_pool", BO, [S("red", "cushion", pins=[P("pool", "object")])])
    # an object ball to a cushion, then onto the cork: enter cushion true; here the cue
    # ball is banked: contacts cushion before the ball
    assert not view["over"]
    view = play("bouchon_pool", BO, [S("cushion", "red", pins=[P("pool", "object")])])
    assert view["over"] and view["winner"] == "Ann"
    assert view["scores"] == {"Ann": 20, "Bob": -10, "Cat": -10} and view["pool"] == 0
    view = play("bouchon_pool", BO, [S("red", pins=[P("pool", "object")], cushion=True)])
    assert view["winner"] == "Ann"


def test_bouchon_three_corks_down_cost_three_penalties():
    # H 1749: "should the striker knock down three corks he must pay three penalties"
    events = [S("red", pins=[P("pool", "object"), P("head", "object"), P("foot", "pin")])]
    view = play("bouchon_pool", BO, events)
    assert view["pending"] == "Ann" and view["next"] == "decide" and view["at_table"] == "Bob"
    view = play("bouchon_pool", BO, [*events, privilege("Ann")])
    assert view["paid"]["Ann"] == 30 and view["pool"] == 60
    assert view["scores"] == {"Ann": -40, "Bob": -10, "Cat": -10}
    assert sum(view["scores"].values()) + view["pool"] == 0


def test_bouchon_pool_cork_touching_its_spot_or_money_off_are_penalties():
    # H 1749
    view = play(
        "bouchon_pool", BO, [S("red", pins=[P("pool", "object", clear=False)], cushion=True)]
    )
    assert view["pending"] == "Ann" and not view["over"]
    view = play("bouchon_pool", BO, [S("red", fouls=["money_off"]), privilege("Ann")])
    assert view["paid"]["Ann"] == 10


def test_bouchon_miss_buys_a_new_life_or_retires():
    # H 1747, 1751
    view = play("bouchon_pool", BO, [S(), retire("Ann")])
    assert view["in_game"] == ["Bob", "Cat"] and view["pending"] is None
    assert view["paid"]["Ann"] == 0


def test_bouchon_last_player_left_takes_the_pool():
    view = play("bouchon_pool", BO, [retire("Bob"), retire("Cat")])
    assert view["over"] and view["winner"] == "Ann" and view["scores"]["Ann"] == 20


# =================================================================== bull dog pool


def test_bull_dog_opening_stroke_must_take_the_three_or_is_played_again():
    # H 1767
    view = play("bull_dog_pool", {}, [S(2), S()])
    assert view["next"] == "opening" and view["at_table"] == "P1" and view["scores"]["P1"] == 0
    view = play("bull_dog_pool", {}, [S(2), S(3, pots=[3])])
    assert view["run"] == 3 and view["next"] == "stroke"


def _climb(points: int, first: int, other: int) -> list[dict[str, Any]]:
    """Bull dog / cow-boy: the first player runs ``points`` in one inning (the opening on
    the 3 pocketing it, then the 5 pocketed while it fits under ``first``, then single
    caroms off the 5 and ``other``); the run stays open."""
    events = [S(3, pots=[3])]
    made = 3
    while made + 5 <= min(points, first):
        events.append(S(5, pots=[5]))
        made += 5
    while made < points:
        events.append(S(5, other))
        made += 1
    return events


def _to(points: int) -> list[dict[str, Any]]:
    """Bull dog: P1 runs ``points`` (below 50) and banks them with a safety; P2 plays a
    safety; P1 is at the table again."""
    return [*_climb(points, 40, 2), S(5), S(2)]


def test_bull_dog_overrunning_forty_loses_the_inning():
    # H 1773: the forty must be made exactly; running over loses all in that inning
    events = _to(38)  # P1 38 banked; P2 plays a safety (worth 0)
    view = play("bull_dog_pool", {}, [*events, S(5, pots=[5])])  # 38 + 5 = 43
    assert view["scores"]["P1"] == 38 and view["at_table"] == "P2"


def test_bull_dog_stage_two_counts_caroms_only_and_a_pot_loses_a_point():
    # H 1771, 1773, 1777: in the ten, pocketing is an overrun, the run lost and one
    # point off his string
    events = _to(42)
    view = play("bull_dog_pool", {}, [*events, S(5, 2, pots=[2])])
    assert view["scores"]["P1"] == 41 and view["at_table"] == "P2"
    view = play("bull_dog_pool", {}, [*events, S(5, 2)])
    assert view["run"] == 1 and view["stage"] == 2


def test_bull_dog_last_shot_into_the_called_pocket_off_the_selected_ball():
    # H 1775: hits any ball he selects and pockets the cue ball in the pocket called; if
    # he misses, his next shot must be off the ball first selected
    events = _climb(50, 40, 2)  # 40 exactly, then ten caroms: 50 in the run
    at_50 = play("bull_dog_pool", {}, events)
    assert at_50["at_table"] == "P1" and at_50["next"] == "call" and at_50["stage"] == 3
    assert at_50["run"] == 50 and at_50["selected"]["P1"] is None
    fail = [*events, S(5, call="top_left", pots=[{"ball": "cue", "pocket": "top_right"}])]
    view = play("bull_dog_pool", {}, fail)  # wrong pocket: the 5 is now his ball; banked
    assert view["selected"]["P1"] == 5 and view["at_table"] == "P2"
    assert view["scores"]["P1"] == 50
    wrong_ball = [*fail, S(2), S(2, call="top_left", pots=[{"ball": "cue", "pocket": "top_left"}])]
    assert not play("bull_dog_pool", {}, wrong_ball)["over"]
    win = [*fail, S(2), S(5, call="top_left", pots=[{"ball": "cue", "pocket": "top_left"}])]
    view = play("bull_dog_pool", {}, win)
    assert view["over"] and view["winner"] == "P1" and view["scores"]["P1"] == 50


def test_bull_dog_ball_off_the_table_loses_the_shot_but_keeps_the_run():
    # H 1779
    view = play("bull_dog_pool", {}, [S(3, pots=[3]), S(5, 2, pots=[2], off_table=[5])])
    assert view["scores"]["P1"] == 3 and view["at_table"] == "P2"


# ===================================================================== cow-boy pool


def _cow(points: int) -> list[dict[str, Any]]:
    """Cow-boy: P1 runs ``points`` (below 100), banks them; P2 plays a safety."""
    return [*_climb(points, 90, 1), S(5), S(1)]


def test_cowboy_case_a_85_pockets_the_5_and_caroms():
    # H 1835-1837: hand out, the run forfeited
    view = play("cowboy_pool", {}, [*_cow(85), S(5, 1, pots=[5])])
    assert view["scores"]["P1"] == 85 and view["at_table"] == "P2"


def test_cowboy_case_b_99_caroms_and_goes_in_off():
    # H 1839-1841
    view = play("cowboy_pool", {}, [*_cow(99), S(3, 1, pots=["cue"])])
    assert view["scores"]["P1"] == 99 and view["at_table"] == "P2"


def test_cowboy_case_c_99_caroms_then_hits_the_3_only():
    # H 1843-1845: the carom makes 100 (the run is 1); the next stroke must take the 1
    events = [*_cow(99), S(3, 1)]
    assert play("cowboy_pool", {}, events)["next"] == "call"
    view = play("cowboy_pool", {}, [*events, S(3, call="top_left")])
    assert view["scores"]["P1"] == 99 and view["at_table"] == "P2"


def test_cowboy_case_d_89_scores_a_double():
    # H 1847-1849
    view = play("cowboy_pool", {}, [*_cow(89), S(1, 3, 5)])
    assert view["scores"]["P1"] == 89 and view["at_table"] == "P2"


def test_cowboy_the_101st_point_off_the_1_ball_into_the_called_pocket():
    # H 1807
    events = [*_cow(99), S(3, 1)]
    view = play(
        "cowboy_pool",
        {},
        [*events, S(1, call="baulk_left", pots=[{"ball": "cue", "pocket": "baulk_left"}])],
    )
    assert view["over"] and view["winner"] == "P1" and view["scores"]["P1"] == 101


def test_cowboy_cue_ball_pocketed_on_a_miss_twice_forfeits_the_game():
    # H 1815
    setup = {"players": ["Ann", "Bob", "Cat"]}
    events = [S(3), S(pots=["cue"]), S(1), S(1), S(pots=["cue"])]
    view = play("cowboy_pool", setup, events)
    assert view["in_game"] == ["Ann", "Cat"] and view["at_table"] == "Cat"


def test_cowboy_opening_stroke_must_take_the_three():
    # H 1803
    view = play("cowboy_pool", {}, [S(5, pots=[5])])
    assert view["scores"]["P1"] == 0 and view["at_table"] == "P2" and view["next"] == "stroke"


def test_cowboy_push_is_allowed_in_the_first_ninety_only():
    # H 1825
    view = play("cowboy_pool", {}, [S(3, 1, fouls=["push"])])
    assert view["run"] == 1
    view = play("cowboy_pool", {}, [*_cow(90), S(3, 1, fouls=["push"])])
    assert view["scores"]["P1"] == 90 and view["at_table"] == "P2"


# ============================================================== ends the page names


def test_kelly_empty_table_ends_it_for_the_player_nearest_the_target():
    # the page: after a stroke, no object ball left: the player in the game nearest wins
    setup = {"players": ["Ann", "Bob"], "private": {"Ann": 1, "Bob": 2}, "target": 200}
    events = [
        S(*range(1, 8), pots=list(range(1, 8))),  # Ann 28, plays on
        S(15),  # Ann pots nothing: table to Bob
        S(*range(8, 16), pots=list(range(8, 16))),  # Bob 92: the table is empty
    ]
    view = play("kelly_pool", setup, events)
    assert view["over"] and view["winner"] == "Bob" and view["on_table"] == []
    assert view["totals"] == {"Ann": 29, "Bob": 94}


def test_kelly_empty_table_with_equal_distances_is_shared():
    setup = {"players": ["Ann", "Bob"], "private": {"Ann": 1, "Bob": 3}, "target": 200}
    rest = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11]
    events = [
        S(15, 14, 13, 12, 7, pots=[15, 14, 13, 12, 7]),  # Ann 61: total 62
        S(1),  # table to Bob
        S(*rest, pots=rest),  # Bob 59: total 62, the table empty
    ]
    view = play("kelly_pool", setup, events)
    assert view["over"] and view["shared"] and view["winner"] is None


def test_bottle_pool_loser_is_null_when_two_share_the_lowest():
    setup = {"players": ["Ann", "Bob", "Cat"]}
    view = play("bottle_pool", setup, [S(2, "bottle", bottle={"to": "seated", "by": "cue"})])
    assert view["winner"] == "Ann" and view["loser"] is None


def test_skittle_and_parisian_last_player_left_wins():
    view = play(
        "skittle_pool", {}, [S("red", pins=["w1"]), S("red"), S("red", pins=["b1"]), retire("P1")]
    )
    assert view["over"] and view["winner"] == "P2"
    view = play(
        "parisian_31_pool", {}, [S(cup=12), S(cup=1), S(cup=12), S(cup=1), S(cup=12), retire("P1")]
    )
    assert view["over"] and view["winner"] == "P2"


def test_bouchon_a_void_code_spoils_a_winning_fall_without_a_penalty():
    view = play(
        "bouchon_pool", {}, [S("cushion", "red", pins=[P("pool", "object")], fouls=["push"])]
    )
    assert not view["over"] and view["pending"] is None and view["at_table"] == "P2"


def test_two_pin_without_a_pool_limit_plays_on_until_time_up():
    events = [S("red", pins=["white"])] * 5 + [S()]
    view = play("two_pin_pool", {"pools": None}, events)
    assert not view["over"] and view["pools"] == 5 and view["scores"] == {"P1": 5, "P2": -5}


def test_cowboy_forfeit_leaving_one_player_ends_the_game():
    view = play("cowboy_pool", {}, [S(3), S(1), S(pots=["cue"]), S(1), S(pots=["cue"])])
    # P1 opens off the 3 (banks 0); P2 nothing; P1 in-off on a miss twice: forfeits
    assert view["over"] and view["winner"] == "P2" and view["in_game"] == ["P2"]
