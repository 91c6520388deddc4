"""The match-night draw and the referee rota for 4-pin bar billiards (league rules 6, 7, 8).

Pure functions of an explicit :class:`random.Random`: no Django, no database, standard
library only, so ``python3 -m frames.draw`` runs from a bare checkout. docs/draw.md explains
the algorithm; the short version:

* each side's names go into its own hat, **sorted**, so the draw depends only on the set of
  names and the seed, never on the order someone typed them in;
* singles frames 1-6 take names from one Fisher-Yates shuffle of the hat, doubles frames
  7-9 from a second, independent shuffle (every name has the same chance of every slot);
* a side of five follows rule 8 exactly (the sixth-singles and third-doubles redraws);
* a side of one to four plays only by agreement and concedes the frames it cannot fill,
  the last ones of each kind in drawn order;
* referees: home for the 1st, 3rd, 5th, 7th and 9th frame played, away for the others,
  nobody in the frame they referee, nobody twice; when that is impossible the one-frame
  rule gives way first, then the rotation, never the first. Among the best assignments one
  is chosen uniformly at random.

>>> draw = draw_match(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
...                   ["Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"], seed=7)
>>> [frame.kind for frame in draw.frames].count("singles")
6
>>> validate_draw(draw, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
...               ["Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"])
[]
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from marker.commit_reveal import MAX_SEED, commitment, derive_seed
from marker.formats import (
    BLIND,
    HAT,
    NORWICH_FIVE,
    PRESETS,
    ROTATION,
    FormatError,
    MatchFormat,
    parse_format,
)

__all__ = [
    "ALGORITHM_VERSION",
    "FORMAT_ALGORITHM_VERSION",
    "AWAY",
    "DOUBLES",
    "HOME",
    "RELAXED_ONE_FRAME",
    "RELAXED_ROTATION",
    "SINGLES",
    "Draw",
    "DrawError",
    "DrawnFrame",
    "Referee",
    "assign_referees",
    "check_nomination",
    "commitment",
    "draw_format",
    "derive_seed",
    "draw_match",
    "frame_kind",
    "main",
    "reassign_referees",
    "referee_seed",
    "rota_side",
    "validate_draw",
]

#: Stored with every draw. Change it whenever the same seed and squads could give a
#: different draw (a new use of the random stream, a new tie-break, a new rule reading).
ALGORITHM_VERSION = "marker-draw-1"
#: The same, for a night in any other match format (marker.formats).
FORMAT_ALGORITHM_VERSION = "marker-format-draw-1"

HOME = "home"
AWAY = "away"
SIDES = (HOME, AWAY)
SINGLES = "singles"
DOUBLES = "doubles"
SINGLES_FRAMES = (1, 2, 3, 4, 5, 6)
DOUBLES_FRAMES = (7, 8, 9)
#: Rule 8: a match needs five a side to proceed (fewer only by agreement).
MINIMUM_PLAYERS = 5

#: ``Referee.rule_relaxed`` codes (joined with "," when both give way).
RELAXED_ONE_FRAME = "one_frame_each"
RELAXED_ROTATION = "side_rotation"

# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Referee:
    """Who referees a frame: a present member of ``side`` who does not play in it.

    ``rule_relaxed`` is None, or the rule-6 requirement(s) that had to give way for this
    frame: ``"one_frame_each"`` (this player already referees an earlier frame) and/or
    ``"side_rotation"`` (the other side provides the referee).
    """

    side: str
    player: str
    rule_relaxed: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "player": self.player, "rule_relaxed": self.rule_relaxed}


@dataclass(frozen=True)
class DrawnFrame:
    """One frame of the match card.

    ``home`` and ``away`` hold the side's player (singles) or players (doubles) in the
    order their names were drawn, or ``()`` when that side concedes the frame.
    ``conceded_by`` lists the sides ("home", "away") that cannot fill the frame; a
    conceded frame is not played and has no referee.
    """

    number: int
    kind: str
    home: tuple[str, ...]
    away: tuple[str, ...]
    referee: Referee | None = None
    conceded_by: tuple[str, ...] = ()

    @property
    def is_played(self) -> bool:
        return not self.conceded_by

    def players(self, side: str) -> tuple[str, ...]:
        """The frame's players on ``side``."""
        return self.home if side == HOME else self.away

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "home": list(self.home),
            "away": list(self.away),
            "referee": None if self.referee is None else self.referee.to_json(),
            "conceded": list(self.conceded_by),
        }


@dataclass(frozen=True)
class Draw:
    """A complete draw: the inputs (seed, algorithm, the hats) and the result.

    ``frames`` are in the order of play (the drawn order, 1-9, unless the captains
    reordered them and the referees were re-solved with :func:`reassign_referees`).
    ``agreed`` records that both captains agreed to play a side short of five.
    """

    seed: int
    algorithm: str
    home_hat: tuple[str, ...]
    away_hat: tuple[str, ...]
    frames: tuple[DrawnFrame, ...]
    notes: tuple[str, ...]
    agreed: bool = False
    #: A format other than Norwich's: its JSON, and the captains' nominations (blind:
    #: per side, per section, per frame, the names; fixed: per side, the numbered lineup).
    match_format: Mapping[str, Any] | None = None
    nominations: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (the CLI prints it; the app stores it)."""
        data = {
            "seed": self.seed,
            "algorithm": self.algorithm,
            "agreed": self.agreed,
            "home_hat": list(self.home_hat),
            "away_hat": list(self.away_hat),
            "frames": [frame.to_json() for frame in self.frames],
            "notes": list(self.notes),
        }
        if self.match_format is not None:
            data["format"] = dict(self.match_format)
        if self.nominations is not None:
            data["nominations"] = dict(self.nominations)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draw:
        """The inverse of :meth:`to_json` (also reads a hand-typed paper draw).

        >>> draw = draw_match(list("ABCDEF"), list("GHIJKL"), seed=1)
        >>> Draw.from_json(draw.to_json()) == draw
        True
        """
        frames = []
        for item in data["frames"]:
            referee = item.get("referee")
            frames.append(
                DrawnFrame(
                    number=item["number"],
                    kind=item.get("kind") or frame_kind(item["number"]),
                    home=tuple(item.get("home", ())),
                    away=tuple(item.get("away", ())),
                    referee=None
                    if referee is None
                    else Referee(referee["side"], referee["player"], referee.get("rule_relaxed")),
                    conceded_by=tuple(item.get("conceded", ())),
                )
            )
        return cls(
            seed=data["seed"],
            algorithm=data.get("algorithm", ALGORITHM_VERSION),
            home_hat=tuple(data.get("home_hat", ())),
            away_hat=tuple(data.get("away_hat", ())),
            frames=tuple(frames),
            notes=tuple(data.get("notes", ())),
            agreed=bool(data.get("agreed", False)),
            match_format=data.get("format"),
            nominations=data.get("nominations"),
        )


class DrawError(Exception):
    """The squads (or the seed) cannot be drawn; ``code`` is stable, ``message`` is for people.

    Codes: ``too_few_players`` (a side has 1-4 names and the captains have not agreed),
    ``empty_squad`` (a side has no names: no agreement can help), ``empty_name``,
    ``duplicate_name``, ``invalid_name``, ``invalid_seed``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}


# --------------------------------------------------------------------------- seeds


def referee_seed(seed: int) -> int:
    """The seed of the referee solver's own ``random.Random``, derived from the draw's.

    A separate stream keeps the referee choice independent of the name draws and lets
    :func:`reassign_referees` with the draw's seed reproduce the original rota.
    """
    return derive_seed(ALGORITHM_VERSION, "referees", str(seed))


# --------------------------------------------------------------------------- the draw


def frame_kind(number: int) -> str:
    """``"singles"`` for frames 1-6, ``"doubles"`` for 7-9 (rule 6)."""
    if number in SINGLES_FRAMES:
        return SINGLES
    if number in DOUBLES_FRAMES:
        return DOUBLES
    raise ValueError(f"a match has frames 1-9, not {number!r}")


def rota_side(position: int) -> str:
    """The side that provides the referee for the frame played ``position``-th (0-based).

    Home for the first, then alternately (rule 6): home 1st, 3rd, 5th, 7th, 9th.
    Conceded frames keep their place in the rotation.
    """
    return HOME if position % 2 == 0 else AWAY


def draw_match(
    home: Sequence[str],
    away: Sequence[str],
    seed: int,
    *,
    agreed: bool = False,
    match_format: MatchFormat | None = None,
    nominations: Mapping[str, Any] | None = None,
) -> Draw:
    """Draw the nine frames and their referees from ``random.Random(seed)``.

    ``home`` and ``away`` are the players present (any order: each side's hat is sorted).
    ``agreed`` records that both captains agreed to play although a side has fewer than
    five (rule 8); without it such squads raise ``DrawError("too_few_players")``.

    ``match_format`` (marker.formats) lays out another format's frames: see
    :func:`draw_format`. Norwich's format, or none, is this function's own draw.

    >>> draw = draw_match(["Ann", "Bob", "Cat", "Dan", "Eve"], list("GHIJKL"), seed=3)
    >>> sorted(Counter(f.home[0] for f in draw.frames[:6]).values())
    [1, 1, 1, 1, 2]
    >>> draw_match(["Ann", "Bob", "Cat", "Dan"], list("GHIJKL"), seed=3)
    Traceback (most recent call last):
    ...
    frames.draw.DrawError: The home side has only 4 players: rule 8 needs five a side unless both captains agree to play (--agreed).
    """
    if match_format is not None and not match_format.is_norwich:
        return draw_format(match_format, home, away, seed, agreed=agreed, nominations=nominations)
    _check_seed(seed)
    hats = {HOME: _hat(HOME, home), AWAY: _hat(AWAY, away)}
    for side in SIDES:
        if not hats[side]:
            raise DrawError("empty_squad", f"The {side} side has no players: there is no match.")
    for side in SIDES:
        if len(hats[side]) < MINIMUM_PLAYERS and not agreed:
            raise DrawError(
                "too_few_players",
                f"The {side} side has only {len(hats[side])} players: rule 8 needs five a side "
                "unless both captains agree to play (--agreed).",
            )

    rng = random.Random(seed)
    notes: list[str] = []
    singles: dict[str, list[str | None]] = {}
    doubles: dict[str, list[tuple[str, ...] | None]] = {}
    for side in SIDES:
        singles[side], doubles[side] = _draw_side(side, hats[side], rng, notes)

    frames = []
    for number in SINGLES_FRAMES + DOUBLES_FRAMES:
        kind = frame_kind(number)
        slots: dict[str, tuple[str, ...]] = {}
        for side in SIDES:
            if kind == SINGLES:
                player = singles[side][number - 1]
                slots[side] = () if player is None else (player,)
            else:
                slots[side] = doubles[side][number - 7] or ()
        conceded = tuple(side for side in SIDES if not slots[side])
        frames.append(DrawnFrame(number, kind, slots[HOME], slots[AWAY], None, conceded))

    referees, referee_notes = assign_referees(
        frames, hats[HOME], hats[AWAY], random.Random(referee_seed(seed))
    )
    return Draw(
        seed=seed,
        algorithm=ALGORITHM_VERSION,
        home_hat=hats[HOME],
        away_hat=hats[AWAY],
        frames=tuple(replace(f, referee=r) for f, r in zip(frames, referees, strict=True)),
        notes=tuple(notes) + referee_notes,
        agreed=agreed,
    )


def _draw_side(
    side: str, hat: tuple[str, ...], rng: random.Random, notes: list[str]
) -> tuple[list[str | None], list[tuple[str, ...] | None]]:
    """One side's singles slots (frames 1-6) and doubles pairs (frames 7-9); None = conceded."""
    other = _other(side)
    size = len(hat)

    singles: list[str | None] = list(_shuffled(hat, rng)[:6])
    twice_singles = None
    if size == 5:
        # Rule 8(b): all five names go back in the hat; the opposing side draws one.
        twice_singles = hat[rng.randrange(5)]
        singles.append(twice_singles)
        notes.append(
            f"Rule 8 ({side} has five players), frame 6: all five {side} names went back "
            f"in the hat and the {other} side drew {twice_singles}, who plays two singles."
        )
    singles += [None] * (6 - len(singles))

    order = _shuffled(hat, rng)
    doubles: list[tuple[str, ...] | None] = [
        (order[2 * i], order[2 * i + 1]) for i in range(min(size, 6) // 2)
    ]
    if size == 5:
        # Rule 8(c): frame 9 has one name so far; take out the player with two singles
        # (and, our default where the rule book is silent, the player already in frame 9) and redraw.
        first = order[4]
        pool = [name for name in hat if name not in (twice_singles, first)]
        partner = pool[rng.randrange(len(pool))]
        doubles.append((first, partner))
        left_out = (
            f"{first} (two singles, already in frame 9) was"
            if first == twice_singles
            else f"{twice_singles} (two singles) and {first} (already in frame 9) were"
        )
        notes.append(
            f"Rule 8 ({side} has five players), frame 9: {left_out} left out; from "
            f"{', '.join(pool)} the {other} side drew {partner}, who plays two doubles."
        )
    doubles += [None] * (3 - len(doubles))

    if size > 6:
        idle = sorted(set(hat) - set(singles) - {p for pair in doubles if pair for p in pair})
        if idle:
            notes.append(f"Not drawn to play ({side}): {', '.join(idle)}.")
    if size < MINIMUM_PLAYERS:
        conceded = [str(n) for n in SINGLES_FRAMES if singles[n - 1] is None]
        conceded += [str(n) for n in DOUBLES_FRAMES if doubles[n - 7] is None]
        notes.append(
            f"The {side} side has {size} player{'s' if size != 1 else ''} (played by "
            f"agreement): it cannot fill and concedes frames {', '.join(conceded)} "
            "(the last of each kind in drawn order)."
        )
    return singles, doubles


def _shuffled(hat: Sequence[str], rng: random.Random) -> list[str]:
    """A uniform Fisher-Yates shuffle using only ``randrange``.

    ``Random.shuffle`` would do the same today; spelling it out keeps the draw tied to
    ``randrange`` (stable since Python 3.2) rather than to ``shuffle``'s implementation.
    """
    items = list(hat)
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _other(side: str) -> str:
    return AWAY if side == HOME else HOME


def _name_key(name: str) -> str:
    """Names that people would read as the same: case, width and spacing ignored."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _hat(side: str, names: Sequence[str] | Iterable[str]) -> tuple[str, ...]:
    """The side's hat: its names checked and sorted (code-point order, locale-free)."""
    if isinstance(names, str):
        raise DrawError(
            "invalid_name", f"The {side} squad must be a list of names, not one string."
        )
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            raise DrawError(
                "invalid_name", f"The {side} squad has a name that is not text: {name!r}."
            )
        if not name.strip():
            raise DrawError("empty_name", f"The {side} squad has an empty name.")
        key = _name_key(name)
        if key in seen:
            raise DrawError(
                "duplicate_name",
                f"The {side} squad names {seen[key]!r} and {name!r}: names in a side must differ.",
            )
        seen[key] = name
    return tuple(sorted(seen.values()))


def _check_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DrawError(
            "invalid_seed", f"The seed must be an integer from 0 to 2**63 - 1, not {seed!r}."
        )


# --------------------------------------------------------------------------- other formats


def draw_format(
    fmt: MatchFormat,
    home: Sequence[str],
    away: Sequence[str],
    seed: int,
    *,
    agreed: bool = False,
    nominations: Mapping[str, Any] | None = None,
) -> Draw:
    """Lay out a night in any match format (marker.formats) from the players present,
    the seed and, for a captains' format, their nominations.

    * ``hat``: in each section, frame by frame, each side's players are drawn from its
      sorted hat with ``random.Random(seed)``: nobody plays a second frame of a section
      before everyone present has played one, nobody more than the rule's limit
      (``max_per_section``). Home's section, then away's, section after section.
    * ``blind``: ``nominations[side]`` is, per section, per frame, the names the captain
      nominated (an empty list concedes the frame: a short side, by agreement).
    * ``fixed``: ``nominations[side]`` is the captain's numbered lineup (names in order);
      each frame takes the positions its section's pairing names (``1v2``: home's 1st
      against away's 2nd). A position the lineup lacks concedes the frame.

    Referees follow the format: the Norwich rotation (drawn with the seed), none, or
    named later by the captains. Refusals are :class:`DrawError`; a nomination that breaks
    the substitution rule names it.

    >>> from marker.formats import PRESETS, parse_format
    >>> fmt = parse_format(PRESETS["bagatelle_fixed"])
    >>> draw = draw_format(fmt, ["Ann", "Bob", "Cat"], ["Dan", "Eve", "Fay"], 9,
    ...                    nominations={"home": ["Cat", "Ann", "Bob"], "away": ["Eve", "Fay", "Dan"]})
    >>> [(f.home[0], f.away[0]) for f in draw.frames]
    [('Cat', 'Eve'), ('Ann', 'Fay'), ('Bob', 'Dan'), ('Cat', 'Fay'), ('Ann', 'Dan'), ('Bob', 'Eve')]
    """
    _check_seed(seed)
    hats = {HOME: _hat(HOME, home), AWAY: _hat(AWAY, away)}
    for side in SIDES:
        if not hats[side]:
            raise DrawError("empty_squad", f"The {side} side has no players: there is no match.")
    for side in SIDES:
        if len(hats[side]) < fmt.min_players and not agreed:
            raise DrawError(
                "too_few_players",
                f"The {side} side has only {len(hats[side])} players: the format "
                f"({fmt.name}) needs {fmt.min_players} a side unless both captains agree to "
                "play (--agreed).",
            )
    if fmt.substitution == NORWICH_FIVE:
        # Norwich's shape and hat with another referee rule: Norwich's own draw (rule 8),
        # its referees kept only with the rotation.
        base = draw_match(home, away, seed, agreed=agreed)
        frames_kept = base.frames
        notes_kept = base.notes
        if fmt.referee != ROTATION:
            frames_kept = tuple(replace(f, referee=None) for f in base.frames)
            notes_kept = tuple(n for n in base.notes if not n.startswith("Frame "))
        return replace(
            base,
            frames=frames_kept,
            notes=notes_kept,
            algorithm=FORMAT_ALGORITHM_VERSION,
            match_format=fmt.to_json(),
        )
    rng = random.Random(seed)
    notes: list[str] = []
    slots: dict[str, list[tuple[str, ...]]] = {}
    if fmt.selection == HAT:
        for side in SIDES:
            slots[side] = _hat_side(fmt, side, hats[side], rng, notes)
    else:
        nominations = nominations or {}
        for side in SIDES:
            given = nominations.get(side)
            if given is None:
                raise DrawError(
                    "nomination_missing", f"The {side} captain's nomination is not in yet."
                )
            if fmt.selection == BLIND:
                slots[side] = _nominated_side(fmt, side, hats[side], given, agreed)
            else:
                slots[side] = _lineup_side(fmt, side, hats[side], given, agreed)
    frames = []
    for number in range(1, fmt.frame_count + 1):
        conceded = tuple(side for side in SIDES if not slots[side][number - 1])
        frames.append(
            DrawnFrame(
                number,
                fmt.kind_of(number),
                slots[HOME][number - 1],
                slots[AWAY][number - 1],
                None,
                conceded,
            )
        )
    for side in SIDES:
        lost = [str(f.number) for f in frames if side in f.conceded_by]
        if lost:
            notes.append(
                f"The {side} side (played short by agreement) concedes frames {', '.join(lost)}."
            )
    referees: tuple[Referee | None, ...] = (None,) * len(frames)
    if fmt.referee == ROTATION:
        referees, referee_notes = assign_referees(
            frames, hats[HOME], hats[AWAY], random.Random(referee_seed(seed))
        )
        notes += referee_notes
    return Draw(
        seed=seed,
        algorithm=FORMAT_ALGORITHM_VERSION,
        home_hat=hats[HOME],
        away_hat=hats[AWAY],
        frames=tuple(replace(f, referee=r) for f, r in zip(frames, referees, strict=True)),
        notes=tuple(notes),
        agreed=agreed,
        match_format=fmt.to_json(),
        nominations=None if fmt.selection == HAT else {s: (nominations or {})[s] for s in SIDES},
    )


def _hat_side(
    fmt: MatchFormat, side: str, hat: tuple[str, ...], rng: random.Random, notes: list[str]
) -> list[tuple[str, ...]]:
    """One side's players, frame by frame, drawn from its hat (least played first)."""
    limit = fmt.frames_per_player()
    out: list[tuple[str, ...]] = []
    for section in fmt.sections:
        played: Counter[str] = Counter()
        for _ in range(section.frames):
            chosen: list[str] = []
            for _slot in range(section.size):
                free = [p for p in hat if played[p] < limit and p not in chosen]
                if not free:
                    chosen = []
                    break
                fewest = min(played[p] for p in free)
                pool = [p for p in free if played[p] == fewest]
                chosen.append(pool[rng.randrange(len(pool))])
            for player in chosen:
                played[player] += 1
            out.append(tuple(chosen))
        idle = [p for p in hat if not played[p]]
        if idle and len(hat) > section.frames * section.size:
            notes.append(f"{section.name}: not drawn to play ({side}): {', '.join(idle)}.")
    return out


def _limit_problem(fmt: MatchFormat, side: str, section_name: str, counts: Counter[str]) -> None:
    limit = fmt.frames_per_player()
    for player, times in sorted(counts.items()):
        if times > limit:
            raise DrawError(
                "too_many_frames",
                f"{player} ({side}) is put in {times} frames of {section_name}: the "
                f"substitution rule (max_per_section) allows {limit} frame"
                f"{'s' * (limit != 1)} a player in a section.",
            )


def _nominated_side(
    fmt: MatchFormat, side: str, hat: tuple[str, ...], given: Any, agreed: bool
) -> list[tuple[str, ...]]:
    """A captain's blind nomination checked: every frame's players, section by section."""
    if not isinstance(given, list) or len(given) != len(fmt.sections):
        raise DrawError(
            "bad_nomination",
            f"The {side} nomination must list the {len(fmt.sections)} sections' frames.",
        )
    out: list[tuple[str, ...]] = []
    for section, frames in zip(fmt.sections, given, strict=True):
        if not isinstance(frames, list) or len(frames) != section.frames:
            raise DrawError(
                "bad_nomination",
                f"The {side} nomination for {section.name} must name {section.frames} frames.",
            )
        counts: Counter[str] = Counter()
        for j, names in enumerate(frames, start=1):
            names = tuple(names or ())
            if not names:
                if not (agreed and len(hat) < fmt.min_players):
                    raise DrawError(
                        "nomination_incomplete",
                        f"The {side} nomination leaves {section.name} frame {j} empty: only a "
                        "side short of players, by both captains' agreement, concedes a frame.",
                    )
                out.append(())
                continue
            if len(names) != section.size or len(set(names)) != section.size:
                raise DrawError(
                    "bad_nomination",
                    f"{section.name} frame {j} ({section.kind}) needs {section.size} different "
                    f"{side} player{'s' * (section.size > 1)}, not {list(names)}.",
                )
            for name in names:
                if name not in hat:
                    raise DrawError(
                        "not_present",
                        f"{name} is not present for the {side} side ({section.name} frame {j}).",
                    )
            counts.update(names)
            out.append(names)
        _limit_problem(fmt, side, section.name, counts)
    return out


def check_nomination(
    fmt: MatchFormat, side: str, hat: Sequence[str], given: Any, agreed: bool
) -> list[tuple[str, ...]]:
    """A captain's nomination (blind) or numbered lineup (fixed), checked against the
    side's players present and the format's substitution rule, as each frame's players;
    :class:`DrawError` names what is wrong (``too_many_frames`` names the rule)."""
    hat = tuple(hat)
    if fmt.selection == BLIND:
        return _nominated_side(fmt, side, hat, given, agreed)
    return _lineup_side(fmt, side, hat, given, agreed)


def _lineup_side(
    fmt: MatchFormat, side: str, hat: tuple[str, ...], given: Any, agreed: bool
) -> list[tuple[str, ...]]:
    """A captain's numbered lineup placed by the pairing schedule."""
    size = fmt.lineup_size()
    if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
        raise DrawError("bad_nomination", f"The {side} lineup is a list of names in order.")
    if len(set(given)) != len(given):
        raise DrawError("bad_nomination", f"The {side} lineup names someone twice.")
    for name in given:
        if name not in hat:
            raise DrawError("not_present", f"{name} is not present for the {side} side.")
    short = len(given) < size
    if len(given) > size or (short and not (agreed and len(hat) < fmt.min_players)):
        raise DrawError(
            "bad_nomination",
            f"The {side} lineup has {len(given)} players; this format numbers {size} "
            "(fewer only for a side short of players, by both captains' agreement).",
        )
    index = 0 if side == HOME else 1
    out: list[tuple[str, ...]] = []
    for section in fmt.sections:
        for pairing in section.pairings:
            positions = pairing[index]
            if all(p <= len(given) for p in positions):
                out.append(tuple(given[p - 1] for p in positions))
            else:
                out.append(())
    return out


# --------------------------------------------------------------------------- referees

Player = tuple[str, str]  # (side, name)


def assign_referees(
    frames: Sequence[DrawnFrame],
    home_present: Iterable[str],
    away_present: Iterable[str],
    rng: random.Random,
) -> tuple[tuple[Referee | None, ...], tuple[str, ...]]:
    """A referee for every played frame, in the given order of play, and notes.

    Rule 6: the side given by :func:`rota_side` referees; a referee never plays in the
    frame; nobody referees twice. When no assignment meets all three, the one-frame rule
    gives way first (the fewest frames possible go to someone who already referees),
    then the rotation (only for a frame that the rota side cannot referee at all: every
    one of its present players plays in it); a referee never plays in their own frame,
    so a frame nobody present can referee gets ``None`` and a note. Among the assignments
    that relax least, and then spread double duties most evenly, one is drawn uniformly
    with ``rng``. Conceded frames get ``None``.

    >>> frames = [DrawnFrame(1, "singles", ("Ann",), ("Gus",)), DrawnFrame(2, "singles", ("Bob",), ("Hal",))]
    >>> referees, notes = assign_referees(frames, ["Ann", "Bob"], ["Gus", "Hal"], random.Random(1))
    >>> [(r.side, r.player) for r in referees]
    [('home', 'Bob'), ('away', 'Gus')]
    """
    frames = tuple(frames)
    present = {HOME: tuple(sorted(set(home_present))), AWAY: tuple(sorted(set(away_present)))}
    plan = _referee_plan(frames, present)
    choice = _sample_assignment(plan.eligible, rng)

    referees: list[Referee | None] = [None] * len(frames)
    notes: list[str] = []
    first_duty: dict[Player, int] = {}
    for position, frame in enumerate(frames):
        if position in plan.nobody:
            notes.append(
                f"Frame {frame.number}: every player present plays in it, so nobody present "
                "can referee it; someone who is not playing must."
            )
        if position not in choice:
            continue
        side, player = choice[position]
        relaxed = []
        if position in plan.rotation_relaxed:
            relaxed.append(RELAXED_ROTATION)
            rota = rota_side(position)
            notes.append(
                f"Frame {frame.number}: every {rota} player present plays in it, so the "
                f"{side} side referees instead ({player}): the home/away rotation gives way."
            )
        if (side, player) in first_duty:
            relaxed.append(RELAXED_ONE_FRAME)
            notes.append(
                f"Frame {frame.number}: {player} ({side}) also referees frame "
                f"{frames[first_duty[(side, player)]].number}: the {side} side has fewer "
                "players free than frames to referee, so the one-frame rule gives way."
            )
        else:
            first_duty[(side, player)] = position
        referees[position] = Referee(side, player, ",".join(relaxed) or None)
    return tuple(referees), tuple(notes)


def reassign_referees(
    frames: Draw | Sequence[DrawnFrame],
    home: Iterable[str],
    away: Iterable[str],
    seed: int,
) -> tuple[tuple[DrawnFrame, ...], tuple[str, ...]]:
    """Re-solve the referees for frames in a (possibly new) order of play.

    For when the captains agree to play the frames in another order (rule 6), or a
    player leaves: pass the frames in the new order and the players still present.
    The solver's ``random.Random`` is seeded with :func:`referee_seed` of ``seed``, so
    passing a draw's own frames, hats and seed gives back its referees exactly.

    >>> draw = draw_match(list("ABCDEF"), list("GHIJKL"), seed=5)
    >>> reassign_referees(draw, draw.home_hat, draw.away_hat, draw.seed)[0] == draw.frames
    True
    """
    _check_seed(seed)
    frame_list = frames.frames if isinstance(frames, Draw) else tuple(frames)
    referees, notes = assign_referees(
        frame_list, _hat(HOME, home), _hat(AWAY, away), random.Random(referee_seed(seed))
    )
    return tuple(replace(f, referee=r) for f, r in zip(frame_list, referees, strict=True)), notes


@dataclass(frozen=True)
class _RefereePlan:
    """Which side referees each played frame, and who is eligible."""

    eligible: dict[int, tuple[Player, ...]]  # position -> eligible (side, name), sorted
    rotation_relaxed: frozenset[int]
    nobody: frozenset[int]  # played frames that no present player can referee


def _referee_plan(
    frames: Sequence[DrawnFrame], present: Mapping[str, Sequence[str]]
) -> _RefereePlan:
    eligible: dict[int, tuple[Player, ...]] = {}
    rotation_relaxed = set()
    nobody = set()
    for position, frame in enumerate(frames):
        if not frame.is_played:
            continue
        rota = rota_side(position)
        for side in (rota, _other(rota)):
            free = tuple((side, p) for p in present[side] if p not in frame.players(side))
            if free:
                eligible[position] = free
                if side != rota:
                    rotation_relaxed.add(position)
                break
        else:
            nobody.add(position)
    return _RefereePlan(eligible, frozenset(rotation_relaxed), frozenset(nobody))


def _max_matching(eligible: Mapping[int, Sequence[Player]]) -> int:
    """Size of a maximum matching frames -> players (Kuhn's augmenting paths)."""
    owner: dict[Player, int] = {}

    def augment(frame: int, seen: set[Player]) -> bool:
        for player in eligible[frame]:
            if player not in seen:
                seen.add(player)
                if player not in owner or augment(owner[player], seen):
                    owner[player] = frame
                    return True
        return False

    return sum(augment(frame, set()) for frame in sorted(eligible))


def _components(eligible: Mapping[int, Sequence[Player]]) -> list[list[int]]:
    """Frames linked through shared eligible players (independent sub-problems)."""
    parent = {frame: frame for frame in eligible}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_player: dict[Player, int] = {}
    for frame in sorted(eligible):
        for player in eligible[frame]:
            if player in by_player:
                parent[find(frame)] = find(by_player[player])
            else:
                by_player[player] = frame
    groups: dict[int, list[int]] = {}
    for frame in sorted(eligible):
        groups.setdefault(find(frame), []).append(frame)
    return sorted(groups.values())


Cost = tuple[int, int]  # (frames refereed by someone already refereeing, sum of duties squared)
State = tuple[tuple[int, ...], ...]  # per class of interchangeable players: sorted duty counts


def _sample_assignment(
    eligible: Mapping[int, Sequence[Player]], rng: random.Random
) -> dict[int, Player]:
    """A uniformly random optimal assignment of frames to eligible players.

    Optimal: fewest frames given to someone who already referees one (0 whenever a
    matching covers every frame, i.e. Hall's condition holds), then the smallest sum of
    squared duties (double duties spread out). Components (frames linked by shared
    eligible players) are independent and solved one after another.
    """
    result: dict[int, Player] = {}
    for component in _components(eligible):
        result.update(_sample_component(component, eligible, rng))
    return result


def _sample_component(
    component: Sequence[int], eligible: Mapping[int, Sequence[Player]], rng: random.Random
) -> dict[int, Player]:
    """:func:`_sample_assignment` for one component.

    Players eligible for exactly the same frames are interchangeable, so a memoised
    count over (frame, duties per class of such players) gives the number of optimal
    completions of each choice; drawing each choice with probability proportional to
    that count makes every optimal assignment equally likely. When a matching covers
    every frame (found by augmenting paths), only first duties are explored. The
    sub-problems are small: a side referees at most five frames.
    """
    strict = _max_matching({f: eligible[f] for f in component}) == len(component)
    signature: dict[Player, tuple[int, ...]] = {}
    for frame in component:
        for player in eligible[frame]:
            signature[player] = (*signature.get(player, ()), frame)
    grouped: dict[tuple[int, ...], list[Player]] = {}
    for player in sorted(signature):
        grouped.setdefault(signature[player], []).append(player)
    classes = sorted(grouped.items(), key=lambda item: (item[0], item[1][0]))
    members = [tuple(players) for _, players in classes]
    classes_of = {
        frame: [i for i, (sig, _) in enumerate(classes) if frame in sig] for frame in component
    }
    memo: dict[tuple[int, State], tuple[Cost | None, int]] = {}

    def options(k: int, state: State) -> list[tuple[Cost, int, int, int, State]]:
        """(cost from frame k on, weight, class, duty level, next state) per choice."""
        found = []
        for ci in classes_of[component[k]]:
            duties = state[ci]  # sorted ascending
            start = 0
            while start < len(duties):
                level = duties[start]
                if strict and level > 0:
                    break  # a matching covers every frame: nobody referees twice
                end = bisect.bisect_right(duties, level, start)
                count = end - start
                start = end
                # One of the `count` players at this level takes the frame; bumping the
                # last of them keeps the tuple sorted.
                bumped = duties[: end - 1] + (level + 1,) + duties[end:]
                nxt = state[:ci] + (bumped,) + state[ci + 1 :]
                rest, ways = best(k + 1, nxt)
                if rest is not None:
                    cost = (rest[0] + (level > 0), rest[1] + 2 * level + 1)
                    found.append((cost, count * ways, ci, level, nxt))
        return found

    def best(k: int, state: State) -> tuple[Cost | None, int]:
        """(least cost from frame k on, number of concrete assignments achieving it)."""
        if k == len(component):
            return (0, 0), 1
        key = (k, state)
        if key not in memo:
            found = options(k, state)
            if not found:
                memo[key] = (None, 0)
            else:
                least = min(cost for cost, *_ in found)
                memo[key] = (least, sum(w for cost, w, *_ in found if cost == least))
        return memo[key]

    chosen: dict[int, Player] = {}
    state: State = tuple((0,) * len(m) for m in members)
    duty: dict[Player, int] = dict.fromkeys(signature, 0)
    for k, frame in enumerate(component):
        found = options(k, state)
        least = min(cost for cost, *_ in found)
        found = [item for item in found if item[0] == least]
        pick = rng.randrange(sum(weight for _, weight, *_ in found))
        for item in found:
            if pick < item[1]:
                break
            pick -= item[1]
        _, _, ci, level, nxt = item
        candidates = [p for p in members[ci] if duty[p] == level]
        player = candidates[rng.randrange(len(candidates))]
        duty[player] += 1
        chosen[frame] = player
        state = nxt
    return chosen


# --------------------------------------------------------------------------- validation


def validate_draw(
    draw: Draw,
    home: Sequence[str],
    away: Sequence[str],
    match_format: MatchFormat | None = None,
) -> list[str]:
    """Every rule of 6 and 8 (and this module's conventions) that ``draw`` breaks.

    ``home`` and ``away`` are the squads drawn (and present to referee). An empty list
    means the draw is valid. Checks the frames and kinds, the squads, who plays what
    (at most one singles and one doubles each, or the exact rule-8 shape for a side of
    five), concessions (exactly the frames a short side cannot fill, the last of each
    kind in drawn order, and only by agreement), and the referees (present, on the rota
    side, never in their own frame, one frame each, relaxing only where unavoidable, and
    marked in ``rule_relaxed`` where relaxed). Used on hand-edited and paper draws too.
    Another ``match_format`` is checked by :func:`_format_problems`.
    """
    if match_format is not None and not match_format.is_norwich:
        if match_format.substitution != NORWICH_FIVE:
            return _format_problems(draw, home, away, match_format)
        if match_format.referee != ROTATION:
            if any(f.referee is not None for f in draw.frames):
                return ["This format draws no referee."]
            # Rule 8's frames checked as Norwich's, with the referees the rota would give.
            draw = replace(draw, frames=reassign_referees(draw, home, away, draw.seed)[0])
    problems: list[str] = []
    squads: dict[str, tuple[str, ...]] = {}
    for side, names in ((HOME, home), (AWAY, away)):
        try:
            squads[side] = _hat(side, names)
        except DrawError as error:
            problems.append(error.message)
            squads[side] = tuple(sorted({n for n in names if isinstance(n, str)}))
    for side, hat in ((HOME, draw.home_hat), (AWAY, draw.away_hat)):
        if tuple(sorted(hat)) != squads[side]:
            problems.append(
                f"The {side} hat {list(hat)} is not the {side} squad {list(squads[side])}."
            )
        size = len(squads[side])
        if size == 0:
            problems.append(f"The {side} side has no players.")
        elif size < MINIMUM_PLAYERS and not draw.agreed:
            problems.append(
                f"The {side} side has {size} players: rule 8 needs five unless both captains agree."
            )

    numbers = [frame.number for frame in draw.frames]
    if sorted(numbers) != list(SINGLES_FRAMES + DOUBLES_FRAMES):
        problems.append(f"A match has frames 1 to 9, each once; this draw has {numbers}.")
    by_number: dict[int, DrawnFrame] = {}
    for frame in draw.frames:
        if frame.number not in SINGLES_FRAMES + DOUBLES_FRAMES:
            continue
        by_number[frame.number] = frame
        kind = frame_kind(frame.number)
        if frame.kind != kind:
            problems.append(f"Frame {frame.number} is {kind}, not {frame.kind!r}.")
        problems += _frame_problems(frame, kind, squads)

    for side in SIDES:
        problems += _side_problems(side, squads[side], by_number)
    problems += _referee_problems(draw.frames, squads)
    return problems


def _frame_problems(frame: DrawnFrame, kind: str, squads: Mapping[str, Sequence[str]]) -> list[str]:
    problems = []
    if any(side not in SIDES for side in frame.conceded_by) or len(set(frame.conceded_by)) != len(
        frame.conceded_by
    ):
        problems.append(
            f"Frame {frame.number}: conceded_by {frame.conceded_by} is not a set of sides."
        )
    size = {SINGLES: 1, DOUBLES: 2, "triples": 3}.get(kind, 2)
    for side in SIDES:
        players = frame.players(side)
        if side in frame.conceded_by:
            if players:
                problems.append(
                    f"Frame {frame.number}: {side} concedes it but has players {list(players)}."
                )
            continue
        if len(players) != size or len(set(players)) != size:
            problems.append(
                f"Frame {frame.number} ({kind}): {side} needs {size} different player"
                f"{'s' if size > 1 else ''}, not {list(players)} (or must concede it)."
            )
        for player in players:
            if player not in squads[side]:
                problems.append(f"Frame {frame.number}: {player} is not in the {side} squad.")
    return problems


def _side_problems(
    side: str, squad: Sequence[str], by_number: Mapping[int, DrawnFrame]
) -> list[str]:
    """Who plays what on one side: rule 6 limits, rule 8 shape, concessions."""
    problems = []
    size = len(squad)
    singles = {n: by_number[n].players(side) for n in SINGLES_FRAMES if n in by_number}
    doubles = {n: by_number[n].players(side) for n in DOUBLES_FRAMES if n in by_number}
    conceded = [n for n in sorted(by_number) if side in by_number[n].conceded_by]
    if size >= MINIMUM_PLAYERS:
        expected: list[int] = []
    else:
        expected = [n for n in SINGLES_FRAMES if n > size]
        expected += [n for n in DOUBLES_FRAMES if n - 7 >= size // 2]
    if conceded != expected:
        problems.append(
            f"The {side} side has {size} players, so it must concede exactly frames "
            f"{expected or 'none'} (the frames it cannot fill, last of each kind in drawn "
            f"order); it concedes {conceded or 'none'}."
        )

    singles_count = Counter(p for players in singles.values() for p in players)
    doubles_count = Counter(p for players in doubles.values() for p in players)
    if size != 5:
        for kind, counts in ((SINGLES, singles_count), (DOUBLES, doubles_count)):
            for player, times in sorted(counts.items()):
                if times > 1:
                    problems.append(
                        f"{player} ({side}) plays {times} {kind} frames: rule 6 allows one "
                        "(two only under rule 8, for a side of five)."
                    )
        return problems

    # Rule 8, a side of five: frames 1-5 hold all five names once; frame 6 a redrawn
    # name; frames 7, 8 and one name of 9 hold all five once; the other name of 9 is a
    # redraw among those who did not play two singles (and are not already in frame 9).
    first_five = [p for n in SINGLES_FRAMES[:5] for p in singles.get(n, ())]
    if sorted(first_five) != sorted(squad):
        problems.append(
            f"Rule 8(a): {side} has five players, so singles frames 1-5 must hold each of "
            f"them once; they hold {first_five}."
        )
    twice_singles = [p for p, times in singles_count.items() if times == 2]
    twice_doubles = sorted(p for p, times in doubles_count.items() if times == 2)
    shape_ok = (
        sorted(doubles_count) == sorted(squad)
        and sum(doubles_count.values()) == 6
        and len(twice_doubles) == 1
        and twice_doubles[0] in doubles.get(9, ())
    )
    if not shape_ok:
        problems.append(
            f"Rule 8(c): {side} has five players, so doubles frames 7, 8 and 9 must hold "
            "each of them once plus one redrawn name in frame 9."
        )
    elif twice_singles and twice_doubles[0] == twice_singles[0]:
        problems.append(
            f"Rule 8(c): {twice_doubles[0]} ({side}) plays two singles, so cannot be the "
            "third-doubles redraw."
        )
    return problems


def _referee_problems(
    frames: Sequence[DrawnFrame], squads: Mapping[str, Sequence[str]]
) -> list[str]:
    problems = []
    plan = _referee_plan(frames, squads)
    duties: dict[Player, list[int]] = {}
    for position, frame in enumerate(frames):
        referee = frame.referee
        if not frame.is_played:
            if referee is not None:
                problems.append(f"Frame {frame.number} is conceded, so it has no referee.")
            continue
        if referee is None:
            if position not in plan.nobody:
                problems.append(f"Frame {frame.number} has no referee.")
            continue
        if referee.side not in SIDES or referee.player not in squads[referee.side]:
            problems.append(
                f"Frame {frame.number}: the referee {referee.player} is not a present "
                f"{referee.side} player."
            )
            continue
        if referee.player in frame.players(referee.side):
            problems.append(
                f"Frame {frame.number}: {referee.player} ({referee.side}) referees a frame "
                "they play in (rule 6 never allows it)."
            )
        marks = set((referee.rule_relaxed or "").split(",")) - {""}
        rota = rota_side(position)
        if referee.side != rota:
            if position not in plan.rotation_relaxed:
                problems.append(
                    f"Frame {frame.number} is the {rota} side's to referee (home the 1st, then "
                    f"alternately) and a {rota} player is free, but {referee.player} "
                    f"({referee.side}) referees it."
                )
            elif RELAXED_ROTATION not in marks:
                problems.append(f"Frame {frame.number}: the rotation gives way but is not marked.")
        elif RELAXED_ROTATION in marks:
            problems.append(
                f"Frame {frame.number} is marked {RELAXED_ROTATION} but keeps the rotation."
            )
        key = (referee.side, referee.player)
        repeat = key in duties
        duties.setdefault(key, []).append(frame.number)
        if repeat != (RELAXED_ONE_FRAME in marks):
            problems.append(
                f"Frame {frame.number}: {referee.player} ({referee.side}) "
                + (
                    "referees again but it is not marked."
                    if repeat
                    else f"is marked {RELAXED_ONE_FRAME} but has no other frame."
                )
            )
    repeats = sum(len(numbers) - 1 for numbers in duties.values())
    least = len(plan.eligible) - _max_matching(plan.eligible)
    if repeats > least:
        twice = "; ".join(
            f"{player} ({side}) frames {numbers}"
            for (side, player), numbers in sorted(duties.items())
            if len(numbers) > 1
        )
        problems.append(
            f"Rule 6: a player referees no more than one frame, and an assignment with "
            f"{least} double dut{'y' if least == 1 else 'ies'} exists; this one has {repeats}: {twice}."
        )
    return problems


def _format_problems(
    draw: Draw, home: Sequence[str], away: Sequence[str], fmt: MatchFormat
) -> list[str]:
    """What a draw in another format breaks: its frames and kinds, the squads, players per
    frame, the substitution rule per section, and (with the rotation) the referees."""
    problems: list[str] = []
    squads = {HOME: tuple(sorted(set(home))), AWAY: tuple(sorted(set(away)))}
    numbers = [frame.number for frame in draw.frames]
    if sorted(numbers) != list(range(1, fmt.frame_count + 1)):
        problems.append(
            f"This format has frames 1 to {fmt.frame_count}, each once; this draw has {numbers}."
        )
        return problems
    limit = fmt.frames_per_player()
    counts: dict[tuple[str, int], Counter[str]] = {}
    for frame in draw.frames:
        kind = fmt.kind_of(frame.number)
        if frame.kind != kind:
            problems.append(f"Frame {frame.number} is {kind}, not {frame.kind!r}.")
        problems += _frame_problems(frame, kind, squads)
        index = fmt.section_index(frame.number)
        for side in SIDES:
            counts.setdefault((side, index), Counter()).update(frame.players(side))
        if fmt.referee != ROTATION and frame.referee is not None:
            problems.append(f"Frame {frame.number}: this format draws no referee.")
    for (side, index), seen in sorted(counts.items()):
        for player, times in sorted(seen.items()):
            if times > limit:
                problems.append(
                    f"{player} ({side}) plays {times} frames of {fmt.sections[index].name}: "
                    f"the substitution rule (max_per_section) allows {limit}."
                )
    if fmt.referee == ROTATION:
        problems += _referee_problems(draw.frames, squads)
    return problems


# --------------------------------------------------------------------------- command line


class _JsonArgumentParser(argparse.ArgumentParser):
    """Usage errors as ``{"error": "usage", "message": ...}`` on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        _fail("usage", f"{message} (usage: {self.format_usage().strip().removeprefix('usage: ')})")


def _fail(code: str, message: str) -> NoReturn:
    print(json.dumps({"error": code, "message": message}, ensure_ascii=False), file=sys.stderr)
    raise SystemExit(2)


def _names(value: str) -> list[str]:
    return [] if not value.strip() else [part.strip() for part in value.split(",")]


def _load_json(path: str, code: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as exc:
        _fail(code, f"Cannot read {path}: {exc}")


def _load_format(value: str) -> MatchFormat:
    data = PRESETS.get(value)
    if data is None:
        data = _load_json(value, "invalid_format")
    try:
        return parse_format(data)
    except FormatError as exc:
        _fail("invalid_format", str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m frames.draw --home A,B,... --away C,D,... --seed N [--agreed]``.

    Prints the draw as JSON on stdout (status 0), or ``{"error", "message"}`` on stderr
    with status 2 when the squads cannot be drawn.
    """
    parser = _JsonArgumentParser(
        prog="python -m frames.draw",
        description="Draw a 4-pin bar billiards league match (rules 6-8) and its referees.",
    )
    parser.add_argument("--home", required=True, help="home players present, comma-separated")
    parser.add_argument("--away", required=True, help="away players present, comma-separated")
    parser.add_argument("--seed", required=True, help="integer seed, 0 to 2**63-1")
    parser.add_argument(
        "--agreed",
        action="store_true",
        help="both captains agree to play although a side has fewer than five",
    )
    parser.add_argument(
        "--format",
        help="the match format: a preset name (" + ", ".join(PRESETS) + ") or a JSON file "
        "(the match's stored format); Norwich's when left out",
    )
    parser.add_argument(
        "--nominations",
        help='a JSON file of the captains\' nominations, {"home": ..., "away": ...} '
        "(blind: names per section per frame; fixed: the numbered lineup)",
    )
    parser.add_argument("--version", action="version", version=ALGORITHM_VERSION)
    args = parser.parse_args(argv)
    try:
        seed = int(args.seed)
    except ValueError:
        _fail("invalid_seed", f"The seed must be an integer, not {args.seed!r}.")
    match_format = None
    if args.format:
        match_format = _load_format(args.format)
    nominations = None
    if args.nominations:
        nominations = _load_json(args.nominations, "invalid_nominations")
    try:
        draw = draw_match(
            _names(args.home),
            _names(args.away),
            seed,
            agreed=args.agreed,
            match_format=match_format,
            nominations=nominations,
        )
    except DrawError as error:
        _fail(error.code, error.message)
    print(json.dumps(draw.to_json(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
