"""Shot entry over HTTP against PostgreSQL, next to a bare authenticated single-insert
endpoint, in the same run.

    .venv/bin/python bench/bench_shots.py [--clients 20] [--shots 150] [--rounds 2]

Uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/marker_bench (created and migrated
if needed; each run seeds its own league, match and frames). Starts gunicorn (gthread,
--workers 2 --threads 4 unless BENCH_WORKERS / BENCH_THREADS say otherwise) on a free port
of 127.0.0.1 with production settings (DEBUG off) and MARKER_BENCH_ENDPOINTS=1, which routes
the baseline: a DRF view with the same session authentication, CSRF check and JSON parsing
as a shot, that INSERTs one row.

Every client signs in through the login form, takes a CSRF token, and keeps one keep-alive
connection. Measured:

- `clients` threads at once, each on its own frame: POST events (a plausible frame from
  rules.simulate, precomputed) against POST to the baseline, alternating in `rounds` so
  both see the same machine; p50/p95 latency, throughput and their ratio;
- one client alone filling frames to 500 events: the time to add shot 5 against shot 500
  (the frame keeps the engine's state, so the ratio should be about 1).

Prints figures and a markdown table; never fails on time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/marker_bench"
PASSWORD = "bench-password-not-secret-42"
ENV = {
    "DATABASE_URL": os.environ.get("DATABASE_URL", DEFAULT_DB),
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
    "MARKER_BENCH_ENDPOINTS": "1",
    "LOG_LEVEL": "WARNING",
}
os.environ.update(ENV)


# ------------------------------------------------------------------- database


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


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
    out = []
    while len(out) < count:
        event = plausible_event(rng, timeline.state)
        timeline.push(event)
        out.append(event)
    return out


# --------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, workers: int, threads: int) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "config.wsgi:application",
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--keep-alive",
        "30",
    ]
    if not Path(command[0]).exists():
        command[0:1] = [sys.executable, "-m", "gunicorn"]
    server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **ENV})
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("gunicorn did not start") from None
            time.sleep(0.05)
    raise SystemExit("gunicorn did not open its port")


class Phone:
    """One client: a keep-alive connection, a session from the login form, a CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.last_error = b""

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str = "application/json",
    ) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = content_type
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, data

    def login(self, username: str) -> None:
        # The token from the pad's session endpoint (the login page's template would need
        # collected static files under DEBUG off); the form then signs in as a browser does.
        status, data = self.request("GET", "/api/pad/session/")
        token = json.loads(data)["csrf_token"]
        form = urlencode(
            {
                "username": username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token,
                "next": "/api/pad/session/",
            }
        ).encode()
        status, _ = self.request(
            "POST", "/accounts/login/", form, "application/x-www-form-urlencoded"
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"login failed ({status})")
        status, data = self.request("GET", "/api/pad/session/")
        assert json.loads(data)["authenticated"]

    def post(self, path: str, payload: dict) -> tuple[int, float]:
        body = json.dumps(payload).encode()
        started = time.perf_counter()
        status, data = self.request("POST", path, body)
        elapsed = time.perf_counter() - started
        if status not in (200, 201):
            self.last_error = data[:300]
        return status, elapsed


# ---------------------------------------------------------------------- runs


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run_concurrent(phones, jobs) -> dict:
    """Every phone works through its own list of (path, payload) at once."""
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(phones) + 1)

    def work(phone, todo):
        mine, bad = [], []
        barrier.wait()
        for path, payload in todo:
            status, seconds = phone.post(path, payload)
            mine.append(seconds)
            if status not in (200, 201):
                bad.append(status)
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    threads = [
        threading.Thread(target=work, args=(p, j)) for p, j in zip(phones, jobs, strict=True)
    ]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {"latencies": latencies, "wall": wall, "errors": errors}


def summary(runs: list[dict]) -> dict:
    latencies = [x for r in runs for x in r["latencies"]]
    wall = sum(r["wall"] for r in runs)
    return {
        "n": len(latencies),
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "throughput": len(latencies) / wall,
        "errors": sum(len(r["errors"]) for r in runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--shots", type=int, default=150, help="per client and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--long", type=int, default=500, help="events in the shot-5/500 frames")
    parser.add_argument("--long-frames", type=int, default=3)
    args = parser.parse_args()
    workers = int(os.environ.get("BENCH_WORKERS", "2"))
    threads = int(os.environ.get("BENCH_THREADS", "4"))

    load_before = os.getloadavg()[0]
    ensure_database(ENV["DATABASE_URL"])
    setup_django()
    username, match_id, frame_ids, setup = seed(args.clients * args.rounds + args.long_frames)
    per_frame = args.shots + 5
    plans = [plausible_events(per_frame, setup, seed) for seed in range(len(frame_ids))]
    long_plans = [plausible_events(args.long, setup, 1000 + i) for i in range(args.long_frames)]

    port = free_port()
    server = start_gunicorn(port, workers, threads)
    try:
        phones = [Phone(port) for _ in range(args.clients)]
        for phone in phones:
            phone.login(username)
        events_path = "/api/frames/{}/events/".format
        bare_path = f"/api/bench/matches/{match_id}/insert/"

        def shot_jobs(round_no: int, start: int, count: int):
            jobs = []
            for i in range(args.clients):
                fid = frame_ids[round_no * args.clients + i]
                plan = plans[round_no * args.clients + i]
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
        for r in range(args.rounds):
            run_concurrent(phones, shot_jobs(r, 0, 5))
        run_concurrent(phones, bare_jobs(5))
        shots, bare = [], []
        for r in range(args.rounds):
            bare.append(run_concurrent(phones, bare_jobs(args.shots)))
            shots.append(run_concurrent(phones, shot_jobs(r, 5, args.shots)))
        s, b = summary(shots), summary(bare)

        # Shot 5 against shot 500: one client alone, frames filled one event at a time.
        solo = phones[0]
        at: dict[int, list[float]] = {}
        base = args.clients * args.rounds
        for i, plan in enumerate(long_plans):
            fid = frame_ids[base + i]
            for seq, event in enumerate(plan, start=1):
                status, seconds = solo.post(
                    events_path(fid),
                    {"event_id": str(uuid.uuid4()), "expected_seq": seq, "payload": event},
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

    from django.db import connection

    print(
        f"\nMachine: {os.cpu_count()} cores; PostgreSQL {connection.pg_version // 10000}; "
        f"gunicorn gthread {workers} workers x {threads} threads; {args.clients} clients, "
        f"{args.rounds} rounds x {args.shots} requests each; keep-alive; DEBUG off; "
        f"load average before {load_before:.1f}, after {os.getloadavg()[0]:.1f} (the load "
        "generator runs on the same cores)."
    )
    if s["errors"] or b["errors"]:
        print(f"warning: non-2xx answers: shots {s['errors']}, baseline {b['errors']}")
        print("  e.g.", next((p.last_error for p in phones if p.last_error), b"").decode())
    print()
    print("| Measurement | p50 | p95 | Throughput |")
    print("| --- | --- | --- | --- |")
    print(
        f"| Shot entry (POST an event, {args.clients} clients) | {s['p50']:.1f} ms | "
        f"{s['p95']:.1f} ms | {s['throughput']:.0f} events/s |"
    )
    print(
        f"| Bare authenticated single insert (same clients) | {b['p50']:.1f} ms | "
        f"{b['p95']:.1f} ms | {b['throughput']:.0f} req/s |"
    )
    print(
        f"| Ratio shot / baseline | {s['p50'] / b['p50']:.2f}x | {s['p95'] / b['p95']:.2f}x | "
        f"{b['throughput'] / s['throughput']:.2f}x slower |"
    )
    print(
        f"| Shot 5 vs shot {args.long}, one client ({args.long_frames} frames, median) | "
        f"{shot5:.2f} ms vs {shot500:.2f} ms | ratio {shot500 / shot5:.2f} | "
        f"shots 1-10 {early:.2f} ms, {args.long - 9}-{args.long} {late:.2f} ms "
        f"(ratio {late / early:.2f}) |"
    )


if __name__ == "__main__":
    main()
