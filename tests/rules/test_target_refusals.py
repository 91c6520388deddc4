"""The target family's refusals (the target scoring language "Refused input"): each with its code, at
its own index, the state unchanged; the checks in the table's order; bad setups at -1;
the command line's exit status 2."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from rules import RuleError, get
from rules.__main__ import main
from rules.target import GAMES, TargetState
from tests.rules.conftest import assert_refused_at
from tests.rules.test_target_examples import P, S, privilege, proclaim, retire

BY_ID = {game.id: game for game in GAMES}

FO = {"players": ["Ann", "Bob", "Cat"], "private": {"Ann": 18, "Bob": 6, "Cat": 10}}
KP = {"players": ["Ann", "Bob", "Cat"], "private": {"Ann": 9, "Bob": 5, "Cat": 12}}
PP = {"players": ["Ann", "Bob"], "private": {"Ann": 16, "Bob": 3}}
AB = {"players": ["Ann", "Bob"]}
ABC = {"players": ["Ann", "Bob", "Cat"]}
KELLY_BURST = [S(15, 10, pots=[15, 10])]  # Ann 9 + 25: burst, pending
AT_50 = [S(3, pots=[3]), *[S(5, pots=[5])] * 7, *[S(5, 2)] * 12]  # bull dog: 50, stage 3
COW_100 = [S(3, pots=[3]), *[S(5, pots=[5])] * 17, *[S(5, 1)] * 12]  # cow-boy: 100

CASES: list[tuple[str, str, dict[str, Any], list[Any], Any, str]] = [
    # ---- game_over
    (
        "after the end",
        "kelly_pool",
        KP,
        [S(15, 7, pots=[15, 7]), proclaim("Ann")],
        S(),
        "game_over",
    ),
    (
        "time_up after the end",
        "two_pin_pool",
        {},
        [S("red", pins=["white"])],
        {"type": "time_up"},
        "game_over",
    ),
    (
        "unknown type after the end",
        "pin_pool",
        PP,
        [S("red", pins=["head", "left", "right", "foot"])],
        {"type": "shot"},
        "game_over",
    ),
    # ---- unknown_type
    ("not an object", "bottle_pool", {}, [], ["stroke"], "unknown_type"),
    ("no type", "bottle_pool", {}, [], {"contacts": [1]}, "unknown_type"),
    ("proclaim in forty-one", "forty_one_pool", FO, [], proclaim("Ann"), "unknown_type"),
    ("time_up in kelly", "kelly_pool", KP, [], {"type": "time_up"}, "unknown_type"),
    ("retire in pin pool", "pin_pool", PP, [], retire("Ann"), "unknown_type"),
    (
        "prompt outside red-white-blue",
        "two_pin_pool",
        {},
        [],
        {"type": "prompt", "player": "P1"},
        "unknown_type",
    ),
    # ---- unknown_field
    ("called in forty-one", "forty_one_pool", FO, [], S(1, called=True), "unknown_field"),
    ("cup in kelly", "kelly_pool", KP, [], S(1, cup=3), "unknown_field"),
    ("contacts in parisian", "parisian_31_pool", AB, [], S(1, cup=3), "unknown_field"),
    (
        "fouls in parisian",
        "parisian_31_pool",
        AB,
        [],
        {"type": "stroke", "fouls": []},
        "unknown_field",
    ),
    ("pots in a pin game", "skittle_pool", AB, [], S("red", pots=["red"]), "unknown_field"),
    (
        "a key a pot does not have",
        "kelly_pool",
        KP,
        [],
        S(1, pots=[{"ball": 1, "hole": 10}]),
        "unknown_field",
    ),
    (
        "clear outside bouchon",
        "pin_pool",
        PP,
        [],
        S("red", pins=[{"pin": "head", "clear": True}]),
        "unknown_field",
    ),
    (
        "a key the bottle does not have",
        "bottle_pool",
        {},
        [],
        S(1, "bottle", bottle={"to": "over", "by": "cue", "speed": 3}),
        "unknown_field",
    ),
    (
        "drawn on parisian's privilege",
        "parisian_31_pool",
        AB,
        [],
        privilege("Ann", drawn=3),
        "unknown_field",
    ),
    ("unknown field before a bad value", "kelly_pool", KP, [], S("x", spin=True), "unknown_field"),
    # ---- missing_field
    (
        "a pot without ball",
        "kelly_pool",
        KP,
        [],
        S(1, pots=[{"pocket": "top_left"}]),
        "missing_field",
    ),
    (
        "a pin entry without pin",
        "pin_pool",
        PP,
        [],
        S("red", pins=[{"by": "cue"}]),
        "missing_field",
    ),
    (
        "red-white-blue pin without by",
        "red_white_blue",
        AB,
        [],
        S("red", pins=["red"]),
        "missing_field",
    ),
    ("bouchon cork without by", "bouchon_pool", AB, [], S("red", pins=["pool"]), "missing_field"),
    (
        "a bottle without to",
        "bottle_pool",
        {},
        [],
        S(1, "bottle", bottle={"by": "cue"}),
        "missing_field",
    ),
    (
        "a bottle without by",
        "bottle_pool",
        {},
        [],
        S(1, "bottle", bottle={"to": "over"}),
        "missing_field",
    ),
    ("proclaim without player", "kelly_pool", KP, [], {"type": "proclaim"}, "missing_field"),
    (
        "privilege without player",
        "kelly_pool",
        KP,
        KELLY_BURST,
        {"type": "privilege", "drawn": 2},
        "missing_field",
    ),
    ("retire without player", "skittle_pool", AB, [], {"type": "retire"}, "missing_field"),
    ("prompt without player", "red_white_blue", AB, [], {"type": "prompt"}, "missing_field"),
    (
        "drawn absent from a drawing privilege",
        "kelly_pool",
        KP,
        KELLY_BURST,
        {"type": "privilege", "player": "Ann"},
        "missing_field",
    ),
    (
        "bull dog stage 3 without call",
        "bull_dog_pool",
        {},
        AT_50,
        S(5, pots=["cue"]),
        "missing_field",
    ),
    (
        "bull dog stage 3 cue pot without pocket",
        "bull_dog_pool",
        {},
        AT_50,
        S(5, pots=["cue"], call="top_left"),
        "missing_field",
    ),
    ("cow-boy stage 3 without call", "cowboy_pool", {}, COW_100, S(1), "missing_field"),
    (
        "cow-boy stage 3 cue pot without pocket",
        "cowboy_pool",
        {},
        COW_100,
        S(1, pots=["cue"], call="top_left"),
        "missing_field",
    ),
    (
        "missing before a bad value",
        "kelly_pool",
        KP,
        [],
        S(99, pots=[{"pocket": "x"}]),
        "missing_field",
    ),
    # ---- bad_value
    ("a wrong JSON type", "kelly_pool", KP, [], S(1, called=1), "bad_value"),
    ("contacts not a list", "kelly_pool", KP, [], {"type": "stroke", "contacts": 1}, "bad_value"),
    ("an unknown player", "kelly_pool", KP, [], S(1, player="Dan"), "bad_value"),
    ("an unknown player proclaiming", "bottle_pool", {}, [], proclaim("Dan"), "bad_value"),
    ("a ball as a string", "kelly_pool", KP, [], S("1"), "bad_value"),
    ("ball 16", "forty_one_pool", FO, [], S(16), "bad_value"),
    ("ball 3 in bottle pool", "bottle_pool", {}, [], S(3), "bad_value"),
    ("a pin-game ball", "red_white_blue", AB, [], S("spot"), "bad_value"),
    (
        "an unknown pocket",
        "kelly_pool",
        KP,
        [],
        S(1, pots=[{"ball": 1, "pocket": "corner"}]),
        "bad_value",
    ),
    ("an unknown pin", "skittle_pool", AB, [], S("red", pins=["w11"]), "bad_value"),
    ("an unknown by", "red_white_blue", AB, [], S("red", pins=[P("red", "cue")]), "bad_value"),
    ("bouchon by a colour", "bouchon_pool", AB, [], S("red", pins=[P("pool", "red")]), "bad_value"),
    ("an unknown foul code", "kelly_pool", KP, [], S(1, fouls=["push"]), "bad_value"),
    (
        "interference outside pin pool",
        "skittle_pool",
        AB,
        [],
        S("red", fouls=["interference"]),
        "bad_value",
    ),
    ("cup 13 on a 12-cup board", "parisian_31_pool", AB, [], S(cup=13), "bad_value"),
    ("cup 0", "parisian_31_pool", AB, [], S(cup=0), "bad_value"),
    ("an unknown call", "bull_dog_pool", {}, AT_50, S(5, call="corner"), "bad_value"),
    ("a spot ball 0", "forty_one_pool", FO, [], S(1, pots=[1], spot=[0]), "bad_value"),
    (
        "a bottle value",
        "bottle_pool",
        {},
        [],
        S(1, "bottle", bottle={"to": "up", "by": "cue"}),
        "bad_value",
    ),
    (
        "drawn outside private_range",
        "kelly_pool",
        KP,
        KELLY_BURST,
        privilege("Ann", drawn=16),
        "bad_value",
    ),
    (
        "forty-one drawn below 6",
        "forty_one_pool",
        FO,
        [S(15, pots=[15]), S(), S(), S(9, pots=[9])],
        privilege("Ann", drawn=5),
        "bad_value",
    ),
    ("keep", "kelly_pool", KP, KELLY_BURST, privilege("Ann", drawn=2, keep="both"), "bad_value"),
    (
        "pools as a string",
        "two_pin_pool",
        {},
        [],
        S("red", pins=[{"pin": "white", "by": 1}]),
        "bad_value",
    ),
    # ---- impossible
    ("a ball twice in pots", "kelly_pool", KP, [], S(1, pots=[1, 1]), "impossible"),
    ("a ball twice off the table", "bottle_pool", {}, [], S(1, off_table=[1, 1]), "impossible"),
    ("a ball pocketed and off", "bottle_pool", {}, [], S(1, pots=[1], off_table=[1]), "impossible"),
    ("a pin twice", "pin_pool", PP, [], S("red", pins=["head", "head"]), "impossible"),
    (
        "a pin in both lists",
        "skittle_pool",
        AB,
        [],
        S("red", pins=["w1"], pins_before_ball=["w1"]),
        "impossible",
    ),
    ("an object ball pocketed on a miss", "kelly_pool", KP, [], S(pots=[3]), "impossible"),
    ("an object ball off on a miss", "bull_dog_pool", {}, [], S(off_table=[2]), "impossible"),
    ("a pin in pins on a miss", "two_pin_pool", {}, [], S(pins=["white"]), "impossible"),
    (
        "three balls touched in a pin game",
        "pin_pool",
        PP,
        [],
        S("red", "white", "spot"),
        "impossible",
    ),
    ("a ball not on the table (contacts)", "kelly_pool", KP, [S(4, pots=[4])], S(4), "impossible"),
    (
        "a ball not on the table (pots)",
        "forty_one_pool",
        FO,
        [S(4, pots=[4])],
        S(5, pots=[4]),
        "impossible",
    ),
    (
        "a ball not on the table (off)",
        "kelly_pool",
        KP,
        [S(4, pots=[4])],
        S(5, off_table=[4]),
        "impossible",
    ),
    (
        "the bottle by the cue not in contacts",
        "bottle_pool",
        {},
        [],
        S(1, bottle={"to": "over", "by": "cue"}),
        "impossible",
    ),
    (
        "the bottle by an object on a miss",
        "bottle_pool",
        {},
        [],
        S("bottle", bottle={"to": "over", "by": "object"}),
        "impossible",
    ),
    (
        "a spot ball twice",
        "forty_one_pool",
        FO,
        [S(3, 5, pots=[3, 5]), S(), S()],
        S(pots=["cue"], spot=[3, 3]),
        "impossible",
    ),
    (
        "a spot of two balls for one owed",
        "forty_one_pool",
        FO,
        [S(3, 5, pots=[3, 5]), S(), S()],
        S(pots=["cue"], spot=[3, 5]),
        "impossible",
    ),
    (
        "a spot ball not in the rack",
        "forty_one_pool",
        FO,
        [S(3, 5, pots=[3, 5]), S(), S()],
        S(pots=["cue"], spot=[4]),
        "impossible",
    ),
    (
        "a drawn ball a player holds",
        "kelly_pool",
        KP,
        KELLY_BURST,
        privilege("Ann", drawn=12),
        "impossible",
    ),
    (
        "the drawer's own ball",
        "kelly_pool",
        KP,
        KELLY_BURST,
        privilege("Ann", drawn=9),
        "impossible",
    ),
    ("impossible before not now", "kelly_pool", KP, KELLY_BURST, S(1, pots=[1, 1]), "impossible"),
    # ---- not_now
    ("a stroke while a player is pending", "kelly_pool", KP, KELLY_BURST, S(1), "not_now"),
    ("a stroke while bouchon's striker decides", "bouchon_pool", AB, [S()], S("red"), "not_now"),
    (
        "a stroke by a player out of the game",
        "skittle_pool",
        ABC,
        [S("red", pins=["w1"]), S("red"), S("red"), S("red", pins=["b1"]), retire("Ann")],
        S("red", player="Ann"),
        "not_now",
    ),
    (
        "out of turn where the game has none",
        "two_pin_pool",
        AB,
        [],
        S("red", player="Bob"),
        "not_now",
    ),
    ("out of turn in forty-one", "forty_one_pool", FO, [], S(1, player="Cat"), "not_now"),
    ("out of turn in bull dog", "bull_dog_pool", AB, [], S(3, player="Bob"), "not_now"),
    ("a spot with nothing to give", "forty_one_pool", FO, [], S(3, pots=[3], spot=[3]), "not_now"),
    (
        "a proclaim short of the target",
        "kelly_pool",
        KP,
        [S(15, pots=[15])],
        proclaim("Ann"),
        "not_now",
    ),
    (
        "a proclaim too late",
        "pin_pool",
        {**ABC, "private": {"Ann": 16, "Bob": 3, "Cat": 4}},
        [S("red", pins=["head", "left", "right", "foot", "middle"]), S()],
        proclaim("Ann"),
        "not_now",
    ),
    (
        "a proclaim by a player who is out",
        "parisian_31_pool",
        ABC,
        [
            S(cup=12),
            S(cup=12),
            S(cup=1),
            S(cup=1),
            S(cup=12),
            S(cup=1),
            S(cup=1),
            S(cup=12),
            retire("Bob"),
        ],
        proclaim("Bob"),
        "not_now",
    ),
    ("a privilege that is not due", "kelly_pool", KP, [], privilege("Ann", drawn=2), "not_now"),
    (
        "a privilege by another than the pending",
        "parisian_31_pool",
        AB,
        [S(cup=12), S(cup=12), S(cup=12), S(cup=12), S(cup=12)],
        privilege("Bob"),
        "not_now",
    ),
    (
        "forty-one's privilege twice",
        "forty_one_pool",
        FO,
        [S(15, pots=[15]), S(), S(), S(9, pots=[9]), privilege("Ann", drawn=7)],
        privilege("Ann", drawn=8),
        "not_now",
    ),
    (
        "a retire by another than the pending",
        "kelly_pool",
        KP,
        KELLY_BURST,
        retire("Bob"),
        "not_now",
    ),
    ("a retire with nobody pending", "skittle_pool", AB, [], retire("Ann"), "not_now"),
    (
        "a retire by a player out of the game",
        "bouchon_pool",
        ABC,
        [retire("Bob")],
        retire("Bob"),
        "not_now",
    ),
]


@pytest.mark.parametrize(
    ("game", "setup", "before", "event", "code"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_refused_event_names_its_code_and_index_and_changes_nothing(
    game, setup, before, event, code
):
    err = assert_refused_at(get(game), setup, before, event, code)
    assert err.message


def test_every_refusal_code_of_the_page_is_tested():
    codes = {c[-1] for c in CASES}
    assert codes == {
        "game_over",
        "unknown_type",
        "unknown_field",
        "missing_field",
        "bad_value",
        "impossible",
        "not_now",
    }


def test_a_prompt_naming_a_player_out_of_the_game_is_refused():
    # nobody leaves a red-white-blue game by an event: built as a position
    g = BY_ID["red_white_blue"]
    state: TargetState = g.initial(ABC)
    state = state._replace(seats=state.seats.knock_out(1))
    before = g.dump(state)
    with pytest.raises(RuleError) as info:
        g.apply(state, {"type": "prompt", "player": "Bob"})
    assert info.value.code == "not_now" and g.dump(state) == before


def test_messages_name_the_field():
    err = assert_refused_at(
        get("kelly_pool"), KP, [], S(1, pots=[{"ball": 1, "pocket": "x"}]), "bad_value"
    )
    assert "pots" in err.message and "pocket" in err.message
    err = assert_refused_at(get("parisian_31_pool"), AB, [], S(cup=13), "bad_value")
    assert "cup" in err.message


# ------------------------------------------------------------------------- setups

BAD_SETUPS: list[tuple[str, Any]] = [
    ("kelly_pool", {"players": ["Ann", "Bob"], "private": {"Ann": 3}}),  # one entry each
    ("kelly_pool", {"players": ["Ann", "Bob"], "private": {"Ann": 3, "Bob": 3}}),  # equal
    ("kelly_pool", {"players": ["Ann", "Bob"], "private": {"Ann": 3, "Bob": 16}}),  # range
    ("kelly_pool", {"players": ["Ann", "Bob"], "private": {"Ann": 3, "Bob": 4, "Cat": 5}}),
    ("forty_one_pool", {"private": {"P1": 5, "P2": 7}}),  # 6 to 18
    ("forty_one_pool", {"private": {"P1": 6, "P2": 7}, "private_range": [6, 41]}),  # < target
    ("forty_one_pool", {"private": {"P1": 6, "P2": 7}, "private_range": [7, 6]}),
    ("forty_one_pool", {"private": {"P1": 6, "P2": 7}, "private_range": [6]}),
    ("pin_pool", {"players": 3, "private": {"P1": 1, "P2": 2, "P3": 3}, "private_range": [1, 2]}),
    ("pin_pool", {"private": {"P1": 1, "P2": 2}, "pin_values": {"middle": 0}}),
    ("pin_pool", {"private": {"P1": 1, "P2": 2}, "pin_values": {"w1": 3}}),
    ("skittle_pool", {"pin_values": {"b1": 3}}),  # white pins only
    ("skittle_pool", {"target": 0}),
    ("bottle_pool", {"players": ["Ann"]}),
    ("bottle_pool", {"players": 1}),
    ("bottle_pool", {"players": ["Ann", "Ann"]}),
    ("bottle_pool", {"players": ["Ann", ""]}),
    ("bottle_pool", {"players": "Ann"}),
    ("bottle_pool", {"target": "31"}),
    ("bottle_pool", {"privilege_fee": 1}),  # not a bottle pool key
    ("parisian_31_pool", {"cups": 14}),
    ("kelly_pool", {"players": ["A", "B"], "private": {"A": 1, "B": 2}, "privilege_fee": -1}),
    ("red_white_blue", {"chip_fines": 1}),
    ("two_pin_pool", {"unit": 0}),
    ("two_pin_pool", {"pools": 0}),
    ("bouchon_pool", {"stake": 0}),
    ("bull_dog_pool", {"target": 40}),
    ("cowboy_pool", []),
]


@pytest.mark.parametrize(("game", "setup"), BAD_SETUPS)
def test_bad_setup_is_refused_at_index_minus_one(game, setup):
    with pytest.raises(RuleError) as info:
        get(game).initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


def test_the_command_line_exits_2_with_the_refusal_on_stderr():
    doc = {"game": "kelly_pool", "setup": KP, "events": [S(1), S(1, pots=[1, 1])]}
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", "-"], stdin=io.StringIO(json.dumps(doc)), stdout=out, stderr=err) == 2
    answer = json.loads(err.getvalue())
    assert answer["error"] == "impossible" and answer["index"] == 1 and answer["message"]
    assert out.getvalue() == ""
