"""What every part of the draw shares: the algorithm versions, the card (:class:`Draw`,
:class:`DrawnFrame`, :class:`Referee`), :class:`DrawError`, the frame kinds and the
referee rota of rule 6, and the checks of a squad and a seed."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from marker.commit_reveal import MAX_SEED

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

        >>> from frames.draw import draw_match
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


def _hats(
    home: Sequence[str] | Iterable[str],
    away: Sequence[str] | Iterable[str],
    *,
    minimum: int,
    agreed: bool,
    needs: str,
) -> dict[str, tuple[str, ...]]:
    """Both sides' hats, checked: neither empty, and each of at least `minimum` players
    unless both captains agreed to play short (`needs` says whose rule asks for them)."""
    hats = {HOME: _hat(HOME, home), AWAY: _hat(AWAY, away)}
    for side in SIDES:
        if not hats[side]:
            raise DrawError("empty_squad", f"The {side} side has no players: there is no match.")
    for side in SIDES:
        if len(hats[side]) < minimum and not agreed:
            raise DrawError(
                "too_few_players",
                f"The {side} side has only {len(hats[side])} players: {needs} "
                "unless both captains agree to play (--agreed).",
            )
    return hats


def _check_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DrawError(
            "invalid_seed", f"The seed must be an integer from 0 to 2**63 - 1, not {seed!r}."
        )
