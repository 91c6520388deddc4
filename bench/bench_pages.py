"""The thousand-league bench (issue 33): each public page and API list, requested in-process
through Django's test client against a database `bench/thousand.py` generated, at 1 league
and at 1,000. Per page: p95 server time (wall, and this process's CPU beside it: the
machine is shared) and queries per request (`CaptureQueriesContext`), then pass/fail
against 50 ms p95 and a query count that does not grow with the data.

    .venv/bin/python bench/thousand.py --leagues 1 --database marker_thousand_1
    .venv/bin/python bench/thousand.py --leagues 1000 --history-seasons 9
    .venv/bin/python bench/bench_pages.py                         # both, 40 requests a page
    .venv/bin/python bench/bench_pages.py --small marker_thousand_1 --large marker_thousand -n 60

Each database is benched in its own process (Django connects to one). Production settings
(DEBUG off), the cache in local memory unless `BENCH_CACHE_URL` names a Redis. Server time
is the test client's request, middleware, view and template included; the client's own
work is a few tenths of a millisecond of it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SERVER = "postgres://postgres@127.0.0.1:5432"
TARGET_MS = 50.0


#: The reference loop's time on a quiet day (docs/scaling.md, 2026-11-27: 0.31 s).
QUIET_SPEED = 0.31


def machine_speed() -> tuple[float, float]:
    """Seconds (wall, CPU) a fixed pure-Python loop takes now, as 10 million additions
    (`league_night.machine_speed`'s loop, a tenth of it, times ten): how loaded and how
    fast the machine is at this moment."""
    wall, cpu = time.perf_counter(), time.process_time()
    total = 0
    for k in range(1_000_000):
        total += k
    return (time.perf_counter() - wall) * 10, (time.process_time() - cpu) * 10


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def pages() -> list[tuple[str, str]]:
    """(name, path) of every page benched, picked in the database in hand: a bar billiards
    league with one season (the fifth when there are five, so both databases bench the
    same shape), its first division, its cup, a player in two leagues when there is one."""
    from django.db.models import Count

    from competitions.models import Competition
    from leagues.models import Division, League, Player

    leagues = League.objects.order_by("id")
    league = leagues[4] if leagues.count() >= 5 else leagues[0]
    season = league.seasons.order_by("-id").first()
    assert season is not None
    division = Division.objects.filter(season=season).order_by("rank").first()
    cup = Competition.objects.filter(season=season).first()
    player = (
        Player.objects.annotate(n=Count("registrations__season__league", distinct=True))
        .filter(pk__lte=40)
        .order_by("-n", "pk")
        .first()
    )
    assert division is not None and cup is not None and player is not None
    town = league.town or league.name.split()[0]
    last = max(0, Player.objects.count() - 100)  # the deepest offset there is
    rows = [
        ("home (league list)", "/"),
        ("league list: search by name", "/?q=bar+billiards"),
        ("league list: search by town", f"/?q={town}"),
        ("league list: page 3", "/?page=3"),
        ("league front page", f"/{league.slug}/"),
        ("division table", f"/{league.slug}/divisions/{division.pk}/"),
        ("player page (across leagues)", f"/players/{player.pk}/"),
        ("ratings table (game)", f"/{league.slug}/ratings/"),
        ("cup bracket", f"/competitions/{cup.pk}/"),
        ("directory", "/where-to-play/"),
        ("API leagues", "/api/leagues/"),
        ("API leagues ?search", f"/api/leagues/?search={town}"),
        ("API seasons", "/api/seasons/"),
        ("API divisions", "/api/divisions/"),
        ("API venues", "/api/venues/"),
        ("API teams", "/api/teams/"),
        ("API players", "/api/players/"),
        ("API players, the last page", f"/api/players/?limit=100&offset={last}"),
        ("API fixtures", "/api/fixtures/"),
        ("API league ratings", f"/api/leagues/{league.pk}/ratings/"),
    ]
    ten = leagues.first()
    if ten is not None and ten.seasons.count() >= 10:
        rows.append(("league front page (10 seasons)", f"/{ten.slug}/"))
    return rows


def measure(database: str, n: int) -> dict[str, Any]:
    """Bench every page against one database: {name: {...}} (run in a child process)."""
    from bench.harness import bench_env

    os.environ.setdefault("BENCH_CACHE_URL", "")
    bench_env(
        DATABASE_URL=f"{SERVER}/{database}",
        ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    import django
    from django.conf import settings

    django.setup()
    # The static files' names as in production but without a collectstatic's manifest: a
    # plain storage (the manifest's lookup is a dictionary's).
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import Resolver404, resolve

    client = Client()
    out: dict[str, Any] = {}
    from leagues.models import League

    out["_leagues"] = League.objects.count()
    for name, path in pages():
        try:
            # The directory is another piece of work: absent until its URL is routed (the
            # league pages' catch-all `/<slug>/` takes it for a league's slug until then).
            absent = name == "directory" and resolve(path).url_name == "league-home"
        except Resolver404:
            absent = True
        if absent:
            out[name] = {"absent": True, "path": path}
            continue
        for _warm in range(3):
            response = client.get(path)
        if response.status_code != 200:
            out[name] = {"status": response.status_code, "path": path}
            continue
        walls, cpus, queries = [], [], []
        before = machine_speed()
        for _run in range(n):
            with CaptureQueriesContext(connection) as captured:
                wall, cpu = time.perf_counter(), time.process_time()
                response = client.get(path)
                cpu = time.process_time() - cpu
                wall = time.perf_counter() - wall
            assert response.status_code == 200, (path, response.status_code)
            walls.append(wall * 1000)
            cpus.append(cpu * 1000)
            queries.append(len(captured.captured_queries))
        after = machine_speed()
        speed_wall = (before[0] + after[0]) / 2
        speed_cpu = (before[1] + after[1]) / 2
        out[name] = {
            "path": path,
            "speed": speed_wall,
            "quiet95": p95(walls) * QUIET_SPEED / speed_wall,
            "quietcpu95": p95(cpus) * QUIET_SPEED / speed_cpu,
            "p95": p95(walls),
            "p50": statistics.median(walls),
            "cpu95": p95(cpus),
            "queries": max(queries),
            "bytes": len(response.content),
        }
    return out


def child(database: str, n: int) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, __file__, "--child", database, "-n", str(n)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "—"
    if row.get("absent"):
        return "absent"
    if "status" in row:
        return f"HTTP {row['status']}"
    return (
        f"{row['p95']:6.1f} {row['cpu95']:5.1f} {row['quiet95']:5.1f} {row['quietcpu95']:5.1f} "
        f"{row['queries']:>3}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", default="marker_thousand_1")
    parser.add_argument("--large", default="marker_thousand")
    parser.add_argument("-n", type=int, default=40, help="requests a page")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.n)))
        return 0
    from bench.harness import machine_line

    # A database's name, or a file holding a child's answer (`--child DB > file.json`).
    small, large = (
        json.loads(Path(db).read_text().strip().splitlines()[-1])
        if db.endswith(".json")
        else child(db, args.n)
        for db in (args.small, args.large)
    )
    print(machine_line())
    print(
        f"{args.n} requests a page. Each size: p95 wall and p95 CPU (this process) as measured, "
        f"then both as on a quiet machine (× {QUIET_SPEED} s / the reference loop's time "
        "measured around the page's requests), then queries a request. The verdict holds the "
        f"quiet wall p95 to {TARGET_MS:.0f} ms and the queries to no growth."
    )
    sizes = [f"at {small['_leagues']:,} leagues", f"at {large['_leagues']:,} leagues"]
    print(f"{'':<34}{sizes[0]:^33}  {sizes[1]:^33}")
    sub = f"{'wall':>6} {'cpu':>5} {'qwall':>5} {'qcpu':>5} {'q':>3}"
    print(f"{'page':<34}{sub:>33}  {sub:>33}  verdict")
    failures = 0
    names = [k for k in small if not k.startswith("_")]
    names += [k for k in large if not k.startswith("_") and k not in small]
    for name in names:
        a, b = small.get(name), large.get(name)
        if name == "directory":  # answers of an older run: a 404 is the catch-all's
            a, b = ({"absent": True} if r and r.get("status") == 404 else r for r in (a, b))
        verdict = "pass"
        if b is None or b.get("absent") or (a is not None and a.get("absent")):
            verdict = "absent" if (b or a or {}).get("absent") else "only at one size"
        elif "status" in b or (a is not None and "status" in a):
            verdict, failures = "FAIL (status)", failures + 1
        else:
            slow = b["quiet95"] > TARGET_MS or (a is not None and a["quiet95"] > TARGET_MS)
            grows = a is not None and b["queries"] > a["queries"]
            if slow or grows:
                failures += 1
                verdict = "FAIL: " + ", ".join(
                    w for w, bad in (("> 50 ms", slow), ("queries grow", grows)) if bad
                )
        print(f"{name:<34}{cell(a):>33}  {cell(b):>33}  {verdict}")
    print(f"{failures} page(s) outside the target")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
