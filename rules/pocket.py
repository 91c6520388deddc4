"""The pocket family: nine pool games of the 1908 Brunswick handbook (the pocket scoring language).

Every game is played on a six-pocket table and entered stroke by stroke. Line numbers
(``H 944``) are those of the source, the *Hand Book of Rules of Billiards* (Brunswick-Balke-
Collender Co., 1908).

* **The numbered-ball games** are one state machine, :class:`NumberedPool`, run by a frozen
  :class:`NumberedRules`: ``continuous_pool`` (H 944-1082), ``fifteen_ball_pool``
  (H 1084-1110), ``american_pyramid_pool`` (H 1112-1140), ``rotation_pool`` (H 1188-1206)
  and ``high_low_jack`` (H 1280-1296). A stroke is read in the page's order (failed
  opening, forfeit, no count, count); what a forfeit costs, what a counted ball is worth,
  what three forfeits in succession do, what happens when the table is cleared and when
  the game ends are the config's words plus four named hooks (:meth:`NumberedPool.penalty`,
  :meth:`NumberedPool.credit`, :meth:`NumberedPool.cleared`, :meth:`NumberedPool.ended`)
  that pyramid pool (balls in a rack, balls owed) and high-low-jack (game points, racks,
  the tie-break ball) override.
* ``bbc_co_pool`` (H 2099-2127): colour groups, the black last, partners (:class:`BBCPool`).
* ``golf_pool`` (H 1992-2020): six holes in order, a card (:class:`GolfPool`).
* **The life games**, ``two_ball_pool`` (H 1208-1252) and ``color_ball_life_pool``
  (H 1298-1401), share a ledger (:class:`LifePool`): stakes, lives paid for, a pool that
  goes to the last player in, revivals (the privilege, stars).

Every game keeps its turn in the core's :class:`~rules.seating.Seating` (``seats``), declares
its ``participants``, ``statistics`` (with :meth:`player_statistics`) and ``display``, and
validates its events with the core's union fields and choice sets. Where the page and the
book disagree, and what the page decides where the book is silent, is listed in
docs/games/<game id>.md. :func:`simulate` plays seeded plausible games (the property
tests, the bench, and :func:`rules.simulate.simulate_game`).

>>> from rules import get, replay
>>> g = get("fifteen_ball_pool")
>>> s = replay(g, {}, [{"type": "stroke", "pots": [{"ball": 15}, {"ball": 14}]}])
>>> g.view(s)["scores"], g.view(s)["at_table"]
({'P1': 29, 'P2': 0}, 'P1')
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, cast

from rules.core import Game, Stat
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import kept_by_setup, validate_event, validate_setup
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
    "GAMES",
    "BBCPool",
    "ColourBallPool",
    "ContinuousPool",
    "GolfPool",
    "HighLowJack",
    "LifePool",
    "NumberedPool",
    "NumberedRules",
    "PocketGame",
    "PyramidPool",
    "RotationPool",
    "TwoBallPool",
    "next_partner",
]

POCKETS: tuple[str, ...] = (
    "head_left",
    "head_right",
    "side_left",
    "side_right",
    "foot_left",
    "foot_right",
)
CUE = "cue"
#: The source every game here cites, by its line numbers.
_HANDBOOK = "1908 Brunswick handbook"
NUMBERS: tuple[int, ...] = tuple(range(1, 16))
FULL_RACK = sum(1 << b for b in NUMBERS)
_MISSING = object()

# ================================================================== vocabulary


def _ball_field(name: str, doc: str, balls: tuple[str, ...] | None, **kw: Any) -> Field:
    """A ball: a numbered ball 1-15 or ``"cue"`` (a union) when ``balls`` is None; else
    one of ``balls``; ``"balls"`` alone means the game's choice set of that name."""
    if balls is None:
        return Field(
            name,
            "union",
            doc,
            variants=(
                Field("cue", "str", 'the cue ball, "cue"', choices=(CUE,)),
                Field("number", "int", "a numbered ball, 1 to 15", minimum=1, maximum=15),
            ),
            **kw,
        )
    if balls == ("balls",):
        return Field(name, "str", doc, choices_from="balls", **kw)
    return Field(name, "str", doc, choices=balls, **kw)


def _pots(balls: tuple[str, ...] | None, pocket_doc: str = "the pocket it dropped into") -> Field:
    return Field(
        "pots",
        "list",
        "each ball that dropped in this stroke, in the order it dropped",
        default=(),
        item=Field(
            "pot",
            "object",
            "one ball that dropped",
            fields=(
                _ball_field("ball", "the ball that dropped", balls, required=True),
                Field("pocket", "str", pocket_doc, choices=POCKETS),
                Field(
                    "bank",
                    "bool",
                    "it struck a cushion before dropping (golf pool, the high-low-jack tie-break)",
                    default=False,
                ),
            ),
        ),
    )


def _off(balls: tuple[str, ...] | None) -> Field:
    return Field(
        "off_table",
        "list",
        "balls that left the table or came to rest on top of a cushion",
        default=(),
        item=_ball_field("ball", "a ball", balls),
    )


def _first_hit(balls: tuple[str, ...] | None, doc: str) -> Field:
    if balls is None:
        return Field("first_hit", "int", doc, minimum=1, maximum=15, nullable=True)
    return _ball_field("first_hit", doc, balls, nullable=True)


def _cushion(doc: str) -> Field:
    return Field("cushion", "bool", doc, default=True)


def _fouls() -> Field:
    return Field(
        "fouls",
        "list",
        "the fouls the referee saw (a code given twice counts once)",
        default=(),
        item=Field("foul", "str", "a foul code of the stroke", choices=FOULS),
    )


def _foul_event(pocketed: bool = False) -> EventType:
    fields = [
        player_field("the player who committed the fault"),
        Field(
            "code",
            "str",
            "what he did (a foul code of a `foul` event)",
            required=True,
            choices=FOULS,
        ),
    ]
    if pocketed:
        fields.append(
            Field(
                "pocketed",
                "bool",
                "out_of_turn only: he potted the object ball (its owner loses a life)",
                default=False,
            )
        )
    return EventType("foul", "a fault by a named player outside the stroke", tuple(fields))


_STROKE_FOULS: dict[str, Foul] = {
    f.code: f
    for f in (
        Foul("miss", "forfeit", "the cue ball touched no object ball", True),
        Foul("double_hit", "forfeit", "the striker struck the cue ball twice"),
        Foul(
            "touch_cue",
            "forfeit",
            "the cue ball was touched other than by a stroke (it counts as his stroke)",
        ),
        Foul("balls_moving", "forfeit", "he struck before every ball had come to rest"),
        Foul("feet", "forfeit", "no foot on the floor as he struck"),
        Foul(
            "touched_ball",
            "no_count",
            "he touched an object ball (cue, hand or clothing): the stroke does not count",
        ),
        Foul(
            "outside_string",
            "no_count",
            "in hand, he played from outside the string after being warned",
        ),
        Foul(
            "touch_after",
            "turn",
            "after the stroke, once all balls had stopped, he touched a ball: the balls "
            "count, the turn passes",
            True,
        ),
        Foul("simultaneous", "life", "the cue ball struck two balls at once"),
        Foul("wrong_ball", "life", "he played with a wrong ball (not when in hand)"),
    )
}
_EVENT_FOULS: dict[str, Foul] = {
    f.code: f
    for f in (
        Foul("out_of_turn", "out_of_turn", "a `foul` event: he played out of his turn"),
        Foul(
            "misdirect",
            "life",
            "a `foul` event: he called the wrong man to play (he loses the life)",
        ),
        Foul("touch_running", "life", "a `foul` event: he touched a running ball"),
        Foul(
            "obstruction",
            "out",
            "a `foul` event: he obstructed an opponent or interfered with the balls: out",
        ),
    )
}

_NO_FOULS: frozenset[str] = frozenset()
_FORFEIT_CODES = frozenset({"miss", "double_hit", "touch_cue", "balls_moving", "feet"})
_NO_COUNT_CODES = frozenset({"touched_ball", "outside_string"})
_NUMBERED_FOULS = (
    "miss",
    "double_hit",
    "touch_cue",
    "balls_moving",
    "feet",
    "touched_ball",
    "outside_string",
    "touch_after",
)


class PocketGame(Game[Any]):
    """What every game of the family shares: the declared event types and fouls, the
    checks in the page's order (type, the end of the game, the fields, the foul codes),
    the seating (every state keeps one in ``seats``)."""

    family = "pocket"
    source = ""
    stroke_fouls: tuple[str, ...] = ()
    event_fouls: tuple[str, ...] = ()
    revive_types: ClassVar[frozenset[str]] = frozenset()

    def _declare(self, events: tuple[EventType, ...]) -> None:
        self.events = events
        self._types = frozenset(e.type for e in events)
        self._stroke_codes = frozenset(self.stroke_fouls)
        self._event_codes = frozenset(self.event_fouls)
        self.fouls = tuple(_STROKE_FOULS[c] for c in self.stroke_fouls) + tuple(
            _EVENT_FOULS[c] for c in self.event_fouls
        )

    def _validate(self, state: Any, over: bool, event: Any) -> str:
        """The checks in the page's order: the type, then the end of the game, then the
        fields (:func:`validate_event`, with the state's choice sets), then the foul
        codes (a stroke's and a ``foul`` event's are separate lists). Returns the type."""
        kind = event.get("type") if type(event) is dict or isinstance(event, Mapping) else None
        if kind not in self._types:
            validate_event(self, event)  # raises unknown_type
        if over and kind not in self.revive_types:
            raise IllegalEvent("game_over", f"{kind}: the game is over")
        validate_event(self, event, state)
        if kind == "stroke":
            for i, code in enumerate(event.get("fouls") or ()):
                if code not in self._stroke_codes:
                    raise InvalidEvent("unknown_foul", f"fouls[{i}]: no stroke foul {code!r}")
        elif kind == "foul" and event["code"] not in self._event_codes:
            raise InvalidEvent("unknown_foul", f"code: no foul event {event['code']!r} here")
        assert isinstance(kind, str)
        return kind

    def seating(self, state: Any) -> Seating:
        """The state's seating (who plays, whose turn)."""
        return cast(Seating, state.seats)


def _to_json(state: tuple[Any, ...]) -> dict[str, Any]:
    """A NamedTuple state as JSON: tuples become lists (one level; nested ones are the
    caller's)."""
    out: dict[str, Any] = {}
    for k, v in state._asdict().items():  # type: ignore[attr-defined]
        if isinstance(v, Seating):
            out[k] = v.dump()
        else:
            out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a NamedTuple state from :func:`_to_json`'s output."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        if k == "seats":
            out[k] = Seating.load(v)
        else:
            out[k] = tuple(v) if isinstance(v, list) else v
    return out


def _steps(
    game: Game[Any], setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
) -> Iterable[tuple[Mapping[str, Any], Any, Any]]:
    """(event, state before, state after) for each event of a log; a refused event raises
    its error with its index (statistics are computed from a log the engine accepts)."""
    state = game.initial(setup)
    for i, ev in enumerate(events):
        try:
            new = game.apply(state, ev)
        except RuleError as err:
            raise err.at(i) from None
        yield ev, state, new
        state = new


def _blank(game: Game[Any], names: Iterable[str | None]) -> dict[str, dict[str, float]]:
    return {n: dict.fromkeys((st.name for st in game.statistics), 0.0) for n in names if n}


def _moved(event: Mapping[str, Any]) -> tuple[Sequence[Mapping[str, Any]], list[Any], list[Any]]:
    pots = event.get("pots") or ()
    potted = [p["ball"] for p in pots]
    off = list(event.get("off_table") or ())
    return pots, potted, off


def _no_duplicates(balls: Sequence[Any], where: str) -> None:
    if len(balls) < 2 or len(set(balls)) == len(balls):
        return
    seen: set[Any] = set()
    for b in balls:
        if b in seen:
            raise IllegalEvent("duplicate_ball", f"{where}: the {b} is listed twice")
        seen.add(b)


# ============================================================ numbered-ball games


@dataclass(frozen=True)
class NumberedRules:
    """One numbered-ball game as parameters (the pocket scoring language, "The numbered-ball games").

    ``face_value``: a counted ball scores its number (else 1). ``forfeit``: points off for
    a forfeit stroke (and ``out_of_turn``). ``failed_opening``/``match_failed_opening``:
    points off for a failed opening, and ``rebreak``/``match_rebreak`` whether he breaks
    again. ``three``: what three forfeits in succession do: ``"lose"`` (the game),
    ``"rack"`` (continuous: the table to the opponent, a new rack), ``"table"`` (pyramid
    two-handed: the table to the opponent, the end). ``lowest_first``: rotation's rule.
    ``ranking_end``: the end of fifteen-ball ("always") or pyramid ("three or more").
    ``target``: the default target (None: no target option).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    min_players: int = 2
    max_players: int = 12
    face_value: bool = True
    forfeit: int = 3
    failed_opening: int = 3
    match_failed_opening: int = 6
    rebreak: bool = False
    match_rebreak: bool = True
    three: str = "lose"
    lowest_first: bool = False
    call_shot: bool = True
    ranking_end: str = "always"
    loser_by_rank: bool = True
    target: int | None = None
    target_min: int = 1
    target_max: int | None = None
    target_doc: str = ""
    out_of_turn: bool = True
    match_calls_pockets: bool = False


class NumberedState(NamedTuple):
    """A numbered-ball game (immutable). ``table`` is a bit set (bit b: ball b is on the
    table). ``forfeited``: the index of a player who lost by three forfeits, else -1.
    ``fresh``: no stroke yet in this rack (``choose_break``). ``racks``: pyramid's balls
    per player, last credited last; ``totals``/``specials``/``breaker``: high-low-jack."""

    seats: Seating
    scores: tuple[int, ...]
    next: str
    table: int
    scratches: tuple[int, ...]
    over: bool = False
    forfeited: int = -1
    events: int = 0
    rack: int = 1
    fresh: bool = True
    owed: tuple[int, ...] = ()
    racks: tuple[tuple[int, ...], ...] = ()
    totals: tuple[int, ...] = ()
    specials: tuple[int, int, int] = (-1, -1, -1)
    breaker: int = 0
    target: int = 0
    match: bool = False
    call_shot: bool = True
    counted: int = 0
    forfeit: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in the order of play."""
        return self.seats.parties

    @property
    def turn(self) -> int:
        """The index of the player at the table."""
        return self.seats.turn


def _bit(b: int) -> int:
    return 1 << b


def _balls(table: int) -> list[int]:
    return [b for b in NUMBERS if table >> b & 1]


@functools.lru_cache(maxsize=4096)
def _face_sum(table: int) -> int:
    """The numbers of the balls on a table (a bit set), added up."""
    return sum(b for b in NUMBERS if table >> b & 1)


def _lowest(table: int) -> int | None:
    return (table & -table).bit_length() - 1 if table else None


def _add(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[i] += delta
    return tuple(out)


def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[i] = value
    return tuple(out)


_NUMBERED_STATS = (
    Stat("balls_potted", "Balls potted", "sum", "balls that counted for him"),
    Stat("high_run", "High run", "max", "the most balls counted for him in one visit"),
    Stat("scratches", "Scratches", "sum", "his forfeits, out-of-turn faults included"),
    Stat("points", "Points", "sum", "his score when the game ended (game points in high-low-jack)"),
)


class NumberedPool(PocketGame):
    """A numbered-ball game: fifteen balls racked, a plain white cue ball.

    A stroke is read as the page orders it (first that fits decides): a failed opening;
    a forfeit; no count; a count. Hooks: :meth:`penalty` (what a forfeit costs),
    :meth:`credit` (what counted balls are worth), :meth:`cleared` (a counting stroke
    emptied the table), :meth:`ended` (the end rule, after every event).
    """

    players = "2 to 12 players in rotation"

    def __init__(self, rules: NumberedRules) -> None:
        self.rules = rules
        self.id, self.name, self.aliases = rules.id, rules.name, rules.aliases
        self.source = rules.source
        if rules.min_players == rules.max_players:
            self.players = f"exactly {rules.min_players} players"
        else:
            self.players = f"{rules.min_players} to {rules.max_players} players in rotation"
        self.stroke_fouls = _NUMBERED_FOULS
        self.event_fouls = ("out_of_turn",) if rules.out_of_turn else ()
        self.participants = Participants(("players",), min=rules.min_players, max=rules.max_players)
        self.statistics = _NUMBERED_STATS
        self.best_stat = "high_run"
        self.options = self._options()
        self._declare(self._event_types())
        self.state_doc = self._state_doc()
        self.display = self._display()

    # -- vocabulary ----------------------------------------------------------

    def _options(self) -> tuple[Field, ...]:
        r = self.rules
        opts = [
            Option(
                "players",
                "list",
                ("P1", "P2"),
                f"the players in the order of play ({self.players})",
                item=Field("player", "str", "a player's name"),
            )
        ]
        if r.target is not None:
            opts.append(
                Field(
                    "target",
                    "int",
                    r.target_doc,
                    default=r.target,
                    minimum=r.target_min,
                    maximum=r.target_max,
                )
            )
        opts.append(Option("match", "bool", False, "the book's match and tournament rules"))
        opts.append(
            Option(
                "call_shot",
                "bool",
                r.call_shot,
                "every stroke after the opening must call its ball(s) to count",
            )
        )
        return tuple(opts)

    def _event_types(self) -> tuple[EventType, ...]:
        stroke = EventType(
            "stroke",
            "one stroke of the cue by the player at the table",
            (
                _pots(None),
                _off(None),
                _first_hit(
                    None,
                    "the object ball the cue ball struck first; null: it struck none (a "
                    "miss); left out: the ball the rules require"
                    + (" (rotation: the lowest on the table)" if self.rules.lowest_first else ""),
                ),
                _cushion(
                    "opening stroke: two or more object balls reached a cushion; any other: "
                    "after the cue ball met an object ball, a ball touched a cushion"
                ),
                Field(
                    "call",
                    "list",
                    "the balls the striker called (and the pocket, if he named one)",
                    default=(),
                    item=Field(
                        "called",
                        "object",
                        "one called ball",
                        fields=(
                            Field("ball", "int", "the ball", required=True, minimum=1, maximum=15),
                            Field("pocket", "str", "the pocket named", choices=POCKETS),
                        ),
                    ),
                ),
                _fouls(),
            ),
        )
        types = [stroke]
        if self.rules.three == "rack":
            types.append(
                EventType(
                    "choose_break",
                    "before the first stroke of a new rack: who breaks it",
                    (player_field("the player who breaks"),),
                )
            )
        if self.rules.out_of_turn:
            types.append(_foul_event())
        return tuple(types)

    def _state_doc(self) -> dict[str, str]:
        doc = {
            "game": "the game id",
            "over": "the game has ended",
            "winner": "the winning player, null if not over or shared",
            "shared": "the game ended with the highest score shared",
            "scores": "player -> score",
            "at_table": "the player to play (null when over)",
            "events": "how many events have been applied",
            "loser": "the player who lost (three forfeits; the other of two; the lowest)",
            "next": "break (an opening stroke), play, bank (the tie-break ball) or none",
            "on_table": "the numbered balls on the table, ascending",
            "scratches": "player -> forfeits in succession",
        }
        return doc

    def _display(self) -> tuple[tuple[str, str], ...]:
        return (("scores", "Score"), ("at_table", "To play"), ("on_table", "Balls on"))

    # -- setup ---------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> NumberedState:
        """The rack before the opening stroke.

        >>> from rules import get
        >>> s = get("continuous_pool").initial({"target": 50})
        >>> s.players, s.target, s.next
        (('P1', 'P2'), 50, 'break')
        """
        values = validate_setup(self, setup)
        seats = self.participants.seat(values)
        n = len(seats.parties)
        return self.start(
            NumberedState(
                seats=seats,
                scores=(0,) * n,
                next="break",
                table=FULL_RACK,
                scratches=(0,) * n,
                target=values.get("target") or 0,
                match=values["match"],
                call_shot=values["call_shot"],
            )
        )

    def start(self, state: NumberedState) -> NumberedState:
        """Hook: the game's own fields of a new state."""
        return state

    # -- events --------------------------------------------------------------

    def apply(self, state: NumberedState, event: Mapping[str, Any]) -> NumberedState:
        """The state after one event (pure)."""
        kind = self._validate(state, state.over, event)
        if kind == "stroke":
            new = self._stroke(state, event)
        elif kind == "foul":
            new = self._out_of_turn(state, event)
        else:
            new = self._choose_break(state, event)
        return self.ended(new)

    def _next_state(self, state: NumberedState, **changes: Any) -> NumberedState:
        """The state an event starts from: one more event, nothing counted yet (unless
        ``changes`` say so)."""
        changes.setdefault("counted", 0)
        changes.setdefault("forfeit", False)
        return state._replace(events=state.events + 1, **changes)

    def _choose_break(self, state: NumberedState, event: Mapping[str, Any]) -> NumberedState:
        who = state.seats.index_of(event["player"])
        if state.rack < 2 or not state.fresh:
            raise IllegalEvent(
                "not_now", "choose_break: only before the first stroke of a new rack"
            )
        return self._next_state(state, seats=state.seats.pass_to(who))

    def _out_of_turn(self, state: NumberedState, event: Mapping[str, Any]) -> NumberedState:
        who = state.seats.index_of(event["player"])
        if who == state.turn:
            raise IllegalEvent(
                "not_now", f"player: {event['player']} is at the table, not out of turn"
            )
        state = self.penalty(self._next_state(state, forfeit=True), who, self.rules.forfeit)
        return self._scratch(state, who, passes=False)

    def _stroke(self, state: NumberedState, event: Mapping[str, Any]) -> NumberedState:
        r = self.rules
        table = state.table
        pots = event.get("pots") or ()
        potted = [p["ball"] for p in pots]
        off = event.get("off_table") or ()
        moved = [*potted, *off] if off else potted
        if moved:
            _no_duplicates(moved, "pots and off_table")
            for i, b in enumerate(moved):
                if b != CUE and not table >> b & 1:
                    where = f"pots[{i}]" if i < len(potted) else f"off_table[{i - len(potted)}]"
                    raise IllegalEvent(
                        "not_on_table", f"{where}.ball: ball {b} is not on the table"
                    )
        first_hit = event.get("first_hit", _MISSING)
        named_first = first_hit is not _MISSING and first_hit is not None
        if named_first and not table >> first_hit & 1:
            raise IllegalEvent("not_on_table", f"first_hit: ball {first_hit} is not on the table")
        call = event.get("call") or ()
        called = [c["ball"] for c in call] if call else []
        if called:
            _no_duplicates(called, "call")
            for i, b in enumerate(called):
                if not table >> b & 1:
                    raise IllegalEvent(
                        "not_on_table", f"call[{i}].ball: ball {b} is not on the table"
                    )
        raw_fouls = event.get("fouls")
        fouls = frozenset(raw_fouls) if raw_fouls else _NO_FOULS
        cue_lost = CUE in moved
        objects = [b for b in potted if b != CUE] if cue_lost else potted
        missed = first_hit is None or "miss" in fouls
        if missed and objects:
            raise IllegalEvent("inconsistent", "pots: an object ball potted on a miss")
        if named_first and "miss" in fouls:
            raise IllegalEvent("inconsistent", "first_hit: a ball named on a miss")
        nxt = state.next
        opening = nxt == "break"
        match_pockets = state.match and r.match_calls_pockets
        needs_call = nxt != "bank" and state.call_shot and (not opening or match_pockets)
        if called and not needs_call:
            raise IllegalEvent("call_not_allowed", "call: no call is taken on this stroke")
        pocket_of: dict[Any, Any] = {}
        if call:
            pocket_of = {p["ball"]: p.get("pocket") for p in pots}
            for c in call:
                if c.get("pocket") is None:
                    if match_pockets:
                        raise IllegalEvent(
                            "pocket_required",
                            f"call: ball {c['ball']} needs its pocket in a match",
                        )
                elif c["ball"] in pocket_of and pocket_of[c["ball"]] is None:
                    raise IllegalEvent(
                        "pocket_required",
                        f"pots: ball {c['ball']} was called to a pocket: name it",
                    )
        cushion = event.get("cushion", True)
        s = state.seats.turn
        # 1. failed opening
        if opening and not objects and not cushion:
            return self.failed_opening(self._next_state(state, fresh=False), s)
        after = "bank" if nxt == "bank" else "play"
        # 2. forfeit
        if (
            cue_lost
            or missed
            or (fouls and not _FORFEIT_CODES.isdisjoint(fouls))
            or (not cushion and not opening and not objects)
            or (r.lowest_first and named_first and first_hit != _lowest(table))
        ):
            new = self._next_state(state, fresh=False, next=after, forfeit=True)
            return self._scratch(self.penalty(new, s, r.forfeit), s, passes=True)
        # 3. no count / count
        scratches = state.scratches if not state.scratches[s] else _set(state.scratches, s, 0)
        if (
            not objects
            or (fouls and not _NO_COUNT_CODES.isdisjoint(fouls))
            or (
                needs_call
                and not (
                    called
                    and all(
                        b in pocket_of
                        and (c.get("pocket") is None or c.get("pocket") == pocket_of[b])
                        for b, c in zip(called, call, strict=True)
                    )
                )
            )
        ):
            return self._next_state(
                state, fresh=False, scratches=scratches, next=after, seats=state.seats.advance()
            )
        new = self._next_state(
            state, fresh=False, scratches=scratches, next=after, counted=len(objects)
        )
        if nxt == "bank":
            return self.bank(new, s, pots)
        new = self.credit(new, s, objects)
        if new.over:
            return new
        if not new.table:
            return self.cleared(new, s)
        return self._pass(new) if "touch_after" in fouls else new

    def _next_player(self, state: NumberedState, i: int) -> int:
        return (i + 1) % len(state.players)

    def _pass(self, state: NumberedState) -> NumberedState:
        return state._replace(seats=state.seats.advance())

    def _scratch(self, state: NumberedState, who: int, passes: bool) -> NumberedState:
        scratches = _add(state.scratches, who, 1)
        if scratches[who] == 3:
            outcome = self.three_forfeits(state._replace(scratches=scratches), who)
            if outcome is not None:
                return outcome
        if passes:
            return state._replace(scratches=scratches, seats=state.seats.advance())
        return state._replace(scratches=scratches)

    def failed_opening(self, state: NumberedState, who: int) -> NumberedState:
        """The break failed: the game's penalty; racked again (he breaks again) or the
        turn passes and the opening is over."""
        r = self.rules
        points = r.match_failed_opening if state.match else r.failed_opening
        state = self.penalty(state, who, points)
        if r.rebreak or (state.match and r.match_rebreak):
            return state._replace(table=self.new_table(state))
        return self._pass(state._replace(next="play"))

    def new_table(self, state: NumberedState) -> int:
        """The balls racked for a (re)break."""
        return FULL_RACK

    def three_forfeits(self, state: NumberedState, who: int) -> NumberedState | None:
        """Three forfeits in succession; None when the rule has no effect."""
        three = self.rules.three
        if three == "lose":
            return state._replace(over=True, forfeited=who)
        if three == "rack":  # continuous pool: the table to the opponent, a new rack
            other = 1 - who
            balls = bin(state.table).count("1")
            state = state._replace(
                scores=_add(state.scores, other, balls),
                scratches=_set(state.scratches, who, 0),
                table=0,
            )
            return self.new_rack(state, who)
        return None

    def new_rack(self, state: NumberedState, breaker: int) -> NumberedState:
        """A new rack of fifteen, ``breaker`` to break."""
        return state._replace(
            table=FULL_RACK,
            rack=state.rack + 1,
            next="break",
            seats=state.seats.pass_to(breaker),
            fresh=True,
        )

    # -- hooks ---------------------------------------------------------------

    def value(self, ball: int) -> int:
        """What a counted ball scores."""
        return ball if self.rules.face_value else 1

    def penalty(self, state: NumberedState, who: int, points: int) -> NumberedState:
        """Hook: a forfeit (or a failed opening) costs ``who`` this many points."""
        return state._replace(scores=_add(state.scores, who, -points))

    def credit(self, state: NumberedState, who: int, balls: Sequence[int]) -> NumberedState:
        """Hook: the balls counted for ``who`` leave the table and score."""
        table = state.table
        gained = 0
        for b in balls:
            table &= ~(1 << b)
            gained += self.value(b)
        return state._replace(table=table, scores=_add(state.scores, who, gained))

    def bank(
        self, state: NumberedState, who: int, pots: Sequence[Mapping[str, Any]]
    ) -> NumberedState:
        """Hook: a counting stroke at the tie-break ball (high-low-jack only)."""
        raise AssertionError("no tie-break in this game")  # pragma: no cover

    def cleared(self, state: NumberedState, who: int) -> NumberedState:
        """Hook: a counting stroke by ``who`` emptied the table (the end rule decides)."""
        return state

    def ended(self, state: NumberedState) -> NumberedState:
        """Hook: the end rule, checked after every event."""
        if state.over:
            return state
        if self.rules.ranking_end == "always" or (
            self.rules.ranking_end == "three" and len(state.players) >= 3
        ):
            return self._ranking_end(state)
        return state

    def _ranking_end(self, state: NumberedState) -> NumberedState:
        table = state.table
        if not table:
            return state._replace(over=True)
        left = _face_sum(table) if self.rules.face_value else bin(table).count("1")
        ranked = sorted(state.scores)
        if ranked[0] + left < ranked[1]:
            return state._replace(over=True)
        return state

    # -- output --------------------------------------------------------------

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Balls counted, the high run (balls counted in one visit), scratches and the final
        score of each player, from the log.

        >>> from rules import get
        >>> get("fifteen_ball_pool").player_statistics({"players": ["Ann", "Bob"]}, [
        ...     {"type": "stroke", "pots": [{"ball": 15}, {"ball": 1}]},
        ...     {"type": "stroke", "fouls": ["miss"]}])["Ann"]
        {'balls_potted': 2.0, 'high_run': 2.0, 'scratches': 1.0, 'points': 13.0}
        """
        state = self.initial(setup)
        players = state.players
        lines = {p: dict.fromkeys((st.name for st in self.statistics), 0.0) for p in players}
        run_by, run = -1, 0
        for i, ev in enumerate(events):
            try:
                new = self.apply(state, ev)
            except RuleError as err:
                raise err.at(i) from None
            striker = state.turn
            if ev.get("type") == "foul":
                striker = state.seats.index_of(ev["player"])
            line = lines[players[striker]]
            if new.forfeit:
                line["scratches"] += 1
            if ev.get("type") == "stroke":
                if new.counted:
                    run = run + new.counted if run_by == striker else new.counted
                    run_by = striker
                    line["balls_potted"] += new.counted
                    line["high_run"] = float(max(line["high_run"], run))
                else:
                    run_by, run = -1, 0
            state = new
        for p, score in zip(players, state.scores, strict=True):
            lines[p]["points"] = float(score)
        return lines

    def result(self, state: NumberedState) -> tuple[int | None, int | None]:
        """(winner, loser) as indices, None where there is none."""
        if not state.over:
            return None, None
        scores = state.scores
        n = len(scores)
        others = [i for i in range(n) if i != state.forfeited]
        best = max(scores[i] for i in others)
        leaders = [i for i in others if scores[i] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if state.forfeited >= 0:
            return winner, state.forfeited
        if n == 2:
            return winner, None if winner is None else 1 - winner
        if self.rules.loser_by_rank:
            worst = min(scores)
            tail = [i for i in range(n) if scores[i] == worst]
            return winner, tail[0] if len(tail) == 1 else None
        return winner, None

    def view(self, state: NumberedState) -> dict[str, Any]:
        """The public state (the pocket scoring language "State")."""
        players = state.players
        winner, loser = self.result(state)
        v: dict[str, Any] = {
            "game": self.id,
            "over": state.over,
            "winner": None if winner is None else players[winner],
            "shared": state.over and winner is None,
            "scores": dict(zip(players, state.scores, strict=True)),
            "at_table": None if state.over else players[state.turn],
            "events": state.events,
            "loser": None if loser is None else players[loser],
            "next": "none" if state.over else state.next,
            "on_table": _balls(state.table),
            "scratches": dict(zip(players, state.scratches, strict=True)),
        }
        self.extra_view(state, v)
        return v

    def extra_view(self, state: NumberedState, view: dict[str, Any]) -> None:
        """Hook: the game's own state keys."""

    def dump(self, state: NumberedState) -> dict[str, Any]:
        """The internal state as JSON (``load(dump(s)) == s``)."""
        data = _to_json(state)
        data["racks"] = [list(r) for r in state.racks]
        return data

    def load(self, data: Mapping[str, Any]) -> NumberedState:
        """The internal state back from :meth:`dump`."""
        values = _from_json(data)
        values["racks"] = tuple(tuple(r) for r in data["racks"])
        return NumberedState(**values)


class ContinuousPool(NumberedPool):
    """Continuous pool: 1 a ball, racks follow one another, the first to ``target``."""

    def extra_view(self, state: NumberedState, view: dict[str, Any]) -> None:
        view["rack"] = state.rack

    def _state_doc(self) -> dict[str, str]:
        return super()._state_doc() | {"rack": "the rack being played (1, 2, ...)"}

    def cleared(self, state: NumberedState, who: int) -> NumberedState:
        """The player who did not pot the last ball breaks the new rack."""
        return self.new_rack(state, 1 - who)

    def new_rack(self, state: NumberedState, breaker: int) -> NumberedState:
        """No new rack once the target is reached: the game ends there (line 952)."""
        if max(state.scores) >= state.target:
            return state._replace(over=True)
        return super().new_rack(state, breaker)

    def ended(self, state: NumberedState) -> NumberedState:
        if not state.over and max(state.scores) >= state.target:
            return state._replace(over=True)
        return state


class PyramidPool(NumberedPool):
    """American pyramid pool: balls in a rack; a forfeit gives the last one back (or is
    owed); two-handed the first to ``target`` balls wins."""

    def start(self, state: NumberedState) -> NumberedState:
        n = len(state.players)
        return state._replace(owed=(0,) * n, racks=((),) * n)

    def _state_doc(self) -> dict[str, str]:
        return super()._state_doc() | {"owed": "player -> balls he owes the table"}

    def extra_view(self, state: NumberedState, view: dict[str, Any]) -> None:
        view["owed"] = dict(zip(state.players, state.owed, strict=True))

    def penalty(self, state: NumberedState, who: int, points: int) -> NumberedState:
        """One ball to the table: the last credited, else owed."""
        rack = state.racks[who]
        if not rack:
            return state._replace(owed=_add(state.owed, who, 1))
        return state._replace(
            racks=_set(state.racks, who, rack[:-1]),
            scores=_add(state.scores, who, -1),
            table=state.table | _bit(rack[-1]),
        )

    def credit(self, state: NumberedState, who: int, balls: Sequence[int]) -> NumberedState:
        """Each ball into his rack; while he owes, it goes back and pays a debt."""
        owed = state.owed[who]
        rack = state.racks[who]
        table = state.table
        for b in balls:
            if owed:
                owed -= 1
            else:
                table &= ~(1 << b)
                rack += (b,)
        if owed == state.owed[who]:
            return state._replace(
                table=table,
                racks=_set(state.racks, who, rack),
                scores=_set(state.scores, who, len(rack)),
            )
        return state._replace(
            table=table,
            owed=_set(state.owed, who, owed),
            racks=_set(state.racks, who, rack),
            scores=_set(state.scores, who, len(rack)),
        )

    def three_forfeits(self, state: NumberedState, who: int) -> NumberedState | None:
        """Two-handed: every ball on the table to the opponent, the end."""
        if len(state.players) != 2:
            return None
        other = 1 - who
        balls = tuple(_balls(state.table))
        rack = state.racks[other] + balls
        return state._replace(
            racks=_set(state.racks, other, rack),
            scores=_set(state.scores, other, len(rack)),
            table=0,
            over=True,
            forfeited=who,
        )

    def ended(self, state: NumberedState) -> NumberedState:
        if state.over or len(state.players) >= 3:
            return super().ended(state)
        if max(state.scores) >= state.target or not state.table:
            return state._replace(over=True)
        return state

    def dump(self, state: NumberedState) -> dict[str, Any]:
        return super().dump(state)


class RotationPool(NumberedPool):
    """Rotation pool: fifteen-ball with the lowest ball struck first."""

    def _state_doc(self) -> dict[str, str]:
        return super()._state_doc() | {"must_hit": "the lowest ball on the table (to strike first)"}

    def extra_view(self, state: NumberedState, view: dict[str, Any]) -> None:
        view["must_hit"] = None if state.over else _lowest(state.table)


_HIGH, _LOW, _JACK = 15, 1, 9
_SPECIALS = (_HIGH, _LOW, _JACK)


class HighLowJack(NumberedPool):
    """High-low-jack: game points for High (15), Low (1), Jack (9) and Game (the best rack
    total), racks to ``target``; the one-ball bank when everyone is one short."""

    def start(self, state: NumberedState) -> NumberedState:
        return state._replace(totals=(0,) * len(state.players))

    def _state_doc(self) -> dict[str, str]:
        return super()._state_doc() | {
            "rack": "the rack being played (1, 2, ...)",
            "rack_totals": "player -> the numbers he potted in this rack, less penalties",
            "specials": "who took High (15), Low (1), Jack (9) in this rack",
        }

    def _display(self) -> tuple[tuple[str, str], ...]:
        return (*super()._display(), ("rack_totals", "This rack"), ("specials", "High/Low/Jack"))

    def extra_view(self, state: NumberedState, view: dict[str, Any]) -> None:
        players = state.players
        view["rack"] = state.rack
        view["rack_totals"] = dict(zip(players, state.totals, strict=True))
        view["specials"] = {
            k: None if i < 0 else players[i]
            for k, i in zip(("high", "low", "jack"), state.specials, strict=True)
        }

    def penalty(self, state: NumberedState, who: int, points: int) -> NumberedState:
        if state.next == "bank":  # no rack total to lose in the tie-break
            return state
        return state._replace(totals=_add(state.totals, who, -points))

    def credit(self, state: NumberedState, who: int, balls: Sequence[int]) -> NumberedState:
        """Numbers to the rack total; High, Low and Jack a point each, at once."""
        table, total = state.table, state.totals[who]
        scores, specials = state.scores, state.specials
        over = state.over
        for b in balls:
            table &= ~(1 << b)
            total += b
            if b in _SPECIALS and not over:
                specials = _set(specials, _SPECIALS.index(b), who)
                scores = _add(scores, who, 1)
                over = scores[who] >= state.target
        return state._replace(
            table=table,
            totals=_set(state.totals, who, total),
            scores=scores,
            specials=specials,
            over=over,
        )

    def bank(
        self, state: NumberedState, who: int, pots: Sequence[Mapping[str, Any]]
    ) -> NumberedState:
        """The tie-break: the 1 banked in wins; unbanked it is spotted, the turn passes."""
        if any(p["ball"] == 1 and p.get("bank") for p in pots):
            return state._replace(scores=_add(state.scores, who, 1), table=0, over=True)
        return self._pass(state)

    def cleared(self, state: NumberedState, who: int) -> NumberedState:
        """Game to the best rack total (none when shared), then a new rack."""
        totals = state.totals
        best = max(totals)
        if totals.count(best) == 1:
            leader = totals.index(best)
            state = state._replace(scores=_add(state.scores, leader, 1))
            if state.scores[leader] >= state.target:
                return state._replace(over=True)
        breaker = self._next_player(state, state.breaker)
        state = state._replace(totals=(0,) * len(totals), specials=(-1, -1, -1), breaker=breaker)
        state = self.new_rack(state, breaker)
        if all(s == state.target - 1 for s in state.scores):
            return state._replace(table=_bit(1), next="bank")
        return state

    def ended(self, state: NumberedState) -> NumberedState:
        return state


CONTINUOUS = NumberedRules(
    id="continuous_pool",
    name="Continuous pool (championship)",
    aliases=("continuous",),
    source=f"{_HANDBOOK}, lines 944-1082",
    min_players=2,
    max_players=2,
    face_value=False,
    forfeit=1,
    failed_opening=2,
    match_failed_opening=2,
    rebreak=True,
    three="rack",
    ranking_end="never",
    target=200,
    target_doc="points to win (the championship figure is 200)",
    out_of_turn=False,
    match_calls_pockets=True,
)
FIFTEEN_BALL = NumberedRules(
    id="fifteen_ball_pool",
    name="Fifteen-ball pool",
    aliases=("fifteen_ball", "61_pool"),
    source=f"{_HANDBOOK}, lines 1084-1110",
)
AMERICAN_PYRAMID = NumberedRules(
    id="american_pyramid_pool",
    name="American pyramid pool",
    aliases=("pyramid_pool", "american_pyramid"),
    source=f"{_HANDBOOK}, lines 1112-1140",
    face_value=False,
    three="table",
    ranking_end="three",
    target=8,
    target_min=1,
    target_max=15,
    target_doc="balls to win two-handed (1 to 15; not used with three or more players)",
    out_of_turn=False,
)
ROTATION = NumberedRules(
    id="rotation_pool",
    name="Rotation pool",
    aliases=("rotation",),
    source=f"{_HANDBOOK}, lines 1188-1206",
    lowest_first=True,
    call_shot=False,
)
HIGH_LOW_JACK = NumberedRules(
    id="high_low_jack",
    name="High-Low-Jack",
    aliases=("high_low_jack_game",),
    source=f"{_HANDBOOK}, lines 1280-1296",
    ranking_end="never",
    loser_by_rank=False,
    target=7,
    target_min=2,
    target_doc="game points to win (2 or more)",
)


# ================================================================== B.B.C. Co. pool

_COLOURS = ("red", "yellow")
_BBC_BALLS = ("red", "yellow", "black", CUE)


class BbcPoolState(NamedTuple):
    """B.B.C. Co. pool (immutable). ``groups[i]``: side i's colour or None; ``on`` the
    counts on the table (red, yellow, black); ``partner[i]``: side i's player due;
    ``after_failed``: the opening stroke follows a failed one (a free colour choice);
    ``winner``: side index or -1."""

    seats: Seating
    scores: tuple[int, int] = (0, 0)
    owed: tuple[int, int] = (0, 0)
    groups: tuple[str | None, str | None] = (None, None)
    reds: int = 7
    yellows: int = 7
    black: int = 1
    next: str = "break"
    after_failed: bool = False
    over: bool = False
    winner: int = -1
    events: int = 0
    forfeit_ball: bool = True

    @property
    def turn(self) -> int:
        """The index of the side at the table."""
        return self.seats.turn


class BBCPool(PocketGame):
    """The B.B.C. Co. pool: seven reds, seven yellows, a black; your seven, then the black.

    A stroke is read in the page's order: the colours (settled first), a failed opening,
    the black, the credits, the forfeit ball, the turn.
    """

    id = "bbc_co_pool"
    name = "The B.B.C. Co. pool"
    aliases = ("bbc_pool", "b_b_c_co_pool")
    players = "2 sides, singles or partners"
    source = f"{_HANDBOOK}, lines 2099-2127"
    stroke_fouls = _NUMBERED_FOULS
    participants = Participants(("sides",), min=2, max=2, per_side=(1, 2))
    display = (
        ("scores", "Balls"),
        ("at_table", "To play"),
        ("player", "Striker"),
        ("groups", "Colours"),
        ("on_table", "Balls on"),
    )

    def __init__(self) -> None:
        self.options = (
            Option(
                "sides",
                "list",
                ("home", "away"),
                "the two sides; the first breaks",
                item=Field("side", "str", "a side's name"),
            ),
            Option(
                "players",
                "object",
                None,
                "side -> its one or two players (partners take alternate visits); null "
                "for an unnamed player",
                item=Field(
                    "team",
                    "list",
                    "a side's players",
                    item=Field("player", "str", "a name or null", nullable=True),
                ),
                choices_from="sides",
            ),
            Option(
                "forfeit_ball",
                "bool",
                True,
                "a forfeit gives a ball of the striker's colour back to the table",
            ),
        )
        self._declare(
            (
                EventType(
                    "stroke",
                    "one stroke of the cue by the player at the table",
                    (
                        _pots(_BBC_BALLS),
                        _off(_BBC_BALLS),
                        _first_hit(
                            ("red", "yellow", "black"),
                            "the ball the cue ball struck first; null: it struck none",
                        ),
                        _cushion(
                            "opening stroke: two or more object balls reached a cushion; "
                            "any other: after the cue ball met an object ball, a ball "
                            "touched a cushion"
                        ),
                        _fouls(),
                        Field(
                            "group",
                            "str",
                            "the colour the striker takes (a stroke potting both colours, "
                            "or the opening after a failed one)",
                            choices=_COLOURS,
                        ),
                    ),
                ),
            )
        )
        self.state_doc = {
            "game": "the game id",
            "over": "the black has been potted",
            "winner": "the winning side (null until over)",
            "shared": "always false",
            "scores": "side -> balls of its colour credited",
            "at_table": "the side to play (null when over)",
            "events": "how many events have been applied",
            "player": "the player to strike (null when over or unnamed)",
            "next": "break, play, black (the side at the table has its seven) or none",
            "groups": "side -> its colour, red or yellow, or null while open",
            "owed": "side -> balls it owes the table",
            "on_table": "the balls on the table: red, yellow, black counts",
        }

    def initial(self, setup: Mapping[str, Any] | None) -> BbcPoolState:
        """Both sides with open colours, the first side to break."""
        values = validate_setup(self, setup)
        return BbcPoolState(
            seats=self.participants.seat(values), forfeit_ball=values["forfeit_ball"]
        )

    def apply(self, state: BbcPoolState, event: Mapping[str, Any]) -> BbcPoolState:
        """The state after one stroke (pure)."""
        self._validate(state, state.over, event)
        pots, potted, off = _moved(event)
        moved = potted + off
        for ball in ("black", CUE):
            if moved.count(ball) > 1:
                raise IllegalEvent(
                    "duplicate_ball", f"pots and off_table: the {ball} is listed twice"
                )
        if moved.count("red") > state.reds:
            raise IllegalEvent(
                "not_on_table", f"pots and off_table: only {state.reds} reds are on the table"
            )
        if moved.count("yellow") > state.yellows:
            raise IllegalEvent(
                "not_on_table",
                f"pots and off_table: only {state.yellows} yellows are on the table",
            )
        first_hit = event.get("first_hit", _MISSING)
        left = {"red": state.reds, "yellow": state.yellows, "black": state.black}
        if first_hit is not _MISSING and first_hit is not None and not left[first_hit]:
            raise IllegalEvent("not_on_table", f"first_hit: no {first_hit} is on the table")
        fouls = frozenset(event.get("fouls") or ())
        missed = "miss" in fouls or first_hit is None
        reds, yellows = potted.count("red"), potted.count("yellow")
        black = "black" in potted
        if missed and (reds or yellows or black):
            raise IllegalEvent("inconsistent", "pots: an object ball potted on a miss")
        if "miss" in fouls and first_hit is not _MISSING and first_hit is not None:
            raise IllegalEvent("inconsistent", "first_hit: a ball named on a miss")
        s = state.turn
        groups = state.groups
        group = event.get("group")
        opening = state.next == "break"
        if group is not None:
            if groups[0] is not None:
                raise IllegalEvent("group_not_allowed", "group: the colours are already taken")
            if not ((reds and yellows) or (opening and state.after_failed)):
                raise IllegalEvent(
                    "group_not_allowed",
                    "group: only on a stroke potting both colours, or the opening after a "
                    "failed one",
                )
        elif groups[0] is None and reds and yellows:
            raise IllegalEvent("group_required", "group: both colours potted, say which is taken")
        if groups[0] is None:
            mine = group or (
                "red" if reds and not yellows else "yellow" if yellows and not reds else None
            )
            if mine is not None:
                theirs = "yellow" if mine == "red" else "red"
                groups = (mine, theirs) if s == 0 else (theirs, mine)
        cue_lost = CUE in moved
        events = state.events + 1
        # failed opening: the turn passes, nothing else counts
        if opening and not (reds or yellows or black) and not event.get("cushion", True):
            return state._replace(
                groups=groups, events=events, after_failed=True, seats=state.seats.advance()
            )
        if black:
            had_seven = groups[s] is not None and state.scores[s] == 7
            clean = not cue_lost and not missed and fouls <= {"touch_after"}
            won = s if had_seven and clean else 1 - s
            return state._replace(
                groups=groups,
                events=events,
                after_failed=False,
                over=True,
                winner=won,
                black=0,
                next="none",
            )
        scores, owed = list(state.scores), list(state.owed)
        table = {"red": state.reds, "yellow": state.yellows}
        for ball in potted:
            if ball in table:
                owner = groups.index(ball)
                if owed[owner]:
                    owed[owner] -= 1
                else:
                    scores[owner] += 1
                    table[ball] -= 1
        if state.forfeit_ball and (
            missed
            or not _FORFEIT_CODES.isdisjoint(fouls)
            or (not opening and not (reds or yellows) and not event.get("cushion", True))
        ):
            colour = groups[s]
            if colour is not None and scores[s]:
                scores[s] -= 1
                table[colour] += 1
            else:
                owed[s] += 1
        own = groups[s]
        seats = state.seats
        if own is None or not potted.count(own) or cue_lost or fouls or missed:
            seats = seats.advance()
        side = seats.turn
        return state._replace(
            groups=groups,
            events=events,
            after_failed=False,
            scores=(scores[0], scores[1]),
            owed=(owed[0], owed[1]),
            reds=table["red"],
            yellows=table["yellow"],
            seats=seats,
            next="black" if groups[side] is not None and scores[side] == 7 else "play",
        )

    statistics = (
        Stat("balls_potted", "Balls potted", "sum", "reds and yellows he potted"),
        Stat("scratches", "Scratches", "sum", "strokes that lost the cue ball"),
        Stat("fouls", "Fouls", "sum", "strokes with a foul code or a miss"),
        Stat("blacks", "Blacks", "sum", "games he ended by potting the black"),
    )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """What each named player did at the table, from the log."""
        lines = _blank(self, self.initial(setup).seats.players)
        for ev, before, _ in _steps(self, setup, events):
            who = before.seats.player
            if who is None:
                continue
            line = lines[who]
            potted = [p["ball"] for p in ev.get("pots") or ()]
            line["balls_potted"] += sum(1 for b in potted if b in _COLOURS)
            if CUE in potted or CUE in (ev.get("off_table") or ()):
                line["scratches"] += 1
            if ev.get("fouls") or ("first_hit" in ev and ev["first_hit"] is None):
                line["fouls"] += 1
            if "black" in potted:
                line["blacks"] += 1
        return lines

    def view(self, state: BbcPoolState) -> dict[str, Any]:
        """The public state (the pocket scoring language "State")."""
        sides = state.seats.parties
        over = state.over
        return {
            "game": self.id,
            "over": over,
            "winner": sides[state.winner] if state.winner >= 0 else None,
            "shared": False,
            "scores": dict(zip(sides, state.scores, strict=True)),
            "at_table": None if over else sides[state.turn],
            "events": state.events,
            "player": None if over else state.seats.player,
            "next": "none" if over else state.next,
            "groups": dict(zip(sides, state.groups, strict=True)),
            "owed": dict(zip(sides, state.owed, strict=True)),
            "on_table": {"red": state.reds, "yellow": state.yellows, "black": state.black},
        }

    def dump(self, state: BbcPoolState) -> dict[str, Any]:
        """The internal state as JSON."""
        return _to_json(state)

    def load(self, data: Mapping[str, Any]) -> BbcPoolState:
        """The internal state back from :meth:`dump`."""
        return BbcPoolState(**_from_json(data))


# ======================================================================= golf pool

HOLES: tuple[str, ...] = (
    "side_left",
    "head_left",
    "head_right",
    "side_right",
    "foot_right",
    "foot_left",
)


class GolfPoolState(NamedTuple):
    """Golf pool (immutable). The parties (players, or sides) play each hole in turn;
    ``strokes`` is what the party at the table has taken on the hole; ``card[i]`` the
    finished holes' costs; ``hole`` 1-6 (7 when over)."""

    seats: Seating
    card: tuple[tuple[int, ...], ...]
    hole: int = 1
    strokes: int = 0
    events: int = 0


def next_partner(seats: Seating) -> Seating:
    """The party at the table keeps it, and its next member takes the next stroke (golf
    pool's partners alternate every stroke, H 2008). The core's :class:`Seating` rotates a
    side's members only when its visit ends (``advance``); this is the one rotation it
    lacks, built here until the core has it.

    >>> s = Seating.of(("X", "Y"), (("Ann", "Cat"), ("Bob",)), sides=True)
    >>> next_partner(s).player, next_partner(next_partner(s)).player
    ('Cat', 'Ann')
    """
    t = seats.turn
    size = len(seats.members[t])
    if size == 1:
        return seats
    return seats._replace(partner=_set(seats.partner, t, (seats.partner[t] + 1) % size))


class GolfPool(PocketGame):
    """Golf pool: the red into the six pockets in order, strokes counted, lowest wins."""

    id = "golf_pool"
    name = "Golf pool"
    aliases = ("golf",)
    players = "2 to 12 players, or 2 sides of partners"
    source = "1908 Brunswick handbook, lines 1992-2020"
    participants = Participants(("players", "sides"), min=2, max=12, per_side=(1, 2))
    display = (
        ("scores", "Strokes"),
        ("at_table", "To play"),
        ("player", "Striker"),
        ("hole", "Hole"),
        ("pocket", "Pocket"),
    )

    def __init__(self) -> None:
        self.options = (
            Option(
                "players",
                "union",
                None,
                'the players in the order of play (2 to 12; default ["P1", "P2"]). With '
                "`sides`, an object: side -> its one or two players (partners alternate "
                "strokes)",
                variants=(
                    Field(
                        "players",
                        "list",
                        "each for himself: the players in order",
                        item=Field("player", "str", "a player's name"),
                    ),
                    Field(
                        "by_side",
                        "object",
                        "partners: side -> its one or two players",
                        item=Field(
                            "names",
                            "list",
                            "a side's players, in the order they strike",
                            item=Field("player", "str", "a name, or null", nullable=True),
                        ),
                        choices_from="sides",
                    ),
                ),
            ),
            Option(
                "sides",
                "list",
                None,
                "play between two sides of partners (null: each for himself)",
                item=Field("side", "str", "a side's name"),
            ),
        )
        self._declare(
            (
                EventType(
                    "stroke",
                    "one stroke by the player at the table",
                    (
                        _pots(("white", "red"), "the pocket it dropped into (required)"),
                        _off(("white", "red")),
                        _cushion("the white or the red touched a cushion during the stroke"),
                    ),
                ),
            )
        )
        self.state_doc = {
            "game": "the game id",
            "over": "every player (side) has made the sixth hole",
            "winner": "the lowest total once over (null if shared)",
            "shared": "the lowest total is shared",
            "scores": "player (side) -> strokes so far, the hole being played included",
            "at_table": "the player (side) to play (null when over)",
            "events": "how many events have been applied",
            "player": "the player to strike (null when over or unnamed)",
            "next": "play or none",
            "hole": "the hole being played (1-6), null when over",
            "pocket": "its pocket, null when over",
            "card": "player (side) -> strokes for each finished hole",
        }

    def initial(self, setup: Mapping[str, Any] | None) -> GolfPoolState:
        """Everyone on the first hole, the first listed to play."""
        values = validate_setup(self, setup)
        seats = self.participants.seat(values)
        if seats.sides and len(seats.parties) != 2:
            raise InvalidEvent("bad_setup", "partners play as exactly 2 sides", -1)
        return GolfPoolState(seats=seats, card=((),) * len(seats.parties))

    def apply(self, state: GolfPoolState, event: Mapping[str, Any]) -> GolfPoolState:
        """The state after one stroke (pure)."""
        self._validate(state, state.hole > 6, event)
        pots, potted, off = _moved(event)
        _no_duplicates(potted + off, "pots and off_table")
        for p in pots:
            if p.get("pocket") is None:
                raise IllegalEvent("pocket_required", f"pots: the {p['ball']}'s pocket is required")
        target = HOLES[state.hole - 1]
        red = next((p for p in pots if p["ball"] == "red"), None)
        scratch = (
            "white" in potted
            or "white" in off
            or "red" in off
            or (
                red is not None
                and (red["pocket"] != target or (state.hole == 1 and not red.get("bank")))
            )
        )
        fault = scratch or not event.get("cushion", True)
        strokes = state.strokes + (4 if fault else 1)
        seats = state.seats
        t = seats.turn
        if red is None or fault:
            return state._replace(
                seats=next_partner(seats), strokes=strokes, events=state.events + 1
            )
        last = t == len(seats.parties) - 1
        return state._replace(
            seats=seats.advance(),
            card=_set(state.card, t, state.card[t] + (strokes,)),
            hole=state.hole + 1 if last else state.hole,
            strokes=0,
            events=state.events + 1,
        )

    statistics = (
        Stat("strokes", "Strokes", "sum", "strokes he played"),
        Stat("penalties", "Penalties", "sum", "his strokes that cost 3 more (scratch or foul)"),
        Stat("holes_made", "Holes made", "sum", "holes he made"),
        Stat("total", "Total", "sum", "his (side's) total when the game ended"),
    )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's strokes, penalty strokes and holes made, and his (side's)
        total, from the log."""
        start = self.initial(setup)
        lines = _blank(self, start.seats.players)
        state = start
        for _ev, before, after in _steps(self, setup, events):
            who = before.seats.player
            state = after
            if who is None:
                continue
            line = lines[who]
            line["strokes"] += 1
            t = before.seats.turn
            made = after.card[t] != before.card[t]
            cost = after.card[t][-1] - before.strokes if made else after.strokes - before.strokes
            line["penalties"] += cost == 4
            line["holes_made"] += made
        totals = self.view(state)["scores"]
        for i, party in enumerate(state.seats.parties):
            for name in state.seats.members[i]:
                if name:
                    lines[name]["total"] = totals[party]
        return lines

    def view(self, state: GolfPoolState) -> dict[str, Any]:
        """The public state (the pocket scoring language "State")."""
        over = state.hole > 6
        seats = state.seats
        parties = seats.parties
        totals = [sum(c) for c in state.card]
        if not over:
            totals[seats.turn] += state.strokes
        winner = None
        if over:
            best = min(totals)
            if totals.count(best) == 1:
                winner = parties[totals.index(best)]
        return {
            "game": self.id,
            "over": over,
            "winner": winner,
            "shared": over and winner is None,
            "scores": dict(zip(parties, totals, strict=True)),
            "at_table": None if over else seats.at_table,
            "events": state.events,
            "player": None if over else seats.player,
            "next": "none" if over else "play",
            "hole": None if over else state.hole,
            "pocket": None if over else HOLES[state.hole - 1],
            "card": {p: list(c) for p, c in zip(parties, state.card, strict=True)},
        }

    def dump(self, state: GolfPoolState) -> dict[str, Any]:
        """The internal state as JSON."""
        data = _to_json(state)
        data["card"] = [list(c) for c in state.card]
        return data

    def load(self, data: Mapping[str, Any]) -> GolfPoolState:
        """The internal state back from :meth:`dump`."""
        values = _from_json(data)
        values["card"] = tuple(tuple(c) for c in data["card"])
        return GolfPoolState(**values)


# ==================================================================== the life games


def _money(half_units: int) -> int | float:
    """Money kept in half-units (a divided pool may leave a half), shown as a number."""
    return half_units // 2 if half_units % 2 == 0 else half_units / 2


def _lives_setup(raw: Any, players: tuple[str, ...]) -> tuple[int, ...]:
    """Lives for everyone (a number) or per player (an object; a player left out has 3)."""
    if isinstance(raw, Mapping):
        return tuple(raw.get(p, 3) for p in players)
    return (raw,) * len(players)


class _Ledger:
    """One event's changes to lives and money (mutable while the event is worked out)."""

    __slots__ = ("bal", "killed", "lives", "pool", "price")

    def __init__(self, lives: tuple[int, ...], bal: tuple[int, ...], pool: int, price: int):
        self.lives = list(lives)
        self.bal = list(bal)
        self.pool = pool
        self.price = price
        self.killed: list[int] = []

    def life(self, who: int, to: int) -> None:
        """``who`` loses a life (if he has one), paid to player ``to`` (-1: the pool)."""
        if self.lives[who] <= 0:
            return
        self.lives[who] -= 1
        self.bal[who] -= self.price
        if to >= 0:
            self.bal[to] += self.price
        else:
            self.pool += self.price
        if self.lives[who] == 0:
            self.killed.append(who)

    def seat(self, seats: Seating, advance: bool) -> Seating:
        """The seating after the event: every player with no life left knocked out, then
        the turn passed on when ``advance`` or when the player at the table is out."""
        if self.killed or 0 in self.lives:
            for i, n in enumerate(self.lives):
                if n <= 0 and not seats.out[i]:
                    seats = seats.knock_out(i)
        if advance or seats.out[seats.turn]:
            seats = seats.advance()
        return seats


class LifePool(PocketGame):
    """What the life games share: the players, their lives, the stakes and the pool.

    Money is kept in half-units (a divided pool may leave a half). ``scores`` are each
    player's net balance; while the game runs ``scores`` plus ``pool`` sum to 0; at the end
    the pool goes to the winner (or is split by the two who divide). A player with no life
    left is knocked out of the seating and revived by a star or the privilege.
    """

    max_players = 12
    revive_types: ClassVar[frozenset[str]] = frozenset()
    statistics = (
        Stat("lives_lost", "Lives lost", "sum", "lives he lost"),
        Stat("lives_taken", "Lives taken", "sum", "lives he took from others"),
        Stat("balls_potted", "Balls potted", "sum", "object balls he potted"),
        Stat("revivals", "Revivals", "sum", "stars or privileges he took"),
        Stat("net", "Net", "sum", "his final balance (what he won or lost)"),
    )

    def _ledger_options(self) -> list[Field]:
        return [
            Option(
                "players",
                "list",
                ("P1", "P2"),
                f"the players in the order of play (2 to {self.max_players})",
                item=Field("player", "str", "a player's name"),
            ),
            Option(
                "lives",
                "union",
                3,
                "lives for everyone, or an object: player -> his own number (handicaps)",
                variants=(
                    Field("all", "int", "lives for everyone (1 or more)", minimum=1),
                    Field(
                        "each",
                        "object",
                        "player -> his lives (a player left out has 3)",
                        item=Field("lives", "int", "his lives (1 or more)", minimum=1),
                        choices_from="players",
                    ),
                ),
            ),
            Option(
                "stake",
                "int",
                1,
                "what each pays into the pool at the start, and for a star or the privilege",
                minimum=0,
            ),
            Option("life_price", "int", 1, "what a life lost costs (0 or more)", minimum=0),
        ]

    def _ledger_setup(
        self, setup: Mapping[str, Any] | None
    ) -> tuple[dict[str, Any], Seating, tuple[int, ...]]:
        values = validate_setup(self, setup)
        seats = self.participants.seat(values, values.get("first"))
        return values, seats, _lives_setup(values["lives"], seats.parties)

    def _finish(
        self,
        players: tuple[str, ...],
        lives: tuple[int, ...],
        bal: tuple[int, ...],
        pool: int,
        shared: bool,
    ) -> tuple[str | None, dict[str, int | float], int]:
        """(winner, scores, pool) as the view shows them."""
        alive = [i for i, n in enumerate(lives) if n > 0]
        out = list(bal)
        winner = None
        if len(alive) == 1:
            out[alive[0]] += pool
            winner = players[alive[0]]
            pool = 0
        elif shared:
            out[alive[0]] += pool // 2
            out[alive[1]] += pool - pool // 2
            pool = 0
        return winner, {p: _money(b) for p, b in zip(players, out, strict=True)}, pool

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Lives lost and taken, object balls potted, revivals and the net balance of each
        player, from the log (every life lost by a stroke's striker or a named player)."""
        state = self.initial(setup)
        players = state.players
        lines = {p: dict.fromkeys((s.name for s in self.statistics), 0.0) for p in players}
        for i, ev in enumerate(events):
            try:
                new = self.apply(state, ev)
            except RuleError as err:
                raise err.at(i) from None
            striker = players[state.turn]
            kind = ev.get("type")
            if kind in self.revive_types:
                lines[ev["player"]]["revivals"] += 1
            for j, p in enumerate(players):
                lost = state.lives[j] - new.lives[j]
                if lost > 0:
                    lines[p]["lives_lost"] += lost
                    if new.bal[j] < state.bal[j]:  # paid to someone: who gained
                        for k, q in enumerate(players):
                            if k != j and new.bal[k] > state.bal[k]:
                                lines[q]["lives_taken"] += lost
            if kind == "stroke":
                own = self._striker_ball(state)
                lines[striker]["balls_potted"] += sum(
                    1 for p in ev.get("pots") or () if p["ball"] != own
                )
            state = new
        final = self.view(state)["scores"]
        for p in players:
            lines[p]["net"] = final[p]
        return lines

    def _striker_ball(self, state: Any) -> str:
        """Hook: the ball the player at the table plays with."""
        raise NotImplementedError


class TwoBallPoolState(NamedTuple):
    """Two-ball pool (immutable). ``owners``: (red, white) player index or -1;
    ``plays_with``: the striker's ball or "" when a lead is due; money in half-units."""

    seats: Seating
    lives: tuple[int, ...]
    bal: tuple[int, ...]
    pool: int
    next: str = "lead"
    plays_with: str = ""
    owners: tuple[int, int] = (-1, -1)
    privilege_left: bool = True
    first_out: bool = False
    may_revive: tuple[int, ...] = ()
    events: int = 0
    stake: int = 2
    price: int = 2
    mode: str = "first"

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in the order of play."""
        return self.seats.parties

    @property
    def turn(self) -> int:
        """The index of the player at the table."""
        return self.seats.turn


_TWO_BALLS = ("red", "white")


class TwoBallPool(LifePool):
    """Two-ball pool (life game): a red and a white; pot the ball you play at and its
    owner loses a life; a pot brings a new lead; one privilege a game."""

    id = "two_ball_pool"
    name = "Two-ball pool (life game)"
    aliases = ("two_ball",)
    players = "2 to 16 players in rotation"
    source = "1908 Brunswick handbook, lines 1208-1252"
    max_players = 16
    participants = Participants(("players",), min=2, max=16)
    stroke_fouls = ("miss",)
    event_fouls = ("out_of_turn", "misdirect", "touch_running")
    revive_types = frozenset({"privilege"})
    display = (
        ("lives", "Lives"),
        ("at_table", "To play"),
        ("plays_with", "Plays with"),
        ("next", "Next"),
        ("pool", "Pool"),
    )

    def __init__(self) -> None:
        self.options = (
            *self._ledger_options(),
            Option(
                "privilege",
                "str",
                "first",
                "first: only the first man out may take it, at once; open: any man just "
                "put out, until taken; none: no privilege",
                choices=("first", "open", "none"),
            ),
        )
        self._declare(
            (
                EventType(
                    "stroke",
                    "the player at the table plays his ball at the other",
                    (
                        _pots(_TWO_BALLS),
                        _off(_TWO_BALLS),
                        _fouls(),
                        player_field(
                            "the player who took the hazard (may be the striker himself)",
                            name="hazard",
                            required=False,
                        ),
                    ),
                ),
                EventType("lead", "the player at the table leads the red"),
                _foul_event(pocketed=True),
                EventType(
                    "privilege",
                    "a player just put out takes the privilege: one more life for a stake",
                    (player_field("the player taking it"),),
                ),
            )
        )
        self.state_doc = {
            "game": "the game id",
            "over": "one player is left",
            "winner": "the last player in (null until over)",
            "shared": "always false",
            "scores": "player -> net balance (with the pool, sums to 0)",
            "at_table": "the player to play (null when over)",
            "events": "how many events have been applied",
            "next": "lead, play or none",
            "lives": "player -> lives left",
            "plays_with": "the striker's ball (red/white), null when a lead is due or over",
            "owners": "ball -> the player who last played or led it",
            "privilege_left": "the privilege can still be taken",
            "may_revive": "players who may take the privilege now",
            "pool": "the money in the pool",
        }

    def initial(self, setup: Mapping[str, Any] | None) -> TwoBallPoolState:
        """Every player pays his stake; the first listed leads."""
        values, seats, lives = self._ledger_setup(setup)
        n = len(seats.parties)
        stake, price = 2 * values["stake"], 2 * values["life_price"]
        mode = values["privilege"]
        return TwoBallPoolState(
            seats=seats,
            lives=lives,
            bal=(-stake,) * n,
            pool=stake * n,
            stake=stake,
            price=price,
            mode=mode,
            privilege_left=mode != "none",
        )

    def _striker_ball(self, state: TwoBallPoolState) -> str:
        return state.plays_with

    def apply(self, state: TwoBallPoolState, event: Mapping[str, Any]) -> TwoBallPoolState:
        """The state after one event (pure)."""
        over = state.seats.out.count(False) <= 1
        kind = self._validate(state, over, event)
        if kind == "privilege":
            who = state.seats.index_of(event["player"])
            if who not in state.may_revive:
                raise IllegalEvent(
                    "not_now", f"player: {event['player']} may not take the privilege now"
                )
            return state._replace(
                seats=state.seats.revive(who),
                lives=_set(state.lives, who, 1),
                bal=_add(state.bal, who, -state.stake),
                pool=state.pool + state.stake,
                privilege_left=False,
                may_revive=(),
                events=state.events + 1,
            )
        left = state.privilege_left and not (state.mode == "first" and state.first_out)
        if kind == "lead":
            if state.next != "lead":
                raise IllegalEvent("not_now", "lead: no lead is due")
            return state._replace(
                owners=(state.turn, -1),
                seats=state.seats.advance(),
                plays_with="white",
                next="play",
                may_revive=(),
                privilege_left=left,
                events=state.events + 1,
            )
        ledger = _Ledger(state.lives, state.bal, state.pool, state.price)
        if kind == "stroke":
            nxt, plays_with, owners, advance = self._stroke(state, event, ledger)
        else:
            nxt, plays_with, owners, advance = self._foul(state, event, ledger)
        may: tuple[int, ...] = ()
        first_out = state.first_out
        for k in ledger.killed:
            if left and (state.mode == "open" or not first_out):
                may = (k,)
            first_out = True
        return state._replace(
            seats=ledger.seat(state.seats, advance),
            lives=tuple(ledger.lives),
            bal=tuple(ledger.bal),
            pool=ledger.pool,
            next=nxt,
            plays_with=plays_with,
            owners=owners,
            may_revive=may,
            privilege_left=left,
            first_out=first_out,
            events=state.events + 1,
        )

    def _stroke(
        self, state: TwoBallPoolState, event: Mapping[str, Any], ledger: _Ledger
    ) -> tuple[str, str, tuple[int, int], bool]:
        """(next, the ball the next striker plays with, the owners, whether the turn
        passes) after a stroke; lives lost go on the ledger."""
        if state.next != "play":
            raise IllegalEvent("not_now", "stroke: a lead is due, not a stroke")
        pots, potted, off = _moved(event)
        _no_duplicates(potted + off, "pots and off_table")
        own = state.plays_with
        obj = "red" if own == "white" else "white"
        fouls = frozenset(event.get("fouls") or ())
        if "miss" in fouls and obj in potted:
            raise IllegalEvent("inconsistent", "pots: the object ball potted on a miss")
        s = state.turn
        owner = state.owners[_TWO_BALLS.index(obj)]
        hazard = event.get("hazard")
        d = s
        if hazard is not None:
            d = state.seats.index_of(hazard)
            if state.lives[d] <= 0:
                raise IllegalEvent("not_now", f"hazard: {hazard} is out")
            if d == owner:
                raise IllegalEvent("not_now", f"hazard: {hazard} owns the object ball")
        in_before = state.seats.out.count(False)
        took_opponent = False
        if own in potted or own in off or "miss" in fouls:
            ledger.life(d, owner)
        elif obj in potted:
            took_opponent = ledger.lives[owner] > 0
            ledger.life(owner, d)
        elif hazard is not None:
            ledger.life(d, owner)
        if potted or off:
            stays = in_before == 2 and took_opponent and d == s
            return "lead", "", (-1, -1), not stays
        owners = (s, owner) if own == "red" else (owner, s)
        return "play", obj, owners, True

    def _foul(
        self, state: TwoBallPoolState, event: Mapping[str, Any], ledger: _Ledger
    ) -> tuple[str, str, tuple[int, int], bool]:
        """As :meth:`_stroke`, for a ``foul`` event."""
        who = state.seats.index_of(event["player"])
        code = event["code"]
        pocketed = event.get("pocketed") or False
        if pocketed and code != "out_of_turn":
            raise InvalidEvent("bad_value", "pocketed: only with out_of_turn")
        if state.lives[who] <= 0:
            raise IllegalEvent("not_now", f"player: {event['player']} is out")
        if code == "out_of_turn":
            if who == state.turn:
                raise IllegalEvent("not_now", f"player: {event['player']} is at the table")
            if pocketed:
                if state.next != "play":
                    raise IllegalEvent("not_now", "pocketed: no object ball while a lead is due")
                obj = "red" if state.plays_with == "white" else "white"
                owner = state.owners[_TWO_BALLS.index(obj)]
                ledger.life(owner, -1 if owner == who else who)
                return "lead", "", (-1, -1), True
            ledger.life(who, -1)
        elif code == "misdirect":
            ledger.life(who, -1)
            return "lead", "", (-1, -1), False
        else:
            ledger.life(who, -1)
        return state.next, state.plays_with, state.owners, False

    def view(self, state: TwoBallPoolState) -> dict[str, Any]:
        """The public state (the pocket scoring language "State")."""
        players = state.players
        over = state.seats.out.count(False) <= 1
        winner, scores, pool = self._finish(players, state.lives, state.bal, state.pool, False)
        return {
            "game": self.id,
            "over": over,
            "winner": winner,
            "shared": False,
            "scores": scores,
            "at_table": None if over else players[state.turn],
            "events": state.events,
            "next": "none" if over else state.next,
            "lives": dict(zip(players, state.lives, strict=True)),
            "plays_with": None if over or not state.plays_with else state.plays_with,
            "owners": {
                b: None if i < 0 else players[i]
                for b, i in zip(_TWO_BALLS, state.owners, strict=True)
            },
            "privilege_left": state.privilege_left,
            "may_revive": [players[i] for i in sorted(state.may_revive)],
            "pool": _money(pool),
        }

    def dump(self, state: TwoBallPoolState) -> dict[str, Any]:
        """The internal state as JSON."""
        return _to_json(state)

    def load(self, data: Mapping[str, Any]) -> TwoBallPoolState:
        """The internal state back from :meth:`dump`."""
        return TwoBallPoolState(**_from_json(data))


COLOUR_BALLS: tuple[str, ...] = (
    "white",
    "red",
    "yellow",
    "green",
    "brown",
    "blue",
    "pink",
    "spot_white",
    "spot_red",
    "spot_yellow",
    "spot_green",
    "spot_brown",
)
_COLOUR_INDEX = {b: i for i, b in enumerate(COLOUR_BALLS)}


class ColourBallPoolState(NamedTuple):
    """Colour-ball life pool (immutable). Player i owns ball i; ``table`` is a bit set
    of the balls on the table; ``on`` the ball to play on (-1: the nearest, named by the
    referee). ``killed``: the players put out by the last event (who may star);
    ``starred``: a star was taken after that kill. Money in half-units."""

    seats: Seating
    lives: tuple[int, ...]
    start: tuple[int, ...]
    bal: tuple[int, ...]
    pool: int
    on: int = 0
    table: int = 1
    stars_left: int = 0
    may_revive: tuple[int, ...] = ()
    killed: tuple[int, ...] = ()
    starred: bool = False
    events: int = 0
    stake: int = 2
    price: int = 2
    division: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in board order."""
        return self.seats.parties

    @property
    def turn(self) -> int:
        """The index of the player (and ball) at the table."""
        return self.seats.turn


_CB_FOULS = ("miss", "feet", "touched_ball", "touch_after", "simultaneous", "wrong_ball")
_CB_FAULTS = frozenset({"miss", "simultaneous", "wrong_ball"})
_CB_FOUL_STROKES = frozenset({"touched_ball", "feet"})


class ColourBallPool(LifePool):
    """Colour-ball (life) pool: each player owns a coloured ball; pot the ball you play on
    to take its owner's life; stars; division."""

    id = "color_ball_life_pool"
    name = "Color-ball (life) pool"
    aliases = ("colour_ball_pool", "color_ball_pool", "life_pool")
    players = "2 to 12 players in board order"
    source = "1908 Brunswick handbook, lines 1298-1401"
    participants = Participants(("players",), min=2, max=12)
    stroke_fouls = _CB_FOULS
    event_fouls = ("out_of_turn", "obstruction")
    revive_types = frozenset({"star"})
    choice_set_doc = {"balls": "the balls in use: the first N of the board, N the players"}
    display = (
        ("lives", "Lives"),
        ("at_table", "To play"),
        ("on", "Plays on"),
        ("stars_left", "Stars"),
        ("pool", "Pool"),
    )

    def __init__(self) -> None:
        self.options = (
            *self._ledger_options(),
            Option(
                "division",
                "bool",
                True,
                "a game begun with four or more ends shared when two are left with equal lives",
            ),
        )
        balls = ("balls",)
        self._declare(
            (
                EventType(
                    "stroke",
                    "the player at the table plays his ball",
                    (
                        _pots(balls),
                        _off(balls),
                        _first_hit(
                            balls,
                            "the object ball his ball struck first; null: none; left out: "
                            "the ball played on",
                        ),
                        _fouls(),
                        _ball_field(
                            "on",
                            "the ball he played on (required when the state names none: "
                            "the nearest ball)",
                            balls,
                        ),
                    ),
                ),
                _foul_event(),
                EventType(
                    "star",
                    "a player just put out stars: lives again for another stake",
                    (player_field("the player who stars"),),
                ),
            )
        )
        self.state_doc = {
            "game": "the game id",
            "over": "one player is left, or two divide",
            "winner": "the last player in (null until over, or when two divide)",
            "shared": "two players divided the pool",
            "scores": "player -> net balance (with the pool, sums to 0)",
            "at_table": "the player to play (null when over)",
            "events": "how many events have been applied",
            "next": "play or none",
            "lives": "player -> lives left",
            "on": "the ball to play on; null: the nearest ball (the referee names it)",
            "on_table": "the balls on the table, in board order",
            "stars_left": "stars that can still be taken",
            "may_revive": "players who may star now",
            "pool": "the money in the pool",
        }

    def choice_sets(self, state: ColourBallPoolState) -> dict[str, list[Any]]:
        """The seating's sets, and ``balls``: the first N of the board."""
        sets = super().choice_sets(state)
        sets["balls"] = list(COLOUR_BALLS[: len(state.seats.parties)])
        return sets

    def initial(self, setup: Mapping[str, Any] | None) -> ColourBallPoolState:
        """The white spotted, the red to play on it; every player pays his stake (kept
        for a plain setup, :func:`~rules.validate.kept_by_setup`: the state is immutable)."""
        return kept_by_setup(self, setup, self._initial)

    def _initial(self, setup: Mapping[str, Any] | None) -> ColourBallPoolState:
        values, seats, lives = self._ledger_setup(setup)
        n = len(seats.parties)
        stake, price = 2 * values["stake"], 2 * values["life_price"]
        return ColourBallPoolState(
            seats=seats.pass_to(1),
            lives=lives,
            start=lives,
            bal=(-stake,) * n,
            pool=stake * n,
            on=0,
            table=1,
            stars_left=0 if n == 2 else 1 if n < 8 else 2,
            stake=stake,
            price=price,
            division=values["division"] and n >= 4,
        )

    def _striker_ball(self, state: ColourBallPoolState) -> str:
        return COLOUR_BALLS[state.turn]

    def _over(self, state: ColourBallPoolState) -> tuple[bool, bool]:
        lives = state.lives
        alive = len(lives) - lives.count(0)
        if alive <= 1:
            return True, False
        if alive == 2 and state.division:
            a, b = (n for n in lives if n > 0)
            return a == b, a == b
        return False, False

    def apply(self, state: ColourBallPoolState, event: Mapping[str, Any]) -> ColourBallPoolState:
        """The state after one event (pure)."""
        over, _ = self._over(state)
        kind = self._validate(state, over, event)
        if kind == "star":
            return self._star(state, event)
        stars = state.stars_left if (not state.may_revive or state.starred) else 0
        ledger = _Ledger(state.lives, state.bal, state.pool, state.price)
        if kind == "stroke":
            table, on, advance = self._stroke(state, event, ledger)
        else:
            table, on, advance = self._foul(state, event, ledger)
        lives = tuple(ledger.lives)
        if ledger.killed or 0 in lives:
            for i, n in enumerate(lives):
                if n <= 0:
                    table &= ~(1 << i)  # a player put out has his ball taken off the table
        killed = tuple(ledger.killed)
        seats = ledger.seat(state.seats, advance)
        new = state._replace(
            seats=seats,
            lives=lives,
            bal=tuple(ledger.bal),
            pool=ledger.pool,
            table=table,
            on=on,
            stars_left=stars,
            killed=killed,
            may_revive=self._may_star(stars, seats, lives, killed),
            starred=False,
            events=state.events + 1,
        )
        return self._settle(new)

    def _may_star(
        self, stars: int, seats: Seating, lives: tuple[int, ...], killed: tuple[int, ...]
    ) -> tuple[int, ...]:
        if stars <= 0 or not killed:
            return ()
        alive = seats.out.count(False)
        return tuple(k for k in sorted(killed) if lives[k] == 0 and alive >= 2)

    def _star(self, state: ColourBallPoolState, event: Mapping[str, Any]) -> ColourBallPoolState:
        who = state.seats.index_of(event["player"])
        if who not in state.may_revive:
            raise IllegalEvent("not_now", f"player: {event['player']} may not star now")
        fewest = min(n for n in state.lives if n > 0)
        new = state._replace(
            seats=state.seats.revive(who),
            lives=_set(state.lives, who, min(fewest, state.start[who])),
            bal=_add(state.bal, who, -state.stake),
            pool=state.pool + state.stake,
            stars_left=state.stars_left - 1,
            starred=True,
            events=state.events + 1,
        )
        may = self._may_star(new.stars_left, new.seats, new.lives, state.killed)
        return self._settle(new._replace(may_revive=may))

    def _stroke(
        self, state: ColourBallPoolState, event: Mapping[str, Any], ledger: _Ledger
    ) -> tuple[int, int, bool]:
        """(the table, the ball on, whether the turn passes) after a stroke."""
        s = state.turn
        pots, potted, off = _moved(event)
        _no_duplicates(potted + off, "pots and off_table")
        moved = [_COLOUR_INDEX[b] for b in potted + off]
        table = state.table | 1 << s  # his ball comes onto the table as he strikes
        for i, b in enumerate(moved):
            if not table >> b & 1:
                where = f"pots[{i}]" if i < len(potted) else f"off_table[{i - len(potted)}]"
                raise IllegalEvent(
                    "not_on_table", f"{where}.ball: the {COLOUR_BALLS[b]} is not on the table"
                )
        first_raw = event.get("first_hit", _MISSING)
        first = -1
        if first_raw is not _MISSING and first_raw is not None:
            first = _COLOUR_INDEX[first_raw]
            if first == s:
                raise InvalidEvent("bad_value", "first_hit: that is the striker's own ball")
            if not table >> first & 1:
                raise IllegalEvent(
                    "not_on_table", f"first_hit: the {first_raw} is not on the table"
                )
        on_raw = event.get("on")
        on_given = -1
        if on_raw is not None:
            on_given = _COLOUR_INDEX[on_raw]
            if on_given == s:
                raise InvalidEvent("bad_value", "on: that is the striker's own ball")
            if not table >> on_given & 1:
                raise IllegalEvent("not_on_table", f"on: the {on_raw} is not on the table")
        fouls = frozenset(event.get("fouls") or ())
        objects = [b for b in moved[: len(potted)] if b != s]
        missed = "miss" in fouls or first_raw is None
        if missed and objects:
            raise IllegalEvent("inconsistent", "pots: an object ball potted on a miss")
        if "miss" in fouls and first >= 0:
            raise IllegalEvent("inconsistent", "first_hit: a ball named on a miss")
        if state.on < 0:
            if on_given < 0:
                raise IllegalEvent("on_required", "on: name the nearest ball he played on")
            on = on_given
        else:
            if on_given >= 0 and on_given != state.on:
                raise IllegalEvent("on_mismatch", f"on: he plays on the {COLOUR_BALLS[state.on]}")
            on = state.on
        for b in moved:
            table &= ~(1 << b)
        # 1. a fault: he loses a life to the owner of the ball on; the next plays on the
        #    nearest ball
        if s in moved or missed or not _CB_FAULTS.isdisjoint(fouls) or (first >= 0 and first != on):
            ledger.life(s, on)
            return table, -1, True
        # 2. a foul stroke: no life; the next plays on his ball
        if not _CB_FOUL_STROKES.isdisjoint(fouls):
            return table, s, True
        # 3. a fair stroke: each object ball potted takes its owner's life
        for b in objects:
            ledger.life(b, s)
        if objects and "touch_after" not in fouls and table & ~(1 << s):
            return table, -1, False  # he plays on, at the nearest ball
        return table, s, True

    def _foul(
        self, state: ColourBallPoolState, event: Mapping[str, Any], ledger: _Ledger
    ) -> tuple[int, int, bool]:
        """(the table, the ball on, whether the turn passes) after a ``foul`` event."""
        who = state.seats.index_of(event["player"])
        if state.lives[who] <= 0:
            raise IllegalEvent("not_now", f"player: {event['player']} is out")
        if event["code"] == "out_of_turn":
            if who == state.turn:
                raise IllegalEvent("not_now", f"player: {event['player']} is at the table")
            ledger.life(who, -1)
            return state.table, state.on, False
        # obstruction: out at once, no payment, no star; at the table: the next plays on
        # the nearest ball
        ledger.lives[who] = 0
        if who == state.turn:
            return state.table, -1, True
        return state.table, state.on, False

    def _settle(self, state: ColourBallPoolState) -> ColourBallPoolState:
        """Settle ``on`` for the player at the table (the pocket scoring language)."""
        seats = state.seats
        if seats.out.count(False) <= 2 and self._over(state)[0]:
            return state
        p = seats.turn
        table = state.table
        on = state.on
        if on >= 0 and on != p and table >> on & 1:
            return state
        objects = table & ~(1 << p)
        if objects == 0:  # nothing to play on: the ball of the player before him is spotted
            n = len(seats.parties)
            prev = next(j for j in ((p - k) % n for k in range(1, n + 1)) if not seats.out[j])
            return state._replace(table=table | 1 << prev, on=prev)
        if objects & (objects - 1) == 0:
            return state._replace(on=objects.bit_length() - 1)
        return state._replace(on=-1)

    def view(self, state: ColourBallPoolState) -> dict[str, Any]:
        """The public state (the pocket scoring language "State")."""
        players = state.players
        over, shared = self._over(state)
        winner, scores, pool = self._finish(players, state.lives, state.bal, state.pool, shared)
        n = len(players)
        return {
            "game": self.id,
            "over": over,
            "winner": winner,
            "shared": shared,
            "scores": scores,
            "at_table": None if over else players[state.turn],
            "events": state.events,
            "next": "none" if over else "play",
            "lives": dict(zip(players, state.lives, strict=True)),
            "on": None if over or state.on < 0 else COLOUR_BALLS[state.on],
            "on_table": [COLOUR_BALLS[i] for i in range(n) if state.table >> i & 1],
            "stars_left": state.stars_left,
            "may_revive": [players[i] for i in state.may_revive],
            "pool": _money(pool),
        }

    def dump(self, state: ColourBallPoolState) -> dict[str, Any]:
        """The internal state as JSON."""
        return _to_json(state)

    def load(self, data: Mapping[str, Any]) -> ColourBallPoolState:
        """The internal state back from :meth:`dump`."""
        return ColourBallPoolState(**_from_json(data))


# ============================================================= the games, registered

CONTINUOUS_POOL = ContinuousPool(CONTINUOUS)
FIFTEEN_BALL_POOL = NumberedPool(FIFTEEN_BALL)
AMERICAN_PYRAMID_POOL = PyramidPool(AMERICAN_PYRAMID)
ROTATION_POOL = RotationPool(ROTATION)
HIGH_LOW_JACK_GAME = HighLowJack(HIGH_LOW_JACK)
BBC_CO_POOL = BBCPool()
GOLF_POOL = GolfPool()
TWO_BALL_POOL = TwoBallPool()
COLOR_BALL_LIFE_POOL = ColourBallPool()

#: Every game of the family, in the page's order.
GAMES: tuple[PocketGame, ...] = (
    CONTINUOUS_POOL,
    FIFTEEN_BALL_POOL,
    AMERICAN_PYRAMID_POOL,
    ROTATION_POOL,
    HIGH_LOW_JACK_GAME,
    BBC_CO_POOL,
    TWO_BALL_POOL,
    COLOR_BALL_LIFE_POOL,
    GOLF_POOL,
)

register_all(GAMES)
