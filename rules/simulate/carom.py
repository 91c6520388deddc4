"""Seeded plausible games of the carom family: its generator for :func:`rules.simulate.simulate_game`, and the family's own ``simulate``."""

from __future__ import annotations

from typing import Any

from rules.carom import (
    CUE,
    CUSHION,
    GAMES,
    LAY_OFF,
    OPENING,
    POCKETS,
    STROKE,
    CaromGame,
    CaromState,
)
from rules.core import Game
from rules.simulate.generators import register_simulator

__all__ = ["simulate"]


def plausible_event(game: CaromGame, rng: Any, state: CaromState) -> dict[str, Any]:
    """A likely next event of ``game`` from ``state`` that the engine accepts: the lay-off
    when it is due, now and then ``spot_balls``, otherwise a stroke a club player might
    make (counts, misses, the odd foul, balls off the table, pots, pins, spaces).

    >>> import random
    >>> from rules.carom import RUSSIAN_POOL
    >>> ev = plausible_event(RUSSIAN_POOL, random.Random(1), RUSSIAN_POOL.initial({}))
    >>> ev["type"], ev["nominate"]
    ('stroke', 'red')
    """
    rules = game.rules
    if state.next == LAY_OFF:
        return {"type": LAY_OFF}
    if rules.spot_balls and rng.random() < 0.01:
        return {"type": "spot_balls"}
    balls = list(rules.object_balls)
    roll = rng.random()
    contacts: list[str] = [CUSHION] * rng.choice((0, 0, 1, 1, 2, 3, 4))
    if roll < 0.1:  # a miss
        touched: list[str] = []
    else:
        rng.shuffle(balls)
        touched = balls[: 1 if roll < 0.4 else 2 if roll < 0.95 else 3]
        if state.next == OPENING and rules.opening_ball and rng.random() < 0.8:
            touched = [rules.opening_ball] + [b for b in touched if b != rules.opening_ball]
        if state.next == OPENING and rules.nominate:
            touched = ["red"] + [b for b in touched if b != "red"]
        for ball in touched:
            contacts.append(ball)
            contacts += [CUSHION] * rng.choice((0, 0, 1, 2, 3))
    event: dict[str, Any] = {"type": STROKE, "contacts": contacts}
    if rng.random() < 0.04:
        event["fouls"] = [rng.choice(game.fouls).code]
    gone: set[str] = set()
    if rules.pockets and rng.random() < 0.35:
        pots = []
        candidates = [b for b in touched if rng.random() < 0.6]
        if rng.random() < 0.3:
            candidates.append(CUE)
        for ball in candidates:
            pocket = rng.choice(POCKETS)
            pots.append(
                {"ball": ball, "pocket": pocket} if rules.pocket_required else {"ball": ball}
            )
            gone.add(ball)
        if pots:
            event["pots"] = pots
    if rng.random() < 0.03:
        ball = CUE if not touched or rng.random() < 0.5 else rng.choice(touched)
        if ball not in gone:
            event["off_table"] = [ball]
    if rules.pins and touched and rng.random() < 0.15:
        event["pins"] = rng.sample(rules.pins, min(len(rules.pins), rng.choice((1, 1, 1, 2))))
    if rules.pins and rng.random() < 0.03:
        rest = [p for p in rules.pins if p not in event.get("pins", ())]
        if rest:
            event["pins_before_ball"] = [rng.choice(rest)]
    if rules.spaces and rng.random() < 0.3:
        if state.space is not None and rng.random() < 0.6:
            event["space"] = state.space
            if rng.random() < 0.2:
                event["returned"] = True
        else:
            kind = rng.choice(rules.spaces)
            event["space"] = rng.choice(kind.names)
    if rules.nominate:
        if state.next == OPENING:
            event["nominate"] = "red"
        elif len(touched) > 1 and rng.random() < 0.3:
            event["nominate"] = "cannon"
        elif touched and rng.random() < 0.9:
            event["nominate"] = touched[0]
        else:
            event["nominate"] = rng.choice(rules.nominate)
    return event


def simulate(
    game: CaromGame | str, rng: Any, length: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded plausible random legal game of ``length`` events: ``(setup, events)``.

    The setup has no target (so the game never ends before ``length``); Russian pool gets
    three players. Every event is accepted by the engine.

    >>> import random
    >>> setup, events = simulate("english_billiards", random.Random(3), 50)
    >>> len(events), setup["target"]
    (50, None)
    """
    g = {g.id: g for g in GAMES}[game] if isinstance(game, str) else game
    players = ["Ann", "Bob", "Cat"] if g.rules.max_players is None else ["Ann", "Bob"]
    setup: dict[str, Any] = {"players": players, "target": None}
    state = g.initial(setup)
    events: list[dict[str, Any]] = []
    while len(events) < length:
        event = plausible_event(g, rng, state)
        state = g.apply(state, event)
        events.append(event)
    return setup, events


@register_simulator("carom")
def _simulator(game: Game[Any], state: Any, rng: Any, n: int) -> dict[str, Any]:
    """The family's event generator for :func:`rules.simulate.simulate_game`."""
    if not isinstance(game, CaromGame):  # pragma: no cover - only carom games are sent here
        raise TypeError(f"{game!r} is not a game of the carom family")
    return plausible_event(game, rng, state)
