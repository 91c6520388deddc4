"""What `deploy/rehearse --layout full` adds to the rehearsal (deploy/rehearse.py): a
PostgreSQL streaming replica, PgBouncer in transaction mode in front of both servers, and
visitors reading the public pages (which the replica serves) through nginx.

- The replica: `pg_basebackup -R` of the local server (DATABASE_URL's) into the work
  directory, run by Debian's binaries (/usr/lib/postgresql/<major>/bin/postgres) on a free
  port of 127.0.0.1, streaming from the primary. The primary must accept replication
  connections from 127.0.0.1: when it refuses and we are root, a `host replication all
  127.0.0.1/32 trust` line is added to its pg_hba.conf and the configuration reloaded (it
  is said; the server is never restarted).
- PgBouncer (Debian's; `apt-get install pgbouncer` when missing and we are root) with its
  own configuration in the work directory: transaction pooling, a database for the
  primary and one for the replica.
- Visitors: a few threads reading public pages (the league's home, its season, tonight's
  matches, a match) over HTTPS through nginx with no cookies, and one watching /healthz
  for the replica's lag.

Run as root, the servers run as the `postgres` user (PostgreSQL and PgBouncer refuse root).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from deploy.nginx_site import free_port, log, wait_port

REPLICATION_LINE = "host replication all 127.0.0.1/32 trust"


def _as_postgres() -> dict[str, Any]:
    """Popen arguments that run a server as `postgres` when we are root."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres", "extra_groups": []}


def _chown_postgres(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _admin(url: str) -> str:
    return urlsplit(url)._replace(path="/postgres").geturl()


def server_bin(url: str) -> Path:
    import psycopg

    with psycopg.connect(_admin(url), autocommit=True) as conn:
        row = conn.execute("SHOW server_version_num").fetchone()
        version = int(row[0]) if row else 0
    found = Path(f"/usr/lib/postgresql/{version // 10000}/bin")
    if not (found / "postgres").exists():
        raise SystemExit(f"no PostgreSQL {version // 10000} server binaries in {found}")
    return found


def allow_replication(url: str) -> None:
    """Let 127.0.0.1 make replication connections to the primary (trust, as the rest)."""
    import psycopg

    with psycopg.connect(_admin(url), autocommit=True) as conn:
        allowed = conn.execute(
            "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) "
            "AND (address IS NULL OR address = '127.0.0.1' OR address = '0.0.0.0')"
        ).fetchone()
        if allowed and allowed[0]:
            return
        found = conn.execute("SHOW hba_file").fetchone()
        hba = Path(found[0] if found else "pg_hba.conf")
        if os.geteuid() != 0 or not os.access(hba, os.W_OK):
            raise SystemExit(
                f"the primary refuses replication from 127.0.0.1: add `{REPLICATION_LINE}` "
                f"to {hba} and reload PostgreSQL"
            )
        log(f"{hba}: adding `{REPLICATION_LINE}` and reloading PostgreSQL's configuration")
        with hba.open("a") as f:
            f.write(f"\n# deploy/rehearse: the rehearsal's streaming replica\n{REPLICATION_LINE}\n")
        conn.execute("SELECT pg_reload_conf()")
        time.sleep(0.5)


def start_primary(stack: Any, workdir: Path, bin_dir: Path) -> tuple[Any, int]:
    """`--own-primary`: a PostgreSQL of our own (initdb in `workdir/pg/primary`, a free
    port), for a machine whose server is shared: there, other sessions' long transactions
    with many savepoints keep a new hot standby from opening (it waits for a snapshot it
    can trust) for as long as they last."""
    base = workdir / "pg"
    base.mkdir(exist_ok=True)
    _chown_postgres(base)
    data = base / "primary"
    subprocess.run(
        [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
         "--no-sync", "-E", "UTF8", "--locale", "C"],
        check=True, capture_output=True, **_as_postgres(),
    )  # fmt: skip
    port = free_port()
    with (data / "postgresql.conf").open("a") as f:
        f.write(
            f"\nlisten_addresses = '127.0.0.1'\nport = {port}\n"
            f"unix_socket_directories = '{base}'\nwal_level = replica\nmax_wal_senders = 5\n"
            "fsync = off\nmax_connections = 200\nshared_buffers = 64MB\n"
        )
    with (data / "pg_hba.conf").open("a") as f:
        f.write(f"host all all 127.0.0.1/32 trust\n{REPLICATION_LINE}\n")
    process = stack.start(
        "primary",
        [str(bin_dir / "postgres"), "-D", str(data)],
        stdout=open(workdir / "primary.log", "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
        **_as_postgres(),
    )
    wait_port(port, process, "the primary")
    import psycopg

    deadline = time.monotonic() + 60
    while True:
        try:
            psycopg.connect(f"postgres://postgres@127.0.0.1:{port}/postgres").close()
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(
                    f"our primary did not start (see {workdir / 'primary.log'})"
                ) from None
            time.sleep(0.3)
    log(f"our own primary :{port} (initdb)")
    return process, port


def start_replica(stack: Any, workdir: Path, primary_url: str, database: str) -> tuple[Any, int]:
    """A streaming replica of the primary in `workdir/pg/replica`, on a free port; returns
    (its process, its port) once it answers for `database` in recovery."""
    import psycopg

    bin_dir = server_bin(primary_url)
    allow_replication(primary_url)
    base = workdir / "pg"
    base.mkdir(exist_ok=True)
    _chown_postgres(base)
    data = base / "replica"
    primary = urlsplit(primary_url)
    with psycopg.connect(_admin(primary_url), autocommit=True) as conn:
        limits = {
            name: (conn.execute(f"SHOW {name}").fetchone() or ("",))[0]
            for name in (
                "max_connections", "max_worker_processes", "max_wal_senders",
                "max_prepared_transactions", "max_locks_per_transaction",
            )
        }  # fmt: skip
    started = time.monotonic()
    subprocess.run(
        [
            str(bin_dir / "pg_basebackup"), "-h", primary.hostname or "127.0.0.1",
            "-p", str(primary.port or 5432), "-U", primary.username or "postgres",
            "-D", str(data), "-X", "stream", "-R", "-c", "fast", "--no-sync",
        ],
        check=True,
        capture_output=True,
        **_as_postgres(),
    )  # fmt: skip
    port = free_port()
    settings = "\n".join(f"{k} = {v}" for k, v in limits.items())
    (data / "postgresql.conf").write_text(
        f"""listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{base}'
hot_standby = on
fsync = off
logging_collector = off
{settings}
"""
    )
    (data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
    for name in ("postgresql.conf", "pg_hba.conf"):
        _chown_postgres(data / name)
    process = stack.start(
        "replica",
        [str(bin_dir / "postgres"), "-D", str(data)],
        stdout=open(workdir / "replica.log", "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
        **_as_postgres(),
    )
    wait_port(port, process, "the replica")
    url = primary._replace(netloc=f"{primary.username or 'postgres'}@127.0.0.1:{port}")
    replica_url = url._replace(path=f"/{database}").geturl()
    deadline = time.monotonic() + 60
    while True:
        try:
            with psycopg.connect(replica_url, autocommit=True, connect_timeout=2) as conn:
                if (conn.execute("SELECT pg_is_in_recovery()").fetchone() or (False,))[0]:
                    break
        except psycopg.OperationalError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            why = ""
            if "consistent recovery state reached" in (workdir / "replica.log").read_text():
                why = (
                    ": it is consistent but waits for a snapshot, which long transactions "
                    "with many savepoints on the primary withhold (a shared server: "
                    "--own-primary)"
                )
            raise SystemExit(f"the replica did not open{why} (see {workdir / 'replica.log'})")
        time.sleep(0.3)
    log(f"replica :{port} streaming from the primary ({time.monotonic() - started:.1f} s)")
    return process, port


def find_pgbouncer() -> str:
    found = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None)  # fmt: skip
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("pgbouncer is required: apt-get install pgbouncer")
    log("installing pgbouncer (apt-get)")
    made_policy = not Path("/usr/sbin/policy-rc.d").exists()
    if made_policy:  # keep Debian from starting its system service
        Path("/usr/sbin/policy-rc.d").write_text("#!/bin/sh\nexit 101\n")
        Path("/usr/sbin/policy-rc.d").chmod(0o755)
    try:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "pgbouncer"]
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(install, env=env, check=True, capture_output=True)
    finally:
        if made_policy:
            Path("/usr/sbin/policy-rc.d").unlink()
    return shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def pgbouncer_version(binary: str) -> str:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    return out.split("\n")[0].replace("PgBouncer", "").strip() or "?"


def start_pgbouncer(
    stack: Any,
    workdir: Path,
    primary_url: str,
    database: str,
    replica_port: int,
    pool_size: int,
) -> tuple[Any, int, str]:
    """PgBouncer in transaction mode: `database` on the primary, `<database>_replica` on the
    replica. Returns (its process, its port, its version)."""
    binary = find_pgbouncer()
    version = pgbouncer_version(binary)
    primary = urlsplit(primary_url)
    user = primary.username or "postgres"
    base = workdir / "pg"
    port = free_port()
    (base / "userlist.txt").write_text(f'"{user}" ""\n')
    (base / "pgbouncer.ini").write_text(
        f"""[databases]
{database} = host={primary.hostname or "127.0.0.1"} port={primary.port or 5432} dbname={database}
{database}_replica = host=127.0.0.1 port={replica_port} dbname={database}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {base}/userlist.txt
admin_users = {user}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = {pool_size}
max_db_connections = {pool_size}
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
server_connect_timeout = 2
server_login_retry = 1
query_wait_timeout = 5
logfile = {base}/pgbouncer.log
pidfile = {base}/pgbouncer.pid
log_connections = 0
log_disconnections = 0
log_stats = 0
"""
    )
    for name in ("userlist.txt", "pgbouncer.ini"):
        _chown_postgres(base / name)
    process = stack.start("pgbouncer", [binary, str(base / "pgbouncer.ini")], **_as_postgres())
    wait_port(port, process, "pgbouncer")
    log(f"PgBouncer {version} :{port}, transaction pooling, {pool_size} server connections per database")  # fmt: skip
    return process, port, version


def replica_reads(replica_port: int, database: str) -> int:
    """Table and index scans the replica has served on `database`'s tables (its own
    statistics: what the public pages read from it)."""
    import psycopg

    url = f"postgres://postgres@127.0.0.1:{replica_port}/{database}"
    with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables"
        ).fetchone()
    return int(row[0]) if row else 0


class Visitors:
    """Threads reading public pages through nginx with no cookies (what the replica
    serves), and one reading /healthz for the replica's lag; every answer's status kept."""

    def __init__(self, fetch: Any, origin: str, pages: list[str], readers: int = 3) -> None:
        self.fetch = fetch
        self.origin = origin
        self.pages = pages
        self.readers = readers
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.lags: list[float] = []
        self.replica_usable: list[tuple[float, bool]] = []
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        for k in range(self.readers):
            self.threads.append(threading.Thread(target=self._read, args=(k,), daemon=True))
        self.threads.append(threading.Thread(target=self._health, daemon=True))
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _read(self, k: int) -> None:
        n = k
        while not self.stop.is_set():
            page = self.pages[n % len(self.pages)]
            n += 1
            t0 = time.monotonic()
            try:
                status, _, _ = self.fetch(f"{self.origin}{page}", {"Accept": "text/html"})
            except Exception as exc:  # a network error is an error a visitor saw
                status, page = 0, f"{page} ({type(exc).__name__})"
            with self.lock:
                if status == 200:
                    self.latencies.append(time.monotonic() - t0)  # seconds
                else:
                    self.errors.append(f"{status} {page}")
            self.stop.wait(0.2)

    def _health(self) -> None:
        import json

        while not self.stop.is_set():
            try:
                status, _, body = self.fetch(f"{self.origin}/healthz")
                state = json.loads(body).get("replica") if status == 200 else None
            except Exception:
                state = None
            if state is not None:
                with self.lock:
                    self.replica_usable.append((time.monotonic(), bool(state["usable"])))
                    if state.get("lag_seconds") is not None:
                        self.lags.append(float(state["lag_seconds"]))
            self.stop.wait(0.5)
