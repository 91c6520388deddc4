"""Rankings at scale: one page of a county's ranking over 4,000 players.

    .venv/bin/python bench/bench_rankings.py [--repeat 5] [--players 4000] [--years 3]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench_rankings (created if
missing, then emptied: it is the benchmark's own database). Seeds `--players` players in
eight leagues (six of them the county's), each with a rated frame of bar billiards most
weeks for `--years` years (about 100 per player a year: the history a ranking reads grows
with the years, the window does not), with bulk_create, runs ANALYZE, then times, medians
of `--repeat` runs: the county's ranking's first page and its last (`rankings.ranking`:
its two queries), and the site-wide ranking's first page. Prints the plan of the page
query. Never fails on time.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_bench_rankings")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

from bench.bench_ratings import ensure_database, timed  # noqa: E402
from bench.harness import machine_line, med  # noqa: E402

GAME = "bar_billiards_4pin"
TODAY = date(2026, 6, 15)


def seed(players: int, years: int, rng: random.Random) -> int:
    from frames.models import Rating, RatingChange, Side
    from leagues.models import League, Organisation, Player

    leagues = [League.objects.create(name=f"League {i}", slug=f"league-{i}") for i in range(8)]
    county = Organisation.objects.create(name="County", slug="county")
    county.leagues.set(leagues[:6])
    people = Player.objects.bulk_create(
        [Player(name=f"Player {i}", private_name=i % 17 == 0) for i in range(players)]
    )
    weeks = 52 * years
    start = TODAY - timedelta(weeks=weeks)
    rows, ratings, frame = [], [], 0
    for player in people:
        league = rng.choice(leagues)
        mu, sigma, n = 25.0, 25 / 3, 0
        for week in range(weeks):
            if rng.random() < 0.15:
                continue
            frame += 1
            n += 1
            sigma = max(1.0, sigma * 0.98)
            mu += rng.gauss(0, 0.5)
            day = start + timedelta(weeks=week)
            rows.append(
                RatingChange(
                    player_id=player.pk,
                    frame_id=frame,
                    fixture_id=1,
                    league_id=league.pk,
                    game_id=GAME,
                    seq=week * 10_000 + player.pk % 10_000,
                    played_on=day,
                    side=Side.HOME,
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                    delta=0.0,
                    expected=0.5,
                    frames=n,
                )
            )
        ratings.append(
            Rating(
                player_id=player.pk,
                game_id=GAME,
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
                frames=n,
                last_played_on=TODAY,
            )
        )
        if len(rows) > 50_000:
            RatingChange.objects.bulk_create(rows)
            rows = []
    RatingChange.objects.bulk_create(rows)
    Rating.objects.bulk_create(ratings)
    return RatingChange.objects.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--players", type=int, default=4000)
    parser.add_argument("--years", type=int, default=3)
    args = parser.parse_args()
    args.repeat = max(5, args.repeat)

    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from frames.ratings import rankings
    from leagues.models import DEFAULT_RANKING_MIN_FRAMES, Organisation

    call_command("migrate", verbosity=0, interactive=False)
    call_command("flush", verbosity=0, interactive=False)
    t0 = time.perf_counter()
    changes = seed(args.players, args.years, random.Random(1))
    seed_s = time.perf_counter() - t0
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as autovacuum would: index-only scans possible
    county = Organisation.objects.get(slug="county")
    league_ids = list(county.leagues.values_list("pk", flat=True))

    def page(offset: int, leagues):
        return lambda: rankings.ranking(
            GAME,
            league_ids=leagues,
            min_frames=DEFAULT_RANKING_MIN_FRAMES,
            today=TODAY,
            offset=offset,
        )

    first_ms, first, ranking = timed(page(0, league_ids), args.repeat, "first")
    last_offset = (ranking.pages - 1) * rankings.PAGE_SIZE
    last_ms, last, _ = timed(page(last_offset, league_ids), args.repeat, "last")
    site_ms, site, everyone = timed(page(0, None), args.repeat, "site")

    print(f"seeded {args.players:,} players, {changes:,} rating changes in {seed_s:.1f} s")
    print(machine_line())
    print(f"database: {connection.vendor}; repeat {args.repeat}: medians (lowest-highest)")
    print(
        f"county ranking, first page            {first_ms:8.1f} ms  {med(first)}  "
        f"({ranking.ranked:,} ranked, {ranking.unranked:,} not)"
    )
    print(f"county ranking, last page (page {ranking.pages})   {last_ms:8.1f} ms  {med(last)}")
    print(
        f"every league's ranking, first page    {site_ms:8.1f} ms  {med(site)}  "
        f"({everyone.ranked:,} ranked)"
    )
    if connection.vendor == "postgresql":
        since, then = rankings.months_before(TODAY, 12), rankings.months_before(TODAY, 1)
        leagues, params = rankings._leagues_sql(league_ids)
        counted = rankings._COUNTED.format(leagues=leagues)
        sql = "EXPLAIN (ANALYZE, BUFFERS) " + rankings._PAGE.format(counted=counted)
        with connection.cursor() as cursor:
            cursor.execute(
                sql,
                [since, then, GAME, rankings.months_before(then, 12), TODAY, *params]
                + [GAME, 10, GAME, then, 10, 10, 50, 0],
            )
            print("\n".join(row[0] for row in cursor.fetchall()))


if __name__ == "__main__":
    main()
