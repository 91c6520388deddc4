"""The production layout, rehearsed on one machine (loopback only), under league-night load,
with one app server killed mid-run, and (`--layout full`, the default) the replica too.
Run it as `deploy/rehearse [options]`.

`--layout full` (deploy/rehearse_full.py) adds a PostgreSQL streaming replica that serves
the public pages, PgBouncer in transaction mode in front of the primary and the replica
(the app servers and workers connect through it), a third app server, and visitors
reading the public pages through nginx during the load; it kills the replica (at 40 % of
the load, or once the visitors have read 20 pages) and the app server (at half): the
visitors must see no error (their reads
fall back to the primary), nothing lost or doubled. `--layout simple` is the layout
below alone (two app servers, PostgreSQL directly).

What it starts, each its own process on free ports of 127.0.0.1, and stops at the end:
- Debian's nginx (installed with apt-get when missing and we are root) as a private
  instance: its own prefix, config, pid and logs, running deploy/nginx/marker.conf with only
  the lines marked "rehearse:" replaced (names, ports, certificate, static root, upstreams);
  a self-signed certificate made with openssl;
- two app servers: gunicorn -c deploy/gunicorn.conf.py (REHEARSE_WORKERS × REHEARSE_THREADS,
  default 2 × 8 each), the production settings (DEBUG off, TLS at nginx, Redis cache);
- a private Redis (redis-server on its own port, nothing saved): the broker and the cache;
- two Celery workers;
- one PostgreSQL database, `marker_rehearsal` (dropped and made afresh) on the server that
  DATABASE_URL names (default the local one on 5432); the server itself is never restarted.

Then: collectstatic, migrate; checks that nginx serves the health check, a static file with
the app's security headers, and redirects plain HTTP; runs bench/league_night.py through
nginx (HTTPS) and SIGKILLs the first app server (its whole process group) halfway; checks
that every shot the referees sent was acknowledged and the database holds exactly those
(none lost, none doubled), that every error a client saw was retried to success, that
nginx still answers after the kill, that the workers publish the season's tables, and that
nginx keeps the live poll's answer for a second (a HIT byte for byte the app's answer, a
304 from a held ETag, HTML never kept). Prints the figures; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"

from deploy import rehearse_full  # noqa: E402
from deploy.nginx_site import (  # noqa: E402
    find_nginx,
    free_port,
    log,
    nginx_site,
    wait_port,
)


def tool(name: str) -> str:
    local = VENV_BIN / name
    return str(local) if local.exists() else shutil.which(name) or name


def check_live_cache(origin: str, app: str, match_id: int) -> list[str]:
    """What nginx's live-poll cache must do (deploy/nginx/marker.conf): keep the app's
    answer for a second and serve it, byte for byte, to the polls of that second; answer
    a poll that holds the ETag with 304 itself; never keep what a browser asks as HTML."""
    path = f"/api/matches/{match_id}/live/"
    failures = []
    time.sleep(1.2)  # whatever the load left kept has expired
    first = fetch(f"{origin}{path}", {"Accept": "application/json"})
    second = fetch(f"{origin}{path}", {"Accept": "application/json"})
    direct = fetch(f"{app}{path}", {"Accept": "application/json", "X-Forwarded-Proto": "https"})
    cached = [answer[1].get("X-Cache-Status") for answer in (first, second)]
    if first[0] != 200 or second[0] != 200 or cached[1] != "HIT":
        failures.append(f"live poll through nginx: {first[0]}, {second[0]}; cache {cached}")
    elif not (first[2] == second[2] == direct[2]):
        failures.append("the live answer nginx kept is not the app's")
    etag = first[1].get("ETag", "")
    again = fetch(f"{origin}{path}", {"Accept": "application/json", "If-None-Match": etag})
    if again[0] != 304:
        failures.append(f"a live poll holding the ETag got {again[0]} from nginx, not 304")
    html = fetch(f"{origin}{path}", {"Accept": "text/html"})
    if html[1].get("X-Cache-Status") != "BYPASS":
        failures.append(f"a browser's HTML view of the live API was cached: {html[1]}")
    if not failures:
        log(f"live poll cache: {cached}, 304 on a held ETag, HTML bypassed")
    return failures


def fetch(url: str, headers: dict | None = None, timeout: float = 10) -> tuple[int, dict, bytes]:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=timeout) as r:
            return r.status, _headers(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, _headers(e.headers), e.read()


def _headers(message) -> dict[str, str]:
    """Every header, a repeated one's values joined (as a client sees them)."""
    out: dict[str, str] = {}
    for key, value in message.items():
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out


class Stack:
    """The processes we started, stopped in reverse order (each by its own pid/group)."""

    def __init__(self) -> None:
        self.processes: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, command: list[str], **kwargs) -> subprocess.Popen:
        process = subprocess.Popen(command, start_new_session=True, **kwargs)
        self.processes.append((name, process))
        return process

    def stop(self) -> None:
        for _name, process in reversed(self.processes):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        deadline = time.monotonic() + 20
        for name, process in reversed(self.processes):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log(f"{name} did not stop: SIGKILL")
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(timeout=5)


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--spectators", type=int, default=240)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--kill-at", type=float, help="seconds into the load (default: halfway)")
    p.add_argument(
        "--layout",
        choices=("full", "simple"),
        default="full",
        help="full: + streaming replica, PgBouncer, 3 app servers, visitors (default)",
    )
    p.add_argument("--kill-replica-at", type=float, help="seconds into the load (default: 40 %%)")
    p.add_argument(
        "--own-primary",
        action="store_true",
        help="full: run our own PostgreSQL primary (initdb) instead of DATABASE_URL's server",
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "REHEARSAL_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_rehearsal"
        ),
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return p.parse_args(argv)


def _cpu(*processes: Any) -> dict[int, int]:
    from bench.league_night import cpu_ticks, tree

    return cpu_ticks(tree([p.pid for p in processes if p is not None and p.poll() is None]))


def _spent(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU seconds spent between two samples (processes that started in between: all)."""
    from bench.league_night import CLK_TCK

    return sum(ticks - before.get(pid, 0) for pid, ticks in after.items()) / CLK_TCK


def check_full(seen: dict[str, Any], replica: Any, origin: str) -> list[str]:
    """The replica served public reads while it lived; its death was seen by no visitor."""
    failures = []
    visitors = seen.get("visitors")
    if visitors is None:
        return ["the visitors never started"]
    if visitors.errors:
        failures.append(f"visitors saw {len(visitors.errors)} errors, e.g. {visitors.errors[:5]}")
    if not visitors.latencies:
        failures.append("the visitors read no page")
    if "replica_killed" not in seen or replica.poll() is None:
        failures.append("the replica was not killed")
    elif seen.get("scans_after", 0) <= seen.get("scans_before", 0):
        failures.append("the replica served no read of the public pages before it died")
    # Every app process notices within a check or two (a hung check ends at PgBouncer's
    # query_wait_timeout): /healthz, whichever app answers, then says so.
    answers: list[bool] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (len(answers) >= 6 and not any(answers[-6:])):
        status, _, body = fetch(f"{origin}/healthz")
        answers.append(bool(status == 200 and json.loads(body)["replica"]["usable"]))
        time.sleep(0.3)
    if "replica_killed" in seen and any(answers[-6:]):
        failures.append(f"/healthz still shows the dead replica usable: {answers[-6:]}")
    return failures


def print_costs(figures: dict, seen: dict[str, Any], load_wall: float) -> None:
    """What a request cost (CPU), and the full layout's own figures."""
    cpu = figures.get("cpu_main") or {}
    rate = figures["shots_per_s"] + figures["polls_per_s"]
    if cpu and rate:
        print(
            f"Cost per request (main window, shots and polls together): app "
            f"{1000 * cpu['app'] / rate:.2f} ms CPU, nginx {1000 * cpu['proxy'] / rate:.2f} ms, "
            f"primary's backends {1000 * cpu['db'] / rate:.2f} ms ({rate:.0f} requests/s; "
            f"app {cpu['app']:.2f} cores, all postgres {cpu['pg']:.2f} cores)."
        )
    visitors = seen.get("visitors")
    if visitors is None:
        return
    from bench.league_night import pct

    reads = visitors.latencies
    lags = visitors.lags
    alive = seen.get("replica_alive_s", 0) - seen.get("visitors_started", 0)
    print(
        f"Visitors (no cookie, {visitors.readers} readers): {len(reads)} public pages read "
        f"({len(reads) / max(load_wall, 1):.1f}/s; p50 {pct(reads, 50):.0f} ms, p95 "
        f"{pct(reads, 95):.0f} ms), errors seen {len(visitors.errors)}; the replica served "
        f"{seen.get('scans_after', 0) - seen.get('scans_before', 0)} table/index scans "
        f"before it was killed."
    )
    if lags:
        print(
            f"Replica lag seen on /healthz while it lived: median {pct(lags, 50):.0f} ms, "
            f"max {max(lags) * 1000:.0f} ms ({len(lags)} samples); after its death /healthz "
            f"showed it unusable and the pages read the primary."
        )
    before = seen.get("cpu_before")
    if before and "cpu_replica" in seen and alive > 0:
        replica_s = _spent(before["replica"], seen["cpu_replica"])
        served = seen.get("reads_replica_lived", 0)
        print(
            f"Replica CPU while it lived ({alive:.0f} s): {replica_s / alive:.2f} cores, "
            f"{1000 * replica_s / max(served, 1):.1f} ms per public page read from it "
            f"({served} pages; WAL replay included)."
        )
    if before and "cpu_pgbouncer" in seen:
        span = seen["visitors_stopped"] - seen["visitors_started"]
        bouncer_s = _spent(before["pgbouncer"], seen["cpu_pgbouncer"])
        requests = rate * span + len(reads)
        print(
            f"PgBouncer CPU: {bouncer_s / span:.3f} cores, {1000 * bouncer_s / max(requests, 1):.3f} "
            f"ms per request ({requests:.0f} requests in {span:.0f} s)."
        )


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    full = args.layout == "full"
    if not urlsplit(args.database_url).path.lstrip("/").startswith("marker_rehearsal"):
        raise SystemExit("the rehearsal drops its database: name it marker_rehearsal*")
    nginx = find_nginx()
    workdir = Path(tempfile.mkdtemp(prefix="marker-rehearsal-"))
    workdir.chmod(0o755)  # nginx's workers (nobody) read the static files and certificate
    stack = Stack()
    failures: list[str] = []
    started = time.monotonic()
    load_before = os.getloadavg()
    try:
        # --- certificate, Redis, database, static files
        redis_port = free_port()
        redis = stack.start(
            "redis",
            [
                "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(workdir),
                "--logfile", str(workdir / "redis.log"),
            ],
        )  # fmt: skip
        wait_port(redis_port, redis, "redis-server")
        https_port, http_port = free_port(), free_port()
        origin = f"https://127.0.0.1:{https_port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": "rehearsal-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-ABC",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CSRF_TRUSTED_ORIGINS": origin,
            "SITE_URL": origin,
            "DATABASE_URL": args.database_url,
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis_port}/0",
            "CACHE_URL": f"redis://127.0.0.1:{redis_port}/1",
            "TRUSTED_PROXY_COUNT": "1",
            "STATIC_ROOT": str(workdir / "static"),
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING",
            "GUNICORN_LOG_LEVEL": "warning",
            "WEB_CONCURRENCY": os.environ.get("REHEARSE_WORKERS", "2"),
            "GUNICORN_THREADS": os.environ.get("REHEARSE_THREADS", "8"),
        }
        env.pop("MARKER_BENCH_ENDPOINTS", None)
        for name in ("DATABASE_REPLICA_URL", "DATABASE_POOLER", "DATABASE_PREPARED_STATEMENTS"):
            env.pop(name, None)
        database = urlsplit(args.database_url).path.lstrip("/")
        if full and args.own_primary:
            bin_dir = rehearse_full.server_bin(args.database_url)
            own_primary, own_port = rehearse_full.start_primary(stack, workdir, bin_dir)
            args.database_url = (
                urlsplit(args.database_url)
                ._replace(netloc=f"postgres@127.0.0.1:{own_port}")
                .geturl()
            )
            env["DATABASE_URL"] = args.database_url
        log(f"database {database}: fresh; migrate")
        recreate_database(args.database_url)
        python = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
        manage = [python, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], check=True, env=env, cwd=ROOT)
        log("collectstatic")
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], check=True, env=env, cwd=ROOT
        )

        # --- full: the replica and PgBouncer; the app servers and workers go through it
        app_env = env
        replica: Any = None
        pgbouncer: Any = None
        replica_port = 0
        pgbouncer_version = ""
        if full:
            replica, replica_port = rehearse_full.start_replica(
                stack, workdir, args.database_url, database
            )
            pgbouncer, pgbouncer_port, pgbouncer_version = rehearse_full.start_pgbouncer(
                stack, workdir, args.database_url, database, replica_port, pool_size=20
            )
            pooled = urlsplit(args.database_url)._replace(
                netloc=f"{urlsplit(args.database_url).username or 'postgres'}@127.0.0.1:{pgbouncer_port}"
            )
            app_env = {
                **env,
                "DATABASE_URL": pooled.geturl(),
                "DATABASE_REPLICA_URL": pooled._replace(path=f"/{database}_replica").geturl(),
                "DATABASE_POOLER": "pgbouncer",
            }

        # --- the app servers (three in full, else two), two workers
        app_ports = [free_port() for _ in range(3 if full else 2)]
        apps = []
        for n, port in enumerate(app_ports, start=1):
            apps.append(
                stack.start(
                    f"app{n}",
                    [tool("gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py")],
                    env={**app_env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
                    cwd=ROOT,
                )
            )
        for n in (1, 2):
            stack.start(
                f"worker{n}",
                [
                    tool("celery"), "-A", "config", "worker", "--loglevel", "WARNING",
                    "--concurrency", "1", "--without-gossip", "--without-mingle",
                    "-n", f"rehearsal{n}@%h",
                ],
                env=app_env,
                cwd=ROOT,
                stdout=open(workdir / f"worker{n}.log", "w"),  # noqa: SIM115
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        for n, (port, app) in enumerate(zip(app_ports, apps, strict=True), start=1):
            wait_port(port, app, f"app server {n}")
        # Each worker's first request imports the views (seconds on a busy machine).
        for port in app_ports:
            for _ in range(int(env["WEB_CONCURRENCY"])):
                fetch(f"http://127.0.0.1:{port}/healthz", timeout=120)

        # --- nginx with the production site, rehearsed
        nginx_cmd = nginx_site(nginx, workdir, app_ports, https_port, http_port)
        proxy = stack.start("nginx", [*nginx_cmd, "-g", "daemon off;"])
        wait_port(https_port, proxy, "nginx")
        log(f"nginx {origin} -> app servers on {app_ports}; Redis :{redis_port}; 2 workers")
        if full:
            # Each app process looks at the replica in a thread of its own, first when it
            # is first asked: until then (and whenever it cannot) it reads the primary.
            deadline = time.monotonic() + 30
            while True:
                status, _, body = fetch(f"{origin}/healthz")
                state = json.loads(body).get("replica") if status == 200 else None
                if (state and state.get("usable")) or time.monotonic() > deadline:
                    break
                time.sleep(0.3)
            if not state or not state.get("usable"):
                failures.append(f"/healthz does not show a usable replica: {body[:200]!r}")

        # --- what nginx serves itself
        status, headers, body = fetch(f"{origin}/healthz")
        if status != 200 or not json.loads(body).get("ok"):
            failures.append(f"/healthz through nginx: {status} {body[:200]!r}")
        status, headers, _ = fetch(f"http://127.0.0.1:{http_port}/pad/")
        if status != 301 or not headers.get("Location", "").startswith("https://"):
            failures.append(f"plain HTTP is not redirected to HTTPS: {status}")
        css = next((workdir / "static" / "css").glob("marker.*.css"), None)
        if css is None:
            failures.append("collectstatic wrote no hashed marker.css")
        else:
            status, headers, _ = fetch(
                f"{origin}/static/css/{css.name}", {"Accept-Encoding": "gzip"}
            )
            lowered = {k.lower(): v for k, v in headers.items()}
            wanted = (
                "content-security-policy",
                "strict-transport-security",
                "x-content-type-options",
            )
            if (
                status != 200
                or any(h not in lowered for h in wanted)
                or "immutable" not in lowered.get("cache-control", "")
            ):
                failures.append(f"static file from nginx: {status} {sorted(lowered)}")  # fmt: skip
            if "server" in lowered and "nginx" not in lowered["server"].lower():
                failures.append("the static file was not served by nginx")

        # --- the league-night load through nginx, one app server killed halfway
        kill_at = args.kill_at if args.kill_at is not None else args.seconds / 2
        killed: dict[str, float] = {}

        def kill_app1() -> None:
            log(f"SIGKILL app server 1 (pid {apps[0].pid} and its workers)")
            os.killpg(apps[0].pid, signal.SIGKILL)
            killed["at"] = time.monotonic()

        # --- full: visitors on the public pages; the replica killed before the app server
        kill_replica_at = (
            args.kill_replica_at if args.kill_replica_at is not None else args.seconds * 0.4
        )
        seen: dict[str, Any] = {}
        visitors_reading = threading.Event()

        def start_visitors() -> None:
            from frames.models import Match
            from leagues.models import Season

            season = Season.objects.select_related("league").order_by("-pk").first()
            match = Match.objects.filter(fixture__season=season).order_by("pk").first()
            assert season is not None and match is not None
            slug = season.league.slug
            candidates = [
                "/", f"/{slug}/", f"/{slug}/seasons/{season.pk}/", f"/{slug}/tonight/",
                f"/{slug}/matches/{match.pk}/", f"/matches/{match.pk}/",
            ]  # fmt: skip
            pages = [
                p for p in candidates if fetch(f"{origin}{p}", {"Accept": "text/html"})[0] == 200
            ]
            log(f"visitors read {pages}")
            if len(pages) < 3:
                failures.append(f"fewer than 3 public pages answer 200: {pages} of {candidates}")
            seen["scans_before"] = rehearse_full.replica_reads(replica_port, database)
            seen["cpu_before"] = {"replica": _cpu(replica), "pgbouncer": _cpu(pgbouncer)}
            seen["visitors_started"] = time.monotonic()
            seen["visitors"] = visitors = rehearse_full.Visitors(fetch, origin, pages or ["/"])
            visitors.start()
            visitors_reading.set()

        def kill_replica() -> None:
            # Not before the visitors have read from it a while (slow on a busy machine).
            visitors_reading.wait(timeout=120)
            deadline = time.monotonic() + 30
            while len(seen["visitors"].latencies) < 20 and time.monotonic() < deadline:
                time.sleep(0.2)
            seen["scans_after"] = rehearse_full.replica_reads(replica_port, database)
            seen["cpu_replica"] = _cpu(replica)
            seen["reads_replica_lived"] = len(seen["visitors"].latencies)
            seen["replica_alive_s"] = time.monotonic()
            log(f"SIGKILL the replica (pid {replica.pid} and its processes)")
            os.killpg(replica.pid, signal.SIGKILL)
            seen["replica_killed"] = time.monotonic()

        schedule = [(kill_at, kill_app1)]
        if full:
            schedule = [(0.0, start_visitors), (kill_replica_at, kill_replica), *schedule]

        os.environ.update({k: v for k, v in env.items() if k not in ("WEB_CONCURRENCY",)})
        from bench import league_night

        bench_args = [
            "--url", origin, "--app-pids", ",".join(str(app.pid) for app in apps),
            "--proxy-pids", str(proxy.pid),
            "--frames", str(args.frames), "--spectators", str(args.spectators),
            "--seconds", str(args.seconds), "--json", str(workdir / "figures.json"),
        ]  # fmt: skip
        log(f"league night through nginx: {' '.join(bench_args)}; kill at {kill_at:.0f} s")
        load_started = time.monotonic()
        try:
            code = league_night.main(bench_args, schedule=schedule)
        finally:
            if "visitors" in seen:
                seen["visitors"].finish()
                seen["cpu_pgbouncer"] = _cpu(pgbouncer)
                seen["visitors_stopped"] = time.monotonic()
        load_wall = time.monotonic() - load_started
        figures = json.loads((workdir / "figures.json").read_text())
        if full:
            failures.extend(check_full(seen, replica, origin))
        if code != 0:
            failures.append("the league-night run found lost, doubled or unfinished shots")
        if figures["lost_or_doubled"] or figures["unfinished"]:
            failures.append(f"shots lost/doubled {figures['lost_or_doubled']}, unfinished {figures['unfinished']}")  # fmt: skip
        if "at" not in killed or apps[0].poll() is None:
            failures.append("app server 1 was not killed")
        status, _, _ = fetch(f"{origin}/healthz")
        if status != 200:
            failures.append(f"/healthz after the kill: {status}")

        # --- the workers: publish the season the bench seeded
        import django

        django.setup()
        from leagues import publishing
        from leagues.models import Publication, Season

        season = Season.objects.order_by("-pk").first()
        if season is None:
            raise SystemExit("the league-night run seeded no season")
        publication = publishing.publication_request(season=season)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            publication.refresh_from_db()
            if publication.state in (Publication.State.DONE, Publication.State.FAILED):
                break
            time.sleep(0.5)
        if publication.state != Publication.State.DONE:
            failures.append(f"the workers did not publish the tables: {publication.state}")
        else:
            log(f"workers published the tables: {publication.step}")

        # --- the live poll's micro-cache (the load is over: the answers no longer change)
        from frames.models import Match

        match = Match.objects.filter(fixture__season=season).order_by("pk").first()
        if match is None:
            raise SystemExit("the league-night run seeded no match")
        failures.extend(check_live_cache(origin, f"http://127.0.0.1:{app_ports[1]}", match.pk))

        elapsed = time.monotonic() - started
        print()
        database_layout = (
            f"PgBouncer {pgbouncer_version} (transaction pooling) -> PostgreSQL primary + "
            f"streaming replica (SIGKILLed at "
            f"{seen.get('replica_killed', load_started) - load_started:.0f} s)"
            if full
            else "PostgreSQL"
        )
        print(
            f"Rehearsal: nginx (TLS, HTTP/2) -> {len(apps)} app servers (gunicorn gthread "
            f"{env['WEB_CONCURRENCY']} x {env['GUNICORN_THREADS']} each) -> {database_layout}, "
            f"Redis, 2 Celery workers; {args.frames} frames, {args.spectators} spectators, "
            f"{args.seconds:.0f} s, app server 1 SIGKILLed at {kill_at:.0f} s; "
            f"{elapsed:.0f} s in all; load average before {load_before[0]:.2f}, "
            f"after {os.getloadavg()[0]:.2f}."
        )
        print(
            f"Shots {figures['shots_per_s']:.1f}/s (p50 {figures['shot_p50']:.0f} ms, p95 "
            f"{figures['shot_p95']:.0f} ms, p99 {figures['shot_p99']:.0f} ms); polls "
            f"{figures['polls_per_s']:.1f}/s (p50 {figures['poll_p50']:.0f} ms, p95 "
            f"{figures['poll_p95']:.0f} ms, p99 {figures['poll_p99']:.0f} ms); errors seen by "
            f"clients {figures['errors']}, shots retried to success "
            f"{figures['retried_to_success']}, unfinished {figures['unfinished']}, answered "
            f"from the stored shot (a resend) {figures['shot_replays']}, lost or doubled "
            f"{figures['lost_or_doubled']}."
        )
        print_costs(figures, seen, load_wall)
    except BaseException as exc:
        failures.append(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        try:  # our own connections, or the primary waits for them
            from django.conf import settings as django_settings
            from django.db import connections as django_connections

            if django_settings.configured:
                django_connections.close_all()
        except Exception:  # the report matters more than the clean-up
            pass
        stack.stop()
        if failures:
            for name in (
                "error.log",
                "worker1.log",
                "worker2.log",
                "replica.log",
                "pg/pgbouncer.log",
            ):
                path = workdir / name
                if path.exists() and path.stat().st_size:
                    print(f"--- {name} (last lines)")
                    print("\n".join(path.read_text().splitlines()[-15:]))
        try:
            from django.conf import settings as django_settings

            if django_settings.configured:
                from django.db import connections

                connections.close_all()
            if not (full and args.own_primary):
                drop_database(args.database_url)
        except Exception as exc:  # the report matters more than the clean-up
            log(f"could not drop the rehearsal database: {exc}")
        if args.keep:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print("\nREHEARSAL FAILED:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print("\nREHEARSAL PASSED: no shot lost or doubled; every error was retried to success.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
