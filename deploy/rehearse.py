"""The production layout, rehearsed on one machine (loopback only), under league-night load,
with one app server killed mid-run. Run it as `deploy/rehearse [options]`.

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
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"

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


def fetch(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=10) as r:
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
        "--database-url",
        default=os.environ.get(
            "REHEARSAL_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/marker_rehearsal"
        ),
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
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
        log(f"database {urlsplit(args.database_url).path.lstrip('/')}: fresh; migrate")
        recreate_database(args.database_url)
        python = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
        manage = [python, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], check=True, env=env, cwd=ROOT)
        log("collectstatic")
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], check=True, env=env, cwd=ROOT
        )

        # --- two app servers, two workers
        app_ports = [free_port(), free_port()]
        apps = []
        for n, port in enumerate(app_ports, start=1):
            apps.append(
                stack.start(
                    f"app{n}",
                    [tool("gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py")],
                    env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
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
                env=env,
                cwd=ROOT,
                stdout=open(workdir / f"worker{n}.log", "w"),  # noqa: SIM115
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        for n, (port, app) in enumerate(zip(app_ports, apps, strict=True), start=1):
            wait_port(port, app, f"app server {n}")

        # --- nginx with the production site, rehearsed
        nginx_cmd = nginx_site(nginx, workdir, app_ports, https_port, http_port)
        proxy = stack.start("nginx", [*nginx_cmd, "-g", "daemon off;"])
        wait_port(https_port, proxy, "nginx")
        log(f"nginx {origin} -> app servers on {app_ports}; Redis :{redis_port}; 2 workers")

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

        os.environ.update({k: v for k, v in env.items() if k not in ("WEB_CONCURRENCY",)})
        from bench import league_night

        bench_args = [
            "--url", origin, "--app-pids", f"{apps[0].pid},{apps[1].pid}",
            "--proxy-pids", str(proxy.pid),
            "--frames", str(args.frames), "--spectators", str(args.spectators),
            "--seconds", str(args.seconds), "--json", str(workdir / "figures.json"),
        ]  # fmt: skip
        log(f"league night through nginx: {' '.join(bench_args)}; kill at {kill_at:.0f} s")
        code = league_night.main(bench_args, schedule=[(kill_at, kill_app1)])
        figures = json.loads((workdir / "figures.json").read_text())
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
        print(
            f"Rehearsal: nginx (TLS, HTTP/2) -> 2 app servers (gunicorn gthread "
            f"{env['WEB_CONCURRENCY']} x {env['GUNICORN_THREADS']} each), PostgreSQL, Redis, "
            f"2 Celery workers; {args.frames} frames, {args.spectators} spectators, "
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
    except BaseException as exc:
        failures.append(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        stack.stop()
        if failures:
            for name in ("error.log", "worker1.log", "worker2.log"):
                path = workdir / name
                if path.exists() and path.stat().st_size:
                    print(f"--- {name} (last lines)")
                    print("\n".join(path.read_text().splitlines()[-15:]))
        try:
            from django.conf import settings as django_settings

            if django_settings.configured:
                from django.db import connections

                connections.close_all()
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
