"""The ledger family: cue games settled by payments between the players.

Every score is a transfer (specs/ledger.md §1.2): when a party *scores* v, every other
party pays it v; when it *pays* a penalty v, it pays v to every other party. ``scores`` in
the public state are the net balances, and they always sum to 0.

The snooker-type pool games share one state machine, :class:`SnookerPool`, driven by a
frozen :class:`SnookerRules` config (specs/ledger.md §3.15 lists the parameters). Only
Hoyle's game is built and registered here:

``snooker_pool_hoyle`` (alias ``snooker_pool``): Snooker Pool, Burroughes & Watts rules as
reprinted in Hoyle's Games Modernized (seeds/snooker-pool.txt; games.md §7). Rule numbers
``rN`` below are Hoyle's. Fifteen reds worth 1; yellow 2, green 3, brown 4, blue 5, pink 6,
black 7. A red, then a colour of the striker's choice, while reds remain (the colours are
respotted); then the colours in order yellow to black until every ball is down.

How a stroke is judged (against the ball *on*: the red, the colour aimed at after a red,
or the next colour of the sequence):

* clean: it first hit the ball on (two reds at once are allowed), potted only the ball on
  (any number of reds), lost neither the white nor any ball off the table, and carries no
  foul code. It scores the value potted and the striker plays on if he potted something.
* a fault (miss or coup r11, wrong ball struck r13, r12, in-off r8 / r15, a ball forced
  off r18, any other ball potted, two balls struck at once unless both red): it scores
  nothing and the striker pays the *highest* of the value on and the values of every ball
  struck first, at the same instant, potted or forced off (r17: the highest penalty only).
* r9 / r14: the ball on potted cleanly and other colours cannoned in with it: he receives
  the value of the ball on and pays the value of the highest other colour potted.
* foul codes (r16, r19) only stop the stroke scoring; penalties of the stroke stand.
* ``misplaced_balls`` (r4, r5): one point per ball out of its place, paid by the striker;
  it is one of the stroke's penalties (r17 takes the highest).
* out of turn (r20): the stroke is cancelled (the balls are put back, nothing is
  received) and the offender pays 1 to each player besides the stroke's own penalty.
Any penalty, and any stroke that pots nothing, ends the visit; the turn passes to the next
party in the order of play.

Where the book is silent (games.md §7.11 and specs/ledger.md §3.14-3.15), the defaults:

a. The value on after a red (r11) is the colour the striker declared or aimed at (``aim``);
   without ``aim`` it is taken from ``first_hit`` if that is a colour, else the stroke is
   refused (``aim_required``) so the pad asks.
b. The striker who pots the last red has a free choice of colour, respotted, before the
   sequence starts (config ``last_red_choice``).
c. An r9 / r14 "receive and pay" stroke, like every stroke with a penalty, ends the visit.
d. r4 is read as the striker paying 1 to each player per colour not respotted, for each
   stroke he makes; r4 and r5 together are the ``misplaced_balls`` count of the stroke.
e. The penalty of a fault is never below the value of the ball on: failing to hit or pot
   the ball on is also a miss of it (r11), and r17 takes the highest (the 1908 formula,
   specs/ledger.md §3.6). Read alone, r13 and r18 would charge only a cheaper ball struck
   or forced off.
f. r20's point "besides any penalties" is added to the stroke's penalty (r20 overrides
   r17), and the out-of-turn stroke is undone: the table, the ball on and the break stay
   as they were and the player at the table plays next.
g. r9 / r14 cover other *colours* potted with the ball on; a red potted with a colour is a
   fault (r3, r10). Reds count 1 each when several go down on a red (r9).
h. Reds potted or forced off in a stroke that scores nothing are put back (r12, r21);
   colours go back on their spots except one taken in the sequence (r6, r15).
i. r16 (the white touching a colour) is the foul code ``white_touching``; r19's foul
   strokes are ``push``, ``double_hit`` and ``fouled_ball``. None carries a penalty of
   its own.
j. Not modelled: players joining or leaving between rounds (r1), claims lapsing after a
   round (r17, the pad records each stroke as it is played), respotting on an occupied
   spot (r22) and disputes (r23).
k. Play between sides (specs/ledger.md §1.1): sides pay and receive as parties; partners
   take their side's visits in turn.
l. When the last ball is down the highest balance wins; equal highest balances share.

>>> from rules import replay
>>> game = SNOOKER_POOL_HOYLE
>>> s = replay(game, {"players": ["Ann", "Bob", "Cat"]}, [
...     {"type": "stroke", "first_hit": "red", "pots": ["red"]},
...     {"type": "stroke", "first_hit": "black", "pots": ["black"]},
...     {"type": "stroke", "first_hit": None},
... ])
>>> game.view(s)["scores"]
{'Ann': 14, 'Bob': -7, 'Cat': -7}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.core import (
    FOULS,
    EventType,
    Field,
    Foul,
    Game,
    IllegalEvent,
    InvalidEvent,
    Option,
    Outcome,
    Participants,
    RuleError,
    Seating,
    Stat,
    player_field,
    validate_event,
    validate_setup,
)
from rules.registry import register

__all__ = [
    "HOYLE",
    "SNOOKER_POOL_HOYLE",
    "PoolState",
    "SnookerPool",
    "SnookerRules",
    "Stroke",
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
_ALL_BALLS = (WHITE, *_OBJECT_BALLS)
#: At most this many balls can be out of place before a stroke (15 reds, 6 colours, white).
_MAX_MISPLACED = 22


def transfer(balances: tuple[int, ...], party: int, amount: int) -> tuple[int, ...]:
    """``party`` receives ``amount`` from every other party (pays it, when negative).

    >>> transfer((0, 0, 0), 0, 5)
    (10, -5, -5)
    >>> transfer((10, -5, -5), 0, -1)
    (8, -4, -4)
    """
    n = len(balances)
    return tuple(b + amount * (n - 1) if i == party else b - amount for i, b in enumerate(balances))


# ------------------------------------------------------------------------- the config


@dataclass(frozen=True)
class SnookerRules:
    """One snooker-type pool game as family parameters (specs/ledger.md §3.15).

    ``fouls`` are the game's foul codes; ``foul_fines`` gives those that carry a penalty
    of their own (code, value); every other code only stops the stroke scoring.
    ``scores_with_extra_colour``: the ball on potted with other colours receives its value
    and pays the highest other colour (else the stroke is a plain fault).
    ``reds_back_after_foul``: reds potted or forced off in a stroke that scores nothing are
    put back (else they stay down). ``out_of_turn_fine``: what an out-of-turn striker pays
    each party on top of the stroke's penalty. ``misplaced_balls``: strokes carry the
    count of balls out of place, one point each. ``last_red_choice``: the striker who pots
    the last red may still choose a colour (respotted) before the sequence.
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    fouls: tuple[Foul, ...]
    foul_fines: tuple[tuple[str, int], ...] = ()
    reds: int = 15
    scores_with_extra_colour: bool = False
    reds_back_after_foul: bool = False
    out_of_turn_fine: int = 0
    misplaced_balls: bool = False
    last_red_choice: bool = True


_NO_SCORE = "no_score"

#: Hoyle's Snooker Pool (seeds/snooker-pool.txt).
HOYLE = SnookerRules(
    id="snooker_pool_hoyle",
    name="Snooker Pool (Hoyle's Games Modernized)",
    aliases=("snooker_pool",),
    source="seeds/snooker-pool.txt (Burroughes & Watts rules 1-23); games.md §7",
    fouls=(
        Foul(
            "white_touching",
            _NO_SCORE,
            "r16: the white was touching a coloured ball when he played: he cannot score, "
            "and any penalty of the stroke stands",
            common=True,
        ),
        Foul(
            "push",
            _NO_SCORE,
            "r19: a foul stroke, the cue pushed the ball: no score; penalties stand",
            common=True,
        ),
        Foul(
            "double_hit",
            _NO_SCORE,
            "r19: a foul stroke, the ball struck more than once: no score; penalties stand",
        ),
        Foul(
            "fouled_ball",
            _NO_SCORE,
            "r19: he fouled (touched or disturbed) a ball other than by the stroke: no "
            "score; penalties stand",
        ),
    ),
    scores_with_extra_colour=True,
    reds_back_after_foul=True,
    out_of_turn_fine=1,
    misplaced_balls=True,
    last_red_choice=True,
)


# -------------------------------------------------------------------------- the state


class PoolState(NamedTuple):
    """The internal state of a snooker-type pool game (immutable).

    ``seats`` is the :class:`~rules.core.Seating`: the parties (players in individual
    play, or sides), their members (``None`` for an unnamed partner), the party at the
    table and each side's partner due. ``on`` is ``"red"``, ``"colour"``, a pool ball, or
    None when over. ``reds`` and ``colours`` are the balls on the table; ``break_`` what
    the striker has scored in this visit.
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
    def parties(self) -> tuple[str, ...]:
        """The parties, in the order of play."""
        return self.seats.parties

    @property
    def members(self) -> tuple[tuple[str | None, ...], ...]:
        """Each party's players (one, itself, in individual play)."""
        return self.seats.members

    @property
    def turn(self) -> int:
        """The index of the party at the table."""
        return self.seats.turn

    @property
    def partner(self) -> tuple[int, ...]:
        """Each party's member due (index into its members)."""
        return self.seats.partner

    @property
    def striker(self) -> str | None:
        """The name of the player at the table (None for an unnamed partner or when over)."""
        if self.over:
            return None
        return self.seats.player


@dataclass(frozen=True)
class Stroke:
    """A validated ``stroke`` event, with defaults filled in."""

    first_hit: str | None
    simultaneous: str | None = None
    pots: tuple[str, ...] = ()
    off_table: tuple[str, ...] = ()
    fouls: frozenset[str] = frozenset()
    aim: str | None = None
    player: str | None = None
    misplaced: int = 0


@dataclass(frozen=True)
class Verdict:
    """What a stroke is worth: ``score`` received from, and ``penalty`` paid to, each other
    party. ``ball_on`` is what the striker had to play; ``down`` the pool ball that stays
    down (taken in the sequence); ``reds_gone`` the reds that leave the table; ``plays_on``
    whether the visit goes on."""

    ball_on: str
    score: int
    penalty: int
    reds_gone: int
    down: str | None
    plays_on: bool


# --------------------------------------------------------------------------- the game


def _ball(name: str, doc: str, choices: tuple[str, ...], **kw: Any) -> Field:
    return Field(name, "str", doc, choices=choices, **kw)


class SnookerPool(Game[PoolState]):
    """A snooker-type pool game: red, colour, red... then the colours in order; every pot
    and every penalty is settled with each other party. See the module docstring.

    A variant is a :class:`SnookerRules`; :meth:`out_of_turn` is the hook where the
    1908 rules (a forfeited turn) would differ.
    """

    family = "ledger"
    players = "2+"
    participants = Participants(("players", "sides"), min=2, max=None, per_side=())
    choice_errors = {"players": "unknown_player", "parties": "unknown_player"}
    statistics = (
        Stat(
            "balls_potted",
            "Balls potted",
            "sum",
            "object balls he potted in strokes that scored (in a receive-and-pay stroke, "
            "the ball on only)",
        ),
        Stat(
            "penalties_paid",
            "Penalties",
            "sum",
            "the penalties of his strokes (out-of-turn fines included), each counted once "
            "though paid to every other party",
        ),
        Stat(
            "net",
            "Net balance",
            "sum",
            "his party's net balance at the end (his own in individual play, his side's "
            "in play between sides); may be negative",
        ),
    )
    display = (
        ("scores", "Balance"),
        ("at_table", "At the table"),
        ("player", "Striker"),
        ("on", "On"),
        ("break", "Break"),
        ("reds", "Reds left"),
        ("colours", "Colours"),
    )

    def __init__(self, rules: SnookerRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.fouls = rules.fouls
        self._fines = dict(rules.foul_fines)
        self.options = self._options()
        self.events = (self._stroke_type(),)
        self._types = frozenset(e.type for e in self.events)
        self.state_doc = {
            "game": "the game id",
            "over": "true once every ball is down",
            "winner": "the party with the highest balance once over; null if not over or shared",
            "shared": "true when over with two or more parties on the highest balance",
            "scores": "party -> net balance (received minus paid); the balances sum to 0",
            "at_table": "the party to play (a player, or a side); null when over",
            "player": "the player at the table (a side's partner due; null for an unnamed "
            "partner or when over)",
            "events": "how many events have been applied",
            "on": '"red", "colour" (any colour, after a red), the pool ball next in '
            "the sequence, or null when over",
            "reds": "reds on the table",
            "colours": "the pool balls on the table, lowest value first",
            "break": "what the striker has scored in the current visit",
        }

    # -- vocabulary ------------------------------------------------------------

    def _options(self) -> tuple[Field, ...]:
        name = Field("player", "str", "a player's name")
        return (
            Option(
                "players",
                "union",
                None,
                "the players in the order of play (at least 2 distinct names; default "
                '["P1", "P2"]). With '
                "`sides`, an object instead: side -> its players in the order they take "
                "the side's visits (names distinct across sides; null for an unnamed "
                "partner); left out, each side has one unnamed player",
                variants=(
                    Field("players", "list", "individual play: the players in order", item=name),
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
                "play between sides: the sides in the order of play (at least 2 distinct "
                "names); a side is paid and pays as one party. null: individual play",
                item=Field("side", "str", "a side's name"),
            ),
        )

    def _stroke_type(self) -> EventType:
        object_balls = _OBJECT_BALLS
        fields = [
            _ball(
                "first_hit",
                "the object ball the white touched first; null when it touched no ball "
                "(a miss; with the white pocketed or off the table, a coup)",
                object_balls,
                required=True,
                nullable=True,
            ),
            _ball(
                "simultaneous",
                "a second ball struck at the same instant as first_hit (two reds are "
                "fair; any other pair is a fault paying the higher value)",
                object_balls,
            ),
            Field(
                "pots",
                "list",
                'every ball pocketed in the stroke, the white included; "red" once per red',
                default=(),
                item=_ball("ball", "a ball pocketed", _ALL_BALLS),
            ),
            Field(
                "off_table",
                "list",
                'every ball forced off the table, the white included; "red" once per red',
                default=(),
                item=_ball("ball", "a ball forced off the table", _ALL_BALLS),
            ),
            Field(
                "fouls",
                "list",
                "what the referee saw that the other fields do not show (a code given "
                "twice counts once)",
                default=(),
                item=Field("foul", "str", "a foul code", choices=FOULS),
            ),
            _ball(
                "aim",
                'the ball the striker declared or aimed at. On "colour": any colour '
                "(default: first_hit when that is a colour, else it must be given). "
                "Otherwise it may be left out, and if given must be the ball on",
                object_balls,
            ),
            player_field(
                "who struck (default: the player at the table); another player struck "
                "out of turn (r20)",
                required=False,
            ),
        ]
        if self.rules.misplaced_balls:
            fields.append(
                Field(
                    "misplaced_balls",
                    "int",
                    "balls not in their proper place when he struck: a colour not "
                    "respotted (r4) or any ball out of place (r5); he pays 1 to each "
                    "player per ball (0 to 22)",
                    default=0,
                    minimum=0,
                    maximum=_MAX_MISPLACED,
                )
            )
        return EventType(
            "stroke", "one stroke of the cue by the player at the table", tuple(fields)
        )

    # -- setup -----------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> PoolState:
        """The table before the first stroke: every ball on, the first party on a red.

        >>> s = SNOOKER_POOL_HOYLE.initial({"players": ["Ann", "Bob", "Cat"]})
        >>> s.parties, s.on, s.reds
        (('Ann', 'Bob', 'Cat'), 'red', 15)
        >>> SNOOKER_POOL_HOYLE.initial({"players": ["Ann"]})
        Traceback (most recent call last):
        ...
        rules.core.InvalidEvent: bad_setup: at least 2 players are needed, not 1 (event -1)
        """
        seats = self.participants.seat(validate_setup(self, setup))
        return PoolState(
            seats=seats,
            balances=(0,) * len(seats.parties),
            on=RED if self.rules.reds else _COLOURS[0],
            reds=self.rules.reds,
            colours=_COLOURS,
        )

    # -- events ----------------------------------------------------------------

    def apply(self, state: PoolState, event: Mapping[str, Any]) -> PoolState:
        """The state after one event. Checks run as specs/ledger.md §1.3 orders them:
        the type, then the end of the game, then the fields, then the game's own checks.

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.apply(g.initial({}), {"type": "stroke", "first_hit": "red", "pots": ["red"]})
        >>> g.view(s)["on"], g.view(s)["scores"]
        ('colour', {'P1': 1, 'P2': -1})
        >>> g.apply(s, {"type": "stroke", "first_hit": "red"})
        Traceback (most recent call last):
        ...
        rules.core.IllegalEvent: aim_required: the striker is on a colour of his choice: \
say which (aim)
        """
        if not isinstance(event, Mapping) or event.get("type") not in self._types:
            validate_event(self, event)  # raises unknown_type
        if state.over:
            raise IllegalEvent("game_over", "every ball is down: the game is over")
        validate_event(self, event, state)  # player: unknown_player
        stroke = self._stroke(event)
        party = self._party_of(state, stroke.player)
        self._check(state, stroke)
        verdict = self.judge(state, stroke)
        if stroke.player is not None and stroke.player != state.striker:
            return self.out_of_turn(state, party, verdict)
        return self._play(state, verdict)

    def _stroke(self, event: Mapping[str, Any]) -> Stroke:
        misplaced = event.get("misplaced_balls") or 0  # 0 to 22: checked by the vocabulary
        return Stroke(
            first_hit=event["first_hit"],
            simultaneous=event.get("simultaneous"),
            pots=tuple(event.get("pots") or ()),
            off_table=tuple(event.get("off_table") or ()),
            fouls=frozenset(event.get("fouls") or ()),
            aim=event.get("aim"),
            player=event.get("player"),
            misplaced=misplaced,
        )

    def _party_of(self, state: PoolState, player: str | None) -> int:
        if player is None:
            return state.turn
        party = state.seats.party_of(player)
        if party is None:  # pragma: no cover - validate_event checked the name
            raise InvalidEvent("unknown_player", f"player: nobody called {player!r} plays")
        return party

    def _check(self, state: PoolState, stroke: Stroke) -> None:
        """The checks of specs/ledger.md §2.1 and §3.13 (IllegalEvent)."""
        moved = stroke.pots + stroke.off_table
        for ball in (WHITE, *_COLOURS):
            if moved.count(ball) > 1:
                raise IllegalEvent("impossible", f"the {ball} is listed twice in pots/off_table")
        if moved.count(RED) > state.reds:
            raise IllegalEvent(
                "not_on_table",
                f"{moved.count(RED)} reds potted or forced off, {state.reds} on the table",
            )
        touched = [b for b in (stroke.first_hit, stroke.simultaneous) if b is not None]
        for ball in (*moved, *touched):
            if ball in _COLOURS and ball not in state.colours:
                raise IllegalEvent("not_on_table", f"the {ball} is not on the table")
            if ball == RED and state.reds == 0:
                raise IllegalEvent("not_on_table", "no red is on the table")
        if stroke.first_hit is None:
            if any(ball != WHITE for ball in moved):
                raise IllegalEvent(
                    "impossible", "the white touched no ball, yet an object ball moved"
                )
            if stroke.simultaneous is not None:
                raise IllegalEvent("impossible", "simultaneous without first_hit")
        if stroke.simultaneous is not None:
            if stroke.simultaneous == stroke.first_hit != RED:
                raise IllegalEvent(
                    "impossible", f"the {stroke.first_hit} cannot be struck twice at once"
                )
            if stroke.simultaneous == stroke.first_hit == RED and state.reds < 2:
                raise IllegalEvent("not_on_table", "two reds struck, fewer are on the table")
        self._ball_on(state, stroke)  # aim_required / bad_aim

    def _ball_on(self, state: PoolState, stroke: Stroke) -> str:
        on = state.on
        assert on is not None
        if on == COLOUR:
            aim = stroke.aim
            if aim is None:
                if stroke.first_hit in _COLOURS:
                    return stroke.first_hit
                raise IllegalEvent(
                    "aim_required",
                    "the striker is on a colour of his choice: say which (aim)",
                )
            if aim not in _COLOURS:
                raise IllegalEvent("bad_aim", f"on a colour, aim must be a colour, not {aim!r}")
            return aim
        if stroke.aim is not None and stroke.aim != on:
            raise IllegalEvent("bad_aim", f"the striker is on the {on}, not the {stroke.aim}")
        return on

    def judge(self, state: PoolState, stroke: Stroke) -> Verdict:
        """What ``stroke`` is worth against what ``state``'s striker is on (the stroke
        must have passed the checks). See the module docstring.

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.initial({"players": ["A", "B", "C"]})
        >>> g.judge(s, Stroke(first_hit="red", pots=("red", "pink")))
        Verdict(ball_on='red', score=1, penalty=6, reds_gone=1, down=None, plays_on=False)
        >>> g.judge(s, Stroke(first_hit="pink")).penalty
        6
        """
        rules = self.rules
        ball_on = self._ball_on(state, stroke)
        value_on = _VALUE[ball_on]
        hit = stroke.first_hit
        object_pots = [b for b in stroke.pots if b != WHITE]
        object_off = [b for b in stroke.off_table if b != WHITE]
        white_lost = WHITE in stroke.pots or WHITE in stroke.off_table
        others = [b for b in object_pots if b != ball_on]
        fine = max((self._fines.get(code, 0) for code in stroke.fouls), default=0)
        faults = (
            hit != ball_on
            or (stroke.simultaneous is not None and not hit == stroke.simultaneous == RED)
            or white_lost
            or bool(object_off)
            or fine > 0
        )
        receive_and_pay = (
            rules.scores_with_extra_colour
            and bool(others)
            and RED not in others
            and ball_on in object_pots
            and not faults
            and not stroke.fouls
        )
        if (faults or others) and not receive_and_pay:
            struck = [b for b in (hit, stroke.simultaneous) if b is not None]
            penalty = max(
                value_on, fine, *(_VALUE[b] for b in (*struck, *object_pots, *object_off))
            )
            score = 0
        elif stroke.fouls:
            penalty = score = 0
        elif receive_and_pay:
            penalty = max(_VALUE[b] for b in others)
            score = value_on * object_pots.count(ball_on)
        else:
            penalty = 0
            score = sum(_VALUE[b] for b in object_pots)
        penalty = max(penalty, stroke.misplaced)  # r17: the highest penalty only
        red_moves = stroke.pots.count(RED) + stroke.off_table.count(RED)
        if not rules.reds_back_after_foul:
            reds_gone = red_moves
        else:
            reds_gone = stroke.pots.count(RED) if score else 0
        in_sequence = state.on not in (RED, COLOUR)
        down = ball_on if in_sequence and score else None
        return Verdict(
            ball_on=ball_on,
            score=score,
            penalty=penalty,
            reds_gone=reds_gone,
            down=down,
            plays_on=score > 0 and penalty == 0,
        )

    def _play(self, state: PoolState, verdict: Verdict) -> PoolState:
        balances = transfer(state.balances, state.turn, verdict.score)
        balances = transfer(balances, state.turn, -verdict.penalty)
        reds = state.reds - verdict.reds_gone
        colours = state.colours
        if verdict.down is not None:
            colours = tuple(c for c in colours if c != verdict.down)
        events = state.events + 1
        if not reds and not colours:
            return PoolState(
                state.seats,
                balances,
                None,
                reds,
                colours,
                state.break_ + verdict.score,
                True,
                events,
            )
        if not verdict.plays_on:
            # the turn passes: the side's next partner comes in next time, the next party
            # plays, on a red while reds remain
            return PoolState(
                state.seats.advance(),
                balances,
                RED if reds else colours[0],
                reds,
                colours,
                0,
                False,
                events,
            )
        if state.on == RED:
            on = COLOUR if reds or self.rules.last_red_choice else colours[0]
        elif state.on == COLOUR:
            on = RED if reds else colours[0]
        else:
            on = colours[0]
        return PoolState(
            state.seats, balances, on, reds, colours, state.break_ + verdict.score, False, events
        )

    def out_of_turn(self, state: PoolState, party: int, verdict: Verdict) -> PoolState:
        """Hook: a stroke played by someone other than the player at the table.

        Hoyle r20: the offender's party pays the fine to each party besides the stroke's
        penalty; nothing is received, the balls are put back, and the player at the table
        plays next (the 1908 rules would override this with a forfeited turn:
        ``state.seats.skip(party)``).
        """
        owed = self.rules.out_of_turn_fine + verdict.penalty
        return state._replace(
            balances=transfer(state.balances, party, -owed), events=state.events + 1
        )

    # -- output ----------------------------------------------------------------

    def view(self, state: PoolState) -> dict[str, Any]:
        """The public state (specs/ledger.md §3.12, without ``skips``)."""
        winner: str | None = None
        shared = False
        if state.over:
            best = max(state.balances)
            leaders = [p for p, b in zip(state.parties, state.balances, strict=True) if b == best]
            winner = leaders[0] if len(leaders) == 1 else None
            shared = len(leaders) > 1
        return {
            "game": self.id,
            "over": state.over,
            "winner": winner,
            "shared": shared,
            "scores": dict(zip(state.parties, state.balances, strict=True)),
            "at_table": None if state.over else state.parties[state.turn],
            "player": state.striker,
            "events": state.events,
            "on": state.on,
            "reds": state.reds,
            "colours": list(state.colours),
            "break": state.break_,
        }

    def dump(self, state: PoolState) -> dict[str, Any]:
        """The internal state as JSON.

        >>> g = SNOOKER_POOL_HOYLE
        >>> s = g.initial({"sides": ["A", "B"], "players": {"A": ["Ann", "Cat"]}})
        >>> g.load(g.dump(s)) == s
        True
        """
        return {
            "seats": state.seats.dump(),
            "parties": list(state.parties),
            "members": [list(m) for m in state.members],
            "balances": list(state.balances),
            "turn": state.turn,
            "partner": list(state.partner),
            "on": state.on,
            "reds": state.reds,
            "colours": list(state.colours),
            "break": state.break_,
            "over": state.over,
            "events": state.events,
        }

    def load(self, data: Mapping[str, Any]) -> PoolState:
        """The internal state back from :meth:`dump`."""
        if "seats" in data:
            seats = Seating.load(data["seats"])
        else:  # a dump from before the seating
            parties = tuple(data["parties"])
            seats = Seating.of(parties, data["members"], sides=False)._replace(
                turn=data["turn"], partner=tuple(data["partner"])
            )
        return PoolState(
            seats=seats,
            balances=tuple(data["balances"]),
            on=data["on"],
            reds=data["reds"],
            colours=tuple(data["colours"]),
            break_=data["break"],
            over=data["over"],
            events=data["events"],
        )

    # -- seating, results, statistics ---------------------------------------------

    def seating(self, state: PoolState) -> Seating:
        """The parties' seating."""
        return state.seats

    def outcome(self, state: PoolState) -> Outcome:
        """The result: the highest balance wins (level: shared); with two parties the
        other one loses.

        >>> g = SNOOKER_POOL_HOYLE
        >>> g.outcome(g.initial({"players": ["Ann", "Bob", "Cat"]})).over
        False
        """
        winner: str | None = None
        loser: str | None = None
        shared = False
        if state.over:
            best = max(state.balances)
            leaders = [p for p, b in zip(state.parties, state.balances, strict=True) if b == best]
            shared = len(leaders) > 1
            winner = None if shared else leaders[0]
            if winner is not None and len(state.parties) == 2:
                loser = state.parties[1 - state.parties.index(winner)]
        return Outcome(
            state.over, winner, loser, shared, dict(zip(state.parties, state.balances, strict=True))
        )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's balls potted, penalties paid and net balance for one game.

        >>> g = SNOOKER_POOL_HOYLE
        >>> st = g.player_statistics({"players": ["Ann", "Bob"]}, [
        ...     {"type": "stroke", "first_hit": "red", "pots": ["red"]},
        ...     {"type": "stroke", "first_hit": "pink", "aim": "black"}])
        >>> st["Ann"], st["Bob"]["net"]
        ({'balls_potted': 1, 'penalties_paid': 7, 'net': -6}, 6)
        """
        state = self.initial(setup)
        seats = state.seats
        potted = dict.fromkeys(seats.players, 0)
        penalties = dict.fromkeys(seats.players, 0)
        for i, event in enumerate(events):
            try:
                after = self.apply(state, event)
            except RuleError as err:
                raise err.at(i) from None
            stroke = self._stroke(event)
            verdict = self.judge(state, stroke)
            who = stroke.player if stroke.player is not None else state.striker
            if who is not None:
                out_of_turn = stroke.player is not None and stroke.player != state.striker
                paid = verdict.penalty
                if out_of_turn:
                    paid += self.rules.out_of_turn_fine
                elif verdict.score > 0:
                    potted[who] += sum(1 for b in stroke.pots if b == verdict.ball_on)
                penalties[who] += paid
            state = after
        out: dict[str, dict[str, float]] = {}
        for name in seats.players:
            party = seats.party_of(name)
            assert party is not None
            out[name] = {
                "balls_potted": potted[name],
                "penalties_paid": penalties[name],
                "net": state.balances[party],
            }
        return out


#: Hoyle's Snooker Pool, registered as ``snooker_pool_hoyle`` (alias ``snooker_pool``).
SNOOKER_POOL_HOYLE = register(SnookerPool(HOYLE))
