"""4-pin bar billiards (``bar_billiards_4pin``), as the 4-pin bar billiards scoring language fixes it.

The internal state is a :class:`BBState` named tuple (immutable, cheap to copy with
``_replace``); :meth:`BarBilliards.view` gives the public JSON state.

>>> from rules import get, replay
>>> bb = get("bar_billiards_4pin")
>>> s = replay(bb, {"players": {"home": ["Ann"], "away": ["Bob"]}}, [
...     {"type": "shot", "pots": [{"ball": "white", "hole": 50}, {"ball": "red", "hole": 100}]},
...     {"type": "shot", "pots": [{"ball": "white", "hole": 200}]},
...     {"type": "shot"},
... ])
>>> v = bb.view(s)
>>> v["scores"], v["at_table"], v["player"], v["next"]
({'home': 450, 'away': 0}, 'away', 'Bob', 'play')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from rules.core import Game, Outcome, Stat
from rules.layout import TableMap, bed_spots
from rules.registry import register_all
from rules.seating import Participants, Seating
from rules.validate import start_scores, validate_event, validate_setup
from rules.vocabulary import (
    FOULS,
    EventType,
    Field,
    Foul,
    IllegalEvent,
    InvalidEvent,
    Option,
    RuleError,
)

__all__ = [
    "BBState",
    "BarBilliards",
    "BarBilliardsRules",
    "FOUR_PIN",
    "Last",
    "HOLES",
    "ENDGAME_HOLES",
]

#: The nine holes are named by their value; these are the distinct values.
HOLES: tuple[int, ...] = (10, 20, 30, 50, 100, 200)
#: The holes left open in endgame play.
ENDGAME_HOLES: tuple[int, ...] = (100, 200)

ENTIRE = "entire_score"
BREAK = "break"
_WEIGHT = {BREAK: 1, ENTIRE: 2}


# ----------------------------------------------------------------------------- state


class Last(NamedTuple):
    """What the last applied event did (see ``state_doc["last"]``)."""

    type: str
    side: int
    player: str | None
    break_off: bool
    endgame: bool
    brought: tuple[str, ...]
    pots: tuple[tuple[str, int, int], ...]  # (ball, hole, points scored)
    to_trough: tuple[str, ...]
    points: int
    banked: int
    foul: str | None
    fouls: tuple[str, ...]
    penalty: str | None
    lost: int
    wiped: int


class BBState(NamedTuple):
    """The internal state of a frame. Side-indexed pairs follow ``seats.parties``."""

    seats: Seating  # the two sides, their players, the side at the table, visits
    white_balls: int
    scores: tuple[int, int]  # banked
    brk: int  # the running break of the side at the table
    phase: str  # play | endgame | over
    bar: bool
    red: str  # table | trough | out
    w_table: int
    w_trough: int
    end: str | None  # no_balls | cutoff, once over
    invoked: bool  # endgame play invoked by the leader (rule 2i)
    events: int
    breaks: tuple[int, int]  # breaks banked (> 0) by each side
    high: tuple[int, int]  # highest break banked by each side
    fouls: tuple[int, int]  # fouled shots by each side
    last: Last | None
    held: int = 0  # the break banked when the frame ended on the cut-off (rule 2i(b))
    held_high: int = 0  # that side's highest break before it

    @property
    def sides(self) -> tuple[str, ...]:
        """The two sides."""
        return self.seats.parties

    @property
    def players(self) -> tuple[tuple[str | None, ...], ...]:
        """Each side's players, in playing order."""
        return self.seats.members

    @property
    def at(self) -> int:
        """The index of the side at the table (the side that was, once over)."""
        return self.seats.turn

    @property
    def visits(self) -> tuple[int, ...]:
        """The visits each side has started."""
        return self.seats.visits


def _pair(t: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    return (value, t[1]) if i == 0 else (t[0], value)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# ------------------------------------------------------------------------ vocabulary

_BALL = ("white", "red")

_SHOT_FIELDS = (
    Field(
        "pots",
        "list",
        "the balls potted by this shot, each with the hole it went into",
        default=(),
        item=Field(
            "pot",
            "object",
            "one ball potted",
            fields=(
                Field("ball", "str", "the ball potted", required=True, choices=_BALL),
                Field(
                    "hole",
                    "int",
                    "the hole, named by its value (only 100 and 200 are open in the endgame)",
                    required=True,
                    choices=HOLES,
                ),
            ),
        ),
    ),
    Field(
        "fouls",
        "list",
        "the fouls called on this shot; the heaviest penalty applies",
        default=(),
        item=Field("foul", "str", "a foul code", choices=FOULS),
    ),
    Field(
        "to_trough",
        "list",
        "balls the referee returned from the table to the trough after the shot without "
        "their being potted (ball off the table, ball in baulk, pin spot occupied)",
        default=(),
        item=Field("ball", "str", "the ball returned", choices=_BALL),
    ),
    Field(
        "cushion",
        "bool",
        "the ball struck a cushion before reaching a hole; required on endgame shots, "
        "ignored before",
        default=None,
    ),
)

_FOULS = (
    Foul("pin_200", ENTIRE, "the pin guarding the 200 hole fell (the black pin)", True),
    Foul("deliberate", ENTIRE, "a deliberate foul, or no attempt at a legal shot"),
    Foul("unsporting", ENTIRE, "unsporting conduct: time-wasting, conceding the frame"),
    Foul(
        "endgame_no_cushion",
        ENTIRE,
        "endgame: the ball was potted without first striking a cushion (added automatically "
        "to an endgame pot with cushion false)",
    ),
    Foul("pin_100", BREAK, "the pin guarding the 100 hole fell", True),
    Foul("pin_50", BREAK, "a pin guarding a 50 hole fell", True),
    Foul(
        "foul_break",
        BREAK,
        "foul break-off: not from the centre of the D, the white missed the red, or the balls "
        "placed the wrong way round. If the opponent has the balls replaced for a new "
        "break-off, list them in to_trough",
        True,
    ),
    Foul("outside_d", BREAK, "the ball was cued from outside the D"),
    Foul("miss", BREAK, "the cue ball struck no other ball", True),
    Foul("red_not_played", BREAK, "a white was played while the red was in the trough", True),
    Foul("ball_in_baulk", BREAK, "a ball came back to the D or baulk", True),
    Foul("off_table", BREAK, "a ball left the table and did not return by its own means", True),
    Foul("moved_ball", BREAK, "a ball or pin was moved other than by a correct shot"),
    Foul("break_off_repeat", BREAK, "the same break-off played more than three times running"),
    Foul("not_centre_d", BREAK, "a break-off or endgame ball not played from the centre of the D"),
    Foul("jump", BREAK, "an intentional jump shot"),
    Foul("push", BREAK, "a push shot"),
    Foul("not_tip", BREAK, "the cue ball struck with something other than the tip"),
    Foul("balls_moving", BREAK, "played before all balls had come to rest"),
    Foul("before_reset", BREAK, "played before balls were returned or pins reset"),
    Foul("out_of_turn", BREAK, "played out of turn"),
    Foul("double_hit", BREAK, "the cue struck the ball twice"),
)
_FOUL_ORDER = {f.code: i for i, f in enumerate(_FOULS)}

_STATE_DOC = {
    "game": "the game id",
    "over": "the frame has ended",
    "winner": "the side with the higher banked score once over, else null",
    "shared": "the frame ended level",
    "scores": "side -> banked score",
    "break": "the running (unbanked) break of the side at the table",
    "at_table": "the side to play next (null when over)",
    "player": "the name of the player at the table, doubles-aware (null when over or unnamed)",
    "phase": "play, endgame or over",
    "bar_down": "the bar has dropped: potted balls leave play",
    "balls_in_play": "balls on the table and in the trough",
    "on_table": "balls on the table",
    "trough": "balls in the trough",
    "red": "where the red is: table, trough or out",
    "whites": "white balls by place: {table, trough, out}",
    "next": "what the next shot is: break_off, play, play_red, endgame or none",
    "events": "how many events have been applied",
    "visits": "side -> visits started (the current one included)",
    "breaks": "side -> number of non-zero breaks banked",
    "high_break": "side -> highest break banked",
    "fouls": "side -> fouled shots",
    "cutoff": "with one ball left (bar down): the gap over which the frame ends instead of "
    "going to endgame play (200, or 400 for the red); else null. Checked when the last ball "
    "is reached; once endgame play has begun it runs until the ball is potted",
    "gap": "the gap the cut-off is measured on: banked scores plus the break of the side "
    "at the table",
    "end": "how the frame ended: no_balls (every ball gone) or cutoff; null while playing",
    "endgame_invoked": "the leader reopened the frame in endgame play (invoke_endgame)",
    "can_invoke_endgame": "invoke_endgame would be accepted now (the frame ended on the cut-off)",
    "last": "what the last event did, or null: {type, side, player, break_off, endgame, "
    "brought (balls brought from the trough onto the table), pots [{ball, hole, points}] "
    "(points 0 on a foul shot), to_trough, points (scored by this shot), banked (banked by "
    "this event: end of visit, endgame pot or end of frame; negative on invoke_endgame: the "
    "break banked at the cut-off taken back into play), foul (the foul whose penalty "
    "applied; the first declared among the heaviest), fouls (all fouls called, with "
    "endgame_no_cushion added when automatic), penalty (break or entire_score; break with "
    "foul null = an endgame shot that missed without a cushion), lost (the break lost), "
    "wiped (the banked score lost to an entire_score foul)}",
}


# ------------------------------------------------------------------------ parameters


@dataclass(frozen=True)
class BarBilliardsRules:
    """One bar billiards game as parameters (the values 4-pin bar billiards fixes).

    ``white_balls``: the default set and its ``choices``; ``red_multiplier``: what the red
    scores times the hole; ``cutoff_white``/``cutoff_red``: the gap over which the frame
    ends with that ball the last (rule 2i); ``endgame_holes``: the holes open in endgame
    play; ``pin_penalties``: (foul code, ``break`` or ``entire_score``) for the pins'
    fouls (``pin_200``, ``pin_100``, ``pin_50``).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    white_balls: int = 7
    white_ball_choices: tuple[int, ...] = (6, 7)
    red_multiplier: int = 2
    cutoff_white: int = 200
    cutoff_red: int = 400
    endgame_holes: tuple[int, ...] = ENDGAME_HOLES
    pin_penalties: tuple[tuple[str, str], ...] = (
        ("pin_200", ENTIRE),
        ("pin_100", BREAK),
        ("pin_50", BREAK),
    )


#: 4-pin bar billiards, the family's one game.
FOUR_PIN = BarBilliardsRules(
    id="bar_billiards_4pin",
    name="4-pin bar billiards",
    aliases=("bar_billiards", "bar-billiards", "4-pin"),
)


# ------------------------------------------------------------------------------ game


class BarBilliards(Game[BBState]):
    """4-pin bar billiards: one red and seven (or six) whites, nine holes, four pins.

    Run from a :class:`BarBilliardsRules` parameter set (default :data:`FOUR_PIN`). Hook:
    :meth:`pot_points` (what one pot scores).
    """

    family = "bar_billiards"
    players = "2 sides, singles or doubles"
    participants = Participants(("sides",), min=2, max=2, per_side=(1, 2))
    additive_score = True  # a handicap start is points on the score from the first shot
    score_step = 10  # every hole scores tens (the red doubles a hole)
    best_stat = "high_break"
    statistics = (
        Stat("high_break", "High break", "max", "the highest break banked"),
        Stat("breaks", "Breaks", "sum", "breaks banked (more than 0)"),
        Stat("points_banked", "Points", "sum", "points banked from his breaks"),
        Stat("pots_200", "200s", "sum", "whites potted in the 200 on shots that scored"),
        Stat("reds_200", "Red in the 200", "sum", "the red potted in the 200 on shots that scored"),
        Stat(
            "black_pin_wipeouts",
            "Black-pin wipe-outs",
            "sum",
            "shots whose applied foul was pin_200 (the black pin): the entire score lost",
        ),
        Stat("points_wiped", "Points wiped", "sum", "banked points lost to black-pin wipe-outs"),
    )
    display = (
        ("scores", "Score"),
        ("break", "Break"),
        ("at_table", "At the table"),
        ("player", "Player"),
        ("next", "Next"),
        ("balls_in_play", "Balls in play"),
        ("cutoff", "Cut-off"),
    )
    options: tuple[Field, ...] = (
        Option(
            "sides",
            "list",
            ("home", "away"),
            "the two sides, by name",
            item=Field("side", "str", "a side's name"),
        ),
        Option(
            "breaks_first",
            "str",
            None,
            "the side that breaks off first (default: the first side)",
            choices_from="sides",
        ),
        Option(
            "white_balls",
            "int",
            7,
            "white balls in the set (a match may go ahead with six)",
            choices=(6, 7),
        ),
        Option(
            "players",
            "object",
            None,
            "side -> its players' names (one for singles, two for doubles; partners take "
            "alternate visits). Default: one unnamed player a side",
            choices_from="sides",
            item=Field(
                "names",
                "list",
                "a side's players, in playing order",
                item=Field("name", "str", "a player's name, or null", nullable=True),
            ),
        ),
    )
    events = (
        EventType(
            "shot",
            "one stroke by the player at the table. Pots score the hole's value (the red "
            "double) into the break; a shot that pots nothing without a foul banks the break "
            "and ends the visit; a foul ends the visit and loses the break (or the entire "
            "score). The engine works out which ball came from the trough",
            _SHOT_FIELDS,
        ),
        EventType(
            "bar_down",
            "the game clock ran out and the bar dropped: potted balls no longer come back",
        ),
        EventType(
            "invoke_endgame",
            "the leader asks for endgame play although the gap is over the cut-off "
            "(rule 2i); only after the frame ended on the cut-off",
        ),
    )
    fouls: tuple[Foul, ...] = _FOULS
    state_doc = _STATE_DOC
    over_label = "Frame over"
    pad_hints = {
        "values": {
            "next": {
                "break_off": "Break-off",
                "play": "Play on",
                "play_red": "Play the red",
                "endgame": "Endgame: cushion first, 100 or 200 only",
                "none": "Frame over",
            }
        },
        "last": [
            ["points", "+{}"],
            ["lost", "lost {}"],
            ["wiped", "wiped {}"],
            ["banked", "banked {}"],
        ],
        "fields": {
            "shot": {
                "to_trough": {"more": True},  # the referee's tidying, rarely needed
                "cushion": {"when": {"phase": "endgame"}},
                "pots.hole": {"when": {"phase": "endgame"}, "open": list(ENDGAME_HOLES)},
            }
        },
    }

    def __init__(self, rules: BarBilliardsRules = FOUR_PIN) -> None:
        self.rules = rules
        self.id, self.name, self.aliases = rules.id, rules.name, rules.aliases
        self._cutoff = {"white": rules.cutoff_white, "red": rules.cutoff_red}
        penalties = dict(rules.pin_penalties)
        unknown = set(penalties) - {"pin_200", "pin_100", "pin_50"}
        if unknown or not set(penalties.values()) <= {BREAK, ENTIRE}:
            raise ValueError(f"pin_penalties: pin fouls and break/entire_score only: {penalties}")
        self.fouls = tuple(
            replace(f, penalty=penalties[f.code]) if f.code in penalties else f for f in _FOULS
        )
        self._penalty = {f.code: f.penalty for f in self.fouls}
        self.state_doc = {**_STATE_DOC, "game": f"the game id, {rules.id}"}
        if rules == FOUR_PIN:
            return  # the class's own options and hints
        self.options = tuple(
            replace(o, default=rules.white_balls, choices=rules.white_ball_choices)
            if o.name == "white_balls"
            else o
            for o in type(self).options
        )
        hints = type(self).pad_hints
        self.pad_hints = {
            **hints,
            "fields": {
                "shot": {
                    **hints["fields"]["shot"],
                    "pots.hole": {"when": {"phase": "endgame"}, "open": list(rules.endgame_holes)},
                }
            },
        }

    # -- hooks ---------------------------------------------------------------

    def pot_points(self, ball: str, hole: int) -> int:
        """Hook: what potting ``ball`` in ``hole`` scores (the red: the hole times
        ``red_multiplier``)."""
        return hole * self.rules.red_multiplier if ball == "red" else hole

    # ---------------------------------------------------------------- setup

    def initial(self, setup: Mapping[str, Any] | None) -> BBState:
        """The state before the break-off.

        >>> s = BarBilliards().initial({"white_balls": 6, "breaks_first": "away"})
        >>> s.w_trough, s.red, s.at, s.visits
        (6, 'trough', 1, (0, 1))
        """
        opts = validate_setup(self, setup)
        first = opts["breaks_first"]
        seats = self.participants.seat(opts, first)
        home, away = start_scores(opts, seats.parties)
        return BBState(
            seats=seats,
            white_balls=opts["white_balls"],
            scores=(home, away),
            brk=0,
            phase="play",
            bar=False,
            red="trough",
            w_table=0,
            w_trough=opts["white_balls"],
            end=None,
            invoked=False,
            events=0,
            breaks=(0, 0),
            high=(0, 0),
            fouls=(0, 0),
            last=None,
        )

    # ---------------------------------------------------------------- apply

    def apply(self, state: BBState, event: Mapping[str, Any]) -> BBState:
        """The state after ``event`` (pure; raises RuleError with index None).

        >>> bb = BarBilliards()
        >>> s = bb.apply(bb.initial({}), {"type": "shot", "fouls": ["miss"]})
        >>> bb.view(s)["at_table"], bb.view(s)["on_table"]
        ('away', 2)
        """
        validate_event(self, event)
        kind = event["type"]
        if kind == "invoke_endgame":
            return self._invoke(state)
        if state.phase == "over":
            raise IllegalEvent("game_over", "the frame is over")
        if kind == "bar_down":
            if state.bar:
                raise IllegalEvent("not_now", "the bar is already down")
            return state._replace(
                bar=True,
                events=state.events + 1,
                last=Last(
                    "bar_down",
                    state.at,
                    _player(state),
                    False,
                    False,
                    (),
                    (),
                    (),
                    0,
                    0,
                    None,
                    (),
                    None,
                    0,
                    0,
                ),
            )
        if state.phase == "endgame":
            return self._endgame_shot(state, event)
        return self._shot(state, event)

    def _invoke(self, s: BBState) -> BBState:
        """Endgame play reopened by the leader: the side that was at the table plays
        first, and the break banked when the frame ended on the cut-off continues and is
        at risk again (rule 2i(b)): it comes off that side's score."""
        if s.phase != "over" or s.end != "cutoff":
            raise IllegalEvent(
                "not_now", "invoke_endgame applies only when the frame ended on the cut-off"
            )
        at, held = s.at, s.held
        scores, breaks, high = s.scores, s.breaks, s.high
        if held:
            scores = _pair(scores, at, scores[at] - held)
            breaks = _pair(breaks, at, breaks[at] - 1)
            high = _pair(high, at, s.held_high)
        return s._replace(
            phase="endgame",
            end=None,
            invoked=True,
            brk=held,
            scores=scores,
            breaks=breaks,
            high=high,
            held=0,
            held_high=0,
            events=s.events + 1,
            last=Last(
                "invoke_endgame",
                at,
                _player(s),
                False,
                False,
                (),
                (),
                (),
                0,
                -held,
                None,
                (),
                None,
                0,
                0,
            ),
        )

    def _shot(self, s: BBState, ev: Mapping[str, Any]) -> BBState:
        called: tuple[str, ...] = tuple(ev.get("fouls") or ())
        pots: Sequence[Mapping[str, Any]] = ev.get("pots") or ()
        back: tuple[str, ...] = tuple(ev.get("to_trough") or ())
        if "endgame_no_cushion" in called:
            raise IllegalEvent("not_now", "endgame_no_cushion is a foul of endgame play only")
        red, wt, wr = s.red, s.w_table, s.w_trough
        break_off = wt == 0 and red != "table"
        if "red_not_played" in called and (break_off or red != "trough"):
            raise IllegalEvent(
                "not_now", "red_not_played: the red is not waiting in the trough to be played"
            )
        # 1. the balls that come from the trough onto the table
        brought: tuple[str, ...]
        if break_off:
            brought = ()
            want = 2
            if red == "trough":
                red = "table"
                brought = ("red",)
                want = 1
            k = min(want, wr)
            wr -= k
            wt += k
            brought += ("white",) * k
        elif red == "trough" and "red_not_played" not in called:
            red = "table"
            brought = ("red",)
        elif wr:
            wr -= 1
            wt += 1
            brought = ("white",)
        else:
            brought = ()  # trough empty: the ball is retrieved from the table
        # 2. the pots
        reds = 0
        points = 0
        for p in pots:
            if p["ball"] == "red":
                reds += 1
            points += self.pot_points(p["ball"], p["hole"])
        whites = len(pots) - reds
        if reds > 1:
            raise IllegalEvent("not_on_table", f"{reds} reds potted but the set has one red")
        if reds and red != "table":
            raise IllegalEvent("not_on_table", f"the red is not on the table (it is {_where(red)})")
        if whites > wt:
            raise IllegalEvent(
                "not_on_table", f"{whites} whites potted but only {wt} could be on the table"
            )
        if reds:
            red = "out" if s.bar else "trough"
        wt -= whites
        if not s.bar:
            wr += whites
        # 3. balls returned to the trough by the referee
        r_back = back.count("red")
        w_back = len(back) - r_back
        if r_back > 1:
            raise IllegalEvent(
                "not_on_table", f"to_trough: {r_back} reds given but the set has one red"
            )
        if r_back and red != "table":
            raise IllegalEvent(
                "not_on_table", f"to_trough: the red is not on the table (it is {_where(red)})"
            )
        if w_back > wt:
            raise IllegalEvent(
                "not_on_table", f"to_trough: {w_back} whites but only {wt} left on the table"
            )
        if r_back:
            red = "trough"
        wt -= w_back
        wr += w_back
        # 4. the outcome of the visit
        penalty, foul = _heaviest(called, self._penalty)
        return self._settle(
            s,
            break_off,
            False,
            brought,
            pots,
            back,
            called,
            penalty,
            foul,
            points,
            red,
            wt,
            wr,
            bank=not pots,
        )

    def _endgame_shot(self, s: BBState, ev: Mapping[str, Any]) -> BBState:
        cushion = ev.get("cushion")
        if cushion is None:
            raise InvalidEvent("missing_field", "shot: cushion is required in endgame play")
        pots: Sequence[Mapping[str, Any]] = ev.get("pots") or ()
        called: tuple[str, ...] = tuple(ev.get("fouls") or ())
        back: tuple[str, ...] = tuple(ev.get("to_trough") or ())
        for p in pots:
            if p["hole"] not in self.rules.endgame_holes:
                holes = " or ".join(map(str, self.rules.endgame_holes))
                raise IllegalEvent(
                    "closed_hole", f"the {p['hole']} hole is closed in endgame play ({holes})"
                )
        if "red_not_played" in called:
            raise IllegalEvent(
                "not_now", "red_not_played: there is no ball in the trough to choose"
            )
        ball = "white" if s.red == "out" else "red"
        red, wt, wr = s.red, s.w_table, s.w_trough
        brought: tuple[str, ...] = ()
        if ball == "red" and red == "trough":
            red, brought = "table", ("red",)
        elif ball == "white" and wr:
            wr, wt, brought = 0, 1, ("white",)
        if len(pots) > 1 or (pots and pots[0]["ball"] != ball):
            other = pots[0]["ball"] if len(pots) == 1 else "second ball"
            raise IllegalEvent(
                "not_on_table", f"endgame: the last ball is the {ball}; the {other} is not in play"
            )
        if back and (len(back) > 1 or back[0] != ball or pots):
            raise IllegalEvent("not_on_table", f"to_trough: only the {ball} is left in play")
        if "endgame_no_cushion" in called and not (pots and not cushion):
            raise IllegalEvent("impossible", "endgame_no_cushion needs a pot without a cushion")
        if pots and not cushion and "endgame_no_cushion" not in called:
            called = (*called, "endgame_no_cushion")
        points = 0
        if pots:
            points = self.pot_points(ball, pots[0]["hole"])
            if ball == "red":
                red = "out"
            else:
                wt = 0
        elif back:
            if ball == "red":
                red = "trough"
            else:
                wt, wr = 0, 1
        penalty, foul = _heaviest(called, self._penalty)
        if penalty is None and not pots and not cushion:
            penalty = BREAK  # an illegal endgame shot that potted nothing (the games survey 6.5 #4)
        return self._settle(
            s,
            False,
            True,
            brought,
            pots,
            back,
            called,
            penalty,
            foul,
            points,
            red,
            wt,
            wr,
            bank=not pots,
        )

    def _settle(
        self,
        s: BBState,
        break_off: bool,
        endgame: bool,
        brought: tuple[str, ...],
        pots: Sequence[Mapping[str, Any]],
        back: tuple[str, ...],
        called: tuple[str, ...],
        penalty: str | None,
        foul: str | None,
        points: int,
        red: str,
        wt: int,
        wr: int,
        bank: bool,
    ) -> BBState:
        """Score the shot, end the visit if it ends, then check for the end of the frame."""
        seats = s.seats
        at = seats.turn
        me = _player(s)
        scores, brk = s.scores, s.brk
        breaks, high, nfouls = s.breaks, s.high, s.fouls
        lost = wiped = banked = 0
        passed = True
        if penalty is not None:
            lost, brk, points = brk, 0, 0
            if penalty == ENTIRE:
                wiped = scores[at]
                scores = _pair(scores, at, 0)
            nfouls = _pair(nfouls, at, nfouls[at] + 1)
        elif bank:
            banked, brk = brk, 0
        else:
            brk += points
            passed = False
        if banked:
            scores = _pair(scores, at, scores[at] + banked)
            breaks = _pair(breaks, at, breaks[at] + 1)
            if banked > high[at]:
                high = _pair(high, at, banked)
        if passed:
            seats = seats.advance()
            at = seats.turn
        # the end of the frame, checked after every event once the bar is down
        phase, end = s.phase, s.end
        held = held_high = 0
        if s.bar:
            left = wt + wr + (red != "out")
            over = False
            if left == 0:
                over, end = True, "no_balls"
                seats = s.seats  # no visit follows the last ball
                at = seats.turn
            elif left == 1 and s.phase == "play":
                # the cut-off decides whether endgame play begins; once it has begun,
                # play swaps until the ball is potted (rule 2i), whatever the gap becomes
                cut = self._cutoff["red" if red != "out" else "white"]
                if _gap(scores, at, brk) > cut:
                    over, end = True, "cutoff"
                else:
                    phase = "endgame"
            if over:
                phase = "over"
                if end == "cutoff":
                    held, held_high = brk, high[at]
                if brk:
                    scores = _pair(scores, at, scores[at] + brk)
                    breaks = _pair(breaks, at, breaks[at] + 1)
                    if brk > high[at]:
                        high = _pair(high, at, brk)
                    banked += brk
                    brk = 0
        pot_info = tuple(
            (p["ball"], p["hole"], 0 if penalty else self.pot_points(p["ball"], p["hole"]))
            for p in pots
        )
        last = Last(
            "shot",
            s.at,
            me,
            break_off,
            endgame,
            brought,
            pot_info,
            back,
            points,
            banked,
            foul,
            called,
            penalty,
            lost,
            wiped,
        )
        return BBState(
            seats,
            s.white_balls,
            scores,
            brk,
            phase,
            s.bar,
            red,
            wt,
            wr,
            end,
            s.invoked,
            s.events + 1,
            breaks,
            high,
            nfouls,
            last,
            held,
            held_high,
        )

    # ----------------------------------------------------------------- view

    def table_map(self) -> TableMap:
        """The bed of numbered holes the pots go into."""
        return TableMap("shot", "pots", "hole", "bed", bed_spots(HOLES))

    def view(self, state: BBState) -> dict[str, Any]:
        """The public JSON state (the 4-pin bar billiards scoring language, plus documented extras).

        >>> v = BarBilliards().view(BarBilliards().initial({}))
        >>> v["next"], v["balls_in_play"], v["on_table"], v["red"], v["player"]
        ('break_off', 8, 0, 'trough', None)
        """
        s = state
        sides = s.sides
        over = s.phase == "over"
        winner = None
        shared = False
        if over:
            if s.scores[0] == s.scores[1]:
                shared = True
            else:
                winner = sides[0] if s.scores[0] > s.scores[1] else sides[1]
        on_table = s.w_table + (s.red == "table")
        trough = s.w_trough + (s.red == "trough")
        left = on_table + trough
        cutoff = None
        if s.bar and left == 1:
            cutoff = self._cutoff["red" if s.red != "out" else "white"]
        return {
            "game": self.id,
            "over": over,
            "winner": winner,
            "shared": shared,
            "scores": {sides[0]: s.scores[0], sides[1]: s.scores[1]},
            "break": s.brk,
            "at_table": None if over else sides[s.at],
            "player": None if over else _player(s),
            "phase": s.phase,
            "bar_down": s.bar,
            "balls_in_play": left,
            "on_table": on_table,
            "trough": trough,
            "red": s.red,
            "whites": {
                "table": s.w_table,
                "trough": s.w_trough,
                "out": s.white_balls - s.w_table - s.w_trough,
            },
            "next": _next(s),
            "events": s.events,
            "visits": {sides[0]: s.visits[0], sides[1]: s.visits[1]},
            "breaks": {sides[0]: s.breaks[0], sides[1]: s.breaks[1]},
            "high_break": {sides[0]: s.high[0], sides[1]: s.high[1]},
            "fouls": {sides[0]: s.fouls[0], sides[1]: s.fouls[1]},
            "cutoff": cutoff,
            "gap": _gap(s.scores, s.at, 0 if over else s.brk),
            "end": s.end,
            "endgame_invoked": s.invoked,
            "can_invoke_endgame": over and s.end == "cutoff",
            "last": None if s.last is None else _last_view(s.last, sides),
        }

    # ------------------------------------------------------------ dump/load

    def dump(self, state: BBState) -> dict[str, Any]:
        """The internal state as compact JSON (lists for tuples).

        >>> bb = BarBilliards()
        >>> s = bb.initial({})
        >>> bb.load(bb.dump(s)) == s
        True
        """
        data: dict[str, Any] = {k: _lists(v) for k, v in zip(BBState._fields, state, strict=True)}
        data["seats"] = state.seats.dump()
        data["v"] = 2
        return data

    def load(self, data: Mapping[str, Any]) -> BBState:
        """The internal state back from :meth:`dump` (ValueError if malformed). A version 1
        dump (sides, players, at and visits instead of seats) is read too."""
        try:
            version = data.get("v")
            if version == 1:
                data = _v1_to_v2(data)
            elif version != 2:
                raise ValueError(f"unknown state version {version!r}")
            values = {k: _tuples(data[k]) for k in BBState._fields if k != "seats"}
            last = values["last"]
            values["last"] = None if last is None else Last(*last)
            return BBState(seats=Seating.load(data["seats"]), **values)
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ValueError(f"not a dumped bar billiards state: {err}") from None

    # ------------------------------------------------- seating, results, statistics

    def seating(self, state: BBState) -> Seating:
        """The two sides' seating."""
        return state.seats

    def outcome(self, state: BBState) -> Outcome:
        """The result: the higher banked score wins, the other side loses; level is a
        shared frame.

        >>> bb = BarBilliards()
        >>> bb.outcome(bb.initial({}))
        Outcome(over=False, winner=None, loser=None, shared=False, \
scores=mappingproxy({'home': 0, 'away': 0}))
        """
        sides = state.seats.parties
        winner = loser = None
        shared = False
        if state.phase == "over":
            a, b = state.scores
            if a == b:
                shared = True
            else:
                w = 0 if a > b else 1
                winner, loser = sides[w], sides[1 - w]
        return Outcome(
            state.phase == "over",
            winner,
            loser,
            shared,
            {sides[0]: state.scores[0], sides[1]: state.scores[1]},
        )

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's figures for one frame, read from what each shot did
        (``last``): the player at the table is credited (doubles-aware).

        >>> bb = BarBilliards()
        >>> st = bb.player_statistics({"players": {"home": ["Ann"], "away": ["Bob"]}}, [
        ...     {"type": "shot", "pots": [{"ball": "white", "hole": 200},
        ...                               {"ball": "red", "hole": 200}]},
        ...     {"type": "shot"},
        ...     {"type": "shot", "fouls": ["pin_200"]}])
        >>> st["Ann"]["high_break"], st["Ann"]["pots_200"], st["Ann"]["reds_200"]
        (600, 1, 1)
        >>> st["Bob"]["black_pin_wipeouts"]
        1
        """
        state = self.initial(setup)
        names = state.seats.players
        zero = dict.fromkeys((st.name for st in self.statistics), 0)
        out: dict[str, dict[str, float]] = {name: dict(zero) for name in names}
        before_cutoff: dict[str, float] = {}
        for i, event in enumerate(events):
            try:
                state = self.apply(state, event)
            except RuleError as err:
                raise err.at(i) from None
            last = state.last
            if last is None or last.player is None:
                continue
            c = out[last.player]
            if last.type == "invoke_endgame":
                if last.banked < 0:  # the break banked at the cut-off is in play again
                    c["breaks"] -= 1
                    c["points_banked"] += last.banked
                    c["high_break"] = before_cutoff.get(last.player, c["high_break"])
                continue
            if last.type != "shot":
                continue
            if state.end == "cutoff":
                before_cutoff[last.player] = c["high_break"]
            if last.banked > 0:
                c["breaks"] += 1
                c["points_banked"] += last.banked
                c["high_break"] = max(c["high_break"], last.banked)
            for ball, hole, points in last.pots:
                if hole == 200 and points > 0:
                    c["reds_200" if ball == "red" else "pots_200"] += 1
            if last.foul == "pin_200":
                c["black_pin_wipeouts"] += 1
                c["points_wiped"] += last.wiped
        return out


def _v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """A version 1 dump in version 2's shape: the seating rebuilt from sides, players, at
    and visits (the partner due is the visits started, less the one in progress)."""
    at, visits, players = data["at"], data["visits"], data["players"]
    partner = [(visits[i] - (1 if i == at else 0)) % len(players[i]) for i in range(len(players))]
    seats = Seating.of(data["sides"], players, sides=True)._replace(
        turn=at, visits=tuple(visits), partner=tuple(partner)
    )
    out = {k: v for k, v in data.items() if k not in ("sides", "players", "at", "visits")}
    out["seats"] = seats.dump()
    out.setdefault("held", 0)
    out.setdefault("held_high", 0)
    return out


def _lists(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_lists(v) for v in value]
    return value


def _where(red: str) -> str:
    return {"trough": "in the trough", "out": "out of play", "table": "on the table"}[red]


def _player(s: BBState) -> str | None:
    return s.seats.player


def _gap(scores: tuple[int, int], at: int, brk: int) -> int:
    mine = scores[at] + brk
    return abs(mine - scores[1 - at])


def _heaviest(called: Sequence[str], penalties: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(penalty, foul) of the heaviest foul called (``penalties``: code -> penalty); ties
    go to the first declared."""
    best: str | None = None
    for code in called:
        if best is None:
            best = code
            continue
        wa, wb = _WEIGHT[penalties[code]], _WEIGHT[penalties[best]]
        if wa > wb or (wa == wb and _FOUL_ORDER[code] < _FOUL_ORDER[best]):
            best = code
    return (None, None) if best is None else (penalties[best], best)


def _next(s: BBState) -> str:
    if s.phase == "over":
        return "none"
    if s.phase == "endgame":
        return "endgame"
    if s.w_table == 0 and s.red != "table":
        return "break_off"
    if s.red == "trough":
        return "play_red"
    return "play"


def _last_view(last: Last, sides: tuple[str, ...]) -> dict[str, Any]:
    return {
        "type": last.type,
        "side": sides[last.side],
        "player": last.player,
        "break_off": last.break_off,
        "endgame": last.endgame,
        "brought": list(last.brought),
        "pots": [{"ball": b, "hole": h, "points": p} for b, h, p in last.pots],
        "to_trough": list(last.to_trough),
        "points": last.points,
        "banked": last.banked,
        "foul": last.foul,
        "fouls": list(last.fouls),
        "penalty": last.penalty,
        "lost": last.lost,
        "wiped": last.wiped,
    }


#: Every game of the module (one), registered.
GAMES: tuple[BarBilliards, ...] = (BarBilliards(),)

register_all(GAMES)
