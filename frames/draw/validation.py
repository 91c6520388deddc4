"""Every rule of 6 and 8 (or of another match format) that a draw breaks: used on the
app's own draws in the tests, and on hand-edited and paper draws."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from marker.formats import ROTATION, MatchFormat

from .base import (
    AWAY,
    DOUBLES,
    DOUBLES_FRAMES,
    HOME,
    MINIMUM_PLAYERS,
    RELAXED_ONE_FRAME,
    RELAXED_ROTATION,
    SIDES,
    SINGLES,
    SINGLES_FRAMES,
    Draw,
    DrawError,
    DrawnFrame,
    _hat,
    frame_kind,
    rota_side,
)
from .referees import Player, _max_matching, _referee_plan, reassign_referees


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

    >>> from frames.draw import draw_match
    >>> draw = draw_match(list("ABCDEF"), list("GHIJKL"), seed=2)
    >>> validate_draw(draw, list("ABCDEF"), list("GHIJKL"))
    []
    >>> unrefereed = (replace(draw.frames[0], referee=None), *draw.frames[1:])
    >>> validate_draw(replace(draw, frames=unrefereed), list("ABCDEF"), list("GHIJKL"))
    ['Frame 1 has no referee.']
    """
    if match_format is not None and not match_format.rule_draw:
        if not match_format.rule.has_own_draw:
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
