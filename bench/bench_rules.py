"""Benchmark of the rules engine (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_rules.py``.

* events/second replaying 200-shot 4-pin bar billiards frames;
* the web app's path: the cost of one more shot applied to ``load(dump(state))`` of a
  frame 10 shots long and of one 1,000 shots long (should be flat: ratio ~1);
* the baseline it avoids: a full replay of the 1,000 shots.
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

BB = get("bar_billiards_4pin")
HOLES = (10, 20, 20, 30, 30, 50, 50, 100, 200)


def realistic_events(seed: int, shots: int, bar: bool = True) -> list[dict[str, Any]]:
    """A deterministic frame of ``shots`` shots: pots, misses and the odd foul; the bar
    drops near the end when ``bar`` (the frame may end a little early)."""
    rng = random.Random(seed)
    state = BB.initial({"players": {"home": ["Ann"], "away": ["Bob"]}})
    events: list[dict[str, Any]] = []
    bar_at = shots - 25 if bar else -1
    while len(events) < shots and state.phase != "over":
        if len(events) == bar_at:
            ev: dict[str, Any] = {"type": "bar_down"}
        elif state.phase == "endgame":
            ball = "white" if state.red == "out" else "red"
            ev = {"type": "shot", "cushion": True}
            if rng.random() < 0.3:
                ev["pots"] = [{"ball": ball, "hole": rng.choice((100, 200))}]
        else:
            red, wt, wr = state.red, state.w_table, state.w_trough
            if wt == 0 and red != "table":
                k = 1 if red == "trough" else 2
                red = "table" if red == "trough" else red
                wt += min(k, wr)
            elif red == "trough":
                red = "table"
            elif wr:
                wt += 1
            on = ["red"] * (red == "table") + ["white"] * wt
            rng.shuffle(on)
            r = rng.random()
            k = 0 if r < 0.35 else 1 if r < 0.9 else 2
            ev = {"type": "shot"}
            if k:
                ev["pots"] = [{"ball": b, "hole": rng.choice(HOLES)} for b in on[:k]]
            if rng.random() < 0.05:
                ev["fouls"] = [rng.choice(("pin_50", "miss", "ball_in_baulk", "pin_200"))]
        state = BB.apply(state, ev)
        events.append(ev)
    return events


def long_events(seed: int, shots: int) -> list[dict[str, Any]]:
    """``shots`` shots of open play (no bar: a 1,000-shot frame never runs out of balls)."""
    return realistic_events(seed, shots, bar=False)


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best time of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def one_more_shot(events: list[dict[str, Any]]) -> Callable[[], object]:
    """The web app's path: the stored dump (as JSON text) -> load -> apply -> dump.

    The shot is the same for both frame lengths (a shot that pots nothing: always legal in
    open play), so only the length of the frame behind it differs."""
    setup = {"players": {"home": ["Ann"], "away": ["Bob"]}}
    stored = json.dumps(BB.dump(replay(BB, setup, events)))
    shot = {"type": "shot"}

    def step() -> object:
        state = BB.load(json.loads(stored))
        return json.dumps(BB.dump(BB.apply(state, shot)))

    return step


def main() -> None:
    """Run the benchmark and print the figures and a markdown table."""
    setup = {"players": {"home": ["Ann"], "away": ["Bob"]}}
    frames = [realistic_events(seed, 200) for seed in range(50)]
    n_events = sum(len(f) for f in frames)

    def replay_all() -> None:
        for f in frames:
            replay(BB, setup, f)

    t_replay = best_of(replay_all, repeat=5)
    eps = n_events / t_replay

    short = long_events(1, 10)
    long = long_events(1, 1000)
    if (len(short), len(long)) != (10, 1000):
        raise SystemExit("the generated frames are not 10 and 1,000 shots long")
    # interleaved rounds, best of each: the machine's load affects both alike
    step10, step1000 = one_more_shot(short), one_more_shot(long)
    t10 = t1000 = float("inf")
    for _ in range(15):
        t10 = min(t10, best_of(step10, repeat=1, number=1000))
        t1000 = min(t1000, best_of(step1000, repeat=1, number=1000))
    t_full = best_of(lambda: replay(BB, setup, long), repeat=7, number=3)

    print(f"python {platform.python_version()} on {platform.machine()}")
    print(
        f"replay: {len(frames)} frames of up to 200 shots, {n_events} events in {t_replay * 1e3:.1f} ms"
        f" -> {eps:,.0f} events/s ({1e6 / eps:.1f} us/event)"
    )
    print(f"one more shot via load(dump) + apply + dump, frame of   10 shots: {t10 * 1e6:.1f} us")
    print(f"one more shot via load(dump) + apply + dump, frame of 1000 shots: {t1000 * 1e6:.1f} us")
    print(f"ratio 1000/10: {t1000 / t10:.2f} (flat = ~1)")
    print(
        f"full replay of the 1000 shots (the baseline avoided): {t_full * 1e3:.2f} ms"
        f" = {t_full / t1000:,.0f}x one more shot"
    )
    print()
    print("| measure | figure |")
    print("|---|---|")
    print(f"| replay, 200-shot frames | {eps:,.0f} events/s ({1e6 / eps:.1f} µs/event) |")
    print(f"| one more shot, frame of 10 shots (load + apply + dump) | {t10 * 1e6:.1f} µs |")
    print(f"| one more shot, frame of 1,000 shots (load + apply + dump) | {t1000 * 1e6:.1f} µs |")
    print(f"| ratio 1,000 / 10 | {t1000 / t10:.2f} |")
    print(f"| full replay of 1,000 shots (avoided) | {t_full * 1e3:.2f} ms |")


if __name__ == "__main__":
    main()
