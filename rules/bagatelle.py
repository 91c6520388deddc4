"""The bagatelle family: games in which a turn is a fixed allotment of balls played one after
another at cups, holes, arches or receptacles that carry values (specs/bagatelle.md).

Eighteen games, all run by one state machine, :class:`RoundOfBalls`:

* the seats (players in rotation, or the members of sides taking turns), the allotment of
  balls (a turn of N balls, or single balls alternating until each has played N), the
  table set afresh each turn or each round, the end of a round, the end of the game
  (target with equal turns, fixed rounds, target at once, or after the count), the
  winner or the loser, and play-offs among the tied only;
* a game is a frozen :class:`Rules` (its parameters) run by one of a few subclasses that
  override the named hooks where behaviour truly differs: :meth:`RoundOfBalls.play`
  (what one ball does), :meth:`RoundOfBalls.required`, :meth:`RoundOfBalls.fresh_table`
  and :meth:`RoundOfBalls.extra_view`.

| class | games |
|---|---|
| :class:`BoardGame` | the bagatelle boards: Victorian, Sans Egal and its variant, Northern, Southern, the 1908 bagatelle, English bagatelle, Carombolette |
| :class:`PigeonHole` | Pigeon Hole and Jenny Lind (adds ``respot_red`` and the foul) |
| :class:`ArchGame` | Mississippi and La Trou Madame |
| :class:`Parepa` | Parepa |
| :class:`ReceptacleGame` | Klondike, Monte Carlo, High number pool, Parisian pool (a value per place the ball stops, one optional struck ball, shots that are not shots) |
| :class:`Devil` | Devil-among-the-tailors |
| :class:`ShuffleBoard` | shuffle-board (weights, and the count of a roll) |

State is a :class:`BState` (a NamedTuple of counters: balls per kind on the table, balls per
cup, balls left per seat; never a history), so an event costs the same at the 10th and the
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.core import (
    EventType,
    Field,
    Foul,
    Game,
    IllegalEvent,
    InvalidEvent,
    Option,
    validate_setup,
)
from rules.registry import register

__all__ = [
    "GAMES",
    "ArchGame",
    "BState",
    "BoardGame",
    "Devil",
    "Parepa",
    "PigeonHole",
    "ReceptacleGame",
    "RoundOfBalls",
    "Rules",
    "ShuffleBoard",
    "player_statistics",
    "simulate",
]

TABLE, BACK, OFF = "table", "back", "off"
BALL, COUNT, NONE = "ball", "count", "none"

# ------------------------------------------------------------------------ the rules


@dataclass(frozen=True)
class Rules:
    """One game of the family as parameters (specs/bagatelle.md, the game's section).

    ``balls``: balls (shots, spins, weights) a seat plays in a round (None: no allotment,
    Parepa). ``alternate``: a turn is one ball and the seats alternate until each has
    played its ``balls``. ``reset``: when the table is set up afresh (``"turn"``,
    ``"round"`` or ``"never"``). ``rotate_start``: the seat that starts a round moves on by
    one each round (shuffle-board's rolls). ``end``: ``"target_rounds"`` (target with
    equal turns, and/or a number of rounds), ``"rounds"`` (fixed rounds), ``"target_now"``
    (the game ends after the event that reaches the target) or ``"count"`` (after a
    shuffle-board count). ``lowest_loses``: the single lowest total loses.

    Board games: ``kinds`` the ball kinds, ``spot`` the balls on the table when it is set
    up, ``played`` the kind of ball each seat plays (one entry: every seat),
    ``special`` the kinds scoring a multiple (kind -> the setup option naming it),
    ``required_rule`` and ``penalty`` name how the contact rule is read and what failing
    it costs, ``words`` the words ``to`` takes besides a number. ``fixed_rounds``: the
    rounds of a game without a ``rounds`` option when no target is set (Sans Egal without
    a target, Klondike, Monte Carlo, High number pool: one round).
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

    def default(self, name: str) -> Any:
        """The default of the setup option ``name``."""
        return dict(self.defaults)[name]


# ------------------------------------------------------------------------- the state


class BState(NamedTuple):
    """The internal state (immutable). Participant-indexed tuples: ``scores``, ``drops``
    (balls each has sent into cups, for statistics); seat-indexed: ``left`` (balls the seat
    has still to play this round). ``table`` counts balls per kind of ``Rules.kinds`` (per
    participant in shuffle-board), ``cups`` balls per cup, ``extra`` the game's own
    counters (see each class). ``winner``/``loser`` are participant indexes."""

    cfg: Cfg
    scores: tuple[int, ...]
    seat: int
    left: tuple[int, ...]
    turn_left: int
    round: int
    turn_score: int
    turns: int
    table: tuple[int, ...]
    cups: tuple[int, ...]
    extra: tuple[int, ...]
    flag: bool
    out: tuple[int, ...]
    playoff: tuple[int, ...]
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


class Cfg:
    """A game's setup, checked and with defaults filled in, plus what is derived from it.
    Two configs are equal when their setups are (``key`` is the setup as JSON)."""

    __slots__ = (
        "arches",
        "capacity",
        "cup_pos",
        "cups",
        "key",
        "mult",
        "names",
        "numbers",
        "rounds",
        "seats",
        "setup",
        "shared_ties",
        "target",
        "v",
    )

    def __init__(
        self,
        setup: dict[str, Any],
        names: tuple[str, ...],
        seats: tuple[tuple[int, str | None], ...],
        rules: Rules,
    ) -> None:
        self.setup = setup
        self.key = json.dumps(setup, sort_keys=True)
        self.names = names
        self.seats = seats
        self.v = setup
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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cfg) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Cfg({self.key})"


# --------------------------------------------------------------- checking the input


def _bad(message: str) -> InvalidEvent:
    return InvalidEvent("bad_value", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_fields(event: Mapping[str, Any], kind: str, allowed: frozenset[str]) -> None:
    """Refuse a field the event type does not take (``unknown_field``).

    Stands in for the core's declared-field check on the ``ball`` event, whose ``to``
    is a number or a word (a union the core does not declare yet).
    """
    for key in event:
        if key not in allowed:
            raise InvalidEvent("unknown_field", f"{kind}: unknown field {key!r}")


def check_place(
    value: Any, numbers: frozenset[int], words: Sequence[str], path: str, what: str = "cup"
) -> int | str:
    """``value`` if it is one of ``numbers`` or ``words``, else ``bad_value``.

    >>> check_place(9, frozenset({9}), ("table",), "to")
    9
    >>> check_place("sky", frozenset({9}), ("table",), "to")
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: bad_value: to must be a cup of the board or one of 'table', not 'sky'
    """
    if _is_int(value):
        if value in numbers:
            return int(value)
    elif isinstance(value, str) and value in words:
        return value
    allowed = ", ".join(repr(w) for w in words)
    shown = json.dumps(value) if not isinstance(value, (dict, list)) else "an object"
    raise _bad(f"{path} must be a {what} of the board or one of {allowed}, not {shown}")


def check_choice(value: Any, choices: Sequence[Any], path: str) -> Any:
    """``value`` if it is one of ``choices`` (bools are never ints), else ``bad_value``."""
    for c in choices:
        if value == c and type(value) is type(c):
            return value
    allowed = ", ".join(json.dumps(c) for c in choices)
    raise _bad(f"{path} must be one of {allowed}, not {json.dumps(value, default=str)}")


def check_bool(event: Mapping[str, Any], name: str) -> bool:
    """The optional boolean field ``name`` (default false)."""
    value = event.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(f"{name} must be true or false")
    return value


def check_list(event: Mapping[str, Any], name: str) -> list[Any]:
    """The optional list field ``name`` (default empty)."""
    value = event.get(name)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise _bad(f"{name} must be a list")
    return list(value)


def check_entry(entry: Any, path: str, allowed: frozenset[str]) -> Mapping[str, Any]:
    """One object of an ``others`` list: an object with only ``allowed`` keys and a ``ball``."""
    if not isinstance(entry, Mapping):
        raise _bad(f"{path} must be an object")
    for key in entry:
        if key not in allowed:
            raise InvalidEvent("unknown_field", f"{path}: unknown field {key!r}")
    if "ball" not in entry:
        raise InvalidEvent("missing_field", f"{path}.ball is required")
    return entry


# ----------------------------------------------------------------------- vocabulary

_PLAYERS_DOC = (
    "the participants in the order of play: a list of distinct names, or a whole number n "
    'meaning "P1" ... "Pn"'
)


def _players_option(rules: Rules) -> Field:
    doc = _PLAYERS_DOC
    if rules.sides:
        doc += (
            '; with "sides", an object: side -> its members in the order they take the '
            "side's turns (null for an unnamed member)"
        )
    return Option("players", "list", ("P1", "P2"), doc, item=Field("player", "str", "a name"))


def _sides_option() -> Field:
    return Option(
        "sides",
        "list",
        None,
        "play between sides: the sides in the order of play (their members take the turns: "
        "the first member of each side, then the second, ...); null: individual play",
        item=Field("side", "str", "a side's name"),
    )


def _ints(name: str, default: tuple[int, ...], doc: str) -> Field:
    return Option(name, "list", default, doc, item=Field("number", "int", "a number"))


#: Every setup option the family knows, by name: (type, doc, extra Option kwargs).
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
}


def _option(name: str, default: Any, nullable: bool = False) -> Field:
    if name in _LIST_DOCS:
        return _ints(name, tuple(default), _LIST_DOCS[name])
    if name == "pockets" and isinstance(default, Mapping):
        return Option(
            name,
            "object",
            dict(default),
            "what the side pockets score",
            fields=(
                Field("left", "int", "the left side pocket", default=default["left"]),
                Field("right", "int", "the right side pocket", default=default["right"]),
            ),
        )
    if name == "pockets":
        return _ints(name, tuple(default), "the pockets' numbers")
    if name == "pin_counts":
        return Option(
            name,
            "object",
            dict(default),
            "compartment value (as a string) -> pins standing in such compartments",
            item=Field("pins", "int", "how many pins"),
        )
    kind, doc = _OPTION_DOCS[name]
    choices: tuple[Any, ...] | None = None
    if name == "ties":
        choices = ("playoff", "shared")
    elif name == "mode":
        choices = ("bagatelle", "pool")
    return Option(name, kind, default, doc, choices=choices, nullable=nullable or default is None)


# ------------------------------------------------------------------------ the machine


class RoundOfBalls(Game[BState]):
    """The machinery every game of the family shares (specs/bagatelle.md §1): seats,
    rounds and turns, the table, the end of the game, ties and play-offs, the view.

    Subclasses override the hooks :meth:`play` (one ``ball`` event),
    :meth:`fresh_table`, :meth:`required`, :meth:`extra_view`, :meth:`other_event`,
    :meth:`ball_fields` and :meth:`more_events`.
    """

    family = "bagatelle"
    fouls: tuple[Foul, ...] = ()

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
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
            opts.append(_sides_option())
        names = dict(rules.defaults)
        #: options that take null: no target (with rounds), no round limit, no capacity
        self._nullable = frozenset(
            n
            for n, d in rules.defaults
            if d is None or n in ("rounds", "capacity") or (n == "target" and "rounds" in names)
        )
        self._plain = tuple(_option(n, d, n in self._nullable) for n, d in rules.defaults)
        self.options = (*opts, *self._plain)
        self.events = (EventType(BALL, self.ball_doc(), self.ball_fields()), *self.more_events())
        self._types = frozenset(e.type for e in self.events)
        self._ball_names = frozenset(f.name for f in self.events[0].fields) | {"type"}
        self._kind_pos = {k: i for i, k in enumerate(rules.kinds)}
        self._words = frozenset(rules.words)
        self._other_words = tuple(w for w in rules.words if w != TABLE)
        self._colours = len(rules.played) > 1
        self._nominates = "nominated" in rules.extra_fields
        self._king = "king_struck" in rules.extra_fields
        self._cfgs: dict[str, Cfg] = {}
        self.state_doc = self._state_doc()

    # -- hooks ---------------------------------------------------------------

    def ball_doc(self) -> str:
        """The doc of the ``ball`` event."""
        return "one ball (shot) played by the seat at the table"

    def ball_fields(self) -> tuple[Field, ...]:
        """The fields of the ``ball`` event (for describe() and the pad)."""
        return ()

    def more_events(self) -> tuple[EventType, ...]:
        """Event types besides ``ball``."""
        return ()

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(table, cups, extra) when the table is set up afresh."""
        counts = dict(self.rules.spot)
        return (
            tuple(counts.get(k, 0) for k in self.rules.kinds),
            (0,) * len(cfg.cups),
            (),
        )

    def required(self, state: BState) -> str | None:
        """What the next ball must strike first (the state key ``required``)."""
        return None

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        """One ``ball`` event: (the changed state fields, e.g. ``scores`` and ``table``;
        the balls used; whether the turn ends now whatever is left)."""
        raise NotImplementedError

    def other_event(self, state: BState, event: Mapping[str, Any]) -> BState:
        """An event type other than ``ball`` (already known to the game)."""
        raise InvalidEvent("unknown_type", f"no event type {event['type']!r}")

    def extra_view(self, state: BState) -> dict[str, Any]:
        """The keys the game's section adds to the state."""
        return {}

    def extra_doc(self) -> dict[str, str]:
        """Docs of the keys :meth:`extra_view` adds."""
        return {}

    # -- setup ---------------------------------------------------------------

    def config(self, setup: Mapping[str, Any] | None) -> Cfg:
        """The checked setup (``bad_setup``, index -1, for anything malformed)."""
        raw = {} if setup is None else setup
        if not isinstance(raw, Mapping):
            raise InvalidEvent("bad_setup", "the setup must be a JSON object", -1)
        rest = {k: v for k, v in raw.items() if k not in ("players", "sides")}
        nulls = [k for k in self._nullable if k in rest and rest[k] is None]
        for key in nulls:  # fill_defaults would put the default back in place of a null
            rest.pop(key)
        values = validate_setup(_Options(self._plain), rest)
        for key in nulls:
            values[key] = None
        names, seats, players_value = self._participants(raw)
        values["players"] = players_value
        if self.rules.sides and raw.get("sides") is not None:
            values["sides"] = list(names)
        self.check_setup(values, len(names))
        cfg = Cfg(values, names, seats, self.rules)
        cached = self._cfgs.get(cfg.key)
        if cached is None:
            if len(self._cfgs) > 256:
                self._cfgs.clear()
            self._cfgs[cfg.key] = cfg
            cached = cfg
        return cached

    def _participants(
        self, raw: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], tuple[tuple[int, str | None], ...], Any]:
        players = raw.get("players", 2)
        sides = raw.get("sides") if self.rules.sides else None
        if "sides" in raw and not self.rules.sides:
            raise InvalidEvent("bad_setup", f"{self.id} is not played between sides", -1)
        if self.rules.sides and (sides is not None or isinstance(players, Mapping)):
            return self._sides(sides, raw.get("players"))
        if _is_int(players):
            if not 1 <= players <= 100:
                raise InvalidEvent("bad_setup", "players: a number of players from 2", -1)
            names = tuple(f"P{i + 1}" for i in range(players))
        elif isinstance(players, (list, tuple)):
            if not all(isinstance(p, str) and p for p in players):
                raise InvalidEvent(
                    "bad_setup", "players: every name must be a non-empty string", -1
                )
            names = tuple(players)
            if len(set(names)) != len(names):
                raise InvalidEvent("bad_setup", "players: the names must be distinct", -1)
        else:
            raise InvalidEvent("bad_setup", "players must be a list of names or a number", -1)
        self._count_ok(len(names), "players")
        return names, tuple((i, n) for i, n in enumerate(names)), list(names)

    def _sides(
        self, sides: Any, players: Any
    ) -> tuple[tuple[str, ...], tuple[tuple[int, str | None], ...], Any]:
        if sides is None:
            sides = list(players)
        if not isinstance(sides, (list, tuple)) or not all(isinstance(s, str) and s for s in sides):
            raise InvalidEvent("bad_setup", "sides must be a list of side names", -1)
        names = tuple(sides)
        if len(set(names)) != len(names):
            raise InvalidEvent("bad_setup", "sides: the names must be distinct", -1)
        self._count_ok(len(names), "sides")
        if players is None:
            players = {s: [None] for s in names}
        if not isinstance(players, Mapping) or set(players) != set(names):
            raise InvalidEvent(
                "bad_setup", "players: an object naming the members of every side", -1
            )
        members = []
        for s in names:
            ms = players[s]
            if not isinstance(ms, (list, tuple)) or not ms:
                raise InvalidEvent("bad_setup", f"players.{s}: a non-empty list of members", -1)
            if not all(m is None or (isinstance(m, str) and m) for m in ms):
                raise InvalidEvent("bad_setup", f"players.{s}: names are strings or null", -1)
            members.append(tuple(ms))
        if len({len(m) for m in members}) != 1:
            raise InvalidEvent(
                "bad_setup", "players: every side has the same number of members", -1
            )
        named = [m for ms in members for m in ms if m is not None]
        if len(set(named)) != len(named):
            raise InvalidEvent("bad_setup", "players: the members' names must be distinct", -1)
        seats = tuple((i, members[i][k]) for k in range(len(members[0])) for i in range(len(names)))
        return names, seats, {s: list(m) for s, m in zip(names, members, strict=True)}

    def _count_ok(self, n: int, what: str) -> None:
        lo, hi = self.rules.min_players, self.rules.max_players
        if n < lo or (hi is not None and n > hi):
            need = f"exactly {lo}" if hi == lo else f"{lo} to {hi}" if hi else f"at least {lo}"
            raise InvalidEvent("bad_setup", f"{what}: {need} are needed, not {n}", -1)

    def check_setup(self, values: dict[str, Any], n: int) -> None:
        """Impossible combinations of setup values (``bad_setup``, index -1)."""
        for key in ("cups", "holes", "arches", "receptacles"):
            if key in values:
                nums = values[key]
                if not nums or any(x < 1 for x in nums) or len(set(nums)) != len(nums):
                    raise InvalidEvent("bad_setup", f"{key}: distinct positive numbers", -1)
        if isinstance(values.get("pockets"), list):
            p = values["pockets"]
            if not p or any(x < 1 for x in p) or len(set(p)) != len(p):
                raise InvalidEvent("bad_setup", "pockets: distinct positive numbers", -1)
        for key in ("capacity", "rounds"):
            if values.get(key) is not None and values[key] < 1:
                raise InvalidEvent("bad_setup", f"{key} must be at least 1, or null", -1)
        for key in (
            "black_multiplier",
            "red_multiplier",
            "king_multiplier",
            "pin_value",
            "black_pin",
        ):
            if key in values and values[key] < 0:
                raise InvalidEvent("bad_setup", f"{key} must not be negative", -1)
        for key in ("foul_points", "pins"):
            if key in values and values[key] < 0:
                raise InvalidEvent("bad_setup", f"{key} must not be negative", -1)
        if "target" in values:
            target = values["target"]
            if target is None and self.rules.end in ("target_now", "count"):
                raise InvalidEvent("bad_setup", "target is required", -1)
            if target is not None and target <= 0:
                raise InvalidEvent("bad_setup", "target must be above 0", -1)
            if "rounds" in values and target is None and values["rounds"] is None:
                raise InvalidEvent("bad_setup", "at least one of target and rounds is needed", -1)

    def initial(self, setup: Mapping[str, Any] | None) -> BState:
        """The state before the first event (specs/bagatelle.md §1.6)."""
        cfg = self.config(setup)
        n = len(cfg.names)
        state = BState(
            cfg=cfg,
            scores=(0,) * n,
            seat=0,
            left=(0,) * len(cfg.seats),
            turn_left=0,
            round=0,
            turn_score=0,
            turns=0,
            table=(),
            cups=(),
            extra=(),
            flag=False,
            out=(),
            playoff=(),
            next=BALL,
            winner=None,
            loser=None,
            shared=False,
            events=0,
            drops=(0,) * n,
        )
        return self._new_round(state, tuple(range(n)), 1)

    # -- events --------------------------------------------------------------

    def apply(self, state: BState, event: Mapping[str, Any]) -> BState:
        """The state after one event; refused input raises and changes nothing."""
        if state.next == NONE:
            raise IllegalEvent("game_over", "the game is over")
        if not isinstance(event, Mapping):
            raise InvalidEvent("unknown_type", "an event must be a JSON object")
        kind = event.get("type")
        if kind not in self._types:
            raise InvalidEvent("unknown_type", f"no event type {kind!r} in {self.id}")
        if kind != BALL:
            return self.other_event(state, event)
        if state.next == COUNT:
            check_fields(event, BALL, self._ball_names)
            raise IllegalEvent("count_due", "the roll is over: the count is due")
        check_fields(event, BALL, self._ball_names)
        changes, used, turn_over = self.play(state, event)
        return self.advance(state, changes, used, turn_over)

    def advance(self, state: BState, changes: dict[str, Any], used: int, turn_over: bool) -> BState:
        """After a ball: ``changes`` (what :meth:`play` changed) applied in one step with
        the turn's score and the allotment; then the target and the next turn."""
        cfg = state.cfg
        seat = state.seat
        changes["events"] = state.events + 1
        left = state.left
        if used:
            left = (*left[:seat], max(0, left[seat] - used), *left[seat + 1 :])
            changes["left"] = left
            changes["turn_left"] = state.turn_left - used
        if "scores" in changes:
            p = cfg.seats[seat][0]
            changes["turn_score"] = state.turn_score + changes["scores"][p] - state.scores[p]
        if self.rules.end == "target_now" and not state.playoff and "scores" in changes:
            target = cfg.target
            if any(s >= target for s in changes["scores"]):
                after = state._replace(**changes)
                return self._settle(after, self._in_play(after))
        if turn_over or (
            self.rules.balls is not None
            and (changes.get("turn_left", state.turn_left) <= 0 or left[seat] <= 0)
        ):
            return self._next_turn(state, changes)
        return state._replace(**changes)

    # -- rotation ------------------------------------------------------------

    def _in_play(self, state: BState) -> tuple[int, ...]:
        out = state.out
        return tuple(i for i in range(len(state.cfg.names)) if i not in out)

    def _new_round(self, state: BState, group: tuple[int, ...], number: int) -> BState:
        cfg, rules = state.cfg, self.rules
        n_seats = len(cfg.seats)
        balls = rules.balls or 0
        left = tuple(balls if cfg.seats[i][0] in group else 0 for i in range(n_seats))
        start = (number - 1) % n_seats if rules.rotate_start else 0
        seat = start
        if rules.balls is not None:
            for k in range(n_seats):
                seat = (start + k) % n_seats
                if left[seat]:
                    break
        else:
            seat = next(i for i in range(n_seats) if cfg.seats[i][0] in group)
        table, cups, extra = self.fresh_table(cfg)
        return state._replace(
            seat=seat,
            left=left,
            round=number,
            turn_left=1 if rules.alternate else balls,
            turn_score=0,
            turns=state.turns + 1,
            table=table,
            cups=cups,
            extra=extra,
            flag=False,
            next=BALL,
        )

    def _next_turn(self, state: BState, changes: dict[str, Any] | None = None) -> BState:
        """The turn passes: ``changes`` (of the event that ended it) and the next turn's
        are applied to ``state`` in one step; at the end of the round, the round's end."""
        changes = {} if changes is None else changes
        cfg, rules = state.cfg, self.rules
        n_seats = len(cfg.seats)
        if rules.balls is None:  # Parepa: the next seat in play, no rounds of balls
            seat = state.seat
            number = state.round
            for _ in range(n_seats):
                seat = (seat + 1) % n_seats
                if seat == 0:
                    number += 1
                if cfg.seats[seat][0] not in state.out:
                    break
            changes["round"] = number
            changes.update(self.turn_changes(state, seat))
            return state._replace(**changes)
        left = changes.get("left", state.left)
        for k in range(1, n_seats + 1):
            seat = (state.seat + k) % n_seats
            if left[seat] > 0:
                changes.update(self.turn_changes(state, seat))
                return state._replace(**changes)
        return self._end_round(state._replace(**changes) if changes else state)

    def turn_changes(self, state: BState, seat: int) -> dict[str, Any]:
        """A new turn for ``seat``: the allotment, and the table if it is set up each turn."""
        changes: dict[str, Any] = {
            "seat": seat,
            "turn_left": 1 if self.rules.alternate else self.rules.balls or 0,
            "turn_score": 0,
            "turns": state.turns + 1,
        }
        if self.rules.reset == "turn":
            table, cups, extra = self.fresh_table(state.cfg)
            changes.update(table=table, cups=cups, extra=extra, flag=False)
        else:
            extra = self.turn_extra(state)
            if extra is not None:
                changes["extra"] = extra
        return changes

    def turn_extra(self, state: BState) -> tuple[int, ...] | None:
        """``extra`` at the start of a turn when the table is not set up afresh (None:
        as it stands)."""
        return None

    def _end_round(self, state: BState) -> BState:
        cfg, rules = state.cfg, self.rules
        if state.playoff:
            return self._settle(state, state.playoff)
        if rules.end == COUNT:
            n_seats = len(cfg.seats)
            return state._replace(
                next=COUNT,
                seat=state.round % n_seats,
                turn_left=0,
                turn_score=0,
            )
        ended = False
        if rules.end in ("target_rounds", "rounds"):
            if cfg.rounds is not None and state.round >= cfg.rounds:
                ended = True
            if rules.end == "target_rounds" and cfg.target is not None:
                ended = ended or any(state.scores[i] >= cfg.target for i in self._in_play(state))
        if ended:
            return self._settle(state, self._in_play(state))
        return self._new_round(state, self._in_play(state), state.round + 1)

    def _settle(self, state: BState, group: tuple[int, ...]) -> BState:
        """The end test among ``group``: a single best (or worst) ends the game; a tie
        plays off among the tied, or is shared."""
        scores = state.scores
        mark = (
            min(scores[i] for i in group)
            if self.rules.lowest_loses
            else max(scores[i] for i in group)
        )
        tied = tuple(i for i in group if scores[i] == mark)
        if len(tied) == 1:
            if self.rules.lowest_loses:
                n = len(state.cfg.names)
                winner = (1 - tied[0]) if n == 2 else None
                return self._finish(state, winner, tied[0])
            return self._finish(state, tied[0], None)
        if state.cfg.shared_ties or not self.rules.ties:
            return self._finish(state, None, None, shared=True)
        return self._new_round(state._replace(playoff=tied), tied, state.round + 1)

    def _finish(
        self, state: BState, winner: int | None, loser: int | None, shared: bool = False
    ) -> BState:
        return state._replace(
            next=NONE,
            winner=winner,
            loser=loser,
            shared=shared,
            playoff=(),
            turn_left=0,
            turn_score=0,
        )

    def put_out(self, state: BState, who: int) -> BState:
        """Put participant ``who`` out of the game (his turns are skipped); the last one
        left wins."""
        out = (*state.out, who)
        left = tuple(0 if state.cfg.seats[i][0] == who else x for i, x in enumerate(state.left))
        state = state._replace(out=out, left=left)
        remaining = self._in_play(state)
        if len(remaining) == 1:
            return self._finish(state, remaining[0], None)
        return self._next_turn(state)

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

    def on_table(self, state: BState) -> dict[str, int]:
        """The ``on_table`` key: kind -> balls resting on the table (none left out)."""
        return {k: c for k, c in zip(self.rules.kinds, state.table, strict=False) if c}

    def view(self, state: BState) -> dict[str, Any]:
        """The public state (specs/bagatelle.md §1.6)."""
        cfg = state.cfg
        names = cfg.names
        over = state.next == NONE
        p, member = cfg.seats[state.seat]
        cap = cfg.capacity
        view = {
            "game": self.id,
            "over": over,
            "winner": None if state.winner is None else names[state.winner],
            "shared": state.shared,
            "scores": dict(zip(names, state.scores, strict=True)),
            "at_table": None if over else names[p],
            "player": None if over else member,
            "events": state.events,
            "round": state.round,
            "balls_left": None
            if self.rules.balls is None
            else 0
            if over or state.next == COUNT
            else state.left[state.seat],
            "turn_score": 0 if over else state.turn_score,
            "required": None if over or state.next == COUNT else self.required(state),
            "on_table": {} if over else self.on_table(state),
            "cups_filled": []
            if over or cap is None
            else sorted(c for c, k in zip(cfg.cups, state.cups, strict=False) if k >= cap),
            "loser": None if state.loser is None else names[state.loser],
            "playoff": [names[i] for i in state.playoff] if not over else [],
            "next": state.next,
        }
        view.update(self.extra_view(state))
        return view

    def dump(self, state: BState) -> dict[str, Any]:
        """The internal state as compact JSON; ``load(dump(s)) == s``."""
        return {
            "setup": state.cfg.setup,
            "s": [list(x) if isinstance(x, tuple) else x for x in state[1:]],
        }

    def load(self, data: Mapping[str, Any]) -> BState:
        """The internal state back from :meth:`dump`."""
        setup = data["setup"]
        cfg = self._cfgs.get(json.dumps(setup, sort_keys=True)) or self.config(setup)
        values = [tuple(x) if isinstance(x, list) else x for x in data["s"]]
        return BState(cfg, *values)

    # -- declared extras: outcome, statistics, display ---------------------------

    def outcome(self, state: BState) -> dict[str, Any]:
        """How the game ended (or null fields while it is in play)."""
        v = self.view(state)
        return {k: v[k] for k in ("over", "winner", "loser", "shared", "scores")}

    display: tuple[tuple[str, str], ...] = (
        ("scores", "Scores"),
        ("at_table", "At the table"),
        ("round", "Round"),
        ("balls_left", "Balls left"),
        ("turn_score", "This turn"),
        ("required", "Must strike first"),
        ("on_table", "On the table"),
        ("cups_filled", "Cups filled"),
        ("playoff", "Play-off"),
    )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]]
    ) -> dict[str, dict[str, Any]]:
        """Per participant, from the event log: turns played, best turn, average per turn,
        balls sent into cups (holes, pockets, receptacles)."""
        return player_statistics(self, setup, events)


def player_statistics(
    game: RoundOfBalls, setup: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Statistics of every participant, computed by replaying ``events``.

    A turn is counted when it ends (or when the game ends during it); its score is what the
    participant gained in it. ``cups_filled`` counts the balls his strokes sent into cups.
    """
    state = game.initial(setup)
    names = state.cfg.names
    turns = [0] * len(names)
    best: list[int | None] = [None] * len(names)
    total = [0] * len(names)

    def close(s: BState, gained: int) -> None:
        p = s.cfg.seats[s.seat][0]
        turns[p] += 1
        total[p] += gained
        best[p] = gained if best[p] is None else max(best[p], gained)  # type: ignore[type-var]

    for ev in events:
        after = game.apply(state, ev)
        if state.next == BALL and (after.turns != state.turns or after.next != BALL):
            p = state.cfg.seats[state.seat][0]
            close(state, state.turn_score + after.scores[p] - state.scores[p])
        state = after
    return {
        n: {
            "turns": turns[i],
            "best_turn": best[i],
            "average_turn": round(total[i] / turns[i], 2) if turns[i] else None,
            "cups_filled": state.drops[i],
            "score": state.scores[i],
        }
        for i, n in enumerate(names)
    }


class _Options:
    """A stand-in game for :func:`validate_setup` holding only the plain options."""

    fouls: tuple[Foul, ...] = ()
    events: tuple[EventType, ...] = ()

    def __init__(self, options: tuple[Field, ...]) -> None:
        self.options = options


def _with_scores(state: BState, gains: Mapping[int, int]) -> tuple[int, ...]:
    scores = list(state.scores)
    for i, v in gains.items():
        scores[i] += v
    return tuple(scores)


def _place_field(doc: str, required: bool = True) -> Field:
    # `to` is a number or a word: declared as a string field until the core has union types
    return Field("to", "str", doc, required=required)


# --------------------------------------------------------------------- board games


class BoardGame(RoundOfBalls):
    """The bagatelle boards (§2-§4.3): cups with a capacity, special balls that multiply,
    a contact rule per board (``Rules.required_rule``) and what failing it costs
    (``Rules.penalty``).

    ``extra`` holds, for Sans Egal, the sum of the cup numbers of the balls of each colour
    lying in cups (red, white), for the variant's bonus.
    """

    def ball_fields(self) -> tuple[Field, ...]:
        r = self.rules
        kinds = r.kinds
        words = ", ".join(f'"{w}"' for w in r.words)
        where = "hole" if r.numbers == "holes" else "cup"
        fields = [
            _place_field(f"where the played ball came to rest: a {where} number, or {words}"),
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
                        _place_field(f'where it went: a {where} number, "back" or "off"'),
                    ),
                ),
            ),
        ]
        if "nominated" in r.extra_fields:
            fields.append(
                Field(
                    "nominated",
                    "str",
                    'the cup (a number) or side pocket ("left", "right") declared before the '
                    "stroke",
                    required=True,
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
            fields.append(Field("pins", "int", "pins knocked down by the stroke", default=0))
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

    def required(self, state: BState) -> str | None:
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

    def played_kind(self, state: BState) -> str:
        """The kind of ball the seat at the table plays."""
        played = self.rules.played
        return played[state.seat % len(played)]

    def owner(self, state: BState, kind: str) -> int | None:
        """Who a dropping ball of ``kind`` scores for regardless of the striker (Sans Egal's
        colours), or None: the striker."""
        played = self.rules.played
        if len(played) > 1 and kind in played:
            return played.index(kind)
        return None

    def parse(self, state: BState, event: Mapping[str, Any]) -> tuple[Any, Any, bool, list]:
        """Check the common fields: (to, first_hit, cushion, others as (kind, to))."""
        cfg = state.cfg
        if "to" not in event:
            raise InvalidEvent("missing_field", "ball: to is required")
        to = event["to"]
        if not ((type(to) is int and to in cfg.numbers) or (type(to) is str and to in self._words)):
            check_place(to, cfg.numbers, self.rules.words, "to", self._what())
        first = event.get("first_hit")
        if first is not None and not (type(first) is str and first in self._kind_pos):
            check_choice(first, self.rules.kinds, "first_hit")
        cushion = event.get("cushion", False)
        if type(cushion) is not bool:
            cushion = check_bool(event, "cushion")
        raw = event.get("others")
        if not raw:
            if raw is not None and not isinstance(raw, (list, tuple)):
                raise _bad("others must be a list")
            return to, first, cushion, []
        others = []
        other_words = self._other_words
        for i, entry in enumerate(check_list(event, "others")):
            path = f"others[{i}]"
            e = check_entry(entry, path, frozenset(("ball", "to")))
            kind = check_choice(e["ball"], self.rules.kinds, f"{path}.ball")
            if "to" not in e:
                raise InvalidEvent("missing_field", f"{path}.to is required")
            if e["to"] == TABLE:
                raise _bad(f"{path}.to: a ball that stays on the table is not listed")
            others.append((kind, check_place(e["to"], cfg.numbers, other_words, f"{path}.to")))
        return to, first, cushion, others

    def _what(self) -> str:
        return "hole" if self.rules.numbers == "holes" else "cup"

    def check_table(
        self, state: BState, first: str | None, others: list[tuple[str, Any]], to: Any
    ) -> None:
        """``not_on_table``, ``nothing_struck`` and ``cup_full``."""
        pos, table = self._kind_pos, state.table
        if first is not None and not table[pos[first]]:
            raise IllegalEvent("not_on_table", f"first_hit: no {first} ball rests on the table")
        cap = state.cfg.capacity
        if not others:
            if cap is not None and type(to) is int and state.cups[state.cfg.cup_pos[to]] >= cap:
                raise IllegalEvent("cup_full", f"cup {to} already holds {cap} ball(s)")
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
                    raise IllegalEvent("cup_full", f"cup {cup} already holds {cap} ball(s)")

    def value(self, cfg: Cfg, kind: str, place: Any) -> int:
        """What a ball of ``kind`` dropping at ``place`` (a cup, or a side pocket) scores."""
        if type(place) is int:
            return place * cfg.mult.get(kind, 1)
        pockets = cfg.v.get("pockets")
        if isinstance(pockets, Mapping) and place in pockets:
            return int(pockets[place]) * cfg.mult.get(kind, 1)
        return 0

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        to, first, cushion, others = self.parse(state, event)
        r = self.rules
        cfg = state.cfg
        nominated = None
        if self._nominates:
            if "nominated" not in event:
                raise InvalidEvent("missing_field", "ball: nominated is required")
            nominated = check_place(event["nominated"], cfg.numbers, ("left", "right"), "nominated")
        struck = False
        pins = 0
        if self._king:
            if check_bool(event, "king_struck"):
                if not state.table[self._kind_pos["king"]]:
                    raise IllegalEvent("not_on_table", "king_struck: the king is not on the table")
                struck = True
            pins = event.get("pins", 0)
            if pins is None:
                pins = 0
            if not _is_int(pins) or not 0 <= pins <= cfg.v["pins"]:
                raise _bad(f"pins must be a whole number from 0 to {cfg.v['pins']}")
        self.check_table(state, first, others, to)
        req = self.required(state) if r.required_rule else None
        if req is None:
            met = True
        elif req == "king":
            met = struck or first == "king" or any(k == "king" for k, _ in others)
        elif req == "cushion":
            met = cushion
        elif req == "ball":
            met = first is not None
        else:
            met = first == req
        return self.resolve(state, to, first, others, met, nominated, pins)

    def resolve(
        self,
        state: BState,
        to: Any,
        first: str | None,
        others: list[tuple[str, Any]],
        met: bool,
        nominated: Any,
        pins: int,
    ) -> tuple[dict[str, Any], int, bool]:
        """Move the balls and score the stroke (§2 and the game's section): the changes to
        the state, the balls used, and False (the turn goes on)."""
        r, cfg = self.rules, state.cfg
        pos = self._kind_pos
        p = cfg.seats[state.seat][0]
        table = list(state.table)
        cups = list(state.cups)
        gains = [0] * len(state.scores)
        drops = 0
        played = self.played_kind(state)
        penalty = None if met else r.penalty
        respot = r.respot
        colours = self._colours  # Sans Egal: balls score for their owner
        # Sans Egal: the sums of the cup numbers of each colour's balls lying in cups
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
            if penalty is None:
                if nominated is None or to == nominated:
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
            if black_in is not None and r.required_rule == "every" and type(black_in) is int:
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
            d = state.drops
            changes["drops"] = (*d[:p], d[p] + drops, *d[p + 1 :])
        return changes, 2 if penalty == "forfeit" else 1, False

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        table, cups, _ = super().fresh_table(cfg)
        extra = (0,) * len(self.rules.kinds) if len(self.rules.played) > 1 else ()
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

    def more_events(self) -> tuple[EventType, ...]:
        return (
            EventType(
                "respot_red",
                "the player takes the red out of its hole and spots it again (rule 5): two or "
                "more balls lie in holes, the red among them, and none on the table",
            ),
        )

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        table, cups, _ = super().fresh_table(cfg)
        return table, cups, (0,)

    def can_respot(self, state: BState) -> bool:
        """Whether ``respot_red`` is allowed now."""
        return (
            state.next == BALL
            and state.extra[0] != 0
            and sum(state.cups) >= 2
            and not any(state.table)
            and state.left[state.seat] > 0
        )

    def other_event(self, state: BState, event: Mapping[str, Any]) -> BState:
        check_fields(event, "respot_red", frozenset(("type",)))
        if not self.can_respot(state):
            raise IllegalEvent(
                "cannot_respot",
                "the red may be respotted only from a hole, with two or more balls in holes "
                "and none on the table",
            )
        cups = list(state.cups)
        cups[state.cfg.cup_pos[state.extra[0]]] -= 1
        table = list(state.table)
        table[self._kind_pos["red"]] = 1
        return state._replace(
            cups=tuple(cups), table=tuple(table), extra=(0,), events=state.events + 1
        )

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        fouls = check_list(event, "fouls")
        for i, code in enumerate(fouls):
            if code != "deliberate_off":
                # the page (1.5) answers bad_value for an unknown foul code
                raise _bad(f"fouls[{i}]: no foul code {code!r}")
        to, first, _, others = self.parse(state, event)
        self.check_table(state, first, others, to)
        if fouls:
            if to != OFF and not any(t == OFF for _, t in others):
                raise IllegalEvent("no_ball_off", "deliberate_off: no ball of this stroke went off")
            return {}, -1, True
        changes, used, end = self.resolve(state, to, first, others, True, None, 0)
        red_cup = state.extra[0]
        for kind, place in others:
            if kind == "red" and _is_int(place):
                red_cup = place
        changes["extra"] = (red_cup,)
        return changes, used, end

    def advance(self, state: BState, changes: dict[str, Any], used: int, turn_over: bool) -> BState:
        if used == -1:  # deliberate_off: the stroke is void and the player is out
            p = state.cfg.seats[state.seat][0]
            return self.put_out(state._replace(events=state.events + 1, turn_score=0), p)
        return super().advance(state, changes, used, turn_over)

    def extra_view(self, state: BState) -> dict[str, Any]:
        names = state.cfg.names
        return {
            "can_respot": self.can_respot(state),
            "out": [names[i] for i in state.out],
        }

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

    def ball_fields(self) -> tuple[Field, ...]:
        arch = Field("arch", "int", "the arch the ball passed completely through")
        return (
            _place_field(
                'where the played ball came to rest: a cup number (only with arch), "table", '
                '"back" or "off"; may be left out when arch is given',
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
                    "one ball moved",
                    fields=(
                        Field("ball", "str", "its kind", required=True, choices=("white",)),
                        arch,
                        _place_field('a cup (with arch), "back" or "off"', required=False),
                    ),
                ),
            ),
        )

    def _route(self, cfg: Cfg, obj: Mapping[str, Any], path: str, words: tuple[str, ...]) -> Any:
        arch = obj.get("arch")
        if arch is not None:
            if not _is_int(arch) or arch not in cfg.arches:
                raise _bad(f"{path}arch must be an arch of the board, not {json.dumps(arch)}")
            to = obj.get("to")
            if to is not None:
                check_place(to, cfg.numbers, (), f"{path}to")
            return (arch, to)
        if "to" not in obj:
            raise InvalidEvent("missing_field", f"{path}to is required (or arch)")
        to = obj["to"]
        if _is_int(to) and to in cfg.numbers:
            raise _bad(f"{path}to: the cups lie behind the arches: give the arch")
        return (None, check_place(to, frozenset(), words, f"{path}to"))

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        cfg = state.cfg
        arch, to = self._route(cfg, event, "", (TABLE, BACK, OFF))
        first = event.get("first_hit")
        if first is not None:
            check_choice(first, ("white",), "first_hit")
        cushion = check_bool(event, "cushion")
        others = []
        for i, entry in enumerate(check_list(event, "others")):
            e = check_entry(entry, f"others[{i}]", frozenset(("ball", "to", "arch")))
            check_choice(e["ball"], ("white",), f"others[{i}].ball")
            others.append(self._route(cfg, e, f"others[{i}].", (BACK, OFF)))
        self.check_table(state, first, [("white", t) for _, t in others], to)
        mississippi = self.rules.required_rule == "cushion"
        p = cfg.seats[state.seat][0]
        bonus = cfg.v["cup_bonus"]
        gains: dict[int, int] = {}
        table = state.table[0]
        cups = list(state.cups)
        drops = 0

        def worth(a: int, cup: Any) -> int:
            return a + (cup if bonus and _is_int(cup) else 0)

        if arch is not None:
            v = worth(arch, to)
            if mississippi and not cushion:
                for i in state.playoff or self._in_play(state):
                    if i != p:
                        gains[i] = gains.get(i, 0) + v
            else:
                gains[p] = v
            if _is_int(to):
                cups[cfg.cup_pos[to]] += 1
                drops += 1
        elif to == TABLE and (cushion or not mississippi):
            table += 1
        for a, t in others:
            table -= 1
            if a is not None:
                gains[p] = gains.get(p, 0) + worth(a, t)
                if _is_int(t):
                    cups[cfg.cup_pos[t]] += 1
                    drops += 1
        drops_t = state.drops
        if drops:
            drops_t = (*drops_t[:p], drops_t[p] + drops, *drops_t[p + 1 :])
        changes = {"table": (table,), "cups": tuple(cups), "drops": drops_t}
        if gains:
            changes["scores"] = _with_scores(state, gains)
        return changes, 1, False

    def required(self, state: BState) -> str | None:
        return "cushion" if self.rules.required_rule == "cushion" else None


# --------------------------------------------------------------------------- Parepa

_PAREPA_BALLS = ("white", 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)


class Parepa(RoundOfBalls):
    """Parepa (§5.1): eleven balls; a player goes on while he counts. ``table`` and
    ``extra`` are, per ball (white, 10 ... 100), 1 when it rests on the table / lies in a
    pocket. ``flag`` is true once the turn's first shot (with the white) is played."""

    def ball_fields(self) -> tuple[Field, ...]:
        return (
            Field("cue", "str", '"white" or the number of the ball played', required=True),
            _place_field('where the cue ball ended: a pocket number or "table"'),
            Field(
                "first_hit",
                "str",
                'the ball the cue ball touched first ("white" or a number); null when none',
            ),
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
                        Field("ball", "str", '"white" or a number', required=True),
                        _place_field("the pocket"),
                    ),
                ),
            ),
        )

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (1,) * 11, (), (0,) * 11

    def cue_choices(self, state: BState) -> list[Any]:
        """The balls the player may play now."""
        if not state.flag:
            return ["white"]
        return [b for b, k in zip(_PAREPA_BALLS, state.extra, strict=True) if k]

    def _ball(self, value: Any, path: str) -> int:
        return _PAREPA_BALLS.index(check_choice(value, _PAREPA_BALLS, path))

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        cfg = state.cfg
        if "cue" not in event:
            raise InvalidEvent("missing_field", "ball: cue is required")
        if "to" not in event:
            raise InvalidEvent("missing_field", "ball: to is required")
        cue = self._ball(event["cue"], "cue")
        to = check_place(event["to"], cfg.numbers, (TABLE,), "to", "pocket")
        first = event.get("first_hit")
        first_i = None if first is None else self._ball(first, "first_hit")
        others: list[tuple[int, int]] = []
        for i, entry in enumerate(check_list(event, "others")):
            e = check_entry(entry, f"others[{i}]", frozenset(("ball", "to")))
            b = self._ball(e["ball"], f"others[{i}].ball")
            if "to" not in e:
                raise InvalidEvent("missing_field", f"others[{i}].to is required")
            pocket = check_place(e["to"], cfg.numbers, (), f"others[{i}].to", "pocket")
            if any(b == o for o, _ in others):
                raise _bad(f"others[{i}]: the ball {e['ball']} is listed twice")
            others.append((b, int(pocket)))
        if _PAREPA_BALLS[cue] not in self.cue_choices(state):
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
        cue_counts = _is_int(to) and first_i is not None and first_i != 0
        counts = bool(numbered) or cue_counts
        points = 0
        if counts:
            points = sum(_PAREPA_BALLS[b] + pk for b, pk in numbered)  # type: ignore[operator]
            if cue_counts:
                points += (0 if cue == 0 else _PAREPA_BALLS[cue]) + to  # type: ignore[operator]
        for b, _ in others:
            table[b], pocketed[b] = 0, 1
        if _is_int(to):
            table[cue], pocketed[cue] = 0, 1
        p = cfg.seats[state.seat][0]
        drops = len(others) + (1 if _is_int(to) else 0)
        drops_t = state.drops
        if drops:
            drops_t = (*drops_t[:p], drops_t[p] + drops, *drops_t[p + 1 :])
        changes: dict[str, Any] = {
            "scores": _with_scores(state, {p: points}),
            "table": tuple(table),
            "extra": tuple(pocketed),
            "flag": True,
            "drops": drops_t,
        }
        if not counts:
            changes["flag"] = False
            return changes, 0, True
        if not any(table[1:]):  # no numbered ball left: set up again for the next player
            changes.update(table=(1,) * 11, extra=(0,) * 11, flag=False)
            return changes, 0, True
        return changes, 0, False

    def turn_changes(self, state: BState, seat: int) -> dict[str, Any]:
        return {"seat": seat, "turn_score": 0, "turns": state.turns + 1, "flag": False}

    def on_table(self, state: BState) -> dict[str, int]:
        return {str(b): 1 for b, k in zip(_PAREPA_BALLS, state.table, strict=True) if k}

    def extra_view(self, state: BState) -> dict[str, Any]:
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
    ball (numbers score themselves when ``numbered``); ``idle`` the word for a shot that
    is not a shot; ``idle_limit`` the attempts in a row after which one counts as a shot
    worth 0 (Klondike's three); ``other`` the one struck ball's kind and its values."""

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

    def __init__(self, rules: Rules, places: Places) -> None:
        self.places = places
        self._values = dict(places.values)
        self._other_values = dict(places.other_values)
        super().__init__(rules)

    def ball_fields(self) -> tuple[Field, ...]:
        pl = self.places
        words = ", ".join(f'"{w}"' for w in (*self._values, *([pl.idle] if pl.idle else [])))
        num = f"a {pl.numbered} value or " if pl.numbered else ""
        fields = [_place_field(f"where the ball stopped: {num}{words}")]
        if pl.other:
            fields.append(
                Field(
                    "others",
                    "list",
                    f"at most one: the {pl.other} ball the played ball sent somewhere that scores",
                    default=(),
                    item=Field(
                        "other",
                        "object",
                        f"the {pl.other} ball",
                        fields=(
                            Field("ball", "str", "its kind", required=True, choices=(pl.other,)),
                            _place_field("where it stopped"),
                        ),
                    ),
                )
            )
        return tuple(fields)

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (), (), (0,)

    def turn_extra(self, state: BState) -> tuple[int, ...] | None:
        return (0,)

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        pl, cfg = self.places, state.cfg
        if "to" not in event:
            raise InvalidEvent("missing_field", "ball: to is required")
        words = (*self._values, *([pl.idle] if pl.idle else []))
        what = pl.numbered or "place"
        to = check_place(event["to"], cfg.numbers, words, "to", what)
        others: list[tuple[str, Any]] = []
        raw = check_list(event, "others")
        if raw and pl.other is None:
            raise InvalidEvent("unknown_field", "ball: unknown field 'others'")
        other_words = tuple(self._other_values)
        for i, entry in enumerate(raw):
            e = check_entry(entry, f"others[{i}]", frozenset(("ball", "to")))
            check_choice(e["ball"], (pl.other,), f"others[{i}].ball")
            if "to" not in e:
                raise InvalidEvent("missing_field", f"others[{i}].to is required")
            others.append(
                (
                    e["ball"],
                    check_place(
                        e["to"],
                        cfg.numbers if pl.numbered else frozenset(),
                        other_words,
                        f"others[{i}].to",
                        what,
                    ),
                )
            )
        if len(others) > 1:
            raise IllegalEvent("not_on_table", f"others: there is only one {pl.other} ball")
        p = cfg.seats[state.seat][0]
        if to == pl.idle:
            if others:
                raise IllegalEvent("nothing_struck", f'others: a "{pl.idle}" ball struck nothing')
            tries = state.extra[0] + 1
            if pl.idle_limit is not None and tries >= pl.idle_limit:
                return {"extra": (0,)}, 1, False
            return {"extra": (tries,)}, 0, False
        points = to if _is_int(to) else self._values[to]
        for _, place in others:
            points += place if _is_int(place) else self._other_values[place]
        drops = int(_is_int(to)) + sum(1 for _, t in others if _is_int(t))
        drops_t = state.drops
        if drops:
            drops_t = (*drops_t[:p], drops_t[p] + drops, *drops_t[p + 1 :])
        return (
            {"scores": _with_scores(state, {p: int(points)}), "extra": (0,), "drops": drops_t},
            1,
            False,
        )

    def extra_view(self, state: BState) -> dict[str, Any]:
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
                item=Field("pins", "int", "how many fell"),
            ),
        )

    def ball_doc(self) -> str:
        return "one spin of the top"

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (), (), ()

    def check_setup(self, values: dict[str, Any], n: int) -> None:
        super().check_setup(values, n)
        for key, count in values["pin_counts"].items():
            if not key.isdigit() or int(key) < 1 or count < 0:
                raise InvalidEvent("bad_setup", "pin_counts: value (a string) -> pins", -1)

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        if "pins" not in event:
            raise InvalidEvent("missing_field", "ball: pins is required")
        pins = event["pins"]
        if not isinstance(pins, Mapping):
            raise _bad("pins must be an object")
        counts = state.cfg.v["pin_counts"]
        points = 0
        for key, down in pins.items():
            if key == "black":
                most = 1
                worth = state.cfg.v["black_pin"]
            elif key in counts:
                most = counts[key]
                worth = int(key)
            else:
                raise _bad(f"pins.{key}: no such compartment")
            if not _is_int(down) or not 0 <= down <= most:
                raise _bad(f"pins.{key} must be a whole number from 0 to {most}")
            points += down * worth
        p = state.cfg.seats[state.seat][0]
        return {"scores": _with_scores(state, {p: points})}, 1, False


# -------------------------------------------------------------------- shuffle-board

_ZONES = (1, 2, 3, "hanger")


class ShuffleBoard(RoundOfBalls):
    """Shuffle-board (§5.6): a roll is four weights each, alternately, then the count.
    ``table`` is the weights each player has on the board."""

    def ball_doc(self) -> str:
        return "one weight rolled"

    def ball_fields(self) -> tuple[Field, ...]:
        return (
            Field("to", "str", '"board" (it lies on the board) or "out"', choices=("board", "out")),
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
                        Field("ball", "str", "the player whose weight it is", required=True),
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
                Field("player", "str", "whose weight", required=True),
                Field("zone", "str", '1, 2, 3 or "hanger"', required=True),
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

    def fresh_table(self, cfg: Cfg) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return (0,) * len(cfg.names), (), ()

    def on_table(self, state: BState) -> dict[str, int]:
        return {n: k for n, k in zip(state.cfg.names, state.table, strict=True) if k}

    def play(self, state: BState, event: Mapping[str, Any]) -> tuple[dict[str, Any], int, bool]:
        names = state.cfg.names
        to = event.get("to", "board")
        to = "board" if to is None else check_choice(to, ("board", "out"), "to")
        table = list(state.table)
        knocked = []
        for i, entry in enumerate(check_list(event, "others")):
            e = check_entry(entry, f"others[{i}]", frozenset(("ball", "to")))
            who = check_choice(e["ball"], names, f"others[{i}].ball")
            if "to" not in e:
                raise InvalidEvent("missing_field", f"others[{i}].to is required")
            check_choice(e["to"], ("out",), f"others[{i}].to")
            knocked.append(names.index(who))
        if knocked and to == "out":
            raise IllegalEvent(
                "nothing_struck",
                "others: a weight that went out knocks nothing out (disturbed weights are put back)",
            )
        for who in knocked:
            table[who] -= 1
            if table[who] < 0:
                raise IllegalEvent(
                    "not_on_table", f"others: {names[who]} has no more weights on the board"
                )
        p = state.cfg.seats[state.seat][0]
        if to == "board":
            table[p] += 1
        return {"table": tuple(table)}, 1, False

    def other_event(self, state: BState, event: Mapping[str, Any]) -> BState:
        check_fields(event, COUNT, frozenset(("type", "weights")))
        if "weights" not in event:
            raise InvalidEvent("missing_field", "count: weights is required")
        weights = self._weights(state, event["weights"])
        if state.next != COUNT:
            raise IllegalEvent("no_count_due", "no roll is waiting to be counted")
        scorer, points = self.score_count(state, weights)
        scores = state.scores
        if points:
            scores = _with_scores(state, {scorer: points})
        after = state._replace(scores=scores, events=state.events + 1)
        if scores[scorer] >= state.cfg.target and points:
            return self._finish(after, scorer, None)
        return self._new_round(after, self._in_play(after), state.round + 1)

    def _weights(self, state: BState, raw: Any) -> list[tuple[int, Any, Any, bool]]:
        names = state.cfg.names
        if not isinstance(raw, (list, tuple)):
            raise _bad("weights must be a list")
        out = []
        for i, entry in enumerate(raw):
            path = f"weights[{i}]"
            if not isinstance(entry, Mapping):
                raise _bad(f"{path} must be an object")
            for key in entry:
                if key not in ("player", "zone", "flip", "level"):
                    raise InvalidEvent("unknown_field", f"{path}: unknown field {key!r}")
            for key in ("player", "zone"):
                if key not in entry:
                    raise InvalidEvent("missing_field", f"{path}.{key} is required")
            who = names.index(check_choice(entry["player"], names, f"{path}.player"))
            zone = check_choice(entry["zone"], _ZONES, f"{path}.zone")
            flip = entry.get("flip")
            if flip is not None:
                check_choice(flip, ("made", "failed"), f"{path}.flip")
                if zone != "hanger":
                    raise _bad(f"{path}.flip: only a hanger is flipped")
            level = check_bool(entry, "level") if "level" in entry else False
            out.append((who, zone, flip, level))
        return out

    def score_count(
        self, state: BState, weights: list[tuple[int, Any, Any, bool]]
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
        live = [(w, z, f) for w, z, f, lv in weights if f != "failed"]
        levels = [lv for w, z, f, lv in weights if f != "failed"]
        if not live:
            return 0, 0
        groups: list[list[tuple[int, Any, Any]]] = []
        for (w, z, f), lv in zip(live, levels, strict=True):
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


VICTORIAN = Rules(
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

SANS_EGAL = Rules(
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

SANS_EGAL_VARIANT = Rules(
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

NORTHERN = Rules(
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

SOUTHERN = Rules(
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

MISSISSIPPI = Rules(
    id="mississippi",
    name="Mississippi (arches, cushion first)",
    source="The Rules of Bagatelle, lines 37-43 and 46-47",
    balls=9,
    end="target_rounds",
    defaults=_ARCH_DEFAULTS,
    kinds=("white",),
    required_rule="cushion",
)

LA_TROU_MADAME = Rules(
    id="la_trou_madame",
    name="La Trou Madame (arches)",
    source="The Rules of Bagatelle, lines 44-47",
    balls=9,
    end="target_rounds",
    aliases=("trou_madame",),
    defaults=_ARCH_DEFAULTS,
    kinds=("white",),
)

BAGATELLE_1908 = Rules(
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

ENGLISH = Rules(
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

CAROMBOLETTE = Rules(
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

PIGEON_HOLE = Rules(
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

PAREPA = Rules(
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

KLONDIKE = Rules(
    id="klondike",
    name="Klondike",
    source="Modern Billiards (1908), lines 2022-2035",
    balls=6,
    end="rounds",
    defaults=(_TIES,),
    numbers="",
    fixed_rounds=1,
)

DEVIL = Rules(
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

MONTE_CARLO = Rules(
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

HIGH_NUMBER_POOL = Rules(
    id="high_number_pool",
    name="High number pool (Parisian board)",
    source="Modern Billiards (1908), lines 1867-1873",
    balls=1,
    end="rounds",
    defaults=(("cups", tuple(range(1, 13))), _TIES),
    fixed_rounds=1,
)

LA_BARRAQUE = Rules(
    id="parisian_pool_la_barraque",
    name="Parisian pool (La Barraque)",
    source="Modern Billiards (1908), lines 1875-1887",
    balls=1,
    end="target_now",
    aliases=("la_barraque", "parisian_pool"),
    lowest_loses=True,
    defaults=(("target", 200), ("cups", tuple(range(1, 13))), _TIES),
)

SHUFFLE = Rules(
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


class _MonteCarlo(ReceptacleGame):
    """Monte Carlo: ``alternate`` decides whether a turn is four shots or one."""

    def __init__(self) -> None:
        super().__init__(
            MONTE_CARLO,
            Places(
                values=((BACK, 0),),
                numbered="receptacle",
                idle="short",
                other="object",
            ),
        )

    def turn_changes(self, state: BState, seat: int) -> dict[str, Any]:
        changes = super().turn_changes(state, seat)
        changes["turn_left"] = 1 if state.cfg.v["alternate"] else 4
        return changes

    def _new_round(self, state: BState, group: tuple[int, ...], number: int) -> BState:
        state = super()._new_round(state, group, number)
        return state._replace(turn_left=1 if state.cfg.v["alternate"] else 4)


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
    _MonteCarlo(),
    ReceptacleGame(HIGH_NUMBER_POOL, _PARISIAN),
    ReceptacleGame(LA_BARRAQUE, _PARISIAN),
    ShuffleBoard(SHUFFLE),
)

for _game in GAMES:
    register(_game)


# ---------------------------------------------------------------- random play


def _free_cups(state: BState) -> list[int]:
    cap = state.cfg.capacity
    return [c for c, k in zip(state.cfg.cups, state.cups, strict=False) if cap is None or k < cap]


def _board_ball(game: BoardGame, state: BState, rng: Any) -> dict[str, Any]:
    """A plausible legal ``ball`` for a board game."""
    cfg, rules = state.cfg, game.rules
    kinds = [k for k, c in zip(rules.kinds, state.table, strict=True) for _ in range(c)]
    free = _free_cups(state)
    rng.shuffle(free)
    req = game.required(state)
    ev: dict[str, Any] = {"type": BALL}
    first: str | None = None
    if kinds and rng.random() < 0.85:
        if req in rules.kinds and req in kinds:
            first = req
        else:
            first = rng.choice(kinds)
    if first is not None:
        ev["first_hit"] = first
    if req == "cushion" or rng.random() < 0.3:
        ev["cushion"] = req == "cushion" and rng.random() < 0.9 or rng.random() < 0.5
    others = []
    if first is not None:
        pool = list(kinds)
        pool.remove(first)
        rng.shuffle(pool)
        for kind in [first, *pool][: rng.choice((0, 0, 1, 1, 2))]:
            r = rng.random()
            if r < 0.7 and free:
                others.append({"ball": kind, "to": free.pop()})
            else:
                others.append(
                    {"ball": kind, "to": rng.choice([w for w in rules.words if w != TABLE])}
                )
    if others:
        ev["others"] = others
    r = rng.random()
    if r < 0.55 and free:
        ev["to"] = free.pop()
    elif r < 0.62 and "left" in rules.words:
        ev["to"] = rng.choice(("left", "right"))
    else:
        ev["to"] = rng.choice(rules.words)
    if "nominated" in rules.extra_fields:
        ev["nominated"] = (
            ev["to"]
            if rng.random() < 0.5 and ev["to"] not in (TABLE, BACK, OFF)
            else rng.choice(cfg.cups)
        )
    if "king_struck" in rules.extra_fields:
        if cfg.v["pins"]:
            ev["pins"] = rng.randint(0, cfg.v["pins"])
        if "king" in kinds and rng.random() < 0.05:
            ev["king_struck"] = True
    return ev


def random_event(game: RoundOfBalls, state: BState, rng: Any) -> dict[str, Any]:
    """A plausible legal next event for ``state`` (the family's random referee)."""
    cfg = state.cfg
    if isinstance(game, ShuffleBoard):
        if state.next == COUNT:
            weights = []
            for who, k in enumerate(state.table):
                weights += [who] * rng.randint(0, k)
            rng.shuffle(weights)
            zones = sorted(
                (rng.choice(_ZONES[:3] + ("hanger",) * (rng.random() < 0.2)) for _ in weights),
                key=lambda z: 4 if z == "hanger" else z,
                reverse=True,
            )
            out = [{"player": cfg.names[w], "zone": z} for w, z in zip(weights, zones, strict=True)]
            for i in range(1, len(out)):
                if out[i]["zone"] == out[i - 1]["zone"] and rng.random() < 0.2:
                    out[i]["level"] = True
            if out and out[0]["zone"] == "hanger" and not (len(out) > 1 and out[1].get("level")):
                if rng.random() < 0.5:
                    out[0]["flip"] = rng.choice(("made", "failed"))
            return {"type": COUNT, "weights": out}
        ev: dict[str, Any] = {"type": BALL}
        if rng.random() < 0.2:
            ev["to"] = "out"
        elif rng.random() < 0.2:
            victims = [w for w, k in enumerate(state.table) if k]
            if victims:
                ev["others"] = [{"ball": cfg.names[rng.choice(victims)], "to": "out"}]
        return ev
    if isinstance(game, Devil):
        counts = cfg.v["pin_counts"]
        return {
            "type": BALL,
            "pins": {
                **{k: rng.randint(0, n) for k, n in counts.items()},
                "black": rng.randint(0, 1),
            },
        }
    if isinstance(game, ReceptacleGame):
        pl = game.places
        places: list[Any] = [*cfg.cups, *game._values]
        if pl.idle and rng.random() < 0.1:
            return {"type": BALL, "to": pl.idle}
        ev = {"type": BALL, "to": rng.choice(places)}
        if pl.other and rng.random() < 0.3:
            ev["others"] = [{"ball": pl.other, "to": rng.choice([*cfg.cups, *game._other_values])}]
        return ev
    if isinstance(game, Parepa):
        cue = rng.choice(game.cue_choices(state))
        cue_i = _PAREPA_BALLS.index(cue)
        on = [b for i, b in enumerate(_PAREPA_BALLS) if (state.table[i] and i != cue_i)]
        ev = {"type": BALL, "cue": cue, "to": rng.choice([*cfg.cups, TABLE, TABLE, TABLE])}
        if on and rng.random() < 0.8:
            ev["first_hit"] = rng.choice(on)
            rng.shuffle(on)
            k = rng.choice((0, 1, 1, 2))
            if k:
                ev["others"] = [{"ball": b, "to": rng.choice(cfg.cups)} for b in on[:k]]
        return ev
    if isinstance(game, ArchGame):
        arches = sorted(cfg.arches)
        free = _free_cups(state)
        rng.shuffle(free)
        ev = {"type": BALL, "cushion": rng.random() < 0.8}
        if rng.random() < 0.5:
            ev["arch"] = rng.choice(arches)
            if free and rng.random() < 0.4:
                ev["to"] = free.pop()
        else:
            ev["to"] = rng.choice((TABLE, TABLE, BACK, OFF))
        if state.table[0] and rng.random() < 0.6:
            ev["first_hit"] = "white"
            if rng.random() < 0.5:
                o: dict[str, Any] = {"ball": "white", "arch": rng.choice(arches)}
                if free and rng.random() < 0.3:
                    o["to"] = free.pop()
                ev["others"] = [o]
        return ev
    if isinstance(game, PigeonHole):
        if game.can_respot(state) and rng.random() < 0.5:
            return {"type": "respot_red"}
        ev = _board_ball(game, state, rng)
        if ev["to"] == BACK:
            ev["to"] = OFF
        for o in ev.get("others", ()):
            if o["to"] == BACK:
                o["to"] = OFF
        if rng.random() < 0.01 and (
            ev["to"] == OFF or any(o["to"] == OFF for o in ev.get("others", ()))
        ):
            ev["fouls"] = ["deliberate_off"]
        return ev
    assert isinstance(game, BoardGame)
    return _board_ball(game, state, rng)


def simulate(
    game: RoundOfBalls, rng: Any, length: int, setup: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded plausible legal game: (setup, events), at most ``length`` events. Unless a
    setup is given, the target (or the number of rounds) is set so that the game lasts
    about ``length`` events where the game allows it.

    >>> import random
    >>> from rules import get, replay
    >>> g = get("victorian_bagatelle")
    >>> setup, events = simulate(g, random.Random(1), 50)
    >>> replay(g, setup, events).events == len(events) <= 50
    True
    """
    if setup is None:
        setup = {}
        names = dict(game.rules.defaults)
        turns = max(1, length // max(1, game.rules.balls or 4) // 2)
        if "rounds" in names:
            setup["rounds"] = turns
            if "target" in names:
                setup["target"] = None
        elif "target" in names:
            setup["target"] = length * 20
    from rules.core import RuleError, Timeline

    t = Timeline(game, setup)
    events: list[dict[str, Any]] = []
    misses = 0
    while len(events) < length and not t.state.over and misses < 1000:
        ev = random_event(game, t.state, rng)
        try:
            t.push(ev)
        except RuleError:
            misses += 1
            continue
        events.append(ev)
    return dict(setup), events
