"""League night on one machine: many frames scored at once while spectators poll the live
pages, through the real HTTP stack (loopback only; bounded in count and time).

    .venv/bin/python bench/league_night.py                      # 200 frames, 800 spectators, 300 s
    .venv/bin/python bench/league_night.py --nginx              # ... through nginx, as deployed
    .venv/bin/python bench/league_night.py --nginx --runs 5     # five runs: medians, spread
    .venv/bin/python bench/league_night.py --frames 20 --spectators 80 --seconds 20   # quick
    .venv/bin/python bench/league_night.py --url https://127.0.0.1:8443 --app-pids 123,456

Seeds its own data in DATABASE_URL (default postgres://postgres@127.0.0.1:5432/marker_bench,
created and migrated if needed): a league, a season, `frames / frames-per-match` matches in
play, each with its referee (a player with a signed-in session) and its frames of bar
billiards; then runs `ANALYZE`. Without --url it starts gunicorn itself with
deploy/gunicorn.conf.py (gthread; BENCH_WORKERS × BENCH_THREADS, default 4 × 8) and the
production settings (DEBUG off); the cache is Redis (--cache-url, default db 9 of the
local Redis) when one answers, as in production. With --nginx it also puts a private
nginx running deploy/nginx/marker.conf (TLS; the live poll's one-second cache) in front of
that gunicorn, as deploy/rehearse does, and the clients speak HTTPS to it: the production
layout on one machine. With --url, run it in the server's environment (SECRET_KEY,
DATABASE_URL, CACHE_URL): the referees' sessions it makes must be the server's
(deploy/rehearse does this).

Then, for `seconds`:
- each frame's referee posts a legal shot every 1–2 s through the pad's API, as the pad
  does: a fresh event id (the idempotency key) and the next sequence number; on a network
  error, a 5xx or a 429 it sends the same event again after a back-off (1 s doubling,
  with jitter), so a shot ends acknowledged (201, or 200 for a replay) exactly once;
- each spectator watches one match's live page as a browser does: GET the live JSON with
  If-None-Match (the ETag it holds), wait 2 s after the answer, again.

Every response's status is checked: anything but 2xx/304 is an error (and a shot's error
is retried). Prints shots/s, polls/s, p50/p95/p99 per kind, errors, and the CPU split
(from /proc) between the app (gunicorn processes), nginx (with --nginx), the database (the
PostgreSQL backends serving this database, and every postgres process) and the generator
itself. At the end it
checks that the database holds exactly the shots the referees saw acknowledged, in order:
none lost, none doubled (exit 1 otherwise). `--split S` then measures S seconds of shots
alone and S of polls alone, for the CPU each costs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import machine_speed, med, pg_version  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/marker_bench"
DEFAULT_CACHE = "redis://127.0.0.1:6379/9"
GAME = "bar_billiards_4pin"
SETUP = {"sides": ["home", "away"], "players": {"home": ["Hal"], "away": ["Ada"]}}
CLK_TCK = os.sysconf("SC_CLK_TCK")
SERVER_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "0",
    "SECRET_KEY": "league-night-bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
    "LOG_LEVEL": "WARNING",
    "GUNICORN_LOG_LEVEL": "warning",
    # whitenoise warns once per worker when collectstatic has not run (the API needs none).
    "PYTHONWARNINGS": "ignore:No directory at",
}


# ------------------------------------------------------------------- the data


def redis_answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(migrate: bool = True) -> None:
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)


@dataclass
class Night:
    """What the seed made: frames (id, match id, referee's cookies), matches."""

    frames: list[tuple[int, int, int]]  # (frame id, match id, referee index)
    matches: list[int]
    sessions: list[str]  # session keys, one per referee
    stamp: str


def seed(frames: int, per_match: int) -> Night:
    """A league whose season has `ceil(frames / per_match)` matches in play; each match's
    frames are refereed by one player, signed in (a session made as login() makes it)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from frames.models import Frame, Match
    from leagues.models import Division, Fixture, League, Player, Season, Team, Venue

    stamp = uuid.uuid4().hex[:8]
    User = get_user_model()
    n_matches = -(-frames // per_match)
    with transaction.atomic():
        league = League.objects.create(name=f"League night {stamp}", slug=f"night-{stamp}")
        season = Season.objects.create(
            league=league, name="Night", slug=f"night-{stamp}", status=Season.Status.RUNNING
        )
        division = Division.objects.create(season=season, name="Night")
        venue = Venue.objects.create(name=f"The Night Owl {stamp}")
        users = User.objects.bulk_create(
            [User(username=f"night-{stamp}-{k}") for k in range(3 * n_matches)]
        )
        referees = users[:n_matches]
        captains = users[n_matches:]
        players = Player.objects.bulk_create(
            [Player(user=u, name=f"Referee {k} {stamp}") for k, u in enumerate(referees)]
        )
        teams = Team.objects.bulk_create(
            [
                Team(
                    season=season,
                    division=division,
                    name=f"Team {k} {stamp}",
                    venue=venue,
                    captain=captains[k],
                )
                for k in range(2 * n_matches)
            ]
        )
        fixtures = Fixture.objects.bulk_create(
            [
                Fixture(
                    season=season,
                    division=division,
                    round=1,
                    home=teams[2 * k],
                    away=teams[2 * k + 1],
                    venue=venue,
                )
                for k in range(n_matches)
            ]
        )
        matches = Match.objects.bulk_create(
            [Match(fixture=f, status=Match.Status.IN_PLAY, game_id=GAME) for f in fixtures]
        )
        made = Frame.objects.bulk_create(
            [
                Frame(
                    match=matches[k // per_match],
                    number=k % per_match + 1,
                    order=k % per_match + 1,
                    kind="singles",
                    game_id=GAME,
                    referee=players[k // per_match],
                    setup=SETUP,
                )
                for k in range(frames)
            ]
        )
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = []
    for user in referees:
        session = store()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return Night(
        frames=[(f.pk, matches[k // per_match].pk, k // per_match) for k, f in enumerate(made)],
        matches=[m.pk for m in matches],
        sessions=keys,
        stamp=stamp,
    )


def plans(count: int, shots: int) -> list[list[dict]]:
    """For each frame, `shots` events the engine accepts in order (the bar stays up: the
    frame goes on), from rules.simulate; frames share a few plans to keep this quick."""
    from rules import Timeline
    from rules.simulate import plausible_event

    distinct = []
    for n in range(min(count, 16)):
        rng = random.Random(n)
        timeline = Timeline(GAME, SETUP)
        plan: list[dict] = []
        while len(plan) < shots:
            event = plausible_event(rng, timeline.state)
            timeline.push(event)
            plan.append(event)
        distinct.append(plan)
    return [distinct[k % len(distinct)] for k in range(count)]


# ------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, env: dict[str, str]) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "-c",
        str(ROOT / "deploy" / "gunicorn.conf.py"),
    ]
    if not Path(command[0]).exists():
        command[0:1] = [sys.executable, "-m", "gunicorn"]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("gunicorn did not start") from None
            time.sleep(0.05)
    raise SystemExit("gunicorn did not open its port")


def start_nginx(app_port: int, https_port: int) -> tuple[Path, subprocess.Popen]:
    """A private nginx running the production site (deploy/nginx/marker.conf, as
    deploy/rehearse runs it) on `https_port`, in front of the app server on `app_port`."""
    from deploy.nginx_site import find_nginx, nginx_site, wait_port

    workdir = Path(tempfile.mkdtemp(prefix="marker-night-"))
    workdir.chmod(0o755)  # nginx's workers (nobody) read the certificate
    command = nginx_site(find_nginx(), workdir, [app_port], https_port, free_port())
    proxy = subprocess.Popen(
        [*command, "-g", "daemon off;"], start_new_session=True, stdout=subprocess.DEVNULL
    )
    wait_port(https_port, proxy, f"nginx (see {workdir}/error.log)", timeout=30)
    return workdir, proxy


# ------------------------------------------------------------------- CPU from /proc


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree(pids: list[int]) -> list[int]:
    """The processes and all their descendants."""
    kids = _children()
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def named(name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    comm = f.read().strip()
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    first = f.read().split(b"\0", 1)[0].decode(errors="replace")
            except OSError:
                continue
            if comm == name or first.startswith(name):
                found.append(int(entry))
    return found


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    """utime + stime of each process still running, in clock ticks."""
    ticks = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks[pid] = int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return ticks


def db_backends(database_url: str) -> list[int]:
    """The PostgreSQL backends connected to this run's database (the app's connections)."""
    import psycopg

    parts = urlsplit(database_url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (parts.path.lstrip("/"),),
        ).fetchall()
    return [r[0] for r in rows]


class CpuMeter:
    """CPU seconds spent between start() and stop() by the app, the database and us."""

    def __init__(
        self, app_pids: list[int], database_url: str, proxy_pids: list[int] | None = None
    ) -> None:
        self.app_roots = app_pids
        self.proxy_roots = proxy_pids or []
        self.database_url = database_url

    def _sample(self) -> dict[str, dict[int, int]]:
        return {
            "app": cpu_ticks(tree(self.app_roots)),
            "proxy": cpu_ticks(tree(self.proxy_roots)),
            "db": cpu_ticks(db_backends(self.database_url)),
            "pg": cpu_ticks(named("postgres")),
        }

    def start(self) -> None:
        self.before = self._sample()
        self.self_before = resource.getrusage(resource.RUSAGE_SELF)
        self.t0 = time.monotonic()

    def stop(self) -> dict[str, float]:
        after = self._sample()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        wall = time.monotonic() - self.t0
        out = {"wall": wall}
        for kind in ("app", "proxy", "db", "pg"):
            # Processes that came and went in between are missed; those that started are
            # counted from zero (a new backend, a respawned worker).
            spent = sum(t - self.before[kind].get(pid, 0) for pid, t in after[kind].items())
            out[kind] = spent / CLK_TCK
        out["generator"] = (usage.ru_utime + usage.ru_stime) - (
            self.self_before.ru_utime + self.self_before.ru_stime
        )
        return out


# ------------------------------------------------------------------- the clients


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"shot": [], "poll": []})
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    retried_to_success: int = 0
    unfinished: int = 0
    notes: list[str] = field(default_factory=list)

    def error(self, kind: str, what: str) -> None:
        self.errors[f"{kind} {what}"] += 1
        if len(self.notes) < 8:
            self.notes.append(f"{kind}: {what}")


def _client(base: str, *, connections: int = 1) -> aiohttp.ClientSession:
    import aiohttp

    context: ssl.SSLContext | bool = False  # loopback, self-signed: no verification
    connector = aiohttp.TCPConnector(
        limit=connections, ssl=context, keepalive_timeout=30, force_close=False
    )
    return aiohttp.ClientSession(
        base_url=base,
        connector=connector,
        cookie_jar=aiohttp.DummyCookieJar(),
        timeout=aiohttp.ClientTimeout(total=60),
        auto_decompress=True,
    )


def _cookies(response, jar: dict[str, str]) -> None:
    for header in response.headers.getall("Set-Cookie", []):
        name, _, rest = header.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0]


class Referee:
    """One phone scoring one or more frames: its session, its CSRF token, one connection."""

    def __init__(self, base: str, session_cookie: str, session_key: str) -> None:
        self.base = base
        self.jar = {session_cookie: session_key}
        self.http: aiohttp.ClientSession | None = None
        self.raw = RawHTTP(base)  # the shots, one at a time (one phone, one connection)
        self.turn = asyncio.Lock()
        self.origin = base.rstrip("/")

    async def open(self, tally: Tally) -> None:
        self.http = _client(self.base)
        for attempt in range(30):
            try:
                async with self.http.get("/api/pad/session/", headers=self._headers()) as r:
                    body = await r.read()
                    if r.status == 200:
                        _cookies(r, self.jar)
                        data = json.loads(body)
                        if not data["authenticated"]:
                            raise SystemExit("a referee's session is not signed in")
                        self.token = data["csrf_token"]
                        return
                    tally.error("session", str(r.status))
            except (TimeoutError, OSError) as exc:
                tally.error("session", type(exc).__name__)
            await asyncio.sleep(min(5, 0.2 * 2**attempt))
        raise SystemExit("could not open a referee's session")

    def _headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.jar.items())}

    async def post(self, path: str, payload: dict) -> tuple[int, bytes]:
        headers = {
            **self._headers(),
            "Content-Type": "application/json",
            "X-CSRFToken": self.token,
            "Origin": self.origin,
        }
        async with self.turn:
            status, _, body = await self.raw.request(
                "POST", path, headers, json.dumps(payload).encode()
            )
        return status, body

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()
        self.raw.close()


async def score_frame(
    referee: Referee,
    frame_id: int,
    plan: list[dict],
    stop_at: float,
    give_up_at: float,
    tally: Tally,
    acked: list[tuple[int, str]],
    rng: random.Random,
    gate: Callable[[], bool],
) -> None:
    """Shots every 1–2 s until stop_at; a shot started is retried (the same event id) until
    it is acknowledged or give_up_at passes."""
    path = f"/api/frames/{frame_id}/events/"
    await asyncio.sleep(rng.uniform(0, 2))
    seq = 0
    while time.monotonic() < stop_at and seq < len(plan):
        if not gate():
            await asyncio.sleep(0.5)
            continue
        seq += 1
        event_id = str(uuid.uuid4())
        event = {
            "event_id": event_id,
            "expected_seq": seq,
            "payload": plan[seq - 1],
            "device_id": f"night-{frame_id}",
        }
        backoff, failed = 1.0, False
        while True:
            started = time.perf_counter()
            try:
                status, body = await referee.post(path, event)
            except Exception as exc:  # a dropped connection, a refused one, a time-out
                status, body = 0, type(exc).__name__.encode()
            elapsed = time.perf_counter() - started
            tally.statuses[f"shot {status}"] += 1
            if status in (200, 201):
                tally.latencies["shot"].append(elapsed)
                acked.append((seq, event_id))
                tally.retried_to_success += failed
                break
            tally.error("shot", f"{status} {body[:120]!r}" if status else body.decode())
            if status in (400, 403, 404, 409, 422):  # the pad stops and asks the referee
                tally.notes.append(f"frame {frame_id} stopped at seq {seq}: {status}")
                return
            failed = True
            if time.monotonic() > give_up_at:
                tally.unfinished += 1
                return
            await asyncio.sleep(backoff * rng.uniform(0.5, 1.5))
            backoff = min(backoff * 2, 30.0)
        await asyncio.sleep(rng.uniform(1.0, 2.0))


_tls: ssl.SSLContext | None = None


def _loopback_tls() -> ssl.SSLContext:
    """One TLS context for every connection (making one loads the system's certificates,
    tens of milliseconds that would stall the event loop once per client); loopback and
    a self-signed certificate: nothing to verify."""
    global _tls
    if _tls is None:
        _tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        _tls.check_hostname = False
        _tls.verify_mode = ssl.CERT_NONE
    return _tls


class RawHTTP:
    """One keep-alive HTTP/1.1 connection (a spectator's, a referee's): a request and its
    whole answer.

    The generator shares the two cores with the server it measures, and aiohttp spent
    about half a millisecond of CPU on each poll; this client spends a fraction of that.
    It reads a body by Content-Length, chunked, or to the connection's end; anything
    unexpected closes the connection (the next poll opens a new one) and is raised."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.tls = _loopback_tls() if parts.scheme == "https" else None
        self.head = f"Host: {parts.netloc}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        try:
            async with asyncio.timeout(60):
                return await self._request(method, path, headers, body)
        except BaseException:
            self.close()
            raise

    async def _request(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, ssl=self.tls
            )
        reader, writer = self.reader, self.writer
        assert reader is not None
        if body:
            headers = {**headers, "Content-Length": str(len(body))}
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        writer.write(f"{method} {path} HTTP/1.1\r\n{self.head}{extra}\r\n".encode() + body)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            raise ConnectionResetError("closed before a whole answer") from exc
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(None, 2)[1])
        answer: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                answer[name.strip().lower()] = value.strip()
        if status in (204, 304) or status < 200:
            body = b""
        elif "content-length" in answer:
            body = await reader.readexactly(int(answer["content-length"]))
        elif answer.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                data = await reader.readexactly(size + 2)
                if size == 0:
                    break
                chunks.append(data[:-2])
            body = b"".join(chunks)
        else:
            body = await reader.read()
            answer["connection"] = "close"
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def spectate(
    base: str, match_id: int, stop_at: float, tally: Tally, rng: random.Random, gate
) -> None:
    """A browser on the live page: poll every 2 s (after the previous answer) with
    If-None-Match."""
    path = f"/api/matches/{match_id}/live/"
    etag = None
    http = RawHTTP(base)
    await asyncio.sleep(rng.uniform(0, 2))
    while time.monotonic() < stop_at:
        if gate():
            headers: dict[str, str] = {"If-None-Match": etag} if etag else {}
            started = time.perf_counter()
            answer: dict[str, str] = {}
            try:
                status, answer, body = await http.request("GET", path, headers)
                if status == 200:
                    etag = answer.get("etag")
                    if not body.startswith(b"{"):
                        status, body = 0, b"ValueError: not a JSON body"
            except Exception as exc:
                status, body = 0, type(exc).__name__.encode()
            elapsed = time.perf_counter() - started
            tally.statuses[f"poll {status}"] += 1
            if status in (200, 304):
                tally.latencies["poll"].append(elapsed)
                if answer.get("x-cache-status") in ("HIT", "UPDATING"):
                    tally.statuses["poll answered by nginx's cache"] += 1
            else:
                tally.error("poll", f"{status} {body[:120]!r}" if status else body.decode())
        await asyncio.sleep(2.0)
    http.close()


@dataclass
class Load:
    base: str
    frames: int
    spectators: int
    seconds: float
    per_match: int = 2
    grace: float = 90.0
    schedule: list[tuple[float, Callable[[], None]]] = field(default_factory=list)


async def run_load(
    load: Load, night: Night, meter: CpuMeter, session_cookie: str, split: float = 0.0
) -> dict:
    """Drive the load; returns the tally, the CPU split, what each frame had acknowledged."""
    tally = Tally()
    shot_plans = plans(load.frames, int(load.seconds + 3 * split) + 10)
    referees = [Referee(load.base, session_cookie, key) for key in night.sessions]
    for referee in referees:
        await referee.open(tally)
    tally.errors.clear()
    tally.notes.clear()
    acked: dict[int, list[tuple[int, str]]] = {fid: [] for fid, _, _ in night.frames}
    phases = {"shots": True, "polls": True}
    measure_for = load.seconds + 2 * split
    t0 = time.monotonic()
    stop_at = t0 + measure_for
    rng = random.Random(42)
    tasks = [
        asyncio.create_task(
            score_frame(
                referees[ref],
                fid,
                shot_plans[k],
                stop_at,
                stop_at + load.grace,
                tally,
                acked[fid],
                random.Random(rng.random()),
                lambda: phases["shots"],
            )
        )
        for k, (fid, _, ref) in enumerate(night.frames)
    ]
    tasks += [
        asyncio.create_task(
            spectate(
                load.base,
                night.matches[k % len(night.matches)],
                stop_at,
                tally,
                random.Random(rng.random()),
                lambda: phases["polls"],
            )
        )
        for k in range(load.spectators)
    ]
    loop = asyncio.get_running_loop()

    async def scheduled(at: float, action: Callable[[], None]) -> None:
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        await loop.run_in_executor(None, action)

    side = [asyncio.create_task(scheduled(at, action)) for at, action in load.schedule]

    # The main run, then (with --split) shots alone and polls alone.
    windows: dict[str, dict] = {}
    await asyncio.sleep(min(5.0, load.seconds / 10))  # warm-up: connections, caches
    counts = lambda: (len(tally.latencies["shot"]), len(tally.latencies["poll"]))  # noqa: E731
    c0 = counts()
    meter.start()
    await asyncio.sleep(max(0.0, t0 + load.seconds - time.monotonic()))
    c1 = counts()
    windows["main"] = {
        **meter.stop(),
        "counts": [b - a for a, b in zip(c0, c1, strict=True)],
        "range": list(zip(c0, c1, strict=True)),  # which answers the main window holds
    }
    for name, on in (("shots alone", "shots"), ("polls alone", "polls")):
        if split <= 0:
            break
        phases.update(shots=on == "shots", polls=on == "polls")
        await asyncio.sleep(2.5)  # let the other kind's last requests finish
        c0 = counts()
        meter.start()
        await asyncio.sleep(split - 2.5)
        windows[name] = {
            **meter.stop(),
            "counts": [b - a for a, b in zip(c0, counts(), strict=True)],
        }
    phases.update(shots=False, polls=False)
    await asyncio.gather(*tasks)
    await asyncio.gather(*side)
    for referee in referees:
        await referee.close()
    return {"tally": tally, "windows": windows, "acked": acked}


# ------------------------------------------------------------------- the check


def verify(acked: dict[int, list[tuple[int, str]]]) -> list[str]:
    """The database holds exactly the acknowledged shots of each frame, in order."""
    from frames.models import Frame, FrameEvent

    problems = []
    rows: dict[int, list[tuple[int, str]]] = {fid: [] for fid in acked}
    for frame_id, seq, event_id in (
        FrameEvent.objects.filter(frame_id__in=list(acked))
        .order_by("frame_id", "seq")
        .values_list("frame_id", "seq", "event_id")
    ):
        rows[frame_id].append((seq, str(event_id)))
    last = dict(Frame.objects.filter(pk__in=list(acked)).values_list("pk", "last_seq"))
    for frame_id, mine in acked.items():
        stored = rows[frame_id]
        if stored != mine:
            lost = set(mine) - set(stored)
            extra = set(stored) - set(mine)
            problems.append(
                f"frame {frame_id}: {len(mine)} acknowledged, {len(stored)} stored "
                f"({len(lost)} lost, {len(extra)} not acknowledged or doubled)"
            )
        elif last[frame_id] != len(mine):
            problems.append(f"frame {frame_id}: last_seq {last[frame_id]} != {len(mine)}")
    return problems


# ------------------------------------------------------------------- the report


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


def report(load: Load, result: dict, problems: list[str], header: str) -> dict:
    tally: Tally = result["tally"]
    main = result["windows"]["main"]
    wall = main["wall"]
    shots_n, polls_n = main["counts"]
    # The percentiles are the main window's: after the warm-up (every phone and browser
    # connecting within two seconds), before the split's lighter phases. The whole run's
    # are printed too.
    (s0, s1), (p0, p1) = main["range"]
    shots = tally.latencies["shot"][s0:s1]
    polls = tally.latencies["poll"][p0:p1]
    every_shot, every_poll = tally.latencies["shot"], tally.latencies["poll"]
    figures = {
        "shots_per_s": shots_n / wall,
        "polls_per_s": polls_n / wall,
        "shot_p50": pct(shots, 50),
        "shot_p95": pct(shots, 95),
        "shot_p99": pct(shots, 99),
        "poll_p50": pct(polls, 50),
        "poll_p95": pct(polls, 95),
        "poll_p99": pct(polls, 99),
        "whole_run": {
            "shots": len(every_shot),
            "polls": len(every_poll),
            "shot_p95": pct(every_shot, 95),
            "shot_p99": pct(every_shot, 99),
            "poll_p95": pct(every_poll, 95),
            "poll_p99": pct(every_poll, 99),
        },
        "errors": sum(tally.errors.values()),
        "retried_to_success": tally.retried_to_success,
        "unfinished": tally.unfinished,
        "lost_or_doubled": len(problems),
        # Shots answered 200: a retry (the phone's, or nginx resending to another app
        # server) of a shot already stored, given its stored answer.
        "shot_replays": tally.statuses["shot 200"],
    }
    print(header)
    print()
    print("| kind | requests | per second | p50 | p95 | p99 |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(
        f"| shot (POST an event) | {len(shots)} | {figures['shots_per_s']:.1f} | "
        f"{figures['shot_p50']:.1f} ms | {figures['shot_p95']:.1f} ms | "
        f"{figures['shot_p99']:.1f} ms |"
    )
    print(
        f"| live poll (If-None-Match) | {len(polls)} | {figures['polls_per_s']:.1f} | "
        f"{figures['poll_p50']:.1f} ms | {figures['poll_p95']:.1f} ms | "
        f"{figures['poll_p99']:.1f} ms |"
    )
    whole = figures["whole_run"]
    print(
        f"The main window ({wall:.0f} s after the warm-up); the whole run, warm-up and split "
        f"included: {whole['shots']} shots, p95 {whole['shot_p95']:.1f} ms, p99 "
        f"{whole['shot_p99']:.1f} ms; {whole['polls']} polls, p95 {whole['poll_p95']:.1f} ms, "
        f"p99 {whole['poll_p99']:.1f} ms."
    )
    print()
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(tally.statuses.items()))
    print(f"Answers: {answers}")
    print(
        f"Errors: {figures['errors']} (every one retried: {tally.retried_to_success} shots "
        f"retried to success, {tally.unfinished} unfinished)"
    )
    for note in tally.notes:
        print(f"  e.g. {note}")
    print()
    print("CPU (seconds of CPU per second of wall time; 1.0 = one core busy):")
    print(
        "| window | app (gunicorn) | proxy (nginx) | database (our backends) | all postgres "
        "| generator |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, w in result["windows"].items():
        print(
            f"| {name} ({w['wall']:.0f} s) | {w['app'] / w['wall']:.2f} | "
            f"{w['proxy'] / w['wall']:.2f} | {w['db'] / w['wall']:.2f} | "
            f"{w['pg'] / w['wall']:.2f} | {w['generator'] / w['wall']:.2f} |"
        )
    figures["cpu_main"] = {
        kind: main[kind] / wall for kind in ("app", "proxy", "db", "pg", "generator")
    }
    requests = shots_n + polls_n
    if main["app"] > 0:
        figures["requests_per_app_core_s"] = requests / main["app"]
        print(
            f"\nRequests per second per app core (main window): "
            f"{figures['requests_per_app_core_s']:.0f}"
        )
    for name, kind in (("shots alone", 0), ("polls alone", 1)):
        w = result["windows"].get(name)
        if w and w["counts"][kind]:
            n = w["counts"][kind]
            label = "shot" if kind == 0 else "poll"
            figures[f"app_ms_per_{label}"] = 1000 * w["app"] / n
            figures[f"db_ms_per_{label}"] = 1000 * w["db"] / n
            print(
                f"{name}: {n / w['wall']:.1f}/s; per {label}: app {figures[f'app_ms_per_{label}']:.2f} ms CPU, "
                f"database {figures[f'db_ms_per_{label}']:.2f} ms CPU"
            )
    print()
    if problems:
        print("LOST OR DOUBLED SHOTS:")
        for p in problems[:20]:
            print("  " + p)
    else:
        total = sum(len(v) for v in result["acked"].values())
        print(
            f"Checked: the database holds exactly the {total} acknowledged shots of "
            f"{len(result['acked'])} frames, in order (none lost, none doubled)."
        )
    return figures


# ------------------------------------------------------------------- several runs

RUNS_FIGURES = (
    # (label, key in a run's figures, digits)
    ("shots/s", "shots_per_s", 1),
    ("shot p50 (ms)", "shot_p50", 1),
    ("shot p95 (ms)", "shot_p95", 1),
    ("shot p99 (ms)", "shot_p99", 1),
    ("polls/s", "polls_per_s", 1),
    ("poll p50 (ms)", "poll_p50", 1),
    ("poll p95 (ms)", "poll_p95", 1),
    ("poll p99 (ms)", "poll_p99", 1),
    ("app CPU (cores)", "cpu_main.app", 2),
    ("nginx CPU (cores)", "cpu_main.proxy", 2),
    ("database CPU (cores)", "cpu_main.db", 2),
    ("generator CPU (cores)", "cpu_main.generator", 2),
    ("machine speed before (s)", "machine_speed_s.0", 2),
    ("machine speed after (s)", "machine_speed_s.1", 2),
)


def _figure(figures: dict, key: str) -> float:
    value: Any = figures
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return float(value)


def summarise(runs: list[dict]) -> str:
    """The runs' figures as 'median (min–max)', and the totals that must be zero."""
    lines = [
        f"\n{len(runs)} runs: median (lowest–highest)",
        "",
        "| figure | median (lowest–highest) |",
        "| --- | --- |",
    ]
    for label, key, digits in RUNS_FIGURES:
        lines.append(f"| {label} | {med([_figure(run, key) for run in runs], digits)} |")
    stored = sum(run["whole_run"]["shots"] for run in runs)
    lines += [
        "",
        f"Errors in all: {sum(run['errors'] for run in runs)}; unfinished shots: "
        f"{sum(run['unfinished'] for run in runs)}; lost or doubled: "
        f"{sum(run['lost_or_doubled'] for run in runs)} of {stored} acknowledged shots.",
    ]
    return "\n".join(lines)


def one_run(argv: list[str], out: Path) -> list[str]:
    """The command for one of the repeated runs: the same arguments, once (argparse keeps
    an option's last value), its figures written to `out`."""
    return [sys.executable, __file__, *argv, "--runs", "1", "--json", str(out)]


def repeat(argv: list[str], runs: int) -> int:
    """Run the bench `runs` times, each in a fresh process (its own seed, server and
    nginx), print each run's report and then the medians with their spread."""
    figures, failed = [], 0
    with tempfile.TemporaryDirectory(prefix="league-night-") as tmp:
        for k in range(runs):
            out = Path(tmp) / f"run{k}.json"
            print(f"\n## Run {k + 1} of {runs}", flush=True)
            failed += subprocess.call(one_run(argv, out)) != 0
            if out.exists():
                figures.append(json.loads(out.read_text()))
    if figures:
        print(summarise(figures))
    if failed:
        print(f"{failed} of {runs} runs failed (see their reports)")
    return 1 if failed else 0


# ------------------------------------------------------------------- main


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--spectators", type=int, default=800)
    p.add_argument("--seconds", type=float, default=300)
    p.add_argument("--frames-per-match", type=int, default=2, help="frames in play per match")
    p.add_argument(
        "--nginx",
        action="store_true",
        help="put a private nginx with deploy/nginx/marker.conf (TLS, the live poll's "
        "1 s cache) in front of the bench's gunicorn: the production layout",
    )
    p.add_argument("--url", help="a running server (e.g. the rehearsal's nginx); loopback only")
    p.add_argument("--app-pids", default="", help="with --url: the app servers' master pids")
    p.add_argument("--proxy-pids", default="", help="with --url: nginx's master pid")
    p.add_argument("--cache-url", default=os.environ.get("CACHE_URL", DEFAULT_CACHE))
    p.add_argument("--split", type=float, default=0, help="then S s of shots, S s of polls")
    p.add_argument("--grace", type=float, default=90, help="s to finish shots in flight")
    p.add_argument("--json", help="write the figures to this file")
    p.add_argument(
        "--runs",
        type=int,
        default=1,
        help="run the whole bench N times (each in a fresh process), then print each "
        "figure's median and spread",
    )
    return p


def loopback_only(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise SystemExit(f"refusing to load {host}: loopback only")


def main(argv: list[str] | None = None, schedule=None) -> int:
    args = parser().parse_args(argv)
    if args.runs > 1:
        if schedule or args.json:
            raise SystemExit("--runs repeats the bench alone: no --json, no schedule")
        return repeat(sys.argv[1:] if argv is None else argv, args.runs)
    database_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    env = dict(SERVER_ENV, DATABASE_URL=database_url)
    if args.cache_url and redis_answers(args.cache_url):
        env["CACHE_URL"] = args.cache_url
    if args.url:  # the server's own environment decides; we only need its session engine
        env = {k: os.environ[k] for k in ("CACHE_URL",) if k in os.environ} | {
            "DATABASE_URL": database_url
        }
        for key, value in SERVER_ENV.items():
            os.environ.setdefault(key, value)
    os.environ.update(env)
    load_before = os.getloadavg()
    speed_before = machine_speed()
    ensure_database(database_url)
    setup_django()
    from django.conf import settings
    from django.db import connection

    started = time.monotonic()
    night = seed(args.frames, args.frames_per_match)
    seeded = time.monotonic() - started
    connection.close()
    server = proxy = None
    proxy_pids: list[int] = []
    workdir = None
    if args.url:
        loopback_only(args.url)
        base = args.url
        app_pids = [int(p) for p in args.app_pids.split(",") if p.strip()]
        proxy_pids = [int(p) for p in args.proxy_pids.split(",") if p.strip()]
    else:
        port = free_port()
        env.setdefault("WEB_CONCURRENCY", os.environ.get("BENCH_WORKERS", "4"))
        env.setdefault("GUNICORN_THREADS", os.environ.get("BENCH_THREADS", "8"))
        env.setdefault("GUNICORN_KEEPALIVE", "30")
        https_port = free_port() if args.nginx else None
        if https_port is None:
            base = f"http://127.0.0.1:{port}"
        else:
            base = f"https://127.0.0.1:{https_port}"
            # As production runs behind nginx: TLS there, HTTPS required by the app.
            env.update(SECURE_SSL_REDIRECT="1", TRUSTED_PROXY_COUNT="1", CSRF_TRUSTED_ORIGINS=base)
        server = start_gunicorn(port, env)
        app_pids = [server.pid]
        if https_port is not None:
            workdir, proxy = start_nginx(port, https_port)
            proxy_pids = [proxy.pid]
    load = Load(
        base=base,
        frames=args.frames,
        spectators=args.spectators,
        seconds=args.seconds,
        per_match=args.frames_per_match,
        grace=args.grace,
        schedule=list(schedule or []),
    )
    meter = CpuMeter(app_pids, database_url, proxy_pids)
    try:
        result = asyncio.run(run_load(load, night, meter, settings.SESSION_COOKIE_NAME, args.split))
    finally:
        for process in (proxy, server):
            if process is not None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
    problems = verify(result["acked"])
    speed = machine_speed()
    workers = env.get("WEB_CONCURRENCY", "?")
    threads = env.get("GUNICORN_THREADS", "?")
    served_by = f"gunicorn gthread {workers} x {threads}"
    if proxy:
        served_by = f"nginx with deploy/nginx/marker.conf (TLS) in front of {served_by}"
    header = (
        f"\nLeague night: {args.frames} frames ({len(night.matches)} matches, "
        f"{args.frames_per_match} frames each), {args.spectators} spectators, "
        f"{args.seconds:.0f} s; target {base}"
        + (f" ({served_by}, started by the bench)" if server else "")
        + f"; PostgreSQL {pg_version()}; {os.cpu_count()} cores; "
        f"cache {'Redis' if 'CACHE_URL' in env else 'local memory'}; seeded in {seeded:.1f} s; "
        f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}; machine speed before and "
        f"after: {speed_before:.2f} s and {speed:.2f} s of CPU for 10 million additions in "
        "Python (lower is faster). The generator runs on the same cores."
    )
    figures = report(load, result, problems, header)
    figures["load_before"] = load_before
    figures["machine_speed_s"] = [speed_before, speed]
    figures["load_after"] = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, default=str))
    return 1 if problems or result["tally"].unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
