"""bench/league_night.py --runs: each figure's median and spread over the runs, and the
totals that must stay zero summed over all of them."""

from __future__ import annotations

from bench import league_night


def _run(shot_p95: float, app: float, speed: float, *, errors: int = 0, lost: int = 0) -> dict:
    return {
        "shots_per_s": 132.0,
        "polls_per_s": 400.0,
        "shot_p50": 6.0,
        "shot_p95": shot_p95,
        "shot_p99": 2 * shot_p95,
        "poll_p50": 0.7,
        "poll_p95": 8.0,
        "poll_p99": 20.0,
        "whole_run": {"shots": 1000},
        "errors": errors,
        "unfinished": 0,
        "lost_or_doubled": lost,
        "cpu_main": {"app": app, "proxy": 0.06, "db": 0.1, "pg": 0.1, "generator": 0.1},
        "machine_speed_s": [speed, speed + 0.01],
    }


def test_summary_gives_each_figures_median_and_range():
    runs = [_run(17.0, 0.52, 0.32), _run(13.3, 0.47, 0.29), _run(19.3, 0.57, 0.34)]
    summary = league_night.summarise(runs)
    assert "| shot p95 (ms) | 17.0 (13.3–19.3) |" in summary
    assert "| app CPU (cores) | 0.52 (0.47–0.57) |" in summary
    assert "| machine speed before (s) | 0.32 (0.29–0.34) |" in summary
    assert "lost or doubled: 0 of 3000 acknowledged shots" in summary


def test_summary_adds_up_errors_and_lost_shots_of_every_run():
    runs = [_run(17.0, 0.5, 0.3, errors=2), _run(18.0, 0.5, 0.3, lost=1)]
    summary = league_night.summarise(runs)
    assert "Errors in all: 2;" in summary
    assert "lost or doubled: 1 of 2000" in summary


def test_each_repeated_run_gets_the_arguments_but_runs(tmp_path):
    argv = ["--nginx", "--runs", "5", "--seconds", "60", "--runs=3"]
    command = league_night.one_run(argv, tmp_path / "run.json")
    args = league_night.parser().parse_args(command[2:])
    assert command[1] == league_night.__file__
    assert args.runs == 1  # each run once, not five times again
    assert args.nginx and args.seconds == 60
    assert args.json == str(tmp_path / "run.json")
