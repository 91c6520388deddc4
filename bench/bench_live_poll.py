"""The live match poll over HTTP: a 304 next to a bare Django view answering 304 through the
same middleware, a 200, and how often a changed body is built.

    .venv/bin/python bench/bench_live_poll.py [--runs 5] [--clients 20] [--polls 200]

Uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/marker_bench; created and
migrated if needed, seeded, ANALYZEd) and the cache on Redis as in production
(BENCH_CACHE_URL, default redis://127.0.0.1:6379/14). Starts gunicorn (gthread, 2 workers x
4 threads; BENCH_WORKERS, BENCH_THREADS) on 127.0.0.1 with production settings and the
bench's URLconf (`bench/settings_bench.py`), which routes the floor: a plain Django view
that answers 304 to everything.

Per run (medians of the runs with their range are printed):

- `clients` anonymous spectators at once, each `polls` GETs of the live match with the
  current ETag (every answer must be 304), against the same number of GETs of the floor
  (every answer must be 304), alternating which goes first;
- the same spectators without an ETag: 200 with the body kept for this version;
- a changed body: a referee posts a shot, then one spectator polls (200, built);
- builds per change: the spectators poll in a loop while the referee posts `changes`
  shots; each 200 says whether it built the body or served the kept one
  (`Server-Timing: live;desc=built|kept`), and the bench counts the builds.

With --compare, a second server with LIVE_VERSIONS=0 measures the same 304 the old way (the
body built from the database, then its hash compared). Never fails on time; any answer
with another status stops the bench.
"""

from __future__ import annotations

import argparse
import json
import os
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
FRAMES = 9
# How long a server process keeps the version tokens it read (LIVE_VERSION_MEMO): a change
# made through another process is seen by every process once this has passed.
MEMO = float(ENV.get("LIVE_VERSION_MEMO", "0.25"))


def seed():
    """A match in play with nine frames of players, a referee who may score them."""
    from django.contrib.auth import get_user_model

    from frames.models import Frame, FramePlayer, Match
    from leagues.models import Division, Fixture, League, Player, Season, Team, Venue

    stamp = uuid.uuid4().hex[:8]
    User = get_user_model()
    referee = User.objects.create_user(f"live-ref-{stamp}", password=PASSWORD)
    ref_player = Player.objects.create(user=referee, name=f"Live Referee {stamp}")
    league = League.objects.create(name=f"Live {stamp}", slug=f"live-{stamp}")
    season = Season.objects.create(
        league=league, name="Live", slug=f"live-{stamp}", status=Season.Status.RUNNING
    )
    division = Division.objects.create(season=season, name="Live")
    venue = Venue.objects.create(name=f"The Live Arms {stamp}")
    teams = [
        Team.objects.create(
            season=season,
            division=division,
            name=f"Live {side} {stamp}",
            venue=venue,
            captain=User.objects.create_user(f"live-{side}-{stamp}"),
        )
        for side in ("home", "away")
    ]
    fixture = Fixture.objects.create(
        season=season, division=division, round=1, home=teams[0], away=teams[1], venue=venue
    )
    match = Match.objects.create(fixture=fixture, status=Match.Status.IN_PLAY)
    frame_ids = []
    for n in range(1, FRAMES + 1):
        home = Player.objects.create(name=f"Home {n} {stamp}")
        away = Player.objects.create(name=f"Away {n} {stamp}")
        setup = {"sides": ["home", "away"], "players": {"home": [home.name], "away": [away.name]}}
        frame = Frame.objects.create(
            match=match,
            number=n,
            order=n,
            kind="singles",
            game_id="bar_billiards_4pin",
            referee=ref_player,
            setup=setup,
        )
        FramePlayer.objects.create(frame=frame, side="home", position=1, player=home)
        FramePlayer.objects.create(frame=frame, side="away", position=1, player=away)
        frame_ids.append((frame.pk, setup))
    return referee.username, match.pk, frame_ids


def plausible_events(count: int, setup, seed: int) -> list[dict]:
    import random

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


def concurrent_gets(
    clients, path: str, count: int, expect: set[int], headers=None, meter=None
) -> dict:
    """Every client GETs `path` `count` times at once; latencies, throughput, and with a
    meter the server's CPU time per request (app and database)."""
    latencies: list[float] = []
    failures: list[BaseException] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(clients) + 1)

    def work(client):
        mine = []
        barrier.wait()
        try:
            for _ in range(count):
                _, _, seconds, _ = client.request("GET", path, expect=expect, headers=headers)
                mine.append(seconds)
        except BaseException as exc:
            with lock:
                failures.append(exc)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(c,)) for c in clients]
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
    }


class Referee:
    """Posts the next plausible shot of each frame in turn."""

    def __init__(self, client: Client, frames) -> None:
        self.client = client
        self.plans = {fid: plausible_events(400, setup, fid) for fid, setup in frames}
        self.seq = dict.fromkeys(self.plans, 0)
        self.order = list(self.plans)
        self.turn = 0

    def shot(self) -> None:
        fid = self.order[self.turn % len(self.order)]
        self.turn += 1
        seq = self.seq[fid] + 1
        payload = {
            "event_id": str(uuid.uuid4()),
            "expected_seq": seq,
            "payload": self.plans[fid][seq - 1],
        }
        self.client.request(
            "POST", f"/api/frames/{fid}/events/", expect={201}, body=json.dumps(payload).encode()
        )
        self.seq[fid] = seq


def etag_of(client: Client, path: str) -> str:
    _, _, _, response = client.request("GET", path, expect={200})
    return response.headers["ETag"]


def builds_per_change(spectators, referee: Referee, path: str, changes: int) -> dict:
    """Spectators poll in a loop (each with its own last ETag) while the referee posts
    `changes` shots, one every 50 ms; count the 200s that built the body."""
    counts = {"built": 0, "kept": 0, "304": 0}
    lock = threading.Lock()
    stop = threading.Event()

    def watch(client):
        etag = etag_of(client, path)
        mine = {"built": 0, "kept": 0, "304": 0}
        while not stop.is_set():
            status, _, _, response = client.request(
                "GET", path, expect={200, 304}, headers={"If-None-Match": etag}
            )
            if status == 304:
                mine["304"] += 1
            else:
                etag = response.headers["ETag"]
                timing = response.headers.get("Server-Timing", "")
                mine["built" if "built" in timing else "kept"] += 1
            time.sleep(0.01)
        with lock:
            for key, value in mine.items():
                counts[key] += value

    threads = [threading.Thread(target=watch, args=(c,)) for c in spectators]
    for t in threads:
        t.start()
    time.sleep(0.2)
    for _ in range(changes):
        referee.shot()
        time.sleep(0.05)
    time.sleep(0.3)
    stop.set()
    for t in threads:
        t.join()
    return counts


def one_change_then_poll(referee: Referee, spectator: Client, path: str, times: int) -> list[float]:
    """A shot, then one poll with the old ETag: the time of a 200 that builds the body."""
    out = []
    for _ in range(times):
        time.sleep(MEMO + 0.05)
        etag = etag_of(spectator, path)
        referee.shot()
        time.sleep(MEMO + 0.05)  # every process has seen the change
        status, _, seconds, response = spectator.request(
            "GET", path, expect={200}, headers={"If-None-Match": etag}
        )
        if "built" not in response.headers.get("Server-Timing", ""):
            raise SystemExit("the poll after a change did not build the body")
        out.append(seconds * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--polls", type=int, default=200, help="per client and measurement")
    parser.add_argument("--changes", type=int, default=20, help="shots in the builds count")
    parser.add_argument("--compare", action="store_true", help="also without the versions")
    args = parser.parse_args()
    if args.runs < 5:
        print("note: fewer than 5 runs; the medians below are weak")
    if not ENV["CACHE_URL"]:
        raise SystemExit("this bench needs the shared cache (BENCH_CACHE_URL)")
    workers = int(os.environ.get("BENCH_WORKERS", "2"))
    threads = int(os.environ.get("BENCH_THREADS", "4"))

    ensure_database(ENV["DATABASE_URL"])
    setup_django()
    username, match_id, frames = seed()
    analyze()
    live = f"/api/matches/{match_id}/live/"
    bare = f"/bench/matches/{match_id}/not-modified/"

    results: dict[str, list[dict]] = {"poll304": [], "bare304": [], "poll200": [], "old304": []}
    built_200: list[float] = []
    builds: list[dict] = []
    port = free_port()
    server = start_gunicorn(port, ENV, workers, threads)
    try:
        spectators = [Client(port) for _ in range(args.clients)]
        referee = Referee(Client(port), frames)
        referee.client.login(username)
        for _ in range(FRAMES):  # every frame in play, a break on the board
            referee.shot()
        time.sleep(MEMO + 0.05)
        etag = etag_of(spectators[0], live)
        conditional = {"If-None-Match": etag}
        concurrent_gets(spectators, live, 20, {304}, conditional)  # warm up
        concurrent_gets(spectators, bare, 20, {304}, conditional)
        meter = CpuMeter(server)
        for run in range(args.runs):
            # A fresh version (a shot), so that it cannot expire during this run.
            referee.shot()
            time.sleep(MEMO + 0.05)  # every process has seen the change
            conditional = {"If-None-Match": etag_of(spectators[0], live)}
            order = ("bare", "poll") if run % 2 == 0 else ("poll", "bare")
            for which in order:
                if which == "bare":
                    results["bare304"].append(
                        concurrent_gets(spectators, bare, args.polls, {304}, conditional, meter)
                    )
                else:
                    results["poll304"].append(
                        concurrent_gets(spectators, live, args.polls, {304}, conditional, meter)
                    )
            results["poll200"].append(
                concurrent_gets(spectators, live, args.polls // 4, {200}, None, meter)
            )
            built_200 += one_change_then_poll(referee, spectators[0], live, 10)
            builds.append(builds_per_change(spectators, referee, live, args.changes))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    if args.compare:
        old_env = {**ENV, "LIVE_VERSIONS": "0"}
        port = free_port()
        server = start_gunicorn(port, old_env, workers, threads)
        try:
            spectators = [Client(port) for _ in range(args.clients)]
            etag = etag_of(spectators[0], live)
            conditional = {"If-None-Match": etag}
            concurrent_gets(spectators, live, 20, {304}, conditional)
            meter = CpuMeter(server)
            for _ in range(args.runs):
                results["old304"].append(
                    concurrent_gets(spectators, live, args.polls, {304}, conditional, meter)
                )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)

    print()
    print(machine_line())
    print(
        f"PostgreSQL {pg_version()}; cache {ENV['CACHE_URL']}; gunicorn gthread {workers} x "
        f"{threads}; {args.clients} anonymous spectators, {args.polls} polls each per "
        f"measurement; a match of {FRAMES} frames; {args.runs} runs; DEBUG off; the load "
        "generator runs on the same cores. Figures: median of the runs (lowest-highest)."
    )
    print()
    pick = lambda key, name: [r[name] for r in results[key]]  # noqa: E731
    print("| Measurement | p50 ms | p95 ms | p99 ms | Throughput /s |")
    print("| --- | --- | --- | --- | --- |")
    rows = [
        ("Live poll, unchanged (304)", "poll304"),
        ("Bare Django view answering 304", "bare304"),
        ("Live poll without an ETag (200, kept body)", "poll200"),
    ]
    if results["old304"]:
        rows.append(("Live poll 304 without versions (body built, then hashed)", "old304"))
    for label, key in rows:
        print(
            f"| {label} | {med(pick(key, 'p50'))} | {med(pick(key, 'p95'))} | "
            f"{med(pick(key, 'p99'))} | {med(pick(key, 'throughput'))} |"
        )
    ratio = lambda name: [  # noqa: E731
        p[name] / b[name] for p, b in zip(results["poll304"], results["bare304"], strict=True)
    ]
    tput = [
        b["throughput"] / p["throughput"]
        for p, b in zip(results["poll304"], results["bare304"], strict=True)
    ]
    print(
        f"| Ratio 304 / bare 304 (per run) | {med(ratio('p50'))} | {med(ratio('p95'))} | "
        f"{med(ratio('p99'))} | {med(tput)} (cost per request) |"
    )
    print()
    print("Server CPU per request (gunicorn workers + PostgreSQL backends, from /proc):")
    print()
    print("| Measurement | app ms | database ms | total ms |")
    print("| --- | --- | --- | --- |")
    for label, key in rows:
        print(
            f"| {label} | {med(pick(key, 'app_ms'))} | {med(pick(key, 'db_ms'))} | "
            f"{med(pick(key, 'cpu_ms'))} |"
        )
    print(f"| Ratio 304 / bare 304 (per run) | | | {med(ratio('cpu_ms'))} |")
    print()
    print(
        f"A 200 that builds the body (one poll right after a shot, {len(built_200)} times): "
        f"median {statistics.median(built_200):.2f} ms, p95 {percentile(built_200, 95):.2f} ms"
    )
    per_change = [b["built"] / args.changes for b in builds]
    print(
        f"Builds per change ({args.changes} shots per run while {args.clients} spectators "
        f"poll): {med(per_change)}; 200s served from the kept body per run: "
        f"{med([float(b['kept']) for b in builds])}; 304s per run: "
        f"{med([float(b['304']) for b in builds])}"
    )
    print(
        f"Spread of the 304 ratio across runs: p50 {spread(ratio('p50')):.0%}, p95 "
        f"{spread(ratio('p95')):.0%} of its median."
    )
    cost = statistics.median(ratio("cpu_ms")) <= 1.2
    once = statistics.median(per_change) <= 1.0
    print(
        "Target (a 304 costs at most 1.2x the bare 304; one build per change): CPU per "
        f"request {'met' if cost else 'NOT met'}, throughput "
        f"{'met' if statistics.median(tput) <= 1.2 else 'NOT met'}, builds "
        f"{'met' if once else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
