"""The carom family: two players, innings, a carom counts when the table's rule is met.

The carom games of specs/carom.md share one stroke rule and differ in a handful of
parameters: the object balls, the ball the opening stroke must hit first, the cushions the
cue ball must meet before completing the carom, what a carom is worth, the restricted
spaces, and whether a frozen ball may be spotted. A game is a frozen :class:`CaromRules`
config run by :class:`CaromGame`. Only three-cushion carom is built and registered here;
the others of carom.md's table are more configs (bank-shot and progressive carom would add
a parameter for where the cushions count and what a carom is worth).

``three_cushion_carom`` (alias ``three_cushion``): the three-cushion carrom game of the
1908 Brunswick handbook (seeds/billiards-handbook-1908.txt 823-833, which inherits the
cushion carrom game 807-821, the three-ball game 541-593 and the general foul rules
485-539; games.md §4.10). Two whites and a red. A carom counts 1 only when the cue ball
has touched a cushion at least three distinct times before completing it (cushions before
the first ball and between the two balls both count; "distinct times" are contacts, so the
same rail twice counts twice: games.md §4.10.11). A miss of both balls counts 1 for the
opponent. The striker plays on while he counts.

Read from ``contacts``, the ordered list of what the cue ball touched (object balls and
``"cushion"``), each stroke is worked out as carom.md orders it:

1. the opponent scores 1 on a miss (no object ball touched) or ``touched_own_ball``;
2. no count on a foul code, a miss, or an opening stroke (the first, and the first after
   ``spot_balls``) whose first ball is not the red: a plain no count, not a miss;
3. otherwise 1 when the cue ball met both object balls with at least 3 cushions before the
   entry that completed the carom;
4. the crotch: three counts in succession on balls crotched in one corner; the third
   stands and ends the inning unless it drove a ball out of the crotch;
5. the striker scores, and plays on only if the stroke counted.
The first score to reach ``target`` wins; ``time_up`` ends the game on the scores as they
stand (level: shared) and ``concede`` gives it to the other player.

Decisions where the book is silent or the spec leaves a choice:

* Target: the book sets none. The default is 50 (ours), not carom.md's 100 for the other
  carom games: a three-cushion count is far harder than a straight-rail carom (good
  players need several innings a point), so 100 up would take a league evening several
  times over; 50 keeps a frame to an evening. A league sets its own with ``target`` (null:
  no target, the game ends on ``time_up`` or ``concede``).
* The crotch rule applies. The three-cushion text says the game differs from cushion
  carroms only in its four rules, and the cushion carrom text brings in the three-ball
  rules "as to balls, spots, ... foul strokes, penalty for miss, playing for safety,
  etc.", of which the crotch rule (H 585) is one; carom.md reads cushion carom with the
  crotch (3 counts, the third stands), and three-cushion is that row with 3 cushions. In
  practice it rarely bites, since every count needs three cushions: the referee enters
  ``space`` only when both object balls lie in one corner square.
* Rule 4 (cue ball resting against a cushion): the referee does not enter that cushion
  when it was played directly into (carom.md), so the three cushions must be others.
* Rule 3 (frozen balls): ``spot_balls`` spots them as at the opening (the next stroke must
  hit the red first); playing directly at the ball the cue ball is frozen to is the foul
  ``frozen``.
* A foul gives the opponent nothing unless it is a miss or ``touched_own_ball`` (1, never
  more than 1 a stroke). A count stands when the cue ball then leaves the table (H 563).
* The non-striker's option to refuse a third successive miss (H 537) and the discount
  game are left to the referee, as carom.md says.

>>> from rules import replay
>>> game = THREE_CUSHION_CAROM
>>> s = replay(game, {"players": ["Ann", "Bob"]}, [
...     {"type": "stroke", "contacts": ["cushion", "cushion", "red", "cushion", "white"]},
...     {"type": "stroke", "contacts": ["red", "cushion", "cushion", "white"]},
...     {"type": "stroke", "contacts": ["cushion"]},
... ])
>>> game.view(s)["scores"], game.view(s)["at_table"]
({'Ann': 2, 'Bob': 0}, 'Ann')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
    "CAROM_FOULS",
    "CROTCH",
    "THREE_CUSHION",
    "THREE_CUSHION_CAROM",
    "CaromGame",
    "CaromRules",
    "CaromState",
    "SpaceKind",
]

CUSHION = "cushion"
CUE = "cue"
OPENING = "opening"
STROKE = "stroke"
NONE = "none"

_NO_COUNT = "no_count"

#: The foul codes of every carom game: the general foul rules (H 485-539) and the
#: three-ball rules (H 571-575). Each means no count and the inning ends;
#: ``touched_own_ball`` also gives the opponent 1.
CAROM_FOULS: tuple[Foul, ...] = (
    Foul(
        "push",
        _NO_COUNT,
        "a push shot: the cue still on the cue ball when it reached a ball (G2)",
        common=True,
    ),
    Foul(
        "double_hit",
        _NO_COUNT,
        "he touched the cue ball more than once, or struck it twice (G7)",
        common=True,
    ),
    Foul(
        "touched_ball",
        _NO_COUNT,
        "he touched or disturbed a ball other than by the "
        "stroke, before or after it (G7, three-ball r6)",
        common=True,
    ),
    Foul(
        "touched_own_ball",
        "no_count_opponent_1",
        "he touched his own ball before "
        "playing it: the opponent scores 1, as for a miss (three-ball r6)",
        common=True,
    ),
    Foul(
        "frozen",
        _NO_COUNT,
        "he played directly at the ball his own ball was frozen to (G10)",
        common=True,
    ),
    Foul("not_tip", _NO_COUNT, "the stroke was not made with the tip of the cue (G1)"),
    Foul(
        "in_hand",
        _NO_COUNT,
        "in hand, he played from the wrong place or at a ball inside "
        "the string, after the opponent's warning (G3)",
    ),
    Foul("feet", _NO_COUNT, "he had no foot on the floor (G4)"),
    Foul("touch_moving", _NO_COUNT, "he touched a ball in motion (G5)"),
    Foul(
        "wrong_ball",
        _NO_COUNT,
        "he played with the wrong ball, claimed before his next stroke (G6)",
    ),
    Foul(
        "assisted",
        _NO_COUNT,
        "marks on the cloth, practice of the lag, or help from another person (G11)",
    ),
    Foul(
        "lifted_ball",
        _NO_COUNT,
        "he lifted a ball in play (G12): enter it on the stroke that cannot count",
    ),
)


@dataclass(frozen=True)
class SpaceKind:
    """A kind of restricted space: its ``names``, the default ``limit`` of counts in
    succession on balls lying in one such space, and whether the count reaching the
    limit is ``void`` (balk lines) or stands and ends the inning (the crotch)."""

    kind: str
    names: tuple[str, ...]
    limit: int
    void: bool
    doc: str


#: The crotch: the 4½-inch square in each corner (H 585), three counts, the third stands.
CROTCH = SpaceKind(
    kind="crotch",
    names=("crotch_1", "crotch_2", "crotch_3", "crotch_4"),
    limit=3,
    void=False,
    doc="the 4½-inch square in each corner (H 585): both object balls' centres inside it",
)


@dataclass(frozen=True)
class CaromRules:
    """One carom game as parameters (specs/carom.md, "the carom games" table).

    ``object_balls`` are named from the striker's side (``white`` is the opponent's
    ball). ``opening_ball`` must be hit first on an opening stroke for it to count.
    ``cushions``: cushion contacts needed before the carom is completed. ``value``: what
    a carom counts. ``spaces``: the restricted spaces. ``spot_balls``: a frozen cue ball
    may have the balls spotted. ``target``: the default target (None: none).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    object_balls: tuple[str, ...] = ("white", "red")
    opening_ball: str = "red"
    cushions: int = 0
    value: int = 1
    spaces: tuple[SpaceKind, ...] = (CROTCH,)
    spot_balls: bool = True
    target: int | None = 100


#: The three-cushion carrom game (H 823-833).
THREE_CUSHION = CaromRules(
    id="three_cushion_carom",
    name="Three-cushion carom",
    aliases=("three_cushion",),
    source="seeds/billiards-handbook-1908.txt 823-833 (with 807-821, 541-593, 485-539); "
    "games.md §4.10",
    cushions=3,
    target=50,
)


class CaromState(NamedTuple):
    """The internal state of a carom game (immutable; built with one constructor call).

    ``seats`` is the :class:`~rules.core.Seating` (its ``visits`` are the innings); ``run``
    is what the player at the table has scored in this inning; ``next`` is
    ``"opening"``, ``"stroke"`` or ``"none"``; ``space`` where the object balls lie (a
    space name or None) and ``space_counts`` the counts made in succession on them in this
    inning; ``limits`` the setup's space limits by kind.
    """

    seats: Seating
    scores: tuple[int, ...]
    target: int | None
    limits: tuple[tuple[str, int], ...]
    run: int = 0
    next: str = OPENING
    space: str | None = None
    space_counts: int = 0
    over: bool = False
    winner: str | None = None
    shared: bool = False
    events: int = 0

    @property
    def players(self) -> tuple[str, ...]:
        """The two players, in seating order."""
        return self.seats.parties

    @property
    def turn(self) -> int:
        """The index of the player at the table."""
        return self.seats.turn

    @property
    def innings(self) -> tuple[int, ...]:
        """The innings each player has begun."""
        return self.seats.visits


@dataclass(frozen=True)
class Count:
    """What a stroke is worth: ``value`` to the striker, ``to_opponent`` (0 or 1), and
    whether the inning ``continues``; ``space`` and ``space_counts`` after it."""

    value: int
    to_opponent: int
    continues: bool
    space: str | None
    space_counts: int


class CaromGame(Game[CaromState]):
    """A carom game of specs/carom.md, run from a :class:`CaromRules` config."""

    family = "carom"
    players = "2"
    participants = Participants(("players",), min=2, max=2)
    statistics = (
        Stat("points", "Points", "sum", "points scored (a miss by the opponent included)"),
        Stat("innings", "Innings", "sum", "innings begun"),
        Stat(
            "average",
            "Average",
            "ratio",
            "points an inning: the sum of points over the sum of innings",
            "points",
            "innings",
        ),
        Stat("high_run", "High run", "max", "the most points scored in one inning"),
        Stat("misses", "Misses", "sum", "strokes whose cue ball touched no object ball"),
    )
    display = (
        ("scores", "Score"),
        ("at_table", "At the table"),
        ("run", "Run"),
        ("innings", "Innings"),
        ("target", "Target"),
        ("next", "Next"),
    )

    def __init__(self, rules: CaromRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.fouls = CAROM_FOULS
        self._space_kind = {name: k for k in rules.spaces for name in k.names}
        self.options = self._options()
        self.events = self._events()
        self._types = frozenset(e.type for e in self.events)
        self.state_doc = {
            "game": "the game id",
            "over": "the game has ended",
            "winner": "the winning player, or null (not over, or shared)",
            "shared": "true only after a time_up with the top scores level",
            "scores": "player -> points",
            "at_table": "the player to strike next; null when over",
            "run": "the points the player at the table has scored in this inning",
            "innings": "player -> innings he has begun (the leader has 1 before the first event)",
            "next": '"opening" (the next stroke must hit the red first to count), '
            '"stroke", or "none" when over',
            "space": "where the object balls lie, as last reported: a space name or null",
            "space_counts": "counts made in succession in this inning on the balls in that space",
            "events": "how many events have been applied",
            "target": "the points that win the game, or null (no target)",
        }

    # -- vocabulary ------------------------------------------------------------

    def _options(self) -> tuple[Field, ...]:
        rules = self.rules
        options = [
            Option(
                "players",
                "list",
                ("P1", "P2"),
                "the two players (distinct, non-empty names)",
                item=Field("player", "str", "a player's name"),
            ),
            Option(
                "leads",
                "str",
                None,
                "the player who plays the opening stroke (default: the first player)",
                choices_from="players",
            ),
            Option(
                "target",
                "int",
                rules.target,
                "the points that win the game, at least 1; null: no target (the game ends "
                "only on time_up or concede)",
                nullable=True,
            ),
        ]
        if rules.spaces:
            options.append(
                Option(
                    "space_limits",
                    "object",
                    None,
                    "space kind -> counts allowed in succession on balls lying in one such "
                    "space (at least 1); kinds not given keep their default",
                    fields=tuple(
                        Field(k.kind, "int", f"{k.doc}; default {k.limit}", default=k.limit)
                        for k in rules.spaces
                    ),
                )
            )
        return tuple(options)

    def _events(self) -> tuple[EventType, ...]:
        rules = self.rules
        balls = rules.object_balls
        fields = [
            Field(
                "contacts",
                "list",
                'in order, what the cue ball touched: object balls and "cushion" (a ball '
                "may appear more than once). A cushion the cue ball rested against and was "
                "played directly into is not entered",
                default=(),
                item=Field(
                    "contact", "str", "an object ball or a cushion", choices=(*balls, CUSHION)
                ),
            ),
            Field(
                "fouls",
                "list",
                "foul codes claimed in time (a code given twice counts once)",
                default=(),
                item=Field(
                    "foul", "str", "a foul code", choices=tuple(f.code for f in CAROM_FOULS)
                ),
            ),
            Field(
                "off_table",
                "list",
                'balls forced off the table (object balls and "cue"), each at most once; '
                "a count stands even if the cue ball leaves the table",
                default=(),
                item=Field("ball", "str", "a ball forced off", choices=(*balls, CUE)),
            ),
        ]
        if rules.spaces:
            names = tuple(n for k in rules.spaces for n in k.names)
            fields += [
                Field(
                    "space",
                    "str",
                    "where the object balls rest after this stroke: a space name, or null "
                    "when they are not both inside one restricted space",
                    choices=names,
                ),
                Field(
                    "returned",
                    "bool",
                    "an object ball was driven out of the space the balls were in before "
                    "the stroke and came back into that same space",
                    default=False,
                ),
            ]
        events = [
            EventType(STROKE, "one stroke of the cue by the player at the table", tuple(fields))
        ]
        if rules.spot_balls:
            events.append(
                EventType(
                    "spot_balls",
                    "the striker's ball is frozen to an object ball and he has the balls spotted "
                    f"as at the opening: he stays at the table and must hit the {rules.opening_ball} "
                    "first",
                )
            )
        events += [
            EventType(
                "time_up",
                "play stops, by agreement or at the end of the agreed time: "
                "the game ends on the scores as they stand",
            ),
            EventType(
                "concede",
                "a player refuses to go on: the game ends and the other player wins",
                (player_field("the player who concedes"),),
            ),
        ]
        return tuple(events)

    # -- setup -----------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any] | None) -> CaromState:
        """The game before the opening stroke.

        >>> s = THREE_CUSHION_CAROM.initial({"players": ["Ann", "Bob"], "leads": "Bob"})
        >>> s.turn, s.innings, s.target
        (1, (0, 1), 50)
        >>> THREE_CUSHION_CAROM.initial({"target": 0})
        Traceback (most recent call last):
        ...
        rules.core.InvalidEvent: bad_setup: target must be at least 1, or null (event -1)
        """
        raw = {} if setup is None else setup
        no_target = isinstance(raw, Mapping) and "target" in raw and raw["target"] is None
        if no_target:
            raw = {k: v for k, v in raw.items() if k != "target"}
        values = validate_setup(self, raw)
        seats = self.participants.seat(values, values["leads"])
        target = None if no_target else values["target"]
        if target is not None and target < 1:
            raise InvalidEvent("bad_setup", "target must be at least 1, or null", -1)
        given = values.get("space_limits") or {}
        limits = []
        for kind in self.rules.spaces:
            limit = given.get(kind.kind)
            limit = kind.limit if limit is None else limit
            if limit < 1:
                raise InvalidEvent("bad_setup", f"space_limits.{kind.kind} must be at least 1", -1)
            limits.append((kind.kind, limit))
        return CaromState(seats, (0, 0), target, tuple(limits))

    # -- events ----------------------------------------------------------------

    def apply(self, state: CaromState, event: Mapping[str, Any]) -> CaromState:
        """The state after one event; checks run in carom.md's order (the end of the game
        first, then the vocabulary, then what cannot have happened).

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.apply(g.initial({}), {"type": "stroke", "contacts": []})
        >>> g.view(s)["scores"], g.view(s)["at_table"]
        ({'P1': 0, 'P2': 1}, 'P2')
        >>> g.apply(s, {"type": "stroke", "off_table": ["red"]})
        Traceback (most recent call last):
        ...
        rules.core.IllegalEvent: impossible: the red was forced off, but the cue ball \
touched no object ball
        """
        if state.over:
            raise IllegalEvent("game_over", "the game is over")
        validate_event(self, event, state)
        kind = event["type"]
        if kind == STROKE:
            return self._stroke(state, event)
        if kind == "spot_balls":
            return state._replace(next=OPENING, space=None, space_counts=0, events=state.events + 1)
        if kind == "time_up":
            best = max(state.scores)
            leaders = [p for p, s in zip(state.players, state.scores, strict=True) if s == best]
            return self._finish(
                state, leaders[0] if len(leaders) == 1 else None, shared=len(leaders) > 1
            )
        # concede (the player is one of the two: checked against the setup above)
        other = state.players[1 - state.players.index(event["player"])]
        return self._finish(state, other)

    def _stroke(self, state: CaromState, event: Mapping[str, Any]) -> CaromState:
        contacts = tuple(event.get("contacts") or ())
        fouls = frozenset(event.get("fouls") or ())
        off_table = tuple(event.get("off_table") or ())
        space = event.get("space")
        returned = bool(event.get("returned"))
        if off_table:
            touched = False
            for c in contacts:
                if c != CUSHION:
                    touched = True
                    break
            for ball in off_table:
                if off_table.count(ball) > 1:
                    raise IllegalEvent("impossible", f"the {ball} is listed twice in off_table")
            for ball in off_table:
                if ball != CUE and not touched:
                    raise IllegalEvent(
                        "impossible",
                        f"the {ball} was forced off, but the cue ball touched no object ball",
                    )
        if returned and (state.space is None or space != state.space):
            raise IllegalEvent(
                "impossible", "returned: the balls were not in that space before the stroke"
            )
        count = self.count(state, contacts, fouls, space, returned)
        seats = state.seats
        striker = seats.turn
        scores = state.scores
        if count.value or count.to_opponent:
            s0, s1 = scores
            if striker == 0:
                scores = (s0 + count.value, s1 + count.to_opponent)
            else:
                scores = (s0 + count.to_opponent, s1 + count.value)
        events = state.events + 1
        target = state.target
        if target is not None:
            for i, score in enumerate(scores):
                if score >= target:
                    return CaromState(
                        seats,
                        scores,
                        target,
                        state.limits,
                        0,
                        NONE,
                        count.space,
                        0,
                        True,
                        seats.parties[i],
                        False,
                        events,
                    )
        if count.continues:
            run = state.run + count.value
        else:
            run = 0
            seats = seats.advance()
        return CaromState(
            seats,
            scores,
            target,
            state.limits,
            run,
            STROKE,
            count.space,
            count.space_counts,
            False,
            None,
            False,
            events,
        )

    def count(
        self,
        state: CaromState,
        contacts: Sequence[str],
        fouls: frozenset[str] = frozenset(),
        space: str | None = None,
        returned: bool = False,
    ) -> Count:
        """What a stroke is worth (specs/carom.md steps 1-6), before the target check.

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.initial({})
        >>> g.count(s, ["cushion", "cushion", "cushion", "red", "white"]).value
        1
        >>> g.count(s, ["cushion", "cushion", "cushion", "white", "red"]).value  # opening
        0
        """
        rules = self.rules
        touched = [c for c in contacts if c != CUSHION]
        miss = not touched
        to_opponent = 1 if miss or "touched_own_ball" in fouls else 0
        opening_fault = state.next == OPENING and (not touched or touched[0] != rules.opening_ball)
        value = 0
        if not (fouls or miss or opening_fault):
            seen: set[str] = set()
            for i, contact in enumerate(contacts):
                if contact == CUSHION:
                    continue
                seen.add(contact)
                if len(seen) == 2:
                    if list(contacts[:i]).count(CUSHION) >= rules.cushions:
                        value = rules.value
                    break
        continues = value > 0
        k = 0
        driven_out = True
        if value > 0 and state.space is not None:
            k = state.space_counts + 1
            driven_out = space != state.space or returned
            kind = self._space_kind[state.space]
            if not driven_out and k >= dict(state.limits)[kind.kind]:
                continues = False
                if kind.void:
                    value = 0
        return Count(
            value=value,
            to_opponent=to_opponent,
            continues=continues,
            space=space,
            space_counts=k if continues and not driven_out else 0,
        )

    def _finish(self, state: CaromState, winner: str | None, shared: bool = False) -> CaromState:
        return state._replace(
            over=True,
            winner=winner,
            shared=shared,
            run=0,
            next=NONE,
            space_counts=0,
            events=state.events + 1,
        )

    # -- output ----------------------------------------------------------------

    def view(self, state: CaromState) -> dict[str, Any]:
        """The public state (specs/carom.md "State", plus ``target``)."""
        return {
            "game": self.id,
            "over": state.over,
            "winner": state.winner,
            "shared": state.shared,
            "scores": dict(zip(state.players, state.scores, strict=True)),
            "at_table": None if state.over else state.players[state.turn],
            "run": state.run,
            "innings": dict(zip(state.players, state.innings, strict=True)),
            "next": state.next,
            "space": state.space,
            "space_counts": state.space_counts,
            "events": state.events,
            "target": state.target,
        }

    def dump(self, state: CaromState) -> dict[str, Any]:
        """The internal state as JSON.

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.initial({"players": ["Ann", "Bob"], "target": None})
        >>> g.load(g.dump(s)) == s
        True
        """
        return {
            "seats": state.seats.dump(),
            "players": list(state.players),
            "scores": list(state.scores),
            "innings": list(state.innings),
            "turn": state.turn,
            "target": state.target,
            "limits": {kind: limit for kind, limit in state.limits},
            "run": state.run,
            "next": state.next,
            "space": state.space,
            "space_counts": state.space_counts,
            "over": state.over,
            "winner": state.winner,
            "shared": state.shared,
            "events": state.events,
        }

    def load(self, data: Mapping[str, Any]) -> CaromState:
        """The internal state back from :meth:`dump`."""
        if "seats" in data:
            seats = Seating.load(data["seats"])
        else:  # a dump from before the seating (players, turn, innings)
            seats = Seating.of(tuple(data["players"]))._replace(
                turn=data["turn"], visits=tuple(data["innings"])
            )
        return CaromState(
            seats,
            tuple(data["scores"]),
            data["target"],
            tuple(data["limits"].items()),
            data["run"],
            data["next"],
            data["space"],
            data["space_counts"],
            data["over"],
            data["winner"],
            data["shared"],
            data["events"],
        )

    # -- seating, results, statistics ---------------------------------------------

    def seating(self, state: CaromState) -> Seating:
        """The players' seating (its visits are the innings)."""
        return state.seats

    def outcome(self, state: CaromState) -> Outcome:
        """The result: the winner (the other player the loser), or a shared game.

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.apply(g.initial({"players": ["Ann", "Bob"]}), {"type": "concede", "player": "Ann"})
        >>> g.outcome(s)
        Outcome(over=True, winner='Bob', loser='Ann', shared=False, scores=mappingproxy({'Ann': 0, 'Bob': 0}))
        """
        winner = state.winner
        loser = None
        if winner is not None:
            loser = state.players[1 - state.players.index(winner)]
        return Outcome(
            state.over,
            winner,
            loser,
            state.shared,
            dict(zip(state.players, state.scores, strict=True)),
        )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each player's points, innings, average, high run and misses for one game.

        >>> g = THREE_CUSHION_CAROM
        >>> g.player_statistics({"players": ["Ann", "Bob"]}, [
        ...     {"type": "stroke", "contacts": ["cushion"] * 3 + ["red", "white"]},
        ...     {"type": "stroke", "contacts": []}])["Ann"]
        {'points': 1, 'innings': 1, 'average': 1.0, 'high_run': 1, 'misses': 1}
        """
        state = self.initial(setup)
        n = len(state.players)
        high = [0] * n
        misses = [0] * n
        for i, event in enumerate(events):
            try:
                after = self.apply(state, event)
            except RuleError as err:
                raise err.at(i) from None
            striker = state.turn
            if event.get("type") == STROKE:
                if not any(c != CUSHION for c in event.get("contacts") or ()):
                    misses[striker] += 1
                gained = after.scores[striker] - state.scores[striker]
                run = state.run + gained
                if run > high[striker]:
                    high[striker] = run
            state = after
        out: dict[str, dict[str, float]] = {}
        for i, name in enumerate(state.players):
            points, innings = state.scores[i], state.innings[i]
            out[name] = {
                "points": points,
                "innings": innings,
                "average": points / innings if innings else 0,
                "high_run": high[i],
                "misses": misses[i],
            }
        return out


#: Three-cushion carom, registered as ``three_cushion_carom`` (alias ``three_cushion``).
THREE_CUSHION_CAROM = register(CaromGame(THREE_CUSHION))
