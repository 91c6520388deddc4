"""The carom family: fifteen billiard games of the 1908 handbook, scored stroke by stroke.

the carom scoring language is the contract; the Brunswick handbook of 1908 (cited as **H** with line
numbers) is the source. Every game is played in innings: the player at the table strikes
while his strokes *continue the inning*, the engine adds each stroke's value at once, and the
first score to reach ``target`` wins (``time_up`` ends the game on the scores as they stand,
``concede`` gives it to the other player).

A game is a frozen :class:`CaromRules` (its parameters: object balls, the ball an opening
stroke must hit first, cushions, pins, restricted spaces, pockets, what the setup offers)
run by a :class:`CaromGame`. The games differ in how a stroke is valued, and only there:

* the eleven **carom games** share one stroke rule, :meth:`CaromGame.score_stroke`
  (carom.md "the carom games", steps 1-6): three-ball, the three balk-line games, the space
  game, progressive, four-ball, cushion, three-cushion and bank-shot carom, and the Little
  Corporal, differing only in parameters;
* the four **additive games** each override that one hook with their own value table:
  :class:`EnglishBilliards`, :class:`SpanishBilliards`, :class:`AmericanFourBallPocket` and
  :class:`RussianPool`.

What every hook reads from a stroke (its first ball, a miss, a carom and where it was
completed, the cushions before it) is worked out once by :func:`read_stroke`.

Built on the core pieces: the players sit in a :class:`~rules.seating.Seating` (Russian pool
seats two or more; its ``visits`` are the innings begun, and the stroke that ends the game
passes the table to no one), ``concede`` names its ``player`` with ``player_field`` and
``leads`` is checked with ``choices_from``; each game declares its ``participants``, its
``statistics`` (points, innings, average, high run, misses), its ``display`` and its
:class:`~rules.core.Outcome`. Refusals follow carom.md's order (``unknown_field`` and
``missing_field`` before ``bad_value``, ``impossible`` before ``not_now``).
:func:`plausible_event` and :func:`simulate` play seeded legal games (the property tests,
the bench, ``rules.simulate.simulate_game``). Each game's scoring language, with the points
where the page and the book differ (the space game's allowance, four-ball's spotting), is
in ``docs/games/<id>.md``.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.core import Game, Outcome, Stat
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import validate_event, validate_setup
from rules.vocabulary import (
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
    "CAROM_FOULS",
    "CROTCH",
    "GAMES",
    "THREE_CUSHION",
    "THREE_CUSHION_CAROM",
    "AmericanFourBallPocket",
    "CaromGame",
    "CaromRules",
    "CaromState",
    "EnglishBilliards",
    "RussianPool",
    "Score",
    "SpaceKind",
    "SpanishBilliards",
    "CaromStroke",
    "read_stroke",
]

CUSHION = "cushion"
CUE = "cue"
LAY_OFF = "lay_off"
OPENING = "opening"
STROKE = "stroke"
NONE = "none"

POCKETS = ("top_left", "top_right", "middle_left", "middle_right", "baulk_left", "baulk_right")

_NO_COUNT = "no_count"
_NO_FOULS: frozenset[str] = frozenset()

#: The foul codes of every game of the family: the general foul rules (H 485-539) and the
#: three-ball rules (H 571-575). In the carom games each means no count and the inning
#: ends; ``touched_own_ball`` also gives the opponent 1.
CAROM_FOULS: tuple[Foul, ...] = (
    Foul(
        "push",
        _NO_COUNT,
        "a push shot: the cue still on the cue ball when it reached a ball (H 490)",
        common=True,
    ),
    Foul(
        "double_hit",
        _NO_COUNT,
        "he touched the cue ball more than once, or struck it twice (H 509)",
        common=True,
    ),
    Foul(
        "touched_ball",
        _NO_COUNT,
        "he touched or disturbed a ball other than by the "
        "stroke, before or after it (H 509, H 573)",
        common=True,
    ),
    Foul(
        "touched_own_ball",
        "no_count_opponent_1",
        "he touched his own ball before playing it (H 573): in the carom games the opponent "
        "scores 1, as for a miss; in the Spanish game it costs what a miss costs",
        common=True,
    ),
    Foul(
        "frozen",
        _NO_COUNT,
        "he played directly at the ball his own ball was frozen to (H 523)",
        common=True,
    ),
    Foul("not_tip", _NO_COUNT, "the stroke was not made with the tip of the cue (H 489)"),
    Foul(
        "in_hand",
        _NO_COUNT,
        "in hand, he played from the wrong place or at a ball he may not play at, "
        "after the opponent's warning (H 494, H 785)",
    ),
    Foul("feet", _NO_COUNT, "he had no foot on the floor (H 498)"),
    Foul("touch_moving", _NO_COUNT, "he touched a ball in motion (H 499)"),
    Foul(
        "wrong_ball",
        _NO_COUNT,
        "he played with the wrong ball, claimed before his next stroke (H 503)",
    ),
    Foul(
        "assisted",
        _NO_COUNT,
        "marks on the cloth, practice of the lag, or help from another person (H 529)",
    ),
    Foul(
        "lifted_ball",
        _NO_COUNT,
        "he lifted a ball in play (H 531): enter it on the stroke that cannot count",
    ),
)

_RED_OFF_TABLE = Foul(
    "red_off_table",
    _NO_COUNT,
    "a stroke made while a red was off the table and its spot was free (H 781)",
)
_ENGLISH_FOULS = (
    Foul(
        "balk_contact",
        "no_score_miss",
        "in hand, he hit a ball in balk without first leaving balk: the non-striker may "
        "score a miss (H 911)",
    ),
    Foul(
        "not_out_of_balk",
        "miss",
        "in hand, his ball did not leave balk: a miss to the non-striker (H 915)",
    ),
    Foul("push_twice", "no_score", "he pushed more than once in one push stroke (H 917)"),
)
_RUSSIAN_FOULS = (
    Foul("balls_moving", "no_score", "he played before the balls stopped (H 2169)"),
    Foul(
        "obstruction",
        "forfeit_18",
        "wilful obstruction, interference with the balls, or refusing the referee's "
        "decision: 18 off his score (H 2177)",
    ),
)


@dataclass(frozen=True)
class SpaceKind:
    """A kind of restricted space: its ``names``, the default ``limit`` of counts in
    succession on balls lying in one such space, and whether the count reaching the
    limit is ``void`` (balk lines, the space game) or stands and ends the inning (the
    crotch)."""

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


def _balk(limit: int) -> tuple[SpaceKind, SpaceKind]:
    return (
        SpaceKind(
            "balk",
            ("corner_1", "corner_2", "corner_3", "corner_4", "side_1", "side_2", "end_1", "end_2"),
            limit,
            True,
            "the eight balk spaces between the balk lines and the cushions (H 603)",
        ),
        SpaceKind(
            "anchor",
            tuple(f"anchor_{i}" for i in range(1, 9)),
            limit,
            True,
            "the 3½ by 7 inch box where a balk line meets a cushion (H 625)",
        ),
    )


_SPACE_GAME = (
    SpaceKind(
        "corner",
        ("corner_1", "corner_2", "corner_3", "corner_4"),
        3,
        True,
        "the four corner spaces (H 761)",
    ),
    SpaceKind(
        "side",
        ("side_1", "side_2"),
        2,
        True,
        "the strips inside the lines parallel to the side cushions (H 761)",
    ),
)


@dataclass(frozen=True)
class CaromRules:
    """One game of the family as parameters (the carom scoring language, the first table and "the
    carom games" table).

    ``object_balls`` are named from the striker's side (``white`` is the opponent's
    ball). ``opening_ball``: the ball an opening stroke must hit first to count (None: no
    opening rule). ``opening_penalty``: missing it on the opening stroke gives the
    opponent 1 (four-ball, H 779). ``cushions``: cushion contacts the carom needs,
    counted ``before`` its ``"completion"`` or the ``"first_ball"``. ``progressive``: a
    carom counts its cushions (H 769). ``pins``: the pins on the table; ``pin_value`` what
    the ``middle`` pin alone counts. ``spaces``: the restricted spaces. ``spot_balls``: a
    frozen cue ball may have the balls spotted. ``lay_off``: the game opens with a lay-off
    (four-ball). ``pockets``: the stroke has ``pots``; ``pocket_required``: each pot names
    its pocket. ``max_players``: None for any number from 2. ``target``: the default
    target (None: none).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    summary: str
    object_balls: tuple[str, ...] = ("white", "red")
    opening_ball: str | None = "red"
    opening_penalty: bool = False
    cushions: int = 0
    before: str = "completion"
    progressive: bool = False
    pins: tuple[str, ...] = ()
    pin_value: int = 5
    spaces: tuple[SpaceKind, ...] = (CROTCH,)
    spot_balls: bool = True
    lay_off: bool = False
    pockets: bool = False
    pocket_required: bool = False
    nominate: tuple[str, ...] = ()
    choice: bool = False
    fouls: tuple[Foul, ...] = ()
    max_players: int | None = 2
    target: int | None = 100


class CaromState(NamedTuple):
    """The internal state of a game of the family (immutable, constant size per player).

    ``seats`` is the :class:`~rules.seating.Seating` (the players in rotation; its ``visits``
    are the innings begun); ``run`` is what the player at the table has scored in this
    inning; ``next`` is ``"lay_off"``, ``"opening"``, ``"stroke"`` or ``"none"``;
    ``space`` where the object balls lie (a space name or None) and ``space_counts`` the
    counts made in succession on them in this inning; ``limits`` the setup's space limits
    by kind; ``options`` the game's other setup options that change scoring.
    """

    seats: Seating
    scores: tuple[int, ...]
    target: int | None
    limits: tuple[tuple[str, int], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
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
        """The players, in the order they strike."""
        return self.seats.parties

    @property
    def turn(self) -> int:
        """The index of the player at the table."""
        return self.seats.turn

    @property
    def innings(self) -> tuple[int, ...]:
        """The innings each player has begun."""
        return self.seats.visits


class CaromStroke(NamedTuple):
    """One ``stroke`` as the hooks read it (carom.md "Terms", all read from ``contacts``).

    ``touched``: the object balls in ``contacts``, in order; ``first``: the first of them
    (None on a miss); ``completed``: the index in ``contacts`` of the entry that brought
    the different object balls touched to two (None: no carom); ``cushions_before``: the
    ``"cushion"`` entries before it; ``cushions_first``: the ``"cushion"`` entries before
    the first ball. ``pots`` pairs each ball potted with its pocket (or None).
    """

    contacts: tuple[str, ...]
    touched: tuple[str, ...]
    first: str | None
    completed: int | None
    cushions_before: int
    cushions_first: int
    fouls: frozenset[str]
    off_table: tuple[str, ...]
    pots: tuple[tuple[str, str | None], ...]
    space: str | None
    returned: bool
    pins: tuple[str, ...]
    pins_before_ball: tuple[str, ...]
    nominate: str | None
    choice: str | None

    @property
    def miss(self) -> bool:
        """The cue ball touched no object ball."""
        return self.first is None

    @property
    def carom(self) -> bool:
        """The cue ball touched at least two different object balls."""
        return self.completed is not None

    @property
    def potted(self) -> tuple[str, ...]:
        """The balls potted (object balls and ``"cue"``)."""
        return tuple(ball for ball, _ in self.pots)


def read_stroke(event: Mapping[str, Any]) -> CaromStroke:
    """What a (validated) ``stroke`` event says, with the terms every hook reads.

    >>> st = read_stroke({"type": "stroke", "contacts": ["red", "cushion", "red", "cushion",
    ...                                                  "cushion", "white", "cushion"]})
    >>> st.first, st.completed, st.cushions_before, st.cushions_first, st.miss
    ('red', 5, 3, 0, False)
    >>> read_stroke({"type": "stroke", "contacts": ["cushion", "cushion"]}).miss
    True
    """
    contacts = tuple(event.get("contacts") or ())
    touched: list[str] = []
    first: str | None = None
    completed: int | None = None
    cushions = 0
    cushions_first = 0
    for i, contact in enumerate(contacts):
        if contact == CUSHION:
            cushions += 1
            continue
        touched.append(contact)
        if first is None:
            first = contact
            cushions_first = cushions
        elif completed is None and contact != first:
            completed = i
            cushions_before = cushions
    if completed is None:
        cushions_before = 0
    get = event.get
    raw_pots = get("pots")
    fouls = get("fouls")
    return CaromStroke(
        contacts,
        tuple(touched),
        first,
        completed,
        cushions_before,
        cushions_first,
        frozenset(fouls) if fouls else _NO_FOULS,
        tuple(get("off_table") or ()),
        tuple((p["ball"], p.get("pocket")) for p in raw_pots) if raw_pots else (),
        get("space"),
        bool(get("returned")),
        tuple(get("pins") or ()),
        tuple(get("pins_before_ball") or ()),
        get("nominate"),
        get("choice"),
    )


class Score(NamedTuple):
    """What a stroke is worth: the change to the ``striker``'s score, the points the
    ``opponent`` scores (two-player games), whether the inning ``continues``, and
    ``space`` and ``space_counts`` after it."""

    striker: int
    opponent: int
    continues: bool
    space: str | None = None
    space_counts: int = 0


_STATE_DOC = {
    "game": "the game id",
    "over": "the game has ended",
    "winner": "the winning player, or null (not over, or shared)",
    "shared": "true only after a time_up with the top scores level",
    "scores": "player -> points",
    "at_table": "the player to strike next; null when over",
    "run": "the points the player at the table has scored in this inning",
    "innings": "player -> innings he has begun (the leader has 1 before the first event)",
    "next": '"lay_off" (four-ball, before the first event), "opening" (the next stroke is '
    'an opening stroke), "stroke", or "none" when over',
    "space": "where the object balls lie, as last reported: a space name or null",
    "space_counts": "counts made in succession in this inning on the balls in that space",
    "events": "how many events have been applied",
    "target": "the points that win the game, or null (no target)",
}


class CaromGame(Game[CaromState]):
    """A game of the carom scoring language, run from a :class:`CaromRules` config. The stroke's value
    is the one hook, :meth:`score_stroke`: this class gives the carom games' rule, and the
    additive games override it (:meth:`check_stroke` adds their own refusals)."""

    family = "carom"
    best_stat = "high_run"
    statistics = (
        Stat("points", "Points", "sum", "points scored (the opponent's misses included)"),
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

    def __init__(self, rules: CaromRules) -> None:
        self.rules = rules
        self.id = rules.id
        self.name = rules.name
        self.aliases = rules.aliases
        self.players = "2" if rules.max_players == 2 else "2 or more, in rotation"
        self.participants = Participants(("players",), min=2, max=rules.max_players)
        self.display = self._display()
        self.fouls = CAROM_FOULS + rules.fouls
        self._space_kind = {name: k for k in rules.spaces for name in k.names}
        self._object_balls = frozenset(rules.object_balls)
        self.options = self._options()
        self.events = self._events()
        self._fields = {e.type: frozenset(f.name for f in e.fields) | {"type"} for e in self.events}
        self.state_doc = dict(_STATE_DOC)
        if not rules.spaces:
            self.state_doc["space"] = "always null: this game has no restricted spaces"
            self.state_doc["space_counts"] = "always 0: this game has no restricted spaces"

    # -- vocabulary ------------------------------------------------------------

    def _display(self) -> tuple[tuple[str, str], ...]:
        shown = [
            ("scores", "Score"),
            ("at_table", "At the table"),
            ("run", "Run"),
            ("innings", "Innings"),
            ("target", "Target"),
            ("next", "Next"),
        ]
        if self.rules.spaces:
            shown += [("space", "Balls in"), ("space_counts", "Counts in that space")]
        return tuple(shown)

    def extra_options(self) -> tuple[Field, ...]:
        """Setup options of this game beyond the family's (none by default)."""
        return ()

    def _options(self) -> tuple[Field, ...]:
        rules = self.rules
        many = rules.max_players is None
        options = [
            Option(
                "players",
                "list",
                ("P1", "P2"),
                "the players (distinct, non-empty names): "
                + ("2 or more, who strike in this order" if many else "exactly 2"),
                item=Field("player", "str", "a player's name"),
            ),
            Option(
                "leads",
                "str",
                None,
                "the player who plays the first stroke"
                + (" (the lay-off)" if rules.lay_off else "")
                + " (default: the first player)",
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
        return (*options, *self.extra_options())

    def _stroke_fields(self) -> list[Field]:
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
                item=Field("foul", "str", "a foul code", choices=tuple(f.code for f in self.fouls)),
            ),
            Field(
                "off_table",
                "list",
                'balls forced off the table (object balls and "cue"), each at most once',
                default=(),
                item=Field("ball", "str", "a ball forced off", choices=(*balls, CUE)),
            ),
        ]
        if rules.pockets:
            fields.append(
                Field(
                    "pots",
                    "list",
                    'the balls pocketed (object balls, and "cue" for the striker\'s ball), '
                    "each at most once",
                    default=(),
                    item=Field(
                        "pot",
                        "object",
                        "one ball pocketed",
                        fields=(
                            Field(
                                "ball",
                                "str",
                                "the ball pocketed",
                                required=True,
                                choices=(*balls, CUE),
                            ),
                            Field(
                                "pocket",
                                "str",
                                "the pocket it went into"
                                + ("" if rules.pocket_required else " (optional)"),
                                required=rules.pocket_required,
                                choices=POCKETS,
                            ),
                        ),
                    ),
                )
            )
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
        if rules.pins:
            fields += [
                Field(
                    "pins",
                    "list",
                    "pins knocked down (by any ball) after the cue ball had touched a ball; "
                    "a pin leaning against a cushion is down",
                    default=(),
                    item=Field("pin", "str", "a pin", choices=rules.pins),
                ),
                Field(
                    "pins_before_ball",
                    "list",
                    "pins the cue ball knocked down before it touched any ball",
                    default=(),
                    item=Field("pin", "str", "a pin", choices=rules.pins),
                ),
            ]
        if rules.nominate:
            fields.append(
                Field(
                    "nominate",
                    "str",
                    'the ball aimed at, or "cannon" (H 2155)',
                    required=True,
                    choices=rules.nominate,
                )
            )
        if rules.choice:
            fields.append(
                Field(
                    "choice",
                    "str",
                    'the non-striker\'s choice where the book gives him one: "miss" (score '
                    'the miss) or "foul" (take the foul)',
                    default="miss",
                    choices=("miss", "foul"),
                )
            )
        return fields

    def _events(self) -> tuple[EventType, ...]:
        rules = self.rules
        events = [
            EventType(
                STROKE,
                "one stroke of the cue by the player at the table",
                tuple(self._stroke_fields()),
            )
        ]
        if rules.lay_off:
            events.append(
                EventType(
                    LAY_OFF,
                    "the leader's opening stroke: he lays his ball up the table (H 777); the "
                    "first event of the game, at no other time",
                )
            )
        if rules.spot_balls:
            events.append(
                EventType(
                    "spot_balls",
                    "the striker's ball is frozen to an object ball and he has the balls spotted "
                    "as at the opening: he stays at the table and plays an opening stroke",
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
                "a player refuses to go on: the game ends and the other player wins"
                + (" (two players only)" if rules.max_players is None else ""),
                (player_field("the player who concedes"),),
            ),
        ]
        return tuple(events)

    # -- setup -----------------------------------------------------------------

    def setup_options(self, values: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """The setup's other options that change scoring, kept in the state."""
        return ()

    def initial(self, setup: Mapping[str, Any] | None) -> CaromState:
        """The game before the first event.

        >>> s = THREE_CUSHION_CAROM.initial({"players": ["Ann", "Bob"], "leads": "Bob"})
        >>> s.turn, s.innings, s.target
        (1, (0, 1), 50)
        >>> THREE_CUSHION_CAROM.initial({"target": 0})
        Traceback (most recent call last):
        ...
        rules.vocabulary.InvalidEvent: bad_setup: target must be at least 1, or null (event -1)
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
        first = OPENING if self.rules.opening_ball or self.rules.nominate else STROKE
        return CaromState(
            seats=seats,
            scores=(0,) * len(seats.parties),
            target=target,
            limits=tuple(limits),
            options=self.setup_options(values),
            next=LAY_OFF if self.rules.lay_off else first,
        )

    # -- events ----------------------------------------------------------------

    def check_shape(self, event: Any, state: CaromState) -> None:
        """The vocabulary checks in carom.md's order: ``unknown_type``, then
        ``unknown_field`` (any event, and inside each pot), then ``missing_field``, then
        :func:`validate_event` for the values (``bad_value``)."""
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            validate_event(self, event, state)  # raises unknown_type
        kind = event["type"]
        names = self._fields.get(kind)
        if names is None:
            validate_event(self, event, state)  # raises unknown_type
            return
        for key in event:
            if key not in names:
                raise InvalidEvent("unknown_field", f"{kind}: unknown field {key!r}")
        pots = event.get("pots")
        if isinstance(pots, list):
            for i, pot in enumerate(pots):
                if isinstance(pot, Mapping):
                    for key in pot:
                        if key not in ("ball", "pocket"):
                            raise InvalidEvent("unknown_field", f"pots[{i}]: unknown field {key!r}")
        if kind == STROKE:
            if self.rules.nominate and "nominate" not in event:
                raise InvalidEvent("missing_field", "stroke: nominate is required")
            if isinstance(pots, list):
                for i, pot in enumerate(pots):
                    if isinstance(pot, Mapping):
                        if "ball" not in pot:
                            raise InvalidEvent("missing_field", f"pots[{i}].ball is required")
                        if self.rules.pocket_required and pot.get("pocket") is None:
                            raise InvalidEvent("missing_field", f"pots[{i}].pocket is required")
        elif kind == "concede" and "player" not in event:
            raise InvalidEvent("missing_field", "concede: player is required")
        validate_event(self, event, state)

    def apply(self, state: CaromState, event: Mapping[str, Any]) -> CaromState:
        """The state after one event; checks run in carom.md's order (the end of the game
        first, then the vocabulary, then what cannot have happened, then what cannot
        happen now).

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.apply(g.initial({}), {"type": "stroke", "contacts": []})
        >>> g.view(s)["scores"], g.view(s)["at_table"]
        ({'P1': 0, 'P2': 1}, 'P2')
        >>> g.apply(s, {"type": "stroke", "off_table": ["red"]})
        Traceback (most recent call last):
        ...
        rules.vocabulary.IllegalEvent: impossible: off_table: the red was forced off, but the cue \
ball touched no object ball
        """
        if state.over:
            kind = event.get("type") if isinstance(event, Mapping) else None
            what = f"{kind}: " if isinstance(kind, str) else ""
            raise IllegalEvent("game_over", f"{what}the game is over: no event is accepted now")
        self.check_shape(event, state)
        kind = event["type"]
        if kind == STROKE:
            return self._stroke(state, event)
        done = state._replace(events=state.events + 1)
        if kind == LAY_OFF:
            if state.next != LAY_OFF:
                raise IllegalEvent("not_now", "lay_off: the lay-off is the first event only")
            return self._pass(done._replace(next=OPENING))
        if kind == "spot_balls":
            return done._replace(next=OPENING, space=None, space_counts=0)
        if kind == "time_up":
            best = max(state.scores)
            leaders = [p for p, s in zip(state.players, state.scores, strict=True) if s == best]
            return self._finish(
                done, leaders[0] if len(leaders) == 1 else None, shared=len(leaders) > 1
            )
        # concede (the player is one of the players: checked against the setup above)
        player = event["player"]
        if len(state.players) > 2:
            raise IllegalEvent("not_now", "concede: only a game of two players can be conceded")
        other = state.players[1 - state.players.index(player)]
        return self._finish(done, other)

    def _impossible(self, state: CaromState, st: CaromStroke) -> None:
        """The ``impossible`` refusals of carom.md, in the page's order."""
        pots, off_table = st.pots, st.off_table
        if pots or off_table:
            seen: set[str] = set()
            for ball, _ in pots:
                if ball in seen:
                    raise IllegalEvent("impossible", f"pots: the {ball} is listed twice")
                seen.add(ball)
            off: set[str] = set()
            for ball in off_table:
                if ball in off:
                    raise IllegalEvent("impossible", f"off_table: the {ball} is listed twice")
                if ball in seen:
                    raise IllegalEvent(
                        "impossible", f"off_table: the {ball} is also in pots (both)"
                    )
                off.add(ball)
        pins, before = st.pins, st.pins_before_ball
        if pins or before:
            for name, listed in (("pins", pins), ("pins_before_ball", before)):
                if len(set(listed)) != len(listed):
                    raise IllegalEvent("impossible", f"{name}: a pin is listed twice")
            both = set(pins) & set(before)
            if both:
                raise IllegalEvent(
                    "impossible", f"pins_before_ball: the {min(both)} pin is also in pins"
                )
        if st.first is None:
            for ball, _ in pots:
                if ball != CUE:
                    raise IllegalEvent(
                        "impossible",
                        f"pots: the {ball} was potted, but the cue ball touched no object ball",
                    )
            for ball in off_table:
                if ball != CUE:
                    raise IllegalEvent(
                        "impossible",
                        f"off_table: the {ball} was forced off, but the cue ball touched no "
                        "object ball",
                    )
            if pins:
                raise IllegalEvent(
                    "impossible", "pins: a pin fell, but the cue ball touched no object ball"
                )
        if st.returned and (state.space is None or st.space != state.space):
            raise IllegalEvent(
                "impossible", "returned: the balls were not in that space before the stroke"
            )

    def check_stroke(self, state: CaromState, st: CaromStroke) -> None:
        """Refusals of this game's own (``not_now``), after the family's; none here."""

    def _stroke(self, state: CaromState, event: Mapping[str, Any]) -> CaromState:
        st = read_stroke(event)
        self._impossible(state, st)
        if state.next == LAY_OFF:
            raise IllegalEvent("not_now", "stroke: the game opens with the leader's lay_off")
        self.check_stroke(state, st)
        score = self.score_stroke(state, st)
        seats = state.seats
        striker = seats.turn
        scores = state.scores
        if score.striker or score.opponent:
            changed = list(scores)
            changed[striker] += score.striker
            if score.opponent:
                changed[1 - striker] += score.opponent
            scores = tuple(changed)
        target = state.target
        over = False
        winner = None
        if target is not None:
            for i, points in enumerate(scores):
                if points >= target:
                    over, winner = True, seats.parties[i]
                    break
        if over:  # the stroke that ends the game passes the table to no one
            run, nxt, counts = 0, NONE, 0
        elif score.continues:
            run, nxt, counts = state.run + score.striker, STROKE, score.space_counts
        else:
            seats = seats.advance()
            run, nxt, counts = 0, STROKE, 0
        # one constructor call: the state is rebuilt whole, never patched
        return CaromState(
            seats,
            scores,
            target,
            state.limits,
            state.options,
            run,
            nxt,
            score.space,
            counts,
            over,
            winner,
            False,
            state.events + 1,
        )

    def _pass(self, state: CaromState) -> CaromState:
        """The table passes to the next player in rotation, who begins an inning."""
        return state._replace(seats=state.seats.advance(), run=0, space_counts=0)

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        """What a stroke is worth: the carom games' rule (carom.md steps 1-6).

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.initial({})
        >>> g.score_stroke(s, read_stroke({"contacts": ["cushion"] * 3 + ["red", "white"]}))
        Score(striker=1, opponent=0, continues=True, space=None, space_counts=0)
        >>> g.score_stroke(s, read_stroke({"contacts": ["cushion"] * 3 + ["white", "red"]}))
        Score(striker=0, opponent=0, continues=False, space=None, space_counts=0)
        """
        rules = self.rules
        opening = state.next == OPENING
        opening_fault = opening and st.first != rules.opening_ball
        # 1. a point to the opponent, never more than 1
        to_opponent = (
            1
            if st.miss
            or "touched_own_ball" in st.fouls
            or (rules.opening_penalty and opening_fault)
            else 0
        )
        # 2-3. no count, or the value
        value = 0
        if not (st.fouls or st.miss or opening_fault or st.pins_before_ball):
            if st.carom:
                need = st.cushions_first if rules.before == "first_ball" else st.cushions_before
                if need >= rules.cushions:
                    value = max(1, st.cushions_before) if rules.progressive else 1
            if "middle" in st.pins:
                value += rules.pin_value
        # 4. restricted spaces
        continues = value > 0
        k = 0
        driven_out = True
        if value > 0 and state.space is not None:
            k = state.space_counts + 1
            driven_out = st.space != state.space or st.returned
            kind = self._space_kind[state.space]
            if not driven_out and k >= dict(state.limits)[kind.kind]:
                continues = False
                if kind.void:
                    value = 0
        # 5-6. the score and the spaces after it
        return Score(
            striker=value,
            opponent=to_opponent,
            continues=continues,
            space=st.space,
            space_counts=k if continues and not driven_out else 0,
        )

    def _finish(self, state: CaromState, winner: str | None, shared: bool = False) -> CaromState:
        return state._replace(
            over=True, winner=winner, shared=shared, run=0, next=NONE, space_counts=0
        )

    # -- output ----------------------------------------------------------------

    def view(self, state: CaromState) -> dict[str, Any]:
        """The public state (the carom scoring language "State", plus ``target``)."""
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
            "scores": list(state.scores),
            "target": state.target,
            "limits": dict(state.limits),
            "options": dict(state.options),
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
        """The internal state back from :meth:`dump` (also a dump from before the seating,
        which held ``players``, ``turn`` and ``innings``)."""
        if "seats" in data:
            seats = Seating.load(data["seats"])
        else:
            seats = Seating.of(tuple(data["players"]))._replace(
                turn=data["turn"], visits=tuple(data["innings"])
            )
        return CaromState(
            seats=seats,
            scores=tuple(data["scores"]),
            target=data["target"],
            limits=tuple(data["limits"].items()),
            options=tuple(data.get("options", {}).items()),
            run=data["run"],
            next=data["next"],
            space=data["space"],
            space_counts=data["space_counts"],
            over=data["over"],
            winner=data["winner"],
            shared=data["shared"],
            events=data["events"],
        )

    # -- seating, results, statistics -------------------------------------------

    def seating(self, state: CaromState) -> Seating:
        """The players in rotation (their visits are the innings)."""
        return state.seats

    def outcome(self, state: CaromState) -> Outcome:
        """The result: the winner and, between two players, the other as the loser; or a
        shared game.

        >>> g = THREE_CUSHION_CAROM
        >>> s = g.apply(g.initial({"players": ["Ann", "Bob"]}), {"type": "concede", "player": "Ann"})
        >>> g.outcome(s)
        Outcome(over=True, winner='Bob', loser='Ann', shared=False, scores=mappingproxy({'Ann': 0, 'Bob': 0}))
        """
        winner = state.winner
        players = state.players
        loser = None
        if winner is not None and len(players) == 2:
            loser = players[1 - players.index(winner)]
        return Outcome(
            state.over, winner, loser, state.shared, dict(zip(players, state.scores, strict=True))
        )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each player's points, innings, average, high run and misses for one game,
        replayed from its log (a refused event raises with its index).

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
                run = state.run + after.scores[striker] - state.scores[striker]
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


# ------------------------------------------------------------------ additive games


class EnglishBilliards(CaromGame):
    """English billiards (H 847-929): cannon 2, the white potted 2, the red 3, an in-off
    valued by the first ball; a miss gives 1, a coup 3; fouls score nothing and may let
    the non-striker choose between the miss and the foul."""

    @staticmethod
    def _miss_points(st: CaromStroke) -> int:
        if st.miss:
            m = 3 if CUE in st.potted or CUE in st.off_table else 1
        else:
            m = 0
        if "not_out_of_balk" in st.fouls or "balk_contact" in st.fouls:
            m = max(m, 1)
        return m

    @staticmethod
    def _has_choice(st: CaromStroke, m: int) -> bool:
        return m > 0 and bool(st.fouls - {"not_out_of_balk"})

    def check_stroke(self, state: CaromState, st: CaromStroke) -> None:
        """``choice`` only where the non-striker has one (a foul while giving a miss)."""
        if st.choice is not None and not self._has_choice(st, self._miss_points(st)):
            raise IllegalEvent("not_now", "choice: the non-striker has no choice on this stroke")

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        """The sum of the stroke's items, or the miss points to the non-striker.

        >>> g = ENGLISH_BILLIARDS
        >>> s = g.initial({})
        >>> g.score_stroke(s, read_stroke({"contacts": ["red", "white"],
        ...                                "pots": [{"ball": "red"}, {"ball": "cue"}]}))
        Score(striker=8, opponent=0, continues=True, space=None, space_counts=0)
        """
        m = self._miss_points(st)
        to_opponent = m
        if self._has_choice(st, m) and st.choice == "foul":
            to_opponent = 0
        if st.fouls or st.off_table or st.miss:
            return Score(0, to_opponent, False)
        value = 2 if st.carom else 0
        for ball in st.potted:
            if ball == "red":
                value += 3
            elif ball == "white":
                value += 2
            else:  # the in-off, valued by the first ball (H 863, 865)
                value += 3 if st.first == "red" else 2
        return Score(value, 0, value > 0)


class SpanishBilliards(CaromGame):
    """The Spanish game (H 931-942): pins 2 (the middle pin alone 5), the red 3, the white
    2, a carom 2; forfeits come off the striker's own score."""

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        """Gains less forfeits, on the striker's score.

        >>> g = SPANISH_BILLIARDS
        >>> s = g.initial({})._replace(next="stroke")
        >>> g.score_stroke(s, read_stroke({"contacts": ["white"], "pins": ["middle"]}))
        Score(striker=5, opponent=0, continues=True, space=None, space_counts=0)
        """
        opening_fault = state.next == OPENING and st.first != "red"
        gains = 0
        if not (st.fouls or opening_fault):
            if st.carom:
                gains += 2
            for ball in st.potted:
                if ball == "red":
                    gains += 3
                elif ball == "white":
                    gains += 2
                elif not st.miss:  # the in-off (ours: valued like the ball potted)
                    gains += 3 if st.first == "red" else 2
            if st.pins == ("middle",) and not st.pins_before_ball:
                gains += 5
            else:
                gains += 2 * len(st.pins)
        forfeits = 2 * len(st.pins_before_ball)
        miss = 0
        if st.miss:
            miss = 3 if CUE in st.potted or CUE in st.off_table else 1
        if "touched_own_ball" in st.fouls:
            miss = max(miss, 1)
        forfeits += miss
        if not st.miss and CUE in st.off_table:
            forfeits += gains
            gains = 0
        continues = gains > 0 and forfeits == 0 and not st.fouls
        return Score(gains - forfeits, 0, continues)


class AmericanFourBallPocket(CaromGame):
    """The original American four-ball pocket game (H 793-805): reds potted 3, the white
    2, one carom 3 or 2 (or 1 each, the later practice); forfeits to the opponent or off
    the striker's own score."""

    def extra_options(self) -> tuple[Field, ...]:
        return (
            Option(
                "carom_values",
                "str",
                "historic",
                '"historic": 3 on the two reds, 2 on a red and the white (H 797); '
                '"uniform": every carom 1, the later practice (H 799)',
                choices=("historic", "uniform"),
            ),
            Option(
                "penalty_to",
                "str",
                "opponent",
                '"opponent": a forfeit is added to the opponent\'s score; "self": it comes '
                "off the offender's score",
                choices=("opponent", "self"),
            ),
        )

    def setup_options(self, values: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        return (("carom_values", values["carom_values"]), ("penalty_to", values["penalty_to"]))

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        """Gains, or a forfeit (which gains nothing).

        >>> g = AMERICAN_FOUR_BALL_POCKET
        >>> s = g.initial({})
        >>> g.score_stroke(s, read_stroke({"contacts": ["white", "deep_red", "light_red"],
        ...                                "pots": [{"ball": "light_red"}]}))
        Score(striker=6, opponent=0, continues=True, space=None, space_counts=0)
        """
        options = dict(state.options)
        forfeit = 1 if st.miss else 0
        if CUE in st.potted or CUE in st.off_table:
            forfeit = 2 if st.first == "white" else 3
        if forfeit or st.fouls:
            if options["penalty_to"] == "self":
                return Score(-forfeit, 0, False)
            return Score(0, forfeit, False)
        gains = 0
        for ball in st.potted:
            gains += 2 if ball == "white" else 3
        if st.carom:
            if options["carom_values"] == "uniform":
                gains += 1
            else:
                gains += 3 if "deep_red" in st.touched and "light_red" in st.touched else 2
        return Score(gains, 0, gains > 0)


#: Russian pool: each coloured ball's value and its proper pockets (H 2143-2149).
RUSSIAN_VALUES: dict[str, tuple[int, tuple[str, ...]]] = {
    "red": (3, ("top_left", "top_right")),
    "brown": (9, ("middle_left", "middle_right")),
    "green": (6, ("baulk_left",)),
    "yellow": (4, ("baulk_right",)),
}


class RussianPool(CaromGame):
    """Russian pool (H 2131-2181): two or more players, one white; the cannon 2, each
    coloured ball plus or minus its value by pocket; penalties off the striker's score."""

    def check_stroke(self, state: CaromState, st: CaromStroke) -> None:
        """The opening stroke is played at the red (H 2153)."""
        if state.next == OPENING and st.nominate != "red":
            raise IllegalEvent("not_now", "nominate: the opening stroke is played at the red")

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        """Good and bad items, penalties, the saving clause of the cannon.

        >>> g = RUSSIAN_POOL
        >>> s = g.initial({})._replace(next="stroke")
        >>> g.score_stroke(s, read_stroke({"contacts": ["red"], "nominate": "red",
        ...     "pots": [{"ball": "red", "pocket": "top_left"},
        ...              {"ball": "cue", "pocket": "top_right"}]}))
        Score(striker=6, opponent=0, continues=True, space=None, space_counts=0)
        """
        good = bad = 0
        for ball, pocket in st.pots:
            if ball == CUE:
                if st.miss:
                    continue  # a coup, not an in-off
                value, proper = RUSSIAN_VALUES[st.first or "red"]
            else:
                value, proper = RUSSIAN_VALUES[ball]
            if pocket in proper:
                good += value
            else:
                bad -= value
        cannon = 2 if st.carom else 0
        nominated = st.nominate
        nominated_value = 2 if nominated == "cannon" else RUSSIAN_VALUES[nominated or "red"][0]
        coup = st.miss and (CUE in st.potted or CUE in st.off_table)
        wrong_ball = not st.miss and nominated != "cannon" and st.first != nominated
        penalty = 9 if st.off_table else 0
        if "obstruction" in st.fouls:
            penalty += 18
        if st.miss or coup:
            penalty += nominated_value
        if wrong_ball:
            penalty += nominated_value
        if st.fouls or st.off_table or st.miss or wrong_ball:
            return Score(bad - penalty, 0, False)
        if bad:
            if cannon:
                return Score(2, 0, True)
            if good:
                return Score(0, 0, False)
            return Score(bad, 0, False)
        value = cannon + good
        return Score(value, 0, value > 0)


# ------------------------------------------------------------------------- the games

_H = "the 1908 Brunswick handbook"

#: Every game of the family, by id (the carom scoring language, the first table).
RULES: tuple[CaromRules, ...] = (
    CaromRules(
        id="three_ball_carom",
        name="Three-ball carom",
        aliases=("straight_rail",),
        source=f"{_H}, lines 485-593",
        summary="a carom counts 1; a miss gives the opponent 1; crotched balls allow 3 counts",
    ),
    CaromRules(
        id="balkline_14in",
        name="Fourteen-inch balk-line",
        aliases=("balkline_14",),
        source=f"{_H}, lines 595-625",
        summary="three-ball, but only 2 shots while both object balls lie in one balk space "
        "or anchor box",
        spaces=_balk(2),
    ),
    CaromRules(
        id="balkline_18in_1shot",
        name="18-inch balk-line, one shot in",
        aliases=("balkline_18_1",),
        source=f"{_H}, lines 627-672",
        summary="1 shot in a balk space or anchor box",
        spaces=_balk(1),
        target=500,
    ),
    CaromRules(
        id="balkline_18in_2shot",
        name="18-inch balk-line, two shots in",
        aliases=("balkline_18_2",),
        source=f"{_H}, lines 674-753",
        summary="the 14-inch rules on 18-inch lines",
        spaces=_balk(2),
        target=500,
    ),
    CaromRules(
        id="space_game",
        name="The Space game",
        aliases=(),
        source=f"{_H}, lines 755-763",
        summary="3 counts in a corner space, 2 in a side strip",
        spaces=_SPACE_GAME,
    ),
    CaromRules(
        id="progressive_carom",
        name="Progressive carom",
        aliases=(),
        source=f"{_H}, lines 765-769",
        summary="a carom counts 1 per cushion the cue ball met in making it (at least 1)",
        progressive=True,
    ),
    CaromRules(
        id="four_ball_carom",
        name="Four-ball carom",
        aliases=(),
        source=f"{_H}, lines 771-791",
        summary="any two of the three object balls count 1; the game opens with a lay-off",
        object_balls=("white", "deep_red", "light_red"),
        opening_ball="white",
        opening_penalty=True,
        spot_balls=False,
        lay_off=True,
        fouls=(_RED_OFF_TABLE,),
    ),
    CaromRules(
        id="cushion_carom",
        name="Cushion carom",
        aliases=("cushion_caroms",),
        source=f"{_H}, lines 807-821",
        summary="a carom counts only if the cue ball met a cushion before completing it",
        cushions=1,
    ),
    CaromRules(
        id="three_cushion_carom",
        name="Three-cushion carom",
        aliases=("three_cushion",),
        source=f"{_H}, lines 823-833",
        summary="a carom counts only if the cue ball met cushions at least 3 times before "
        "completing it",
        cushions=3,
        target=50,
    ),
    CaromRules(
        id="bank_shot_carom",
        name="Bank-shot game",
        aliases=("bank_shot",),
        source=f"{_H}, lines 835-845",
        summary="a carom counts only if the cue ball met a cushion before the first ball",
        cushions=1,
        before="first_ball",
        spot_balls=False,
    ),
    CaromRules(
        id="little_corporal",
        name="The Little Corporal",
        aliases=(),
        source=f"{_H}, lines 1719-1731",
        summary="three-ball plus a pin on the centre spot worth 5",
        pins=("middle",),
    ),
    CaromRules(
        id="american_four_ball_pocket",
        name="Original American four-ball pocket game",
        aliases=("american_four_ball",),
        source=f"{_H}, lines 793-805",
        summary="pots and caroms added up (3 or 2 each); forfeits",
        object_balls=("white", "deep_red", "light_red"),
        opening_ball=None,
        spaces=(),
        spot_balls=False,
        pockets=True,
    ),
    CaromRules(
        id="english_billiards",
        name="English billiards (championship rules)",
        aliases=(),
        source=f"{_H}, lines 847-929",
        summary="cannon 2, white 2, red 3, in-offs valued by the first ball; miss 1, coup 3",
        opening_ball=None,
        spaces=(),
        spot_balls=False,
        pockets=True,
        choice=True,
        fouls=_ENGLISH_FOULS,
    ),
    CaromRules(
        id="spanish_billiards",
        name="The Spanish game",
        aliases=("spanish_game",),
        source=f"{_H}, lines 931-942",
        summary="pins 2 (the middle pin alone 5), red 3, white 2, carom 2; forfeits",
        spaces=(),
        pockets=True,
        pins=("middle", "head", "foot", "left", "right"),
        target=30,
    ),
    CaromRules(
        id="russian_pool",
        name="Russian pool",
        aliases=(),
        source=f"{_H}, lines 2131-2181",
        summary="cannon 2; each colour scores or costs its value, by pocket; penalties",
        object_balls=("red", "brown", "green", "yellow"),
        opening_ball=None,
        spaces=(),
        spot_balls=False,
        pockets=True,
        pocket_required=True,
        nominate=("red", "brown", "green", "yellow", "cannon"),
        fouls=_RUSSIAN_FOULS,
        max_players=None,
    ),
)

_HOOKS: dict[str, type[CaromGame]] = {
    "english_billiards": EnglishBilliards,
    "spanish_billiards": SpanishBilliards,
    "american_four_ball_pocket": AmericanFourBallPocket,
    "russian_pool": RussianPool,
}

#: Every game of the family, registered, in the order of `RULES`.
GAMES: tuple[CaromGame, ...] = tuple(_HOOKS.get(r.id, CaromGame)(r) for r in RULES)
_BY_ID = {game.id: game for game in GAMES}

#: The three-cushion rules (H 823-833) and game.
THREE_CUSHION = _BY_ID["three_cushion_carom"].rules
THREE_CUSHION_CAROM = _BY_ID["three_cushion_carom"]
ENGLISH_BILLIARDS = _BY_ID["english_billiards"]
SPANISH_BILLIARDS = _BY_ID["spanish_billiards"]
AMERICAN_FOUR_BALL_POCKET = _BY_ID["american_four_ball_pocket"]
RUSSIAN_POOL = _BY_ID["russian_pool"]

register_all(GAMES)
