"""League tables at scale: a generated season of 20 divisions of 12 teams.

    .venv/bin/python bench/bench_tables.py [--repeat 30] [--seed 1]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench (created if
missing, then emptied: it is the benchmark's own database). Generates the season with
bulk_create (2,640 matches, 23,760 frames with their players and statistics lines), then
times, in the same run:

- one division's table (`leagues.standings.division_table`) against a hand-written SQL
  aggregate over the same rows computing the same columns (played, won, drawn, lost,
  frames and scores for and against, points under the season's scheme — frames, a match
  won or drawn, the margin and aggregate bonuses — the deductions, and the walkover count),
  as a ratio; every column of every team must agree, or the bench stops;
- the whole season's tables in one call, and the public and secretary pages;
- publishing a season of 5, 10 and 20 divisions (the job run in-process: snapshots, CSV,
  printable page, one email per captain and subscriber over one connection): the first
  publication in a fresh process (cold) apart from the next five (warm), and the time per
  recipient, which should stay flat as the divisions grow;
- leaderboards over the statistics lines, and recording one frame's statistics from a
  simulated shot log.

Timings are medians of at least five runs with their range (lowest-highest), the two
sides of a ratio interleaved; every page request checks its status. Prints the machine
and its load, figures and a markdown table; never fails on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")  # eager, locmem mail

from bench.harness import machine_line, med  # noqa: E402  (notes the load at start)

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")

DIVISIONS, TEAMS, PLAYERS = 20, 12, 8
SINGLES, DOUBLES = 6, 3

# The season's points scheme in the bench (set in generate()): 1 per frame won, 2 for a
# match won, 1 for a match drawn, 1 for winning by 5 frames or more, 1 for the higher
# aggregate; deductions on three teams of the measured division. The floor writes the
# scheme as literals, as someone writing the table by hand would.
SCHEME = {
    "points_per_frame": Decimal("1"),
    "points_per_match_win": Decimal("2"),
    "points_per_match_draw": Decimal("1"),
    "bonus_margin": 5,
    "bonus_margin_points": Decimal("1"),
    "bonus_aggregate_points": Decimal("1"),
}
DEDUCTIONS = (Decimal("1.5"), Decimal("2"), Decimal("3"))

HAND_WRITTEN_SQL = """
WITH sides AS (
    SELECT home_id AS team_id, home_frames AS f, away_frames AS a,
           home_score AS sf, away_score AS sa, outcome
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
    UNION ALL
    SELECT away_id, away_frames, home_frames, away_score, home_score, outcome
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
)
SELECT t.id,
       COUNT(s.team_id),
       COUNT(s.team_id) FILTER (WHERE s.f > s.a),
       COUNT(s.team_id) FILTER (WHERE s.f = s.a),
       COUNT(s.team_id) FILTER (WHERE s.f < s.a),
       COALESCE(SUM(s.f), 0), COALESCE(SUM(s.a), 0),
       COALESCE(SUM(s.sf), 0), COALESCE(SUM(s.sa), 0),
       COALESCE(SUM(s.f * 1
                    + CASE WHEN s.f > s.a THEN 2 WHEN s.f = s.a THEN 1 ELSE 0 END
                    + CASE WHEN s.f - s.a >= 5 THEN 1 ELSE 0 END
                    + CASE WHEN s.sf > s.sa THEN 1 ELSE 0 END), 0) AS earned,
       (SELECT COALESCE(SUM(x.points), 0) FROM leagues_pointdeduction x
         WHERE x.team_id = t.id) AS deducted,
       COUNT(s.team_id) FILTER (WHERE s.outcome <> 'played') AS not_played
  FROM leagues_team t LEFT JOIN sides s ON s.team_id = t.id
 WHERE t.division_id = %(d)s
 GROUP BY t.id
"""

COLUMNS = (
    "played",
    "won",
    "drawn",
    "lost",
    "frames_for",
    "frames_against",
    "score_for",
    "score_against",
    "earned",
    "deducted",
    "points",
)


def floor_rows(rows) -> dict[int, tuple]:
    """team -> the floor's columns, in COLUMNS order (points = earned - deducted)."""
    out = {}
    for team_id, p, w, d, lost, ff, fa, sf, sa, earned, deducted, _not_played in rows:
        out[team_id] = (
            p,
            w,
            d,
            lost,
            Decimal(ff),
            Decimal(fa),
            int(sf),
            int(sa),
            Decimal(earned),
            Decimal(deducted),
            Decimal(earned) - Decimal(deducted),
        )
    return out


def same_totals(table, floor: dict[int, tuple]) -> None:
    """Every column of every team equal in the table and the floor, or stop loudly."""
    mine = {r.team_id: tuple(getattr(r, c) for c in COLUMNS) for r in table.rows}
    if set(mine) != set(floor):
        raise SystemExit(f"the table and the floor list different teams: {set(mine) ^ set(floor)}")
    wrong = [
        (team, column, mine[team][i], floor[team][i])
        for team in mine
        for i, column in enumerate(COLUMNS)
        if mine[team][i] != floor[team][i]
    ]
    if wrong:
        lines = "\n".join(f"  team {t}: {c} table {a} floor {b}" for t, c, a, b in wrong[:20])
        raise SystemExit(f"the table and the floor disagree ({len(wrong)} values):\n{lines}")


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


def _clocked(fn: Callable[[], T], samples: list[float]) -> T:
    """`fn()`, its wall time (ms) appended to `samples`."""
    start = time.perf_counter()
    result = fn()
    samples.append((time.perf_counter() - start) * 1000)
    return result


def timed(fn: Callable[[], T], repeat: int) -> tuple[list[float], T]:
    """Wall times of max(5, repeat) calls, in ms (after one warm-up call)."""
    result = fn()
    samples: list[float] = []
    for _ in range(max(5, repeat)):
        result = _clocked(fn, samples)
    return samples, result


def interleaved(
    a: Callable[[], A], b: Callable[[], B], repeat: int
) -> tuple[list[float], list[float], A, B]:
    """Wall times (ms) of `a` and `b` called alternately, max(5, repeat) each."""
    ra, rb = a(), b()
    sa: list[float] = []
    sb: list[float] = []
    for _ in range(max(5, repeat)):
        ra = _clocked(a, sa)
        rb = _clocked(b, sb)
    return sa, sb, ra, rb


def get_ok(client, url: str):
    response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"GET {url} answered {response.status_code}")
    return response


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

    from frames.models import Frame, FramePlayer, Match, PlayerFrameStat
    from leagues.models import (
        Division,
        Fixture,
        League,
        LeagueRole,
        Player,
        PointDeduction,
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
        league=league,
        name="2026",
        slug="2026",
        status=Season.Status.RUNNING,
        start_date=start,
        **SCHEME,
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
    results: list[tuple[Decimal, Decimal, int, int]] = []  # each fixture's frames and points
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
        results.append((hf, af, hs, as_))
        f.status = Fixture.Status.PLAYED
        f.result_confirmed_at = now - timedelta(days=1)
    fixtures = Fixture.objects.bulk_create(fixtures)
    measured = teams[9 * TEAMS : 10 * TEAMS]  # the division the floor is compared on
    PointDeduction.objects.bulk_create(
        [
            PointDeduction(team=team, points=points, reason="bench", at=now)
            for team, points in zip(measured[::4], DEDUCTIONS, strict=True)
        ]
    )
    matches = Match.objects.bulk_create(
        [
            Match(
                fixture=f,
                status=Match.Status.CONFIRMED,
                home_frames=hf,
                away_frames=af,
                home_score=hs,
                away_score=as_,
                confirmed_at=f.result_confirmed_at,
            )
            for f, (hf, af, hs, as_) in zip(fixtures, results, strict=True)
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


def stats_sample(season, rng: random.Random, count: int = 20) -> tuple[float, float]:
    """Median ms to record one frame's statistics from a simulated shot log, and the
    events per frame."""
    from frames.models import Frame, FrameEvent
    from frames.stats import record
    from rules.simulate import simulate_frame

    frames = list(Frame.objects.filter(match__fixture__season=season, kind="singles")[:count])
    events = []
    for frame in frames:
        completed_at = frame.completed_at
        assert completed_at is not None  # the seed completes every frame
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
                    created_at=completed_at,
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


def generate_for_publishing(divisions: int, tag: str):
    """A season of `divisions` divisions of 12 teams with every fixture's result (no
    frames: publishing reads fixtures), a captain with an email per team and 60
    subscribers; returns the season and a secretary."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from leagues.models import Division, Fixture, League, Season, Subscription, Team, Venue

    rng = random.Random(divisions)
    user_model = get_user_model()
    now = timezone.now()
    league = League.objects.create(name=f"Publish {tag}", slug=f"publish-{tag}")
    season = Season.objects.create(
        league=league, name="2026", slug="2026", status=Season.Status.RUNNING, **SCHEME
    )
    rows = Division.objects.bulk_create(
        [Division(season=season, name=f"Division {d + 1}", rank=d + 1) for d in range(divisions)]
    )
    captains = user_model.objects.bulk_create(
        [
            user_model(username=f"{tag}-cap{i}", email=f"{tag}-cap{i}@example.org", password="!")
            for i in range(divisions * TEAMS)
        ]
    )
    venues = Venue.objects.bulk_create(
        [Venue(name=f"{tag} Pub {i}", tables=2) for i in range(divisions * TEAMS)]
    )
    teams = Team.objects.bulk_create(
        [
            Team(
                season=season,
                division=rows[i // TEAMS],
                name=f"{tag} Team {i:03}",
                captain=c,
                venue=venues[i],
            )
            for i, c in enumerate(captains)
        ]
    )
    venue_of = {t.pk: t.venue for t in teams}
    fixtures = []
    for d, division in enumerate(rows):
        members = teams[d * TEAMS : (d + 1) * TEAMS]
        for r, pairs in enumerate(round_robin(members), start=1):
            for home, away in pairs:
                hf = Decimal(rng.randrange(0, 19)) / 2
                fixtures.append(
                    Fixture(
                        season=season,
                        division=division,
                        round=r,
                        home=home,
                        away=away,
                        venue=venue_of[home.pk],
                        home_frames=hf,
                        away_frames=Decimal(9) - hf,
                        home_score=rng.randrange(5000, 20000),
                        away_score=rng.randrange(5000, 20000),
                        status=Fixture.Status.PLAYED,
                        result_confirmed_at=now - timedelta(days=1),
                    )
                )
    Fixture.objects.bulk_create(fixtures, batch_size=2000)
    Subscription.objects.bulk_create(
        [
            Subscription(league=league, email=f"{tag}-fan{i}@example.org", created_at=now)
            for i in range(60)
        ]
    )
    secretary = user_model.objects.create(username=f"{tag}-sec", is_staff=True, password="!")
    return season, secretary


def publish_series(divisions: int, warm: int) -> dict:
    """In this (fresh) process: one season of `divisions` divisions published once (cold)
    and `warm` more times; connections opened and emails sent by the mail backend."""
    import django

    django.setup()
    from django.core import mail
    from django.db import connection, transaction
    from django.test.utils import setup_test_environment

    from bench.harness import CountingMail
    from leagues import publishing
    from leagues.models import Publication

    setup_test_environment()
    from django.conf import settings

    settings.EMAIL_BACKEND = "bench.harness.CountingMail"
    season, secretary = generate_for_publishing(divisions, f"d{divisions}-{uuid.uuid4().hex[:6]}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    times, emails = [], []
    CountingMail.reset()
    for _ in range(1 + warm):
        mail.outbox = []
        start = time.perf_counter()
        with transaction.atomic():  # the job runs on commit, in-process (no broker)
            publication = publishing.publication_request(season=season, actor=secretary)
        times.append(time.perf_counter() - start)
        publication = Publication.objects.get(pk=publication.pk)
        if publication.state != Publication.State.DONE:
            raise SystemExit(
                f"publication {publication.pk}: {publication.state} {publication.error}"
            )
        emails.append(len(mail.outbox))
    return {
        "divisions": divisions,
        "cold": times[0],
        "warm": times[1:],
        "emails": emails[0],
        "connections_per_publication": CountingMail.opened / (1 + warm),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm", type=int, default=5, help="warm publications per size")
    parser.add_argument("--publish-sizes", default="5,10,20")
    parser.add_argument("--publish-only", type=int, help=argparse.SUPPRESS)  # the child
    args = parser.parse_args()

    ensure_database()
    if args.publish_only:
        print(json.dumps(publish_series(args.publish_only, args.warm)))
        return
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from frames.stats import selectors as stats_selectors
    from leagues import standings
    from leagues.models import Division

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

    # The two interleaved, so machine noise hits both alike; the ratio per pair of calls.
    table_samples, sql_samples, table, sql_rows = interleaved(build, hand_written, args.repeat)
    ratios = [t / q for t, q in zip(table_samples, sql_samples, strict=True) if q]
    with CaptureQueriesContext(connection) as ctx:
        build()
    table_queries = len(ctx.captured_queries)
    same_totals(table, floor_rows(sql_rows))  # every column, or the bench stops here

    season_samples, _ = timed(lambda: standings.tables(season), max(5, args.repeat // 5))
    with CaptureQueriesContext(connection) as ctx:
        standings.tables(season)
    season_queries = len(ctx.captured_queries)

    # Publishing: each size in a fresh process (so its first publication is cold).
    series = []
    for size in [int(x) for x in args.publish_sizes.split(",") if x]:
        child = subprocess.run(
            [sys.executable, __file__, "--publish-only", str(size), "--warm", str(args.warm)],
            capture_output=True,
            text=True,
            env=os.environ,
            check=False,
        )
        if child.returncode != 0:
            raise SystemExit(f"publishing {size} divisions failed:\n{child.stderr[-2000:]}")
        series.append(json.loads(child.stdout.strip().splitlines()[-1]))

    from django.db import transaction

    from leagues.models import Publication
    from leagues.publishing import publication_request

    with transaction.atomic():  # the big season published once, for its public page
        publication_request(season=season, actor=data["secretary"])
    if not Publication.objects.filter(season=season, state=Publication.State.DONE).exists():
        raise SystemExit("the season's publication did not finish")

    client = Client()
    page_url = division.get_absolute_url()
    page_samples, _ = timed(lambda: get_ok(client, page_url), max(5, args.repeat // 2))
    with CaptureQueriesContext(connection) as ctx:
        get_ok(client, page_url)
    page_queries = len(ctx.captured_queries)
    secretary = Client()
    secretary.force_login(data["secretary"])
    manage_url = reverse("season-tables", args=[season.league.slug, season.pk])
    manage_samples, _ = timed(lambda: get_ok(secretary, manage_url), 5)
    with CaptureQueriesContext(connection) as ctx:
        get_ok(secretary, manage_url)
    manage_queries = len(ctx.captured_queries)

    board_div, board = timed(lambda: stats_selectors.leaderboard(division=division), args.repeat)
    board_season, board_all = timed(lambda: stats_selectors.leaderboard(season=season), 5)
    record_ms, events_per_frame = stats_sample(season, random.Random(args.seed))

    print(machine_line())
    print(
        f"Generated in {generate_s:.1f} s: {len(data['divisions'])} divisions × {TEAMS} teams, "
        f"{data['fixtures']:,} matches, {data['frames']:,} frames, "
        f"{data['lines']:,} player-frame lines. Timings in ms: median of the runs "
        "(lowest-highest)."
    )
    print(
        f"Same totals: every column ({', '.join(COLUMNS)}) of all {len(table.rows)} teams "
        "agrees between the table and the floor (points scheme and deductions included)."
    )
    print()
    print("| Measure (20 divisions × 12 teams, 2,640 matches, 23,760 frames) | Result |")
    print("| --- | --- |")
    print(
        f"| One division's table (`division_table`, {rows_in_division} matches, "
        f"{queries(table_queries)}) | {med(table_samples)} ms |"
    )
    print(
        f"| Hand-written SQL aggregate, same rows and columns, interleaved | {med(sql_samples)} ms |"
    )
    print(f"| Ratio table / SQL (per pair of calls) | {med(ratios)}× |")
    print(
        f"| Whole season's tables in one call ({queries(season_queries)}) | "
        f"{med(season_samples)} ms |"
    )
    print(
        f"| Public division page (published table, {page_queries} queries) | {med(page_samples)} ms |"
    )
    print(
        f"| Secretary's tables page (20 provisional tables, {queries(manage_queries)}) | "
        f"{med(manage_samples)} ms |"
    )
    print(f"| Leaderboard, division / season | {med(board_div)} ms / {med(board_season)} ms |")
    print(
        f"| One frame's statistics from its shot log (~{events_per_frame:.0f} events) | "
        f"{record_ms:.1f} ms |"
    )
    print()
    print(
        "Publishing (in-process: snapshots, CSV, printable page, emails over one connection; "
        f"cold = the first publication in a fresh process, warm = the next {args.warm}):"
    )
    print()
    print(
        "| Divisions | Emails | Connections | Cold s | Warm s | Warm ms per email | Warm ms per division |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in series:
        warm = r["warm"]
        print(
            f"| {r['divisions']} | {r['emails']} | {r['connections_per_publication']:.0f} | "
            f"{r['cold']:.2f} | {med(warm)} | "
            f"{statistics.median(warm) * 1000 / r['emails']:.2f} | "
            f"{statistics.median(warm) * 1000 / r['divisions']:.0f} |"
        )


if __name__ == "__main__":
    main()
