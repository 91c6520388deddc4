"""Plausible games, for the demo league, the soak test, benchmarks and tests.

A seeded random referee: each event is one a club player might make from the position
really on the table, so every generated game is one the engine accepts.
:func:`simulate_game` plays any registered game: each family registers its event
generator with :func:`register_simulator` (bar billiards is here; each other family in
its module of this package: ``rules.simulate.carom``, ...); a
game that has not reached its end after ``max_events`` gets the family's closing event
(``time_up`` where the game has one).

Bar billiards (:func:`simulate_frame`): each shot pots what might be potted from the balls
that are really on the table, fouls now and then, and the bar drops after a set number of
shots, so every frame plays to its end.

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

from rules.bar_billiards import BBState
from rules.core import Game, Timeline
from rules.registry import get
from rules.simulate.generators import SIMULATORS, register_simulator
from rules.vocabulary import RuleError

HOLES = (10, 20, 20, 30, 30, 50, 50, 100, 200)
HOLE_WEIGHTS = (5, 4, 4, 3, 3, 3, 3, 2, 1)
COMMON_FOULS = ("miss", "pin_50", "ball_in_baulk", "pin_100", "off_table", "pin_200")
FOUL_WEIGHTS = (5, 4, 3, 2, 1, 1)

__all__ = [
    "SIMULATORS",
    "plausible_event",
    "register_simulator",
    "simulate_frame",
    "simulate_game",
]


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
    game: Game[Any] | None = None,
) -> list[dict[str, Any]]:
    """The events of one whole frame of 4-pin bar billiards (or ``game``, a game of the
    family), played to its end.

    The bar drops after ``bar_after`` shots (default: 60 to 110, by the seed).
    """
    rng = random.Random(seed)
    bar_after = bar_after if bar_after is not None else rng.randint(60, 110)
    timeline = Timeline(game or get("bar_billiards_4pin"), dict(setup or {}))
    events: list[dict[str, Any]] = []
    while timeline.state.phase != "over" and len(events) < max_events:
        event = plausible_event(rng, timeline.state, skill=skill, bar_now=len(events) >= bar_after)
        try:
            timeline.push(event)
        except RuleError:  # pragma: no cover - the generator only makes legal shots
            continue
        events.append(event)
    return events


# ---------------------------------------------------------------------- any game


def simulate_game(
    game: Game[Any] | str,
    setup: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    max_events: int = 3000,
) -> list[dict[str, Any]]:
    """The events of one seeded, plausible game of ``game`` from ``setup``, played to its
    end (or, after ``max_events``, closed with ``time_up`` where the game has it).

    >>> from rules import get, replay
    >>> g = get("three_cushion_carom")
    >>> events = simulate_game(g, {"players": ["Ann", "Bob"], "target": 5}, seed=2)
    >>> g.outcome(replay(g, {"players": ["Ann", "Bob"], "target": 5}, events)).over
    True
    >>> simulate_game(g, {"target": 5}, seed=2) == simulate_game(g, {"target": 5}, seed=2)
    True
    """
    g = get(game) if isinstance(game, str) else game
    make = SIMULATORS.get(g.family)
    if make is None:
        raise LookupError(f"no simulator for the {g.family!r} family")
    if g.family == "bar_billiards":
        return simulate_frame(setup, seed=seed, max_events=max_events, game=g)
    rng = random.Random(seed)
    timeline = Timeline(g, dict(setup or {}))
    events: list[dict[str, Any]] = []
    tries = 0
    while not g.outcome(timeline.state).over and len(events) < max_events:
        event = make(g, timeline.state, rng, len(events))
        tries += 1
        try:
            timeline.push(event)
        except RuleError:  # pragma: no cover - the generators only make legal events
            if tries > 10 * max_events:
                break
            continue
        events.append(event)
    if not g.outcome(timeline.state).over and any(e.type == "time_up" for e in g.events):
        events.append({"type": "time_up"})
    return events


@register_simulator("bar_billiards")
def _bar_billiards(game: Game[Any], state: Any, rng: random.Random, n: int) -> dict[str, Any]:
    return plausible_event(rng, state, bar_now=n >= 80)


# each family's generator registers itself (they import the registry above)
from rules.simulate import bagatelle, carom, ledger, pocket, target  # noqa: E402, F401
