"""Ratings at scale: 2,000 players and 50,000 confirmed frames, recomputed from scratch.

    .venv/bin/python bench/bench_ratings.py [--repeat 5] [--seed 1] [--frames 50000]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench_ratings (created if
missing, then emptied: it is the benchmark's own database). Seeds one season of 10
divisions of 25 teams of 8 players (2,000 players) and enough weeks of matches of 6
singles and 3 doubles frames to reach `--frames`, every result confirmed, with
bulk_create (frames and their players written directly, like bench_tables.py), runs
ANALYZE, then times, medians of `--repeat` runs:

- reading the frames the ratings replay (`rated_frames`: the frames and their players,
  two queries), the floor any recompute pays;
- the full recompute (`ratings_recompute` from scratch, in a transaction: read, rate
  every frame with OpenSkill, delete and write every change and rating);
- a recompute of the last four weeks (what a correction near the end of a season costs);

and prints the full recompute next to the read as a ratio. Never fails on time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_bench_ratings")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

from bench.harness import machine_line, med  # noqa: E402  (notes the load at start)

T = TypeVar("T")

DIVISIONS, TEAMS, PLAYERS = 10, 25, 8
SINGLES, DOUBLES = 6, 3
GAME = "bar_billiards_4pin"


def ensure_database() -> None:
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(os.environ["DATABASE_URL"])
    if "postgresql" not in cfg["ENGINE"]:
        return
    admin = psycopg.connect(
        host=cfg["HOST"] or "127.0.0.1",
        port=cfg["PORT"] or 5432,
        user=cfg["USER"],
        password=cfg["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )
    with admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [cfg["NAME"]])
        if exists.fetchone() is None:
            admin.execute(f'CREATE DATABASE "{cfg["NAME"]}"')


CPU: dict[str, float] = {}


def timed(fn: Callable[[], T], repeat: int, name: str = "") -> tuple[float, list[float], T]:
    """Median wall time of `repeat` calls in ms (after one warm-up call), and the samples;
    the median CPU time of this process goes to CPU[name] (the database's is not in it)."""
    result = fn()
    samples, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    CPU[name] = statistics.median(cpu)
    return statistics.median(samples), samples, result


def circle(teams: list) -> list[list[tuple]]:
    """Single round robin by the circle method (a bye when the count is odd)."""
    ring = list(teams) + ([None] if len(teams) % 2 else [])
    rounds = []
    for r in range(len(ring) - 1):
        pairs = [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]
        rounds.append(
            [(a, b) if (r + i) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs) if a and b]
        )
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def generate(seed: int, frames_wanted: int) -> dict:
    from django.utils import timezone

    from frames.models import Frame, FramePlayer, Match
    from leagues.models import Division, Fixture, League, Player, Season, Team, Venue

    rng = random.Random(seed)
    now = timezone.now()
    start = date(2026, 1, 6)
    league = League.objects.create(name="Bench League", slug="bench-ratings", game_id=GAME)
    season = Season.objects.create(
        league=league, name="2026", slug="2026", status=Season.Status.RUNNING, start_date=start
    )
    divisions = Division.objects.bulk_create(
        [Division(season=season, name=f"Division {d + 1}", rank=d + 1) for d in range(DIVISIONS)]
    )
    venues = Venue.objects.bulk_create(
        [Venue(name=f"Ratings Pub {i}", tables=1) for i in range(DIVISIONS * TEAMS)]
    )
    teams = Team.objects.bulk_create(
        [
            Team(
                season=season, division=divisions[i // TEAMS], name=f"Team {i:03}", venue=venues[i]
            )
            for i in range(DIVISIONS * TEAMS)
        ]
    )
    players = Player.objects.bulk_create(
        [Player(name=f"Player {t.pk}-{p}") for t in teams for p in range(PLAYERS)]
    )
    roster = {t.pk: players[i * PLAYERS : (i + 1) * PLAYERS] for i, t in enumerate(teams)}
    # Rounds: a single round robin, then the return legs, until there are frames enough.
    per_division = [circle(teams[d * TEAMS : (d + 1) * TEAMS]) for d in range(DIVISIONS)]
    matches_wanted = -(-frames_wanted // (SINGLES + DOUBLES))
    fixtures: list[Fixture] = []
    week = 0
    while len(fixtures) < matches_wanted:
        leg, r = divmod(week, len(per_division[0]))
        for d, rounds in enumerate(per_division):
            for home, away in rounds[r]:
                if leg % 2:
                    home, away = away, home
                if leg > 1:
                    break  # two legs at most (one pair once each way)
                fixtures.append(
                    Fixture(
                        season=season,
                        division=divisions[d],
                        round=week + 1,
                        home=home,
                        away=away,
                        venue=venues[teams.index(home)],
                        date=start + timedelta(weeks=week),
                        result_confirmed_at=now,
                        status=Fixture.Status.PLAYED,
                    )
                )
                if len(fixtures) == matches_wanted:
                    break
            if len(fixtures) == matches_wanted:
                break
        week += 1
    frame_rows, slot_rows, results = [], [], []
    totals: list[tuple[Decimal, Decimal]] = []  # each fixture's frames, home and away
    for f in fixtures:
        hf = af = Decimal(0)
        frames = []
        for number in range(1, SINGLES + DOUBLES + 1):
            hs, as_ = rng.randrange(0, 3000, 10), rng.randrange(0, 3000, 10)
            shared = hs == as_
            winner = "" if shared else ("home" if hs > as_ else "away")
            hf += Decimal("0.5") if shared else Decimal(winner == "home")
            af += Decimal("0.5") if shared else Decimal(winner == "away")
            per_side = 1 if number <= SINGLES else 2
            frames.append(
                (
                    number,
                    hs,
                    as_,
                    shared,
                    winner,
                    rng.sample(roster[f.home.pk], per_side),
                    rng.sample(roster[f.away.pk], per_side),
                )
            )
        f.home_frames, f.away_frames = hf, af
        totals.append((hf, af))
        results.append(frames)
    Fixture.objects.bulk_create(fixtures, batch_size=2000)
    matches = Match.objects.bulk_create(
        [
            Match(
                fixture=f,
                status=Match.Status.CONFIRMED,
                game_id=GAME,
                confirmed_at=now,
                home_frames=hf,
                away_frames=af,
            )
            for f, (hf, af) in zip(fixtures, totals, strict=True)
        ],
        batch_size=2000,
    )
    for match, frames in zip(matches, results, strict=True):
        for number, hs, as_, shared, winner, home, away in frames:
            frame_rows.append(
                Frame(
                    match=match,
                    number=number,
                    order=number,
                    kind="singles" if number <= SINGLES else "doubles",
                    game_id=GAME,
                    status=Frame.Status.COMPLETE,
                    home_score=hs,
                    away_score=as_,
                    shared=shared,
                    winner=winner,
                    result_source="paper",
                )
            )
            slot_rows.append((home, away))
    frame_objs = Frame.objects.bulk_create(frame_rows, batch_size=5000)
    FramePlayer.objects.bulk_create(
        [
            FramePlayer(frame=frame, side=side, position=i, player=p)
            for frame, (home, away) in zip(frame_objs, slot_rows, strict=True)
            for side, side_players in (("home", home), ("away", away))
            for i, p in enumerate(side_players, start=1)
        ],
        batch_size=5000,
    )
    return {"players": len(players), "frames": len(frame_objs), "weeks": week}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--frames", type=int, default=50_000)
    args = parser.parse_args()
    args.repeat = max(5, args.repeat)  # figures are medians of at least five runs

    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from frames.models import Rating, RatingChange
    from frames.ratings.services import rated_frames, ratings_recompute

    call_command("migrate", verbosity=0, interactive=False)
    call_command("flush", verbosity=0, interactive=False)
    t0 = time.perf_counter()
    data = generate(args.seed, args.frames)
    seed_s = time.perf_counter() - t0
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    def read():
        return rated_frames(GAME)

    def full():
        with transaction.atomic():
            return ratings_recompute(game_id=GAME, since=None)

    last_weeks = date(2026, 1, 6) + timedelta(weeks=data["weeks"] - 4)

    def tail():
        with transaction.atomic():
            return ratings_recompute(game_id=GAME, since=last_weeks)

    read_ms, read_samples, frames = timed(read, args.repeat, "read")
    full_ms, full_samples, result = timed(full, args.repeat, "full")
    read_ms2, read_samples2, _ = timed(read, args.repeat, "read2")
    tail_ms, tail_samples, tail_result = timed(tail, args.repeat, "tail")
    read_med = statistics.median(read_samples + read_samples2)
    changes = RatingChange.objects.count()
    ratings = Rating.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    print(
        f"seeded {data['players']:,} players, {data['frames']:,} frames over {data['weeks']} weeks in {seed_s:.1f} s"
    )
    print(machine_line())
    print(
        f"database: {connection.vendor}; repeat {args.repeat}: medians, with the range "
        f"(lowest-highest): read {med(read_samples + read_samples2)} ms, full "
        f"{med(full_samples)} ms, last 4 weeks {med(tail_samples)} ms"
    )
    print(f"read the frames (rated_frames)       {read_med:9.1f} ms   ({len(frames):,} frames)")
    print(
        f"full recompute (ratings_recompute)   {full_ms:9.1f} ms   ({result.frames:,} frames, {changes:,} changes, {ratings:,} ratings)"
    )
    print(f"ratio full / read                    {full_ms / read_med:9.2f}")
    print(
        f"recompute of the last 4 weeks        {tail_ms:9.1f} ms   ({tail_result.frames:,} frames)"
    )
    print(
        f"this process's CPU (median): read {CPU['read']:.0f} ms, full {CPU['full']:.0f} ms, "
        f"last 4 weeks {CPU['tail']:.0f} ms (the rest of the wall time is the database "
        "and waiting for a core)"
    )
    print()
    print("| measure | median |")
    print("|---|---|")
    print(f"| read {len(frames):,} frames and their players | {read_med:.0f} ms |")
    print(
        f"| full recompute, {data['players']:,} players, {result.frames:,} frames | {full_ms:.0f} ms |"
    )
    print(f"| ratio full / read | {full_ms / read_med:.2f} |")
    print(
        f"| recompute from 4 weeks before the end ({tail_result.frames:,} frames) | {tail_ms:.0f} ms |"
    )
    print(
        f"| this process's CPU: read / full / last 4 weeks | {CPU['read']:.0f} / "
        f"{CPU['full']:.0f} / {CPU['tail']:.0f} ms |"
    )
    del read_ms, read_ms2


if __name__ == "__main__":
    main()
