"""Benchmark of the carom family (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_carom.py [--quick]``.

For each of the fifteen games of the carom scoring language:

* events/second replaying long random legal games (``rules.simulate.carom.simulate``: counts,
  misses, fouls, pots, pins, spaces as each game has them), validation included;
* the web app's path: the cost of one more stroke applied to ``load(dump(state))`` of a
  game 10 events long and of one 1,000 events long, and their ratio (flat: ~1).

Target: at least 100,000 events/s per game on one core. Times are CPU time of this process
(``time.process_time``), best of several runs: on a machine shared with other work, wall
time measures the other work too; the CPU time is what one core spends on the engine.
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
from rules.carom import GAMES  # noqa: E402
from rules.simulate import simulate_frame  # noqa: E402
from rules.simulate.carom import simulate  # noqa: E402

TARGET = 100_000
#: rules/README.md's figure for 4-pin bar billiards on a quiet machine (events/s): the
#: reference replayed alongside, so a loaded machine's figures can be read against it.
BAR_BILLIARDS_QUIET = 167_479


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best time of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best


def one_more(
    game: Any, setup: dict[str, Any], events: list[dict[str, Any]]
) -> Callable[[], object]:
    """The stored dump (as JSON text) -> load -> apply one stroke -> dump -> JSON. The
    stroke is a miss, legal in every game once the opening is played (``nominate`` added
    where the game needs it)."""
    stored = json.dumps(game.dump(replay(game, setup, events)))
    stroke: dict[str, Any] = {"type": "stroke", "contacts": ["cushion"]}
    if game.id == "russian_pool":
        stroke["nominate"] = "cannon"

    def step() -> object:
        return json.dumps(game.dump(game.apply(game.load(json.loads(stored)), stroke)))

    return step


def main(quick: bool = False) -> None:
    """Run the benchmark; print a line per game and a markdown table."""
    games_n, length = (4, 500) if quick else (10, 2000)
    rows = []
    print(f"python {platform.python_version()} on {platform.machine()}")
    bb = get("bar_billiards_4pin")
    frames = [simulate_frame(seed=seed) for seed in range(20)]
    bb_events = sum(len(f) for f in frames)
    t_bb = best_of(lambda: [replay(bb, {}, f) for f in frames], repeat=5)
    bb_eps = bb_events / t_bb
    scale = BAR_BILLIARDS_QUIET / bb_eps
    print(
        f"reference: bar billiards replays at {bb_eps:,.0f} events/s here "
        f"({BAR_BILLIARDS_QUIET:,} on a quiet machine): figures x {scale:.2f} estimate a quiet one"
    )
    for game in GAMES:
        game_id = game.id
        played = [simulate(game, random.Random(seed), length) for seed in range(games_n)]
        n_events = sum(len(events) for _, events in played)

        def replay_all(played: list[Any] = played, game: Any = game) -> None:
            for setup, events in played:
                replay(game, setup, events)

        t = best_of(replay_all, repeat=3 if quick else 5)
        eps = n_events / t
        setup, long_events = simulate(game, random.Random(99), 1000)
        short_events = long_events[:10]
        step10, step1000 = one_more(game, setup, short_events), one_more(game, setup, long_events)
        t10 = t1000 = float("inf")
        for _ in range(3 if quick else 7):
            t10 = min(t10, best_of(step10, repeat=1, number=500))
            t1000 = min(t1000, best_of(step1000, repeat=1, number=500))
        rows.append((game_id, eps, t10, t1000))
        flag = "" if eps * scale >= TARGET else "  (below the 100,000 target)"
        print(
            f"{game_id:27} {eps:>10,.0f} events/s ({1e6 / eps:4.1f} us/event)"
            f"  one more: {t10 * 1e6:5.1f} us at 10, {t1000 * 1e6:5.1f} us at 1,000,"
            f" ratio {t1000 / t10:.2f}{flag}"
        )
    print()
    print(
        "| game | replay events/s | quiet estimate | one more at 10 | one more at 1,000 | ratio |"
    )
    print("|---|---|---|---|---|---|")
    for game_id, eps, t10, t1000 in rows:
        print(
            f"| `{game_id}` | {eps:,.0f} | {eps * scale:,.0f} | {t10 * 1e6:.1f} µs |"
            f" {t1000 * 1e6:.1f} µs | {t1000 / t10:.2f} |"
        )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
