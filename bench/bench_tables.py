"""League tables at scale: a generated season of 20 divisions of 12 teams.

    .venv/bin/python bench/bench_tables.py [--repeat 30] [--seed 1]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench (created if
missing, then emptied: it is the benchmark's own database). Generates the season with
bulk_create (2,640 matches, 23,760 frames with their players and statistics lines), then
times, in the same run:

- one division's table (`leagues.standings.division_table`) against a hand-written SQL
  aggregate over the same rows (UNION ALL of both sides, GROUP BY team), as a ratio;
- the whole season's tables in one call, and the public and secretary pages;
- publishing the whole season (the job run in-process: snapshots, CSV, printable page,
  one email per captain and subscriber);
- leaderboards over the statistics lines, and recording one frame's statistics from a
  simulated shot log.

Prints figures and a markdown table; never fails on time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")  # eager, locmem mail

DIVISIONS, TEAMS, PLAYERS = 20, 12, 8
SINGLES, DOUBLES = 6, 3

HAND_WRITTEN_SQL = """
WITH sides AS (
    SELECT home_id AS team_id, home_frames AS f, away_frames AS a,
           home_score AS sf, away_score AS sa
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
    UNION ALL
    SELECT away_id, away_frames, home_frames, away_score, home_score
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
)
SELECT t.id, t.name, COUNT(s.team_id),
       COUNT(s.team_id) FILTER (WHERE s.f > s.a), COUNT(s.team_id) FILTER (WHERE s.f = s.a),
       COUNT(s.team_id) FILTER (WHERE s.f < s.a),
       COALESCE(SUM(s.f), 0), COALESCE(SUM(s.a), 0), COALESCE(SUM(s.sf), 0),
       COALESCE(SUM(s.sa), 0), COALESCE(SUM(s.f), 0) AS pts
  FROM leagues_team t LEFT JOIN sides s ON s.team_id = t.id
 WHERE t.division_id = %(d)s
 GROUP BY t.id, t.name
 ORDER BY pts DESC, 7 DESC, 9 DESC, t.name
"""


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


def queries(n: int) -> str:
    return f"{n} quer{'y' if n == 1 else 'ies'}"


def timed(fn, repeat: int) -> tuple[float, object]:
    """Median wall time of `repeat` calls, in ms (after one warm-up call)."""
    result = fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), result


def round_robin(teams: list) -> list[list[tuple]]:
    """Double round robin by the circle method: rounds of (home, away) pairs."""
    ring = list(teams)
    rounds = []
    for r in range(len(ring) - 1):
        pairs = [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]
        rounds.append([(a, b) if (r + i) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds + [[(b, a) for a, b in rnd] for rnd in rounds]


def generate(seed: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from frames.models import Frame, FramePlayer, Match
    from leagues.models import (
        Division,
        Fixture,
        League,
        LeagueRole,
        Player,
        PlayerFrameStat,
        Registration,
        Season,
        Subscription,
        Team,
        Venue,
    )

    rng = random.Random(seed)
    user_model = get_user_model()
    now = timezone.now()
    start = date(2026, 4, 7)
    league = League.objects.create(name="Bench League", slug="bench")
    season = Season.objects.create(
        league=league, name="2026", slug="2026", status=Season.Status.RUNNING, start_date=start
    )
    divisions = Division.objects.bulk_create(
        [Division(season=season, name=f"Division {d + 1}", rank=d + 1) for d in range(DIVISIONS)]
    )
    venues = Venue.objects.bulk_create(
        [Venue(name=f"Bench Pub {i}", tables=2) for i in range(DIVISIONS * TEAMS)]
    )
    captains = user_model.objects.bulk_create(
        [
            user_model(username=f"captain{i}", email=f"captain{i}@example.org", password="!")
            for i in range(DIVISIONS * TEAMS)
        ]
    )
    teams = Team.objects.bulk_create(
        [
            Team(
                season=season,
                division=divisions[i // TEAMS],
                name=f"Team {i:03}",
                venue=venues[i],
                captain=captains[i],
            )
            for i in range(DIVISIONS * TEAMS)
        ]
    )
    players = Player.objects.bulk_create(
        [Player(name=f"Player {t.pk}-{p}") for t in teams for p in range(PLAYERS)]
    )
    roster = {t.pk: players[i * PLAYERS : (i + 1) * PLAYERS] for i, t in enumerate(teams)}
    Registration.objects.bulk_create(
        [
            Registration(season=season, team=t, player=p, first_played_at=now)
            for t in teams
            for p in roster[t.pk]
        ]
    )
    Subscription.objects.bulk_create(
        [
            Subscription(league=league, email=f"fan{i}@example.org", created_at=now)
            for i in range(60)
        ]
    )

    fixtures = []
    for d, division in enumerate(divisions):
        members = teams[d * TEAMS : (d + 1) * TEAMS]
        for r, pairs in enumerate(round_robin(members), start=1):
            for home, away in pairs:
                fixtures.append(
                    Fixture(
                        season=season,
                        division=division,
                        round=r,
                        home=home,
                        away=away,
                        venue=home.venue_id and venues[teams.index(home)],
                        date=start + timedelta(weeks=r - 1),
                    )
                )
    # Every frame of every match: scores, the winner (a level frame is shared).
    frame_rows = []
    for f in fixtures:
        hf = af = Decimal(0)
        hs = as_ = 0
        for number in range(1, SINGLES + DOUBLES + 1):
            h = rng.randrange(0, 3000, 10)
            a = h if rng.random() < 0.03 else rng.randrange(0, 3000, 10)
            hs, as_ = hs + h, as_ + a
            if h == a:
                hf, af = hf + Decimal("0.5"), af + Decimal("0.5")
            elif h > a:
                hf += 1
            else:
                af += 1
            frame_rows.append((f, number, h, a))
        f.home_frames, f.away_frames, f.home_score, f.away_score = hf, af, hs, as_
        f.status = Fixture.Status.PLAYED
        f.result_confirmed_at = now - timedelta(days=1)
    fixtures = Fixture.objects.bulk_create(fixtures)
    matches = Match.objects.bulk_create(
        [
            Match(
                fixture=f,
                status=Match.Status.CONFIRMED,
                home_frames=f.home_frames,
                away_frames=f.away_frames,
                home_score=f.home_score,
                away_score=f.away_score,
                confirmed_at=f.result_confirmed_at,
            )
            for f in fixtures
        ]
    )
    match_of = {m.fixture_id: m for m in matches}
    frames = Frame.objects.bulk_create(
        [
            Frame(
                match=match_of[f.pk],
                number=n,
                order=n,
                kind="singles" if n <= SINGLES else "doubles",
                game_id="bar_billiards_4pin",
                status=Frame.Status.COMPLETE,
                home_score=h,
                away_score=a,
                winner="" if h == a else ("home" if h > a else "away"),
                shared=h == a,
                result_source="pad",
                completed_at=now,
            )
            for f, n, h, a in frame_rows
        ],
        batch_size=2000,
    )
    slots, lines = [], []
    for frame, (f, n, h, a) in zip(frames, frame_rows, strict=True):
        for side, team, mine, theirs in (("home", f.home, h, a), ("away", f.away, a, h)):
            squad = roster[team.pk]
            chosen = [squad[n - 1]] if n <= SINGLES else squad[2 * (n - 7) : 2 * (n - 7) + 2]
            for position, player in enumerate(chosen, start=1):
                slots.append(FramePlayer(frame=frame, side=side, position=position, player=player))
                lines.append(
                    PlayerFrameStat(
                        season=season,
                        division_id=f.division_id,
                        fixture=f,
                        frame_number=n,
                        player=player,
                        team=team,
                        side=side,
                        doubles=n > SINGLES,
                        played_on=f.date,
                        won=mine > theirs,
                        shared=mine == theirs,
                        score=mine,
                        opponent_score=theirs,
                        has_shots=True,
                        game_id=season.game_id,
                        values={
                            "high_break": rng.randrange(0, max(mine, 10) + 1, 10),
                            "breaks": rng.randrange(1, 12),
                            "points_banked": mine,
                            "pots_200": rng.randrange(0, 4),
                            "reds_200": int(rng.random() < 0.1),
                            "black_pin_wipeouts": int(rng.random() < 0.05),
                            "points_wiped": 0,
                        },
                        source_seq=1,
                    )
                )
    FramePlayer.objects.bulk_create(slots, batch_size=5000)
    PlayerFrameStat.objects.bulk_create(lines, batch_size=5000)
    secretary = user_model.objects.create(
        username="secretary", email="sec@example.org", password="!"
    )
    LeagueRole.objects.create(league=season.league, user=secretary, role=LeagueRole.Role.SECRETARY)
    return {
        "season": season,
        "divisions": divisions,
        "fixtures": len(fixtures),
        "frames": len(frames),
        "lines": len(lines),
        "teams": len(teams),
        "subscribers": 60,
        "secretary": secretary,
    }


def stats_sample(season, rng: random.Random, count: int = 20) -> float:
    """Median ms to record one frame's statistics from a simulated shot log."""
    from frames.models import Frame, FrameEvent
    from frames.stats import record
    from rules.simulate import simulate_frame

    frames = list(Frame.objects.filter(match__fixture__season=season, kind="singles")[:count])
    events = []
    for frame in frames:
        top = 0
        for seq, payload in enumerate(simulate_frame(seed=rng.randrange(10**6)), start=1):
            events.append(
                FrameEvent(
                    frame=frame,
                    seq=seq,
                    event_id=uuid.uuid4(),
                    payload=payload,
                    top_before=top,
                    top_after=seq,
                    created_at=frame.completed_at,
                )
            )
            top = seq
        frame.last_seq = frame.top_seq = top
    FrameEvent.objects.bulk_create(events, batch_size=5000)
    Frame.objects.bulk_update(frames, ["last_seq", "top_seq"])
    samples = []
    for frame in frames:
        start = time.perf_counter()
        record.frame_stats_record(frame_id=frame.pk)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), len(events) / len(frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ensure_database()
    import django

    django.setup()
    from django.core import mail
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from frames.stats import selectors as stats_selectors
    from leagues import publishing, standings
    from leagues.models import Division, Publication

    setup_test_environment()  # locmem email outbox, testserver host
    call_command("migrate", verbosity=0, interactive=False)
    call_command("flush", verbosity=0, interactive=False)
    t0 = time.perf_counter()
    data = generate(args.seed)
    generate_s = time.perf_counter() - t0
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    season = data["season"]
    division = Division.objects.select_related("season").get(pk=data["divisions"][9].pk)
    rows_in_division = division.fixtures.count()

    def build():
        return standings.division_table(division)

    def hand_written():
        with connection.cursor() as cursor:
            cursor.execute(HAND_WRITTEN_SQL, {"d": division.pk})
            return cursor.fetchall()

    # Interleave the two so machine noise hits both alike.
    table_ms, table = timed(build, args.repeat)
    sql_ms, sql_rows = timed(hand_written, args.repeat)
    table_ms2, _ = timed(build, args.repeat)
    sql_ms2, _ = timed(hand_written, args.repeat)
    table_ms, sql_ms = min(table_ms, table_ms2), min(sql_ms, sql_ms2)
    with CaptureQueriesContext(connection) as ctx:
        build()
    table_queries = len(ctx.captured_queries)
    assert [r.team_id for r in table.rows][:3], "empty table"
    totals = {r[0]: (r[2], r[6], r[8]) for r in sql_rows}
    agree = all(totals[r.team_id] == (r.played, r.frames_for, r.score_for) for r in table.rows)

    season_ms, _ = timed(lambda: standings.tables(season), max(3, args.repeat // 5))
    with CaptureQueriesContext(connection) as ctx:
        standings.tables(season)
    season_queries = len(ctx.captured_queries)

    # Publish the whole season, in-process (as with no broker configured).
    mail.outbox = []
    start = time.perf_counter()
    with transaction.atomic():
        publication = publishing.publication_request(season=season, actor=data["secretary"])
    publish_s = time.perf_counter() - start
    publication = Publication.objects.get(pk=publication.pk)

    client = Client()
    page_url = division.get_absolute_url()
    page_ms, _ = timed(lambda: client.get(page_url), max(5, args.repeat // 2))
    with CaptureQueriesContext(connection) as ctx:
        client.get(page_url)
    page_queries = len(ctx.captured_queries)
    secretary = Client()
    secretary.force_login(data["secretary"])
    manage_url = reverse("season-tables", args=[season.league.slug, season.pk])
    manage_ms, _ = timed(lambda: secretary.get(manage_url), 3)
    with CaptureQueriesContext(connection) as ctx:
        secretary.get(manage_url)
    manage_queries = len(ctx.captured_queries)

    board_div_ms, board = timed(lambda: stats_selectors.leaderboard(division=division), args.repeat)
    board_season_ms, board_all = timed(lambda: stats_selectors.leaderboard(season=season), 5)
    record_ms, events_per_frame = stats_sample(season, random.Random(args.seed))

    ratio = table_ms / sql_ms if sql_ms else float("nan")
    print(
        f"Generated in {generate_s:.1f} s: {len(data['divisions'])} divisions × {TEAMS} teams, "
        f"{data['fixtures']:,} matches, {data['frames']:,} frames, "
        f"{data['lines']:,} player-frame lines"
    )
    print(
        f"One division's table ({rows_in_division} fixtures): {table_ms:.2f} ms, "
        f"{queries(table_queries)}; hand-written SQL {sql_ms:.2f} ms; ratio {ratio:.2f}×; "
        f"same totals: {agree}"
    )
    print(f"Whole season's tables (20 divisions): {season_ms:.1f} ms, {queries(season_queries)}")
    print(
        f"Publish the whole season: {publish_s:.2f} s, state {publication.state}, "
        f"{publication.snapshots.count()} snapshots, {len(mail.outbox)} emails, "
        f"CSV {len(publication.csv):,} bytes"
    )
    print(
        f"Public division page: {page_ms:.1f} ms, {queries(page_queries)}; secretary "
        f"tables page (20 live tables): {manage_ms:.1f} ms, {queries(manage_queries)}"
    )
    print(
        f"Leaderboard: division {board_div_ms:.1f} ms ({len(board)} players), season "
        f"{board_season_ms:.1f} ms ({len(board_all)} players); one frame's statistics "
        f"from its log ({events_per_frame:.0f} events): {record_ms:.1f} ms"
    )
    print()
    print("| Measure (20 divisions × 12 teams, 2,640 matches, 23,760 frames) | Result |")
    print("| --- | --- |")
    print(
        f"| One division's table (`division_table`, {rows_in_division} matches) | "
        f"{table_ms:.2f} ms, {queries(table_queries)} |"
    )
    print(f"| Hand-written SQL aggregate, same rows, same run | {sql_ms:.2f} ms |")
    print(f"| Ratio table / SQL | {ratio:.2f}× |")
    print(f"| Whole season's tables in one call | {season_ms:.1f} ms, {queries(season_queries)} |")
    print(
        f"| Publish the whole season (in-process: 20 snapshots, CSV, printable page, "
        f"{len(mail.outbox)} emails) | {publish_s:.2f} s |"
    )
    print(f"| Public division page (published table) | {page_ms:.1f} ms, {page_queries} queries |")
    print(
        f"| Secretary's tables page (20 provisional tables) | {manage_ms:.1f} ms, "
        f"{queries(manage_queries)} |"
    )
    print(f"| Leaderboard, division / season | {board_div_ms:.1f} ms / {board_season_ms:.1f} ms |")
    print(
        f"| One frame's statistics from its shot log (~{events_per_frame:.0f} events) | "
        f"{record_ms:.1f} ms |"
    )


if __name__ == "__main__":
    main()
