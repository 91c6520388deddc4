"""The bagatelle family: games in which a turn is a fixed allotment of balls played one after
another at cups, holes, arches or receptacles that carry values (the bagatelle scoring language).

Eighteen games, all run by one state machine, :class:`RoundOfBalls`, built on the core
pieces: the seating and rotation (:class:`~rules.seating.Seating`: individuals in rotation,
sides whose members take the turns, players put out, play-offs among the tied), the
participants declaration, union field types and setup-dependent choices (the board's cups,
arches, pockets; checked by :func:`~rules.validate.validate_event`), a typed
:class:`~rules.core.Outcome`, declared statistics and what a pad displays.

The machine keeps what the family shares: the allotment of balls (a turn of N balls, or
single balls alternating until each has played N), the table set afresh each turn or each
round, the end of a round, the end of the game (target with equal turns, fixed rounds,
target at once, or after a count), the winner or the loser, and play-offs among the tied
only. A game is a frozen :class:`BagatelleRules` run by one of a few subclasses that override named
hooks where behaviour truly differs: :meth:`RoundOfBalls.play` (what one ball does),
:meth:`RoundOfBalls.required`, :meth:`RoundOfBalls.fresh_table`,
:meth:`RoundOfBalls.extra_view` and :meth:`RoundOfBalls.other_event`.

| class | games |
|---|---|
| :class:`BoardGame` | the bagatelle boards: Victorian, Sans Egal and its variant, Northern, Southern, the 1908 bagatelle, English bagatelle, Carombolette |
| :class:`PigeonHole` | Pigeon Hole and Jenny Lind (adds ``respot_red`` and the foul) |
| :class:`ArchGame` | Mississippi and La Trou Madame |
| :class:`Parepa` | Parepa |
| :class:`ReceptacleGame` | Klondike, Monte Carlo, High number pool, Parisian pool (a value per place the ball stops, one optional struck ball, shots that are not shots) |
| :class:`Devil` | Devil-among-the-tailors |
| :class:`ShuffleBoard` | shuffle-board (weights, and the count of a roll) |

State is a :class:`BagatelleState` (a NamedTuple of counters: the seating, balls per kind on the
table, balls per cup; never a history), so an event costs the same at the 10th and the
10,000th event.

>>> from rules import get, replay
>>> g = get("victorian_bagatelle")
>>> s = replay(g, {}, [{"type": "ball", "to": 1, "first_hit": "black",
...                     "others": [{"ball": "black", "to": 9}]}])
>>> g.view(s)["scores"], g.view(s)["turn_score"], g.view(s)["required"]
({'P1': 19, 'P2': 0}, 19, None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.core import Game, Outcome, Stat
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import kept_by_setup, plain_json, start_scores, validate_event, validate_setup
from rules.vocabulary import EventType, Field, Foul, IllegalEvent, InvalidEvent, Option, RuleError

__all__ = [
    "GAMES",
    "ArchGame",
    "BagatelleState",
    "BoardGame",
    "Devil",
    "Parepa",
    "PigeonHole",
    "ReceptacleGame",
    "RoundOfBalls",
    "BagatelleRules",
    "ShuffleBoard",
]

TABLE, BACK, OFF = "table", "back", "off"
BALL, COUNT, NONE = "ball", "count", "none"

# ------------------------------------------------------------------------ the rules


@dataclass(frozen=True)
class BagatelleRules:
    """One game of the family as parameters (the bagatelle scoring language, the game's section).

    ``balls``: balls (shots, spins, weights) a seat plays in a round (None: no allotment,
    Parepa). ``alternate``: a turn is one ball and the seats alternate until each has
    played its ``balls`` (Monte Carlo: the setup option ``alternate``). ``reset``: when
    the table is set up afresh (``"turn"``, ``"round"`` or ``"never"``).
    ``rotate_start``: the seat that starts a round moves on by one each round
    (shuffle-board's rolls). ``end``: ``"target_rounds"`` (target with equal turns, and/or
    a number of rounds), ``"rounds"`` (fixed rounds), ``"target_now"`` (the game ends
    after the event that reaches the target) or ``"count"`` (after a shuffle-board count).
    ``lowest_loses``: the single lowest total loses. ``fixed_rounds``: the rounds of a game
    without a ``rounds`` option when no target is set (Sans Egal without a target,
    Klondike, Monte Carlo, High number pool: one round).

    Board games: ``kinds`` the ball kinds, ``spot`` the balls on the table when it is set
    up (the first is the "lead" ball of a contact rule), ``played`` the kind of ball each
    party plays (one entry: everyone; Sans Egal: reds, whites), ``special`` the kinds
    scoring a multiple (kind -> the setup option naming it), ``required_rule`` and
    ``penalty`` name how the contact rule is read and what failing it costs, ``words``
    the words ``to`` takes besides a number, ``numbers`` the setup option listing the
    board's numbers, ``respot`` a kind put back on its spot when it drops,
    ``extra_fields`` the ``ball`` fields only this game takes (``nominated``;
    ``king_struck`` with ``pins``; ``fouls``).
    """

    id: str
    name: str
    source: str
    balls: int | None
    end: str
    aliases: tuple[str, ...] = ()
    alternate: bool = False
    reset: str = "turn"
    rotate_start: bool = False
    sides: bool = False
    min_players: int = 2
    max_players: int | None = None
    lowest_loses: bool = False
    ties: bool = True
    defaults: tuple[tuple[str, Any], ...] = ()
    kinds: tuple[str, ...] = ()
    spot: tuple[tuple[str, int], ...] = ()
    played: tuple[str, ...] = ("white",)
    special: tuple[tuple[str, str], ...] = ()
    required_rule: str | None = None
    penalty: str | None = None
    words: tuple[str, ...] = (TABLE, BACK, OFF)
    numbers: str = "cups"
    extra_fields: tuple[str, ...] = ()
    fixed_rounds: int | None = None
    respot: str | None = None


# ------------------------------------------------------------------------- the state


class BagatelleState(NamedTuple):
    """The internal state (immutable).

    ``seats`` is the core :class:`~rules.seating.Seating` (whose turn, each side's member
    due, players put out, the play-off). ``round`` is the game's round (§1.2: every seat
    in play taking its turns; shuffle-board's roll). ``played``: balls played in this
    round by all (games where single balls alternate). ``scores`` and ``drops`` (balls
    each party's strokes sent into cups, for statistics) are per party. ``table`` counts
    balls per kind of ``BagatelleRules.kinds`` (per party in shuffle-board), ``cups`` balls per cup,
    ``extra`` the game's own counters (see each class). ``out``: the parties put out, in
    order. ``winner``/``loser`` are party indexes."""

    cfg: BagatelleConfig
    seats: Seating
    scores: tuple[int, ...]
    round: int
    played: int
    turn_score: int
    table: tuple[int, ...]
    cups: tuple[int, ...]
    extra: tuple[int, ...]
    flag: bool
    out: tuple[int, ...]
    next: str
    winner: int | None
    loser: int | None
    shared: bool
    events: int
    drops: tuple[int, ...]

    @property
    def over(self) -> bool:
        """The game has ended."""
        return self.next == NONE

    @property
    def party(self) -> int:
        """The index of the party at the table."""
        return self.seats.turn


class BagatelleConfig:
    """A game's setup, checked and with defaults filled in, plus what is derived from it
    (the board's numbers, multipliers, the choice sets). Two configs are equal when their
    setups are (``key`` is the setup as JSON)."""

    __slots__ = (
        "alternate",
        "arches",
        "capacity",
        "cup_pos",
        "cups",
        "key",
        "mult",
        "names",
        "numbers",
        "per_visit",
        "rounds",
        "sets",
        "setup",
        "shared_ties",
        "target",
        "v",
    )

    def __init__(self, setup: dict[str, Any], seats: Seating, rules: BagatelleRules) -> None:
        self.setup = setup
        self.v = setup
        self.key = json.dumps(setup, sort_keys=True)
        self.names = seats.parties
        numbers = setup.get(rules.numbers) if rules.numbers else None
        if rules.numbers == "holes" and setup.get("mode") == "pool":
            numbers = setup["arches"]
        self.cups: tuple[int, ...] = tuple(numbers or ())
        self.cup_pos = {c: i for i, c in enumerate(self.cups)}
        self.numbers = frozenset(self.cups)
        self.arches = frozenset(setup.get("arches") or ()) if rules.numbers == "cups" else ()
        self.capacity: int | None = setup.get("capacity")
        self.mult = {kind: setup[opt] for kind, opt in rules.special}
        self.target = setup.get("target")
        self.rounds: int | None = (
            setup["rounds"]
            if "rounds" in setup
            else rules.fixed_rounds
            if setup.get("target") is None
            else None
        )
        self.shared_ties = setup.get("ties") == "shared"
        self.alternate = rules.alternate or bool(setup.get("alternate"))
        self.per_visit = 0 if rules.balls is None else 1 if self.alternate else rules.balls
        self.sets: dict[str, list[Any]] = {
            **seats.choice_sets(),
            "numbers": list(self.cups),
            "arches": sorted(self.arches),
            "compartments": [*setup.get("pin_counts", {}), "black"],
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BagatelleConfig) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"BagatelleConfig({self.key})"


def _bad(message: str) -> InvalidEvent:
    return InvalidEvent("bad_value", message)


_STATE_INDEX = {name: i for i, name in enumerate(BagatelleState._fields)}
_new_state = tuple.__new__


def _changed(state: BagatelleState, changes: Mapping[str, Any]) -> BagatelleState:
    """``state._replace(**changes)``, cheaper (one list, one tuple): every ball's step."""
    values = list(state)
    for key, value in changes.items():
        values[_STATE_INDEX[key]] = value
    return _new_state(BagatelleState, values)


def _with(t: tuple[int, ...], i: int, add: int) -> tuple[int, ...]:
    return (*t[:i], t[i] + add, *t[i + 1 :])


def _add_scores(scores: tuple[int, ...], gains: Mapping[int, int]) -> tuple[int, ...]:
    out = list(scores)
    for i, v in gains.items():
        out[i] += v
    return tuple(out)


# ----------------------------------------------------------------------- vocabulary

#: the choice sets the family resolves beyond the seating's (``Game.choice_sets``)
CHOICE_SET_DOC = {
    "numbers": "the board's numbered cups, holes, pockets or receptacles (from the setup: "
    "cups, holes or arches by mode, pockets, receptacles)",
    "arches": "the arches' numbers (setup arches)",
    "compartments": 'the compartment values of the pins (setup pin_counts) and "black"',
}


def place_field(
    name: str, doc: str, words: Sequence[str], *, numbered: bool = True, required: bool = True
) -> Field:
    """A place a ball came to: one of the board's numbers (the choice set ``numbers``) or
    one of ``words`` -- a union of an int and a str; just the words when not ``numbered``."""
    word = Field("word", "str", "a word: " + ", ".join(words), choices=tuple(words))
    if not numbered:
        return Field(name, "str", doc, required=required, choices=tuple(words))
    number = Field("number", "int", "a number of the board", choices_from="numbers")
    if not words:
        return Field(name, "int", doc, required=required, choices_from="numbers")
    return Field(name, "union", doc, required=required, variants=(number, word))


def _players_option(rules: BagatelleRules) -> Field:
    variants = [
        Field("names", "list", "the players' names", item=Field("name", "str", "a name")),
        Field("count", "int", 'how many: "P1" ... "Pn"', minimum=1),
    ]
    doc = "the participants in the order of play: distinct names, or a number n (P1 ... Pn)"
    if rules.sides:
        variants.append(
            Field(
                "members",
                "object",
                "with sides: side -> its members in the order they take the side's turns",
                item=Field(
                    "members",
                    "list",
                    "a side's members",
                    item=Field("name", "str", "a name; null for an unnamed member", nullable=True),
                ),
            )
        )
        doc += "; with sides, an object: side -> members (null: unnamed)"
    return Option("players", "union", 2, doc, variants=tuple(variants))


_OPTION_DOCS: dict[str, tuple[str, str]] = {
    "target": ("number", "the points that end the game (see the game's end rule)"),
    "rounds": ("int", "the number of rounds played (null: no limit)"),
    "capacity": ("int", "how many balls one cup holds; null for no limit"),
    "black_multiplier": ("int", "what the black scores: the cup's number times this"),
    "red_multiplier": ("int", "what a red scores: the cup's (pocket's) number times this"),
    "king_multiplier": ("int", "what the king scores: the cup's number times this"),
    "foul_points": ("int", "points a player loses for a ball that fails to strike the black"),
    "ties": ("str", 'a tie at the end: "playoff" (the tied play on) or "shared"'),
    "cup_bonus": ("bool", "a ball through an arch that drops into a cup also scores the cup"),
    "black_first": ("bool", "the Victorian rule: until the black is struck, balls must hit it"),
    "pins": ("int", "pins standing round the holes (0: none)"),
    "pin_value": ("int", "what a pin knocked down scores"),
    "mode": ("str", '"bagatelle" (the holes count) or "pool" (the arched pockets count)'),
    "alternate": ("bool", "a turn is one shot and the players alternate until each has four"),
    "black_pin": ("int", "what the black pin scores"),
}

_LIST_DOCS = {
    "cups": "the cups' numbers; a cup is named by its number and scores it",
    "holes": "the holes' numbers (bagatelle mode)",
    "arches": "the arches' numbers; an arch is named by its number and scores it",
    "receptacles": "the receptacles' values; a receptacle is named by its value",
    "pockets": "the pockets' numbers",
}

_MINIMUM = {"capacity": 1, "rounds": 1, "foul_points": 0, "pins": 0}


def _option(name: str, default: Any, nullable: bool = False) -> Field:
    if name in _LIST_DOCS and not isinstance(default, Mapping):
        return Option(
            name,
            "list",
            tuple(default),
            _LIST_DOCS[name],
            item=Field("number", "int", "a number", minimum=1),
        )
    if name == "pockets":
        return Option(
            name,
            "object",
            dict(default),
            "what the side pockets score",
            fields=(
                Field("left", "int", "the left side pocket", default=default["left"], minimum=0),
                Field("right", "int", "the right side pocket", default=default["right"], minimum=0),
            ),
        )
    if name == "pin_counts":
        return Option(
            name,
            "object",
            dict(default),
            "compartment value (as a string) -> pins standing in such compartments",
            item=Field("pins", "int", "how many pins", minimum=0),
        )
    kind, doc = _OPTION_DOCS[name]
    choices: tuple[Any, ...] | None = None
    if name == "ties":
        choices = ("playoff", "shared")
    elif name == "mode":
        choices = ("bagatelle", "pool")
    minimum = _MINIMUM.get(name, 0 if kind == "int" else None)
    return Option(
        name,
        kind,
        default,
        doc,
        choices=choices,
        nullable=nullable or default is None,
        minimum=minimum,
    )


#: what every game's pad shows (games add their own keys)
DISPLAY: tuple[tuple[str, str], ...] = (
    ("scores", "Scores"),
    ("at_table", "At the table"),
    ("player", "Player"),
    ("round", "Round"),
    ("balls_left", "Balls left"),
    ("turn_score", "This turn"),
    ("required", "Must strike first"),
    ("on_table", "On the table"),
    ("cups_filled", "Cups filled"),
    ("playoff", "Play-off"),
    ("loser", "Loser"),
)

#: the statistics of every game of the family, per named player, from the event log
STATISTICS: tuple[Stat, ...] = (
    Stat("turns", "Turns", "sum", "turns played (a shuffle-board weight is a turn)"),
    Stat("points", "Points", "sum", "points gained in his own turns (shuffle-board: counts)"),
    Stat(
        "best_turn",
        "Best turn",
        "max",
        "the most points gained in one turn (shuffle-board: in one count)",
    ),
    Stat(
        "average_turn",
        "Average a turn",
        "ratio",
        "points a turn",
        numerator="points",
        denominator="turns",
    ),
    Stat("cups_filled", "Cups filled", "sum", "balls his strokes sent into cups (holes, pockets)"),
)


# ------------------------------------------------------------------------ the machine


class RoundOfBalls(Game[BagatelleState]):
    """The machinery every game of the family shares (the bagatelle scoring language §1): the
    allotment, rounds and turns on the core seating, the table, the end of the game, ties
    and play-offs, the view, the outcome and the statistics.

    Subclasses override the hooks :meth:`play` (one ``ball`` event), :meth:`fresh_table`,
    :meth:`required`, :meth:`extra_view`, :meth:`other_event`, :meth:`ball_fields` and
    :meth:`more_events`.
    """

    family = "bagatelle"
    fouls: tuple[Foul, ...] = ()
    additive_score = True  # a handicap start is points on the score from the first shot
    statistics = STATISTICS
    best_stat = "best_turn"
    choice_set_doc = CHOICE_SET_DOC
    extra_display: tuple[tuple[str, str], ...] = ()

    def __init__(self, rules: BagatelleRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.participants = Participants(
            ("players", "sides") if rules.sides else ("players",),
            min=rules.min_players,
            max=rules.max_players,
            per_side=(),
            equal_sides=True,
            count=True,
        )
        if rules.sides:
            who = "2+ players in rotation, or 2+ sides of equal size"
        elif rules.max_players == rules.min_players:
            who = f"{rules.min_players} players"
        elif rules.max_players:
            who = f"{rules.min_players}-{rules.max_players} players in rotation"
        else:
            who = f"{rules.min_players}+ players in rotation"
        self.players = who
        opts = [_players_option(rules)]
        if rules.sides:
            opts.append(
                Option(
                    "sides",
                    "list",
                    None,
                    "play between sides: the sides in the order of play; their members take "
                    "the turns (the first member of each side, then the second, ...)",
                    item=Field("side", "str", "a side's name"),
                )
            )
        names = dict(rules.defaults)
        #: options that take null: no target (with rounds), no round limit, no capacity
        self._nullable = frozenset(
            n
            for n, d in rules.defaults
            if d is None or n in ("rounds", "capacity") or (n == "target" and "rounds" in names)
        )
        self.options = (
            *opts,
            *(_option(n, d, n in self._nullable) for n, d in rules.defaults),
        )
        self.events = (EventType(BALL, self.ball_doc(), self.ball_fields()), *self.more_events())
        self.display = (*DISPLAY, *self.extra_display)
        self._kind_pos = {k: i for i, k in enumerate(rules.kinds)}
        self._colours = len(rules.played) > 1
        self._cfgs: dict[str, BagatelleConfig] = {}
        self._setups: dict[str, tuple[BagatelleConfig, Seating]] = {}
        self.state_doc = self._state_doc()

    # -- hooks ---------------------------------------------------------------

    def ball_doc(self) -> str:
        """The doc of the ``ball`` event."""
        return "one ball (shot) played by the seat at the table"

    def ball_fields(self) -> tuple[Field, ...]:
        """The fields of the ``ball`` event (for describe(), the pad and the checks)."""
        return ()

    def more_events(self) -> tuple[EventType, ...]:
        """Event types besides ``ball``."""
        return ()

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(table, cups, extra) when the table is set up afresh."""
        counts = dict(self.rules.spot)
        return (
            tuple(counts.get(k, 0) for k in self.rules.kinds),
            (0,) * len(cfg.cups),
            (),
        )

    def required(self, state: BagatelleState) -> str | None:
        """What the next ball must strike first (the state key ``required``)."""
        return None

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        """One ``ball`` event, already checked against the vocabulary: (the changed state
        fields, e.g. ``scores`` and ``table``; the balls used; whether the turn ends now
        whatever is left)."""
        raise NotImplementedError

    def other_event(self, state: BagatelleState, event: Mapping[str, Any]) -> BagatelleState:
        """An event type other than ``ball`` (already checked against the vocabulary)."""
        raise InvalidEvent("unknown_type", f"no event type {event['type']!r}")

    def turn_extra(self, state: BagatelleState) -> tuple[int, ...] | None:
        """``extra`` at the start of a turn when the table is not set up afresh (None:
        as it stands)."""
        return None

    def extra_view(self, state: BagatelleState) -> dict[str, Any]:
        """The keys the game's section adds to the state."""
        return {}

    def extra_doc(self) -> dict[str, str]:
        """Docs of the keys :meth:`extra_view` adds."""
        return {}

    # -- setup ---------------------------------------------------------------

    def config(self, setup: Mapping[str, Any] | None) -> tuple[BagatelleConfig, Seating]:
        """The checked setup and the seating (``bad_setup``, index -1, for anything
        malformed). Both are a pure function of the setup, so a setup made of plain JSON
        values (exact types, see :func:`~rules.validate.plain_json`) is checked once and the answer kept,
        keyed by its JSON text (only accepted setups are kept)."""
        key = json.dumps(setup, sort_keys=True) if plain_json(setup) else None
        if key is not None:
            known = self._setups.get(key)
            if known is not None:
                return known
        found = self._config(setup)
        if key is not None:
            if len(self._setups) > 256:
                self._setups.clear()
            self._setups[key] = found
        return found

    def _config(self, setup: Mapping[str, Any] | None) -> tuple[BagatelleConfig, Seating]:
        raw = {} if setup is None else setup
        if not isinstance(raw, Mapping):
            raise InvalidEvent("bad_setup", "the setup must be a JSON object", -1)
        nulls = [k for k in self._nullable if k in raw and raw[k] is None]
        if nulls:  # fill_defaults would put the default back in place of a null
            raw = {k: v for k, v in raw.items() if k not in nulls}
        values = validate_setup(self, raw)
        for key in nulls:
            values[key] = None
        if values.get("sides") is None:
            values.pop("sides", None)
        elif "players" not in raw:  # each side: one unnamed member
            sides = values["sides"]
            values["players"] = {side: [None] for side in sides} if isinstance(sides, list) else 2
        seats = self.participants.seat(values)
        self.check_setup(values)
        key = json.dumps(values, sort_keys=True)
        cfg = self._cfgs.get(key)
        if cfg is None:
            if len(self._cfgs) > 256:
                self._cfgs.clear()
            cfg = self._cfgs[key] = BagatelleConfig(values, seats, self.rules)
        seats = Seating.of(seats.parties, seats.members, sides=seats.sides, balls=cfg.per_visit)
        return cfg, seats

    def check_setup(self, values: dict[str, Any]) -> None:
        """Impossible combinations of setup values (``bad_setup``, index -1)."""
        for key in ("cups", "holes", "arches", "receptacles", "pockets"):
            nums = values.get(key)
            if isinstance(nums, list) and (not nums or len(set(nums)) != len(nums)):
                raise InvalidEvent("bad_setup", f"{key}: distinct positive numbers", -1)
        if "target" in values:
            target = values["target"]
            if target is None and self.rules.end in ("target_now", "count"):
                raise InvalidEvent("bad_setup", "target is required", -1)
            if target is not None and target <= 0:
                raise InvalidEvent("bad_setup", "target must be above 0", -1)
            if "rounds" in values and target is None and values["rounds"] is None:
                raise InvalidEvent("bad_setup", "at least one of target and rounds is needed", -1)

    def initial(self, setup: Mapping[str, Any] | None) -> BagatelleState:
        """The state before the first event (the bagatelle scoring language §1.6); kept
        for a plain setup (:func:`~rules.validate.kept_by_setup`: it is immutable)."""
        return kept_by_setup(self, setup, self._initial)

    def _initial(self, setup: Mapping[str, Any] | None) -> BagatelleState:
        cfg, seats = self.config(setup)
        n = len(cfg.names)
        table, cups, extra = self.fresh_table(cfg)
        return BagatelleState(
            cfg=cfg,
            seats=seats,
            scores=start_scores(setup, seats.parties) if setup else (0,) * n,
            round=1,
            played=0,
            turn_score=0,
            table=table,
            cups=cups,
            extra=extra,
            flag=False,
            out=(),
            next=BALL,
            winner=None,
            loser=None,
            shared=False,
            events=0,
            drops=(0,) * n,
        )

    def seating(self, state: BagatelleState) -> Seating:
        """The core seating in the state."""
        return state.seats

    def choice_sets(self, state: BagatelleState) -> dict[str, list[Any]]:
        """The seating's sets plus ``numbers``, ``arches`` and ``compartments``."""
        return state.cfg.sets

    # -- events --------------------------------------------------------------

    def apply(self, state: BagatelleState, event: Mapping[str, Any]) -> BagatelleState:
        """The state after one event; refused input raises and changes nothing. The end
        of the game is checked first, then the vocabulary (the core's checks, with the
        board's choice sets), then what cannot have happened."""
        if state.next == NONE:
            raise IllegalEvent("game_over", "the game is over")
        validate_event(self, event, state)
        if event["type"] != BALL:
            return self.other_event(state, event)
        if state.next == COUNT:
            raise IllegalEvent("count_due", "the roll is over: the count is due")
        changes, used, turn_over = self.play(state, event)
        return self.advance(state, changes, used, turn_over)

    def advance(
        self, state: BagatelleState, changes: dict[str, Any], used: int, turn_over: bool
    ) -> BagatelleState:
        """After a ball: ``changes`` (what :meth:`play` changed) applied with the turn's
        score and the allotment; then the target, the next turn, the end of the round."""
        changes["events"] = state.events + 1
        if "scores" in changes:
            p = state.seats.turn
            changes["turn_score"] = state.turn_score + changes["scores"][p] - state.scores[p]
            if self.rules.end == "target_now" and not state.seats.playoff:
                target = state.cfg.target
                if any(s >= target for s in changes["scores"]):
                    after = _changed(state, changes)
                    return self._settle(after, after.seats.remaining)
        seats = state.seats
        cfg = state.cfg
        if cfg.alternate:  # single balls in turn until everyone has played his allotment
            if not used:
                return _changed(state, changes)
            played = state.played + used
            changes["played"] = played
            in_play = len(seats.playoff) if seats.playoff else len(cfg.names) - len(state.out)
            if played >= self.rules.balls * in_play:  # type: ignore[operator]
                return self._end_round(_changed(state, changes))
            changes["seats"] = seats.advance()
            changes.update(self.turn_changes(state))
            return _changed(state, changes)
        if turn_over or (cfg.per_visit and used >= seats.balls_left):
            nxt = seats.advance()
            if nxt.round != seats.round:
                return self._end_round(_changed(state, changes), nxt)
            changes["seats"] = nxt
            changes.update(self.turn_changes(state))
            return _changed(state, changes)
        if used:
            changes["seats"] = seats._replace(balls_left=seats.balls_left - used)
        return _changed(state, changes)

    def turn_changes(self, state: BagatelleState) -> dict[str, Any]:
        """A new turn: the turn's score, and the table if it is set up each turn."""
        changes: dict[str, Any] = {"turn_score": 0}
        if self.rules.reset == "turn":
            table, cups, extra = self.fresh_table(state.cfg)
            changes.update(table=table, cups=cups, extra=extra, flag=False)
        else:
            kept = self.turn_extra(state)
            if kept is not None:
                changes["extra"] = kept
        return changes

    def _end_round(self, state: BagatelleState, nxt: Seating | None = None) -> BagatelleState:
        """Every seat in play has had its turns: the play-off's test, the count, the end
        of the game, or the next round (``nxt``: the seating moved on, if it was)."""
        cfg, rules = state.cfg, self.rules
        if state.seats.playoff:
            return self._settle(state, state.seats.playoff)
        if rules.end == COUNT:
            first = state.round % len(cfg.names)  # the first roller of the next roll
            return state._replace(next=COUNT, seats=state.seats.pass_to(first), turn_score=0)
        ended = False
        if rules.end in ("target_rounds", "rounds"):
            if cfg.rounds is not None and state.round >= cfg.rounds:
                ended = True
            if rules.end == "target_rounds" and cfg.target is not None:
                ended = ended or any(state.scores[i] >= cfg.target for i in state.seats.remaining)
        if ended:
            return self._settle(state, state.seats.remaining)
        return self.new_round(state, nxt)

    def new_round(self, state: BagatelleState, nxt: Seating | None = None) -> BagatelleState:
        """The next round, everyone in play, the table set up afresh."""
        seats = nxt or state.seats
        if self.rules.rotate_start:
            first = state.round % len(state.cfg.names)
            if seats.turn != first:
                seats = seats.pass_to(first)
        elif nxt is None:
            seats = seats.advance()
        if self.rules.reset == "never":
            table, cups, extra = state.table, state.cups, state.extra
        else:
            table, cups, extra = self.fresh_table(state.cfg)
        return state._replace(
            seats=seats,
            round=state.round + 1,
            played=0,
            turn_score=0,
            table=table,
            cups=cups,
            extra=extra,
            flag=False,
            next=BALL,
        )

    def _settle(self, state: BagatelleState, group: Sequence[int]) -> BagatelleState:
        """The end test among ``group``: a single best (or worst) ends the game; a tie
        plays off among the tied (a new round, their seats in the usual order), or is
        shared."""
        scores = state.scores
        mark = (min if self.rules.lowest_loses else max)(scores[i] for i in group)
        tied = [i for i in group if scores[i] == mark]
        if len(tied) == 1:
            if self.rules.lowest_loses:
                winner = (1 - tied[0]) if len(state.cfg.names) == 2 else None
                return self._finish(state, winner, tied[0])
            return self._finish(state, tied[0], None)
        if state.cfg.shared_ties or not self.rules.ties:
            return self._finish(state, None, None, shared=True)
        table, cups, extra = self.fresh_table(state.cfg)
        return state._replace(
            seats=state.seats.start_playoff(tied),
            round=state.round + 1,
            played=0,
            turn_score=0,
            table=table,
            cups=cups,
            extra=extra,
            flag=False,
            next=BALL,
        )

    def _finish(
        self, state: BagatelleState, winner: int | None, loser: int | None, shared: bool = False
    ) -> BagatelleState:
        return state._replace(next=NONE, winner=winner, loser=loser, shared=shared, turn_score=0)

    def put_out(self, state: BagatelleState, who: int) -> BagatelleState:
        """Put party ``who`` out of the game (his turns are skipped); the last one left
        wins."""
        seats = state.seats.knock_out(who)
        state = state._replace(out=(*state.out, who), seats=seats)
        remaining = seats.remaining
        if len(remaining) == 1:
            return self._finish(state, remaining[0], None)
        nxt = seats.advance()
        if nxt.round != seats.round:
            return self._end_round(state, nxt)
        return state._replace(seats=nxt, **self.turn_changes(state))

    # -- output --------------------------------------------------------------

    def _state_doc(self) -> dict[str, str]:
        doc = {
            "game": "the game id",
            "over": "the game has ended",
            "winner": "the winning player or side, or null",
            "shared": "the game ended level (ties: shared)",
            "scores": "participant -> points",
            "at_table": "the participant (player or side) to play next; null when over",
            "player": "the player at the table (a side's member, possibly null); null when over",
            "events": "how many events have been applied",
            "round": "the round in progress, counting play-off rounds (shuffle-board: the roll)",
            "balls_left": "balls the seat at the table has still to play this round, the next "
            "included; 0 when over or a count is due; null in Parepa",
            "turn_score": "points the participant at the table has gained in his current turn",
            "required": 'what the next ball must strike first ("black", "red", "white", "king", '
            '"ball", "cushion") or null',
            "on_table": "ball kind -> balls resting on the table in play (none left out)",
            "cups_filled": "the cups, ascending, holding as many balls as they can",
            "loser": "where the lowest total loses, the participant who lost; otherwise null",
            "playoff": "the participants in a tie-break playoff, in rotation order",
            "next": '"ball", "count" (a shuffle-board roll to count) or "none" (over)',
        }
        doc.update(self.extra_doc())
        return doc

    def on_table(self, state: BagatelleState) -> dict[str, int]:
        """The ``on_table`` key: kind -> balls resting on the table (none left out)."""
        return {k: c for k, c in zip(self.rules.kinds, state.table, strict=False) if c}

    def balls_left(self, state: BagatelleState) -> int | None:
        """The ``balls_left`` key."""
        if self.rules.balls is None:
            return None
        if state.next != BALL:
            return 0
        if state.cfg.alternate:
            return self.rules.balls - state.played // len(state.seats.remaining)
        return state.seats.balls_left

    def view(self, state: BagatelleState) -> dict[str, Any]:
        """The public state (the bagatelle scoring language §1.6)."""
        cfg = state.cfg
        names = cfg.names
        over = state.next == NONE
        seats = state.seats
        cap = cfg.capacity
        view = {
            "game": self.id,
            "over": over,
            "winner": None if state.winner is None else names[state.winner],
            "shared": state.shared,
            "scores": dict(zip(names, state.scores, strict=True)),
            "at_table": None if over else seats.at_table,
            "player": None if over else seats.player,
            "events": state.events,
            "round": state.round,
            "balls_left": self.balls_left(state),
            "turn_score": 0 if over else state.turn_score,
            "required": self.required(state) if state.next == BALL else None,
            "on_table": {} if over else self.on_table(state),
            "cups_filled": []
            if over or cap is None
            else sorted(c for c, k in zip(cfg.cups, state.cups, strict=False) if k >= cap),
            "loser": None if state.loser is None else names[state.loser],
            "playoff": [] if over else [names[i] for i in seats.playoff],
            "next": state.next,
        }
        view.update(self.extra_view(state))
        return view

    def outcome(self, state: BagatelleState) -> Outcome:
        """The result read from the state: ``loser`` is the lowest where the lowest total
        loses, else (two parties, a winner) the other party."""
        names = state.cfg.names
        winner = None if state.winner is None else names[state.winner]
        loser = None if state.loser is None else names[state.loser]
        if loser is None and winner is not None and len(names) == 2:
            loser = names[1 - state.winner]  # type: ignore[operator]
        scores = dict(zip(names, state.scores, strict=True))
        return Outcome(state.next == NONE, winner, loser, state.shared, scores)

    def dump(self, state: BagatelleState) -> dict[str, Any]:
        """The internal state as compact JSON; ``load(dump(s)) == s``."""
        return {
            "setup": state.cfg.setup,
            "seats": state.seats.dump(),
            "s": [list(x) if isinstance(x, tuple) else x for x in state[2:]],
        }

    def load(self, data: Mapping[str, Any]) -> BagatelleState:
        """The internal state back from :meth:`dump`."""
        setup = data["setup"]
        cfg = self._cfgs.get(json.dumps(setup, sort_keys=True)) or self.config(setup)[0]
        values: list[Any] = [tuple(x) if isinstance(x, list) else x for x in data["s"]]
        return BagatelleState(cfg, Seating.load(data["seats"]), *values)

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's :data:`STATISTICS` for one game, replayed from its event
        log: a turn is counted when it ends (or the game ends during it), and is the
        member's who took it (a side's member in play between sides)."""
        state = self.initial(setup)
        lines: dict[str, dict[str, float]] = {
            name: {st.name: 0 for st in STATISTICS} for name in state.seats.players
        }
        open_turn: str | None = None  # the member whose turn is under way, if a ball was played

        def close(line: dict[str, float], gained: int) -> None:
            line["turns"] += 1
            line["points"] += gained
            line["best_turn"] = max(line["best_turn"], gained) if line["turns"] > 1 else gained

        for i, ev in enumerate(events):
            try:
                after = self.apply(state, ev)
            except RuleError as err:
                raise err.at(i) from None
            seats = state.seats
            name = seats.player
            if name is not None and state.next == BALL:
                p = seats.turn
                line = lines[name]
                line["cups_filled"] += after.drops[p] - state.drops[p]
                ended = after.next != BALL or after.seats.visits != seats.visits
                ended = ended or after.seats.playoff != seats.playoff or after.round != state.round
                if ended and ev.get("type") == BALL:
                    close(line, state.turn_score + after.scores[p] - state.scores[p])
                    open_turn = None
                elif ev.get("type") == BALL:
                    open_turn = name
            elif state.next == COUNT:  # shuffle-board: a roll's points come at its count
                for p, (old, new) in enumerate(zip(state.scores, after.scores, strict=True)):
                    who = state.seats.player_of(p)
                    if new != old and who is not None:
                        line = lines[who]
                        line["points"] += new - old
                        line["best_turn"] = max(line["best_turn"], new - old)
            state = after
        if open_turn is not None:  # the log stops in the middle of a turn: it counts so far
            close(lines[open_turn], state.turn_score)
        for line in lines.values():
            line["average_turn"] = line["points"] / line["turns"] if line["turns"] else 0
        return lines


# --------------------------------------------------------------------- board games


class BoardGame(RoundOfBalls):
    """The bagatelle boards (§2-§4.3): cups with a capacity, special balls that multiply,
    a contact rule per board (``BagatelleRules.required_rule``) and what failing it costs
    (``BagatelleRules.penalty``: ``"remove"`` the ball is taken out of play and scores nothing;
    ``"foul_points"`` Sans Egal's forfeit; ``"void"`` nothing scores; ``"forfeit"``
    Carombolette's miss, one more ball used).

    ``flag`` is true once the lead ball (the black, the king) has been struck this turn.
    ``extra`` holds, for Sans Egal, the sums of the cup numbers of each colour's balls
    lying in cups (by kind), for the variant's bonus.
    """

    def ball_fields(self) -> tuple[Field, ...]:
        r = self.rules
        kinds = r.kinds
        where = "hole" if r.numbers == "holes" else "cup"
        words = r.words
        fields = [
            place_field(
                "to",
                f"where the played ball came to rest: a {where} number, or "
                + ", ".join(f'"{w}"' for w in words),
                words,
            ),
            Field(
                "first_hit",
                "str",
                "the ball the played ball touched before any other; null when it touched none",
                choices=kinds,
            ),
            Field(
                "cushion",
                "bool",
                "the played ball struck a cushion before it entered a cup or came to rest",
                default=False,
            ),
            Field(
                "others",
                "list",
                "the other balls this stroke sent into a cup, back or off the table",
                default=(),
                item=Field(
                    "other",
                    "object",
                    "one ball moved",
                    fields=(
                        Field("ball", "str", "its kind", required=True, choices=kinds),
                        place_field(
                            "to",
                            f'where it went: a {where} number, "back" or "off"',
                            tuple(w for w in words if w != TABLE),
                        ),
                    ),
                ),
            ),
        ]
        if "nominated" in r.extra_fields:
            fields.append(
                place_field(
                    "nominated",
                    'the cup (a number) or side pocket ("left", "right") declared before the '
                    "stroke",
                    ("left", "right"),
                )
            )
        if "king_struck" in r.extra_fields:
            fields.append(
                Field(
                    "king_struck",
                    "bool",
                    "the king was struck during the stroke though not first and it did not move",
                    default=False,
                )
            )
            fields.append(
                Field("pins", "int", "pins knocked down by the stroke", default=0, minimum=0)
            )
        if "fouls" in r.extra_fields:
            fields.append(
                Field(
                    "fouls",
                    "list",
                    "fouls called on this stroke",
                    default=(),
                    item=Field("foul", "str", "a foul code", choices=("deliberate_off",)),
                )
            )
        return tuple(fields)

    def required(self, state: BagatelleState) -> str | None:
        rule = self.rules.required_rule
        if rule is None:
            return None
        pos = self._kind_pos
        table = state.table
        if rule == "until_struck":  # Victorian; the 1908 game only with black_first
            if not state.cfg.v.get("black_first", True):
                return None
            return None if state.flag else "black"
        if rule == "sans_egal":
            return None if state.flag or not table[pos["black"]] else "black"
        if rule == "every":
            return "black" if table[pos["black"]] else None
        if rule == "king":
            return None if state.flag else "king"
        if rule == "ball":
            return "ball" if any(table) else None
        # "chain": the lead kind (black, red) while one rests, else white, else a cushion
        lead = self.rules.spot[0][0]
        if table[pos[lead]]:
            return lead
        if table[pos["white"]]:
            return "white"
        return "cushion"

    def played_kind(self, state: BagatelleState) -> str:
        """The kind of ball the party at the table plays."""
        played = self.rules.played
        return played[state.seats.turn % len(played)]

    def others(self, event: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The ``others`` of a checked event as (kind, place)."""
        return [(o["ball"], o["to"]) for o in event.get("others") or ()]

    def check_table(
        self, state: BagatelleState, first: str | None, others: Sequence[tuple[str, Any]], to: Any
    ) -> None:
        """``not_on_table``, ``nothing_struck`` and ``cup_full``."""
        pos, table = self._kind_pos, state.table
        if first is not None and not table[pos[first]]:
            raise IllegalEvent("not_on_table", f"first_hit: no {first} ball rests on the table")
        cap = state.cfg.capacity
        if not others:
            if cap is not None and type(to) is int and state.cups[state.cfg.cup_pos[to]] >= cap:
                raise IllegalEvent("cup_full", f"to: cup {to} already holds {cap} ball(s)")
            return
        counts: dict[str, int] = {}
        for kind, _ in others:
            counts[kind] = counts.get(kind, 0) + 1
        for kind, k in counts.items():
            if k > table[pos[kind]]:
                have = table[pos[kind]]
                raise IllegalEvent(
                    "not_on_table", f"others: {k} {kind} ball(s) listed, {have} on the table"
                )
        if first is None:
            raise IllegalEvent(
                "nothing_struck", "others: the played ball touched no ball (first_hit is null)"
            )
        if cap is not None:
            add: dict[int, int] = {}
            for place in [to, *(t for _, t in others)]:
                if type(place) is int:
                    add[place] = add.get(place, 0) + 1
            for cup, k in add.items():
                if state.cups[state.cfg.cup_pos[cup]] + k > cap:
                    raise IllegalEvent("cup_full", f"to: cup {cup} already holds {cap} ball(s)")

    def value(self, cfg: BagatelleConfig, kind: str, place: Any) -> int:
        """What a ball of ``kind`` dropping at ``place`` (a cup, or a side pocket) scores."""
        factor: int = cfg.mult.get(kind, 1)
        if type(place) is int:
            return place * factor
        pockets = cfg.v.get("pockets")
        if isinstance(pockets, Mapping) and place in pockets:
            return int(pockets[place]) * factor
        return 0

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        r = self.rules
        cfg = state.cfg
        to = event["to"]
        first = event.get("first_hit")
        others = self.others(event) if event.get("others") else []
        struck = False
        pins = 0
        if "king_struck" in r.extra_fields:
            if event.get("king_struck"):
                if not state.table[self._kind_pos["king"]]:
                    raise IllegalEvent("not_on_table", "king_struck: the king is not on the table")
                struck = True
            pins = event.get("pins") or 0
            if pins > cfg.v["pins"]:
                raise _bad(f"pins: at most {cfg.v['pins']} pins stand on this board, not {pins}")
        self.check_table(state, first, others, to)
        req = self.required(state) if r.required_rule else None
        if req is None:
            met = True
        elif req == "king":
            met = struck or first == "king" or any(k == "king" for k, _ in others)
        elif req == "cushion":
            met = bool(event.get("cushion"))
        elif req == "ball":
            met = first is not None
        else:
            met = first == req
        return self.resolve(state, to, first, others, met, event.get("nominated"), pins)

    def resolve(
        self,
        state: BagatelleState,
        to: Any,
        first: str | None,
        others: Sequence[tuple[str, Any]],
        met: bool,
        nominated: Any,
        pins: int,
    ) -> tuple[dict[str, Any], int, bool]:
        """Move the balls and score the stroke (§2 and the game's section): the changes to
        the state, the balls used, and False (the turn goes on)."""
        if not others:  # the common stroke: one ball, no other moved
            return self._single(state, to, first, met, nominated, pins)
        return self.resolve_all(state, to, first, others, met, nominated, pins)

    def resolve_all(
        self,
        state: BagatelleState,
        to: Any,
        first: str | None,
        others: Sequence[tuple[str, Any]],
        met: bool,
        nominated: Any,
        pins: int,
    ) -> tuple[dict[str, Any], int, bool]:
        """:meth:`resolve` for any stroke (other balls moved, Sans Egal's colours)."""
        r, cfg = self.rules, state.cfg
        pos = self._kind_pos
        p = state.seats.turn
        table = list(state.table)
        cups = list(state.cups)
        gains = [0] * len(state.scores)
        drops = 0
        played = self.played_kind(state)
        penalty = None if met else r.penalty
        respot = r.respot
        colours = self._colours  # Sans Egal: a red or white scores for its owner
        extra = list(state.extra) if colours else None
        black_in = None
        # the played ball
        if penalty in ("remove", "forfeit"):
            pass  # out of play wherever it went: scores nothing, leaves no ball in a cup
        elif to == TABLE:
            table[pos[played]] += 1
        elif to != BACK and to != OFF:
            drops += 1
            if type(to) is int:
                cups[cfg.cup_pos[to]] += 1
                if extra is not None:
                    extra[pos[played]] += to
            if penalty is None and (nominated is None or to == nominated):
                gains[p] += self.value(cfg, played, to)
        # the other balls
        for kind, place in others:
            if kind != respot or place == BACK or place == OFF:
                table[pos[kind]] -= 1
            if place == BACK or place == OFF:
                continue
            drops += 1
            if type(place) is int and kind != respot:
                cups[cfg.cup_pos[place]] += 1
                if extra is not None and kind in r.played:
                    extra[pos[kind]] += place
            owner = p
            if colours:
                if kind in r.played:
                    owner = r.played.index(kind)
                else:
                    black_in = place
            if penalty is None or (penalty == "foul_points" and owner != p):
                gains[owner] += self.value(cfg, kind, place)
        if penalty is None:
            if pins:
                gains[p] += pins * cfg.v["pin_value"]
            if black_in is not None and r.required_rule == "every":
                gains[p] += state.extra[pos[played]]  # the variant's bonus: his balls in cups
        elif penalty == "foul_points":
            gains[p] -= cfg.v["foul_points"]
        changes: dict[str, Any] = {"table": tuple(table), "cups": tuple(cups)}
        if any(gains):
            changes["scores"] = tuple(a + b for a, b in zip(state.scores, gains, strict=True))
        if extra is not None:
            changes["extra"] = tuple(extra)
        if met and not state.flag and (first == "black" or r.required_rule == "king"):
            changes["flag"] = True  # the black (the king) is struck: the contact rule lapses
        if drops:
            changes["drops"] = _with(state.drops, p, drops)
        return changes, 2 if penalty == "forfeit" else 1, False

    def _single(
        self,
        state: BagatelleState,
        to: Any,
        first: str | None,
        met: bool,
        nominated: Any,
        pins: int,
    ) -> tuple[dict[str, Any], int, bool]:
        """:meth:`resolve` for a stroke that moved no other ball (the same rules, fewer
        steps: the commonest event of every board game, Sans Egal's included)."""
        r, cfg = self.rules, state.cfg
        p = state.seats.turn
        penalty = None if met else r.penalty
        colours = self._colours  # Sans Egal: each player's own colour
        played = self.played_kind(state) if colours else r.played[0]
        changes: dict[str, Any] = {}
        points = 0
        if penalty == "remove" or penalty == "forfeit":
            pass  # out of play wherever it went
        elif to == TABLE:
            changes["table"] = _with(state.table, self._kind_pos[played], 1)
        elif type(to) is int:
            changes["cups"] = _with(state.cups, cfg.cup_pos[to], 1)
            changes["drops"] = _with(state.drops, p, 1)
            if colours:
                changes["extra"] = _with(state.extra, self._kind_pos[played], to)
            if penalty is None and (nominated is None or to == nominated):
                points = to * cfg.mult.get(played, 1)
        elif to != BACK and to != OFF:  # a side pocket
            changes["drops"] = _with(state.drops, p, 1)
            if penalty is None and (nominated is None or to == nominated):
                points = self.value(cfg, played, to)
        if penalty is None and pins:
            points += pins * cfg.v["pin_value"]
        elif penalty == "foul_points":
            points -= cfg.v["foul_points"]
        if points:
            changes["scores"] = _with(state.scores, p, points)
        if met and not state.flag and (first == "black" or r.required_rule == "king"):
            changes["flag"] = True
        return changes, 2 if penalty == "forfeit" else 1, False

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        table, cups, _ = super().fresh_table(cfg)
        extra = (0,) * len(self.rules.kinds) if self._colours else ()
        return table, cups, extra


class PigeonHole(BoardGame):
    """Pigeon Hole and Jenny Lind (§4.4): the red may be respotted once two or more balls
    lie in holes and none on the table (``respot_red``); knocking a ball off on purpose
    (``deliberate_off``) puts the player out. ``extra`` is (the hole the red lies in, or 0,)."""

    fouls = (
        Foul(
            "deliberate_off",
            "game",
            "the referee judges that the player knocked a ball off the table on purpose: "
            "the stroke scores nothing and he is out of the game (rule 7)",
            True,
        ),
    )
    extra_display = (("can_respot", "May respot the red"), ("out", "Out"))

    def more_events(self) -> tuple[EventType, ...]:
        return (
            EventType(
                "respot_red",
                "the player takes the red out of its hole and spots it again (rule 5): two or "
                "more balls lie in holes, the red among them, and none on the table",
            ),
        )

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        table, cups, _ = super().fresh_table(cfg)
        return table, cups, (0,)

    def can_respot(self, state: BagatelleState) -> bool:
        """Whether ``respot_red`` is allowed now."""
        return (
            state.next == BALL
            and state.extra[0] != 0
            and sum(state.cups) >= 2
            and not any(state.table)
            and state.seats.balls_left > 0
        )

    def other_event(self, state: BagatelleState, event: Mapping[str, Any]) -> BagatelleState:
        if not self.can_respot(state):
            raise IllegalEvent(
                "cannot_respot",
                "the red may be respotted only from a hole, with two or more balls in holes "
                "and none on the table",
            )
        cups = _with(state.cups, state.cfg.cup_pos[state.extra[0]], -1)
        table = _with(state.table, self._kind_pos["red"], 1)
        return state._replace(cups=cups, table=table, extra=(0,), events=state.events + 1)

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        to, first = event["to"], event.get("first_hit")
        others = self.others(event)
        self.check_table(state, first, others, to)
        if event.get("fouls"):
            if to != OFF and not any(t == OFF for _, t in others):
                raise IllegalEvent("no_ball_off", "fouls: deliberate_off, but no ball went off")
            return {}, -1, True
        changes, used, end = self.resolve(state, to, first, others, True, None, 0)
        red_cup = state.extra[0]
        for kind, place in others:
            if kind == "red" and type(place) is int:
                red_cup = place
        changes["extra"] = (red_cup,)
        return changes, used, end

    def advance(
        self, state: BagatelleState, changes: dict[str, Any], used: int, turn_over: bool
    ) -> BagatelleState:
        if used == -1:  # deliberate_off: the stroke is void and the player is out
            after = state._replace(events=state.events + 1, turn_score=0)
            return self.put_out(after, state.seats.turn)
        return super().advance(state, changes, used, turn_over)

    def extra_view(self, state: BagatelleState) -> dict[str, Any]:
        names = state.cfg.names
        return {"can_respot": self.can_respot(state), "out": [names[i] for i in state.out]}

    def extra_doc(self) -> dict[str, str]:
        return {
            "can_respot": "whether respot_red is allowed now",
            "out": "the participants put out of the game (deliberate_off), in order",
        }


# ---------------------------------------------------------------------- arch games


class ArchGame(BoardGame):
    """Mississippi and La Trou Madame (§3.6): nine balls through numbered arches, the
    cups behind them scoring only with ``cup_bonus``. In Mississippi a played ball must
    strike a cushion first: through an arch without one, its value goes to each other
    participant in play."""

    #: the pad asks for where the ball went (to), or the arch it went through
    pad_hints = {"fields": {"ball": {"to": {"needed_unless": "arch"}}}}

    def ball_fields(self) -> tuple[Field, ...]:
        arch = Field(
            "arch", "int", "the arch the ball passed completely through", choices_from="arches"
        )
        return (
            place_field(
                "to",
                'where the played ball came to rest: a cup number (only with arch), "table", '
                '"back" or "off"; may be left out when arch is given',
                (TABLE, BACK, OFF),
                required=False,
            ),
            arch,
            Field(
                "first_hit",
                "str",
                "the ball the played ball touched first; null when none",
                choices=("white",),
            ),
            Field("cushion", "bool", "the played ball struck a cushion first", default=False),
            Field(
                "others",
                "list",
                "other balls this stroke sent through an arch, back or off",
                default=(),
                item=Field(
                    "other",
                    "object",
                    "one ball moved: arch (and a cup as to), or to back or off",
                    fields=(
                        Field("ball", "str", "its kind", required=True, choices=("white",)),
                        arch,
                        place_field(
                            "to", 'a cup (with arch), "back" or "off"', (BACK, OFF), required=False
                        ),
                    ),
                ),
            ),
        )

    def _route(self, obj: Mapping[str, Any], path: str) -> tuple[int | None, Any]:
        arch, to = obj.get("arch"), obj.get("to")
        if arch is not None:
            if to is not None and type(to) is not int:
                raise _bad(f"{path}to: a ball through an arch has finished: a cup or nothing")
            return arch, to
        if to is None:
            raise InvalidEvent("missing_field", f"{path}to is required (or arch)")
        if type(to) is int:
            raise _bad(f"{path}to: the cups lie behind the arches: give the arch")
        return None, to

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        cfg = state.cfg
        arch, to = self._route(event, "")
        first = event.get("first_hit")
        cushion = bool(event.get("cushion"))
        others = [self._route(o, f"others[{i}].") for i, o in enumerate(event.get("others") or ())]
        self.check_table(state, first, [("white", t) for _, t in others], to)
        mississippi = self.rules.required_rule == "cushion"
        p = state.seats.turn
        bonus = cfg.v["cup_bonus"]
        gains: dict[int, int] = {}
        table = state.table[0]
        cups = list(state.cups)
        drops = 0

        def worth(a: int, cup: Any) -> int:
            return a + (cup if bonus and type(cup) is int else 0)

        if arch is not None:
            v = worth(arch, to)
            if mississippi and not cushion:
                for i in state.seats.remaining:
                    if i != p:
                        gains[i] = gains.get(i, 0) + v
            else:
                gains[p] = v
            if type(to) is int:
                cups[cfg.cup_pos[to]] += 1
                drops += 1
        elif to == TABLE and (cushion or not mississippi):
            table += 1
        for a, t in others:
            table -= 1
            if a is not None:
                gains[p] = gains.get(p, 0) + worth(a, t)
                if type(t) is int:
                    cups[cfg.cup_pos[t]] += 1
                    drops += 1
        changes: dict[str, Any] = {"table": (table,), "cups": tuple(cups)}
        if drops:
            changes["drops"] = _with(state.drops, p, drops)
        if gains:
            changes["scores"] = _add_scores(state.scores, gains)
        return changes, 1, False

    def required(self, state: BagatelleState) -> str | None:
        return "cushion" if self.rules.required_rule == "cushion" else None


# --------------------------------------------------------------------------- Parepa

_PAREPA_BALLS = ("white", 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
_PAREPA_NUMBERS = _PAREPA_BALLS[1:]


def _parepa_ball(name: str, doc: str, required: bool = False) -> Field:
    return Field(
        name,
        "union",
        doc,
        required=required,
        variants=(
            Field("white", "str", "the white", choices=("white",)),
            Field("number", "int", "a numbered ball", choices=_PAREPA_NUMBERS),
        ),
    )


class Parepa(RoundOfBalls):
    """Parepa (§5.1): eleven balls; a player goes on while he counts. ``table`` and
    ``extra`` are, per ball (white, 10 ... 100), 1 when it rests on the table / lies in a
    pocket. ``flag`` is true once the turn's first shot (with the white) is played."""

    extra_display = (("cue_choices", "Play with"), ("pocketed", "In the pockets"))

    def ball_fields(self) -> tuple[Field, ...]:
        return (
            _parepa_ball("cue", '"white" or the number of the ball played', required=True),
            place_field("to", 'where the cue ball ended: a pocket number or "table"', (TABLE,)),
            _parepa_ball("first_hit", "the ball the cue ball touched first; null when none"),
            Field(
                "others",
                "list",
                "the other balls pocketed by the shot, each at most once",
                default=(),
                item=Field(
                    "other",
                    "object",
                    "one ball pocketed",
                    fields=(
                        _parepa_ball("ball", "the ball", required=True),
                        place_field("to", "the pocket", ()),
                    ),
                ),
            ),
        )

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (1,) * 11, (), (0,) * 11

    def cue_choices(self, state: BagatelleState) -> list[Any]:
        """The balls the player may play now."""
        if not state.flag:
            return ["white"]
        return [b for b, k in zip(_PAREPA_BALLS, state.extra, strict=True) if k]

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        index = _PAREPA_BALLS.index
        cue = index(event["cue"])
        to = event["to"]
        first = event.get("first_hit")
        first_i = None if first is None else index(first)
        others: list[tuple[int, int]] = []
        for i, o in enumerate(event.get("others") or ()):
            b = index(o["ball"])
            if any(b == x for x, _ in others):
                raise _bad(f"others[{i}].ball: the {o['ball']} is listed twice")
            others.append((b, o["to"]))
        if not (state.extra[cue] if state.flag else cue == 0):  # not in cue_choices(state)
            raise IllegalEvent("bad_cue", f"cue: the {event['cue']} cannot be played now")
        table = list(state.table)
        pocketed = list(state.extra)
        pocketed[cue], table[cue] = 0, 1  # the cue ball is placed on the table for the shot
        for b in ([first_i] if first_i is not None else []) + [o for o, _ in others]:
            if b == cue or not table[b]:
                raise IllegalEvent(
                    "not_on_table", f"the {_PAREPA_BALLS[b]} ball is not on the table"
                )
        if others and first_i is None:
            raise IllegalEvent("nothing_struck", "others: the cue ball touched no ball")
        numbered = [(b, pk) for b, pk in others if b != 0]
        cue_counts = type(to) is int and first_i is not None and first_i != 0
        counts = bool(numbered) or cue_counts
        points = 0
        if counts:
            points = sum(b * 10 + pk for b, pk in numbered)  # the ball's number is 10 x index
            if cue_counts:
                points += cue * 10 + to  # the white (index 0) counts 0
        for b, _ in others:
            table[b], pocketed[b] = 0, 1
        if type(to) is int:
            table[cue], pocketed[cue] = 0, 1
        p = state.seats.turn
        drops = len(others) + (1 if type(to) is int else 0)
        changes: dict[str, Any] = {
            "scores": _with(state.scores, p, points),
            "table": tuple(table),
            "extra": tuple(pocketed),
            "flag": True,
        }
        if drops:
            changes["drops"] = _with(state.drops, p, drops)
        if not counts:
            changes["flag"] = False
            return changes, 0, True
        if not any(table[1:]):  # no numbered ball left: the turn ends
            if changes["scores"][p] < state.cfg.target:  # set up again for the next player
                changes.update(table=(1,) * 11, extra=(0,) * 11, flag=False)
            # a winning shot leaves the balls where they went: there is no next player
            return changes, 0, True
        return changes, 0, False

    def turn_changes(self, state: BagatelleState) -> dict[str, Any]:
        return {"turn_score": 0, "flag": False}

    def on_table(self, state: BagatelleState) -> dict[str, int]:
        return {str(b): 1 for b, k in zip(_PAREPA_BALLS, state.table, strict=True) if k}

    def extra_view(self, state: BagatelleState) -> dict[str, Any]:
        over = state.next == NONE
        return {
            "pocketed": [b for b, k in zip(_PAREPA_BALLS, state.extra, strict=True) if k],
            "cue_choices": [] if over else self.cue_choices(state),
        }

    def extra_doc(self) -> dict[str, str]:
        return {
            "pocketed": 'the balls in the pockets, "white" first, then numbers ascending',
            "cue_choices": "the balls the player may play now",
        }


# ---------------------------------------------------------------- receptacle games


@dataclass(frozen=True)
class Places:
    """Where a receptacle game's ball can stop: ``values`` word -> points for the played
    ball (the board's numbers score themselves when ``numbered``); ``idle`` the word for a
    shot that is not a shot; ``idle_limit`` the attempts in a row after which one counts
    as a shot worth 0 (Klondike's three); ``other`` the one struck ball's kind and
    ``other_values`` its values (with the board's numbers when ``numbered``)."""

    values: tuple[tuple[str, int], ...]
    numbered: str | None
    idle: str | None
    idle_limit: int | None = None
    other: str | None = None
    other_values: tuple[tuple[str, int], ...] = ()


class ReceptacleGame(RoundOfBalls):
    """Klondike, Monte Carlo, High number pool and Parisian pool (§5.2, §5.4, §5.5): each
    shot scores the place the ball stops in, plus (Klondike, Monte Carlo) one struck ball's
    place. No table is kept. ``extra`` is (failed launches in a row,)."""

    def __init__(self, rules: BagatelleRules, places: Places) -> None:
        self.places = places
        self._values = dict(places.values)
        self._other_values = dict(places.other_values)
        if places.idle_limit is not None:
            self.extra_display = (("failed_launches", "Failed launches"),)
        super().__init__(rules)

    def ball_fields(self) -> tuple[Field, ...]:
        pl = self.places
        words = (*self._values, *([pl.idle] if pl.idle else []))
        num = f"a {pl.numbered} number or " if pl.numbered else ""
        fields = [
            place_field(
                "to",
                f"where the ball stopped: {num}" + ", ".join(f'"{w}"' for w in words),
                words,
                numbered=pl.numbered is not None,
            )
        ]
        if pl.other:
            fields.append(
                Field(
                    "others",
                    "list",
                    f"at most one: the {pl.other} ball, sent by the played ball somewhere "
                    "that scores",
                    default=(),
                    item=Field(
                        "other",
                        "object",
                        f"the {pl.other} ball",
                        fields=(
                            Field("ball", "str", "its kind", required=True, choices=(pl.other,)),
                            place_field(
                                "to",
                                "where it stopped",
                                tuple(self._other_values),
                                numbered=pl.numbered is not None,
                            ),
                        ),
                    ),
                )
            )
        return tuple(fields)

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (), (), (0,)

    def turn_extra(self, state: BagatelleState) -> tuple[int, ...] | None:
        return (0,)

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        pl = self.places
        to = event["to"]
        others = event.get("others") or ()
        if len(others) > 1:
            raise IllegalEvent("not_on_table", f"others: there is only one {pl.other} ball")
        if to == pl.idle:
            if others:
                raise IllegalEvent("nothing_struck", f'others: a "{pl.idle}" ball struck nothing')
            tries = state.extra[0] + 1
            if pl.idle_limit is not None and tries >= pl.idle_limit:
                return {"extra": (0,)}, 1, False
            return {"extra": (tries,)}, 0, False
        points = to if type(to) is int else self._values[to]
        drops = int(type(to) is int)
        for o in others:
            place = o["to"]
            points += place if type(place) is int else self._other_values[place]
            drops += type(place) is int
        p = state.seats.turn
        changes: dict[str, Any] = {"scores": _with(state.scores, p, points), "extra": (0,)}
        if drops:
            changes["drops"] = _with(state.drops, p, drops)
        return changes, 1, False

    def extra_view(self, state: BagatelleState) -> dict[str, Any]:
        if self.places.idle_limit is None:
            return {}
        return {"failed_launches": 0 if state.next == NONE else state.extra[0]}

    def extra_doc(self) -> dict[str, str]:
        if self.places.idle_limit is None:
            return {}
        return {"failed_launches": "attempts in a row that did not leave the alley (0 to 2)"}


# ---------------------------------------------------------------------------- Devil


class Devil(RoundOfBalls):
    """Devil-among-the-tailors (§5.3): one spin of the top a turn; every pin down scores
    its compartment's value, the black pin ``black_pin``."""

    def ball_fields(self) -> tuple[Field, ...]:
        return (
            Field(
                "pins",
                "object",
                'pins down by compartment value (a string) and "black" (0 or 1); keys left '
                "out: none down",
                required=True,
                item=Field("pins", "int", "how many fell", minimum=0),
                choices_from="compartments",
            ),
        )

    def ball_doc(self) -> str:
        return "one spin of the top"

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (), (), ()

    def check_setup(self, values: dict[str, Any]) -> None:
        super().check_setup(values)
        for key in values["pin_counts"]:
            if not key.isdigit() or int(key) < 1:
                raise InvalidEvent("bad_setup", "pin_counts: keys are compartment values", -1)

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        counts = state.cfg.v["pin_counts"]
        black = state.cfg.v["black_pin"]
        points = 0
        for key, down in event["pins"].items():
            most, worth = (1, black) if key == "black" else (counts[key], int(key))
            if down > most:
                raise _bad(f"pins.{key}: at most {most} can fall, not {down}")
            points += down * worth
        return {"scores": _with(state.scores, state.seats.turn, points)}, 1, False


# -------------------------------------------------------------------- shuffle-board

_ZONES = (1, 2, 3, "hanger")


class ShuffleBoard(RoundOfBalls):
    """Shuffle-board (§5.6): a roll is four weights each, alternately, then the count.
    ``table`` is the weights each player has on the board."""

    extra_display = (("next", "Next"),)

    def ball_doc(self) -> str:
        return "one weight rolled"

    def ball_fields(self) -> tuple[Field, ...]:
        return (
            Field(
                "to",
                "str",
                '"board" (it lies on the board) or "out"',
                default="board",
                choices=("board", "out"),
            ),
            Field(
                "others",
                "list",
                "weights it knocked out of play",
                default=(),
                item=Field(
                    "other",
                    "object",
                    "one weight knocked out",
                    fields=(
                        Field(
                            "ball",
                            "str",
                            "the player whose weight it is",
                            required=True,
                            choices_from="parties",
                        ),
                        Field("to", "str", '"out"', required=True, choices=("out",)),
                    ),
                ),
            ),
        )

    def more_events(self) -> tuple[EventType, ...]:
        weight = Field(
            "weight",
            "object",
            "one weight on the board",
            fields=(
                Field("player", "str", "whose weight", required=True, choices_from="parties"),
                Field(
                    "zone",
                    "union",
                    '1, 2, 3 (past line one, two, three) or "hanger"',
                    required=True,
                    variants=(
                        Field("line", "int", "the zone", choices=(1, 2, 3)),
                        Field("hanger", "str", "over the end", choices=("hanger",)),
                    ),
                ),
                Field("flip", "str", "a hanger's flip", choices=("made", "failed")),
                Field("level", "bool", "level with the weight listed before it", default=False),
            ),
        )
        return (
            EventType(
                COUNT,
                "the count of the roll: the weights on the board, the furthest first",
                (Field("weights", "list", "furthest first", required=True, item=weight),),
            ),
        )

    def fresh_table(
        self, cfg: BagatelleConfig
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (0,) * len(cfg.names), (), ()

    def on_table(self, state: BagatelleState) -> dict[str, int]:
        return {n: k for n, k in zip(state.cfg.names, state.table, strict=True) if k}

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        names = state.cfg.names
        to = event.get("to") or "board"
        table = list(state.table)
        knocked = [names.index(o["ball"]) for o in event.get("others") or ()]
        if knocked and to == "out":
            raise IllegalEvent(
                "nothing_struck",
                "others: a weight that went out knocks nothing out (disturbed weights are "
                "put back)",
            )
        for who in knocked:
            table[who] -= 1
            if table[who] < 0:
                raise IllegalEvent(
                    "not_on_table", f"others: {names[who]} has no more weights on the board"
                )
        if to == "board":
            table[state.seats.turn] += 1
        return {"table": tuple(table)}, 1, False

    def other_event(self, state: BagatelleState, event: Mapping[str, Any]) -> BagatelleState:
        if state.next != COUNT:
            raise IllegalEvent("no_count_due", "no roll is waiting to be counted")
        names = state.cfg.names
        weights = [
            (names.index(w["player"]), w["zone"], w.get("flip"), bool(w.get("level")))
            for w in event["weights"]
        ]
        for i, (_, zone, flip, _) in enumerate(weights):
            if flip is not None and zone != "hanger":
                raise _bad(f"weights[{i}].flip: only a hanger is flipped")
        scorer, points = self.score_count(state, weights)
        after = state._replace(events=state.events + 1)
        if points:
            after = after._replace(scores=_with(state.scores, scorer, points))
            if after.scores[scorer] >= state.cfg.v["target"]:
                return self._finish(after, scorer, None)
        return self.new_round(after)

    def score_count(
        self, state: BagatelleState, weights: list[tuple[int, Any, Any, bool]]
    ) -> tuple[int, int]:
        """(the scorer, points) of a count; ``bad_count`` for a count that cannot be."""
        rank = {1: 1, 2: 2, 3: 3, "hanger": 4}
        have = [0] * len(state.cfg.names)
        for who, *_ in weights:
            have[who] += 1
        for who, k in enumerate(have):
            if k > state.table[who]:
                raise IllegalEvent(
                    "bad_count",
                    f"weights: {state.cfg.names[who]} has {state.table[who]} on the board",
                )
        flipping = True
        for i, (_, zone, flip, level) in enumerate(weights):
            if i and rank[zone] > rank[weights[i - 1][1]]:
                raise IllegalEvent("bad_count", f"weights[{i}]: not listed furthest first")
            if level and (i == 0 or zone != weights[i - 1][1]):
                raise IllegalEvent(
                    "bad_count", f"weights[{i}].level: not level with the one before"
                )
            if flip is not None:
                nxt_level = i + 1 < len(weights) and weights[i + 1][3]
                if not flipping or level or nxt_level:
                    raise IllegalEvent(
                        "bad_count", f"weights[{i}].flip: this weight cannot be flipped"
                    )
            flipping = flipping and flip == "failed"
        live = [(w, z, f, lv) for w, z, f, lv in weights if f != "failed"]
        if not live:
            return 0, 0
        groups: list[list[tuple[int, Any, Any]]] = []
        for w, z, f, lv in live:
            if lv and groups:
                groups[-1].append((w, z, f))
            else:
                groups.append([(w, z, f)])

        def worth(z: Any, f: Any) -> int:
            return (6 if f == "made" else 3) if z == "hanger" else int(z)

        front = groups[0]
        owners = {w for w, _, _ in front}
        if len(owners) == 1:
            who = front[0][0]
            points = 0
            for g in groups:
                if any(w != who for w, _, _ in g):
                    break
                points += sum(worth(z, f) for _, z, f in g)
            return who, points
        tally = {w: sum(1 for x, _, _ in front if x == w) for w in owners}
        best = max(tally.values())
        leaders = [w for w, k in tally.items() if k == best]
        if len(leaders) > 1:
            return 0, 0
        who = leaders[0]
        return who, sum(worth(z, f) for w, z, f in front if w == who)


# ---------------------------------------------------------------------- the games

_NINE = tuple(range(1, 10))
_TIES = ("ties", "playoff")

VICTORIAN = BagatelleRules(
    id="victorian_bagatelle",
    name='Victorian bagatelle ("according to Hoyle")',
    source="The Rules of Bagatelle (Masters Traditional Games), lines 4-15",
    balls=8,
    end="target_rounds",
    aliases=("victorian",),
    defaults=(("target", 120), ("cups", _NINE), ("capacity", 1), ("black_multiplier", 2), _TIES),
    kinds=("white", "black"),
    spot=(("black", 1),),
    special=(("black", "black_multiplier"),),
    required_rule="until_struck",
    penalty="remove",
)

SANS_EGAL = BagatelleRules(
    id="sans_egal",
    name="Sans Egal",
    source="The Rules of Bagatelle, lines 16-20",
    balls=4,
    end="target_rounds",
    alternate=True,
    reset="round",
    min_players=2,
    max_players=2,
    defaults=(
        ("target", None),
        ("cups", _NINE),
        ("capacity", 1),
        ("black_multiplier", 2),
        ("foul_points", 5),
        _TIES,
    ),
    kinds=("red", "white", "black"),
    spot=(("black", 1),),
    played=("red", "white"),
    special=(("black", "black_multiplier"),),
    required_rule="sans_egal",
    penalty="foul_points",
    fixed_rounds=1,
)

SANS_EGAL_VARIANT = BagatelleRules(
    **{
        **SANS_EGAL.__dict__,
        "id": "sans_egal_variant",
        "name": "Sans Egal, variant",
        "source": "The Rules of Bagatelle, lines 21-23 (with 16-20)",
        "defaults": (
            ("target", None),
            ("cups", _NINE),
            ("capacity", 1),
            ("black_multiplier", 1),
            ("foul_points", 5),
            _TIES,
        ),
        "required_rule": "every",
    }
)

NORTHERN = BagatelleRules(
    id="northern_bagatelle",
    name="Northern (Chester) bagatelle",
    source="The Rules of Bagatelle, lines 24-28",
    balls=8,
    end="target_rounds",
    aliases=("chester_bagatelle",),
    defaults=(
        ("target", 120),
        ("rounds", None),
        ("cups", _NINE),
        ("capacity", 1),
        ("black_multiplier", 2),
        _TIES,
    ),
    kinds=("white", "black"),
    spot=(("black", 1),),
    special=(("black", "black_multiplier"),),
    required_rule="chain",
    penalty="remove",
)

SOUTHERN = BagatelleRules(
    id="southern_bagatelle",
    name="Southern bagatelle (two reds, side pockets)",
    source="The Rules of Bagatelle, lines 29-36",
    balls=7,
    end="target_rounds",
    defaults=(
        ("target", 120),
        ("rounds", None),
        ("cups", _NINE),
        ("capacity", 1),
        ("red_multiplier", 2),
        ("pockets", {"left": 5, "right": 5}),
        _TIES,
    ),
    kinds=("white", "red"),
    spot=(("red", 2),),
    special=(("red", "red_multiplier"),),
    required_rule="chain",
    penalty="remove",
    words=(TABLE, BACK, OFF, "left", "right"),
    extra_fields=("nominated",),
)

_ARCH_DEFAULTS = (
    ("target", 120),
    ("rounds", None),
    ("arches", (6, 4, 1, 7, 8, 2, 5, 3)),
    ("cup_bonus", False),
    ("cups", _NINE),
    ("capacity", 1),
    _TIES,
)

MISSISSIPPI = BagatelleRules(
    id="mississippi",
    name="Mississippi (arches, cushion first)",
    source="The Rules of Bagatelle, lines 37-43 and 46-47",
    balls=9,
    end="target_rounds",
    defaults=_ARCH_DEFAULTS,
    kinds=("white",),
    required_rule="cushion",
)

LA_TROU_MADAME = BagatelleRules(
    id="la_trou_madame",
    name="La Trou Madame (arches)",
    source="The Rules of Bagatelle, lines 44-47",
    balls=9,
    end="target_rounds",
    aliases=("trou_madame",),
    defaults=_ARCH_DEFAULTS,
    kinds=("white",),
)

BAGATELLE_1908 = BagatelleRules(
    id="bagatelle_1908",
    name="Bagatelle (1908 handbook)",
    source="Modern Billiards (1908), lines 1934-1948",
    balls=8,
    end="rounds",
    sides=True,
    defaults=(
        ("rounds", 3),
        ("cups", _NINE),
        ("capacity", 1),
        ("black_multiplier", 2),
        ("black_first", False),
        _TIES,
    ),
    kinds=("white", "black"),
    spot=(("black", 1),),
    special=(("black", "black_multiplier"),),
    required_rule="until_struck",
    penalty="remove",
)

ENGLISH = BagatelleRules(
    id="english_bagatelle",
    name="English bagatelle (king ball, optional pins)",
    source="Modern Billiards (1908), lines 1950-1964",
    balls=8,
    end="rounds",
    sides=True,
    defaults=(
        ("rounds", 3),
        ("cups", _NINE),
        ("capacity", 1),
        ("king_multiplier", 2),
        ("pins", 0),
        ("pin_value", 5),
        _TIES,
    ),
    kinds=("white", "king"),
    spot=(("king", 1),),
    special=(("king", "king_multiplier"),),
    required_rule="king",
    penalty="void",
    extra_fields=("king_struck",),
)

CAROMBOLETTE = BagatelleRules(
    id="carombolette",
    name="Carombolette (bagatelle mode, pool mode)",
    source="Modern Billiards (1908), lines 1966-1990",
    balls=8,
    end="rounds",
    sides=True,
    defaults=(
        ("rounds", 1),
        ("mode", "bagatelle"),
        ("holes", tuple(range(1, 11))),
        ("arches", _NINE),
        ("capacity", None),
        ("red_multiplier", 2),
        _TIES,
    ),
    kinds=("white", "red"),
    spot=(("red", 1),),
    special=(("red", "red_multiplier"),),
    required_rule="ball",
    penalty="forfeit",
    respot="red",
    numbers="holes",
)

PIGEON_HOLE = BagatelleRules(
    id="pigeon_hole_jenny_lind",
    name="Pigeon Hole and Jenny Lind",
    source="Modern Billiards (1908), lines 1900-1916",
    balls=8,
    end="target_now",
    aliases=("pigeon_hole", "jenny_lind"),
    ties=False,
    defaults=(("target", 100), ("cups", _NINE), ("capacity", None), ("red_multiplier", 2)),
    kinds=("white", "red"),
    spot=(("red", 1),),
    special=(("red", "red_multiplier"),),
    words=(TABLE, OFF),
    extra_fields=("fouls",),
)

PAREPA = BagatelleRules(
    id="parepa",
    name="Parepa",
    source="Modern Billiards (1908), lines 1918-1932",
    balls=None,
    end="target_now",
    reset="never",
    ties=False,
    defaults=(("target", 500), ("pockets", (1, 2, 3, 4, 5, 6))),
    numbers="pockets",
)

KLONDIKE = BagatelleRules(
    id="klondike",
    name="Klondike",
    source="Modern Billiards (1908), lines 2022-2035",
    balls=6,
    end="rounds",
    defaults=(_TIES,),
    numbers="",
    fixed_rounds=1,
)

DEVIL = BagatelleRules(
    id="devil_among_the_tailors",
    name="Devil-among-the-tailors (top and pins)",
    source="Modern Billiards (1908), lines 2037-2069",
    balls=1,
    end="rounds",
    aliases=("devil",),
    max_players=10,
    defaults=(
        ("rounds", 3),
        ("pin_counts", {"10": 12, "20": 10, "30": 8, "50": 4}),
        ("black_pin", 100),
        _TIES,
    ),
    numbers="",
)

MONTE_CARLO = BagatelleRules(
    id="monte_carlo",
    name="Monte Carlo",
    source="Modern Billiards (1908), lines 1889-1898",
    balls=4,
    end="rounds",
    lowest_loses=True,
    defaults=(("receptacles", (5, 10, 15, 20, 25, 50)), ("alternate", False), _TIES),
    numbers="receptacles",
    fixed_rounds=1,
)

HIGH_NUMBER_POOL = BagatelleRules(
    id="high_number_pool",
    name="High number pool (Parisian board)",
    source="Modern Billiards (1908), lines 1867-1873",
    balls=1,
    end="rounds",
    defaults=(("cups", tuple(range(1, 13))), _TIES),
    fixed_rounds=1,
)

LA_BARRAQUE = BagatelleRules(
    id="parisian_pool_la_barraque",
    name="Parisian pool (La Barraque)",
    source="Modern Billiards (1908), lines 1875-1887",
    balls=1,
    end="target_now",
    aliases=("la_barraque", "parisian_pool"),
    lowest_loses=True,
    defaults=(("target", 200), ("cups", tuple(range(1, 13))), _TIES),
)

SHUFFLE = BagatelleRules(
    id="shuffle_board",
    name="Shuffle-board",
    source="Modern Billiards (1908), lines 2071-2097",
    balls=4,
    end=COUNT,
    alternate=True,
    reset="round",
    rotate_start=True,
    aliases=("shuffleboard",),
    min_players=2,
    max_players=2,
    ties=False,
    defaults=(("target", 21),),
    numbers="",
)


_PARISIAN = Places(values=(("board", 0), (OFF, 0)), numbered="cup", idle="short")

GAMES: tuple[RoundOfBalls, ...] = (
    BoardGame(VICTORIAN),
    BoardGame(SANS_EGAL),
    BoardGame(SANS_EGAL_VARIANT),
    BoardGame(NORTHERN),
    BoardGame(SOUTHERN),
    ArchGame(MISSISSIPPI),
    ArchGame(LA_TROU_MADAME),
    BoardGame(BAGATELLE_1908),
    BoardGame(ENGLISH),
    BoardGame(CAROMBOLETTE),
    PigeonHole(PIGEON_HOLE),
    Parepa(PAREPA),
    ReceptacleGame(
        KLONDIKE,
        Places(
            values=(("pin", 20), ("points", 10), ("alley", 0), (TABLE, 0)),
            numbered=None,
            idle="not_out",
            idle_limit=3,
            other="red",
            other_values=(("pin", 40), ("points", 20), ("alley", 100)),
        ),
    ),
    Devil(DEVIL),
    ReceptacleGame(
        MONTE_CARLO,
        Places(values=((BACK, 0),), numbered="receptacle", idle="short", other="object"),
    ),
    ReceptacleGame(HIGH_NUMBER_POOL, _PARISIAN),
    ReceptacleGame(LA_BARRAQUE, _PARISIAN),
    ShuffleBoard(SHUFFLE),
)

register_all(GAMES)
