"""Seeded plausible games of the target family: its generator for :func:`rules.simulate.simulate_game`, and the family's own ``simulate``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.core import Game
from rules.registry import get
from rules.simulate.generators import register_simulator

__all__ = ["simulate"]
from rules.target import (
    BOTTLE,
    CALL,
    CUE,
    CUSHION,
    OPENING,
    POCKETS,
    BottlePool,
    BouchonPool,
    CowboyPool,
    FortyOnePool,
    KellyPool,
    ParisianPool,
    PinPool,
    RedWhiteBlue,
    SkittlePool,
    StagedPool,
    TargetGame,
    TargetState,
    TwoPinPool,
    _balls_of,
)
from rules.vocabulary import (
    IllegalEvent,
    InvalidEvent,
)


def simulate(
    game: TargetGame | str, rng: random.Random, length: int, players: int = 3
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded plausible random legal game: ``(setup, events)`` with up to ``length``
    events, every one accepted by the engine. Games that could end early are steered away
    from the end until ``length`` is near (so the bench can replay long games).

    >>> setup, events = simulate("kelly_pool", random.Random(1), 50)
    >>> 0 < len(events) <= 50 and sorted(setup) == ["players", "private"]
    True
    """
    g = get(game) if isinstance(game, str) else game
    assert isinstance(g, TargetGame)
    names = [f"P{k}" for k in range(1, players + 1)]
    setup: dict[str, Any] = {"players": names}
    if g.rules.private:
        low, high = dict(g.rules.options)["private_range"]
        setup["private"] = dict(zip(names, rng.sample(range(low, high + 1), players), strict=True))
    state = g.initial(setup)
    events: list[dict[str, Any]] = []
    maker = _maker(g)
    tries = 0
    while len(events) < length and not state.over and tries < length * 20:
        tries += 1
        late = len(events) > length - 10
        ev = maker(g, rng, state, late)
        try:
            new = g.apply(state, ev)
        except (InvalidEvent, IllegalEvent):
            continue
        if new.over and not late:
            continue
        state = new
        events.append(ev)
    return setup, events


def _decide(g: TargetGame, rng: random.Random, s: TargetState) -> dict[str, Any] | None:
    """The pending player's decision, or a new small ball, or a proclaim, when due."""
    if s.pending >= 0:
        who = s.players[s.pending]
        if g.rules.retire and rng.random() < 0.1 and sum(s.alive) > 2:
            return {"type": "retire", "player": who}
        ev: dict[str, Any] = {"type": "privilege", "player": who}
        if g.rules.draws:
            free = [b for b in range(s.cfg.low, s.cfg.high + 1) if b not in s.private]
            ev["drawn"] = rng.choice(free)
            ev["keep"] = rng.choice(("old", "new"))
        return ev
    if g.rules.proclaim:
        for i in (s.hit, s.turn):
            if i >= 0 and g.total(s, i) == s.cfg.target and rng.random() < 0.5:
                return {"type": "proclaim", "player": s.players[i]}
    if g.rules.privilege == "draw":
        for i, due in enumerate(s.may_draw):
            if due and rng.random() < 0.5:
                free = [b for b in range(s.cfg.low, s.cfg.high + 1) if b not in s.private]
                return {"type": "privilege", "player": s.players[i], "drawn": rng.choice(free)}
    return None


def _pool_stroke(g: TargetGame, rng: random.Random, s: TargetState, late: bool) -> dict[str, Any]:
    d = _decide(g, rng, s)
    if d:
        return d
    balls = list(_balls_of(s.on_table)) if s.racks else list(g.rules.balls)
    ev: dict[str, Any] = {"type": "stroke"}
    r = rng.random()
    if r < 0.1 or not balls:
        return ev  # a miss
    k = min(len(balls), rng.choice((1, 1, 2, 3)))
    touched = rng.sample(balls, k)
    ev["contacts"] = [*touched[:1], CUSHION, *touched[1:]]
    if rng.random() < 0.4:
        pots = rng.sample(touched, rng.choice((1, 1, 2)) if len(touched) > 1 else 1)
        ev["pots"] = [{"ball": b, "pocket": rng.choice(POCKETS)} for b in pots]
    if rng.random() < 0.05:
        ev["pots"] = [*ev.get("pots", []), {"ball": CUE, "pocket": rng.choice(POCKETS)}]
    if rng.random() < 0.05 and g.rules.fouls:
        ev["fouls"] = [rng.choice(g.rules.fouls).code]
    if s.next == CALL:
        ev["call"] = rng.choice(POCKETS)
        for p in ev.get("pots", []):
            if p["ball"] == CUE:
                p["pocket"] = ev["call"] if late and rng.random() < 0.5 else rng.choice(POCKETS)
    if g.rules.out_of_turn and rng.random() < 0.03:
        others = [n for k2, n in enumerate(s.players) if s.alive[k2] and k2 != s.turn]
        ev["player"] = rng.choice(others)
        if g.rules.called:
            ev["called"] = rng.random() < 0.5
    return ev


def _pin_stroke(g: TargetGame, rng: random.Random, s: TargetState, late: bool) -> dict[str, Any]:
    d = _decide(g, rng, s)
    if d:
        return d
    r = g.rules
    ev: dict[str, Any] = {"type": "stroke"}
    if rng.random() < 0.1:
        if rng.random() < 0.3:
            ev["pins_before_ball"] = [rng.choice(r.pins)]
        return ev
    ball = rng.choice([b for b in r.balls])
    ev["contacts"] = [ball] if rng.random() < 0.7 else [CUSHION, ball]
    pins = rng.sample(r.pins, rng.choice((0, 1, 1, 2)))
    if pins:
        entries = []
        for p in pins:
            if r.pin_by_required and "pin" in r.pin_by and "red" in r.pin_by:
                by = p if rng.random() < 0.8 else rng.choice(r.pin_by)
            elif r.pin_by_required:
                by = rng.choice(("object", "object", "cue", "pin"))
            else:
                by = rng.choice(r.pin_by)
            entries.append({"pin": p, "by": by})
        ev["pins"] = entries
    if g.pool_cork and rng.random() < 0.5:
        ev["cushion"] = True
    if rng.random() < 0.05 and r.fouls:
        ev["fouls"] = [rng.choice(r.fouls).code]
    if r.out_of_turn and rng.random() < 0.03:
        others = [n for k2, n in enumerate(s.players) if s.alive[k2] and k2 != s.turn]
        ev["player"] = rng.choice(others)
        if r.called:
            ev["called"] = rng.random() < 0.5
    if "prompt" in r.extra_events and rng.random() < 0.02:
        return {"type": "prompt", "player": rng.choice(s.players)}
    return ev


def _parisian_stroke(
    g: TargetGame, rng: random.Random, s: TargetState, late: bool
) -> dict[str, Any]:
    d = _decide(g, rng, s)
    if d:
        return d
    ev: dict[str, Any] = {"type": "stroke", "cup": rng.choice((None, *range(1, s.cfg.cups + 1)))}
    if rng.random() < 0.03:
        others = [n for k2, n in enumerate(s.players) if s.alive[k2] and k2 != s.turn]
        ev["player"] = rng.choice(others)
        ev["called"] = rng.random() < 0.5
    return ev


def _bottle_stroke(g: TargetGame, rng: random.Random, s: TargetState, late: bool) -> dict[str, Any]:
    ev = _pool_stroke(g, rng, s, late)
    if ev["type"] == "stroke" and "contacts" in ev and rng.random() < 0.15:
        ev["contacts"] = [*ev["contacts"], BOTTLE]
        ev["bottle"] = {"to": rng.choice(("over", "cushion", "over", "off")), "by": "cue"}
    return ev


def _staged_stroke(g: TargetGame, rng: random.Random, s: TargetState, late: bool) -> dict[str, Any]:
    """Bull dog and cow-boy: a player who mostly makes what his stage needs."""
    assert isinstance(g, StagedPool)
    if rng.random() < 0.25:
        return _pool_stroke(g, rng, s, late)
    balls = list(g.rules.balls)
    if s.next == OPENING:
        return {"type": "stroke", "contacts": [3, rng.choice((2, 5) if 2 in balls else (1, 5))]}
    points = s.scores[s.turn] + s.run
    stage = g.stage(points)
    if stage == 3:
        first = 1 if isinstance(g, CowboyPool) else (s.selected[s.turn] or rng.choice(balls))
        call = rng.choice(POCKETS)
        pocket = call if late or rng.random() < 0.1 else rng.choice(POCKETS)
        return {
            "type": "stroke",
            "contacts": [first],
            "call": call,
            "pots": [{"ball": CUE, "pocket": pocket}],
        }
    limit = g.first if stage == 1 else g.second
    need = limit - points
    ball = rng.choice(balls)
    other = rng.choice([b for b in balls if b != ball])
    if stage == 1 and ball <= need and rng.random() < 0.5:
        return {"type": "stroke", "contacts": [ball], "pots": [{"ball": ball}]}
    if need >= 1 and rng.random() < 0.8:
        return {"type": "stroke", "contacts": [ball, CUSHION, other]}
    return {"type": "stroke", "contacts": [ball, CUSHION]}


_MAKERS: dict[type, Callable[[TargetGame, random.Random, TargetState, bool], dict[str, Any]]] = {
    FortyOnePool: _pool_stroke,
    KellyPool: _pool_stroke,
    PinPool: _pin_stroke,
    BottlePool: _bottle_stroke,
    ParisianPool: _parisian_stroke,
    SkittlePool: _pin_stroke,
    RedWhiteBlue: _pin_stroke,
    TwoPinPool: _pin_stroke,
    BouchonPool: _pin_stroke,
    StagedPool: _staged_stroke,
}


def _maker(
    g: TargetGame,
) -> Callable[[TargetGame, random.Random, TargetState, bool], dict[str, Any]]:
    """The stroke maker of ``g``'s game class (or the nearest base that has one)."""
    for cls in type(g).__mro__:
        if cls in _MAKERS:
            return _MAKERS[cls]
    raise KeyError(f"no simulator for {type(g).__name__}")


@register_simulator("target")
def _next_event(game: Game[Any], state: Any, rng: random.Random, n: int) -> dict[str, Any]:
    """The family's generator for :func:`rules.simulate.simulate_game` (games run to the
    end: a proclaim, a natural, a win are all taken when they come)."""
    assert isinstance(game, TargetGame)
    return _maker(game)(game, rng, state, True)
