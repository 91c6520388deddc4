"""Each family's generator of plausible events, found by family name.

Each family's module of this package registers its generator here
(``@register_simulator("pocket")``); :func:`rules.simulate.simulate_game` plays any
registered game with it. This module imports no game, so those modules can import it
without a circle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.core import Game

__all__ = ["SIMULATORS", "Simulator", "register_simulator"]

#: An event generator: (game, state, rng, events so far) -> the next event.
Simulator = Callable[[Game[Any], Any, random.Random, int], dict[str, Any]]

#: family -> its event generator (see :func:`register_simulator`).
SIMULATORS: dict[str, Simulator] = {}


def register_simulator(family: str) -> Callable[[Simulator], Simulator]:
    """Decorator: ``fn(game, state, rng, n)`` makes a plausible next event for a game of
    ``family`` (``n`` events already played); :func:`simulate_game` uses it."""

    def deco(fn: Simulator) -> Simulator:
        SIMULATORS[family] = fn
        return fn

    return deco
