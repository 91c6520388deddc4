"""Plausible bar billiards frames, for the demo league, benchmarks and tests.

A seeded random referee: each shot pots what a club player might pot from the balls that
are really on the table, fouls now and then, and the bar drops after a set number of
shots, so every generated frame is one the engine accepts and plays to its end.

>>> from rules import replay
>>> events = simulate_frame(seed=1)
>>> state = replay("bar_billiards_4pin", {}, events)
>>> state.phase
'over'
>>> simulate_frame(seed=1) == events
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .bar_billiards import BBState
from .core import RuleError, Timeline
from .registry import get

HOLES = (10, 20, 20, 30, 30, 50, 50, 100, 200)
HOLE_WEIGHTS = (5, 4, 4, 3, 3, 3, 3, 2, 1)
COMMON_FOULS = ("miss", "pin_50", "ball_in_baulk", "pin_100", "off_table", "pin_200")
FOUL_WEIGHTS = (5, 4, 3, 2, 1, 1)

__all__ = ["plausible_event", "simulate_frame"]


def plausible_event(
    rng: random.Random, state: BBState, *, skill: float = 0.6, bar_now: bool = False
) -> dict[str, Any]:
    """A likely next event for ``state``: a shot (or ``bar_down`` when ``bar_now``).

    ``skill`` (0–1) is the chance that a shot pots something.
    """
    if bar_now and not state.bar:
        return {"type": "bar_down"}
    if state.phase == "endgame":
        ball = "white" if state.red == "out" else "red"
        shot: dict[str, Any] = {"type": "shot", "cushion": True}
        if rng.random() < skill * 0.4:
            shot["pots"] = [{"ball": ball, "hole": rng.choice((100, 100, 200))}]
        return shot
    red, on_table, in_trough = state.red, state.w_table, state.w_trough
    if on_table == 0 and red != "table":  # a break-off brings two balls
        if red == "trough":
            red = "table"
            on_table += min(1, in_trough)
        else:
            on_table += min(2, in_trough)
    elif red == "trough":
        red = "table"
    elif in_trough:
        on_table += 1
    balls = ["red"] * (red == "table") + ["white"] * on_table
    rng.shuffle(balls)
    shot = {"type": "shot"}
    if rng.random() < 0.04:
        shot["fouls"] = [rng.choices(COMMON_FOULS, FOUL_WEIGHTS)[0]]
    if rng.random() < skill:
        count = 1 if rng.random() < 0.85 else 2
        shot["pots"] = [
            {"ball": ball, "hole": rng.choices(HOLES, HOLE_WEIGHTS)[0]}
            for ball in balls[: min(count, len(balls))]
        ]
    return shot


def simulate_frame(
    setup: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    bar_after: int | None = None,
    skill: float = 0.6,
    max_events: int = 2000,
) -> list[dict[str, Any]]:
    """The events of one whole frame of 4-pin bar billiards, played to its end.

    The bar drops after ``bar_after`` shots (default: 60 to 110, by the seed).
    """
    rng = random.Random(seed)
    bar_after = bar_after if bar_after is not None else rng.randint(60, 110)
    timeline = Timeline(get("bar_billiards_4pin"), dict(setup or {}))
    events: list[dict[str, Any]] = []
    while timeline.state.phase != "over" and len(events) < max_events:
        event = plausible_event(rng, timeline.state, skill=skill, bar_now=len(events) >= bar_after)
        try:
            timeline.push(event)
        except RuleError:  # pragma: no cover - the generator only makes legal shots
            continue
        events.append(event)
    return events
