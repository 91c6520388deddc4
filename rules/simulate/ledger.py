"""Seeded plausible games of the ledger family: its generator for :func:`rules.simulate.simulate_game`, and the family's own ``simulate``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import Game
from rules.ledger import (
    _PACK_RANKS,
    _SUITS,
    COLOUR,
    RED,
    WHITE,
    Bouillotte,
    DealState,
    PoolState,
    Pyramids,
    PyramidsState,
    SnookerPool,
)
from rules.seating import Seating
from rules.simulate.generators import register_simulator

__all__ = ["random_event", "random_setup", "simulate"]
from rules.vocabulary import (
    IllegalEvent,
    InvalidEvent,
)

_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def _random_seats(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.2:
        return {}
    if roll < 0.8:
        return {"players": list(_NAMES[: rng.randint(2, 5)])}
    if roll < 0.95:
        return {
            "sides": ["Home", "Away"],
            "players": {"Home": ["Ann", "Cat"], "Away": ["Bob", "Dan"]},
        }
    return {"sides": ["X", "Y", "Z"]}


def _pots(*balls: str) -> list[dict[str, Any]]:
    return [{"ball": b} for b in balls]


def _others(rng: random.Random, seats: Seating, striker: str | None) -> str | None:
    names = [n for m in seats.members for n in m if n is not None and n != striker]
    return rng.choice(names) if names else None


def _random_pool_event(
    game: SnookerPool, rng: random.Random, s: PoolState, skill: float
) -> dict[str, Any]:
    rules = game.rules
    if rules.table_events and rng.random() < 0.01:
        return {"type": "touched_ball"}
    if rules.table_events and rng.random() < 0.003:
        return {"type": "obstruction", "by": rng.choice(s.seats.parties)}
    on = s.on
    assert on is not None
    ball_on = rng.choice(s.colours) if on == COLOUR else on
    table = [RED] * min(s.reds, 2) + list(s.colours)
    ev: dict[str, Any] = {"type": "stroke", "first_hit": ball_on}
    if on == COLOUR:
        ev["aim"] = ball_on
    roll = rng.random()
    pots: list[str] = []
    if roll < skill:
        pots = [ball_on] * (rng.randint(1, min(2, s.reds)) if ball_on == RED else 1)
    elif roll < skill + 0.1:
        ev["first_hit"] = None
    elif roll < skill + 0.2:
        ev["first_hit"] = rng.choice(table)
    if ev["first_hit"] is not None and rng.random() < 0.05:
        extra = rng.choice(table)
        if extra != ball_on and extra not in pots:
            pots.append(extra)
    if rng.random() < 0.04:
        pots.append(WHITE)
    if ev["first_hit"] is not None and rng.random() < 0.02:
        ev["off_table"] = [rng.choice([WHITE, *table])]
    if pots:
        ev["pots"] = _pots(*pots)
    if rng.random() < 0.04:
        ev["fouls"] = [rng.choice([f.code for f in rules.fouls])]
    if rules.misplaced_balls and rng.random() < 0.03:
        ev["misplaced_balls"] = rng.randint(1, 2)
    if rng.random() < 0.02:
        other = _others(rng, s.seats, s.striker)
        if other is not None:
            ev["player"] = other
    return ev


def _random_pyramids_event(rng: random.Random, s: PyramidsState, skill: float) -> dict[str, Any]:
    if s.phase == "endgame":
        own = RED if s.seats.turn != s.white_party else WHITE
        other = WHITE if own == RED else RED
        ev: dict[str, Any] = {"type": "stroke", "first_hit": other}
        roll = rng.random()
        if roll < skill * 0.5:
            ev["pots"] = _pots(other)
        elif roll < skill * 0.5 + 0.05:
            ev["first_hit"] = None
        elif roll < skill * 0.5 + 0.1:
            ev["pots"] = _pots(own)
        return ev
    ev = {"type": "stroke", "first_hit": RED}
    roll = rng.random()
    if roll < skill:
        ev["pots"] = _pots(*[RED] * rng.randint(1, min(2, s.reds)))
    elif roll < skill + 0.12:
        ev["first_hit"] = None
    if ev["first_hit"] is not None and rng.random() < 0.06:
        ev.setdefault("pots", []).append({"ball": WHITE})
    if ev["first_hit"] is not None and rng.random() < 0.02:
        ev["off_table"] = [RED]
    if rng.random() < 0.03:
        ev["fouls"] = ["moved_ball"]
    return ev


def _random_deal_setup(rng: random.Random, chips: int = 100) -> dict[str, Any]:
    n = rng.randint(3, 5)
    names = list(_NAMES[:n])
    pack = [r + s for r in _PACK_RANKS[n] for s in _SUITS]
    rng.shuffle(pack)
    setup: dict[str, Any] = {
        "players": names,
        "hands": {name: pack[3 * k : 3 * k + 3] for k, name in enumerate(names)},
        "turned": pack[3 * n],
        "dealer": rng.choice(names),
    }
    if rng.random() < 0.3:
        setup["caves"] = {name: rng.randint(2, chips) for name in names}
    else:
        setup["caves"] = chips
    for key in ("buy_back", "mistigri"):
        if rng.random() < 0.3:
            setup[key] = True
    if rng.random() < 0.1:
        setup["brelans"] = False
    if rng.random() < 0.1:
        setup["ante"] = "dealer"
    if rng.random() < 0.1:
        setup["carried"] = {rng.choice(names): rng.randint(1, 4)}
    return setup


def _random_deal_event(rng: random.Random, s: DealState, keep_going: bool) -> dict[str, Any]:
    i = s.actor
    assert i is not None
    chips = s.chips[i]
    need = max(s.stakes) - s.stakes[i]
    if s.phase in ("straddle", "buy_back"):
        kind = s.phase if rng.random() < 0.4 else "decline"
        return {"type": kind}
    if s.phase == "open":
        least = max(1, need)
        if chips >= least and (keep_going or rng.random() < 0.6):
            if not keep_going and rng.random() < 0.05:
                return {"type": "va_tout"}
            return {"type": "open", "chips": min(chips, least + rng.choice((0, 0, 1, 3)))}
        return {"type": "pass"}
    if s.phase == "reraise":
        if chips > need and (keep_going or rng.random() < 0.2):
            return {"type": "raise", "chips": min(chips, need + rng.choice((1, 1, 2)))}
        return {"type": "pass"}
    roll = rng.random()
    if chips > need and (roll < 0.25 or keep_going):
        if not keep_going and rng.random() < 0.03:
            return {"type": "va_tout"}
        return {"type": "raise", "chips": min(chips, need + rng.choice((1, 1, 2, 5)))}
    if roll < 0.85 or keep_going:
        return {"type": "call"}
    return {"type": "fold"}


def random_setup(game: Game[Any], rng: random.Random, length: int = 100) -> dict[str, Any]:
    """A plausible setup for a game of the family: players or sides; for pyramids now and
    then another number of reds or partners out on a forfeit; for Bouillotte a shuffled
    pack dealt, caves (deep ones for a long deal of small raises) and options."""
    if isinstance(game, Bouillotte):
        return _random_deal_setup(rng, chips=100 if length < 60 else 50 * length)
    setup = _random_seats(rng)
    if isinstance(game, Pyramids):
        if rng.random() < 0.3:
            setup["reds"] = rng.randint(2, 30)
        if setup.get("sides") and rng.random() < 0.5:
            setup["partners"] = "out_on_forfeit"
    return setup


def random_event(
    game: Game[Any],
    state: Any,
    rng: random.Random,
    n: int = 0,
    *,
    skill: float = 0.5,
    length: int = 0,
) -> dict[str, Any]:
    """A plausible next event of a game of the family (nearly always legal); ``n`` events
    have been played, of ``length`` wanted (a long Bouillotte deal keeps raising)."""
    if isinstance(game, SnookerPool):
        return _random_pool_event(game, rng, state, skill)
    if isinstance(game, Pyramids):
        return _random_pyramids_event(rng, state, skill)
    return _random_deal_event(rng, state, keep_going=200 <= length and n < length - 15)


@register_simulator("ledger")
def _ledger_event(game: Game[Any], state: Any, rng: random.Random, n: int) -> dict[str, Any]:
    """The core's generic simulator (``rules.simulate.simulate_game``) for this family."""
    return random_event(game, state, rng, n)


def simulate(
    game: Game[Any], rng: random.Random, length: int, *, skill: float = 0.5
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded, plausible, legal game of the ledger family: ``(setup, events)`` with at
    most ``length`` events (fewer when the game ends first). Every event is accepted by
    the engine; ``skill`` is the chance a cue stroke pots the ball on. A long Bouillotte
    deal is made of small raises from deep caves.

    >>> from rules.ledger import SNOOKERS_POOL_1908
    >>> setup, events = simulate(SNOOKERS_POOL_1908, random.Random(3), 400)
    >>> SNOOKERS_POOL_1908.view(_replay(SNOOKERS_POOL_1908, setup, events))["events"] == len(events)
    True
    """
    setup = random_setup(game, rng, length)
    state = game.initial(setup)
    events: list[dict[str, Any]] = []
    tries = 0
    while len(events) < length and not state.over and tries < 20 * length + 100:
        tries += 1
        ev = random_event(game, state, rng, len(events), skill=skill, length=length)
        try:
            state = game.apply(state, ev)
        except (IllegalEvent, InvalidEvent):
            continue
        events.append(ev)
    return setup, events


def _replay(game: Game[Any], setup: Mapping[str, Any], events: Sequence[Any]) -> Any:
    state = game.initial(setup)
    for ev in events:
        state = game.apply(state, ev)
    return state
