"""The Norwich hat (rules 6 and 8): nine frames drawn from each side's sorted hat.

Singles frames 1-6 take names from one Fisher-Yates shuffle of the hat, doubles frames 7-9
from a second, independent shuffle; a side of five follows rule 8 exactly (the
sixth-singles and third-doubles redraws); a side of one to four plays only by agreement
and concedes the frames it cannot fill, the last ones of each kind in drawn order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from .base import (
    ALGORITHM_VERSION,
    AWAY,
    DOUBLES_FRAMES,
    HOME,
    MINIMUM_PLAYERS,
    SIDES,
    SINGLES,
    SINGLES_FRAMES,
    Draw,
    DrawnFrame,
    _check_seed,
    _hats,
    _other,
    frame_kind,
)
from .referees import assign_referees, referee_seed


def draw_hat(
    home: Sequence[str],
    away: Sequence[str],
    seed: int,
    *,
    agreed: bool = False,
) -> Draw:
    """Draw the nine frames and their referees from ``random.Random(seed)``.

    ``home`` and ``away`` are the players present (any order: each side's hat is sorted).
    ``agreed`` records that both captains agreed to play although a side has fewer than
    five (rule 8); without it such squads raise ``DrawError("too_few_players")``.

    >>> from collections import Counter
    >>> draw = draw_hat(["Ann", "Bob", "Cat", "Dan", "Eve"], list("GHIJKL"), seed=3)
    >>> sorted(Counter(f.home[0] for f in draw.frames[:6]).values())
    [1, 1, 1, 1, 2]
    >>> draw_hat(["Ann", "Bob", "Cat", "Dan"], list("GHIJKL"), seed=3)
    Traceback (most recent call last):
    ...
    frames.draw.base.DrawError: The home side has only 4 players: rule 8 needs five a side unless both captains agree to play (--agreed).
    """
    _check_seed(seed)
    hats = _hats(
        home, away, minimum=MINIMUM_PLAYERS, agreed=agreed, needs="rule 8 needs five a side"
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
