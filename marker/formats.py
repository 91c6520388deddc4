"""Match formats: what a league match is made of, as plain JSON checked in one place.

Pure standard library (no Django): `leagues` validates a format on save with it, the
tables read its points from it, and `frames.draw` (runnable from a bare checkout) lays a
night's frames out from it. docs/formats.md is the user's guide; the short version:

* **sections**, in order of play: each a name, a kind (singles, doubles or triples) and a
  number of frames. Frames are numbered 1, 2, 3 … through the sections.
* **selection**, how players are put into frames: ``hat`` (drawn from a hat with the
  commit–reveal seed; Norwich's draw), ``blind`` (each captain nominates every frame's
  players, hidden until both are in, revealed together) or ``fixed`` (each captain gives
  a numbered lineup; a pairing schedule such as ``1v1, 2v2`` or ``1+2v3+4`` places them).
* **substitution**: ``norwich_five`` (rule 8 of the Norwich league: a side of five plays one
  extra singles and one extra doubles; Norwich's shape and the hat only) or
  ``max_per_section`` (at most ``max_per_section`` frames a player in each section).
* **referee**: ``norwich_rotation`` (home the 1st, 3rd … frame, away the others, drawn
  with the seed), ``none``, or ``named`` (the captains or the secretary name one per frame).
* **points**: per frame won, per section won, per match won. ``frame`` or ``match`` left
  ``null`` take the season's points scheme (its bonuses and draw points stay the season's).

A format is data: what differs between formats is declared (its substitution rule's
:class:`SubstitutionRule`, whether it uses the hat, who nominates), never tested by name.

>>> fmt = parse_format(PRESETS["norwich"])
>>> fmt.rule_draw, fmt.rule_name, fmt.frame_count, [fmt.kind_of(n) for n in (1, 6, 7, 9)]
(True, 'rule 8', 9, ['singles', 'singles', 'doubles', 'doubles'])
>>> format_problems({"name": "", "sections": []})[0]
('name', 'Give the format a name.')
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = [
    "BLIND",
    "DEFAULT_PRESET",
    "FIXED",
    "HAT",
    "KINDS",
    "PRESETS",
    "PRESET_CHOICES",
    "FormatError",
    "MatchFormat",
    "Points",
    "Section",
    "SubstitutionRule",
    "default_format",
    "effective_format",
    "format_problems",
    "parse_format",
    "parse_pairing",
    "sections_won",
]

SINGLES, DOUBLES, TRIPLES = "singles", "doubles", "triples"
#: Players a side puts into one frame of each kind.
KINDS = {SINGLES: 1, DOUBLES: 2, TRIPLES: 3}
HAT, BLIND, FIXED = "hat", "blind", "fixed"
SELECTIONS = {
    HAT: "drawn from a hat (commit–reveal seed)",
    BLIND: "captains' blind nomination, revealed together",
    FIXED: "fixed order from the captains' numbered lineups",
}
NORWICH_FIVE, MAX_PER_SECTION = "norwich_five", "max_per_section"
ROTATION, NO_REFEREE, NAMED = "norwich_rotation", "none", "named"
REFEREES = {
    ROTATION: "home and away referee in turn, drawn with the seed",
    NO_REFEREE: "no referee",
    NAMED: "named per frame by the captains or the secretary",
}
MAX_FRAMES = 30
MAX_SECTIONS = 10


@dataclass(frozen=True)
class SubstitutionRule:
    """What a substitution rule declares, so that nothing else asks which rule it is.

    ``words`` describes it (``{k}``: frames a player, ``{s}``: its plural). A rule with
    ``frames_per_player`` fixes that number (else the format's ``max_per_section`` does);
    ``shape`` and ``selection``, when set, are the only sections and selection it fits;
    ``min_players``, the players a side needs under it; ``misfit`` says what it fits. ``name`` is what a refusal cites
    and ``own_referee`` the referee rule of the rule's own draw (``frames.draw.hat``):
    a format asking for exactly that (``MatchFormat.rule_draw``) is drawn and replayed
    without its format; a rule with no own draw (``name`` empty) never is.
    """

    key: str
    words: str
    name: str = ""
    frames_per_player: int | None = None
    shape: tuple[tuple[str, int], ...] | None = None
    selection: str | None = None
    min_players: int | None = None
    own_referee: str | None = None
    misfit: str = ""

    @property
    def has_own_draw(self) -> bool:
        return bool(self.name)


SUBSTITUTION_RULES = {
    NORWICH_FIVE: SubstitutionRule(
        key=NORWICH_FIVE,
        words="Norwich rule 8 (a side of five: one player plays two singles, one two doubles)",
        name="rule 8",
        frames_per_player=1,
        shape=((SINGLES, 6), (DOUBLES, 3)),
        selection=HAT,
        min_players=5,
        own_referee=ROTATION,
        misfit="Norwich's five-player rule (norwich_five) fits only 6 singles then 3 doubles "
        "drawn from the hat; use max_per_section for other formats.",
    ),
    MAX_PER_SECTION: SubstitutionRule(
        key=MAX_PER_SECTION, words="at most {k} frame{s} a player in each section"
    ),
}
SUBSTITUTIONS = {key: rule.words for key, rule in SUBSTITUTION_RULES.items()}

_PAIRING = re.compile(r"^\s*(\d+(?:\s*\+\s*\d+)*)\s*v\s*(\d+(?:\s*\+\s*\d+)*)\s*$", re.I)


class FormatError(ValueError):
    """A format that cannot be used: ``problems`` lists (field, message), every one found."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(message for _, message in problems))
        self.problems = problems


@dataclass(frozen=True)
class Section:
    """A run of frames of one kind. ``pairings`` (fixed order only) gives, per frame, the
    lineup positions (1-based) of the home and the away players."""

    name: str
    kind: str
    frames: int
    pairings: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()

    @property
    def size(self) -> int:
        return KINDS[self.kind]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "frames": self.frames}
        if self.pairings:
            data["pairings"] = [pairing_text(h, a) for h, a in self.pairings]
        return data


@dataclass(frozen=True)
class Points:
    """League points from one match. None: the season's points scheme decides."""

    frame: Decimal | None = None
    section: Decimal = Decimal(0)
    match: Decimal | None = None

    def to_json(self) -> dict[str, str | None]:
        return {
            "frame": None if self.frame is None else str(self.frame),
            "section": str(self.section),
            "match": None if self.match is None else str(self.match),
        }


@dataclass(frozen=True)
class MatchFormat:
    """A checked format (build one with :func:`parse_format`)."""

    name: str
    sections: tuple[Section, ...]
    selection: str = HAT
    substitution: str = NORWICH_FIVE
    max_per_section: int = 1
    referee: str = ROTATION
    points: Points = Points()
    min_players: int = 5

    @property
    def frame_count(self) -> int:
        return sum(s.frames for s in self.sections)

    @property
    def rule(self) -> SubstitutionRule:
        """What the format's substitution rule declares."""
        return SUBSTITUTION_RULES[self.substitution]

    @property
    def rule_draw(self) -> bool:
        """The night is its substitution rule's own draw and nothing more (Norwich's: rule
        8 with the rotation), drawn and replayed without the format
        (``frames.draw.draw_match`` without one), bit for bit."""
        rule = self.rule
        return (
            rule.has_own_draw
            and self.referee == rule.own_referee
            and self.min_players == rule.min_players
        )

    @property
    def rule_name(self) -> str:
        """What lets a short side play by agreement: the rule's name for its own draw,
        else ``the format``."""
        return self.rule.name if self.rule_draw else "the format"

    @property
    def rule_citation(self) -> str:
        """:attr:`rule_name`, naming the format when it is the format."""
        return self.rule.name if self.rule_draw else f"the format ({self.name})"

    @property
    def uses_hat(self) -> bool:
        """Players are drawn from the hat with the seed (no nominations)."""
        return self.selection == HAT

    @property
    def nominated(self) -> bool:
        """Each captain nominates (blind) or gives a numbered lineup (fixed order)."""
        return self.selection in (BLIND, FIXED)

    def numbers(self, index: int) -> range:
        """The frame numbers of section ``index`` (1-based, through the sections)."""
        start = 1 + sum(s.frames for s in self.sections[:index])
        return range(start, start + self.sections[index].frames)

    def section_index(self, number: int) -> int:
        """The section a frame number belongs to."""
        for index in range(len(self.sections)):
            if number in self.numbers(index):
                return index
        raise ValueError(f"this format has frames 1-{self.frame_count}, not {number!r}")

    def kind_of(self, number: int) -> str:
        return self.sections[self.section_index(number)].kind

    def lineup_size(self) -> int:
        """Fixed order: the positions a numbered lineup needs (the highest in the pairings)."""
        return max(
            (p for s in self.sections for pair in s.pairings for side in pair for p in side),
            default=0,
        )

    def frames_per_player(self) -> int:
        """Most frames one player may play in a section."""
        return self.rule.frames_per_player or self.max_per_section

    def describe(self) -> list[str]:
        """The format in words, for the season and match pages."""
        shape = ", then ".join(
            f"{s.name}: {s.frames} {s.kind} frame{'s' * (s.frames != 1)}" for s in self.sections
        )
        k = self.max_per_section
        substitution = SUBSTITUTIONS[self.substitution].format(k=k, s="s" * (k != 1))
        lines = [
            f"{shape} ({self.frame_count} frames).",
            f"Players: {SELECTIONS[self.selection]}; {substitution}; "
            f"at least {self.min_players} a side unless both captains agree.",
            f"Referees: {REFEREES[self.referee]}.",
        ]
        if self.selection == FIXED:
            lines.append(
                "Pairings: "
                + "; ".join(
                    f"{s.name} " + ", ".join(pairing_text(h, a) for h, a in s.pairings)
                    for s in self.sections
                )
                + "."
            )
        points = []
        p = self.points
        points.append(
            "the season's points per frame" if p.frame is None else f"{_num(p.frame)} per frame won"
        )
        if p.section:
            points.append(f"{_num(p.section)} per section won (half each for a level section)")
        points.append(
            "the season's points per match won"
            if p.match is None
            else f"{_num(p.match)} per match won"
        )
        lines.append("Points: " + "; ".join(points) + ".")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sections": [s.to_json() for s in self.sections],
            "selection": self.selection,
            "substitution": self.substitution,
            "max_per_section": self.max_per_section,
            "referee": self.referee,
            "points": self.points.to_json(),
            "min_players": self.min_players,
        }


def _num(value: Decimal) -> str:
    return f"{value.normalize():f}"


def pairing_text(home: Iterable[int], away: Iterable[int]) -> str:
    """``(1, 2), (3, 4)`` → ``"1+2v3+4"``."""
    return "+".join(map(str, home)) + "v" + "+".join(map(str, away))


def parse_pairing(text: object) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``"1+2 v 3+4"`` → ``((1, 2), (3, 4))``; None when it is not a pairing.

    >>> parse_pairing("1v2"), parse_pairing("1+2 V 3+4"), parse_pairing("one v two")
    (((1,), (2,)), ((1, 2), (3, 4)), None)
    """
    if not isinstance(text, str):
        return None
    found = _PAIRING.match(text)
    if not found:
        return None
    home, away = (tuple(int(p) for p in part.split("+")) for part in found.groups())
    return home, away


def default_pairings(kind: str, frames: int, start: int = 1) -> list[str]:
    """Straight pairings from position ``start``: 1v1, 2v2 … (1+2v1+2, 3+4v3+4 … in pairs).

    >>> default_pairings("singles", 3), default_pairings("doubles", 2)
    (['1v1', '2v2', '3v3'], ['1+2v1+2', '3+4v3+4'])
    """
    size = KINDS[kind]
    out = []
    for j in range(frames):
        slots = [start + j * size + t for t in range(size)]
        out.append(pairing_text(slots, slots))
    return out


# --------------------------------------------------------------------------- presets

PRESETS: dict[str, dict[str, Any]] = {
    "norwich": {
        "name": "Norwich bar billiards",
        "sections": [
            {"name": "Singles", "kind": SINGLES, "frames": 6},
            {"name": "Doubles", "kind": DOUBLES, "frames": 3},
        ],
        "selection": HAT,
        "substitution": NORWICH_FIVE,
        "max_per_section": 1,
        "referee": ROTATION,
        "points": {"frame": None, "section": "0", "match": None},
        "min_players": 5,
    },
    "pool_captains_order": {
        "name": "8 singles, captains' order",
        "sections": [
            {
                "name": "Singles",
                "kind": SINGLES,
                "frames": 8,
                "pairings": default_pairings(SINGLES, 8),
            }
        ],
        "selection": FIXED,
        "substitution": MAX_PER_SECTION,
        "max_per_section": 1,
        "referee": NO_REFEREE,
        "points": {"frame": "1", "section": "0", "match": "1"},
        "min_players": 8,
    },
    "snooker_blind": {
        "name": "Snooker: 4 singles + 1 doubles, blind nomination",
        "sections": [
            {"name": "Singles", "kind": SINGLES, "frames": 4},
            {"name": "Doubles", "kind": DOUBLES, "frames": 1},
        ],
        "selection": BLIND,
        "substitution": MAX_PER_SECTION,
        "max_per_section": 1,
        "referee": NAMED,
        "points": {"frame": "1", "section": "1", "match": "0"},
        "min_players": 4,
    },
    "bagatelle_fixed": {
        "name": "Bagatelle: 6 singles, fixed order",
        "sections": [
            {"name": "First leg", "kind": SINGLES, "frames": 3, "pairings": ["1v1", "2v2", "3v3"]},
            {"name": "Second leg", "kind": SINGLES, "frames": 3, "pairings": ["1v2", "2v3", "3v1"]},
        ],
        "selection": FIXED,
        "substitution": MAX_PER_SECTION,
        "max_per_section": 1,
        "referee": ROTATION,
        "points": {"frame": "1", "section": "1", "match": "2"},
        "min_players": 3,
    },
}
DEFAULT_PRESET = "norwich"
#: The presets' keys, as an API field's choices (one enum in the schema).
PRESET_CHOICES = list(PRESETS)


def default_format() -> dict[str, Any]:
    """The default format's JSON (a new season's): Norwich bar billiards."""
    return copy.deepcopy(PRESETS[DEFAULT_PRESET])


# --------------------------------------------------------------------------- checking


def _decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, str, float, Decimal)):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    if (
        not number.is_finite()
        or number < 0
        or number > 99
        or number != number.quantize(Decimal("0.1"))
    ):
        return None
    return number.quantize(Decimal("0.1"))


def format_problems(data: object) -> list[tuple[str, str]]:
    """Every reason ``data`` is not a usable format, as (field, message); [] when it is.

    >>> format_problems(dict(PRESETS["norwich"], referee="coin"))
    [('referee', "The referee rule is 'norwich_rotation', 'none' or 'named', not 'coin'.")]
    """
    try:
        _build(data)
    except FormatError as exc:
        return exc.problems
    return []


def parse_format(data: object) -> MatchFormat:
    """A checked :class:`MatchFormat` from its JSON, or :class:`FormatError`."""
    return _build(data)


def _build(data: object) -> MatchFormat:  # noqa: C901 - one check per field, in order
    problems: list[tuple[str, str]] = []

    def bad(field: str, message: str) -> None:
        problems.append((field, message))

    if not isinstance(data, Mapping):
        raise FormatError([("format", "A format is an object with its name, sections and rules.")])
    known = {
        "name",
        "sections",
        "selection",
        "substitution",
        "max_per_section",
        "referee",
        "points",
        "min_players",
    }
    for key in sorted(set(data) - known, key=str):
        bad(str(key), f"Unknown field {key!r}: a format has {', '.join(sorted(known))}.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        bad("name", "Give the format a name.")
        name = ""
    elif len(name) > 80:
        bad("name", "A format's name is at most 80 characters.")
    selection = data.get("selection", HAT)
    if selection not in SELECTIONS:
        bad(
            "selection",
            f"Players are put into frames by 'hat', 'blind' or 'fixed', not {selection!r}.",
        )
    substitution = data.get("substitution", MAX_PER_SECTION)
    if substitution not in SUBSTITUTIONS:
        bad(
            "substitution",
            f"The substitution rule is 'norwich_five' or 'max_per_section', not {substitution!r}.",
        )
    rule = SUBSTITUTION_RULES.get(str(substitution), SUBSTITUTION_RULES[MAX_PER_SECTION])
    k = data.get("max_per_section", 1)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_FRAMES:
        bad(
            "max_per_section",
            f"Frames a player per section is a whole number from 1 to {MAX_FRAMES}, not {k!r}.",
        )
        k = 1
    referee = data.get("referee", ROTATION)
    if referee not in REFEREES:
        bad(
            "referee",
            f"The referee rule is 'norwich_rotation', 'none' or 'named', not {referee!r}.",
        )

    sections: list[Section] = []
    raw_sections = data.get("sections")
    if not isinstance(raw_sections, list) or not raw_sections:
        bad("sections", "A format needs at least one section of frames.")
        raw_sections = []
    elif len(raw_sections) > MAX_SECTIONS:
        bad("sections", f"A format has at most {MAX_SECTIONS} sections.")
    names_seen: set[str] = set()
    for i, raw in enumerate(raw_sections[:MAX_SECTIONS], start=1):
        where = f"sections[{i}]"
        if not isinstance(raw, Mapping):
            bad(where, f"Section {i} must be an object with a name, a kind and a number of frames.")
            continue
        for key in sorted(set(raw) - {"name", "kind", "frames", "pairings"}, key=str):
            bad(f"{where}.{key}", f"Section {i}: unknown field {key!r}.")
        s_name = raw.get("name")
        if not isinstance(s_name, str) or not s_name.strip():
            bad(f"{where}.name", f"Section {i} needs a name.")
            s_name = f"Section {i}"
        elif s_name.strip().casefold() in names_seen:
            bad(f"{where}.name", f"Two sections are called {s_name!r}: names must differ.")
        names_seen.add(s_name.strip().casefold())
        kind = raw.get("kind")
        if kind not in KINDS:
            bad(
                f"{where}.kind",
                f"Section {i} ({s_name}): the kind is singles, doubles or triples, not {kind!r}.",
            )
            kind = SINGLES
        count = raw.get("frames")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_FRAMES:
            bad(
                f"{where}.frames",
                f"Section {i} ({s_name}): the number of frames is from 1 to {MAX_FRAMES}, not {count!r}.",
            )
            count = 1
        pairings: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        raw_pairings = raw.get("pairings")
        if selection == FIXED:
            if raw_pairings is None:
                raw_pairings = default_pairings(kind, count)
            if not isinstance(raw_pairings, list) or len(raw_pairings) != count:
                bad(
                    f"{where}.pairings",
                    f"Section {i} ({s_name}): give one pairing per frame ({count}), like '1v1' or '1+2v3+4'.",
                )
            else:
                for j, text in enumerate(raw_pairings, start=1):
                    pairing = parse_pairing(text)
                    size = KINDS[kind]
                    if pairing is None:
                        bad(
                            f"{where}.pairings",
                            f"Section {i} ({s_name}), frame {j}: {text!r} is not a pairing like '1v2' or '1+2v3+4'.",
                        )
                        continue
                    if any(len(side) != size or len(set(side)) != size for side in pairing):
                        bad(
                            f"{where}.pairings",
                            f"Section {i} ({s_name}), frame {j}: a {kind} frame pairs {size} different lineup position{'s' * (size > 1)} a side, not {text!r}.",
                        )
                        continue
                    if any(p < 1 or p > 40 for side in pairing for p in side):
                        bad(
                            f"{where}.pairings",
                            f"Section {i} ({s_name}), frame {j}: lineup positions run from 1 to 40.",
                        )
                        continue
                    pairings.append(pairing)
                for label, side_index in (("home", 0), ("away", 1)):
                    used = Counter(p for pair in pairings for p in pair[side_index])
                    over = sorted(p for p, n in used.items() if n > k)
                    if over and rule.frames_per_player is None:
                        bad(
                            f"{where}.pairings",
                            f"Section {i} ({s_name}): {label} number {over[0]} plays {used[over[0]]} frames, "
                            f"but the substitution rule (max_per_section) allows {k}.",
                        )
        elif raw_pairings not in (None, []):
            bad(
                f"{where}.pairings",
                f"Section {i} ({s_name}): pairings belong to the fixed order only.",
            )
        sections.append(Section(s_name.strip(), kind, count, tuple(pairings)))
    total = sum(s.frames for s in sections)
    if total > MAX_FRAMES:
        bad("sections", f"A match has at most {MAX_FRAMES} frames; these sections have {total}.")

    if rule.shape is not None and sections:
        shape = tuple((s.kind, s.frames) for s in sections)
        if shape != rule.shape or (rule.selection is not None and selection != rule.selection):
            bad("substitution", rule.misfit)

    per = rule.frames_per_player or k
    needed = max((math.ceil(s.frames * s.size / per) for s in sections), default=1)
    needed = max([needed] + [s.size for s in sections])
    if selection == FIXED and sections:
        needed = max(
            needed,
            max((p for s in sections for pr in s.pairings for side in pr for p in side), default=0),
        )
    if rule.min_players is not None:
        needed = rule.min_players
    raw_min = data.get("min_players", needed)
    if isinstance(raw_min, bool) or not isinstance(raw_min, int) or not 1 <= raw_min <= 40:
        bad(
            "min_players",
            f"The players a side needs is a whole number from 1 to 40, not {raw_min!r}.",
        )
        raw_min = needed
    elif raw_min < needed:
        bad(
            "min_players",
            f"A side needs at least {needed} players to fill every frame under these sections "
            f"and this substitution rule, not {raw_min}.",
        )

    raw_points = data.get("points", {})
    points = Points()
    if not isinstance(raw_points, Mapping):
        bad("points", "Points are an object: frame, section, match.")
    else:
        for key in sorted(set(raw_points) - {"frame", "section", "match"}, key=str):
            bad(f"points.{key}", f"Unknown points field {key!r}: frame, section or match.")
        values: dict[str, Decimal | None] = {}
        for key in ("frame", "section", "match"):
            raw_value = raw_points.get(key, 0 if key == "section" else None)
            if raw_value is None and key != "section":
                values[key] = None
                continue
            value = _decimal(raw_value)
            if value is None:
                bad(
                    f"points.{key}",
                    f"Points per {key} are a number from 0 to 99 (halves allowed), not {raw_value!r}.",
                )
            values[key] = value
        points = Points(
            values.get("frame"), values.get("section") or Decimal(0), values.get("match")
        )
    if problems:
        raise FormatError(problems)
    return MatchFormat(
        name=name.strip(),
        sections=tuple(sections),
        selection=str(selection),
        substitution=str(substitution),
        max_per_section=k,
        referee=str(referee),
        points=points,
        min_players=raw_min,
    )


def effective_format(season_format: object, division_format: object = None) -> MatchFormat:
    """The format a division plays: its own when set, else its season's (else the default).
    A stored format that no longer checks falls back to the default rather than break a
    page; saving one is where the errors are shown."""
    for data in (division_format, season_format):
        if data:
            try:
                return parse_format(data)
            except FormatError:
                continue
    return parse_format(default_format())


def sections_won(
    fmt: MatchFormat, frames: Iterable[tuple[int, str, bool]]
) -> tuple[Decimal, Decimal]:
    """Sections won by (home, away) from finished frames given as (number, winner, shared):
    a section goes to the side with more frames in it; level is half each.

    >>> fmt = parse_format(PRESETS["snooker_blind"])
    >>> sections_won(fmt, [(1, "home", False), (2, "home", False), (3, "away", False),
    ...                    (4, "away", False), (5, "away", False)])
    (Decimal('0.5'), Decimal('1.5'))
    """
    won = [[Decimal(0), Decimal(0)] for _ in fmt.sections]
    for number, winner, shared in frames:
        try:
            index = fmt.section_index(number)
        except ValueError:
            continue
        if shared:
            won[index][0] += Decimal("0.5")
            won[index][1] += Decimal("0.5")
        elif winner in ("home", "away"):
            won[index][0 if winner == "home" else 1] += 1
    home = away = Decimal(0)
    half = Decimal("0.5")
    for h, a in won:
        if h > a:
            home += 1
        elif a > h:
            away += 1
        else:
            home += half
            away += half
    return home, away
