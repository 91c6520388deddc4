"""The referees (rule 6): home for the 1st, 3rd, 5th … frame played, away for the others,
nobody in the frame they referee, nobody twice; when that is impossible the one-frame rule
gives way first, then the rotation. Among the best assignments one is drawn uniformly,
from its own stream of random numbers (:func:`referee_seed`)."""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from marker.commit_reveal import derive_seed

from .base import (
    ALGORITHM_VERSION,
    AWAY,
    HOME,
    RELAXED_ONE_FRAME,
    RELAXED_ROTATION,
    Draw,
    DrawnFrame,
    Referee,
    _check_seed,
    _hat,
    _other,
    rota_side,
)


def referee_seed(seed: int) -> int:
    """The seed of the referee solver's own ``random.Random``, derived from the draw's.

    A separate stream keeps the referee choice independent of the name draws and lets
    :func:`reassign_referees` with the draw's seed reproduce the original rota.
    """
    return derive_seed(ALGORITHM_VERSION, "referees", str(seed))


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

    >>> from frames.draw import draw_match
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
