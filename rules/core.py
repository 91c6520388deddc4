"""The game base: :class:`Game`, its typed :class:`Outcome`, the declared player statistics
(:class:`Stat`), :func:`replay` and :class:`Timeline`.

A game module declares its setup options, its event vocabulary and its fouls
(:mod:`rules.vocabulary`), subclasses :class:`Game`, and registers an instance with
:func:`rules.registry.register`. :func:`replay` folds a list of events over a game's
initial state; :class:`Timeline` does the same one event at a time with O(1) undo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from random import Random
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from rules.layout import TableMap, pocket_map
from rules.seating import SEATING_CHOICES, Participants, Seating, setup_for
from rules.validate import validate_event
from rules.vocabulary import EventType, Field, Foul, InvalidEvent, RuleError, field_as_dict

__all__ = [
    "STAT_AGGS",
    "Game",
    "Outcome",
    "RuleChange",
    "Stat",
    "Timeline",
    "aggregate",
    "replay",
    "set_lookup",
]

# -------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """The result of a game, typed (modelled on python-chess's ``Outcome``): the only
    thing a caller needs to read a result.

    ``over``: the game has ended. ``winner``: the winning party, or None (not over, shared,
    or no single winner). ``loser``: the losing party where the game names one (two-party
    games: the other party; games where the lowest loses), else None. ``shared``: the game
    ended level. ``scores``: party -> number (may be negative or fractional).

    >>> o = Outcome(True, "home", "away", False, {"home": 320, "away": 150})
    >>> o.result("home"), o.result("away"), o.as_dict()["scores"]
    ('win', 'loss', {'home': 320, 'away': 150})
    """

    over: bool
    winner: str | None = None
    loser: str | None = None
    shared: bool = False
    scores: Mapping[str, float] = dataclass_field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))

    def __hash__(self) -> int:
        return hash((self.over, self.winner, self.loser, self.shared, tuple(self.scores.items())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.over, self.winner, self.loser, self.shared, dict(self.scores)) == (
            other.over,
            other.winner,
            other.loser,
            other.shared,
            dict(other.scores),
        )

    def result(self, party: str) -> str | None:
        """``"win"``, ``"loss"``, ``"shared"`` or ``"none"`` (over, neither won nor lost)
        for ``party``; None while the game runs."""
        if not self.over:
            return None
        if self.shared:
            return "shared"
        if party == self.winner:
            return "win"
        if party == self.loser or (self.winner is not None and self.loser is None):
            return "loss"
        return "none"

    def as_dict(self) -> dict[str, Any]:
        """The outcome as JSON."""
        return {
            "over": self.over,
            "winner": self.winner,
            "loser": self.loser,
            "shared": self.shared,
            "scores": dict(self.scores),
        }


# ----------------------------------------------------------------------- statistics

#: The aggregations a :class:`Stat` may declare.
STAT_AGGS: tuple[str, ...] = ("sum", "max", "min", "count", "ratio")


@dataclass(frozen=True)
class Stat:
    """A player statistic a game computes from the event log
    (:meth:`Game.player_statistics`), with how a league aggregates it over games:

    * ``sum``: the total of the per-game values;
    * ``max`` / ``min``: the highest / lowest per-game value;
    * ``count``: the number of games in which the value was non-zero;
    * ``ratio``: the sum of the ``numerator`` stat over the games divided by the sum of
      the ``denominator`` stat (both named stats of the same game); never the mean of
      per-game ratios. Its per-game value is that game's ratio (0 when the denominator
      is 0).

    >>> Stat("average", "Average", "ratio", "points an inning", "points", "innings").as_dict()["agg"]
    'ratio'
    """

    name: str
    label: str
    agg: str
    doc: str
    numerator: str | None = None
    denominator: str | None = None

    def __post_init__(self) -> None:
        if self.agg not in STAT_AGGS:
            raise ValueError(f"stat {self.name!r}: unknown agg {self.agg!r}")
        if (self.agg == "ratio") != (self.numerator is not None and self.denominator is not None):
            raise ValueError(f"stat {self.name!r}: a ratio names its numerator and denominator")

    def as_dict(self) -> dict[str, Any]:
        """This stat as JSON."""
        return {
            "name": self.name,
            "label": self.label,
            "agg": self.agg,
            "doc": self.doc,
            "numerator": self.numerator,
            "denominator": self.denominator,
        }


def aggregate(stats: Sequence[Stat], lines: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """One player's per-game stat lines aggregated as each :class:`Stat` declares.

    >>> stats = (Stat("pts", "Points", "sum", ""), Stat("inn", "Innings", "sum", ""),
    ...          Stat("avg", "Average", "ratio", "", "pts", "inn"),
    ...          Stat("hi", "High run", "max", ""), Stat("won", "Games with a run", "count", ""))
    >>> aggregate(stats, [{"pts": 10, "inn": 4, "hi": 3, "won": 1},
    ...                   {"pts": 5, "inn": 6, "hi": 5, "won": 0}])
    {'pts': 15, 'inn': 10, 'avg': 1.5, 'hi': 5, 'won': 1}
    """
    rows = list(lines)
    out: dict[str, float] = {}
    for st in stats:
        values = [row.get(st.name, 0) for row in rows]
        if st.agg == "sum":
            out[st.name] = sum(values)
        elif st.agg == "max":
            out[st.name] = max(values, default=0)
        elif st.agg == "min":
            out[st.name] = min(values, default=0)
        elif st.agg == "count":
            out[st.name] = sum(1 for v in values if v)
    for st in stats:
        if st.agg == "ratio":
            assert st.numerator is not None and st.denominator is not None
            num = sum(row.get(st.numerator, 0) for row in rows)
            den = sum(row.get(st.denominator, 0) for row in rows)
            out[st.name] = num / den if den else 0
    return {st.name: out[st.name] for st in stats}


# ------------------------------------------------------------------------- versions


@dataclass(frozen=True)
class RuleChange:
    """One line of a game's changelog: the rules ``version`` it starts, what changed (``change``)
    in a referee's words, and the rule text it comes from (``source``: the book and its
    rule, or the league's AGM minute).

    >>> RuleChange(2, "the white cut-off is 300 points", "Norwich AGM 2026, rule 2i").as_dict()
    {'version': 2, 'change': 'the white cut-off is 300 points', 'source': 'Norwich AGM 2026, rule 2i'}
    """

    version: int
    change: str
    source: str = ""

    def __post_init__(self) -> None:
        if self.version < 2:
            raise ValueError("a change starts a version after the first (2 or more)")

    def as_dict(self) -> dict[str, Any]:
        """This line as JSON."""
        return {"version": self.version, "change": self.change, "source": self.source}


# ----------------------------------------------------------------------------- game

S = TypeVar("S")


class Game(Generic[S]):
    """Base class of a game. Subclasses set the class attributes and implement
    :meth:`initial`, :meth:`apply`, :meth:`view`, :meth:`dump` and :meth:`load`.

    ``apply`` is pure: it returns a new state and never mutates the one it is given.
    It raises :class:`RuleError` with index None; :func:`replay` and :class:`Timeline`
    fill the index in.
    """

    id: str = ""
    name: str = ""
    aliases: tuple[str, ...] = ()
    family: str = ""
    players: str = ""
    options: tuple[Field, ...] = ()
    events: tuple[EventType, ...] = ()
    fouls: tuple[Foul, ...] = ()
    state_doc: dict[str, str] = {}  # read-only by convention
    #: how the game is seated (describe()["participants"], setup_for, the seating)
    participants: Participants = Participants()
    #: the player statistics player_statistics computes
    statistics: tuple[Stat, ...] = ()
    #: (state key, label): what a scoring pad shows, in order
    display: tuple[tuple[str, str], ...] = ()
    #: what a scoring pad calls the game once it is over (describe()["pad"]["over"])
    over_label: str = "Game over"
    #: a scoring pad's words and layout, never rules (describe()["pad"]; rules/README.md)
    pad_hints: Mapping[str, Any] = {}
    #: choice set -> its doc, for the sets beyond SEATING_CHOICES the game resolves
    choice_set_doc: dict[str, str] = {}
    #: choice set -> the code a value outside it answers (default bad_value)
    choice_errors: dict[str, str] = {}
    #: the result is a total of points added shot by shot, so a handicap start (the setup's
    #: ``starts``) can be given: the game's initial scores are the starts
    additive_score: bool = False
    #: what a score is on a paper score sheet: a whole number of points, a multiple of this
    #: (bar billiards' holes all score tens)
    score_step: int = 1
    #: the ``max`` statistic the breaks chart bins (a break, a run, a turn); empty: none
    best_stat: str = ""
    #: the version of the game's rules. A change of meaning (anything that would make a
    #: stored log replay to another state) is a new version, registered beside the old one
    #: (:func:`rules.registry.get` takes a version): every stored frame replays under the
    #: version it was played under, for ever (docs/rules-governance.md)
    version: int = 1
    #: what changed at each version after the first (:class:`RuleChange`), oldest first
    changelog: tuple[RuleChange, ...] = ()

    def as_version(self, version: int, *changes: RuleChange) -> Game[S]:
        """This game object, declared as rules ``version`` with ``changes`` added to its
        changelog (each for a version after the first, none after ``version``); returns
        it, for ``register(Game(params).as_version(2, RuleChange(2, ...)))``.

        >>> from rules.bar_billiards import FOUR_PIN, BarBilliards
        >>> g = BarBilliards(FOUR_PIN).as_version(2, RuleChange(2, "a change", "rule 1"))
        >>> g.version, [c.version for c in g.changelog]
        (2, [2])
        """
        if version < 1 or any(c.version > version for c in changes):
            raise ValueError(f"{self.id}: a change after version {version}")
        self.version = version
        self.changelog = (*self.changelog, *changes)
        return self

    def initial(self, setup: Mapping[str, Any] | None) -> S:
        """The state before the first event; a bad setup raises ``bad_setup`` (index -1)."""
        raise NotImplementedError

    def apply(self, state: S, event: Mapping[str, Any]) -> S:
        """The state after ``event``; raises :class:`RuleError` (index None) if refused."""
        raise NotImplementedError

    def view(self, state: S) -> dict[str, Any]:
        """The public JSON state the game's page fixes."""
        raise NotImplementedError

    def dump(self, state: S) -> dict[str, Any]:
        """The full internal state as compact JSON; ``load(dump(s)) == s``."""
        raise NotImplementedError

    def load(self, data: Mapping[str, Any]) -> S:
        """The internal state back from :meth:`dump`'s output."""
        raise NotImplementedError

    def validate(self, event: Any, state: S | None = None) -> None:
        """Shorthand for :func:`validate_event` on this game."""
        validate_event(self, event, state)

    # -- seating, choices --------------------------------------------------------

    def seating(self, state: S) -> Seating | None:
        """The state's :class:`Seating` (None for a game that keeps none)."""
        return None

    def choice_sets(self, state: S) -> dict[str, list[Any]]:
        """The resolved choice sets for ``state``: every name a field's ``choices_from``
        may use, mapped to the allowed values (what a UI offers). The default gives the
        seating's ``players``, ``parties`` and ``sides``; games add their own sets
        (``balls``, ``cups``) by overriding and extending this.

        >>> from rules import get
        >>> g = get("three_cushion_carom")
        >>> g.choice_sets(g.initial({"players": ["Ann", "Bob"]}))["players"]
        ['Ann', 'Bob']
        """
        seats = self.seating(state)
        if seats is None:
            return {name: [] for name in SEATING_CHOICES}
        return seats.choice_sets()

    def choice_set(self, state: S, name: str) -> Sequence[Any] | None:
        """One of :meth:`choice_sets` (None: no set of that name). The validator's compiled
        path asks for the sets an event's fields use one by one; a game whose
        ``choice_sets`` builds several may answer one here without the others."""
        return self.choice_sets(state).get(name)

    def setup_choice_sets(self, values: Mapping[str, Any]) -> dict[str, list[Any]]:
        """The choice sets setup options may use (``choices_from``), from the setup's
        values (defaults filled in): by default the seating
        ``self.participants.seat(values)`` describes."""
        return self.participants.seat(values).choice_sets()

    # -- results -----------------------------------------------------------------

    def outcome(self, state: S) -> Outcome:
        """The result as a typed :class:`Outcome`: the only way a caller should read a
        result. The default reads the view's ``over``, ``winner``, ``shared``, ``scores``
        and ``loser`` (when the view has it; else, in a two-party game with a winner,
        the other party); games override it to read their state directly."""
        v = self.view(state)
        scores = dict(v.get("scores") or {})
        winner = v.get("winner")
        loser = v.get("loser")
        if loser is None and winner is not None and len(scores) == 2:
            loser = next(p for p in scores if p != winner)
        return Outcome(bool(v.get("over")), winner, loser, bool(v.get("shared")), scores)

    def table_map(self) -> TableMap | None:
        """What a drawing of the table shows (:class:`rules.layout.TableMap`): by default
        the pockets a ``pots`` list names, when they are a known table's; None: nothing
        to draw."""
        return pocket_map(self.events)

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's statistics (:attr:`statistics`) for one game, computed
        from its event log: player name (as named in the setup) -> stat name -> number.
        Unnamed players are left out; every declared stat is present for each player
        named. A refused event raises its :class:`RuleError` with its index."""
        return {}

    def setup_for(
        self,
        participants: Sequence[str] | Mapping[str, Sequence[str | None]],
        options: Mapping[str, Any] | None = None,
        *,
        rng: Random | None = None,
    ) -> dict[str, Any]:
        """Shorthand for :func:`setup_for` on this game."""
        return setup_for(self, participants, options, rng=rng)

    def draw_option(self, name: str, setup: Mapping[str, Any], rng: Random) -> Any:
        """A value for the setup option ``name``, one the game declares
        ``drawn_by_service``, drawn with ``rng`` for a game about to start with ``setup``
        (its players and other options). The engine never draws on its own: the service
        that starts a game passes a cryptographic generator (``secrets.SystemRandom()``).
        A game without such options has nothing to draw (``KeyError``)."""
        raise KeyError(name)

    def foul(self, code: str) -> Foul:
        """The declared foul with this code (KeyError if none)."""
        for f in self.fouls:
            if f.code == code:
                return f
        raise KeyError(code)

    def describe(self) -> dict[str, Any]:
        """The game's identity, setup options, event vocabulary, fouls and state keys as
        JSON: what the referee pad is generated from.

        >>> from rules import get
        >>> d = get("bar_billiards_4pin").describe()
        >>> sorted(d)  # doctest: +NORMALIZE_WHITESPACE
        ['aliases', 'choice_sets', 'display', 'events', 'family', 'fouls', 'id', 'name',
         'pad', 'participants', 'players', 'setup', 'state', 'statistics']
        >>> [e["type"] for e in d["events"]]
        ['shot', 'bar_down', 'invoke_endgame']
        """
        return {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "family": self.family,
            "players": self.players,
            "setup": [field_as_dict(f, self.fouls) for f in self.options],
            "events": [e.as_dict(self.fouls) for e in self.events],
            "fouls": [f.as_dict() for f in self.fouls],
            "state": dict(self.state_doc),
            "participants": self.participants.as_dict(),
            "choice_sets": {**SEATING_CHOICES, **self.choice_set_doc},
            "statistics": [st.as_dict() for st in self.statistics],
            "display": [{"key": key, "label": label} for key, label in self.display],
            "pad": {"over": self.over_label, **self.pad_hints},
        }

    def summary(self) -> dict[str, Any]:
        """The game as one entry of ``python -m rules list``."""
        return {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "players": self.players,
            "family": self.family,
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


#: How a game named by a string is found: the registry installs its ``get`` here when it
#: is imported (``import rules`` does), so this module needs no import of the registry.
_lookup: Callable[[str], Game[Any]] | None = None


def set_lookup(lookup: Callable[[str], Game[Any]]) -> None:
    """Install the function :func:`replay` and :class:`Timeline` use to find a game named
    by a string (the registry's ``get``; it calls this when imported)."""
    global _lookup
    _lookup = lookup


def _resolve(game: Game[Any] | str) -> Game[Any]:
    if isinstance(game, str):
        if _lookup is None:  # pragma: no cover - importing rules installs the registry
            raise LookupError("no game registry: import rules first")
        return _lookup(game)
    return game


def replay(game: Game[Any] | str, setup: Mapping[str, Any] | None, events: Iterable[Any]) -> Any:
    """Fold ``events`` over ``game.initial(setup)`` and return the final state.

    A refused event re-raises its :class:`RuleError` with ``index`` set to the event's
    position; a refused setup keeps index -1.

    >>> from rules import get
    >>> bb = get("bar_billiards_4pin")
    >>> s = replay(bb, {}, [{"type": "shot", "pots": [{"ball": "red", "hole": 100}]}])
    >>> bb.view(s)["break"]
    200
    >>> replay("bar_billiards_4pin", {}, [{"type": "shot"}, {"type": "pot"}])
    Traceback (most recent call last):
    ...
    rules.vocabulary.InvalidEvent: unknown_type: no event type 'pot' (known: bar_down, invoke_endgame, shot) (event 1)
    """
    g = _resolve(game)
    state = g.initial(setup)
    if isinstance(events, (str, bytes, Mapping)):
        raise InvalidEvent("bad_value", "events must be a list", None)
    apply = g.apply
    for i, event in enumerate(events):
        try:
            state = apply(state, event)
        except RuleError as err:
            raise err.at(i) from None
    return state


class Timeline:
    """A frame being played: the setup, the accepted events and every state so far.

    ``push`` applies one event (a refused event raises with its index and changes
    nothing); ``undo`` drops the last event in O(1).

    >>> t = Timeline("bar_billiards_4pin", {"players": {"home": ["Ann"], "away": ["Bob"]}})
    >>> _ = t.push({"type": "shot", "pots": [{"ball": "white", "hole": 50}]})
    >>> len(t), t.view()["break"]
    (1, 50)
    >>> _ = t.undo()
    >>> len(t), t.view()["break"]
    (0, 0)
    """

    def __init__(self, game: Game[Any] | str, setup: Mapping[str, Any] | None = None) -> None:
        self.game: Game[Any] = _resolve(game)
        self.setup: Mapping[str, Any] | None = setup
        self._states: list[Any] = [self.game.initial(setup)]
        self._events: list[Any] = []

    @property
    def state(self) -> Any:
        """The current internal state."""
        return self._states[-1]

    @property
    def events(self) -> tuple[Any, ...]:
        """The accepted events, in order."""
        return tuple(self._events)

    def view(self) -> dict[str, Any]:
        """The public JSON state now."""
        return self.game.view(self._states[-1])

    def push(self, event: Mapping[str, Any]) -> Any:
        """Apply ``event`` and return the new state; a refusal raises and changes nothing."""
        try:
            state = self.game.apply(self._states[-1], event)
        except RuleError as err:
            raise err.at(len(self._events)) from None
        self._states.append(state)
        self._events.append(event)
        return state

    def undo(self) -> Any:
        """Forget the last event and return the state before it (IndexError if none)."""
        if not self._events:
            raise IndexError("nothing to undo")
        self._events.pop()
        self._states.pop()
        return self._states[-1]

    def choices(self) -> dict[str, list[Any]]:
        """The resolved choice sets now (:meth:`Game.choice_sets`): what a UI offers for
        fields with ``choices_from``."""
        return self.game.choice_sets(self._states[-1])

    def outcome(self) -> Outcome:
        """The result now (:meth:`Game.outcome`)."""
        return self.game.outcome(self._states[-1])

    def __len__(self) -> int:
        return len(self._events)
