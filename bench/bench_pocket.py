"""Benchmark of the pocket family (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_pocket.py``.

For each of the nine games of the pocket scoring language:

* events/second replaying random legal games (``rules.simulate.pocket.simulate``, long games:
  low skill, up to 1,000 events each), validation included;
* the web app's path: the cost of one more event applied to ``load(dump(state))`` (the
  stored JSON text parsed, the event applied, the new dump written as text) for a game 10
  events long and one 1,000 events long (should be flat: ratio ~1);
* for scale, bar billiards' replay rate measured in the same run.

Times are CPU seconds of this process (one core), best of a few runs: on a machine shared
with other work, wall-clock figures swing by a factor of several from run to run.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import get, replay  # noqa: E402 - after the path fix
from rules.pocket import (
    GAMES,
    BBCPool,
    ColourBallPool,
    GolfPool,
    NumberedPool,
    PocketGame,
    TwoBallPool,
)
from rules.simulate import simulate_frame  # noqa: E402
from rules.simulate.pocket import is_over, plausible_event, random_setup, simulate

GAMES_PER_RUN = 20
LONG = 1000


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best CPU time of ``repeat`` runs of ``number`` calls, per call, in seconds.

    CPU time (``time.process_time``) is what "on one core" means, and it holds still while
    other processes load the machine; wall time on a busy machine does not."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best


def replay_each(game: PocketGame, games: Sequence[tuple[Any, Sequence[Any]]]) -> list[Any]:
    """Each (setup, events) of ``games`` replayed: their final states."""
    return [replay(game, setup, events) for setup, events in games]


def quiet_event(game: PocketGame, state: Any) -> dict[str, Any]:
    """An event that changes little and never ends the game: a safety, a lead, a plain
    stroke (used to keep a game going for the 1,000-event position)."""
    if isinstance(game, NumberedPool):
        return {"type": "stroke", "call": []}
    if isinstance(game, TwoBallPool) and state.next == "lead":
        return {"type": "lead"}
    if isinstance(game, ColourBallPool) and state.on < 0:
        ball = next(
            i for i in range(len(state.players)) if state.table >> i & 1 and i != state.turn
        )
        return {"type": "stroke", "on": ("white", "red", "yellow", "green", "brown")[ball]}
    return {"type": "stroke"}


def position(game: PocketGame, n: int, seed: int) -> tuple[dict[str, Any], list[Any], Any]:
    """A game ``n`` events long that is not over: plausible events, with a quiet one
    instead of any that would end it."""
    rng = random.Random(seed)
    setup = random_setup(game, rng, n)
    if isinstance(game, (BBCPool, GolfPool)):
        setup = {}
    state = game.initial(setup)
    events: list[Any] = []
    while len(events) < n:
        ev = plausible_event(game, state, rng, skill=0.2)
        new = game.apply(state, ev)
        if is_over(game, new):
            ev = quiet_event(game, state)
            new = game.apply(state, ev)
        events.append(ev)
        state = new
    return setup, events, state


def one_more(game: PocketGame, state: Any, seed: int) -> float:
    """Seconds for the web app's path: stored JSON text -> load -> apply -> dump -> text."""
    text = json.dumps(game.dump(state))
    ev = plausible_event(game, state, random.Random(seed), skill=0.2)

    def step() -> None:
        s = game.load(json.loads(text))
        json.dumps(game.dump(game.apply(s, ev)))

    return best_of(step, repeat=5, number=200)


def main() -> None:
    print(f"python {platform.python_version()} on {platform.machine()}")
    bb = get("bar_billiards_4pin")
    frames = [simulate_frame(seed=s) for s in range(20)]
    n = sum(len(f) for f in frames)
    t = best_of(lambda: [replay(bb, {}, f) for f in frames], repeat=3)
    reference = n / t
    print(f"reference: bar billiards replay {reference:,.0f} events/s (CPU time) in this run")
    rows = []
    for game in GAMES:
        games = [
            simulate(game, random.Random(seed), LONG, skill=0.1) for seed in range(GAMES_PER_RUN)
        ]
        n = sum(len(ev) for _, ev in games)
        t = best_of(partial(replay_each, game, games), repeat=5)
        rate = n / t
        _, _, at10 = position(game, 10, 1)
        _, _, at1000 = position(game, LONG, 1)
        c10, c1000 = one_more(game, at10, 2), one_more(game, at1000, 2)
        rows.append((game.id, n / len(games), rate, rate / reference, c10, c1000))
        print(
            f"{game.id:24} replay {rate:9,.0f} events/s ({t / n * 1e6:5.1f} us/event, "
            f"games of {n / len(games):5.0f} events, {rate / reference:4.2f}x bar billiards); "
            f"one more event at 10: {c10 * 1e6:6.1f} us, at 1,000: {c1000 * 1e6:6.1f} us "
            f"(ratio {c1000 / c10:4.2f})"
        )
    print()
    print("| game | replay events/s | x bar billiards | one more at 10 | at 1,000 | ratio |")
    print("|---|---|---|---|---|---|")
    for gid, _length, rate, rel, c10, c1000 in rows:
        print(
            f"| `{gid}` | {rate:,.0f} | {rel:.2f} | {c10 * 1e6:.1f} µs | {c1000 * 1e6:.1f} µs "
            f"| {c1000 / c10:.2f} |"
        )


if __name__ == "__main__":
    main()
