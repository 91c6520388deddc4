"""The ledger family: games settled by payments between the players (the ledger scoring language).

Every score is a transfer (§1.2): when a party *scores* v, every other party pays it v;
when it *pays* a penalty v, it pays v to every other party. ``scores`` in the public state
are the net balances, and they always sum to 0.

Four games, one module (docs/games/<id>.md says how each page is read):

* ``snookers_pool_1908``: Snooker's pool, Billiard Association rules 1-30, in the *Hand Book
  of Rules of Billiards* (Brunswick-Balke-Collender, 1908);
* ``snooker_pool_hoyle`` (alias ``snooker_pool``): Snooker Pool, Burroughes & Watts rules as
  reprinted in Hoyle's Games Modernized (rules r1-r23);
* ``english_pyramids``: the laws of English pyramids (the same 1908 book, rules 1-19);
* ``bouillotte``: one deal of Bouillotte, the French card game.

The two snooker games are one state machine, :class:`SnookerPool`, run by a frozen
:class:`SnookerRules` config; they differ in how a stroke is judged (the named hook
:meth:`SnookerPool.judge`: the 1908 "highest of everything in the stroke" against Hoyle's
per-fault figures and its receive-and-pay stroke) and in what a stroke out of turn costs
(:meth:`SnookerPool.out_of_turn`). English pyramids (:class:`Pyramids`) shares the stroke
vocabulary, the seating of players or sides (the core's :class:`~rules.seating.Seating`) and
the ledger; Bouillotte (:class:`Bouillotte`) shares the ledger and the player-name checks.
:func:`rules.simulate.ledger.simulate` plays seeded random legal games of any of the four.
All three are :class:`LedgerGame`: the family's base, as every family has one.

>>> from rules import replay
>>> game = SNOOKER_POOL_HOYLE
>>> s = replay(game, {"players": ["Ann", "Bob", "Cat"]}, [
...     {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]},
...     {"type": "stroke", "first_hit": "black", "pots": [{"ball": "black"}]},
...     {"type": "stroke", "first_hit": None},
... ])
>>> game.view(s)["scores"]
{'Ann': 14, 'Bob': -7, 'Cat': -7}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from rules.core import Game, Outcome, Stat
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import plain_json, validate_event, validate_setup
from rules.vocabulary import (
    FOULS,
    EventType,
    Field,
    Foul,
    IllegalEvent,
    InvalidEvent,
    Option,
    RuleError,
    player_field,
)

__all__ = [
    "BOUILLOTTE",
    "GAMES",
    "LedgerGame",
    "ENGLISH_PYRAMIDS",
    "HOYLE",
    "RULES_1908",
    "SNOOKERS_POOL_1908",
    "SNOOKER_POOL_HOYLE",
    "Bouillotte",
    "DealState",
    "PoolState",
    "Pyramids",
    "PyramidsState",
    "SnookerPool",
    "SnookerRules",
    "LedgerStroke",
    "Verdict",
    "transfer",
]

RED = "red"
WHITE = "white"
COLOUR = "colour"

#: The pool balls ("colours") and their values, lowest first: the order of the sequence.
POOL_BALLS: tuple[tuple[str, int], ...] = (
    ("yellow", 2),
    ("green", 3),
    ("brown", 4),
    ("blue", 5),
    ("pink", 6),
    ("black", 7),
)
_COLOURS = tuple(name for name, _ in POOL_BALLS)
_VALUE: dict[str, int] = {RED: 1, **dict(POOL_BALLS)}
_OBJECT_BALLS = (RED, *_COLOURS)
#: The pockets of the English table (the ledger scoring language §2), as the carom and target pages name them.
POCKETS = ("top_left", "top_right", "middle_left", "middle_right", "baulk_left", "baulk_right")
#: At most this many balls can be out of place before a stroke (15 reds, 6 colours, white).
_MAX_MISPLACED = 22


def transfer(balances: tuple[int, ...], party: int, amount: int) -> tuple[int, ...]:
    """``party`` receives ``amount`` from every other party (pays it, when negative).

    >>> transfer((0, 0, 0), 0, 5)
    (10, -5, -5)
    >>> transfer((10, -5, -5), 0, -1)
    (8, -4, -4)
    """
    if not amount:
        return balances
    n = len(balances)
    return tuple(b + amount * (n - 1) if i == party else b - amount for i, b in enumerate(balances))


# ---------------------------------------------------------------------- the seating

#: The cue games' setup (the ledger scoring language §1.1): players in rotation, or sides with partners.
CUE_PARTICIPANTS = Participants(("players", "sides"), min=2, max=None, per_side=())

_NAME = Field("player", "str", "a player's name")
#: ``players`` (a list, or with ``sides`` an object side -> names) and ``sides``.
SEAT_OPTIONS: tuple[Field, ...] = (
    Option(
        "players",
        "union",
        None,
        'the players in the order of play (at least 2 distinct names; default ["P1", "P2"]). '
        "With `sides`, an object instead: side -> its players in the order they take the "
        "side's visits (names distinct across sides); left out, each side has one unnamed "
        "player",
        variants=(
            Field("players", "list", "individual play: the players in order", item=_NAME),
            Field(
                "by_side",
                "object",
                "play between sides: side -> its players in order",
                item=Field(
                    "names",
                    "list",
                    "a side's players, in the order they take its visits",
                    item=Field("player", "str", "a player's name, or null", nullable=True),
                ),
                choices_from="sides",
            ),
        ),
    ),
    Option(
        "sides",
        "list",
        None,
        "play between sides: the sides in the order of play (at least 2 distinct names); a "
        "side is paid and pays as one party. null: individual play",
        item=Field("side", "str", "a side's name"),
    ),
)

#: The cue games' statistics (the ledger's: balls potted, penalties paid, net balance).
CUE_STATISTICS = (
    Stat(
        "balls_potted",
        "Balls potted",
        "sum",
        "object balls he potted in strokes that scored (in a receive-and-pay stroke, the "
        "ball on only; in pyramids, the reds of his winning hazards)",
    ),
    Stat(
        "penalties_paid",
        "Penalties",
        "sum",
        "the penalties of his strokes (out-of-turn fines and balls out of place included), "
        "each counted once though paid to every other party; in pyramids, balls forfeited",
    ),
    Stat(
        "net",
        "Net balance",
        "sum",
        "his party's net balance at the end (his own in individual play, his side's in play "
        "between sides); may be negative",
    ),
)


def _outcome(
    parties: Sequence[str], figures: Sequence[int], over: bool, balances: Sequence[int]
) -> Outcome:
    """The highest figure wins once over; level highest figures share (§1.4); with two
    parties the other one loses."""
    winner, shared = _leaders(parties, figures, over)
    loser = None
    if winner is not None and len(parties) == 2:
        loser = parties[1 - parties.index(winner)]
    return Outcome(over, winner, loser, shared, dict(zip(parties, balances, strict=True)))


def _leaders(parties: Sequence[str], figures: Sequence[int], over: bool) -> tuple[str | None, bool]:
    """(winner, shared) by the highest figure once over (§1.4)."""
    if not over:
        return None, False
    best = max(figures)
    leaders = [p for p, f in zip(parties, figures, strict=True) if f == best]
    if len(leaders) == 1:
        return leaders[0], False
    return None, True


# ------------------------------------------------------------ the stroke vocabulary


def _ball(name: str, doc: str, choices: tuple[str, ...], **kw: Any) -> Field:
    return Field(name, "str", doc, choices=choices, **kw)


def _pots_field(balls: tuple[str, ...]) -> Field:
    return Field(
        "pots",
        "list",
        'one object per ball pocketed in the stroke, the white included ({"ball": "red"} '
        "once per red); pocket is optional",
        default=(),
        item=Field(
            "pot",
            "object",
            "one ball pocketed",
            fields=(
                _ball("ball", "the ball pocketed", balls, required=True),
                _ball("pocket", "the pocket (checked, then ignored: no pocket scores)", POCKETS),
            ),
        ),
    )


def _off_field(balls: tuple[str, ...]) -> Field:
    return Field(
        "off_table",
        "list",
        'every ball forced off the table, the white included; "red" once per red',
        default=(),
        item=_ball("ball", "a ball forced off the table", balls),
    )


_FOULS_FIELD = Field(
    "fouls",
    "list",
    "what the referee saw that the other fields do not show (a code given twice counts once)",
    default=(),
    item=Field("foul", "str", "a foul code", choices=FOULS),
)


LS = TypeVar("LS")


class LedgerGame(Game[LS]):
    """The family's base: every game of the ledger family settles each score by payments
    between the parties, so its ``scores`` sum to 0. A game is a parameter set (a
    :class:`SnookerRules`, or the class attributes of :class:`Pyramids` and
    :class:`Bouillotte`) with the hooks its rules need (:meth:`SnookerPool.judge`,
    :meth:`SnookerPool.out_of_turn`)."""

    family = "ledger"
    #: where the rules come from (a book and its rule numbers)
    source = ""


class LedgerStroke(NamedTuple):
    """A validated ``stroke`` event, defaults filled in; ``pots`` are the balls' names."""

    first_hit: str | None
    simultaneous: str | None = None
    pots: tuple[str, ...] = ()
    off_table: tuple[str, ...] = ()
    fouls: frozenset[str] = frozenset()
    aim: str | None = None
    player: str | None = None
    misplaced: int = 0


def _validate_stroke(game: Any, event: Mapping[str, Any], state: Any) -> LedgerStroke:
    """Check a stroke's fields (the core's checks, ``player`` against the setup's names;
    a malformed ``pots`` entry answers ``bad_value`` as §2.1 says) and read it."""
    try:
        validate_event(game, event, state)
    except InvalidEvent as err:
        if err.code in ("unknown_field", "missing_field") and err.message.startswith("pots["):
            raise InvalidEvent("bad_value", err.message) from None
        raise
    return _read_stroke(event)


def _read_stroke(event: Mapping[str, Any]) -> LedgerStroke:
    """A stroke event (already checked) as a :class:`LedgerStroke`."""
    get = event.get
    pots = get("pots")
    off = get("off_table")
    fouls = get("fouls")
    return LedgerStroke(
        event["first_hit"],
        get("simultaneous"),
        tuple([p["ball"] for p in pots]) if pots else (),
        tuple(off) if off else (),
        frozenset(fouls) if fouls else _NO_FOULS,
        get("aim"),
        get("player"),
        get("misplaced_balls") or 0,
    )


_NO_FOULS: frozenset[str] = frozenset()


def _check_type_then_over(game: Any, event: Any, over: bool, what: str) -> None:
    """§1.3: an unknown type is refused before ``game_over``."""
    if not isinstance(event, Mapping) or event.get("type") not in game._types:
        validate_event(game, event)  # raises unknown_type
    if over:
        raise IllegalEvent("game_over", f"{what}: the game is over")


# ------------------------------------------------------------ snooker-type pool games


@dataclass(frozen=True)
class SnookerRules:
    """One snooker-type pool game as family parameters (the ledger scoring language §4.15).

    ``fouls`` are the game's foul codes; ``foul_fines`` those that carry a penalty of their
    own (code, value); ``replay_fouls`` those after which the striker plays the stroke
    again (1908 rule 28). ``per_fault_figures`` selects Hoyle's judging (§4.5-4.6: each
    fault its own figure, the ball on received with other colours) over the 1908 formula
    (§3.6). ``out_of_turn_fine``: paid to each party on top of the stroke's penalty;
    ``out_of_turn_skips``: the offender forfeits his next turn (1908 rule 17).
    ``misplaced_balls``: strokes carry the count of balls out of place, 1 each.
    ``table_events``: the 1908 events ``touched_ball`` and ``obstruction``.
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    fouls: tuple[Foul, ...]
    foul_fines: tuple[tuple[str, int], ...] = ()
    replay_fouls: tuple[str, ...] = ()
    per_fault_figures: bool = False
    out_of_turn_fine: int = 0
    out_of_turn_skips: bool = False
    misplaced_balls: bool = False
    table_events: bool = False
    reds: int = 15


_NO_SCORE = "no_score"

#: Snooker's pool, Billiard Association rules (Brunswick's 1908 Hand Book of Rules of Billiards).
RULES_1908 = SnookerRules(
    id="snookers_pool_1908",
    name="Snooker's pool (Billiard Association, 1908)",
    aliases=(),
    source="Hand Book of Rules of Billiards (Brunswick-Balke-Collender, 1908), Snooker's "
    "pool, rules 1-30",
    fouls=(
        Foul("push", _NO_SCORE, "rule 16: the striker pushed: no score; penalties stand", True),
        Foul("double_hit", _NO_SCORE, "rule 16: struck the ball more than once: as push"),
        Foul("feet_off_floor", _NO_SCORE, "rule 18: both feet off the floor: as push"),
        Foul(
            "before_rest",
            _NO_SCORE,
            "rule 19: played before the balls stopped, before a pool ball was respotted, "
            "or with a ball wrongly spotted: as push",
        ),
        Foul(
            "moved_touching_ball",
            _NO_SCORE,
            "rule 13: disturbed a ball touching his own that he was not on: as push",
        ),
        Foul("wrong_ball", "7", "rule 20: played with a ball other than the white: pays 7"),
        Foul(
            "intentional_miss",
            "7",
            "rule 28: a deliberate miss: pays 7 and plays the stroke again",
            True,
        ),
    ),
    foul_fines=(("wrong_ball", 7), ("intentional_miss", 7)),
    replay_fouls=("intentional_miss",),
    out_of_turn_skips=True,
    table_events=True,
)

#: Hoyle's Snooker Pool (Hoyle's Games Modernized; Burroughes & Watts rules).
HOYLE = SnookerRules(
    id="snooker_pool_hoyle",
    name="Snooker Pool (Hoyle's Games Modernized)",
    aliases=("snooker_pool",),
    source="Hoyle's Games Modernized, Snooker Pool (Burroughes & Watts rules 1-23)",
    fouls=(
        Foul(
            "white_touching",
            _NO_SCORE,
            "r16: the white was touching a colour when he played: he cannot score, and the "
            "stroke's penalties stand",
            common=True,
        ),
        Foul("push", _NO_SCORE, "r19: a foul stroke, the ball pushed: no score", common=True),
        Foul("double_hit", _NO_SCORE, "r19: a foul stroke, the ball struck twice: no score"),
        Foul(
            "fouled_ball",
            _NO_SCORE,
            "r19: he touched or disturbed a ball other than by the stroke: no score",
        ),
    ),
    per_fault_figures=True,
    out_of_turn_fine=1,
    misplaced_balls=True,
)


class PoolState(NamedTuple):
    """The internal state of a snooker-type pool game (immutable, counters only).

    ``seats`` is the :class:`~rules.seating.Seating`: the parties (players, or sides), their
    members, the party at the table, each side's partner due and the turns a party will
    be passed over (1908 rule 17). ``on`` is ``"red"``, ``"colour"``, a pool ball, or
    None when over; ``reds`` and ``colours`` the balls on the table; ``break_`` what the
    striker has scored in this visit.
    """

    seats: Seating
    balances: tuple[int, ...]
    on: str | None
    reds: int
    colours: tuple[str, ...]
    break_: int = 0
    over: bool = False
    events: int = 0

    @property
    def striker(self) -> str | None:
        """The player at the table (None for an unnamed partner or when over)."""
        if self.over:
            return None
        return self.seats.player


class Verdict(NamedTuple):
    """What a stroke is worth: ``score`` received from, and ``penalty`` paid to, each other
    party; ``ball_on`` what the striker had to play; ``down`` the pool ball that stays down
    (taken in the sequence); ``reds_gone`` the reds that leave the table; ``plays_on``
    whether the visit goes on; ``again``: the stroke is played again (1908 rule 28)."""

    ball_on: str
    score: int
    penalty: int
    reds_gone: int
    down: str | None
    plays_on: bool
    again: bool = False


_POOL_STATE_DOC = {
    "game": "the game id",
    "over": "true once the black has gone in the sequence",
    "winner": "the party with the highest balance once over; null if not over or shared",
    "shared": "true when over with two or more parties on the highest balance",
    "scores": "party -> net balance (received minus paid); the balances sum to 0",
    "at_table": "the party to play (a player, or a side); null when over",
    "player": "the player at the table (null for an unnamed partner, or when over)",
    "events": "how many events have been applied",
    "on": '"red", "colour" (any pool ball, after a red), the pool ball next in the '
    "sequence, or null when over",
    "reds": "reds on the table",
    "colours": "the pool balls on the table, lowest value first",
    "break": "what the striker has scored in the current visit",
}


class SnookerPool(LedgerGame[PoolState]):
    """A snooker-type pool game: red, colour, red... then the colours in order; every pot
    and every penalty is settled with each other party (the ledger scoring language §3-4).

    A variant is a :class:`SnookerRules`; :meth:`judge` (what a stroke is worth) and
    :meth:`out_of_turn` are the hooks where the variants' rules differ.
    """

    players = "2 or more players in rotation, or 2 or more sides with partners"
    participants = CUE_PARTICIPANTS
    choice_errors = {"players": "unknown_player", "parties": "unknown_player"}
    statistics = CUE_STATISTICS

    def __init__(self, rules: SnookerRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.fouls = rules.fouls
        self._fines = dict(rules.foul_fines)
        self.options = SEAT_OPTIONS
        self.display = (
            ("scores", "Balance"),
            ("at_table", "At the table"),
            ("player", "Striker"),
            ("on", "On"),
            ("break", "Break"),
            ("reds", "Reds left"),
            ("colours", "Pool balls on the table"),
        ) + ((("skips", "Turns to forfeit"),) if rules.out_of_turn_skips else ())
        events = [self._stroke_type()]
        if rules.table_events:
            events += [
                EventType(
                    "touched_ball",
                    "rule 21: the striker touched or moved a ball other than by a stroke "
                    "while still in play: the balls are put back and he plays his stroke",
                ),
                EventType(
                    "obstruction",
                    "rule 23: a party refused to continue, obstructed a player or interfered "
                    "with the balls: it pays the value of every ball on the table; the turn "
                    "does not change",
                    (
                        player_field(
                            "the party at fault (a player's name; a side's name in play "
                            "between sides)",
                            name="by",
                            choices_from="parties",
                        ),
                    ),
                ),
            ]
        self.events = tuple(events)
        self._types = frozenset(e.type for e in self.events)
        self.state_doc = dict(_POOL_STATE_DOC)
        if rules.out_of_turn_skips:
            self.state_doc["skips"] = "party -> turns it will be passed over (rule 17)"

    def _stroke_type(self) -> EventType:
        balls = (WHITE, *_OBJECT_BALLS)
        fields = [
            _ball(
                "first_hit",
                "the object ball the white touched first; null when it touched no ball "
                "(a miss; with the white pocketed or off the table, a coup)",
                _OBJECT_BALLS,
                required=True,
                nullable=True,
            ),
            _ball(
                "simultaneous",
                "a second ball struck at the same instant as first_hit (two reds are fair; "
                "any other pair is a fault)",
                _OBJECT_BALLS,
            ),
            _pots_field(balls),
            _off_field(balls),
            _FOULS_FIELD,
            _ball(
                "aim",
                'the ball the striker declared or aimed at. On "colour": any pool ball '
                "(default: first_hit when that is a pool ball, else it must be given). "
                "Otherwise it may be left out, and if given must be the ball on",
                _OBJECT_BALLS,
            ),
            player_field(
                "who struck (default: the player at the table); another player struck out of turn",
                required=False,
            ),
        ]
        if self.rules.misplaced_balls:
            fields.append(
                Field(
                    "misplaced_balls",
                    "int",
                    "balls not in their proper place when he struck (r4, r5): he pays 1 to "
                    "each player per ball, besides the stroke's penalty (0 to 22)",
                    default=0,
                    minimum=0,
                    maximum=_MAX_MISPLACED,
                )
            )
        return EventType("stroke", "one stroke of the cue", tuple(fields))

    # -- setup -----------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> PoolState:
        """The table before the first stroke: every ball on, the first party on a red.

        >>> s = SNOOKER_POOL_HOYLE.initial({"players": ["Ann", "Bob", "Cat"]})
        >>> s.seats.parties, s.on, s.reds
        (('Ann', 'Bob', 'Cat'), 'red', 15)
        >>> SNOOKER_POOL_HOYLE.initial({"players": ["Ann"]})
        Traceback (most recent call last):
        ...
        rules.vocabulary.InvalidEvent: bad_setup: at least 2 players are needed, not 1 (event -1)
        """
        seats = self.participants.seat(validate_setup(self, setup))
        return PoolState(
            seats=seats,
            balances=(0,) * len(seats.parties),
            on=RED,
            reds=self.rules.reds,
            colours=_COLOURS,
        )

    # -- events ----------------------------------------------------------------

    def apply(self, state: PoolState, event: Mapping[str, Any]) -> PoolState:
        """The state after one event, checks in the order of the ledger scoring language §1.3.

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.apply(g.initial({}), {"type": "stroke", "first_hit": "red",
        ...                             "pots": [{"ball": "red"}]})
        >>> g.view(s)["on"], g.view(s)["scores"]
        ('colour', {'P1': 1, 'P2': -1})
        >>> g.apply(s, {"type": "stroke", "first_hit": "red"})
        Traceback (most recent call last):
        ...
        rules.vocabulary.IllegalEvent: aim_required: aim: the striker is on a pool ball of his \
choice: say which
        """
        _check_type_then_over(self, event, state.over, "the black has gone")
        kind = event["type"]
        if kind == "touched_ball":
            validate_event(self, event, state)
            return state._replace(events=state.events + 1)
        if kind == "obstruction":
            validate_event(self, event, state)  # by: a party (unknown_player)
            party = state.seats.index_of(event["by"])
            value = state.reds + sum(_VALUE[c] for c in state.colours)
            return state._replace(
                balances=transfer(state.balances, party, -value), events=state.events + 1
            )
        stroke = _validate_stroke(self, event, state)
        seats = state.seats
        named = None if stroke.player is None else seats.party_of(stroke.player)
        party = seats.turn if named is None else named  # the name was checked
        ball_on = self._check(state, stroke)
        verdict = self.judge(state, stroke, ball_on)
        if stroke.player is not None and stroke.player != state.striker:
            return self.out_of_turn(state, party, stroke, verdict)
        return self._play(state, stroke, verdict)

    def _check(self, state: PoolState, stroke: LedgerStroke) -> str:
        """The checks of the ledger scoring language §2.1 and §3.13 (IllegalEvent); the ball on."""
        moved = stroke.pots + stroke.off_table
        if len(moved) > 1:
            for ball in (WHITE, *_COLOURS):
                if moved.count(ball) > 1:
                    raise IllegalEvent("impossible", f"pots/off_table: the {ball} is listed twice")
        if moved.count(RED) > state.reds:
            raise IllegalEvent(
                "not_on_table",
                f"pots/off_table: {moved.count(RED)} reds potted or forced off, "
                f"{state.reds} on the table",
            )
        touched = [b for b in (stroke.first_hit, stroke.simultaneous) if b is not None]
        for field, balls in (("first_hit/simultaneous", touched), ("pots/off_table", moved)):
            for ball in balls:
                if (ball in _COLOURS and ball not in state.colours) or (
                    ball == RED and state.reds == 0
                ):
                    raise IllegalEvent("not_on_table", f"{field}: no {ball} is on the table")
        if stroke.first_hit is None:
            if stroke.simultaneous is not None:
                raise IllegalEvent("impossible", "simultaneous: given without first_hit")
            if any(ball != WHITE for ball in moved):
                raise IllegalEvent(
                    "impossible", "pots/off_table: first_hit is null, yet an object ball moved"
                )
        if stroke.simultaneous is not None:
            if stroke.simultaneous == stroke.first_hit != RED:
                raise IllegalEvent(
                    "impossible", f"simultaneous: the {stroke.first_hit} cannot be struck twice"
                )
            if stroke.simultaneous == stroke.first_hit == RED and state.reds < 2:
                raise IllegalEvent("not_on_table", "simultaneous: two reds struck, one is left")
        return self._ball_on(state, stroke)  # aim_required / bad_aim

    def _ball_on(self, state: PoolState, stroke: LedgerStroke) -> str:
        on = state.on
        assert on is not None
        if on == COLOUR:
            aim = stroke.aim
            if aim is None:
                if stroke.first_hit in _COLOURS:
                    return stroke.first_hit
                raise IllegalEvent(
                    "aim_required", "aim: the striker is on a pool ball of his choice: say which"
                )
            if aim not in _COLOURS:
                raise IllegalEvent("bad_aim", f"aim: on a pool ball of his choice, not the {aim}")
            return aim
        if stroke.aim is not None and stroke.aim != on:
            raise IllegalEvent("bad_aim", f"aim: the striker is on the {on}, not the {stroke.aim}")
        return on

    def judge(self, state: PoolState, stroke: LedgerStroke, ball_on: str | None = None) -> Verdict:
        """Hook: what ``stroke`` is worth against what ``state``'s striker is on (the
        stroke has passed the checks). The 1908 rules (§3.5-3.8) or Hoyle's (§4.5-4.7).

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.initial({"players": ["A", "B", "C"]})
        >>> g.judge(s, LedgerStroke(first_hit="red", pots=("red", "pink")))
        Verdict(ball_on='red', score=1, penalty=6, reds_gone=1, down=None, plays_on=False, \
again=False)
        >>> SNOOKERS_POOL_1908.judge(s, LedgerStroke(first_hit="red", pots=("red", "pink"))).score
        0
        """
        if ball_on is None:
            ball_on = self._ball_on(state, stroke)
        if self.rules.per_fault_figures:
            return self._judge_figures(state, stroke, ball_on)
        return self._judge_highest(state, stroke, ball_on)

    def _judge_highest(self, state: PoolState, stroke: LedgerStroke, ball_on: str) -> Verdict:
        """1908 (§3.5-3.8): a penalty is the highest of the value on and every ball in the
        stroke; reds pocketed or forced off are gone for good."""
        value_on = _VALUE[ball_on]
        hit, sim = stroke.first_hit, stroke.simultaneous
        object_pots = [b for b in stroke.pots if b != WHITE]
        object_off = [b for b in stroke.off_table if b != WHITE]
        fouls = stroke.fouls
        fine = max([self._fines.get(code, 0) for code in fouls]) if fouls else 0
        penalised = (
            hit != ball_on
            or (sim is not None and not hit == sim == RED)
            or WHITE in stroke.pots
            or WHITE in stroke.off_table
            or any(b != ball_on for b in object_pots)
            or bool(object_off)
            or fine > 0
        )
        penalty = score = 0
        if penalised:
            balls = [b for b in (hit, sim, *object_pots, *object_off) if b is not None]
            penalty = max(value_on, fine, *(_VALUE[b] for b in balls))
        elif not stroke.fouls:
            score = sum(_VALUE[b] for b in object_pots)
        in_sequence = state.on not in (RED, COLOUR)
        again = bool(fouls) and any(code in self.rules.replay_fouls for code in fouls)
        return Verdict(
            ball_on,
            score,
            penalty,
            stroke.pots.count(RED) + stroke.off_table.count(RED),
            ball_on if in_sequence and score else None,
            score > 0 or again,
            again,
        )

    def _judge_figures(self, state: PoolState, stroke: LedgerStroke, ball_on: str) -> Verdict:
        """Hoyle (§4.5-4.7): each fault its own figure, the highest paid; the ball on
        potted with other colours is received and the highest other colour paid; reds are
        lost only by a stroke that scores."""
        value_on = _VALUE[ball_on]
        hit, sim, pots, off = stroke.first_hit, stroke.simultaneous, stroke.pots, stroke.off_table
        other = 0  # the highest figure but those of wrong balls potted (0: no such fault)
        if hit is None:
            other = value_on  # a miss (a coup too)
        elif hit != ball_on:
            other = max(value_on, _VALUE[hit])
        if sim is not None and hit is not None and not hit == sim == RED:
            other = max(other, _VALUE[hit], _VALUE[sim])
        if WHITE in pots and hit is not None:
            other = max(other, _VALUE[hit])  # in-off
        for b in off:
            other = max(other, value_on if b == WHITE else _VALUE[b])
        wrong = 0  # the highest wrong ball potted
        wrong_red = False
        for b in pots:
            if b != ball_on and b != WHITE:
                wrong = max(wrong, _VALUE[b])
                wrong_red = wrong_red or b == RED
        penalty = max(other, wrong)
        if not other and not wrong_red and not stroke.fouls and ball_on in pots:
            # fair (nothing else went in), or received and paid (r9, r14)
            score = pots.count(RED) if ball_on == RED else value_on
        else:
            score = 0
        in_sequence = state.on not in (RED, COLOUR)
        return Verdict(
            ball_on,
            score,
            penalty,
            pots.count(RED) if score and ball_on == RED else 0,
            ball_on if in_sequence and score else None,
            score > 0 and penalty == 0,
        )

    def _play(self, state: PoolState, stroke: LedgerStroke, verdict: Verdict) -> PoolState:
        seats = state.seats
        turn = seats.turn
        balances = transfer(state.balances, turn, verdict.score - verdict.penalty)
        if stroke.misplaced:
            balances = transfer(balances, turn, -stroke.misplaced)
        reds = state.reds - verdict.reds_gone
        colours = state.colours
        if verdict.down is not None:
            colours = tuple(c for c in colours if c != verdict.down)
        events = state.events + 1
        if not colours:
            return PoolState(
                seats, balances, None, reds, colours, state.break_ + verdict.score, True, events
            )
        if not verdict.plays_on:  # the visit ends (§3.10)
            return PoolState(
                seats.advance(),
                balances,
                RED if reds else colours[0],
                reds,
                colours,
                0,
                False,
                events,
            )
        if verdict.again:
            on = state.on if (state.on != RED or reds) else colours[0]
        elif state.on == RED:
            on = COLOUR
        elif state.on == COLOUR:
            on = RED if reds else colours[0]
        else:
            on = colours[0]
        return PoolState(
            seats, balances, on, reds, colours, state.break_ + verdict.score, False, events
        )

    def out_of_turn(
        self, state: PoolState, party: int, stroke: LedgerStroke, verdict: Verdict
    ) -> PoolState:
        """Hook: a stroke played by someone other than the player at the table. It scores
        nothing and the balls are put back; the offender's party pays the stroke's
        penalty, plus (Hoyle r20, §4.9) 1 to each party and its balls out of place, or
        (1908 rule 17, §3.9) forfeits its next turn. The player at the table plays on."""
        owed = verdict.penalty + self.rules.out_of_turn_fine + stroke.misplaced
        seats = state.seats
        if self.rules.out_of_turn_skips:
            seats = seats.skip(party)
        return state._replace(
            seats=seats,
            balances=transfer(state.balances, party, -owed),
            events=state.events + 1,
        )

    # -- output ----------------------------------------------------------------

    def view(self, state: PoolState) -> dict[str, Any]:
        """The public state (the ledger scoring language §3.12; Hoyle's has no ``skips``, §4.12)."""
        seats = state.seats
        parties = seats.parties
        winner, shared = _leaders(parties, state.balances, state.over)
        out = {
            "game": self.id,
            "over": state.over,
            "winner": winner,
            "shared": shared,
            "scores": dict(zip(parties, state.balances, strict=True)),
            "at_table": None if state.over else seats.at_table,
            "player": state.striker,
            "events": state.events,
            "on": state.on,
            "reds": state.reds,
            "colours": list(state.colours),
            "break": state.break_,
        }
        if self.rules.out_of_turn_skips:
            out["skips"] = dict(zip(parties, seats.skips, strict=True))
        return out

    def dump(self, state: PoolState) -> dict[str, Any]:
        """The internal state as JSON.

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.initial({"sides": ["A", "B"], "players": {"A": ["Ann", "Cat"]}})
        >>> g.load(g.dump(s)) == s
        True
        """
        return {
            "seats": state.seats.dump(),
            "balances": list(state.balances),
            "on": state.on,
            "reds": state.reds,
            "colours": list(state.colours),
            "break": state.break_,
            "over": state.over,
            "events": state.events,
        }

    def load(self, data: Mapping[str, Any]) -> PoolState:
        """The internal state back from :meth:`dump`."""
        return PoolState(
            Seating.load(data["seats"]),
            tuple(data["balances"]),
            data["on"],
            data["reds"],
            tuple(data["colours"]),
            data["break"],
            data["over"],
            data["events"],
        )

    # -- seating, results, statistics -------------------------------------------------

    def seating(self, state: PoolState) -> Seating:
        """The parties' seating."""
        return state.seats

    def outcome(self, state: PoolState) -> Outcome:
        """The highest balance wins (level: shared); with two parties the other loses.

        >>> g = SNOOKERS_POOL_1908
        >>> g.outcome(g.initial({"players": ["Ann", "Bob", "Cat"]})).over
        False
        """
        return _outcome(state.seats.parties, state.balances, state.over, state.balances)

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's balls potted, penalties paid and net balance for one game.

        >>> g = SNOOKER_POOL_HOYLE
        >>> st = g.player_statistics({"players": ["Ann", "Bob"]}, [
        ...     {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]},
        ...     {"type": "stroke", "first_hit": "pink", "aim": "black"}])
        >>> st["Ann"], st["Bob"]["net"]
        ({'balls_potted': 1, 'penalties_paid': 7, 'net': -6}, 6)
        """
        state = self.initial(setup)
        players = state.seats.players
        potted = dict.fromkeys(players, 0)
        penalties = dict.fromkeys(players, 0)
        for event, before, after in _steps(self, state, events):
            if event["type"] == "obstruction" and event["by"] in potted:  # a player, not a side
                penalties[event["by"]] += before.reds + sum(_VALUE[c] for c in before.colours)
            elif event["type"] == "stroke":
                stroke = _read_stroke(event)
                verdict = self.judge(before, stroke)
                who = stroke.player if stroke.player is not None else before.striker
                if who is not None:
                    paid = verdict.penalty + stroke.misplaced
                    if stroke.player is not None and stroke.player != before.striker:
                        paid += self.rules.out_of_turn_fine
                    elif verdict.score > 0:
                        potted[who] += sum(1 for b in stroke.pots if b == verdict.ball_on)
                    penalties[who] += paid
            state = after
        return _lines(state.seats, potted, penalties, state.balances)


def _steps(
    game: Game[Any], state: Any, events: Iterable[Mapping[str, Any]]
) -> Iterable[tuple[Mapping[str, Any], Any, Any]]:
    """(event, state before, state after) along a log; a refused event raises with its
    index (what ``player_statistics`` replays)."""
    for i, event in enumerate(events):
        try:
            after = game.apply(state, event)
        except RuleError as err:
            raise err.at(i) from None
        yield event, state, after
        state = after


def _lines(
    seats: Seating, potted: Mapping[str, int], penalties: Mapping[str, int], balances: Sequence[int]
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in seats.players:
        party = seats.party_of(name)
        assert party is not None
        out[name] = {
            "balls_potted": potted[name],
            "penalties_paid": penalties[name],
            "net": balances[party],
        }
    return out


# ---------------------------------------------------------------- English pyramids


class PyramidsState(NamedTuple):
    """The internal state of English pyramids (the ledger scoring language §5).

    ``balls`` and ``owed`` per party; ``reds`` on the table; ``phase`` ``"play"``,
    ``"endgame"`` or ``"over"``; ``white_party`` the party with the white in the endgame.
    ``odd`` (the setup's reds are odd: the last hazard counts two), ``price`` and
    ``out_on_forfeit`` come from the setup.
    """

    seats: Seating
    balls: tuple[int, ...]
    owed: tuple[int, ...]
    reds: int
    phase: str
    white_party: int | None
    odd: bool
    price: int
    out_on_forfeit: bool
    events: int = 0

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def counts(self) -> tuple[int, ...]:
        """Each party's count: balls taken less balls owed (rule 11)."""
        return tuple(b - o for b, o in zip(self.balls, self.owed, strict=True))

    def settlement(self) -> tuple[int, ...]:
        """The balances if the game ended now (§5.7): every party on the highest count
        receives (highest - count) x price from each party below it."""
        counts = self.counts()
        top = max(counts)
        leaders = sum(1 for c in counts if c == top)
        below = sum(top - c for c in counts)
        return tuple(
            below * self.price if c == top else -(top - c) * leaders * self.price for c in counts
        )


class Pyramids(LedgerGame[PyramidsState]):
    """English pyramids (the 1908 Brunswick Hand Book): fifteen reds and a white; a red
    pocketed is a ball to the striker (the last counts two with an odd number); a losing
    hazard gives one back; the endgame of two parties with the last red (§5)."""

    id = "english_pyramids"
    name = "English pyramids"
    aliases = ()
    players = "2 or more players in rotation, or 2 or more sides with partners"
    source = (
        "Hand Book of Rules of Billiards (Brunswick-Balke-Collender, 1908), English pyramids 1-19"
    )
    participants = CUE_PARTICIPANTS
    choice_errors = {"players": "unknown_player", "parties": "unknown_player"}
    statistics = CUE_STATISTICS
    display = (
        ("scores", "Settlement"),
        ("at_table", "At the table"),
        ("player", "Striker"),
        ("cue_ball", "Plays with"),
        ("balls", "Balls"),
        ("owed", "Balls owed"),
        ("reds", "Reds left"),
        ("phase", "Phase"),
    )
    fouls = (
        Foul(
            "moved_ball",
            "nothing_gained",
            "rule 13: the striker moved a ball while aiming or striking: the stroke gains nothing",
            True,
        ),
    )
    state_doc = {
        "game": "the game id",
        "over": "true once no red is left, or the endgame has been decided",
        "winner": "the party with the highest count once over; null if not over or shared",
        "shared": "true when over with two or more parties on the highest count",
        "scores": "party -> the settlement if the game ended now: the leaders receive the "
        "difference in counts times the price from each party below; sums to 0",
        "at_table": "the party to play; null when over",
        "player": "the player at the table (null for an unnamed partner, or when over)",
        "events": "how many events have been applied",
        "phase": '"play", "endgame" (two parties, one red: white against red) or "over"',
        "reds": "reds on the table",
        "balls": "party -> balls taken and held",
        "owed": "party -> balls forfeited with none to give (deducted at the finish)",
        "cue_ball": 'the ball the striker plays with: "white", or "red" for the red\'s party '
        "in the endgame; null when over",
        "white_party": "in the endgame, the party with the white; else null",
    }

    def __init__(self) -> None:
        self.options = (
            *SEAT_OPTIONS,
            Option(
                "reds",
                "int",
                15,
                "pyramid balls, 2 to 30 (rule 1: any number; 15 or 16 in the book); with an "
                "odd number the last hazard counts two",
                minimum=2,
                maximum=30,
            ),
            Option(
                "price",
                "int",
                1,
                "the agreed sum per ball (rule 3), a whole number from 1",
                minimum=1,
            ),
            Option(
                "partners",
                "str",
                "alternate",
                'sides only: "alternate" (partners take the side\'s visits in turn) or '
                '"out_on_forfeit" (a partner plays until he forfeits a ball) (rule 4)',
                choices=("alternate", "out_on_forfeit"),
            ),
        )
        balls = (WHITE, RED)
        self.events = (
            EventType(
                "stroke",
                "one stroke of the cue by the player at the table",
                (
                    _ball(
                        "first_hit",
                        "the ball the striker's ball touched first (the red; in the endgame "
                        "the other party's ball); null when it touched none (a miss, or a "
                        "coup with the striker's ball in or off)",
                        balls,
                        required=True,
                        nullable=True,
                    ),
                    _pots_field(balls),
                    _off_field(balls),
                    _FOULS_FIELD,
                    player_field(
                        "who struck (default: the player at the table); anyone else is "
                        "refused: the laws have no out-of-turn rule",
                        required=False,
                    ),
                ),
            ),
        )
        self._types = frozenset(e.type for e in self.events)

    def initial(self, setup: Mapping[str, Any] | None) -> PyramidsState:
        """The pyramid set, nobody with a ball, the first party to play.

        >>> ENGLISH_PYRAMIDS.initial({"reds": 31})
        Traceback (most recent call last):
        ...
        rules.vocabulary.InvalidEvent: bad_setup: reds must be at most 30, not 31 (event -1)
        """
        values = validate_setup(self, setup)
        seats = self.participants.seat(values)
        n = len(seats.parties)
        return PyramidsState(
            seats=seats,
            balls=(0,) * n,
            owed=(0,) * n,
            reds=values["reds"],
            phase="play",
            white_party=None,
            odd=values["reds"] % 2 == 1,
            price=values["price"],
            out_on_forfeit=values["partners"] == "out_on_forfeit",
        )

    def apply(self, state: PyramidsState, event: Mapping[str, Any]) -> PyramidsState:
        """The state after one stroke (§5.3-5.7).

        >>> g = ENGLISH_PYRAMIDS
        >>> s = g.apply(g.initial({}), {"type": "stroke", "first_hit": None})
        >>> g.view(s)["owed"], g.view(s)["at_table"]
        ({'P1': 1, 'P2': 0}, 'P2')
        """
        _check_type_then_over(self, event, state.over, "no red is left")
        stroke = _validate_stroke(self, event, state)
        seats = state.seats
        own = RED if state.phase == "endgame" and seats.turn != state.white_party else WHITE
        if stroke.first_hit == own:  # a field check: before the game's own (§1.3)
            raise InvalidEvent("bad_value", f"first_hit: the {own} is the striker's own ball")
        if stroke.player is not None and stroke.player != seats.player:
            raise IllegalEvent(
                "not_your_turn", f"player: {stroke.player!r} is not the player at the table"
            )
        moved = stroke.pots + stroke.off_table
        if moved.count(WHITE) > 1:
            raise IllegalEvent("impossible", "pots/off_table: the white is listed twice")
        if moved.count(RED) > state.reds:
            raise IllegalEvent(
                "not_on_table",
                f"pots/off_table: {moved.count(RED)} reds potted or forced off, "
                f"{state.reds} on the table",
            )
        if stroke.first_hit is None and any(b != own for b in moved):
            raise IllegalEvent(
                "impossible", "pots/off_table: first_hit is null, yet another ball moved"
            )
        if state.phase == "endgame":
            return self._endgame(state, stroke, own)
        return self._play(state, stroke)

    @staticmethod
    def _forfeit(state: PyramidsState, party: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """A ball forfeited (rules 8, 9, 11): back on the spot, or owed. (balls, owed, reds)"""
        balls, owed = list(state.balls), list(state.owed)
        reds = state.reds
        if balls[party] > 0:
            balls[party] -= 1
            reds += 1
        else:
            owed[party] += 1
        return tuple(balls), tuple(owed), reds

    def _play(self, state: PyramidsState, stroke: LedgerStroke) -> PyramidsState:
        seats = state.seats
        turn = seats.turn
        events = state.events + 1
        lost = WHITE in stroke.pots or WHITE in stroke.off_table or stroke.first_hit is None
        if lost:  # a losing hazard: one forfeit; the reds it moved go back (rule 10)
            balls, owed, reds = self._forfeit(state, turn)
            return state._replace(
                seats=seats.advance(), balls=balls, owed=owed, reds=reds, events=events
            )
        k = stroke.pots.count(RED)
        if RED in stroke.off_table or "moved_ball" in stroke.fouls or not k:
            # nothing gained (rules 13, 14), or nothing pocketed: the visit ends
            return state._replace(
                seats=seats.advance(rotate=not state.out_on_forfeit), events=events
            )
        # a winning hazard of k: owed balls first go back on the table (rule 11)
        back = min(k, state.owed[turn])
        owed = state.owed
        if back:
            owed = tuple(o - back if i == turn else o for i, o in enumerate(owed))
        reds = state.reds - k + back
        gained = k - back
        if reds == 0 and state.odd:
            gained += 1  # rule 15: the last hazard counts two
        balls = tuple(b + gained if i == turn else b for i, b in enumerate(state.balls))
        if reds == 0:
            phase, white = "over", None
        elif reds == 1 and len(seats.parties) == 2:
            phase, white = "endgame", turn
        else:
            phase, white = "play", None
        return state._replace(
            balls=balls, owed=owed, reds=reds, phase=phase, white_party=white, events=events
        )

    def _endgame(self, state: PyramidsState, stroke: LedgerStroke, own: str) -> PyramidsState:
        """Rules 16-17 (§5.5): white against red, one stroke each."""
        turn = state.seats.turn
        other_ball = WHITE if own == RED else RED
        events = state.events + 1
        red_gone = RED in stroke.pots or RED in stroke.off_table
        if own in stroke.pots or own in stroke.off_table or stroke.first_hit is None:
            gainer, gained = 1 - turn, 1  # rule 17: the other party adds one
        elif other_ball in stroke.pots and not (
            "moved_ball" in stroke.fouls or other_ball in stroke.off_table
        ):
            gainer, gained = turn, 2 if state.odd else 1  # the last hazard
        else:
            return state._replace(
                seats=state.seats.advance(rotate=not state.out_on_forfeit), events=events
            )
        balls = tuple(b + gained if i == gainer else b for i, b in enumerate(state.balls))
        return state._replace(
            balls=balls,
            reds=0 if red_gone else 1,
            phase="over",
            white_party=None,
            events=events,
        )

    def view(self, state: PyramidsState) -> dict[str, Any]:
        """The public state (the ledger scoring language §5.8)."""
        seats = state.seats
        parties = seats.parties
        winner, shared = _leaders(parties, state.counts(), state.over)
        if state.over:
            cue_ball = None
        elif state.phase == "endgame" and seats.turn != state.white_party:
            cue_ball = RED
        else:
            cue_ball = WHITE
        return {
            "game": self.id,
            "over": state.over,
            "winner": winner,
            "shared": shared,
            "scores": dict(zip(parties, state.settlement(), strict=True)),
            "at_table": None if state.over else seats.at_table,
            "player": None if state.over else seats.player,
            "events": state.events,
            "phase": state.phase,
            "reds": state.reds,
            "balls": dict(zip(parties, state.balls, strict=True)),
            "owed": dict(zip(parties, state.owed, strict=True)),
            "cue_ball": cue_ball,
            "white_party": None if state.white_party is None else parties[state.white_party],
        }

    def dump(self, state: PyramidsState) -> dict[str, Any]:
        """The internal state as JSON; :meth:`load` reads it back.

        >>> g = ENGLISH_PYRAMIDS
        >>> s = g.initial({"sides": ["X", "Y"], "partners": "out_on_forfeit"})
        >>> g.load(g.dump(s)) == s
        True
        """
        return {
            "seats": state.seats.dump(),
            "balls": list(state.balls),
            "owed": list(state.owed),
            "reds": state.reds,
            "phase": state.phase,
            "white_party": state.white_party,
            "odd": state.odd,
            "price": state.price,
            "out_on_forfeit": state.out_on_forfeit,
            "events": state.events,
        }

    def load(self, data: Mapping[str, Any]) -> PyramidsState:
        """The internal state back from :meth:`dump`."""
        return PyramidsState(
            Seating.load(data["seats"]),
            tuple(data["balls"]),
            tuple(data["owed"]),
            data["reds"],
            data["phase"],
            data["white_party"],
            data["odd"],
            data["price"],
            data["out_on_forfeit"],
            data["events"],
        )

    def seating(self, state: PyramidsState) -> Seating:
        """The parties' seating."""
        return state.seats

    def outcome(self, state: PyramidsState) -> Outcome:
        """The highest count wins (level: shared); ``scores`` are the settlement."""
        return _outcome(state.seats.parties, state.counts(), state.over, state.settlement())

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's reds taken in winning hazards, balls forfeited and his
        party's final settlement.

        >>> ENGLISH_PYRAMIDS.player_statistics({"players": ["Ann", "Bob"]}, [
        ...     {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]},
        ...     {"type": "stroke", "first_hit": None}])["Ann"]
        {'balls_potted': 1, 'penalties_paid': 1, 'net': 0}
        """
        state = self.initial(setup)
        players = state.seats.players
        potted = dict.fromkeys(players, 0)
        forfeits = dict.fromkeys(players, 0)
        for event, before, after in _steps(self, state, events):
            who = before.seats.player
            if who is not None:
                turn = before.seats.turn
                gained = (
                    after.balls[turn] - before.balls[turn] + before.owed[turn] - after.owed[turn]
                )
                if before.phase == "play" and gained > 0:
                    potted[who] += _read_stroke(event).pots.count(RED)
                elif before.phase == "endgame" and gained > 0:
                    potted[who] += 1
                if after.owed[turn] > before.owed[turn] or after.balls[turn] < before.balls[turn]:
                    forfeits[who] += 1
            state = after
        return _lines(state.seats, potted, forfeits, state.settlement())


# ----------------------------------------------------------------------- Bouillotte

#: Rank order, high to low; the pack for 3, 4 and 5 players (§6.1).
_RANKS = "AKQJ98"
_PACK_RANKS = {3: "AK98", 4: "AKQ98", 5: "AKQJ98"}
_SUITS = "SHDC"
#: Every card of the 24-card pack, suit by suit (a smaller table's pack is checked by the deal)
CARDS = tuple(rank + suit for suit in _SUITS for rank in _RANKS)
_POINTS = {"A": 11, "K": 10, "Q": 10, "J": 10, "9": 9, "8": 8}
_RED_SUITS = frozenset("HD")


class Pot(NamedTuple):
    """One pot of a deal (§6.8): its chips, who may win it (player indices, from the
    dealer's right), and once settled its winner and how (``by``)."""

    chips: int
    players: tuple[int, ...]
    winner: int | None = None
    by: str | None = None


class Settlement(NamedTuple):
    """How a deal ended: the pots paid out, chips won and net bonuses per player, the suit
    points of a showdown, and whether the deal was thrown in."""

    pots: tuple[Pot, ...]
    won: tuple[int, ...]
    bonuses: tuple[int, ...]
    suit_points: tuple[int, ...] | None = None
    thrown_in: bool = False


class DealState(NamedTuple):
    """The internal state of one deal of Bouillotte (the ledger scoring language §6). Players are
    indices into ``names`` (the seating order); ``order`` lists them from the dealer's
    right, the dealer last. ``actor`` is the player at the table."""

    names: tuple[str, ...]
    order: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    turned: str
    rules: tuple[bool, bool, bool, bool]  # buy_back, brelans, mistigri, count_turned
    carried: tuple[int, ...]
    stakes: tuple[int, ...]
    chips: tuple[int, ...]
    folded: tuple[bool, ...]
    phase: str
    actor: int | None
    straddler: int | None = None
    last_bettor: int | None = None
    called: bool = False
    result: Settlement | None = None
    events: int = 0

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def dealer(self) -> int:
        return self.order[-1]

    @property
    def pot(self) -> int:
        return sum(self.stakes) + sum(self.carried)

    def in_players(self) -> list[int]:
        return [i for i in self.order if not self.folded[i]]

    def able(self, i: int) -> bool:
        return not self.folded[i] and self.chips[i] > 0

    def after(self, start: int, stop: int) -> list[int]:
        """The players after ``start`` in order from the dealer's right, up to (not
        including) ``stop``; a full turn of the table when ``start == stop``."""
        n = len(self.order)
        pos = self.order.index(start)
        out = []
        for k in range(1, n + 1):
            i = self.order[(pos + k) % n]
            if i == stop:
                break
            out.append(i)
        return out


def split_pots(
    stakes: Sequence[int],
    folded: Sequence[bool],
    chips: Sequence[int],
    order: Sequence[int],
    carried: int,
) -> tuple[Pot, ...]:
    """The pots as split by stake levels (§6.8): one level per all-in stake of a player
    still in, lowest first, and a top pot; the carried chips go to the first pot; empty
    pots are left out.

    >>> [(p.chips, p.players) for p in split_pots([2, 5, 8, 16], [True, False, True, False],
    ...                                             [0, 0, 10, 84], [0, 1, 2, 3], 0)]
    [(17, (1, 3)), (14, (3,))]
    """
    levels = sorted({stakes[i] for i in order if not folded[i] and chips[i] == 0})
    pots: list[Pot] = []
    low = 0
    first = True
    for level in (*levels, None):
        if level is None:
            amount = sum(max(0, s - low) for s in stakes)
            players = tuple(i for i in order if not folded[i] and stakes[i] > low)
        else:
            amount = sum(min(s, level) - min(s, low) for s in stakes)
            players = tuple(i for i in order if not folded[i] and stakes[i] >= level)
        if first:
            amount += carried
        if amount > 0:
            pots.append(Pot(amount, players))
            first = False
        if level is not None:
            low = level
    return tuple(pots)


class Bouillotte(LedgerGame[DealState]):
    """One deal of Bouillotte (the ledger scoring language §6): antes, straddles (and the buy-back),
    one betting round with its re-raise turn, split pots and the showdown, brelan
    bonuses. ``scores`` are each player's result for the deal; they sum to 0."""

    id = "bouillotte"
    name = "Bouillotte (one deal)"
    aliases = ()
    players = "3 to 5 players"
    source = "Bouillotte (after Anton, Lanes, Quinola and Foster)"
    fouls = ()
    participants = Participants(("players",), min=3, max=5)
    choice_errors = {"players": "unknown_player"}
    best_stat = "biggest_pot"
    statistics = (
        Stat("hands_won", "Hands won", "sum", "deals in which he took a pot (or every pot)"),
        Stat("biggest_pot", "Biggest pot", "max", "the most chips he took in one pot"),
        Stat(
            "net",
            "Net balance",
            "sum",
            "his result for the deal: chips won plus net bonuses, less his stake and "
            "carried chips; may be negative",
        ),
    )
    #: the moves open in each phase (the pad offers only those; the deal checks them)
    pad_hints = {
        "events": {
            "straddle": {"when": {"phase": ["straddle"]}},
            "buy_back": {"when": {"phase": ["buy_back"]}},
            "decline": {"when": {"phase": ["straddle", "buy_back"]}},
            "pass": {"when": {"phase": ["open", "reraise"]}},
            "open": {"when": {"phase": ["open"]}},
            "call": {"when": {"phase": ["bet"]}},
            "raise": {"when": {"phase": ["bet", "reraise"]}},
            "fold": {"when": {"phase": ["bet"]}},
            "va_tout": {"when": {"phase": ["open", "bet", "reraise"]}},
        }
    }
    display = (
        ("scores", "Result"),
        ("at_table", "To speak"),
        ("phase", "Phase"),
        ("pot", "Pot"),
        ("needed", "Needed"),
        ("stakes", "Stakes"),
        ("chips", "Chips"),
        ("straddler", "Straddler"),
        ("folded", "Folded"),
        ("pots", "Pots"),
        ("bonuses", "Bonuses"),
    )
    state_doc = {
        "game": "the game id",
        "over": "true once the pot is settled or the deal thrown in",
        "winner": "the player who took every pot; null otherwise",
        "shared": "always false (there is no shared result)",
        "scores": "player -> result of the deal: chips won, plus net bonuses, minus his stake "
        "and carried chips; 0 until settled; sums to 0",
        "at_table": "the player to act; null when over",
        "events": "how many events have been applied",
        "phase": "straddle, buy_back, open, bet, reraise or over",
        "dealer": "the dealer",
        "pot": "every chip staked in the deal plus the carried chips",
        "stakes": "player -> chips he has put in this deal (antes included)",
        "chips": "player -> chips in front of him",
        "folded": "the players who folded, in seating order",
        "needed": "chips the player at the table must put in to straddle or buy back, to "
        "open (the least opening) or to call; 0 in the re-raise turn; null when over",
        "straddler": "the last to straddle or buy back (he speaks last); null if none",
        "pots": "the pots as split now, lowest first: chips, who may win it (from the "
        "dealer's right), winner and by (carre, brelan, mistigri, points, fold, straddle)",
        "bonuses": "player -> net brelan bonus chips",
        "suit_points": "null until a showdown, then suit -> points showing",
        "carried": "in a deal thrown in, player -> his chips in the pot (for the next "
        "deal's setup); else empty",
    }

    def __init__(self) -> None:
        card = Field(
            "card", "str", 'a card: rank A K Q J 9 8 then suit S H D C ("AS", "9H")', choices=CARDS
        )
        self.options = (
            Option(
                "players",
                "list",
                ("P1", "P2", "P3", "P4"),
                "3 to 5 distinct names in seating order (counter-clockwise): the player after "
                "the dealer is on his right and speaks first",
                item=Field("player", "str", "a player's name"),
            ),
            Option(
                "dealer",
                "str",
                None,
                "the dealer (default: the last of players)",
                choices_from="players",
            ),
            Option(
                "caves",
                "union",
                100,
                "chips in front of each player before the deal: one whole number for all, "
                "or name -> number for every player; each at least 1 and at least the "
                "player's ante",
                variants=(
                    Field("all", "int", "the same cave for every player", minimum=1),
                    Field(
                        "each",
                        "object",
                        "name -> his cave, for every player",
                        item=Field("chips", "int", "his cave", minimum=1),
                        choices_from="players",
                    ),
                ),
            ),
            Option(
                "ante",
                "str",
                "all",
                '"all": every player puts in 1 and the dealer 1 more; "dealer": the dealer '
                "alone puts in 1",
                choices=("all", "dealer"),
            ),
            Option(
                "carried",
                "object",
                None,
                "name -> chips that player left in the pot of earlier deals thrown in; when "
                "any are carried only the dealer puts in 1 chip",
                item=Field("chips", "int", "chips carried", minimum=0),
                choices_from="players",
            ),
            Option("buy_back", "bool", False, "the buy-back of the right to speak last"),
            Option("brelans", "bool", True, "false: brelans are not recognised (points decide)"),
            Option("mistigri", "bool", False, "true: the brelan de Mistigri counts"),
            Option("count_turned", "bool", True, "the turned card counts in the suit points"),
            Option(
                "hands",
                "object",
                None,
                "name -> the 3 cards the player was dealt",
                item=Field("hand", "list", "three cards", item=card),
                required=True,
                choices_from="players",
            ),
            Option("turned", "str", None, "the card turned face up", required=True, choices=CARDS),
        )
        player = player_field(
            "who acts (default: the player at the table); must be that player", required=False
        )
        chips = Field(
            "chips", "int", "the chips put in, a whole number above 0", required=True, minimum=1
        )
        self.events = (
            EventType("straddle", "the player offered the straddle doubles the pot", (player,)),
            EventType(
                "buy_back",
                "the previous straddler doubles the pot again to buy back the last word",
                (player,),
            ),
            EventType("decline", "declines the straddle or buy-back on offer", (player,)),
            EventType(
                "pass",
                "before an opening: no bet, keeping the right to come in; in the re-raise "
                "turn: no raise",
                (player,),
            ),
            EventType("open", "opens the betting by putting in chips", (chips, player)),
            EventType(
                "call",
                "tenir: brings his stake up to the highest (all his chips if fewer)",
                (player,),
            ),
            EventType("raise", "relancer: puts in more chips than a call needs", (chips, player)),
            EventType("fold", "filer: drops out and abandons his stake", (player,)),
            EventType(
                "va_tout",
                "puts in all his chips: an opening, a raise or a call, as the amount makes it",
                (player,),
            ),
        )
        self._types = frozenset(e.type for e in self.events)
        self._initials: dict[str, DealState] = {}
        #: event type -> its handler (built once, not per event)
        self._handlers: dict[str, Callable[[DealState, int, str, Any], DealState]] = {
            "straddle": self._straddling,
            "buy_back": self._straddling,
            "decline": self._straddling,
            "pass": self._pass,
            "open": self._bet,
            "call": self._bet,
            "raise": self._bet,
            "fold": self._bet,
            "va_tout": self._bet,
        }

    # -- setup -----------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> DealState:
        """The deal after the antes, the straddle offered to the dealer's right.

        >>> s = BOUILLOTTE.initial(EXAMPLE_DEAL)
        >>> s.pot, s.names[s.actor]
        (5, 'A')
        """
        # a pure function of the setup: a setup of plain JSON values is dealt once and
        # the (immutable) state kept, keyed by its JSON text; refusals are not kept
        key = json.dumps(setup, sort_keys=True) if plain_json(setup) else None
        if key is not None:
            known = self._initials.get(key)
            if known is not None:
                return known
        state = self._deal(setup)
        if key is not None:
            if len(self._initials) > 256:
                self._initials.clear()
            self._initials[key] = state
        return state

    def _deal(self, setup: Mapping[str, Any] | None) -> DealState:
        values = validate_setup(self, setup)
        names = self.participants.seat(values).players  # 3 to 5 distinct names
        n = len(names)
        dealer = names.index(values["dealer"]) if values["dealer"] is not None else n - 1
        order = tuple((dealer + 1 + k) % n for k in range(n))
        carried_map = values["carried"] or {}
        carried = tuple(carried_map.get(name, 0) for name in names)
        if sum(carried) > 0 or values["ante"] == "dealer":
            antes = tuple(1 if i == dealer else 0 for i in range(n))
        else:
            antes = tuple(2 if i == dealer else 1 for i in range(n))
        raw_caves = values["caves"]
        if isinstance(raw_caves, Mapping):
            missing = [name for name in names if name not in raw_caves]
            if missing:
                raise InvalidEvent("bad_setup", f"caves: no cave for {missing[0]!r}", -1)
            caves = tuple(raw_caves[name] for name in names)
        else:
            caves = (raw_caves,) * n
        for name, cave, ante in zip(names, caves, antes, strict=True):
            if cave < max(1, ante):
                raise InvalidEvent(
                    "bad_setup", f"caves: {name!r} needs at least {max(1, ante)} chips", -1
                )
        hands = self._cards(values["hands"], values["turned"], names)
        state = DealState(
            names=names,
            order=order,
            hands=hands,
            turned=values["turned"],
            rules=(
                values["buy_back"],
                values["brelans"],
                values["mistigri"],
                values["count_turned"],
            ),
            carried=carried,
            stakes=antes,
            chips=tuple(c - a for c, a in zip(caves, antes, strict=True)),
            folded=(False,) * n,
            phase="straddle",
            actor=order[0],
        )
        if state.chips[order[0]] < state.pot:
            return self._end_straddling(state)
        return state

    @staticmethod
    def _cards(
        hands: Mapping[str, Any], turned: str, names: tuple[str, ...]
    ) -> tuple[tuple[str, ...], ...]:
        ranks = _PACK_RANKS[len(names)]
        seen: set[str] = set()
        out = []
        for name in names:
            hand = hands.get(name)
            if hand is None or len(hand) != 3:
                raise InvalidEvent("bad_setup", f"hands.{name} must be 3 cards", -1)
            out.append(tuple(hand))
        for card in (*(c for h in out for c in h), turned):
            if len(card) != 2 or card[0] not in ranks or card[1] not in _SUITS:
                raise InvalidEvent(
                    "bad_setup", f"{card!r} is not a card of the {len(ranks) * 4}-card pack", -1
                )
            if card in seen:
                raise InvalidEvent("bad_setup", f"the {card} is dealt twice", -1)
            seen.add(card)
        return tuple(out)

    # -- events ----------------------------------------------------------------

    def apply(self, state: DealState, event: Mapping[str, Any]) -> DealState:
        """The state after one action of the player at the table (§6.3-6.10).

        >>> g = BOUILLOTTE
        >>> s = g.apply(g.initial(EXAMPLE_DEAL), {"type": "straddle"})
        >>> g.view(s)["pot"], g.view(s)["at_table"], g.view(s)["needed"]
        (10, 'B', 10)
        """
        _check_type_then_over(self, event, state.over, "the deal is settled")
        kind = event["type"]
        validate_event(self, event, state)  # chips above 0; player: unknown_player
        name = event.get("player")
        actor = state.actor
        assert actor is not None
        if name is not None and state.names.index(name) != actor:
            raise IllegalEvent("not_your_turn", f"player: {name!r} is not the player at the table")
        new = self._handlers[kind](state, actor, kind, event.get("chips"))
        return new._replace(events=state.events + 1)

    @staticmethod
    def _not_allowed(state: DealState, kind: str) -> IllegalEvent:
        return IllegalEvent("not_allowed", f"type: {kind} is not open in the {state.phase} phase")

    @staticmethod
    def _put(state: DealState, i: int, amount: int) -> DealState:
        stakes = tuple(s + amount if k == i else s for k, s in enumerate(state.stakes))
        chips = tuple(c - amount if k == i else c for k, c in enumerate(state.chips))
        return state._replace(stakes=stakes, chips=chips)

    def _straddling(self, state: DealState, i: int, kind: str, _: Any) -> DealState:
        """§6.5: straddles, the buy-back, declining."""
        wanted = {"straddle": "straddle", "buy_back": "buy_back"}.get(kind, state.phase)
        if state.phase not in ("straddle", "buy_back") or wanted != state.phase:
            raise self._not_allowed(state, kind)
        if kind == "decline":
            if state.phase == "straddle":
                return self._end_straddling(state)
            return self._offer_after(state, state.straddler)
        if state.chips[i] < state.pot:
            raise IllegalEvent("bad_amount", f"{kind}: {state.pot} chips needed, he has fewer")
        previous = state.straddler
        state = self._put(state, i, state.pot)._replace(straddler=i)
        if kind == "buy_back":
            return self._end_straddling(state)
        buy_back = state.rules[0]
        if buy_back and previous is not None and state.chips[previous] >= state.pot:
            return state._replace(phase="buy_back", actor=previous)
        return self._offer_after(state, i)

    def _offer_after(self, state: DealState, straddler: int | None) -> DealState:
        """The straddle is offered to the player after the latest straddler, unless he was
        the dealer or has too few chips."""
        assert straddler is not None
        if straddler == state.dealer:
            return self._end_straddling(state)
        nxt = state.after(straddler, straddler)[0]
        if state.chips[nxt] < state.pot:
            return self._end_straddling(state)
        return state._replace(phase="straddle", actor=nxt)

    def _open_seq(self, state: DealState) -> list[int]:
        """Who is asked to open, in turn: from the straddler's right (the dealer's right
        without one), the straddler not asked."""
        if state.straddler is None:
            return list(state.order)
        return state.after(state.straddler, state.straddler)

    def _end_straddling(self, state: DealState) -> DealState:
        state = state._replace(phase="open")
        for i in self._open_seq(state):
            if state.chips[i] > 0:
                return state._replace(actor=i)
        return self._all_passed(state)

    def _pass(self, state: DealState, i: int, kind: str, _: Any) -> DealState:
        if state.phase == "open":
            seq = self._open_seq(state)
            for j in seq[seq.index(i) + 1 :]:
                if state.chips[j] > 0:
                    return state._replace(actor=j)
            return self._all_passed(state)
        if state.phase == "reraise":
            assert state.last_bettor is not None
            return self._next_answer(state, i, reraise=True)
        raise self._not_allowed(state, kind)

    def _all_passed(self, state: DealState) -> DealState:
        """§6.6: after a straddle the straddler takes the pot; without one the deal is
        thrown in (§6.4)."""
        if state.straddler is not None:
            return self._take_all(state, state.straddler, "straddle")
        pots = (Pot(state.pot, tuple(state.order)),)
        n = len(state.names)
        return state._replace(
            phase="over",
            actor=None,
            result=Settlement(pots, (0,) * n, (0,) * n, None, thrown_in=True),
        )

    def _take_all(self, state: DealState, winner: int, by: str) -> DealState:
        n = len(state.names)
        won = tuple(state.pot if k == winner else 0 for k in range(n))
        pots = (Pot(state.pot, (winner,), winner, by),)
        return state._replace(phase="over", actor=None, result=Settlement(pots, won, (0,) * n))

    def _bet(self, state: DealState, i: int, kind: str, amount: int | None) -> DealState:
        """§6.6-6.7: open, call, raise, fold, va_tout."""
        phase = state.phase
        highest = max(state.stakes)
        need = highest - state.stakes[i]
        chips = state.chips[i]
        if kind == "va_tout":
            amount = chips
            if phase == "open":
                kind = "open"
            elif chips > need:
                kind = "raise"
            else:
                kind = "call"
        allowed = {"open": ("open",), "bet": ("call", "raise", "fold"), "reraise": ("raise",)}
        if kind not in allowed.get(phase, ()):
            raise self._not_allowed(state, kind)
        if kind == "open":
            assert amount is not None
            least = max(1, need)
            if not least <= amount <= chips:
                raise IllegalEvent(
                    "bad_amount",
                    f"chips: an opening is at least {least} and at most {chips}, not {amount}",
                )
            state = self._put(state, i, amount)._replace(phase="bet", last_bettor=i, called=False)
            return self._next_answer(state, i)
        if kind == "raise":
            assert amount is not None
            if not need < amount <= chips:
                raise IllegalEvent(
                    "bad_amount",
                    f"chips: a raise is more than {need} and at most {chips}, not {amount}",
                )
            state = self._put(state, i, amount)._replace(phase="bet", last_bettor=i, called=False)
            return self._next_answer(state, i)
        if kind == "fold":
            folded = tuple(f or k == i for k, f in enumerate(state.folded))
            state = state._replace(folded=folded)
            left = state.in_players()
            if len(left) == 1:
                return self._take_all(state, left[0], "fold")
            return self._next_answer(state, i)
        # call
        in_now = len(state.in_players())
        state = self._put(state, i, min(need, chips))._replace(called=True)
        if in_now == 2:
            return self._showdown(state)
        return self._next_answer(state, i)

    def _next_answer(self, state: DealState, i: int, reraise: bool = False) -> DealState:
        """The next able player to answer the last bet, or the end of the round (§6.7)."""
        last = state.last_bettor
        assert last is not None
        for j in state.after(i, last):
            if state.able(j):
                return state._replace(actor=j)
        if state.phase == "bet" and state.called and not reraise:
            state = state._replace(phase="reraise")
            for j in state.after(last, last):
                if state.able(j):
                    return state._replace(actor=j)
        return self._showdown(state)

    # -- the showdown ------------------------------------------------------------

    def _kind(self, state: DealState, i: int) -> tuple[int, int] | None:
        """(class, rank) of a hand that beats points: 0 carré, 1 brelan (rank: lower is
        higher), 2 mistigri; None for a hand on points."""
        _, brelans, mistigri, _ = state.rules
        if not brelans:
            return None
        hand = state.hands[i]
        ranks = {c[0] for c in hand}
        if len(ranks) == 1:
            rank = hand[0][0]
            return (0, 0) if rank == state.turned[0] else (1, _RANKS.index(rank))
        if mistigri and "QC" in hand:
            a, b = (c for c in hand if c != "QC")
            if a[0] == b[0] and (a[1] in _RED_SUITS) == (b[1] in _RED_SUITS):
                return (2, 0)
        return None

    def suit_points(self, state: DealState) -> tuple[int, ...]:
        """Points showing in each suit (S, H, D, C) over every hand, folded hands included,
        and the turned card when it counts (§6.9)."""
        cards = [c for h in state.hands for c in h]
        if state.rules[3]:
            cards.append(state.turned)
        return tuple(sum(_POINTS[c[0]] for c in cards if c[1] == s) for s in _SUITS)

    @staticmethod
    def _owners(state: DealState, players: Sequence[int]) -> dict[str, int]:
        """suit -> the player among ``players`` holding its highest card."""
        best: dict[str, tuple[int, int]] = {}
        for i in players:
            for card in state.hands[i]:
                r = _RANKS.index(card[0])
                if card[1] not in best or r < best[card[1]][0]:
                    best[card[1]] = (r, i)
        return {s: i for s, (_, i) in best.items()}

    def _resolve(
        self,
        state: DealState,
        players: Sequence[int],
        points: tuple[int, ...],
        winning: frozenset[str] | None,
    ) -> tuple[int, str, frozenset[str] | None]:
        """The winner of one pot among ``players`` (from the dealer's right), how, and the
        winning suits (§6.9)."""
        kinds = [(self._kind(state, i), i) for i in players]
        made = [(k, i) for k, i in kinds if k is not None]
        if made:
            k, i = min(made, key=lambda ki: ki[0])
            return i, ("carre", "brelan", "mistigri")[k[0]], winning
        owners = self._owners(state, players)
        if winning is not None:
            for i in players:
                if any(owners.get(s) == i for s in winning):
                    return i, "points", winning
        top = max(points[_SUITS.index(s)] for s in owners)
        suits = frozenset(s for s in owners if points[_SUITS.index(s)] == top)
        for i in players:
            if any(owners[s] == i for s in suits):
                return i, "points", winning if winning is not None else suits
        raise AssertionError("a suit with an owner has one")  # pragma: no cover

    def _showdown(self, state: DealState) -> DealState:
        n = len(state.names)
        points = self.suit_points(state)
        pots = split_pots(state.stakes, state.folded, state.chips, state.order, sum(state.carried))
        winning: frozenset[str] | None = None
        settled = []
        won = [0] * n
        for pot in pots:
            winner, by, winning = self._resolve(state, pot.players, points, winning)
            settled.append(pot._replace(winner=winner, by=by))
            won[winner] += pot.chips
        bonuses = [0] * n
        classes = [k[0] if (k := self._kind(state, i)) is not None else None for i in range(n)]
        for h, cls in enumerate(classes):
            if cls is None or cls == 2:  # points, or a mistigri: no bonus
                continue
            for j in range(n):
                if j == h:
                    continue
                pay = 2 if cls == 0 else (0 if classes[j] == 1 else 1)
                bonuses[h] += pay
                bonuses[j] -= pay
        return state._replace(
            phase="over",
            actor=None,
            result=Settlement(tuple(settled), tuple(won), tuple(bonuses), points),
        )

    # -- output ----------------------------------------------------------------

    def scores(self, state: DealState) -> tuple[int, ...]:
        """Each player's result for the deal (0 until settled, and in a deal thrown in)."""
        r = state.result
        if r is None or r.thrown_in:
            return (0,) * len(state.names)
        return tuple(
            w + b - s - c
            for w, b, s, c in zip(r.won, r.bonuses, state.stakes, state.carried, strict=True)
        )

    def view(self, state: DealState) -> dict[str, Any]:
        """The public state (the ledger scoring language §6.11)."""
        names = state.names
        r = state.result
        n = len(names)
        chips = state.chips
        if r is not None:
            chips = tuple(c + w + b for c, w, b in zip(chips, r.won, r.bonuses, strict=True))
            pots = r.pots
        else:
            pots = split_pots(
                state.stakes, state.folded, state.chips, state.order, sum(state.carried)
            )
        winners = {p.winner for p in pots}
        winner = None
        if r is not None and not r.thrown_in and len(winners) == 1:
            (w,) = winners
            winner = None if w is None else names[w]
        actor = state.actor
        if state.over or actor is None:
            needed = None
        elif state.phase in ("straddle", "buy_back"):
            needed = state.pot
        elif state.phase == "reraise":
            needed = 0
        else:
            need = max(state.stakes) - state.stakes[actor]
            needed = max(1, need) if state.phase == "open" else need
        carried: dict[str, int] = {}
        if r is not None and r.thrown_in:
            carried = {names[i]: state.carried[i] + state.stakes[i] for i in range(n)}
        return {
            "game": self.id,
            "over": state.over,
            "winner": winner,
            "shared": False,
            "scores": dict(zip(names, self.scores(state), strict=True)),
            "at_table": None if actor is None else names[actor],
            "events": state.events,
            "phase": state.phase,
            "dealer": names[state.dealer],
            "pot": state.pot,
            "stakes": dict(zip(names, state.stakes, strict=True)),
            "chips": dict(zip(names, chips, strict=True)),
            "folded": [names[i] for i in range(n) if state.folded[i]],
            "needed": needed,
            "straddler": None if state.straddler is None else names[state.straddler],
            "pots": [
                {
                    "chips": p.chips,
                    "players": [names[i] for i in p.players],
                    "winner": None if p.winner is None else names[p.winner],
                    "by": p.by,
                }
                for p in pots
            ],
            "bonuses": dict(zip(names, r.bonuses if r else (0,) * n, strict=True)),
            "suit_points": None
            if r is None or r.suit_points is None
            else dict(zip(_SUITS, r.suit_points, strict=True)),
            "carried": carried,
        }

    def next_deal(self, setup: Mapping[str, Any] | None, state: DealState) -> dict[str, Any]:
        """The setup of the next deal of a session, but for the cards (``hands`` and
        ``turned``, which only the table can tell): the deal moves to the dealer's right,
        each cave is what the player has in front of him now, and a deal thrown in hands
        its chips on as ``carried`` (the new dealer alone puts in 1, §6.4). A player left
        with fewer chips than his ante must buy a new cave first: the setup carries it.

        >>> from rules import replay
        >>> g = BOUILLOTTE
        >>> s = replay(g, EXAMPLE_DEAL, [{"type": "decline"}] + [{"type": "pass"}] * 4)
        >>> nxt = g.next_deal(EXAMPLE_DEAL, s)
        >>> nxt["dealer"], nxt["carried"], nxt["caves"]["D"]
        ('A', {'A': 1, 'B': 1, 'C': 1, 'D': 2}, 98)
        """
        if not state.over:
            raise IllegalEvent("not_allowed", "the deal is not over")
        view = self.view(state)
        options = {
            k: v
            for k, v in (setup or {}).items()
            if k not in ("hands", "turned", "dealer", "caves", "carried")
        }
        return {
            **options,
            "players": list(state.names),
            "dealer": state.names[state.order[0]],
            "caves": dict(view["chips"]),
            "carried": dict(view["carried"]),
        }

    def choice_sets(self, state: DealState) -> dict[str, list[Any]]:
        """The players (no sides: Bouillotte is every man for himself)."""
        return {"players": list(state.names), "parties": list(state.names), "sides": []}

    def outcome(self, state: DealState) -> Outcome:
        """The player who took every pot wins; nobody loses by name (3 to 5 players) and
        nothing is shared; ``scores`` are the results of the deal."""
        view = self.view(state)
        return Outcome(state.over, view["winner"], None, False, view["scores"])

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each player's hands won (1 if he took a pot in this deal), biggest pot taken and
        result for the deal.

        >>> g = BOUILLOTTE
        >>> deal = [{"type": "straddle"}, {"type": "decline"}] + [{"type": "pass"}] * 3
        >>> g.player_statistics(EXAMPLE_DEAL, deal)["A"]
        {'hands_won': 1, 'biggest_pot': 10, 'net': 4}
        """
        state = self.initial(setup)
        for _, _, after in _steps(self, state, events):
            state = after
        scores = self.scores(state)
        pots = state.result.pots if state.result is not None else ()
        out: dict[str, dict[str, float]] = {}
        for i, name in enumerate(state.names):
            taken = [p.chips for p in pots if p.winner == i]
            out[name] = {
                "hands_won": 1 if taken else 0,
                "biggest_pot": max(taken, default=0),
                "net": scores[i],
            }
        return out

    def dump(self, state: DealState) -> dict[str, Any]:
        """The internal state as JSON; :meth:`load` reads it back."""
        r = state.result
        return {
            "names": list(state.names),
            "order": list(state.order),
            "hands": [list(h) for h in state.hands],
            "turned": state.turned,
            "rules": list(state.rules),
            "carried": list(state.carried),
            "stakes": list(state.stakes),
            "chips": list(state.chips),
            "folded": list(state.folded),
            "phase": state.phase,
            "actor": state.actor,
            "straddler": state.straddler,
            "last_bettor": state.last_bettor,
            "called": state.called,
            "events": state.events,
            "result": None
            if r is None
            else {
                "pots": [[p.chips, list(p.players), p.winner, p.by] for p in r.pots],
                "won": list(r.won),
                "bonuses": list(r.bonuses),
                "suit_points": None if r.suit_points is None else list(r.suit_points),
                "thrown_in": r.thrown_in,
            },
        }

    def load(self, data: Mapping[str, Any]) -> DealState:
        """The internal state back from :meth:`dump`."""
        r = data["result"]
        result = None
        if r is not None:
            result = Settlement(
                pots=tuple(Pot(c, tuple(p), w, b) for c, p, w, b in r["pots"]),
                won=tuple(r["won"]),
                bonuses=tuple(r["bonuses"]),
                suit_points=None if r["suit_points"] is None else tuple(r["suit_points"]),
                thrown_in=r["thrown_in"],
            )
        b, br, m, ct = data["rules"]
        return DealState(
            names=tuple(data["names"]),
            order=tuple(data["order"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            turned=data["turned"],
            rules=(b, br, m, ct),
            carried=tuple(data["carried"]),
            stakes=tuple(data["stakes"]),
            chips=tuple(data["chips"]),
            folded=tuple(data["folded"]),
            phase=data["phase"],
            actor=data["actor"],
            straddler=data["straddler"],
            last_bettor=data["last_bettor"],
            called=data["called"],
            result=result,
            events=data["events"],
        )


#: The book's suit example (cards reconstructed, the ledger scoring language §7), for doctests.
EXAMPLE_DEAL: dict[str, Any] = {
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


# ------------------------------------------------------------------------- registry

#: Snooker's pool (1908), id ``snookers_pool_1908``.
SNOOKERS_POOL_1908 = SnookerPool(RULES_1908)
#: Hoyle's Snooker Pool, id ``snooker_pool_hoyle`` (alias ``snooker_pool``).
SNOOKER_POOL_HOYLE = SnookerPool(HOYLE)
#: English pyramids, id ``english_pyramids``.
ENGLISH_PYRAMIDS = Pyramids()
#: Bouillotte (one deal), id ``bouillotte``.
BOUILLOTTE = Bouillotte()

#: Every game of the family, registered.
GAMES: tuple[LedgerGame[Any], ...] = (
    SNOOKERS_POOL_1908,
    SNOOKER_POOL_HOYLE,
    ENGLISH_PYRAMIDS,
    BOUILLOTTE,
)

register_all(GAMES)
