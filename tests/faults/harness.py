"""Private services for the fault tests: a PostgreSQL cluster and a Redis of their own (on
free ports of 127.0.0.1, in a temporary directory), and gunicorn with the production
configuration. The shared servers are never stopped: these are the ones the tests break."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = ROOT / ".venv" / "bin"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing(what: str) -> None:
    """Skip with a clear reason, or fail in CI (which installs everything)."""
    if IN_CI:
        pytest.fail(f"{what} (CI must install it)")
    pytest.skip(what)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, process: subprocess.Popen | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"{process.args[0]} exited ({process.returncode})") from None
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def tool(name: str) -> str:
    return str(BIN / name) if (BIN / name).exists() else name


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
    """Stop a process we started (and its group: gunicorn's workers), by its own pid."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


class PrivatePostgres:
    """initdb into a temporary directory and pg_ctl on a free port (as the postgres user
    when we are root: PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            missing("PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin)")
        self.bindir = Path(found[-1]).parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="marker-fault-pg-"))
        self.dir.chmod(0o755)
        self.data = self.dir / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/marker_fault"

    def run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.prefix, str(self.bindir / program), *args],
            check=True,
            capture_output=True,
            cwd=self.dir,
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=on"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self) -> None:
        import psycopg

        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE marker_fault")

    def close(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """redis-server on a free port; stop() and start() again on the same port and data
    directory (appendonly: what it held comes back, as a production Redis's does)."""

    def __init__(self) -> None:
        if not shutil.which("redis-server"):
            missing("redis-server is missing (Debian's redis-server package)")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="marker-fault-redis-"))
        self.process: subprocess.Popen | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                "--dir", str(self.dir), "--logfile", str(self.dir / "log"),
            ],
            start_new_session=True,
        )  # fmt: skip
        wait_port(self.port, self.process)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The production settings (DEBUG off) for a process of ours on loopback."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "fault-tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-XYZ",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "WARNING",
        "GUNICORN_LOG_LEVEL": "warning",
        "PYTHONWARNINGS": "ignore:No directory at",
        **extra,
    }


def start_gunicorn(env: dict[str, str], config: str = "deploy/gunicorn.conf.py"):
    """gunicorn -c CONFIG on a free port; returns (process, base URL)."""
    port = free_port()
    process = subprocess.Popen(
        [tool("gunicorn"), "-c", str(ROOT / config)],
        env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
        cwd=ROOT,
        start_new_session=True,
    )
    wait_port(port, process)
    return process, f"http://127.0.0.1:{port}"


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def current_database_url() -> str:
    """The URL of the database this pytest run uses (a transactional test's rows are
    committed there, so processes of ours can see them)."""
    from django.db import connection

    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"
