"""bench/bench_rules.py: each game's events/s with its ratio to the reference loop timed in
the same run (before and after the games), a verdict per game against the target set in
events per reference loop, and a last line naming the slowest game. Not timed: the figures
are whatever the machine gives; the format and the verdict's arithmetic are checked."""

from __future__ import annotations

import re

from bench import bench_rules, harness

GAMES = ("bar_billiards_4pin", "sans_egal")


def test_quick_run_on_two_games_prints_the_reference_and_a_ratio_per_game(capsys):
    assert bench_rules.main(["--quick", "--games", *GAMES]) == 0
    lines = capsys.readouterr().out.splitlines()

    reference = next(line for line in lines if line.startswith("reference loop"))
    found = re.search(
        r"before (\d+\.\d+) s, after (\d+\.\d+) s, spread (\d+)%; ratios use (\d+\.\d+) s",
        reference,
    )
    assert found, reference
    before, after, _, used = found.groups()
    assert float(used) == min(float(before), float(after)) > 0
    assert "Target 32,000 events per reference loop" in reference

    header = next(line for line in lines if line.startswith("| game |"))
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    assert columns[3:7] == ["events/s", "µs/event", "ratio (events/ref)", "target"]
    rows = {
        cells[0]: cells
        for line in lines
        if line.startswith("| ") and not line.startswith("| game")
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert set(rows) == set(GAMES)
    for cells in rows.values():
        eps = float(cells[3].replace(",", ""))
        game_ratio = float(cells[5].replace(",", ""))
        # the ratio is the events/s times the reference loop's seconds (both as printed)
        assert abs(game_ratio - eps * float(used)) <= 0.01 * game_ratio + 1
        assert cells[6] == ("meets" if game_ratio >= 32_000 else "MISSES")

    slowest = min(rows.values(), key=lambda cells: float(cells[3].replace(",", "")))
    assert lines[-1].startswith(f"slowest: {slowest[0]} at {slowest[3]} events/s, ratio ")
    assert lines[-1].endswith(": yes" if slowest[6] == "meets" else ": no")


def _row(game: str, eps: float) -> dict:
    return {"id": game, "games": 1, "events": 1000, "eps": eps, "t_short": None}


def test_the_same_events_per_second_meets_the_target_on_a_slow_day_and_not_on_a_fast_one():
    rows = [_row("fast_game", 200_000), _row("slow_game", 80_000)]
    # 80,000 events/s: under 100,000, but the reference loop took 0.45 s today, not 0.32 s
    slow_day = bench_rules.verdict_line(rows, 0.45)
    assert slow_day == (
        "slowest: slow_game at 80,000 events/s, ratio 36,000 events per reference loop; "
        "every game meets the target (32,000): yes"
    )
    assert "| slow_game | 1 | 1,000 | 80,000 | 12.5 | 36,000 | meets |" in "\n".join(
        bench_rules.table(rows, 0.45)
    )
    fast_day = bench_rules.verdict_line(rows, 0.30)
    assert fast_day.endswith(
        "ratio 24,000 events per reference loop; every game meets the target (32,000): no"
    )
    assert "| slow_game | 1 | 1,000 | 80,000 | 12.5 | 24,000 | MISSES |" in "\n".join(
        bench_rules.table(rows, 0.30)
    )
    # on the calibration day the ratio target is the 100,000 events/s target
    assert bench_rules.ratio(100_000, bench_rules.CALIBRATION_REFERENCE_S) == 32_000


def test_the_reference_loop_is_the_league_night_benchs_own():
    from bench import league_night

    assert bench_rules.machine_speed is harness.machine_speed
    assert league_night.machine_speed is harness.machine_speed
