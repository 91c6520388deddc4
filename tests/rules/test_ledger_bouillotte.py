"""Bouillotte, one deal (``bouillotte``): the ledger scoring language §6 and the rules text it cites
(the Bouillotte rules text): antes, straddles, the betting, split pots, the showdown, bonuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import RuleError, get, replay
from rules.ledger import split_pots
from tests.rules.conftest import assert_refused_at

G = get("bouillotte")

#: The book's suit example, cards as the page reconstructs them (§7). Dealer D: A, B, C, D
#: speak in that order from the dealer's right.
BOOK = {
    "players": ["A", "B", "C", "D"],
    "dealer": "D",
    "hands": {
        "A": ["AD", "9C", "8S"],
        "B": ["QS", "AH", "8D"],
        "C": ["KD", "QH", "AC"],
        "D": ["KH", "8H", "QD"],
    },
    "turned": "AS",
}
#: B holds a brelan carré (three nines, a nine turned), C an ordinary brelan (kings).
BRELANS = {
    "players": ["A", "B", "C", "D"],
    "hands": {
        "A": ["AS", "QH", "8C"],
        "B": ["9H", "9D", "9C"],
        "C": ["KS", "KH", "KD"],
        "D": ["AH", "QD", "8D"],
    },
    "turned": "9S",
}


def ev(kind: str, chips: int | None = None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if chips is not None:
        out["chips"] = chips
    out.update(fields)
    return out


def play(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return G.view(replay(G, setup, list(events)))


#: No straddle; A opens for 1; B and C call, D folds; nobody re-raises: a showdown of three.
THREE_WAY = [
    ev("decline"),
    ev("open", 1),
    ev("call"),
    ev("call"),
    ev("fold"),
    ev("pass"),
    ev("pass"),
]


# ------------------------------------------------------------ the page's examples


def test_worked_example_antes_make_5_and_the_dealers_right_opens_for_1():
    view = play(BOOK, [])
    assert (view["pot"], view["at_table"], view["phase"]) == (5, "A", "straddle")
    assert view["stakes"] == {"A": 1, "B": 1, "C": 1, "D": 2}
    view = play(BOOK, [ev("decline")])
    assert (view["phase"], view["at_table"], view["needed"]) == ("open", "A", 1)
    view = play(BOOK, [ev("decline"), ev("open", 1)])
    assert view["stakes"]["A"] == 2


def test_worked_example_after_a_straddle_of_5_the_next_must_put_in_5_to_open():
    view = play(BOOK, [ev("straddle")])
    assert (view["stakes"]["A"], view["pot"], view["needed"]) == (6, 10, 10)
    view = play(BOOK, [ev("straddle"), ev("decline")])
    assert (view["phase"], view["at_table"], view["needed"], view["straddler"]) == (
        "open",
        "B",
        5,
        "A",
    )


def test_worked_example_split_pots_of_17_and_14():
    pots = split_pots([2, 5, 8, 16], [True, False, True, False], [5, 0, 3, 10], [0, 1, 2, 3], 0)
    assert [(p.chips, p.players) for p in pots] == [(17, (1, 3)), (14, (3,))]


def test_worked_example_suits_with_a_and_d_folded_b_wins_on_position():
    events = [
        ev("straddle"),
        ev("decline"),
        ev("open", 5),
        ev("raise", 10),
        ev("fold"),
        ev("fold"),
        ev("call"),
    ]
    view = play(BOOK, events)
    assert view["suit_points"] == {"S": 29, "H": 39, "D": 39, "C": 20}
    assert view["pots"] == [{"chips": 30, "players": ["B", "C"], "winner": "B", "by": "points"}]
    assert view["winner"] == "B"


def test_worked_example_suits_with_only_d_folded_a_wins_with_diamonds():
    view = play(BOOK, THREE_WAY)
    assert view["folded"] == ["D"]
    assert view["pots"] == [{"chips": 8, "players": ["A", "B", "C"], "winner": "A", "by": "points"}]
    assert view["scores"] == {"A": 6, "B": -2, "C": -2, "D": -2}


def test_worked_example_bonuses_carre_2_brelan_1_from_each():
    view = play(BRELANS, THREE_WAY)
    assert view["bonuses"] == {"A": -3, "B": 5, "C": 1, "D": -3}
    assert view["pots"][0]["winner"] == "B" and view["pots"][0]["by"] == "carre"
    assert view["scores"] == {"A": -5, "B": 11, "C": -1, "D": -5}
    assert view["chips"] == {"A": 95, "B": 111, "C": 99, "D": 95}


def test_new_deal_state_is_the_pages():
    assert play(BOOK, []) == {
        "game": "bouillotte",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"A": 0, "B": 0, "C": 0, "D": 0},
        "at_table": "A",
        "events": 0,
        "phase": "straddle",
        "dealer": "D",
        "pot": 5,
        "stakes": {"A": 1, "B": 1, "C": 1, "D": 2},
        "chips": {"A": 99, "B": 99, "C": 99, "D": 98},
        "folded": [],
        "needed": 5,
        "straddler": None,
        "pots": [{"chips": 5, "players": ["A", "B", "C", "D"], "winner": None, "by": None}],
        "bonuses": {"A": 0, "B": 0, "C": 0, "D": 0},
        "suit_points": None,
        "carried": {},
    }


# ----------------------------------------------------------------- straddles


def test_straddles_double_the_pot_round_to_the_dealer():
    view = play(BOOK, [ev("straddle"), ev("straddle"), ev("straddle"), ev("straddle")])
    # 5 -> 10 -> 20 -> 40 -> 80: the dealer was the last who could be offered it
    assert (view["pot"], view["straddler"], view["phase"], view["at_table"]) == (
        80,
        "D",
        "open",
        "A",
    )
    assert view["stakes"] == {"A": 6, "B": 11, "C": 21, "D": 42}


def test_a_player_short_of_the_pot_ends_the_straddling():
    view = play({**BOOK, "caves": {"A": 100, "B": 9, "C": 100, "D": 100}}, [ev("straddle")])
    assert (view["phase"], view["straddler"], view["at_table"]) == ("open", "A", "B")


def test_buy_back_offered_to_the_previous_straddler():
    setup = {**BOOK, "buy_back": True}
    view = play(setup, [ev("straddle"), ev("straddle")])
    assert (view["phase"], view["at_table"], view["needed"]) == ("buy_back", "A", 20)
    view = play(setup, [ev("straddle"), ev("straddle"), ev("buy_back")])
    assert (view["pot"], view["straddler"], view["phase"], view["at_table"]) == (
        40,
        "A",
        "open",
        "B",
    )
    view = play(setup, [ev("straddle"), ev("straddle"), ev("decline")])
    assert (view["phase"], view["at_table"], view["straddler"]) == ("straddle", "C", "B")


def test_everyone_passing_the_straddler_gives_him_the_pot():
    view = play(BOOK, [ev("straddle"), ev("decline"), ev("pass"), ev("pass"), ev("pass")])
    assert view["pots"] == [{"chips": 10, "players": ["A"], "winner": "A", "by": "straddle"}]
    assert view["scores"] == {"A": 4, "B": -1, "C": -1, "D": -2}
    assert (view["over"], view["winner"], view["bonuses"]["B"]) == (True, "A", 0)


def test_all_passing_without_a_straddle_throws_the_deal_in():
    view = play(BOOK, [ev("decline"), ev("pass"), ev("pass"), ev("pass"), ev("pass")])
    assert (view["over"], view["winner"], view["scores"]) == (
        True,
        None,
        {"A": 0, "B": 0, "C": 0, "D": 0},
    )
    assert view["carried"] == {"A": 1, "B": 1, "C": 1, "D": 2}
    assert view["pots"] == [
        {"chips": 5, "players": ["A", "B", "C", "D"], "winner": None, "by": None}
    ]


def test_a_carried_pot_the_dealer_alone_antes_and_it_goes_to_the_first_pot():
    setup = {**BOOK, "dealer": "A", "carried": {"A": 1, "B": 1, "C": 1, "D": 2}}
    view = play(setup, [])
    assert (view["pot"], view["stakes"], view["at_table"]) == (
        6,
        {"A": 1, "B": 0, "C": 0, "D": 0},
        "B",
    )
    # B opens for 1 (the least), everyone else folds
    view = play(setup, [ev("decline"), ev("open", 1), ev("fold"), ev("fold"), ev("fold")])
    assert view["pots"] == [{"chips": 7, "players": ["B"], "winner": "B", "by": "fold"}]
    assert view["scores"] == {"A": -2, "B": 5, "C": -1, "D": -2}


# ------------------------------------------------------------------ the betting


def test_the_re_raise_turn_after_a_call_with_more_than_two_in():
    view = play(BOOK, THREE_WAY[:5])
    assert (view["phase"], view["at_table"], view["needed"]) == ("reraise", "B", 0)
    view = play(BOOK, [*THREE_WAY[:5], ev("raise", 3)])
    assert (view["phase"], view["at_table"], view["needed"]) == ("bet", "C", 3)


def test_a_call_with_two_in_ends_the_betting():
    events = [ev("decline"), ev("open", 1), ev("fold"), ev("fold"), ev("call")]
    view = play(BOOK, events)
    assert (view["over"], view["pots"][0]["players"]) == (True, ["A", "D"])


def test_everyone_folding_gives_the_pot_without_a_showdown():
    events = [ev("decline"), ev("open", 3), ev("fold"), ev("fold"), ev("fold")]
    view = play(BRELANS, events)
    assert view["pots"] == [{"chips": 8, "players": ["A"], "winner": "A", "by": "fold"}]
    assert view["bonuses"] == {"A": 0, "B": 0, "C": 0, "D": 0}  # no showdown: no bonus
    assert view["suit_points"] is None


def test_va_tout_short_of_a_call_is_an_all_in_call():
    setup = {**BOOK, "caves": {"A": 100, "B": 3, "C": 100, "D": 100}}
    events = [ev("decline"), ev("open", 5), ev("va_tout")]
    view = play(setup, events)
    assert (view["stakes"]["B"], view["chips"]["B"], view["at_table"]) == (3, 0, "C")


def test_brelans_off_points_alone_decide_and_no_bonus():
    view = play({**BRELANS, "brelans": False}, THREE_WAY)
    assert view["bonuses"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert view["pots"][0]["by"] == "points"


def test_mistigri_beats_points_but_pays_no_bonus():
    setup = {
        "players": ["A", "B", "C", "D"],
        "mistigri": True,
        "hands": {
            "A": ["AS", "KS", "AH"],
            "B": ["QC", "9H", "9D"],
            "C": ["KH", "QH", "8C"],
            "D": ["AD", "KD", "QD"],
        },
        "turned": "8S",
    }
    view = play(setup, THREE_WAY)
    assert view["pots"][0]["winner"] == "B" and view["pots"][0]["by"] == "mistigri"
    assert view["bonuses"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    view = play({**setup, "mistigri": False}, THREE_WAY)
    assert view["pots"][0]["by"] == "points"


def test_count_turned_off_leaves_the_turned_card_out_of_the_points():
    view = play({**BOOK, "count_turned": False}, THREE_WAY)
    assert view["suit_points"] == {"S": 18, "H": 39, "D": 39, "C": 20}


def test_scores_sum_to_zero_and_chips_are_kept():
    view = play(BRELANS, THREE_WAY)
    assert sum(view["scores"].values()) == 0
    assert sum(view["chips"].values()) == 400


# ------------------------------------------------------------------------ refused

OPENED = [ev("decline"), ev("open", 1)]

REFUSALS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], Any, str]] = [
    ("not_an_object", BOOK, [], 3, "unknown_type"),
    ("unknown_type", BOOK, [], ev("check"), "unknown_type"),
    ("after_the_deal", BOOK, THREE_WAY, ev("pass"), "game_over"),
    ("unknown_field", BOOK, [], ev("straddle", chips=5), "unknown_field"),
    ("open_without_chips", BOOK, [ev("decline")], ev("open"), "missing_field"),
    ("chips_zero", BOOK, [ev("decline")], ev("open", 0), "bad_value"),
    ("chips_not_whole", BOOK, [ev("decline")], {"type": "open", "chips": "2"}, "bad_value"),
    ("player_nobody", BOOK, [], ev("straddle", player="Zed"), "unknown_player"),
    ("not_your_turn", BOOK, [], ev("straddle", player="B"), "not_your_turn"),
    ("fold_before_the_opening", BOOK, [ev("decline")], ev("fold"), "not_allowed"),
    ("call_before_the_opening", BOOK, [ev("decline")], ev("call"), "not_allowed"),
    ("straddle_in_the_betting", BOOK, OPENED, ev("straddle"), "not_allowed"),
    ("open_twice", BOOK, OPENED, ev("open", 2), "not_allowed"),
    ("pass_after_the_opening", BOOK, OPENED, ev("pass"), "not_allowed"),
    ("buy_back_not_offered", {**BOOK, "buy_back": True}, [], ev("buy_back"), "not_allowed"),
    (
        "straddle_on_a_buy_back_offer",
        {**BOOK, "buy_back": True},
        [ev("straddle"), ev("straddle")],
        ev("straddle"),
        "not_allowed",
    ),
    ("call_in_the_reraise_turn", BOOK, THREE_WAY[:5], ev("call"), "not_allowed"),
    ("fold_in_the_reraise_turn", BOOK, THREE_WAY[:5], ev("fold"), "not_allowed"),
    ("open_below_the_least", BOOK, [ev("straddle"), ev("decline")], ev("open", 4), "bad_amount"),
    ("open_above_his_chips", BOOK, [ev("decline")], ev("open", 100), "bad_amount"),
    ("raise_not_above_a_call", BOOK, [ev("decline"), ev("open", 3)], ev("raise", 3), "bad_amount"),
    ("raise_above_his_chips", BOOK, OPENED, ev("raise", 100), "bad_amount"),
    (
        "va_tout_that_cannot_open",
        {**BOOK, "caves": {"A": 100, "B": 4, "C": 100, "D": 100}},
        [ev("straddle")],  # B, with 3 chips, cannot straddle 10: he speaks first
        ev("va_tout"),
        "bad_amount",
    ),
]


@pytest.mark.parametrize(
    ("setup", "before", "event", "code"),
    [pytest.param(s, b, e, c, id=name) for name, s, b, e, c in REFUSALS],
)
def test_refused_with_the_pages_code_at_its_index_and_nothing_changes(setup, before, event, code):
    assert_refused_at(G, setup, before, event, code)


def _without(d: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param({**BOOK, "players": ["A", "B"]}, id="two_players"),
        pytest.param({**BOOK, "dealer": "Z"}, id="unknown_dealer"),
        pytest.param({**BOOK, "caves": 0}, id="caves_zero"),
        pytest.param({**BOOK, "caves": {"A": 10, "B": 10, "C": 10}}, id="caves_missing_a_player"),
        pytest.param(
            {**BOOK, "caves": {"A": 10, "B": 10, "C": 10, "D": 1}}, id="cave_below_the_ante"
        ),
        pytest.param({**BOOK, "caves": "100"}, id="caves_not_a_number"),
        pytest.param({**BOOK, "carried": {"Z": 1}}, id="carried_by_nobody"),
        pytest.param({**BOOK, "carried": {"A": -1}}, id="carried_negative"),
        pytest.param({**BOOK, "ante": "none"}, id="unknown_ante"),
        pytest.param({**BOOK, "turned": "AD"}, id="card_dealt_twice"),
        pytest.param({**BOOK, "turned": "JS"}, id="jack_with_four_players"),
        pytest.param({**BOOK, "turned": "10S"}, id="not_a_card"),
        pytest.param({**BOOK, "hands": {**BOOK["hands"], "A": ["AD", "9C"]}}, id="two_cards"),
        pytest.param(_without(BOOK, "hands"), id="hands_missing"),
        pytest.param(_without(BOOK, "turned"), id="turned_missing"),
        pytest.param({**BOOK, "stake": 1}, id="unknown_key"),
    ],
)
def test_bad_setup_is_refused_at_index_minus_one(setup):
    with pytest.raises(RuleError) as info:
        G.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


# ------------------------------------------------------------- higher pots, by hand

#: B (a cave of 3) goes all in; C and D play on to 7 each; A folds. Pot 1 (level 3) =
#: 2 + 3 + 3 + 3 = 11 for B, C, D; pot 2 = 4 + 4 = 8 for C and D.
SIDE_POT_PLAY = [
    ev("decline"),
    ev("open", 1),  # A: stake 2
    ev("va_tout"),  # B: 2 chips, a call needs 1: a raise, stake 3, all in
    ev("call"),  # C: stake 3
    ev("raise", 5),  # D: stake 7
    ev("fold"),  # A
    ev("call"),  # C: stake 7 (three in: B, C, D) -> the re-raise turn: C alone is asked
    ev("pass"),  # C: showdown
]
SHORT_B = {"A": 100, "B": 3, "C": 100, "D": 100}


def test_pot_1_to_a_brelan_then_the_higher_pot_by_points_among_its_players():
    setup = {
        "players": ["A", "B", "C", "D"],
        "caves": SHORT_B,
        "hands": {
            "A": ["AS", "QS", "8S"],
            "B": ["KS", "KH", "KD"],
            "C": ["AH", "QH", "8H"],
            "D": ["AD", "QD", "8D"],
        },
        "turned": "9S",
    }
    view = play(setup, SIDE_POT_PLAY)
    # pot 1: B's brelan of kings. Pot 2 between C and D, no brelan, no winning suit fixed:
    # points (S 38, H 39, D 39, C 0); owners among C and D: hearts C, diamonds D; hearts
    # and diamonds tie, C is the first of them from the dealer's right.
    assert view["pots"] == [
        {"chips": 11, "players": ["B", "C", "D"], "winner": "B", "by": "brelan"},
        {"chips": 8, "players": ["C", "D"], "winner": "C", "by": "points"},
    ]
    assert view["bonuses"] == {"A": -1, "B": 3, "C": -1, "D": -1}
    assert view["scores"] == {"A": -3, "B": 11, "C": 0, "D": -8}
    assert view["winner"] is None


def test_a_higher_pot_whose_players_hold_none_of_the_winning_suit_goes_by_points():
    setup = {
        "players": ["A", "B", "C", "D"],
        "caves": SHORT_B,
        "hands": {
            "A": ["8S", "9S", "8C"],
            "B": ["AS", "KS", "QS"],
            "C": ["AH", "KH", "8H"],
            "D": ["AD", "KD", "QD"],
        },
        "turned": "9H",
    }
    view = play(setup, SIDE_POT_PLAY)
    # points: S 48, H 38, D 31, C 8. Pot 1 (B, C, D): spades, owned by B, win: winning suit
    # spades. Pot 2 (C, D): neither holds a spade: points among them, hearts (C) 38 beat
    # diamonds (D) 31.
    assert view["suit_points"] == {"S": 48, "H": 38, "D": 31, "C": 8}
    assert [(p["winner"], p["by"]) for p in view["pots"]] == [("B", "points"), ("C", "points")]
    assert view["scores"] == {"A": -2, "B": 8, "C": 1, "D": -7}


def test_a_second_deal_thrown_in_adds_its_stakes_to_the_carried_chips():
    setup = {**BOOK, "dealer": "A", "carried": {"A": 1, "B": 1, "C": 1, "D": 2}}
    view = play(setup, [ev("decline"), ev("pass"), ev("pass"), ev("pass"), ev("pass")])
    assert view["carried"] == {"A": 2, "B": 1, "C": 1, "D": 2}
    assert (view["pot"], view["scores"]["A"]) == (6, 0)


def test_next_deal_moves_the_deal_right_and_keeps_the_chips():
    state = replay(G, BRELANS, THREE_WAY)
    nxt = G.next_deal(BRELANS, state)
    assert nxt["dealer"] == "A" and nxt["carried"] == {}
    assert nxt["caves"] == {"A": 95, "B": 111, "C": 99, "D": 95}
    following = G.view(G.initial({**nxt, "hands": BOOK["hands"], "turned": "AS"}))
    assert (following["at_table"], following["stakes"]["A"]) == ("B", 2)


def test_next_deal_after_a_throw_in_carries_the_pot():
    state = replay(G, BOOK, [ev("decline"), *[ev("pass")] * 4])
    nxt = G.next_deal(BOOK, state)
    following = G.view(G.initial({**nxt, "hands": BOOK["hands"], "turned": "AS"}))
    assert (following["pot"], following["stakes"]) == (6, {"A": 1, "B": 0, "C": 0, "D": 0})


def test_next_deal_needs_the_deal_over():
    with pytest.raises(RuleError):
        G.next_deal(BOOK, G.initial(BOOK))
