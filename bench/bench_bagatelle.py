"""Benchmark of the bagatelle family (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_bagatelle.py [seconds]``.

For each of the eighteen games:

* events/second replaying long random legal games (``rules.simulate.bagatelle.simulate``: the
  target or the number of rounds raised so that a game lasts about 1,000 events; the
  games of one fixed round are made long with many players);
* the web app's path, the cost of one more event applied to ``load(dump(state))`` (JSON
  text in, JSON text out) after 10 events and after 1,000 events, and their ratio (should
  be flat, ~1: the state is counters, not a history).

CPU time (``time.process_time``) is measured, best of five, so that other work on a busy
machine counts as little as possible.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import replay  # noqa: E402 - after the path fix
from rules.bagatelle import GAMES, RoundOfBalls  # noqa: E402
from rules.simulate.bagatelle import simulate  # noqa: E402

LONG = 1000

#: games that end after one round (or at a low target) unless they are given more players
MANY_PLAYERS = {
    "klondike": 170,
    "monte_carlo": 250,
    "high_number_pool": 1000,  # one shot each: the state grows with the players
    "pigeon_hole_jenny_lind": 6,
    "sans_egal": 2,
}


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best CPU time of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best


def long_game(game: RoundOfBalls, seed: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal game of about :data:`LONG` events."""
    setup: dict[str, Any] | None = None
    if game.id in MANY_PLAYERS:
        n = MANY_PLAYERS[game.id]
        setup = {"players": n}
        names = dict(game.rules.defaults)
        if "target" in names:
            setup["target"] = 10**6
    return simulate(game, random.Random(seed), LONG, setup=setup)


def one_more(
    game: RoundOfBalls, setup: dict[str, Any], events: list[dict[str, Any]], n: int, k: int = 20
) -> float:
    """CPU seconds for one more event after ``n`` events (JSON -> load -> apply -> dump ->
    JSON), averaged over the ``k`` events from there (each applied to the stored state
    before it), so that both ends of the game are timed on the same mix of events."""
    stored = []
    state = replay(game, setup, events[:n])
    for ev in events[n : n + k]:
        stored.append((json.dumps(game.dump(state)), ev))
        state = game.apply(state, ev)

    def steps() -> None:
        for text, ev in stored:
            json.dumps(game.dump(game.apply(game.load(json.loads(text)), ev)))

    return best_of(steps, repeat=5, number=20) / len(stored)


def short_games(game: RoundOfBalls, count: int = 300) -> float:
    """Events/s replaying ``count`` random games from the default setup (initial included):
    the real load for the games of one short round."""
    games = [simulate(game, random.Random(seed), LONG, setup={}) for seed in range(count)]
    total = sum(len(events) for _, events in games)

    def run() -> None:
        for setup, events in games:
            replay(game, setup, events)

    return total / best_of(run, repeat=3)


def main() -> None:
    print(f"python {platform.python_version()} on {platform.machine()}, one core, CPU time")
    header = (
        f"{'game':28} {'events':>6} {'replay ev/s':>12} {'+1 @10 µs':>10} "
        f"{'+1 @1000 µs':>12} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    slowest = float("inf")
    for game in GAMES:
        setup, events = long_game(game)
        per_event = best_of(partial(replay, game, setup, events)) / len(events)
        rate = 1 / per_event
        slowest = min(slowest, rate)
        at10 = one_more(game, setup, events, 10)
        if len(events) >= LONG:
            at1000 = one_more(game, setup, events, LONG - 20)
            far, ratio = f"{at1000 * 1e6:12.1f}", f"{at1000 / at10:6.2f}"
        else:
            far, ratio = f"{'(ends at ' + str(len(events)) + ')':>12}", f"{'-':>6}"
        print(f"{game.id:28} {len(events):6d} {rate:12,.0f} {at10 * 1e6:10.1f} {far} {ratio}")
    print(f"slowest game: {slowest:,.0f} events/s (target: 100,000)")
    print()
    print("games of one short round, many players above; from the default setup here:")
    for game in GAMES:
        if game.id in MANY_PLAYERS and game.id not in ("pigeon_hole_jenny_lind", "sans_egal"):
            print(f"{game.id:28} {short_games(game):12,.0f} events/s (setup and replay)")


if __name__ == "__main__":
    main()
