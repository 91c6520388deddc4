"""Benchmark of the rules engine, every registered game (prints figures; never fails on time).

Run from the repository root: ``.venv/bin/python bench/bench_rules.py [--quick]
[--games ID ...]``. Games registered by new family modules appear on their own.

For each game:

* **replay**: events/second replaying seeded, plausible, legal games
  (:func:`rules.simulate.simulate_game`, several seeds, at least 3,000 events in all;
  600 with ``--quick``);
* **one more event**: the web app's path, the stored dump as JSON text -> ``load`` ->
  ``apply`` -> ``dump`` -> JSON, after 10 events and after 1,000 events of one long game
  (should be flat: ratio ~1). The long game is played by the family's simulator, which
  is asked again whenever its event would end the game, so games that usually end
  sooner still reach 1,000 events; a game that cannot is measured at the furthest event
  reached, marked ``*``. The event applied is the same at both lengths (one legal at
  both), or, if the simulator offers none, the game's own next events (marked ``~``);
* **full replay**: the cost of replaying those 1,000 events from the start (what the
  stored dump avoids).

Times are CPU time of this process (``time.process_time``), best of several runs: the
development machine is shared, and CPU time is the figure least disturbed by other
work.

**The target, as a ratio.** The same machine type runs this pure Python faster or slower
from day to day, so a figure in events/s alone reads differently on a fast and a slow
day. The bench therefore times the reference loop the league-night bench prints as the
"machine speed" (:func:`bench.harness.machine_speed`: 10 million additions in Python;
one definition, imported), before the games and after them (best of 3 each, 1 with
``--quick``), prints both and their spread, and gives each game's **ratio**: its
events/s times the reference loop's seconds (the faster of the two), i.e. the events
the engine replays in the time the reference loop takes. The verdict is on that ratio.

Calibration (once): the target was set at 100,000 events/s on one core of the project's
2-core machine (AMD EPYC); the reference loop's time that goes with it is the first one
recorded, on 2026-11-27: **0.32 s**, the median of the five league-night runs on the quiet
machine (0.29-0.34 s; README, "Performance"). So the target is 100,000 events/s × 0.32 s
= **32,000 events per reference loop**: 100,000 events/s on a 0.32 s day, 70,000 on a
0.46 s day, 160,000 on a 0.20 s day. Each game's row says whether it meets it; the last
line names the slowest game and whether every game does. The bench never fails on time
(its exit status is 0 whatever the figures).

The ratio takes out the day's machine speed, not other work sharing the cores: with the
load average at 9-13 on 2026-11-28 the loop ran at 1.3-2x its calibration time while the
engine ran 2-3.6x slower than on a quieter day, and most games missed. Read the verdict
from a quiet machine: the bench prints the load average before and after the games.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import machine_line, machine_speed, spread  # noqa: E402
from rules import Game, RuleError, Timeline, UnknownGame, games, get, replay  # noqa: E402
from rules.simulate import SIMULATORS, simulate_game  # noqa: E402

#: The replay speed every game should reach on one core, on the calibration day.
TARGET_EPS = 100_000
#: The reference loop's seconds on the calibration day (2026-11-27, the median of five
#: league-night runs on the quiet machine, 0.29-0.34 s).
CALIBRATION_REFERENCE_S = 0.32
#: The target as a ratio: events replayed in the time the reference loop takes.
TARGET_RATIO = TARGET_EPS * CALIBRATION_REFERENCE_S
#: The two frame lengths the one-more-event cost is compared at.
SHORT, LONG = 10, 1000

clock = time.process_time


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best time of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - t0) / number)
    return best


def reference(repeat: int) -> float:
    """The reference loop's seconds of CPU here and now, best of ``repeat`` runs."""
    return min(machine_speed() for _ in range(repeat))


def ratio(eps: float, reference_s: float) -> float:
    """Events/s as events per reference loop (what the target is set in)."""
    return eps * reference_s


def league_setup(game: Game[Any]) -> dict[str, Any] | None:
    """A league frame's setup (Ann for home, Bob for away), or None (the game's default)
    when the game cannot be set up that way."""
    try:
        return game.setup_for({"home": ["Ann"], "away": ["Bob"]})
    except (RuleError, ValueError, TypeError):
        pass
    if any(option["required"] for option in game.describe()["setup"]):
        # what only the table can tell (the cards dealt): the family's generator deals it
        family = importlib.import_module(f"rules.simulate.{game.family}")
        setup, _ = family.simulate(game, random.Random(0), 10)
        return dict(setup)
    return None


def replay_games(
    game: Game[Any], setup: Mapping[str, Any] | None, min_events: int
) -> list[list[dict[str, Any]]]:
    """Seeded simulated games (seed 0, 1, ...) until they hold ``min_events`` events."""
    logs: list[list[dict[str, Any]]] = []
    total = 0
    seed = 0
    while total < min_events and seed < 1000:
        events = simulate_game(game, setup, seed=seed, max_events=3000)
        seed += 1
        if events:
            logs.append(events)
            total += len(events)
    return logs


def long_game(
    game: Game[Any], setup: Mapping[str, Any] | None, length: int, seed: int = 7
) -> tuple[list[dict[str, Any]], Timeline]:
    """Up to ``length`` legal events of one game, played by the family's simulator; an
    event that would end the game (or is refused) is asked for again, up to 200 times in a
    row. Returns the events and the timeline after them."""
    make = SIMULATORS[game.family]
    rng = random.Random(seed)
    timeline = Timeline(game, dict(setup or {}))
    events: list[dict[str, Any]] = []
    misses = 0
    while len(events) < length and misses < 200:
        event = make(game, timeline.state, rng, len(events))
        try:
            timeline.push(event)
        except RuleError:
            misses += 1
            continue
        if game.outcome(timeline.state).over:
            timeline.undo()
            misses += 1
            continue
        misses = 0
        events.append(event)
    return events, timeline


def same_event(
    game: Game[Any], states: Sequence[Any], rng: random.Random, state_for_make: Any, n: int
) -> dict[str, Any] | None:
    """An event the simulator offers that every state in ``states`` accepts, or None."""
    make = SIMULATORS[game.family]
    for _ in range(200):
        event = make(game, state_for_make, rng, n)
        try:
            for state in states:
                game.apply(state, event)
        except RuleError:
            continue
        return event
    return None


def one_more_event(game: Game[Any], state: Any, event: Mapping[str, Any]) -> Callable[[], object]:
    """The web app's path for one more event on ``state``: the stored dump (JSON text)
    -> load -> apply -> dump -> JSON text."""
    stored = json.dumps(game.dump(state))

    def step() -> object:
        return json.dumps(game.dump(game.apply(game.load(json.loads(stored)), event)))

    return step


def bench_game(game: Game[Any], quick: bool) -> dict[str, Any]:
    """The figures for one game (see the module doc)."""
    setup = league_setup(game)
    logs = replay_games(game, setup, 600 if quick else 3000)
    n_events = sum(len(log) for log in logs)

    def replay_all() -> None:
        for log in logs:
            replay(game, setup, log)

    t_replay = best_of(replay_all, repeat=2 if quick else 5)
    row: dict[str, Any] = {
        "id": game.id,
        "games": len(logs),
        "events": n_events,
        "eps": n_events / t_replay if t_replay > 0 else float("inf"),
        "t_short": None,
    }
    events, _ = long_game(game, setup, LONG + 1)
    if len(events) < 2:  # nothing to measure one more event on
        return row
    far = min(LONG, len(events) - 1)
    short = min(SHORT, far)
    state_short = replay(game, setup, events[:short])
    state_far = replay(game, setup, events[:far])
    event = same_event(game, (state_short, state_far), random.Random(1), state_far, far)
    if event is not None:
        step_short = one_more_event(game, state_short, event)
        step_far = one_more_event(game, state_far, event)
        same = True
    else:
        step_short = one_more_event(game, state_short, events[short])
        step_far = one_more_event(game, state_far, events[far])
        same = False
    rounds, number = (3, 200) if quick else (10, 500)
    t_short = t_far = float("inf")
    for _ in range(rounds):  # interleaved, best of each: load affects both alike
        t_short = min(t_short, best_of(step_short, repeat=1, number=number))
        t_far = min(t_far, best_of(step_far, repeat=1, number=number))
    t_full = best_of(lambda: replay(game, setup, events[:far]), repeat=3 if quick else 5)
    row.update(far=far, same=same, t_short=t_short, t_far=t_far, t_full=t_full)
    return row


def table(rows: Sequence[Mapping[str, Any]], reference_s: float) -> list[str]:
    """The figures as a markdown table; the ratio is against ``reference_s``."""
    lines = [
        "| game | games | events | events/s | µs/event | ratio (events/ref) | target | "
        f"one more @{SHORT} (µs) | one more @{LONG:,} (µs) | ratio {LONG:,}/{SHORT} | "
        f"full replay @{LONG:,} (ms) |",
        "|---|--:|--:|--:|--:|--:|:-:|--:|--:|--:|--:|",
    ]
    for r in rows:
        r_ratio = ratio(r["eps"], reference_s)
        head = (
            f"| {r['id']} | {r['games']} | {r['events']:,} | {r['eps']:,.0f} | "
            f"{1e6 / r['eps']:.1f} | {r_ratio:,.0f} | "
            f"{'meets' if r_ratio >= TARGET_RATIO else 'MISSES'} |"
        )
        if r["t_short"] is None:
            lines.append(f"{head} n/a | n/a | n/a | n/a |")
            continue
        mark = ("" if r["far"] == LONG else "*") + ("" if r["same"] else "~")
        far = f"{r['t_far'] * 1e6:.1f}" + (f" (@{r['far']}{mark})" if mark else "")
        lines.append(
            f"{head} {r['t_short'] * 1e6:.1f} | {far} | {r['t_far'] / r['t_short']:.2f} | "
            f"{r['t_full'] * 1e3:.2f} |"
        )
    return lines


def reference_line(before: float, after: float) -> str:
    """The reference loop before and after the games, their spread, the one the ratios
    use, and what the target comes to in events/s today."""
    used = min(before, after)
    return (
        f"reference loop (10 million additions in Python, bench.harness.machine_speed; "
        f"lower is faster): before {before:.3f} s, after {after:.3f} s, spread "
        f"{spread([before, after]):.0%}; ratios use {used:.3f} s (the faster). "
        f"Target {TARGET_RATIO:,.0f} events per reference loop ({TARGET_EPS:,} events/s "
        f"when the loop took {CALIBRATION_REFERENCE_S:.2f} s, 2026-11-27): "
        f"{TARGET_RATIO / used:,.0f} events/s today"
    )


def verdict_line(rows: Sequence[Mapping[str, Any]], reference_s: float) -> str:
    """The last line: the slowest game, its ratio, and whether every game meets the target."""
    slowest = min(rows, key=lambda r: r["eps"])
    slowest_ratio = ratio(slowest["eps"], reference_s)
    verdict = "yes" if slowest_ratio >= TARGET_RATIO else "no"
    return (
        f"slowest: {slowest['id']} at {slowest['eps']:,.0f} events/s, ratio "
        f"{slowest_ratio:,.0f} events per reference loop; every game meets the target "
        f"({TARGET_RATIO:,.0f}): {verdict}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table and the verdict line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", metavar="ID", help="only these games (id or alias)")
    parser.add_argument("--quick", action="store_true", help="fewer events and runs")
    args = parser.parse_args(argv)
    try:
        chosen = [get(name) for name in args.games] if args.games else games()
    except UnknownGame as err:
        parser.error(err.message)
    print(f"{machine_line()}; CPU time, best of runs")
    reference_runs = 1 if args.quick else 3
    before = reference(reference_runs)
    rows = []
    for game in chosen:
        if game.family not in SIMULATORS:
            print(f"{game.id}: no simulator for the {game.family!r} family, skipped")
            continue
        rows.append(bench_game(game, args.quick))
    after = reference(reference_runs)
    print("load average after the games: " + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(reference_line(before, after))
    if not rows:
        print("no game measured")
        return 0
    reference_s = min(before, after)
    print()
    print("\n".join(table(rows, reference_s)))
    measured = [r for r in rows if r["t_short"] is not None]
    if any(r["far"] != LONG for r in measured):
        print(f"\n* the game cannot be kept going to {LONG:,} events: measured at the event shown")
    if not all(r["same"] for r in measured):
        print("~ no one event legal at both lengths: each length's own next event")
    print()
    print(verdict_line(rows, reference_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
