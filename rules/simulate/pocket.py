"""Seeded plausible games of the pocket family: its generator for :func:`rules.simulate.simulate_game`, and the family's own ``simulate``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.core import Game
from rules.pocket import (
    _COLOURS,
    _TWO_BALLS,
    COLOUR_BALLS,
    CUE,
    HOLES,
    POCKETS,
    BBCPool,
    BbcPoolState,
    ColourBallPool,
    ColourBallPoolState,
    GolfPool,
    GolfPoolState,
    NumberedPool,
    NumberedState,
    PocketGame,
    TwoBallPool,
    TwoBallPoolState,
    _balls,
)
from rules.simulate.generators import register_simulator

__all__ = ["is_over", "plausible_event", "random_setup", "simulate"]


def _numbered_plausible(
    game: NumberedPool, st: NumberedState, rng: random.Random, skill: float
) -> dict[str, Any]:
    r = game.rules
    players = st.players
    if r.three == "rack" and st.rack >= 2 and st.fresh and rng.random() < 0.3:
        return {"type": "choose_break", "player": rng.choice(players)}
    if r.out_of_turn and rng.random() < 0.01:
        others = [p for i, p in enumerate(players) if i != st.turn]
        return {"type": "foul", "player": rng.choice(others), "code": "out_of_turn"}
    balls = _balls(st.table)
    opening, bank = st.next == "break", st.next == "bank"
    pockets = st.match and r.match_calls_pockets
    needs_call = not bank and st.call_shot and (not opening or pockets)
    ev: dict[str, Any] = {"type": "stroke"}
    roll = rng.random()
    if roll < skill and balls:
        k = rng.randint(1, min(3, len(balls))) if opening else 1 + (rng.random() < 0.15)
        chosen = rng.sample(balls, min(k, len(balls)))
        pots: list[dict[str, Any]] = [
            {"ball": b, "pocket": rng.choice(POCKETS)} if pockets else {"ball": b} for b in chosen
        ]
        if bank:
            pots[0]["bank"] = rng.random() < 0.5
        if needs_call:
            ev["call"] = [
                {"ball": chosen[0], "pocket": pots[0]["pocket"]} if pockets else {"ball": chosen[0]}
            ]
        if rng.random() < 0.02:
            pots.append({"ball": CUE})
        ev["pots"] = pots
        if rng.random() < 0.03:
            ev["fouls"] = ["touch_after"]
    elif roll < skill + 0.06:
        ev["fouls"] = [rng.choice(("miss", "miss", "double_hit", "feet", "touched_ball"))]
    elif roll < skill + 0.09:
        ev["cushion"] = False
    elif roll < skill + 0.11 and r.lowest_first and len(balls) > 1:
        ev["first_hit"] = balls[-1]
    elif needs_call:
        ev["call"] = []
    return ev


def _bbc_plausible(st: BbcPoolState, rng: random.Random, skill: float) -> dict[str, Any]:
    s = st.turn
    ev: dict[str, Any] = {"type": "stroke"}
    if st.next == "black" and rng.random() < 0.4:
        ev["pots"] = [{"ball": "black"}]
        return ev
    left = {"red": st.reds, "yellow": st.yellows}
    roll = rng.random()
    if roll < skill and (st.reds or st.yellows):
        own = st.groups[s]
        colour = own if own is not None and left[own] and rng.random() < 0.8 else None
        if colour is None:
            colour = rng.choice([c for c in _COLOURS if left[c]])
        k = 1 + (left[colour] > 1 and rng.random() < 0.2)
        ev["pots"] = [{"ball": colour}] * k
        if rng.random() < 0.03:
            ev["pots"].append({"ball": CUE})
        if st.groups[0] is None and st.next == "break" and st.after_failed:
            ev["group"] = rng.choice(_COLOURS)
    elif roll < skill + 0.002:
        ev["pots"] = [{"ball": "black"}]
    elif roll < skill + 0.06:
        ev["fouls"] = ["miss"]
    elif roll < skill + 0.1:
        ev["cushion"] = False
    return ev


def _golf_plausible(st: GolfPoolState, rng: random.Random, skill: float) -> dict[str, Any]:
    pocket = HOLES[st.hole - 1]
    ev: dict[str, Any] = {"type": "stroke"}
    roll = rng.random()
    if roll < skill:
        ev["pots"] = [{"ball": "red", "pocket": pocket, "bank": rng.random() < 0.85}]
    elif roll < skill + 0.05:
        ev["pots"] = [{"ball": "red", "pocket": rng.choice(POCKETS)}]
    elif roll < skill + 0.08:
        ev["pots"] = [{"ball": "white", "pocket": rng.choice(POCKETS)}]
    elif roll < skill + 0.1:
        ev["cushion"] = False
    return ev


def _two_ball_plausible(st: TwoBallPoolState, rng: random.Random, skill: float) -> dict[str, Any]:
    alive = [p for i, p in enumerate(st.players) if st.lives[i] > 0]
    if st.may_revive and rng.random() < 0.5:
        return {"type": "privilege", "player": st.players[st.may_revive[0]]}
    if st.next == "lead":
        return {"type": "lead"}
    if rng.random() < 0.01:
        return {"type": "foul", "player": rng.choice(alive), "code": "touch_running"}
    own = st.plays_with
    obj = "red" if own == "white" else "white"
    ev: dict[str, Any] = {"type": "stroke"}
    roll = rng.random()
    if roll < skill:
        ev["pots"] = [{"ball": obj}]
    elif roll < skill + 0.03:
        ev["pots"] = [{"ball": own}]
    elif roll < skill + 0.07:
        ev["fouls"] = ["miss"]
    owner = st.owners[_TWO_BALLS.index(obj)]
    if rng.random() < 0.03:
        takers = [p for i, p in enumerate(st.players) if st.lives[i] > 0 and i != owner]
        if takers:
            ev["hazard"] = rng.choice(takers)
    return ev


def _colour_plausible(st: ColourBallPoolState, rng: random.Random, skill: float) -> dict[str, Any]:
    players = st.players
    if st.may_revive and rng.random() < 0.5:
        return {"type": "star", "player": players[st.may_revive[0]]}
    alive = [i for i, n in enumerate(st.lives) if n > 0]
    others = [i for i in alive if i != st.turn]
    if rng.random() < 0.004:
        return {"type": "foul", "player": players[rng.choice(others)], "code": "out_of_turn"}
    s = st.turn
    objects = [i for i in range(len(players)) if st.table >> i & 1 and i != s]
    ev: dict[str, Any] = {"type": "stroke"}
    on = st.on
    if on < 0:
        on = rng.choice(objects)
        ev["on"] = COLOUR_BALLS[on]
    roll = rng.random()
    if roll < skill:
        ev["pots"] = [{"ball": COLOUR_BALLS[on]}]
        if rng.random() < 0.03:
            ev["fouls"] = ["touch_after"]
    elif roll < skill + 0.06:
        ev["fouls"] = ["miss"]
    elif roll < skill + 0.09:
        ev["fouls"] = ["feet"]
    return ev


def plausible_event(
    game: PocketGame, state: Any, rng: random.Random, skill: float = 0.45
) -> dict[str, Any]:
    """A plausible legal next event for a game of the family (``skill``: the chance that a
    stroke pots what the player is after).

    >>> from rules import replay
    >>> rng = random.Random(3)
    >>> from rules.pocket import FIFTEEN_BALL_POOL as g
    >>> s = g.initial({})
    >>> while not s.over:
    ...     s = g.apply(s, plausible_event(g, s, rng))
    >>> g.view(s)["over"], s.events > 10
    (True, True)
    """
    if isinstance(game, NumberedPool):
        return _numbered_plausible(game, state, rng, skill)
    if isinstance(game, BBCPool):
        return _bbc_plausible(state, rng, skill)
    if isinstance(game, GolfPool):
        return _golf_plausible(state, rng, skill)
    if isinstance(game, TwoBallPool):
        return _two_ball_plausible(state, rng, skill)
    return _colour_plausible(state, rng, skill)


def is_over(game: PocketGame, state: Any) -> bool:
    """Whether the game has ended (cheaper than the view)."""
    if isinstance(game, (NumberedPool, BBCPool)):
        return bool(state.over)
    if isinstance(game, GolfPool):
        return bool(state.hole > 6)
    if isinstance(game, ColourBallPool):
        return game._over(state)[0]
    return bool(state.seats.out.count(False) <= 1)


def random_setup(game: PocketGame, rng: random.Random, length: int = 200) -> dict[str, Any]:
    """A plausible setup: 2 to 4 players (or sides, singles or partners), the game's
    options varied; a long ``length`` raises continuous pool's target."""
    if isinstance(game, BBCPool):
        if rng.random() < 0.5:
            return {"players": {"home": ["Ann", "Cat"], "away": ["Bob", "Dan"]}}
        return {"players": {"home": ["Ann"], "away": ["Bob"]}}
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    if isinstance(game, GolfPool):
        if rng.random() < 0.3:
            return {"sides": ["X", "Y"], "players": {"X": ["Ann", "Cat"], "Y": ["Bob", "Dan"]}}
        return {"players": names[: rng.randint(2, 4)]}
    if isinstance(game, NumberedPool):
        r = game.rules
        n = rng.randint(r.min_players, min(r.max_players, 4))
        setup: dict[str, Any] = {"players": names[:n], "match": rng.random() < 0.3}
        if r.three == "rack":
            setup["target"] = max(20, length // 4)
        return setup
    lives = rng.randint(1, 3) if length < 300 else rng.randint(10, 20)  # long games: more lives
    setup = {"players": names[: rng.randint(2, 6)], "lives": lives}
    if isinstance(game, TwoBallPool):
        setup["privilege"] = rng.choice(("first", "open", "none"))
    return setup


def simulate(
    game: PocketGame,
    rng: random.Random,
    length: int,
    setup: Mapping[str, Any] | None = None,
    skill: float = 0.45,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A seeded, plausible, legal game of ``game``: (setup, events), played to its end or
    stopped after ``length`` events. A low ``skill`` makes long games.

    >>> from rules import replay
    >>> from rules.pocket import ROTATION_POOL
    >>> setup, events = simulate(ROTATION_POOL, random.Random(1), 500)
    >>> ROTATION_POOL.view(replay(ROTATION_POOL, setup, events))["over"]
    True
    """
    chosen = dict(setup) if setup is not None else random_setup(game, rng, length)
    state = game.initial(chosen)
    events: list[dict[str, Any]] = []
    while len(events) < length and not is_over(game, state):
        ev = plausible_event(game, state, rng, skill)
        state = game.apply(state, ev)
        events.append(ev)
    return chosen, events


@register_simulator("pocket")
def _simulator(game: Game[Any], state: Any, rng: random.Random, n: int) -> dict[str, Any]:
    """The family's generator for :func:`rules.simulate.simulate_game`."""
    assert isinstance(game, PocketGame)
    return plausible_event(game, state, rng)
