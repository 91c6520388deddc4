"""Shot entry over HTTP against PostgreSQL, next to a bare authenticated single insert
through the same stack, in the same run.

    .venv/bin/python bench/bench_shots.py [--runs 5] [--clients 20] [--shots 100]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench (created and migrated
if needed; each run seeds its own league, match and frames, then ANALYZE). The cache, and so
the sessions (`cached_db`), on Redis as in production: BENCH_CACHE_URL (default
redis://127.0.0.1:6379/14; empty for local memory and database sessions). Starts gunicorn
(gthread, --workers 2 --threads 4 unless BENCH_WORKERS / BENCH_THREADS say otherwise) on a
free port of 127.0.0.1 with production settings (DEBUG off) and the bench's own URLconf
(`bench/settings_bench.py`), which routes the floor: a DRF view with the same session
authentication, CSRF check and JSON parsing as a shot, that INSERTs one row.

Every client signs in through the login form, takes a CSRF token, and keeps one keep-alive
connection; every answer's status is checked (a shot must be 201, the floor 201: anything
else stops the bench). Measured:

- `clients` threads at once, each on its own frame: POST events (a plausible frame from
  rules.simulate, precomputed) against POST to the floor, alternating which goes first, in
  `runs` runs; per run p50/p95/p99 and throughput of each and their ratio; printed as the
  median of the runs with their range;
- the SQL statements of one shot and of one floor request (in this process, through
  Django's test client against the same database and cache);
- one client alone filling frames to 500 events: the time to add shot 5 against shot 500
  (the frame keeps the engine's state, so the ratio should be about 1).

Prints figures and a markdown table; never fails on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (  # noqa: E402
    PASSWORD,
    Client,
    CpuMeter,
    analyze,
    bench_env,
    ensure_database,
    free_port,
    machine_line,
    med,
    percentile,
    pg_version,
    setup_django,
    spread,
    start_gunicorn,
)

ENV = bench_env()


def seed(frames: int):
    """A league of two teams, a match in play and `frames` frames refereed by one user."""
    from django.contrib.auth import get_user_model

    from frames.models import Frame, Match
    from leagues.models import Division, Fixture, League, Player, Season, Team, Venue

    stamp = uuid.uuid4().hex[:8]
    User = get_user_model()
    referee = User.objects.create_user(f"bench-ref-{stamp}", password=PASSWORD)
    player = Player.objects.create(user=referee, name=f"Bench Referee {stamp}")
    league = League.objects.create(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    season = Season.objects.create(
        league=league, name="Bench", slug=f"bench-{stamp}", status=Season.Status.RUNNING
    )
    division = Division.objects.create(season=season, name="Bench")
    venue = Venue.objects.create(name=f"The Bench Arms {stamp}")
    teams = [
        Team.objects.create(
            season=season,
            division=division,
            name=f"Bench {side} {stamp}",
            venue=venue,
            captain=User.objects.create_user(f"bench-{side}-{stamp}"),
        )
        for side in ("home", "away")
    ]
    fixture = Fixture.objects.create(
        season=season, division=division, round=1, home=teams[0], away=teams[1], venue=venue
    )
    match = Match.objects.create(fixture=fixture, status=Match.Status.IN_PLAY)
    setup = {"sides": ["home", "away"], "players": {"home": ["Hal"], "away": ["Ada"]}}
    frame_ids = [
        Frame.objects.create(
            match=match,
            number=n,
            order=n,
            kind="singles",
            game_id="bar_billiards_4pin",
            referee=player,
            setup=setup,
        ).pk
        for n in range(1, frames + 1)
    ]
    return referee.username, match.pk, frame_ids, setup


def plausible_events(count: int, setup, seed: int) -> list[dict]:
    """`count` events the engine accepts in order (the bar stays up: the frame goes on)."""
    from rules import Timeline
    from rules.simulate import plausible_event

    rng = random.Random(seed)
    timeline = Timeline("bar_billiards_4pin", setup)
    out: list[dict] = []
    while len(out) < count:
        event = plausible_event(rng, timeline.state)
        timeline.push(event)
        out.append(event)
    return out


def run_concurrent(clients, jobs, expect, meter=None) -> dict:
    """Every client works through its own list of (path, payload) at once; with a meter,
    the server's CPU time per request too."""
    latencies: list[float] = []
    failures: list[BaseException] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(clients) + 1)

    def work(client, todo):
        mine = []
        barrier.wait()
        try:
            for path, payload in todo:
                _, _, seconds, _ = client.request(
                    "POST", path, expect=expect, body=json.dumps(payload).encode()
                )
                mine.append(seconds)
        except BaseException as exc:  # reported below: the bench stops
            with lock:
                failures.append(exc)
        with lock:
            latencies.extend(mine)

    threads = [
        threading.Thread(target=work, args=(c, j)) for c, j in zip(clients, jobs, strict=True)
    ]
    for t in threads:
        t.start()
    if meter is not None:
        meter.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    used = meter.stop() if meter is not None else {"app": 0.0, "db": 0.0}
    if failures:
        raise SystemExit(f"a request failed: {failures[0]}")
    return {
        "app_ms": used["app"] * 1000 / len(latencies),
        "db_ms": used["db"] * 1000 / len(latencies),
        "cpu_ms": (used["app"] + used["db"]) * 1000 / len(latencies),
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "throughput": len(latencies) / wall,
        "n": len(latencies),
    }


def statement_counts(username: str, match_id: int, frame_id: int, plan) -> tuple[int, int]:
    """SQL statements of one shot (not the frame's first: that one also starts the frame)
    and of one floor request, each after a warm-up request, through Django's test client."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    client = DjangoClient(HTTP_HOST="127.0.0.1")
    client.force_login(
        get_user_model().objects.get(username=username),
        backend="django.contrib.auth.backends.ModelBackend",
    )
    token = client.get("/api/pad/session/").json()["csrf_token"]

    def post(path, payload, expect):
        response = client.post(
            path, json.dumps(payload), content_type="application/json", HTTP_X_CSRFTOKEN=token
        )
        if response.status_code != expect:
            raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")

    events = f"/api/frames/{frame_id}/events/"
    bare = f"/bench/matches/{match_id}/insert/"
    for seq in (1, 2):
        post(
            events,
            {"event_id": str(uuid.uuid4()), "expected_seq": seq, "payload": plan[seq - 1]},
            201,
        )
    with CaptureQueriesContext(connection) as shot:
        post(events, {"event_id": str(uuid.uuid4()), "expected_seq": 3, "payload": plan[2]}, 201)
    post(bare, {"n": 0}, 201)
    with CaptureQueriesContext(connection) as floor:
        post(bare, {"n": 1}, 201)
    return len(shot.captured_queries), len(floor.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--shots", type=int, default=100, help="per client and run")
    parser.add_argument("--long", type=int, default=500, help="events in the shot-5/500 frames")
    parser.add_argument("--long-frames", type=int, default=3)
    args = parser.parse_args()
    if args.runs < 5:
        print("note: fewer than 5 runs; the medians below are weak")
    workers = int(os.environ.get("BENCH_WORKERS", "2"))
    threads = int(os.environ.get("BENCH_THREADS", "4"))

    ensure_database(ENV["DATABASE_URL"])
    setup_django()
    username, match_id, frame_ids, setup = seed(args.clients * args.runs + args.long_frames + 1)
    analyze()
    per_frame = args.shots + 5
    plans = [plausible_events(per_frame, setup, seed) for seed in range(len(frame_ids))]
    long_plans = [plausible_events(args.long, setup, 1000 + i) for i in range(args.long_frames)]
    shot_statements, floor_statements = statement_counts(
        username, match_id, frame_ids[-1], plans[-1]
    )

    port = free_port()
    server = start_gunicorn(port, ENV, workers, threads)
    try:
        clients = [Client(port) for _ in range(args.clients)]
        for client in clients:
            client.login(username)
        events_path = "/api/frames/{}/events/".format
        bare_path = f"/bench/matches/{match_id}/insert/"

        def shot_jobs(run: int, start: int, count: int):
            jobs = []
            for i in range(args.clients):
                fid = frame_ids[run * args.clients + i]
                plan = plans[run * args.clients + i]
                jobs.append(
                    [
                        (
                            events_path(fid),
                            {
                                "event_id": str(uuid.uuid4()),
                                "expected_seq": seq + 1,
                                "payload": plan[seq],
                                "device_id": f"bench-{i}",
                            },
                        )
                        for seq in range(start, start + count)
                    ]
                )
            return jobs

        def bare_jobs(count: int):
            return [
                [(bare_path, {"n": k, "device_id": f"bench-{i}"}) for k in range(count)]
                for i in range(args.clients)
            ]

        # Warm up both paths (connections, code, caches) before measuring.
        for run in range(args.runs):
            run_concurrent(clients, shot_jobs(run, 0, 5), {201})
        run_concurrent(clients, bare_jobs(20), {201})
        shots, bare = [], []
        meter = CpuMeter(server)
        for run in range(args.runs):
            order = ("bare", "shots") if run % 2 == 0 else ("shots", "bare")
            for which in order:
                if which == "bare":
                    bare.append(run_concurrent(clients, bare_jobs(args.shots), {201}, meter))
                else:
                    shots.append(
                        run_concurrent(clients, shot_jobs(run, 5, args.shots), {201}, meter)
                    )

        # Shot 5 against shot 500: one client alone, frames filled one event at a time.
        solo = clients[0]
        at: dict[int, list[float]] = {}
        base = args.clients * args.runs
        for i, plan in enumerate(long_plans):
            fid = frame_ids[base + i]
            for seq, event in enumerate(plan, start=1):
                payload = {"event_id": str(uuid.uuid4()), "expected_seq": seq, "payload": event}
                _, _, seconds, _ = solo.request(
                    "POST", events_path(fid), expect={201}, body=json.dumps(payload).encode()
                )
                at.setdefault(seq, []).append(seconds)
        window = lambda lo, hi: statistics.median(x for k in range(lo, hi + 1) for x in at[k])  # noqa: E731
        shot5 = statistics.median(at[5]) * 1000
        shot500 = statistics.median(at[args.long]) * 1000
        early = window(1, 10) * 1000
        late = window(args.long - 9, args.long) * 1000
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    cache = ENV["CACHE_URL"] or "local memory (database sessions)"
    print()
    print(machine_line())
    print(
        f"PostgreSQL {pg_version()}; cache {cache}; gunicorn gthread {workers} workers x "
        f"{threads} threads; {args.clients} clients; {args.runs} runs x {args.shots} requests "
        "per client per endpoint; keep-alive; DEBUG off; the load generator runs on the same "
        "cores. Figures: median of the runs (lowest-highest)."
    )
    print()
    pick = lambda runs, key: [r[key] for r in runs]  # noqa: E731
    ratio = lambda key: [s[key] / b[key] for s, b in zip(shots, bare, strict=True)]  # noqa: E731
    print("| Measurement | p50 ms | p95 ms | p99 ms | Throughput /s | SQL statements |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(
        f"| Shot entry (POST an event) | {med(pick(shots, 'p50'))} | {med(pick(shots, 'p95'))} "
        f"| {med(pick(shots, 'p99'))} | {med(pick(shots, 'throughput'))} | {shot_statements} |"
    )
    print(
        f"| Bare authenticated insert | {med(pick(bare, 'p50'))} | {med(pick(bare, 'p95'))} "
        f"| {med(pick(bare, 'p99'))} | {med(pick(bare, 'throughput'))} | {floor_statements} |"
    )
    print(
        f"| Ratio shot / floor (per run) | {med(ratio('p50'))} | {med(ratio('p95'))} | "
        f"{med(ratio('p99'))} | | {shot_statements - floor_statements:+d} |"
    )
    print()
    print(
        "Server CPU per request (gunicorn workers + PostgreSQL backends, from /proc; the "
        "cost that does not depend on waiting for a core):"
    )
    print()
    print("| Measurement | app ms | database ms | total ms |")
    print("| --- | --- | --- | --- |")
    for label, runs in (("Shot entry", shots), ("Bare authenticated insert", bare)):
        print(
            f"| {label} | {med(pick(runs, 'app_ms'))} | {med(pick(runs, 'db_ms'))} | "
            f"{med(pick(runs, 'cpu_ms'))} |"
        )
    print(
        f"| Ratio shot / floor (per run) | {med(ratio('app_ms'))} | {med(ratio('db_ms'))} | {med(ratio('cpu_ms'))} |"
    )
    print()
    print(
        f"Spread of the ratio across runs: p50 {spread(ratio('p50')):.0%}, p95 "
        f"{spread(ratio('p95')):.0%} of its median."
    )
    print(
        f"Shot 5 vs shot {args.long}, one client ({args.long_frames} frames, median): "
        f"{shot5:.2f} ms vs {shot500:.2f} ms, ratio {shot500 / shot5:.2f}; shots 1-10 "
        f"{early:.2f} ms, {args.long - 9}-{args.long} {late:.2f} ms (ratio {late / early:.2f})"
    )
    latency = statistics.median(ratio("p50")) <= 1.3 and statistics.median(ratio("p95")) <= 1.3
    cost = statistics.median(ratio("cpu_ms")) <= 1.3
    statements = shot_statements - floor_statements <= 1
    print(
        "Target (shot <= 1.3x the floor at p50 and p95, at most one statement more): "
        f"latency {'met' if latency else 'NOT met'}, CPU per request "
        f"{'met' if cost else 'NOT met'}, statements {'met' if statements else 'NOT met'}"
        + (
            " (the ratio's spread is over 25%: a loaded machine; re-run)"
            if spread(ratio("p50")) > 0.25
            else ""
        )
    )


if __name__ == "__main__":
    main()
