"""Benchmark of the target family (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_target.py [--quick]``.

For each of the twelve games:

* events/second replaying long seeded random legal games (:func:`rules.simulate.target.simulate`,
  steered away from the end so they run to the length asked);
* the web app's path, one more event applied to ``load(dump(state))`` (JSON text in and
  out) after 10 events and after 1,000 events of the same game: it should be flat (ratio
  ~1), since the state keeps counters, not histories.

Times are CPU time of this process (``time.process_time``), the best of several runs, so
other work on the machine disturbs them less; the 4-pin bar billiards replay is measured
in the same run as a yardstick (its README figure: ~167,000 events/s on a quiet machine).
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import get, replay  # noqa: E402 - after the path fix
from rules.simulate import simulate_frame  # noqa: E402
from rules.simulate.target import simulate  # noqa: E402
from rules.target import GAMES  # noqa: E402

LONG = 2000  # events in a replayed game
DEEP = 1000  # the "long game" for the one-more-event cost


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best CPU time of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best


def one_more(game: Any, setup: dict[str, Any], events: list[Any], k: int, number: int) -> float:
    """The cost of one more event after ``k`` events: load the stored dump (JSON text),
    apply the next event, dump it again (JSON text)."""
    blob = json.dumps(game.dump(replay(game, setup, events[:k])))
    event = events[k]

    def step() -> None:
        state = game.apply(game.load(json.loads(blob)), event)
        json.dumps(game.dump(state))

    return best_of(step, repeat=5, number=number)


def yardstick(quick: bool) -> float:
    """4-pin bar billiards replay, events/s, in this run (whole simulated frames, as
    bench_carom's yardstick)."""
    bb = get("bar_billiards_4pin")
    frames = [simulate_frame(seed=seed) for seed in range(5 if quick else 20)]
    n = sum(len(f) for f in frames)
    t = best_of(lambda: [replay(bb, {}, f) for f in frames], repeat=3)
    return n / t


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    number = 50 if quick else 300
    print(f"python {platform.python_version()} on {platform.machine()}; CPU time, best of 5")
    print(f"yardstick: 4-pin bar billiards replay {yardstick(quick):,.0f} events/s")
    rows = []
    for game in sorted(GAMES, key=lambda g: g.id):
        gid = game.id
        setup, events = simulate(game, random.Random(2026), LONG, players=4)
        t = best_of(lambda: replay(game, setup, events), repeat=3 if quick else 5)  # noqa: B023
        rate = len(events) / t
        deep_setup, deep = simulate(game, random.Random(7), DEEP + 12, players=4)
        at10 = one_more(game, deep_setup, deep, 10, number)
        at1000 = one_more(game, deep_setup, deep, DEEP, number)
        rows.append((gid, len(events), rate, at10, at1000))
        print(
            f"{gid:24s} replay {len(events):5d} events: {rate:9,.0f} events/s "
            f"({1e6 / rate:5.1f} us/event); one more at 10: {at10 * 1e6:6.1f} us, "
            f"at {DEEP:,}: {at1000 * 1e6:6.1f} us, ratio {at1000 / at10:4.2f}"
        )
    print()
    print("| game | replay events/s | us/event | one more at 10 | one more at 1,000 | ratio |")
    print("|---|---|---|---|---|---|")
    for gid, _, rate, a, b in rows:
        print(
            f"| {gid} | {rate:,.0f} | {1e6 / rate:.1f} | {a * 1e6:.1f} us | {b * 1e6:.1f} us "
            f"| {b / a:.2f} |"
        )
    slowest = min(rows, key=lambda r: r[2])
    print(f"\nslowest: {slowest[0]} at {slowest[2]:,.0f} events/s (target: 100,000 on one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
