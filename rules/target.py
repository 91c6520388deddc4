"""The target family: twelve pool games where a player aims at an exact total, pins or corks.

the target scoring language is the contract; the source is the Brunswick-Balke-Collender *Hand Book
of Rules of Billiards* (1908), cited **H** with its line numbers. Every game is for any
number of players in a fixed rotation; each races to a number that must be hit exactly (or
to a set of pins), and the stroke that goes too far *bursts* him. ``docs/games/<id>.md``
describes each game's scoring language.

One state machine, :class:`TargetGame`, runs all twelve. A game is a frozen
:class:`TargetRules` (its balls, pins, foul codes, setup options, which shared rules apply:
one stroke a turn, striking out of turn, proclaiming, the privilege, retiring) plus one
named hook, :meth:`TargetGame.judge`, where the stroke rule truly differs. The shared
machinery lives in the base class: the rotation (the table *passes* to the next player
still in the game), strokes out of turn, private small balls, proclaiming pool, the
privilege (a new small ball and/or a fee), retiring, the end when one player is left, and
payments into the pool.

=========================  ===============================================  ===========
id                         game                                             H lines
=========================  ===============================================  ===========
forty_one_pool             Forty-one pool                                   1254-1278
kelly_pool                 Kelly pool                                       1457-1493
pin_pool                   Pin pool (five-pin pool)                         1533-1591
bottle_pool                Bottle pool                                      1495-1531
parisian_31_pool           Pool for 31 on the Parisian board                1851-1887
skittle_pool               Skittle pool                                     1403-1455
red_white_blue             Red, white and blue                              1593-1653
red_white_blue_chicago     Red, white and blue, Chicago                     1655-1689
two_pin_pool               Two-pin pool                                     1691-1717
bouchon_pool               Bouchon (cork) pool                              1733-1759
bull_dog_pool              Bull dog pool                                    1761-1791
cowboy_pool                Cow-boy pool                                     1793-1849
=========================  ===============================================  ===========

Built on the core's pieces: the players are a :class:`~rules.seating.Seating` (the table
passes with ``advance``, a player who retires or forfeits is knocked out); balls are union
fields (a JSON number or ``"cue"``); a player's name, a Parisian cup and a drawn small ball
are setup-dependent choices (``choices_from``); the result is a typed
:class:`~rules.core.Outcome`; the statistics are declared :class:`~rules.core.Stat` declarations.
One piece is the family's own, :func:`structure_refusal`: the page orders its refusals by
code across the whole event (an unknown field anywhere before a missing one, before a bad
value), where the core checks field by field.

>>> from rules import get, replay
>>> g = get("two_pin_pool")
>>> s = replay(g, {"players": ["Ann", "Bob", "Cat"]}, [
...     {"type": "stroke", "contacts": ["red"], "pins": [{"pin": "black"}]},
...     {"type": "stroke", "contacts": ["white"], "pins": [{"pin": "white"}]},
... ])
>>> g.view(s)["scores"], g.view(s)["over"], g.view(s)["winner"]
({'Ann': -3, 'Bob': 3, 'Cat': 0}, True, 'Bob')
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from rules.core import Game, Outcome, Stat, replay
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import fill_defaults, plain_json, validate_event, validate_setup
from rules.vocabulary import (
    EventType,
    Field,
    Foul,
    IllegalEvent,
    InvalidEvent,
    Option,
    player_field,
)

__all__ = [
    "GAMES",
    "RULES",
    "Stat",
    "TargetStroke",
    "TargetGame",
    "TargetRules",
    "TargetState",
    "structure_refusal",
]

#: The rule book every game of the family comes from (cited H + line).
BOOK = "Hand Book of Rules of Billiards (Brunswick-Balke-Collender Co., 1908)"
CUE = "cue"
CUSHION = "cushion"
BOTTLE = "bottle"
POCKETS = ("top_left", "top_right", "middle_left", "middle_right", "baulk_left", "baulk_right")
NUMBERED = tuple(range(1, 16))
PIN_BALLS = ("white", "spot", "red")
RWB = ("red", "white", "blue")

# next
STROKE, DECIDE, OPENING, CALL, NONE = "stroke", "decide", "opening", "call", "none"

# ------------------------------------------------------------------------------ fouls

_FOUL_DOCS = {
    "push": "a push (shove) stroke",
    "double_hit": "the cue struck the ball twice",
    "not_tip": "the stroke was not made with the tip of the cue",
    "touched_ball": "a ball was touched or moved by the striker's body, clothes or cue, other "
    "than by the stroke",
    "feet": "no foot on the floor",
    "balls_moving": "struck before every ball had come to rest",
    "no_cushion": "a safety: nothing pocketed and no ball reached a cushion after the first "
    "contact",
    "pin_touched": "a pin was knocked down by the striker's body, clothes or cue (not listed in "
    "pins)",
    "pins_not_set": "struck before the fallen pins were set up again",
    "interference": "the striker deliberately interfered with a ball in motion",
    "frozen_moved": "playing away from a frozen ball, he moved it",
    "money_off": "a ball knocked the pool money off the pool cork, which stayed up",
}


def _fouls(*pairs: tuple[str, str], common: tuple[str, ...] = ()) -> tuple[Foul, ...]:
    """Foul declarations from ``(code, penalty)`` pairs, with the page's descriptions."""
    return tuple(Foul(code, pen, _FOUL_DOCS[code], code in common) for code, pen in pairs)


# ----------------------------------------------------------------------------- config


@dataclass(frozen=True)
class TargetRules:
    """One game of the family as parameters (the target scoring language, the games table).

    ``balls``: the object balls (names used in every list; ``()`` for Parisian);
    ``pocket``: a pocket game (``pots``, ``off_table``); ``pins`` and ``pin_by`` (the
    choices of ``by``, and whether it is required); ``options``: the setup keys beyond
    ``players`` with their defaults; the flags name the shared rules that apply.
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    summary: str
    fouls: tuple[Foul, ...]
    balls: tuple[Any, ...] = ()
    pocket: bool = False
    pins: tuple[str, ...] = ()
    pin_by: tuple[str, ...] = ("cue", "object", "pin")
    pin_by_required: bool = False
    options: tuple[tuple[str, Any], ...] = ()
    one_stroke: bool = False
    out_of_turn: bool = False
    called: bool = False
    proclaim: bool = False
    privilege: str = ""  # "" | "draw" (new ball, before next stroke) | "decide" | "penalty"
    draws: bool = False  # the privilege names a drawn small ball
    retire: bool = False
    private: bool = False
    extra_fields: tuple[str, ...] = ()  # stroke fields beyond player/contacts/fouls/...
    extra_events: tuple[str, ...] = ()  # prompt, time_up
    state_keys: tuple[str, ...] = ()
    stats: tuple[str, ...] = ()


_VOID = "void"
_SCRATCH = "scratch"
_PENALTY = "penalty"
_BURST = "burst"
_LOST = "lost_shot"

FORTY_ONE = TargetRules(
    id="forty_one_pool",
    name="Forty-one pool",
    aliases=("forty_one", "41_pool"),
    source=f"{BOOK}, lines 1254-1278",
    summary="private ball + numbers pocketed = exactly 41; one stroke a turn; a scratch owes a "
    "ball",
    fouls=_fouls(
        ("no_cushion", _SCRATCH),
        ("double_hit", _VOID),
        ("not_tip", _VOID),
        ("touched_ball", _VOID),
        ("feet", _VOID),
        ("balls_moving", _VOID),
        common=("no_cushion", "double_hit"),
    ),
    balls=NUMBERED,
    pocket=True,
    options=(("private", None), ("private_range", (6, 18)), ("target", 41)),
    one_stroke=True,
    privilege="draw",
    draws=True,
    private=True,
    extra_fields=("spot",),
    state_keys=("racks", "owed", "on_table", "loser"),
    stats=("won", "bursts", "balls"),
)

KELLY = TargetRules(
    id="kelly_pool",
    name="Kelly pool",
    aliases=("kelly",),
    source=f"{BOOK}, lines 1457-1493",
    summary="private ball + numbers pocketed = exactly 31; play on while pocketing; scratch -3; "
    "burst: privilege or out",
    fouls=_fouls(
        ("no_cushion", _SCRATCH),
        ("double_hit", _SCRATCH),
        ("balls_moving", _SCRATCH),
        ("feet", _SCRATCH),
        ("touched_ball", _VOID),
        ("not_tip", _VOID),
        common=("no_cushion", "double_hit"),
    ),
    balls=NUMBERED,
    pocket=True,
    options=(
        ("private", None),
        ("private_range", (1, 15)),
        ("target", 31),
        ("privilege_fee", 1),
    ),
    out_of_turn=True,
    called=True,
    proclaim=True,
    privilege="decide",
    draws=True,
    retire=True,
    private=True,
    state_keys=("racks", "on_table"),
    stats=("won", "bursts", "balls", "paid"),
)

PIN_POOL = TargetRules(
    id="pin_pool",
    name="Pin pool (five-pin pool)",
    aliases=("five_pin_pool",),
    source=f"{BOOK}, lines 1533-1591",
    summary="private ball + pin values = exactly 31; one stroke a turn; a natural wins; burst "
    "back to the private ball",
    fouls=_fouls(
        ("interference", _BURST),
        ("pin_touched", _VOID),
        ("pins_not_set", _VOID),
        ("push", _VOID),
        ("double_hit", _VOID),
        ("not_tip", _VOID),
        ("touched_ball", _VOID),
        ("feet", _VOID),
        ("balls_moving", _VOID),
        common=("pin_touched", "push"),
    ),
    balls=PIN_BALLS,
    pins=("head", "left", "right", "foot", "middle"),
    options=(
        ("private", None),
        ("private_range", (1, 16)),
        ("target", 31),
        ("privilege_fee", 1),
        ("pin_values", {"head": 1, "right": 2, "left": 3, "foot": 4, "middle": 5}),
    ),
    one_stroke=True,
    out_of_turn=True,
    called=True,
    proclaim=True,
    privilege="draw",
    draws=True,
    private=True,
    stats=("won", "bursts", "pins", "paid"),
)

BOTTLE_POOL = TargetRules(
    id="bottle_pool",
    name="Bottle pool",
    aliases=("bottle",),
    source=f"{BOOK}, lines 1495-1531",
    summary="carom 1, 1-ball 1, 2-ball 2, bottle upset 5; exactly 31, the excess starts a new "
    "string; seating the bottle wins",
    fouls=_fouls(("feet", _PENALTY), ("not_tip", _PENALTY), common=("feet",)),
    balls=(1, 2),
    pocket=True,
    options=(("target", 31),),
    proclaim=True,
    extra_fields=("bottle",),
    state_keys=("loser",),
    stats=("won", "bursts"),
)

PARISIAN = TargetRules(
    id="parisian_31_pool",
    name="Pool for 31 on the Parisian board",
    aliases=("parisian_31", "la_barraque_31"),
    source=f"{BOOK}, lines 1851-1865 (board 1875-1887)",
    summary="cup numbers added; exactly 31; burst: buy back in or out",
    fouls=(),
    options=(("target", 31), ("privilege_fee", 1), ("cups", 12)),
    one_stroke=True,
    out_of_turn=True,
    called=True,
    proclaim=True,
    privilege="decide",
    retire=True,
    extra_fields=("cup",),
    stats=("won", "bursts", "paid"),
)

_SKITTLE_VALUES = {
    "w1": 3,
    "w2": 4,
    "w3": 5,
    "w4": 6,
    "w5": 7,
    "w6": 8,
    "w7": 9,
    "w8": 10,
    "w9": 4,
    "w10": 5,
}

SKITTLE = TargetRules(
    id="skittle_pool",
    name="Skittle pool",
    aliases=("skittles",),
    source=f"{BOOK}, lines 1403-1455",
    summary="white pins 3-10 each; a black pin wipes the score; 50 up; one stroke a turn",
    fouls=_fouls(
        ("push", _VOID),
        ("pin_touched", _VOID),
        ("pins_not_set", _VOID),
        ("double_hit", _VOID),
        ("not_tip", _VOID),
        ("touched_ball", _VOID),
        ("feet", _VOID),
        ("balls_moving", _VOID),
        common=("push", "pin_touched"),
    ),
    balls=PIN_BALLS,
    pins=(*_SKITTLE_VALUES, "b1", "b2", "b3"),
    options=(("target", 50), ("privilege_fee", 1), ("pin_values", _SKITTLE_VALUES)),
    one_stroke=True,
    out_of_turn=True,
    privilege="decide",
    retire=True,
    state_keys=("misses",),
    stats=("won", "bursts", "pins", "paid"),
)

_RWB_FOULS = _fouls(
    ("pin_touched", "chip"),
    ("double_hit", "chip"),
    ("not_tip", "chip"),
    ("touched_ball", "chip"),
    ("feet", "chip"),
    ("balls_moving", "chip"),
    common=("pin_touched",),
)

RED_WHITE_BLUE = TargetRules(
    id="red_white_blue",
    name="Red, white and blue",
    aliases=("rwb",),
    source=f"{BOOK}, lines 1593-1653",
    summary="pins red, white, blue in that order, each by the ball of its colour; a chip for "
    "each fault",
    fouls=_RWB_FOULS,
    balls=RWB,
    pins=RWB,
    pin_by=(*RWB, "pin"),
    pin_by_required=True,
    options=(("chip_fines", True),),
    out_of_turn=True,
    extra_events=("prompt",),
    state_keys=("pins_held", "needs"),
    stats=("won", "bursts", "pins", "paid"),
)

RED_WHITE_BLUE_CHICAGO = replace(
    RED_WHITE_BLUE,
    id="red_white_blue_chicago",
    name="Red, white and blue, Chicago",
    aliases=("rwb_chicago",),
    source=f"{BOOK}, lines 1655-1689",
    summary="order blue, red, white; a double must include the pin needed next; no chips",
    options=(("chip_fines", False),),
)

TWO_PIN = TargetRules(
    id="two_pin_pool",
    name="Two-pin pool",
    aliases=("two_pin",),
    source=f"{BOOK}, lines 1691-1717",
    summary="the white pin: everyone pays the striker; the black pin alone: the striker pays "
    "everyone",
    fouls=_fouls(
        ("pin_touched", _VOID),
        ("pins_not_set", _VOID),
        ("push", _VOID),
        ("double_hit", _VOID),
        ("not_tip", _VOID),
        ("touched_ball", _VOID),
        ("feet", _VOID),
        ("balls_moving", _VOID),
        common=("pin_touched", "push"),
    ),
    balls=PIN_BALLS,
    pins=("white", "black"),
    options=(("unit", 1), ("pools", 1)),
    extra_events=("time_up",),
    state_keys=("pools",),
    stats=("won", "pins", "balance"),
)

BOUCHON = TargetRules(
    id="bouchon_pool",
    name="Bouchon (cork) pool",
    aliases=("bouchon", "cork_pool"),
    source=f"{BOOK}, lines 1733-1759",
    summary="an object ball off a cushion fells the pool cork clear of its spot: the pool; each "
    "wrong cork costs a stake",
    fouls=_fouls(
        ("money_off", _PENALTY),
        ("push", _VOID),
        ("double_hit", _VOID),
        ("not_tip", _VOID),
        ("touched_ball", _VOID),
        ("feet", _VOID),
        ("balls_moving", _VOID),
        common=("money_off",),
    ),
    balls=PIN_BALLS,
    pins=("pool", "head", "foot"),
    pin_by=("cue", "object", "pin"),
    pin_by_required=True,
    options=(("stake", 1),),
    one_stroke=True,
    privilege="penalty",
    retire=True,
    extra_fields=("cushion",),
    state_keys=("pool",),
    stats=("won", "pins", "balance", "paid"),
)

BULL_DOG = TargetRules(
    id="bull_dog_pool",
    name="Bull dog pool",
    aliases=("bull_dog", "bulldog_pool"),
    source=f"{BOOK}, lines 1761-1791",
    summary="exactly 40 (pots and caroms), exactly 10 more by caroms, then an in-off into a "
    "called pocket",
    fouls=_fouls(
        ("push", _PENALTY),
        ("feet", _PENALTY),
        ("frozen_moved", _PENALTY),
        ("touched_ball", _LOST),
        common=("push", "touched_ball"),
    ),
    balls=(2, 3, 5),
    pocket=True,
    extra_fields=("call",),
    state_keys=("run", "stage", "selected"),
    stats=("won", "bursts"),
)

COWBOY = TargetRules(
    id="cowboy_pool",
    name="Cow-boy pool",
    aliases=("cow_boy_pool", "cowboy"),
    source=f"{BOOK}, lines 1793-1849",
    summary="exactly 90 (pots and caroms), exactly 10 more by caroms, then the 101st: off the "
    "1-ball into a called pocket",
    fouls=_fouls(
        ("push", "hand_out_from_stage_2"),
        ("double_hit", "hand_out"),
        ("not_tip", "hand_out"),
        ("touched_ball", "hand_out"),
        ("feet", "hand_out"),
        ("balls_moving", "hand_out"),
        common=("push", "touched_ball"),
    ),
    balls=(1, 3, 5),
    pocket=True,
    extra_fields=("call",),
    state_keys=("run", "stage"),
    stats=("won", "bursts"),
)

RULES: tuple[TargetRules, ...] = (
    FORTY_ONE,
    KELLY,
    PIN_POOL,
    BOTTLE_POOL,
    PARISIAN,
    SKITTLE,
    RED_WHITE_BLUE,
    RED_WHITE_BLUE_CHICAGO,
    TWO_PIN,
    BOUCHON,
    BULL_DOG,
    COWBOY,
)

# ----------------------------------------------------------------------------- state


class TargetConfig(NamedTuple):
    """The setup values a game reads while playing (frozen with the state)."""

    target: int = 0
    fee: int = 0
    low: int = 0
    high: int = 0
    values: tuple[tuple[str, int], ...] = ()
    cups: int = 12
    chips: bool = False
    unit: int = 1
    pools: int | None = None
    stake: int = 1


class TargetState(NamedTuple):
    """The internal state of a target-family game (immutable; counters, not histories).

    Players are indexes into ``players``; ``-1`` stands for "nobody". ``turn`` is the
    player at the table; ``struck`` whether he has struck in this turn; ``hit`` the player
    whose stroke, the last one played, brought his total to the target (he may proclaim).
    ``on_table`` is a bit mask of the numbered balls (bit n: ball n); ``held`` a bit mask
    of the red-white-blue pins held (bit i: the i-th pin of the game's order). ``counts``
    is skittle's misses in a row and cow-boy's "last stroke pocketed the cue ball on a
    miss" flag; ``pool`` is bouchon's pool and two-pin's pools won; ``owe`` bouchon's
    penalties to pay; ``bursts`` and ``pins_down`` feed the statistics.
    """

    players: tuple[str, ...]
    cfg: TargetConfig
    scores: tuple[int, ...]
    paid: tuple[int, ...]
    seats: Seating
    pending: int = -1
    owe: int = 0
    next: str = STROKE
    over: bool = False
    winner: int = -1
    shared: bool = False
    events: int = 0
    struck: bool = False
    hit: int = -1
    private: tuple[int, ...] = ()
    may_draw: tuple[bool, ...] = ()
    racks: tuple[int, ...] = ()  # bit masks of numbered balls
    on_table: int = 0
    owed: tuple[int, ...] = ()
    loser: int = -1
    counts: tuple[int, ...] = ()
    held: tuple[int, ...] = ()
    run: int = 0
    selected: tuple[int, ...] = ()
    pool: int = 0
    opened: bool = False
    bursts: tuple[int, ...] = ()
    pins_down: tuple[int, ...] = ()

    @property
    def turn(self) -> int:
        """The player at the table."""
        return self.seats.turn

    @property
    def alive(self) -> tuple[bool, ...]:
        """Who is still in the game."""
        return tuple(not out for out in self.seats.out)


_IX = {name: i for i, name in enumerate(TargetState._fields)}
_new_tuple = tuple.__new__


def _upd(s: TargetState, **changes: Any) -> TargetState:
    """``s`` with ``changes`` (a faster ``_replace``: one list, one tuple)."""
    values = list(s)
    for key, value in changes.items():
        values[_IX[key]] = value
    return _new_tuple(TargetState, values)


_EVENTS, _HIT, _PINS_DOWN, _MAY_DRAW, _STRUCK = (
    _IX["events"],
    _IX["hit"],
    _IX["pins_down"],
    _IX["may_draw"],
    _IX["struck"],
)
_RACKS, _ON_TABLE, _OWED, _SCORES = _IX["racks"], _IX["on_table"], _IX["owed"], _IX["scores"]
_RUN, _SEATS, _NEXT, _BURSTS = _IX["run"], _IX["seats"], _IX["next"], _IX["bursts"]
_EMPTY: frozenset[Any] = frozenset()
_CUE_ONLY: frozenset[Any] = frozenset({CUE})
_NOT_BALLS: frozenset[Any] = frozenset({CUSHION, BOTTLE})

_FULL_RACK = sum(1 << n for n in NUMBERED)


def _balls_of(mask: int) -> list[int]:
    return [n for n in NUMBERED if mask >> n & 1]


# ------------------------------------------------------------------- the parsed stroke


class TargetStroke(NamedTuple):
    """A validated ``stroke`` event, read into the terms of the page."""

    player: int
    in_turn: bool
    called: bool
    contacts: tuple[Any, ...]
    touched: tuple[Any, ...]  # different balls in the order of their first entry
    pots: tuple[tuple[Any, Any], ...]  # (ball, pocket)
    potted: frozenset[Any]
    off: frozenset[Any]
    pins: tuple[tuple[str, Any, bool], ...]  # (pin, by, clear)
    before: frozenset[str]
    fouls: frozenset[str]
    cup: int | None
    call: str | None
    spot: tuple[int, ...]
    bottle: Mapping[str, Any] | None
    cushion: bool
    down: frozenset[str]  # every pin down, in either list

    @property
    def miss(self) -> bool:
        """The struck ball touched no ball."""
        return not self.touched

    @property
    def caroms(self) -> int:
        """Balls touched minus one (0 when fewer than two)."""
        return max(0, len(self.touched) - 1)

    @property
    def first(self) -> Any:
        """The first ball touched, or None on a miss."""
        return self.touched[0] if self.touched else None


# ------------------------------------------------------------------------ validation


def structure_refusal(
    fields: Sequence[Field], obj: Mapping[str, Any], path: str
) -> InvalidEvent | None:
    """The first ``unknown_field``, else the first ``missing_field``, anywhere in ``obj``
    (nested pots, pins and the bottle included), or None.

    The core checks field by field; the page orders its refusals by code ("the checks run
    in the order of this table"), so when the core answers ``missing_field`` or
    ``bad_value`` the game asks this first whether an earlier code applies elsewhere in
    the event. Only called on the refusal path.

    >>> pot = Field("pot", "object", "a pot", fields=(Field("ball", "int", "b", required=True),))
    >>> f = (Field("n", "int", "n"), Field("pots", "list", "p", item=pot))
    >>> structure_refusal(f, {"n": "x", "pots": [{"hole": 1}]}, "stroke").code
    'unknown_field'
    """
    missing: InvalidEvent | None = None
    names = {f.name for f in fields}
    for key in obj:
        if key not in names and key != "type":
            return InvalidEvent("unknown_field", f"{path}: unknown field {key!r}")
    for f in fields:
        value = obj.get(f.name)
        if f.name not in obj:
            if f.required and missing is None:
                missing = InvalidEvent("missing_field", f"{path}: {f.name} is required")
            continue
        found = _nested_refusal(f, value, f"{path}.{f.name}")
        if found is not None:
            if found.code == "unknown_field":
                return found
            missing = missing or found
    return missing


def _nested_refusal(f: Field, value: Any, path: str) -> InvalidEvent | None:
    if f.type == "list" and f.item is not None and isinstance(value, (list, tuple)):
        missing = None
        for i, element in enumerate(value):
            found = _nested_refusal(f.item, element, f"{path}[{i}]")
            if found is not None:
                if found.code == "unknown_field":
                    return found
                missing = missing or found
        return missing
    if f.type == "object" and f.fields and isinstance(value, Mapping):
        return structure_refusal(f.fields, value, path)
    return None


# ------------------------------------------------------------------------ statistics


_STATS = {
    "won": Stat("won", "Games won", "sum", "1 for the winner of the game, else 0"),
    "bursts": Stat(
        "bursts",
        "Bursts",
        "sum",
        "strokes that went past the target (or broke the order of the pins) and cost the "
        "player his count",
    ),
    "balls": Stat(
        "balls", "Balls in rack", "sum", "numbered balls in the player's rack at the end"
    ),
    "pins": Stat("pins", "Pins knocked", "sum", "pins (corks) down on the player's strokes"),
    "balance": Stat("balance", "Net balance", "sum", "what the player won less what he paid"),
    "paid": Stat("paid", "Paid in", "sum", "units paid into the pool: fees, chips, new lives"),
}

_KEY_LABELS = {
    "scores": "Score",
    "at_table": "At the table",
    "next": "Next",
    "in_game": "In the game",
    "pending": "Must decide",
    "paid": "Paid in",
    "racks": "Rack",
    "owed": "Owes",
    "on_table": "Balls on the table",
    "loser": "Loser",
    "misses": "Misses in a row",
    "pins_held": "Pins held",
    "needs": "Needs",
    "pools": "Pools won",
    "pool": "Pool",
    "run": "This inning",
    "stage": "Stage",
    "selected": "Selected ball",
}

# ----------------------------------------------------------------------------- game

_SCORES_DOC = {
    "forty_one_pool": "name -> the sum of the numbers in his rack (his total adds his private "
    "ball)",
    "kelly_pool": "name -> the numbers in his rack less 3 a scratch since his last burst (his "
    "total adds his private ball)",
    "pin_pool": "name -> the pin values made since his last burst (his total adds his private "
    "ball)",
    "bottle_pool": "name -> his current string",
    "parisian_31_pool": "name -> the cup numbers made since his last burst",
    "skittle_pool": "name -> the white pins' values made since his last burst",
    "red_white_blue": "name -> the number of pins he holds",
    "red_white_blue_chicago": "name -> the number of pins he holds",
    "two_pin_pool": "name -> net balance (the balances sum to 0)",
    "bouchon_pool": "name -> net balance: the pool won less the stake and the lives paid "
    "(balances plus pool sum to 0)",
    "bull_dog_pool": "name -> banked points (the winner's stays 50)",
    "cowboy_pool": "name -> banked points (101 for the winner)",
}


def _ball_field(name: str, doc: str, balls: tuple[Any, ...], words: tuple[str, ...]) -> Field:
    """A ball (or contact) field: a union of the numbered balls (JSON numbers) and the
    named words (``"cue"``, ``"cushion"``, ``"bottle"``) where the balls are numbers."""
    if balls and all(type(b) is int for b in balls):
        return Field(
            name,
            "union",
            doc,
            variants=(
                Field("number", "int", "a numbered ball", choices=balls),
                Field("word", "str", " or ".join(words), choices=words),
            ),
        )
    return Field(name, "str", doc, choices=(*balls, *words))


def _pin_field(rules: TargetRules, name: str, doc: str, pool_cork: bool = False) -> Field:
    sub = [
        Field("pin", "str", "the pin (cork) knocked down", required=True, choices=rules.pins),
        Field(
            "by",
            "str",
            "what knocked it down: "
            + (
                "the ball of that colour, or another pin"
                if rules.pin_by_required and "pin" in rules.pin_by and "red" in rules.pin_by
                else "the struck ball (cue), another ball (object) or another pin"
            ),
            required=rules.pin_by_required,
            choices=rules.pin_by,
        ),
    ]
    if pool_cork:
        sub.append(
            Field(
                "clear",
                "bool",
                "false when the pool cork fell with some part still touching its spot",
                default=True,
            )
        )
    return Field(
        name, "list", doc, default=(), item=Field("pin", "object", "one pin", fields=tuple(sub))
    )


class TargetGame(Game[TargetState]):
    """A game of the target scoring language, run from a :class:`TargetRules` config.

    :meth:`judge` is the hook each game overrides: what one stroke does. Everything else
    (validation, rotation, out of turn, proclaim, privilege, retire, the end, payments)
    is shared.
    """

    family = "target"
    players = "2 or more, in rotation"
    participants = Participants(("players",), min=2, max=None, count=True)
    #: what ``scores`` holds (the state doc), a game class's own
    scores_doc: str = "name -> points"
    #: the rules of a game class that are not parameters: bouchon's staked pool and pool
    #: cork (``clear``); the staged games' opening stroke; skittle's target "or more";
    #: the view's ``in_game``/``pending`` (cowboy) and ``paid`` (red, white and blue)
    pool_cork = False
    opening = False
    target_or_more = False
    shows_in_game = False
    shows_paid = False

    def __init__(self, rules: TargetRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.fouls = rules.fouls
        self._foul_kind = {f.code: f.penalty for f in rules.fouls}
        self.choice_set_doc = {}
        if "cup" in rules.extra_fields:
            self.choice_set_doc["cups"] = "the cups of the Parisian board, 1 to cups"
        if rules.draws:
            self.choice_set_doc["small_balls"] = "the numbers of the small balls, private_range"
        self._defaults = dict(rules.options)
        self.options = self._options()
        self.events = self._events()
        self._declared = {e.type: {f.name: f for f in e.fields} for e in self.events}
        self.state_doc = self._state_doc()
        self.statistics = tuple(_STATS[s] for s in rules.stats)
        keys = ["scores", "at_table", "next"]
        if rules.privilege or rules.retire or self.shows_in_game:
            keys += ["in_game", "pending"]
        if rules.privilege in ("decide", "penalty") or self.shows_paid:
            keys.append("paid")
        keys += list(rules.state_keys)
        self.display = tuple((k, _KEY_LABELS[k]) for k in keys)

    # -- vocabulary ------------------------------------------------------------

    def _options(self) -> tuple[Field, ...]:
        d = self._defaults
        opts = [
            Option(
                "players",
                "union",
                ("P1", "P2"),
                "the order of play (as the thrown small balls set it), first to play first",
                variants=(
                    Field(
                        "names",
                        "list",
                        "two or more distinct non-empty names",
                        item=Field("name", "str", "a player's name"),
                    ),
                    Field("count", "int", 'n >= 2: "P1" ... "Pn"', minimum=2),
                ),
            )
        ]
        if "private" in d:
            opts.append(
                Option(
                    "private",
                    "object",
                    None,
                    "name -> the private small ball the player drew: one entry for every "
                    "player, whole numbers inside private_range, no two equal. Required; a "
                    "service that starts the game from names draws them from a "
                    "cryptographic generator (draw_option) and hides them until the game "
                    "is over",
                    item=Field("number", "int", "a private small ball", minimum=1),
                    choices_from="players",
                    required=True,
                    drawn_by_service=True,
                )
            )
            opts.append(
                Option(
                    "private_range",
                    "list",
                    d["private_range"],
                    "[low, high]: the numbers of the private small balls, 1 <= low <= high < "
                    "target, at least as many as players",
                    item=Field("number", "int", "a bound", minimum=1),
                )
            )
        if "target" in d:
            opts.append(
                Option(
                    "target",
                    "int",
                    d["target"],
                    "the total to make exactly"
                    + (" (skittle: that many or more)" if self.target_or_more else ""),
                    minimum=1,
                )
            )
        if "privilege_fee" in d:
            opts.append(
                Option(
                    "privilege_fee",
                    "int",
                    d["privilege_fee"],
                    "what claiming the privilege (playing on after a burst) costs",
                    minimum=0,
                )
            )
        if "pin_values" in d:
            pins = tuple(d["pin_values"])
            opts.append(
                Option(
                    "pin_values",
                    "object",
                    None,
                    "pin -> its value (whole number >= 1) for some or all pins; pins not named "
                    "keep their default ("
                    + ", ".join(f"{p} {v}" for p, v in d["pin_values"].items())
                    + ")",
                    fields=tuple(
                        Field(
                            p,
                            "int",
                            f"the {p} pin's value",
                            default=d["pin_values"][p],
                            minimum=1,
                        )
                        for p in pins
                    ),
                )
            )
        if "cups" in d:
            opts.append(
                Option("cups", "int", 12, "the board's cups, numbered 1 to cups", choices=(12, 15))
            )
        if "chip_fines" in d:
            opts.append(
                Option(
                    "chip_fines",
                    "bool",
                    d["chip_fines"],
                    "each foul (and each prompt) costs the offender a chip into the pool",
                )
            )
        if "unit" in d:
            opts.append(Option("unit", "int", 1, 'the amount "per ball"', minimum=1))
        if "pools" in d:
            opts.append(
                Option(
                    "pools",
                    "int",
                    1,
                    "the game ends when that many pools have been won; null: only time_up ends it",
                    nullable=True,
                    minimum=1,
                )
            )
        if "stake" in d:
            opts.append(
                Option(
                    "stake",
                    "int",
                    1,
                    "the stake per head, and the price of each new life",
                    minimum=1,
                )
            )
        return tuple(opts)

    def _events(self) -> tuple[EventType, ...]:
        r = self.rules
        player = player_field(
            "the player who struck (default: the player at the table)", required=False
        )
        fields: list[Field] = [player]
        if r.called:
            fields.append(
                Field(
                    "called",
                    "bool",
                    "a player who struck out of turn had been told to play by a player, the "
                    "marker or the game-keeper",
                    default=False,
                )
            )
        if r.balls or r.pins:
            extra = (BOTTLE,) if BOTTLE in r.extra_fields else ()
            fields.append(
                Field(
                    "contacts",
                    "list",
                    "in order, what the struck ball touched: balls, cushions"
                    + (", the bottle" if extra else "")
                    + " (an entry may repeat; never the struck ball itself)",
                    default=(),
                    item=_ball_field(
                        "contact", "a ball touched, or a cushion", r.balls, (CUSHION, *extra)
                    ),
                )
            )
        if r.pocket:
            ball = _ball_field(
                "ball", 'the ball (a number, or "cue" for the striker\'s ball)', r.balls, (CUE,)
            )
            ball = Field(
                ball.name,
                ball.type,
                ball.doc,
                required=True,
                choices=ball.choices,
                variants=ball.variants,
            )
            pocket = Field("pocket", "str", "the pocket", choices=POCKETS)
            fields.append(
                Field(
                    "pots",
                    "list",
                    "the balls pocketed and where",
                    default=(),
                    item=Field("pot", "object", "one ball pocketed", fields=(ball, pocket)),
                )
            )
            fields.append(
                Field(
                    "off_table",
                    "list",
                    "balls forced off the table",
                    default=(),
                    item=_ball_field("ball", 'a ball, or "cue"', r.balls, (CUE,)),
                )
            )
        if r.pins:
            fields.append(
                _pin_field(
                    r,
                    "pins",
                    "pins knocked down (other than those in pins_before_ball), and by what",
                    self.pool_cork,
                )
            )
            fields.append(
                Field(
                    "pins_before_ball",
                    "list",
                    "pins the struck ball knocked down before it touched any ball",
                    default=(),
                    item=Field("pin", "str", "a pin", choices=r.pins),
                )
            )
        if "bottle" in r.extra_fields:
            fields.append(
                Field(
                    "bottle",
                    "object",
                    "what happened to the bottle (leave out when it stayed on its neck)",
                    fields=(
                        Field(
                            "to",
                            "str",
                            "over (on the bed), cushion, off (off the table or into a pocket) or "
                            "seated (on its base)",
                            required=True,
                            choices=("over", "cushion", "off", "seated"),
                        ),
                        Field(
                            "by",
                            "str",
                            "cue (the striker's ball), object (ball 1 or 2) or player (his cue, "
                            "hand or clothes)",
                            required=True,
                            choices=("cue", "object", "player"),
                        ),
                        Field(
                            "object_touched",
                            "bool",
                            "an object ball had touched the bottle earlier in the stroke",
                            default=False,
                        ),
                    ),
                )
            )
        if "cushion" in r.extra_fields:
            fields.append(
                Field(
                    "cushion",
                    "bool",
                    "the object ball that felled the pool cork had met a cushion first",
                    default=False,
                )
            )
        if "call" in r.extra_fields:
            fields.append(
                Field(
                    "call",
                    "str",
                    "the pocket called for the last stroke (required on it)",
                    choices=POCKETS,
                )
            )
        if "cup" in r.extra_fields:
            fields.append(
                Field(
                    "cup",
                    "int",
                    "the cup the ball lodged in, or null when it stayed on the board or rolled off",
                    choices_from="cups",
                )
            )
        if "spot" in r.extra_fields:
            fields.append(
                Field(
                    "spot",
                    "list",
                    "the balls of his rack the player gives back to pay what he owes (default: "
                    "the lowest)",
                    default=(),
                    item=Field("ball", "int", "a ball number", minimum=1, maximum=15),
                )
            )
        if r.fouls:
            fields.append(
                Field(
                    "fouls",
                    "list",
                    "foul codes (a code given twice counts once)",
                    default=(),
                    item=Field(
                        "foul", "str", "a foul code", choices=tuple(f.code for f in r.fouls)
                    ),
                )
            )
        doc = "one stroke of the cue, by the player at the table" + (
            " (or by another player, out of turn)" if r.out_of_turn else ""
        )
        events = [EventType("stroke", doc, tuple(fields))]
        who = player_field("the player")
        if r.proclaim:
            events.append(
                EventType(
                    "proclaim",
                    "the player calls pool: his total is exactly the target",
                    (who,),
                )
            )
        if r.privilege:
            pf: tuple[Field, ...] = (who,)
            if r.draws:
                pf = (
                    who,
                    Field(
                        "drawn",
                        "int",
                        "the small ball drawn (inside private_range)",
                        required=True,
                        choices_from="small_balls",
                    ),
                    Field(
                        "keep",
                        "str",
                        "which small ball he keeps",
                        default="new",
                        choices=("old", "new"),
                    ),
                )
            doc = {
                "draw": "a burst player takes a new small ball (once, before his next stroke)",
                "decide": "the burst player pays to play on"
                + (" and takes a new small ball" if r.draws else ""),
                "penalty": "the penalised player buys his new lives and plays on",
            }[r.privilege]
            events.append(EventType("privilege", doc, pf))
        if r.retire:
            events.append(EventType("retire", "the player leaves the game", (who,)))
        if "prompt" in r.extra_events:
            events.append(
                EventType("prompt", "that player prompted the striker (H 1643): a chip", (who,))
            )
        if "time_up" in r.extra_events:
            events.append(EventType("time_up", "the players stop: the game ends on the balances"))
        return tuple(events)

    def _state_doc(self) -> dict[str, str]:
        doc = {
            "game": "the game id",
            "over": "the game has ended",
            "winner": "the winning player, or null",
            "shared": "the game ended level at the top",
            "scores": self.scores_doc,
            "at_table": "the player to play next (null when over)",
            "events": "how many events have been applied",
            "next": '"stroke", "decide", "opening", "call" or "none"',
            "in_game": "players still in the game, in playing order",
            "pending": "the player who must claim the privilege or retire, or null",
            "paid": "name -> units paid into the pool",
        }
        extra = {
            "racks": "name -> the numbered balls in his rack, sorted",
            "owed": "name -> balls owed to the table",
            "on_table": "the numbered balls on the table, sorted",
            "loser": "the player ranked last when the game ends, or null",
            "misses": "name -> misses in a row",
            "pins_held": "name -> pins held, in the game's order",
            "needs": "name -> the next pin he needs (null once he holds all three)",
            "pools": "pools won so far",
            "pool": "the money in the pool",
            "run": "what the player at the table has made in this inning",
            "stage": "the stage of the player at the table (null when over)",
            "selected": "name -> his selected ball for the last stroke, or null",
        }
        for k in self.rules.state_keys:
            doc[k] = extra[k]
        if self.rules.private:
            doc["private"] = "name -> private number (only once the game is over)"
            doc["totals"] = "name -> private number plus score (only once the game is over)"
        return doc

    def describe(self) -> dict[str, Any]:
        """The core's description (statistics, display, participants and choice sets
        included) plus where the rules come from."""
        d = super().describe()
        d["source"] = self.rules.source
        d["summary"] = self.rules.summary
        return d

    def seating(self, state: TargetState) -> Seating:
        """The players in their order of play, who is at the table, who has left."""
        return state.seats

    def choice_set(self, state: TargetState, name: str) -> Sequence[Any] | None:
        """One of :meth:`choice_sets` without building the others (the validator asks)."""
        if name == "cups":
            return range(1, state.cfg.cups + 1)
        if name == "small_balls":
            return range(state.cfg.low, state.cfg.high + 1)
        if name == "players":
            return state.seats.players
        return super().choice_set(state, name)

    def choice_sets(self, state: TargetState) -> dict[str, list[Any]]:
        """The players, plus the board's cups (Parisian) and the small balls a privilege
        may draw (forty-one, Kelly, pin pool)."""
        sets = state.seats.choice_sets()
        sets["cups"] = list(range(1, state.cfg.cups + 1))
        sets["small_balls"] = list(range(state.cfg.low, state.cfg.high + 1))
        return sets

    # -- setup -----------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> TargetState:
        """The game before the first stroke; a bad setup is refused with ``bad_setup``.

        >>> from rules import get
        >>> g = get("kelly_pool")
        >>> g.view(g.initial({"players": 2, "private": {"P1": 4, "P2": 9}}))["scores"]
        {'P1': 0, 'P2': 0}
        >>> g.initial({"players": ["Ann"], "private": {"Ann": 3}})
        Traceback (most recent call last):
        ...
        rules.vocabulary.InvalidEvent: bad_setup: at least 2 players are needed, not 1 (event -1)
        """
        # a pure function of the setup (the private balls drawn are seeded by the game
        # and the names): a setup of plain JSON values is set up once and the
        # (immutable) state kept, keyed by its JSON text; refusals are not kept
        key = json.dumps(setup, sort_keys=True) if plain_json(setup) else None
        known: dict[str, TargetState] = self.__dict__.setdefault("_initials", {})
        if key is not None:
            state = known.get(key)
            if state is not None:
                return state
        state = self._set_up(setup)
        if key is not None:
            if len(known) > 256:
                known.clear()
            known[key] = state
        return state

    def _set_up(self, setup: Mapping[str, Any] | None) -> TargetState:
        raw = {} if setup is None else setup
        no_pools = isinstance(raw, Mapping) and "pools" in raw and raw["pools"] is None
        if no_pools:  # null is a value here (only time_up ends it), not "the default"
            raw = {k: v for k, v in raw.items() if k != "pools"}
        values = validate_setup(self, raw)
        seats = self.participants.seat(values)
        players = seats.parties
        n = len(players)
        d = self._defaults
        target = values.get("target") or 0
        pin_values: tuple[tuple[str, int], ...] = ()
        if "pin_values" in d:
            merged = dict(d["pin_values"])
            for pin, v in (values.get("pin_values") or {}).items():
                if v is not None:
                    merged[pin] = v
            pin_values = tuple(merged.items())
        low = high = 0
        private: tuple[int, ...] = ()
        if self.rules.private:
            low, high = self._private_range(values["private_range"], target, n)
            private = self._private(values.get("private"), players, low, high)
        cfg = TargetConfig(
            target=target,
            fee=values.get("privilege_fee") or 0,
            low=low,
            high=high,
            values=pin_values,
            cups=values.get("cups") or 12,
            chips=bool(values.get("chip_fines")),
            unit=values.get("unit") or 1,
            pools=None if no_pools or "pools" not in d else values["pools"],
            stake=values.get("stake") or 1,
        )
        zeros = (0,) * n
        scores = zeros
        pool = 0
        if self.pool_cork:
            scores = (-cfg.stake,) * n
            pool = cfg.stake * n
        pocket_rack = self.rules.balls == NUMBERED
        return TargetState(
            players=players,
            cfg=cfg,
            scores=scores,
            paid=zeros,
            seats=seats,
            next=OPENING if self.opening else STROKE,
            private=private,
            may_draw=(False,) * n,
            racks=zeros if pocket_rack else (),
            on_table=_FULL_RACK if pocket_rack else 0,
            owed=zeros,
            counts=zeros,
            held=zeros,
            selected=zeros,
            pool=pool,
            bursts=zeros,
            pins_down=zeros,
        )

    def draw_option(self, name: str, setup: Mapping[str, Any], rng: random.Random) -> Any:
        """The private small balls for a game about to start with ``setup`` (players and
        the other options; ``private`` left out), drawn with ``rng``: one each, inside
        ``private_range``, no two equal. The service passes a cryptographic generator.

        >>> import random
        >>> from rules import get
        >>> g = get("kelly_pool")
        >>> drawn = g.draw_option("private", {"players": ["Ann", "Bob"]}, random.Random(1))
        >>> sorted(drawn) == ["Ann", "Bob"] and len(set(drawn.values())) == 2
        True
        """
        if name != "private" or not self.rules.private:
            raise KeyError(name)
        raw = {k: v for k, v in (setup or {}).items() if k != "private"}
        try:
            values = fill_defaults(self.options, raw)
            players = self.participants.seat(values).parties
            target = values.get("target") or 0
            low, high = self._private_range(values["private_range"], target, len(players))
        except (TypeError, ValueError, IndexError):
            raise InvalidEvent("bad_setup", "private_range must be [low, high]", -1) from None
        return dict(zip(players, rng.sample(range(low, high + 1), len(players)), strict=True))

    def _private_range(self, given: Sequence[int], target: int, n: int) -> tuple[int, int]:
        if len(given) != 2 or not 1 <= given[0] <= given[1] < target:
            raise InvalidEvent(
                "bad_setup", "private_range must be [low, high], 1 <= low <= high < target", -1
            )
        low, high = given
        if high - low + 1 < n:
            raise InvalidEvent("bad_setup", "private_range: fewer small balls than players", -1)
        return low, high

    def _private(
        self, given: Mapping[str, int] | None, players: Sequence[str], low: int, high: int
    ) -> tuple[int, ...]:
        """The private small balls, as given: one each, inside the range, no two equal.
        They are required: replay is a pure function of the setup and the events, and the
        engine never draws them itself (anything it could draw from, a player could
        compute)."""
        if given is None:
            raise InvalidEvent(
                "bad_setup",
                "private is required: name -> the small ball each player drew (a service "
                "that starts the game from names draws them; see draw_option)",
                -1,
            )
        if set(given) != set(players):
            raise InvalidEvent("bad_setup", "private: one entry for every player", -1)
        private = tuple(given[p] for p in players)
        if any(not low <= x <= high for x in private):
            raise InvalidEvent("bad_setup", f"private: numbers must be {low} to {high}", -1)
        if len(set(private)) != len(private):
            raise InvalidEvent("bad_setup", "private: no two players may hold one ball", -1)
        return private

    # -- events ----------------------------------------------------------------

    def apply(self, state: TargetState, event: Mapping[str, Any]) -> TargetState:
        """The state after one event; refusals in the page's order (game over, then the
        vocabulary, then what cannot have happened, then what is not allowed now)."""
        if state.over:
            raise IllegalEvent("game_over", "the game is over")
        self._validate(event, state)
        kind = event["type"]
        if kind == "stroke":
            if state.next == CALL:
                missing = self._call_missing(event)
                if missing is not None:
                    raise missing
            return self._stroke(state, event)
        if kind == "time_up":
            return self._end_on_balances(_upd(state, events=state.events + 1))
        who = self._player(state, event["player"], kind)
        if kind == "proclaim":
            return self._proclaim(state, who)
        if kind == "privilege":
            return self._privilege(state, who, event)
        if kind == "retire":
            return self._retire(state, who)
        if kind == "prompt":
            if state.seats.out[who]:
                raise IllegalEvent("not_now", f"prompt: {state.players[who]} is out of the game")
            paid = state.paid
            if state.cfg.chips:
                paid = _add(paid, who, 1)
            return _upd(state, paid=paid, events=state.events + 1)
        raise AssertionError(kind)  # pragma: no cover - every declared type is handled

    def _validate(self, event: Any, state: TargetState) -> None:
        """The core's validation (the refusal, if any), in the page's order of codes."""
        try:
            validate_event(self, event, state)
        except InvalidEvent as err:
            if err.code in ("missing_field", "bad_value"):
                earlier = self._earlier_refusal(state, event)
                if earlier is not None and (err.code == "bad_value" or earlier.code != err.code):
                    raise earlier from None
            raise

    def _earlier_refusal(self, state: TargetState, event: Mapping[str, Any]) -> InvalidEvent | None:
        """An ``unknown_field`` or ``missing_field`` elsewhere in an event the core refused
        with a later code (the page's order), the stage-3 ``call`` included."""
        kind = event["type"]
        declared = self._declared[kind]
        found = structure_refusal(tuple(declared.values()), event, kind)
        if found is not None and found.code == "unknown_field":
            return found
        if kind == "stroke" and state.next == CALL:
            return found or self._call_missing(event)
        return found

    def _call_missing(self, event: Mapping[str, Any]) -> InvalidEvent | None:
        """Bull dog and cow-boy at stage 3: the stroke needs ``call``, a cue pot its pocket."""
        if event.get("call") is None:
            return InvalidEvent("missing_field", "stroke: call is required on the last stroke")
        pots = event.get("pots")
        for pot in pots if isinstance(pots, list) else ():
            if isinstance(pot, Mapping) and pot.get("ball") == CUE and pot.get("pocket") is None:
                return InvalidEvent(
                    "missing_field",
                    "stroke.pots: the cue ball's pocket is required on the last stroke",
                )
        return None

    def _player(self, state: TargetState, name: Any, kind: str) -> int:
        try:
            return state.players.index(name)
        except ValueError:
            raise InvalidEvent("bad_value", f"{kind}.player: {name!r} is not a player") from None

    # -- the stroke --------------------------------------------------------------

    def _read(self, state: TargetState, event: Mapping[str, Any]) -> TargetStroke:
        """The stroke's fields, with the impossible combinations refused."""
        r = self.rules
        get = event.get
        name = get("player")
        player = state.turn if name is None else self._player(state, name, "stroke")
        cup = get("cup")  # checked against the board's cups by the core (choices_from)
        contacts = tuple(get("contacts") or ())
        unique = dict.fromkeys(contacts)  # in order, each once, the cushions dropped
        for c in _NOT_BALLS:
            unique.pop(c, None)
        touched = tuple(unique)
        miss = not touched
        raw_pots = get("pots")
        raw_off = get("off_table")
        pots: tuple[tuple[Any, Any], ...] = ()
        potted = off = _EMPTY
        if raw_pots or raw_off:
            pots = tuple((p["ball"], p.get("pocket")) for p in raw_pots or ())
            potted = frozenset(b for b, _ in pots)
            off_list = tuple(raw_off or ())
            off = frozenset(off_list)
            if len(potted) != len(pots):
                raise IllegalEvent("impossible", "stroke.pots: a ball is listed twice")
            if len(off) != len(off_list):
                raise IllegalEvent("impossible", "stroke.off_table: a ball is listed twice")
            if potted & off:
                raise IllegalEvent("impossible", "stroke: a ball both pocketed and off the table")
            if miss and (potted | off) - _CUE_ONLY:
                raise IllegalEvent(
                    "impossible", "stroke: an object ball pocketed or off the table on a miss"
                )
        raw_pins = get("pins")
        raw_before = get("pins_before_ball")
        pins: tuple[tuple[str, Any, bool], ...] = ()
        before = down = _EMPTY
        if raw_pins or raw_before:
            pins = tuple(
                (p["pin"], p.get("by"), p.get("clear", True) is not False) for p in raw_pins or ()
            )
            pin_names = [p for p, _, _ in pins]
            before_list = tuple(raw_before or ())
            before = frozenset(before_list)
            if len(set(pin_names)) != len(pin_names) or len(before) != len(before_list):
                raise IllegalEvent("impossible", "stroke: a pin is listed twice")
            if before.intersection(pin_names):
                raise IllegalEvent(
                    "impossible", "stroke: a pin is in both pins and pins_before_ball"
                )
            if miss and pins:
                raise IllegalEvent("impossible", "stroke.pins: a pin in pins on a miss")
            down = before.union(pin_names)
        if r.pins and len(touched) > 2:
            raise IllegalEvent(
                "impossible", "stroke.contacts: the struck ball cannot touch three balls"
            )
        if r.balls is NUMBERED:
            on = state.on_table
            for group in (touched, potted, off):
                for b in group:
                    if b != CUE and not on >> b & 1:
                        raise IllegalEvent("impossible", f"stroke: ball {b} is not on the table")
        bottle = get("bottle")
        if bottle is not None:
            if bottle["by"] == "cue" and BOTTLE not in contacts:
                raise IllegalEvent(
                    "impossible",
                    'stroke.bottle: moved by the cue ball, but "bottle" is not in contacts',
                )
            if bottle["by"] == "object" and miss:
                raise IllegalEvent("impossible", "stroke.bottle: moved by an object ball on a miss")
        spot = get("spot")
        drawn_spot: tuple[int, ...] = ()
        if spot:
            drawn_spot = tuple(spot)
            if len(set(drawn_spot)) != len(drawn_spot):
                raise IllegalEvent("impossible", "stroke.spot: a ball is listed twice")
        fouls = get("fouls")
        return TargetStroke(
            player,
            player == state.turn,
            bool(get("called")),
            contacts,
            touched,
            pots,
            potted,
            off,
            pins,
            before,
            frozenset(fouls) if fouls else _EMPTY,
            cup,
            get("call"),
            drawn_spot,
            bottle,
            bool(get("cushion")),
            down,
        )

    def _stroke(self, state: TargetState, event: Mapping[str, Any]) -> TargetState:
        st = self._read(state, event)
        self.check_stroke(state, st)
        if state.pending >= 0:
            raise IllegalEvent(
                "not_now", f"{state.players[state.pending]} must claim the privilege or retire"
            )
        i = st.player
        if state.seats.out[i]:
            raise IllegalEvent("not_now", f"{state.players[i]} is out of the game")
        if not st.in_turn and not self.rules.out_of_turn:
            raise IllegalEvent(
                "not_now",
                f"it is {state.players[state.turn]}'s turn, not {state.players[i]}'s",
            )
        values = list(state)
        values[_EVENTS] = state.events + 1
        values[_HIT] = -1
        if st.pins or st.before:
            values[_PINS_DOWN] = _add(state.pins_down, i, len(st.down))
        if state.may_draw[i]:
            values[_MAY_DRAW] = _set(state.may_draw, i, False)
        if st.in_turn:
            values[_STRUCK] = True
            return self.judge(_new_tuple(TargetState, values), st)
        return self.out_of_turn(_new_tuple(TargetState, values), st)

    def check_stroke(self, state: TargetState, st: TargetStroke) -> None:
        """Hook: game-specific ``impossible`` / ``not_now`` checks before the stroke is
        played (nothing by default)."""

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        """Hook: the state after a stroke by the player at the table (``s`` already counts
        the event). Each game overrides it."""
        raise NotImplementedError

    def out_of_turn(self, s: TargetState, st: TargetStroke) -> TargetState:
        """Hook: a stroke out of turn. By default nothing counts and the table stays."""
        return s

    # -- shared moves ------------------------------------------------------------

    def total(self, s: TargetState, i: int) -> int:
        """Player ``i``'s total: his private number (if any) plus his score."""
        return (s.private[i] if s.private else 0) + s.scores[i]

    def pass_table(self, s: TargetState, **changes: Any) -> TargetState:
        """The table passes to the next player still in the game (the seating's rotation),
        with any other ``changes`` to the state made in the same step."""
        return _upd(s, seats=s.seats.advance(), struck=False, **changes)

    def scored(self, s: TargetState, i: int, score: int) -> TargetState:
        """Player ``i``'s score set to ``score`` by a stroke in turn; he may proclaim if it
        brought his total to the target."""
        if score == s.scores[i]:
            return s
        s = _upd(s, scores=_set(s.scores, i, score))
        if self.rules.proclaim and self.total(s, i) == s.cfg.target:
            s = _upd(s, hit=i)
        return s

    def burst(self, s: TargetState, i: int) -> TargetState:
        """Player ``i`` bursts: his score goes back to 0 (and his rack to the table); he must
        then decide (pending) or may draw a new ball, as his game says."""
        s = _upd(s, scores=_set(s.scores, i, 0), bursts=_add(s.bursts, i, 1))
        if s.racks:
            s = _upd(s, on_table=s.on_table | s.racks[i], racks=_set(s.racks, i, 0))
        if self.rules.privilege == "draw":
            s = _upd(s, may_draw=_set(s.may_draw, i, True))
        elif self.rules.privilege == "decide":
            s = _upd(s, pending=i, next=DECIDE)
        return s

    def finish(self, s: TargetState, winner: int, shared: bool = False) -> TargetState:
        """The game over, won by ``winner`` (-1: nobody)."""
        return _upd(s, over=True, winner=winner, shared=shared, pending=-1, next=NONE, run=0, owe=0)

    def _end_on_balances(self, s: TargetState) -> TargetState:
        best = max(s.scores)
        top = [i for i, v in enumerate(s.scores) if v == best]
        return self.finish(s, top[0] if len(top) == 1 else -1, shared=len(top) > 1)

    # -- proclaim, privilege, retire ----------------------------------------------

    def _proclaim(self, s: TargetState, who: int) -> TargetState:
        name = s.players[who]
        if s.seats.out[who]:
            raise IllegalEvent("not_now", f"proclaim: {name} is out of the game")
        if self.total(s, who) != s.cfg.target:
            raise IllegalEvent("not_now", f"proclaim: {name}'s total is not {s.cfg.target}")
        if not (s.hit == who or (s.turn == who and not s.struck)):
            raise IllegalEvent(
                "not_now", f"proclaim: too late; {name} must wait until the turn comes round again"
            )
        return self.finish(_upd(s, events=s.events + 1), who)

    def _privilege(self, s: TargetState, who: int, event: Mapping[str, Any]) -> TargetState:
        r = self.rules
        name = s.players[who]
        drawn: int = event.get("drawn") or 0
        if r.draws:
            if not s.cfg.low <= drawn <= s.cfg.high:
                raise InvalidEvent(
                    "bad_value",
                    f"privilege.drawn must be {s.cfg.low} to {s.cfg.high}, not {drawn}",
                )
            if drawn in s.private:
                raise IllegalEvent("impossible", f"privilege.drawn: ball {drawn} is held")
        if r.privilege == "draw":
            if not s.may_draw[who]:
                raise IllegalEvent("not_now", f"privilege: not due to {name}")
            s = _upd(s, may_draw=_set(s.may_draw, who, False))
            fee = s.cfg.fee
        else:
            if s.pending != who:
                raise IllegalEvent("not_now", f"privilege: not due to {name}")
            fee = s.owe * s.cfg.stake if r.privilege == "penalty" else s.cfg.fee
            s = _upd(s, pending=-1, owe=0, next=STROKE)
        if r.draws and event.get("keep", "new") != "old":
            s = _upd(s, private=_set(s.private, who, drawn))
        if fee:
            s = _upd(s, paid=_add(s.paid, who, fee))
            if r.privilege == "penalty":
                s = _upd(s, scores=_add(s.scores, who, -fee), pool=s.pool + fee)
        return _upd(s, events=s.events + 1)

    def _retire(self, s: TargetState, who: int) -> TargetState:
        name = s.players[who]
        if s.seats.out[who]:
            raise IllegalEvent("not_now", f"retire: {name} is out of the game")
        if self.rules.privilege != "penalty" and s.pending != who:
            raise IllegalEvent("not_now", f"retire: {name} is not the burst player")
        s = self.leave(_upd(s, events=s.events + 1), who)
        return s

    def leave(self, s: TargetState, who: int) -> TargetState:
        """Player ``who`` leaves the game for good: the table passes if he was at it;
        alone, the last player wins."""
        s = _upd(s, seats=s.seats.knock_out(who))
        if s.pending == who:
            s = _upd(s, pending=-1, owe=0, next=STROKE)
        if s.turn == who:
            s = _upd(self.pass_table(s), run=0)
        left = s.seats.remaining
        if len(left) == 1:
            return self.win_alone(s, left[0])
        return s

    def win_alone(self, s: TargetState, i: int) -> TargetState:
        """Hook: the last player left wins (bouchon: he takes the pool)."""
        return self.finish(s, i)

    # -- output ----------------------------------------------------------------

    def view(self, state: TargetState) -> dict[str, Any]:
        """The public state (the target scoring language "State")."""
        s = state
        names = s.players
        over = s.over

        def by_name(values: Sequence[Any]) -> dict[str, Any]:
            return dict(zip(names, values, strict=True))

        out: dict[str, Any] = {
            "game": self.id,
            "over": over,
            "winner": names[s.winner] if s.winner >= 0 else None,
            "shared": s.shared,
            "scores": by_name(s.scores),
            "at_table": None if over else names[s.turn],
            "events": s.events,
            "next": NONE if over else s.next,
            "in_game": [names[i] for i in s.seats.remaining],
            "pending": names[s.pending] if s.pending >= 0 and not over else None,
            "paid": by_name(s.paid),
        }
        keys = self.rules.state_keys
        if "racks" in keys:
            out["racks"] = by_name([_balls_of(m) for m in s.racks])
            out["on_table"] = _balls_of(s.on_table)
        if "owed" in keys:
            out["owed"] = by_name(s.owed)
        if "loser" in keys:
            out["loser"] = names[s.loser] if s.loser >= 0 else None
        if "misses" in keys:
            out["misses"] = by_name(s.counts)
        if "pins_held" in keys:
            order = self.order
            out["pins_held"] = by_name(
                [[p for k, p in enumerate(order) if h >> k & 1] for h in s.held]
            )
            out["needs"] = by_name([self.needs(h) for h in s.held])
        if "pools" in keys:
            out["pools"] = s.pool
        if "pool" in keys:
            out["pool"] = s.pool
        if "run" in keys:
            out["run"] = 0 if over else s.run
            out["stage"] = None if over else self.stage(s.scores[s.turn] + s.run)
        if "selected" in keys:
            out["selected"] = by_name([v or None for v in s.selected])
        if self.rules.private and over:
            out["private"] = by_name(s.private)
            out["totals"] = by_name([self.total(s, i) for i in range(len(names))])
        return out

    order: tuple[str, ...] = ()

    def needs(self, held: int) -> str | None:
        """The next pin a red-white-blue player needs (None when he holds all three)."""
        for k, p in enumerate(self.order):
            if not held >> k & 1:
                return p
        return None

    def stage(self, points: int) -> int:
        """The stage of a bull dog / cow-boy player with these points."""
        return 1

    def dump(self, state: TargetState) -> dict[str, Any]:
        """The internal state as compact JSON (``load(dump(s)) == s``)."""
        d = state._asdict()
        d["cfg"] = state.cfg._asdict()
        d["seats"] = state.seats.dump()
        return d

    def load(self, data: Mapping[str, Any]) -> TargetState:
        """The internal state back from :meth:`dump`."""
        cfg = dict(data["cfg"])
        cfg["values"] = tuple(tuple(v) for v in cfg["values"])
        fields: dict[str, Any] = {}
        for k, v in data.items():
            if k == "cfg":
                fields[k] = TargetConfig(**cfg)
            elif k == "seats":
                fields[k] = Seating.load(v)
            elif isinstance(v, list):
                fields[k] = tuple(v)
            else:
                fields[k] = v
        return TargetState(**fields)

    # -- declared outcome and statistics --------------------------------------------

    def outcome(self, state: TargetState) -> Outcome:
        """The result, read from the state: the winner; the loser where the game names one
        (forty-one and bottle pool: the page's ``loser``; a two-player game won outright:
        the other player); shared; the scores (net balances in two-pin pool and bouchon).

        >>> from rules import get, replay
        >>> g = get("two_pin_pool")
        >>> g.outcome(replay(g, {}, [{"type": "stroke", "contacts": ["red"],
        ...                           "pins": [{"pin": "white"}]}])).result("P2")
        'loss'
        """
        s = state
        names = s.players
        winner = names[s.winner] if s.winner >= 0 else None
        if "loser" in self.rules.state_keys:
            loser = names[s.loser] if s.loser >= 0 else None
        elif winner is not None and len(names) == 2:
            loser = names[1 - s.winner]
        else:
            loser = None
        return Outcome(s.over, winner, loser, s.shared, dict(zip(names, s.scores, strict=True)))

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """name -> statistic -> value, counted from the event log (the declared
        :attr:`statistics`).

        >>> from rules import get
        >>> g = get("two_pin_pool")
        >>> g.player_statistics({}, [{"type": "stroke", "contacts": ["red"],
        ...                           "pins": [{"pin": "white"}]}])["P1"]
        {'won': 1, 'pins': 1, 'balance': 1}
        """
        s = replay(self, setup, events)
        out: dict[str, dict[str, float]] = {}
        for i, name in enumerate(s.players):
            row: dict[str, float] = {}
            for stat in self.statistics:
                if stat.name == "won":
                    row["won"] = int(s.winner == i)
                elif stat.name == "bursts":
                    row["bursts"] = s.bursts[i]
                elif stat.name == "balls":
                    row["balls"] = bin(s.racks[i]).count("1")
                elif stat.name == "pins":
                    row["pins"] = s.pins_down[i]
                elif stat.name == "balance":
                    row["balance"] = s.scores[i]
                elif stat.name == "paid":
                    row["paid"] = s.paid[i]
            out[name] = row
        return out


_VALUES: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}


def _values(cfg: TargetConfig) -> dict[str, int]:
    """The pin values of a setup as a dict (built once per distinct setup)."""
    found = _VALUES.get(cfg.values)
    if found is None:
        found = _VALUES[cfg.values] = dict(cfg.values)
    return found


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _add(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], t[i] + v, *t[i + 1 :])


# ---------------------------------------------------------------- the twelve games


class FortyOnePool(TargetGame):
    """Forty-one pool (H 1254-1278): one stroke a turn; a scratch owes a ball; 41 ends it."""

    scores_doc = _SCORES_DOC["forty_one_pool"]

    def check_stroke(self, state: TargetState, st: TargetStroke) -> None:
        if not st.in_turn or not st.spot:
            return  # only the balls a player names to spot are checked here
        scratch, void = self._kind(st)
        rack = state.racks[st.player]
        if not (scratch or void):
            for b in st.potted:
                if b != CUE:
                    rack |= 1 << b
        owed = state.owed[st.player] + (1 if scratch else 0)
        n = min(owed, bin(rack).count("1"))
        if n == 0:
            raise IllegalEvent("not_now", "stroke.spot: the player has nothing to give")
        if len(st.spot) != n or any(not rack >> b & 1 for b in st.spot):
            raise IllegalEvent(
                "impossible", f"stroke.spot must name exactly {n} ball(s) of his rack"
            )

    def _kind(self, st: TargetStroke) -> tuple[bool, bool]:
        scratch = st.miss or CUE in st.potted or CUE in st.off or "no_cushion" in st.fouls
        return scratch, (not scratch and bool(st.fouls))

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        scratch, void = self._kind(st)
        rack = s.racks[i]
        on_table = s.on_table
        score = s.scores[i]
        if not (scratch or void):
            for b in st.potted:
                if b != CUE:
                    rack |= 1 << b
                    on_table &= ~(1 << b)
                    score += b
        owed = s.owed[i] + scratch
        if owed and rack:
            balls = _balls_of(rack)
            n = min(owed, len(balls))
            for b in st.spot or balls[:n]:
                rack &= ~(1 << b)
                on_table |= 1 << b
                score -= b
            owed -= n
        target = s.cfg.target
        total = s.private[i] + score
        if total > target:  # a burst: every ball of his rack is spotted (H 1272)
            on_table |= rack
            rack = score = 0
            s = _upd(s, bursts=_add(s.bursts, i, 1), may_draw=_set(s.may_draw, i, True))
        values = list(s)
        values[_RACKS] = _set(s.racks, i, rack)
        values[_ON_TABLE] = on_table
        values[_OWED] = _set(s.owed, i, owed) if owed != s.owed[i] else s.owed
        values[_SCORES] = _set(s.scores, i, score) if score != s.scores[i] else s.scores
        s = _new_tuple(TargetState, values)
        if total == target:
            return self._rank_end(s, winner=i)
        if not on_table:
            return self._rank_end(s)
        return self.pass_table(s)

    def _key(self, s: TargetState, i: int) -> tuple[int, int, int]:
        if s.racks[i]:
            group = 0
        elif s.owed[i] == 0:
            group = 1
        else:
            group = 2
        return (group, s.owed[i], s.cfg.target - self.total(s, i))

    def _rank_end(self, s: TargetState, winner: int = -1) -> TargetState:
        n = len(s.players)
        keys = [self._key(s, i) for i in range(n)]
        shared = False
        if winner < 0:
            best = min(keys)
            top = [i for i in range(n) if keys[i] == best]
            winner = top[0] if len(top) == 1 else -1
            shared = len(top) > 1
        others = [i for i in range(n) if i != winner]
        worst = max(keys[i] for i in others)
        last = [i for i in others if keys[i] == worst]
        loser = last[0] if len(last) == 1 else -1
        return self.finish(_upd(s, loser=loser), winner, shared)


class KellyPool(TargetGame):
    """Kelly pool (H 1457-1493): play on while pocketing; a scratch costs 3; a burst must
    claim the privilege or retire."""

    scores_doc = _SCORES_DOC["kelly_pool"]

    def _value(self, st: TargetStroke) -> tuple[str, int]:
        kinds = {self._foul_kind[f] for f in st.fouls} if st.fouls else _EMPTY
        if st.miss or CUE in st.potted or CUE in st.off or _SCRATCH in kinds:
            return _SCRATCH, 0
        if kinds:
            return _VOID, 0
        return "", sum(b for b in st.potted if b != CUE)

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        kind, value = self._value(st)
        if kind == _SCRATCH:
            s = self.pass_table(self.scored(s, i, s.scores[i] - 3))
        elif kind == _VOID:
            s = self.pass_table(s)
        else:
            rack = s.racks[i]
            on_table = s.on_table
            for b in st.potted:
                if b != CUE:
                    rack |= 1 << b
                    on_table &= ~(1 << b)
            values = list(s)
            values[_RACKS] = _set(s.racks, i, rack)
            values[_ON_TABLE] = on_table
            s = self.scored(_new_tuple(TargetState, values), i, s.scores[i] + value)
            if self.total(s, i) > s.cfg.target:
                s = self.pass_table(self.burst(s, i))
            elif value == 0:
                s = self.pass_table(s)
        return self._empty_table(s)

    def out_of_turn(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        _, value = self._value(st)
        if not st.called and self.total(s, i) + value > s.cfg.target:
            s = self.burst(s, i)
        return self._empty_table(s)

    def _empty_table(self, s: TargetState) -> TargetState:
        if s.on_table:
            return s
        target = s.cfg.target
        live = s.seats.remaining
        best = min(abs(target - self.total(s, i)) for i in live)
        top = [i for i in live if abs(target - self.total(s, i)) == best]
        return self.finish(s, top[0] if len(top) == 1 else -1, shared=len(top) > 1)


class PinPool(TargetGame):
    """Pin pool (H 1533-1591): one stroke a turn; pins count after a ball was touched; a
    natural wins; a burst goes back to the private ball."""

    scores_doc = _SCORES_DOC["pin_pool"]

    def _judge(self, s: TargetState, st: TargetStroke) -> tuple[str, int]:
        if "interference" in st.fouls:
            return _BURST, 0
        if st.fouls:
            return _VOID, 0
        down = {p for p, _, _ in st.pins}
        if {"head", "left", "right", "foot"} <= down and "middle" not in st.down:
            return "natural", 0
        values = _values(s.cfg)
        value = sum(values[p] for p in down)
        if self.total(s, st.player) + value > s.cfg.target:
            return _BURST, 0
        return "", value

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        kind, value = self._judge(s, st)
        if kind == "natural":
            return self.finish(s, i)
        if kind == _BURST:
            s = self.burst(s, i)
        elif value:
            s = self.scored(s, i, s.scores[i] + value)
        return self.pass_table(s)

    def out_of_turn(self, s: TargetState, st: TargetStroke) -> TargetState:
        kind, _ = self._judge(s, st)
        if kind == _BURST and not st.called:
            s = self.burst(s, st.player)
        return s


class BottlePool(TargetGame):
    """Bottle pool (H 1495-1531): caroms, pots and the bottle add up to exactly 31; the
    excess starts a new string; seating the bottle wins."""

    scores_doc = _SCORES_DOC["bottle_pool"]

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        b = st.bottle
        to = b["to"] if b else None
        by = b["by"] if b else None
        bottle_first = False
        if b is not None and by == "cue":
            first_bottle = st.contacts.index(BOTTLE)
            first_ball = next(
                (k for k, c in enumerate(st.contacts) if c != BOTTLE and c != CUSHION), None
            )
            bottle_first = st.miss or (first_ball is not None and first_bottle < first_ball)
        foul = (
            st.miss
            or CUE in st.potted
            or CUE in st.off
            or bool(st.fouls)
            or by == "player"
            or (by == "object" and to in ("over", "seated"))
            or (by == "cue" and (bottle_first or to == "off"))
        )
        if foul:
            return self.pass_table(self.scored(s, i, s.scores[i] - 1))
        lost = (by == "object" and to in ("cushion", "off")) or (
            by == "cue" and bool(b and b.get("object_touched"))
        )
        if lost:
            return self.pass_table(s)
        if by == "cue" and to == "seated":
            return self._over(self.scored(s, i, s.scores[i]), i)
        value = (1 if 1 in st.touched and 2 in st.touched else 0) + (1 if 1 in st.potted else 0)
        value += 2 if 2 in st.potted else 0
        value += 5 if by == "cue" and to in ("over", "cushion") else 0
        string = s.scores[i] + value
        if string > s.cfg.target:
            s = _upd(
                s, scores=_set(s.scores, i, string - s.cfg.target), bursts=_add(s.bursts, i, 1)
            )
            s = self.scored(s, i, string - s.cfg.target)
            return self.pass_table(s)
        s = self.scored(s, i, string) if value else s
        return s if value else self.pass_table(s)

    def _over(self, s: TargetState, winner: int) -> TargetState:
        others = [k for k in range(len(s.players)) if k != winner]
        low = min(s.scores[k] for k in others)
        last = [k for k in others if s.scores[k] == low]
        return self.finish(_upd(s, loser=last[0] if len(last) == 1 else -1), winner)

    def _proclaim(self, s: TargetState, who: int) -> TargetState:
        done = super()._proclaim(s, who)
        return self._over(done, who)


class ParisianPool(TargetGame):
    """Pool for 31 on the Parisian board (H 1851-1865): the cup's number is added."""

    scores_doc = _SCORES_DOC["parisian_31_pool"]

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        score = s.scores[i] + (st.cup or 0)
        if score > s.cfg.target:
            s = self.burst(s, i)
        else:
            s = self.scored(s, i, score)
        return self.pass_table(s)

    def out_of_turn(self, s: TargetState, st: TargetStroke) -> TargetState:
        if not st.called and s.scores[st.player] + (st.cup or 0) > s.cfg.target:
            s = self.burst(s, st.player)
        return s


_BLACK = frozenset({"b1", "b2", "b3"})


class SkittlePool(TargetGame):
    """Skittle pool (H 1403-1455): white pins score; a black pin bursts; three misses in
    a row burst; 50 or more wins."""

    target_or_more = True

    scores_doc = _SCORES_DOC["skittle_pool"]

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        opening = not s.opened
        if opening:
            s = _upd(s, opened=True)
        black = bool(st.down & _BLACK)
        if black and not opening:
            return self.pass_table(self._burst(s, i))
        if not st.touched:
            misses = s.counts[i] + 1
            if misses >= 3:
                return self.pass_table(self._burst(s, i))
            return self.pass_table(s, counts=_set(s.counts, i, misses))
        if s.counts[i]:
            s = _upd(s, counts=_set(s.counts, i, 0))
        if st.fouls or st.before - _BLACK or (opening and black):
            return self.pass_table(s)
        values = _values(s.cfg)
        value = sum(values.get(p, 0) for p, _, _ in st.pins)
        s = self.scored(s, i, s.scores[i] + value)
        if s.scores[i] >= s.cfg.target:
            return self.finish(s, i)
        return self.pass_table(s)

    def _burst(self, s: TargetState, i: int) -> TargetState:
        return self.burst(_upd(s, counts=_set(s.counts, i, 0)), i)


class RedWhiteBlue(TargetGame):
    """Red, white and blue (H 1593-1653) and its Chicago form (H 1655-1689): the pins in
    order, each by the ball of its colour. ``chicago`` switches the double-shot rule."""

    shows_paid = True

    scores_doc = _SCORES_DOC["red_white_blue"]

    def __init__(self, rules: TargetRules, order: tuple[str, ...], chicago: bool) -> None:
        self.order = order
        self._index = {p: k for k, p in enumerate(order)}
        self.chicago = chicago
        super().__init__(rules)

    def _chip(self, s: TargetState, i: int) -> TargetState:
        return _upd(s, paid=_add(s.paid, i, 1)) if s.cfg.chips else s

    def _paid(self, s: TargetState, i: int) -> tuple[int, ...]:
        """``paid`` after a chip from player ``i`` (when chips are played for)."""
        return _add(s.paid, i, 1) if s.cfg.chips else s.paid

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        pins = st.pins
        if st.fouls or not st.touched or st.before:
            return self.pass_table(s, paid=self._paid(s, i))
        if not pins:
            return self.pass_table(s)
        own = True
        for p, by, _ in pins:
            if by == "pin":
                return self.pass_table(s, paid=self._paid(s, i))
            if p != by:
                own = False
        held = s.held[i]
        index = self._index
        bits = [index[p] for p, _, _ in pins]
        if self.chicago:
            need = self.needs(held)
            ok = (
                own
                and not any(held >> k & 1 for k in bits)
                and need is not None
                and self.order.index(need) in bits
            )
        else:
            start = 0
            while held >> start & 1:
                start += 1
            ok = own and sorted(bits) == list(range(start, start + len(bits)))
        if not ok:
            return self.pass_table(
                s,
                held=_set(s.held, i, 0),
                scores=_set(s.scores, i, 0),
                bursts=_add(s.bursts, i, 1),
                paid=self._paid(s, i),
            )
        for k in bits:
            held |= 1 << k
        s = _upd(s, held=_set(s.held, i, held), scores=_set(s.scores, i, bin(held).count("1")))
        if held == 0b111:
            return self.finish(s, i)
        return s

    def out_of_turn(self, s: TargetState, st: TargetStroke) -> TargetState:
        return self._chip(s, st.player)


class TwoPinPool(TargetGame):
    """Two-pin pool (H 1691-1717): the white pin, everyone pays the striker; the black
    alone, the striker pays everyone; the balances sum to 0."""

    scores_doc = _SCORES_DOC["two_pin_pool"]

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        if st.fouls:
            return self.pass_table(s)
        down = st.down
        white_in_pins = any(p == "white" for p, _, _ in st.pins)
        unit = s.cfg.unit
        n = len(s.players)
        if "black" in down and "white" not in down:
            scores = tuple(
                v + unit if k != i else v - unit * (n - 1) for k, v in enumerate(s.scores)
            )
            return self.pass_table(s, scores=scores)
        if white_in_pins and "black" not in down:
            scores = tuple(
                v - unit if k != i else v + unit * (n - 1) for k, v in enumerate(s.scores)
            )
            s = _upd(s, scores=scores, pool=s.pool + 1)
            if s.cfg.pools is not None and s.pool >= s.cfg.pools:
                return self._end_on_balances(s)
            return s
        return self.pass_table(s)


class BouchonPool(TargetGame):
    """Bouchon (H 1733-1759): an object ball off a cushion fells the pool cork clear of
    its spot and wins the pool; each wrong cork costs a stake."""

    pool_cork = True

    scores_doc = _SCORES_DOC["bouchon_pool"]

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = st.player
        down = st.down
        foul_fall = (
            bool(st.before)
            or any(by == "cue" for _, by, _ in st.pins)
            or "head" in down
            or "foot" in down
            or any(p == "pool" and not clear for p, _, clear in st.pins)
        )
        k = (1 if st.miss else 0) + (len(down) if foul_fall else 0)
        k += 1 if "money_off" in st.fouls else 0
        void = any(self._foul_kind[f] == _VOID for f in st.fouls)
        if k == 0 and not void and st.pins == (("pool", "object", True),):
            first_ball = next(
                (n for n, c in enumerate(st.contacts) if c != CUSHION), len(st.contacts)
            )
            bank = CUSHION in st.contacts[:first_ball]
            if st.cushion or bank:
                return self.win_alone(s, i)
        if k:
            s = _upd(s, pending=i, owe=k, next=DECIDE)
        return self.pass_table(s)

    def win_alone(self, s: TargetState, i: int) -> TargetState:
        s = _upd(s, scores=_add(s.scores, i, s.pool), pool=0)
        return self.finish(s, i)


class StagedPool(TargetGame):
    """Bull dog (H 1761-1791) and cow-boy (H 1793-1849): exactly ``first`` by pots and
    caroms, exactly ``second`` by caroms only, then the last stroke into a called pocket.
    The two games share the climb (:meth:`climb`), banking and hand out; each has its own
    :meth:`judge` (the opening, the penalties, the last stroke) and :meth:`overrun`."""

    opening = True

    first = 40
    second = 50

    def stage(self, points: int) -> int:
        return 1 if points < self.first else 2 if points < self.second else 3

    def _next(self, s: TargetState) -> TargetState:
        if s.over or s.next == OPENING:
            return s
        nxt = CALL if s.scores[s.turn] + s.run >= self.second else STROKE
        return s if nxt == s.next else _upd(s, next=nxt)

    def _pass(
        self, s: TargetState, scores: tuple[int, ...], bursts: tuple[int, ...]
    ) -> TargetState:
        """The inning over (the run already banked or lost in ``scores``): the table passes,
        and ``next`` says whether the new player is at his last stroke."""
        seats = s.seats.advance()
        nxt = s.next
        if nxt != OPENING:
            nxt = CALL if scores[seats.turn] >= self.second else STROKE
        values = list(s)
        values[_SCORES] = scores
        values[_RUN] = 0
        values[_SEATS] = seats
        values[_STRUCK] = False
        values[_NEXT] = nxt
        values[_BURSTS] = bursts
        return _new_tuple(TargetState, values)

    def bank(self, s: TargetState) -> TargetState:
        """The run banked and the table passed."""
        scores = _add(s.scores, s.turn, s.run) if s.run else s.scores
        return self._pass(s, scores, s.bursts)

    def hand_out(self, s: TargetState, overrun: bool = False) -> TargetState:
        """The run lost and the table passed (an overrun counts as a burst)."""
        bursts = _add(s.bursts, s.turn, 1) if overrun else s.bursts
        return self._pass(s, s.scores, bursts)

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        raise NotImplementedError

    def climb(self, s: TargetState, st: TargetStroke) -> TargetState:
        """Stages 1 and 2: the stroke's worth, an overrun, or the run growing."""
        points = s.scores[s.turn] + s.run
        objects = [b for b in st.potted if b != CUE]
        if self.stage(points) == 1:
            worth = sum(objects) + st.caroms
            if points + worth > self.first:
                return self.overrun(s)
        else:
            worth = st.caroms
            if objects or points + worth > self.second:
                return self.overrun(s)
        if worth == 0:
            return self.bank(s)
        run = s.run + worth
        nxt = CALL if points + worth >= self.second else STROKE
        return _upd(s, run=run, next=nxt)

    def overrun(self, s: TargetState) -> TargetState:
        """Hook: going past a stage's exact total."""
        return self.hand_out(s, overrun=True)


class BullDogPool(StagedPool):
    """Bull dog pool: 40, then 10 by caroms, then an in-off off the selected ball."""

    scores_doc = _SCORES_DOC["bull_dog_pool"]

    first, second = 40, 50

    def penalty(self, s: TargetState, overrun: bool = False) -> TargetState:
        i = s.turn
        if s.scores[i] > 40:
            s = _upd(s, scores=_add(s.scores, i, -1))
        return self.hand_out(s, overrun)

    def overrun(self, s: TargetState) -> TargetState:
        return self.penalty(s, overrun=True)

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        if s.next == OPENING:
            if st.first != 3:
                return s
            s = _upd(s, next=STROKE)
        stage = self.stage(s.scores[s.turn] + s.run)
        i = s.turn
        if (
            st.miss
            or (CUE in st.potted and stage < 3)
            or any(self._foul_kind[f] == _PENALTY for f in st.fouls)
        ):
            return self.penalty(s)
        if "touched_ball" in st.fouls or st.off:
            return self.bank(s)
        if stage < 3:
            return self.climb(s, st)
        sel = s.selected[i]
        pocket = dict(st.pots).get(CUE, None) if CUE in st.potted else None
        if CUE in st.potted and pocket == st.call and (sel == 0 or st.first == sel):
            s = _upd(s, scores=_add(s.scores, i, s.run), run=0)
            return self.finish(s, i)
        if sel == 0:
            s = _upd(s, selected=_set(s.selected, i, st.first))
        return self.bank(s)


class CowboyPool(StagedPool):
    """Cow-boy pool: 90, then 10 by caroms, then the 101st off the 1-ball into a called
    pocket; the cue ball pocketed on a miss twice running forfeits the game."""

    shows_in_game = True

    scores_doc = _SCORES_DOC["cowboy_pool"]

    first, second = 90, 100

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        i = s.turn
        cue_miss = st.miss and CUE in st.potted
        if cue_miss and s.counts[i]:
            s = _upd(s, run=0, counts=_set(s.counts, i, 0), next=STROKE)
            s = self.leave(s, i)
            return self._next(s)
        s = _upd(s, counts=_set(s.counts, i, 1 if cue_miss else 0))
        if s.next == OPENING:
            s = _upd(s, next=STROKE)
            if st.first != 3:
                return self.hand_out(s)
        stage = self.stage(s.scores[i] + s.run)
        fouls = st.fouls - {"push"} if stage == 1 else st.fouls
        if fouls or st.miss or CUE in st.off or (CUE in st.potted and stage < 3):
            return self.hand_out(s)
        if stage < 3:
            return self.climb(s, st)
        if st.touched != (1,):
            return self.hand_out(s)
        if CUE in st.potted:
            if dict(st.pots)[CUE] == st.call:
                s = _upd(s, scores=_set(s.scores, i, s.scores[i] + s.run + 1), run=0)
                return self.finish(s, i)
            return self.hand_out(s)
        return self.bank(s)


#: Every game of the family, registered.
GAMES: tuple[TargetGame, ...] = (
    FortyOnePool(FORTY_ONE),
    KellyPool(KELLY),
    PinPool(PIN_POOL),
    BottlePool(BOTTLE_POOL),
    ParisianPool(PARISIAN),
    SkittlePool(SKITTLE),
    RedWhiteBlue(RED_WHITE_BLUE, RWB, chicago=False),
    RedWhiteBlue(RED_WHITE_BLUE_CHICAGO, ("blue", "red", "white"), chicago=True),
    TwoPinPool(TWO_PIN),
    BouchonPool(BOUCHON),
    BullDogPool(BULL_DOG),
    CowboyPool(COWBOY),
)

register_all(GAMES)
