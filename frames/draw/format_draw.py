"""A night in any match format (marker.formats): the frames laid out from the players
present and the seed (the hat), or from the captains' nominations (blind or fixed order);
and :func:`draw_match`, the draw of a night in any format, Norwich's by default."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from marker.formats import BLIND, ROTATION, MatchFormat

from .base import (
    AWAY,
    FORMAT_ALGORITHM_VERSION,
    HOME,
    SIDES,
    Draw,
    DrawError,
    DrawnFrame,
    Referee,
    _check_seed,
    _hats,
)
from .hat import draw_hat
from .referees import assign_referees, referee_seed


def draw_match(
    home: Sequence[str],
    away: Sequence[str],
    seed: int,
    *,
    agreed: bool = False,
    match_format: MatchFormat | None = None,
    nominations: Mapping[str, Any] | None = None,
) -> Draw:
    """Draw a night's frames and their referees from ``random.Random(seed)``.

    Without ``match_format``, or with Norwich's own, this is :func:`draw_hat` (rules 6-8);
    another format's frames are laid out by :func:`draw_format`.

    >>> draw_match(list("ABCDEF"), list("GHIJKL"), seed=3) == draw_hat(list("ABCDEF"), list("GHIJKL"), seed=3)
    True
    """
    if match_format is not None and not match_format.rule_draw:
        return draw_format(match_format, home, away, seed, agreed=agreed, nominations=nominations)
    return draw_hat(home, away, seed, agreed=agreed)


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
    hats = _hats(
        home,
        away,
        minimum=fmt.min_players,
        agreed=agreed,
        needs=f"the format ({fmt.name}) needs {fmt.min_players} a side",
    )
    if fmt.rule.has_own_draw:
        # Norwich's shape and hat with another referee rule: Norwich's own draw (rule 8),
        # its referees kept only with the rotation.
        base = draw_hat(home, away, seed, agreed=agreed)
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
    if fmt.uses_hat:
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
        nominations=None if fmt.uses_hat else {s: (nominations or {})[s] for s in SIDES},
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
