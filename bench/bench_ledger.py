"""Benchmark of the ledger family (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_ledger.py``.

For each game of the ledger scoring language:

* events/second replaying long random legal games (``rules.simulate.ledger.simulate``; a low
  skill keeps the cue games going, a deep cave keeps a Bouillotte deal raising);
* the web app's path: the cost of one more event applied to ``load(dump(state))`` (JSON
  text in and out) of a game 10 events long and of one 1,000 events long, and their
  ratio (flat: about 1).

Target: at least 100,000 events/s a game on one core.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import get  # noqa: E402 - after the path fix
from rules.simulate import simulate_frame  # noqa: E402
from rules.simulate.ledger import simulate  # noqa: E402

IDS = ("snookers_pool_1908", "snooker_pool_hoyle", "english_pyramids", "bouillotte")
TARGET = 100_000


def long_game(game: Any, seed: int, length: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal game of at least ``length`` events (tries seeds until one is)."""
    for s in range(seed, seed + 200):
        setup, events = simulate(game, random.Random(s), length, skill=0.02)
        if len(events) >= length:
            return setup, events
    raise RuntimeError(f"no game of {length} events for {game.id}")


def replay_rate(game: Any, games: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> float:
    """Events per second of CPU time folding ``apply`` over whole games (best of 5; CPU
    time, since a shared machine's wall clock counts other people's work)."""
    total = sum(len(events) for _, events in games)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for setup, events in games:
            state = game.initial(setup)
            apply = game.apply
            for ev in events:
                state = apply(state, ev)
        best = min(best, time.process_time() - start)
    return total / best


def one_more(game: Any, setup: dict[str, Any], events: list[dict[str, Any]], at: int) -> float:
    """Seconds for the web app's step after ``at`` events: JSON dump text -> load ->
    apply the next event -> dump -> JSON (CPU time, best of 20 runs of 200)."""
    state = game.initial(setup)
    for ev in events[:at]:
        state = game.apply(state, ev)
    stored = json.dumps(game.dump(state))
    nxt = events[at]
    best = float("inf")
    for _ in range(20):
        start = time.process_time()
        for _ in range(200):
            s = game.load(json.loads(stored))
            s = game.apply(s, nxt)
            json.dumps(game.dump(s))
        best = min(best, (time.process_time() - start) / 200)
    return best


def reference_rate() -> float:
    """Bar billiards measured the same way: the README quotes its figure on a quiet
    machine, so the ratio scales these figures on a loaded one."""
    bb = get("bar_billiards_4pin")
    setup = {"players": {"home": ["Ann"], "away": ["Bob"]}}
    frames = [(setup, simulate_frame(setup, seed=s)) for s in range(5)]
    return replay_rate(bb, frames)


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    ref = reference_rate()
    print(f"reference: bar_billiards_4pin replays at {ref:,.0f} events/s here (CPU time)")
    print(
        f"{'game':22} {'events/s':>12} {'µs/event':>9} {'step@10':>9} {'step@1000':>10} {'ratio':>6}"
    )
    for game_id in IDS:
        game = get(game_id)
        games = [long_game(game, 100 * k, 1200) for k in range(5)]
        rate = replay_rate(game, games)
        setup, events = games[0]
        at10 = one_more(game, setup, events, 10)
        at1000 = one_more(game, setup, events, 1000)
        flag = "" if rate >= TARGET else "  (below the 100,000 target)"
        print(
            f"{game_id:22} {rate:12,.0f} {1e6 / rate:9.2f} {at10 * 1e6:8.1f}µs "
            f"{at1000 * 1e6:9.1f}µs {at1000 / at10:6.2f}{flag}"
        )


if __name__ == "__main__":
    main()
