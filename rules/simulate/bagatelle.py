"""Seeded plausible games of the bagatelle family: its generator for :func:`rules.simulate.simulate_game`, and the family's own ``simulate``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.bagatelle import (
    _PAREPA_BALLS,
    _ZONES,
    BACK,
    BALL,
    COUNT,
    OFF,
    TABLE,
    ArchGame,
    BagatelleState,
    BoardGame,
    Devil,
    Parepa,
    PigeonHole,
    ReceptacleGame,
    RoundOfBalls,
    ShuffleBoard,
)
from rules.core import Game, Timeline
from rules.simulate.generators import register_simulator

__all__ = ["random_event", "simulate"]
from rules.vocabulary import RuleError


def _free_cups(state: BagatelleState) -> list[int]:
    cap = state.cfg.capacity
    return [c for c, k in zip(state.cfg.cups, state.cups, strict=False) if cap is None or k < cap]


def _board_ball(game: BoardGame, state: BagatelleState, rng: Any) -> dict[str, Any]:
    """A plausible legal ``ball`` for a board game."""
    cfg, rules = state.cfg, game.rules
    kinds = [k for k, c in zip(rules.kinds, state.table, strict=True) for _ in range(c)]
    free = _free_cups(state)
    rng.shuffle(free)
    req = game.required(state)
    ev: dict[str, Any] = {"type": BALL}
    first: str | None = None
    if kinds and rng.random() < 0.85:
        if req in rules.kinds and req in kinds:
            first = req
        else:
            first = rng.choice(kinds)
    if first is not None:
        ev["first_hit"] = first
    if req == "cushion" or rng.random() < 0.3:
        ev["cushion"] = req == "cushion" and rng.random() < 0.9 or rng.random() < 0.5
    others = []
    if first is not None:
        pool = list(kinds)
        pool.remove(first)
        rng.shuffle(pool)
        for kind in [first, *pool][: rng.choice((0, 0, 1, 1, 2))]:
            r = rng.random()
            if r < 0.7 and free:
                others.append({"ball": kind, "to": free.pop()})
            else:
                others.append(
                    {"ball": kind, "to": rng.choice([w for w in rules.words if w != TABLE])}
                )
    if others:
        ev["others"] = others
    r = rng.random()
    if r < 0.55 and free:
        ev["to"] = free.pop()
    elif r < 0.62 and "left" in rules.words:
        ev["to"] = rng.choice(("left", "right"))
    else:
        ev["to"] = rng.choice(rules.words)
    if "nominated" in rules.extra_fields:
        ev["nominated"] = (
            ev["to"]
            if rng.random() < 0.5 and ev["to"] not in (TABLE, BACK, OFF)
            else rng.choice(cfg.cups)
        )
    if "king_struck" in rules.extra_fields:
        if cfg.v["pins"]:
            ev["pins"] = rng.randint(0, cfg.v["pins"])
        if "king" in kinds and rng.random() < 0.05:
            ev["king_struck"] = True
    return ev


def random_event(game: RoundOfBalls, state: BagatelleState, rng: Any) -> dict[str, Any]:
    """A plausible legal next event for ``state`` (the family's random referee)."""
    cfg = state.cfg
    if isinstance(game, ShuffleBoard):
        if state.next == COUNT:
            weights = []
            for who, k in enumerate(state.table):
                weights += [who] * rng.randint(0, k)
            rng.shuffle(weights)
            zones = sorted(
                (rng.choice(_ZONES[:3] + ("hanger",) * (rng.random() < 0.2)) for _ in weights),
                key=lambda z: 4 if z == "hanger" else z,
                reverse=True,
            )
            out = [{"player": cfg.names[w], "zone": z} for w, z in zip(weights, zones, strict=True)]
            for i in range(1, len(out)):
                if out[i]["zone"] == out[i - 1]["zone"] and rng.random() < 0.2:
                    out[i]["level"] = True
            if out and out[0]["zone"] == "hanger" and not (len(out) > 1 and out[1].get("level")):
                if rng.random() < 0.5:
                    out[0]["flip"] = rng.choice(("made", "failed"))
            return {"type": COUNT, "weights": out}
        ev: dict[str, Any] = {"type": BALL}
        if rng.random() < 0.2:
            ev["to"] = "out"
        elif rng.random() < 0.2:
            victims = [w for w, k in enumerate(state.table) if k]
            if victims:
                ev["others"] = [{"ball": cfg.names[rng.choice(victims)], "to": "out"}]
        return ev
    if isinstance(game, Devil):
        counts = cfg.v["pin_counts"]
        return {
            "type": BALL,
            "pins": {
                **{k: rng.randint(0, n) for k, n in counts.items()},
                "black": rng.randint(0, 1),
            },
        }
    if isinstance(game, ReceptacleGame):
        pl = game.places
        places: list[Any] = [*cfg.cups, *game._values]
        if pl.idle and rng.random() < 0.1:
            return {"type": BALL, "to": pl.idle}
        ev = {"type": BALL, "to": rng.choice(places)}
        if pl.other and rng.random() < 0.3:
            ev["others"] = [{"ball": pl.other, "to": rng.choice([*cfg.cups, *game._other_values])}]
        return ev
    if isinstance(game, Parepa):
        cue = rng.choice(game.cue_choices(state))
        cue_i = _PAREPA_BALLS.index(cue)
        on = [b for i, b in enumerate(_PAREPA_BALLS) if (state.table[i] and i != cue_i)]
        ev = {"type": BALL, "cue": cue, "to": rng.choice([*cfg.cups, TABLE, TABLE, TABLE])}
        if on and rng.random() < 0.8:
            ev["first_hit"] = rng.choice(on)
            rng.shuffle(on)
            k = rng.choice((0, 1, 1, 2))
            if k:
                ev["others"] = [{"ball": b, "to": rng.choice(cfg.cups)} for b in on[:k]]
        return ev
    if isinstance(game, ArchGame):
        arches = sorted(cfg.arches)
        free = _free_cups(state)
        rng.shuffle(free)
        ev = {"type": BALL, "cushion": rng.random() < 0.8}
        if rng.random() < 0.5:
            ev["arch"] = rng.choice(arches)
            if free and rng.random() < 0.4:
                ev["to"] = free.pop()
        else:
            ev["to"] = rng.choice((TABLE, TABLE, BACK, OFF))
        if state.table[0] and rng.random() < 0.6:
            ev["first_hit"] = "white"
            if rng.random() < 0.5:
                o: dict[str, Any] = {"ball": "white", "arch": rng.choice(arches)}
                if free and rng.random() < 0.3:
                    o["to"] = free.pop()
                ev["others"] = [o]
        return ev
    if isinstance(game, PigeonHole):
        if game.can_respot(state) and rng.random() < 0.5:
            return {"type": "respot_red"}
        ev = _board_ball(game, state, rng)
        if ev["to"] == BACK:
            ev["to"] = OFF
        for o in ev.get("others", ()):
            if o["to"] == BACK:
                o["to"] = OFF
        if rng.random() < 0.003 and (
            ev["to"] == OFF or any(o["to"] == OFF for o in ev.get("others", ()))
        ):
            ev["fouls"] = ["deliberate_off"]
        return ev
    assert isinstance(game, BoardGame)
    return _board_ball(game, state, rng)


@register_simulator("bagatelle")
def _simulator(game: Game[Any], state: Any, rng: random.Random, n: int) -> dict[str, Any]:
    """The family's generator for :func:`rules.simulate.simulate_game`."""
    assert isinstance(game, RoundOfBalls)
    return random_event(game, state, rng)


def simulate(
    game: RoundOfBalls, rng: Any, length: int, setup: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded plausible legal game: (setup, events), at most ``length`` events. Unless a
    setup is given, the target (or the number of rounds) is set so that the game lasts
    about ``length`` events where the game allows it.

    >>> import random
    >>> from rules import get, replay
    >>> g = get("victorian_bagatelle")
    >>> setup, events = simulate(g, random.Random(1), 50)
    >>> replay(g, setup, events).events == len(events) <= 50
    True
    """
    if setup is None:
        setup = {}
        names = dict(game.rules.defaults)
        if "rounds" in names:
            setup["rounds"] = length // max(1, game.rules.balls or 1) + 1
            if "target" in names:
                setup["target"] = None
        elif "target" in names:
            setup["target"] = length * 200
    t = Timeline(game, setup)
    events: list[dict[str, Any]] = []
    misses = 0
    while len(events) < length and not t.state.over and misses < 1000:
        ev = random_event(game, t.state, rng)
        try:
            t.push(ev)
        except RuleError:
            misses += 1
            continue
        events.append(ev)
    return dict(setup), events
