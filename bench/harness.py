"""What the HTTP benches share: the machine line, the database (created, migrated,
ANALYZEd), gunicorn on loopback with the bench's own settings, a keep-alive client that
checks every answer's status, and figures as medians of several runs with their spread.

Not a bench itself (`make bench` runs `bench/bench_*.py`).
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlencode, urlsplit

if TYPE_CHECKING:
    from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/marker_bench"
PASSWORD = "bench-password-not-secret-42"
# The cache (and so the sessions, `cached_db`) on Redis, as in production; BENCH_CACHE_URL=""
# runs without (local memory, database sessions).
DEFAULT_CACHE = "redis://127.0.0.1:6379/14"
LOAD_AT_START = os.getloadavg()


def bench_env(**extra: str) -> dict[str, str]:
    """The environment gunicorn and this process run with: production settings (DEBUG
    off) plus the bench's URLconf (`bench/settings_bench.py`), which routes the floors."""
    env = {
        "DATABASE_URL": os.environ.get("DATABASE_URL", DEFAULT_DB),
        "DJANGO_SETTINGS_MODULE": "bench.settings_bench",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
        "CACHE_URL": os.environ.get("BENCH_CACHE_URL", DEFAULT_CACHE),
    }
    env.update(extra)
    os.environ.update(env)
    return env


def machine_line() -> str:
    """Cores, CPU, load average when the bench started, and now."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    one, five, fifteen = LOAD_AT_START
    now = os.getloadavg()[0]
    return (
        f"Machine: {os.cpu_count()} cores ({cpu}); load average at start {one:.2f} / "
        f"{five:.2f} / {fifteen:.2f} (1/5/15 min), now {now:.2f}; Python "
        f"{platform.python_version()}"
    )


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


def analyze() -> None:
    """Planner statistics for what was just seeded (a fresh database has none)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def pg_version() -> str:
    """The PostgreSQL server's major version ("-" on another database)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return "-"
    # The vendor names the wrapper's class, which the stubs cannot narrow to.
    return str(cast("PostgresWrapper", connection).pg_version // 10000)


# --------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, env: dict[str, str], workers: int, threads: int) -> subprocess.Popen:
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
    server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env})
    for _ in range(400):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("gunicorn did not start") from None
            time.sleep(0.05)
    raise SystemExit("gunicorn did not open its port")


class BadStatus(SystemExit):
    """A request the bench made got an answer it did not expect: the bench stops."""


class Client:
    """One client: a keep-alive connection, cookies, the CSRF token; every request
    checks its status against what the caller expects."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        expect: Iterable[int],
        body: bytes | None = None,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, float, http.client.HTTPResponse]:
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            sent["Content-Type"] = content_type
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        sent.update(headers or {})
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                data = response.read()
                elapsed = time.perf_counter() - started
                break
            except (http.client.HTTPException, OSError):
                # A keep-alive connection the server closed: reconnect once (a POST is
                # only retried when the server never answered it).
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        expected = set(expect)
        if response.status not in expected:
            raise BadStatus(
                f"{method} {path} answered {response.status}, expected "
                f"{sorted(expected)}: {data[:300]!r}"
            )
        return response.status, data, elapsed, response

    def login(self, username: str) -> None:
        _, data, _, _ = self.request("GET", "/api/pad/session/", expect={200})
        token = json.loads(data)["csrf_token"]
        form = urlencode(
            {
                "username": username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token,
                "next": "/api/pad/session/",
            }
        ).encode()
        self.request(
            "POST",
            "/accounts/login/",
            expect={302},
            body=form,
            content_type="application/x-www-form-urlencoded",
        )
        _, data, _, _ = self.request("GET", "/api/pad/session/", expect={200})
        if not json.loads(data)["authenticated"]:
            raise BadStatus("login did not hold")


# ---------------------------------------------------------------------- figures

#: The reference loop's size: ``machine_speed`` times this many additions in pure Python.
REFERENCE_ADDITIONS = 10_000_000


def machine_speed() -> float:
    """Seconds of CPU a fixed pure-Python loop takes here (10 million additions): the same
    machine type runs faster or slower from day to day, so the figures carry it. The one
    reference loop every bench uses (`league_night.py` prints it before and after a run;
    `bench_rules.py` divides its target by it)."""
    started = time.process_time()
    total = 0
    for k in range(REFERENCE_ADDITIONS):
        total += k
    return time.process_time() - started


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def med(values: Sequence[float], digits: int = 2) -> str:
    """'median (min–max)' of a figure's runs."""
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}–{max(values):.{digits}f})"
    )


def spread(values: Sequence[float]) -> float:
    """(max - min) / median, as a fraction."""
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle else 0.0


class CountingMail:
    """Django's local-memory email backend, counting the connections it opens (set
    EMAIL_BACKEND = "bench.harness.CountingMail")."""

    opened = 0

    def __new__(cls, *args, **kwargs):
        from django.core.mail.backends.locmem import EmailBackend

        class _Counting(EmailBackend):
            def open(self):
                CountingMail.opened += 1
                return super().open()

        return _Counting(*args, **kwargs)

    @classmethod
    def reset(cls) -> None:
        cls.opened = 0


# ------------------------------------------------------------------ CPU per request
#
# On a shared, loaded machine latency is mostly waiting for a core; the CPU time the
# server's processes spend is what a request costs. Measured from /proc: gunicorn's
# workers, and the PostgreSQL backends serving this database (Redis is shared with other
# users of the machine and is left out).


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _backends() -> list[int]:
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


class CpuMeter:
    """CPU seconds of the app (gunicorn's workers) and of the database (its backends for
    this database) between `start()` and `stop()`."""

    def __init__(self, server) -> None:
        self.server = server

    def sample(self) -> dict[int, tuple[str, float]]:
        pids = {p: "app" for p in _children(self.server.pid)}
        pids.update({p: "db" for p in _backends()})
        return {p: (kind, _cpu_seconds(p)) for p, kind in pids.items()}

    def start(self) -> None:
        self.before = self.sample()

    def stop(self) -> dict[str, float]:
        after = self.sample()
        used = {"app": 0.0, "db": 0.0}
        for pid, (kind, seconds) in after.items():
            used[kind] += seconds - self.before.get(pid, (kind, 0.0))[1]
        return used
