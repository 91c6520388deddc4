"""Peak memory of the two long reads a thousand leagues make large (issue 33): the ratings
recompute of a league's game and the archive export of a league, each in a fresh process
(peak RSS from `resource.getrusage`, less the process's RSS before the job), against
databases `bench/thousand.py` generated at two sizes.

    .venv/bin/python bench/bench_memory.py --database marker_thousand_1 --league league-1
    .venv/bin/python bench/bench_memory.py --database marker_thousand_10s --league league-1

The recompute runs inside a transaction rolled back at the end (the database is left as it
was); `--since` replays from a day on (the run a league's match night asks for), without it
the game's whole history. The export writes the portable archive to /dev/null the way the
secretary's download and `manage.py league_export` produce it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SERVER = "postgres://postgres@127.0.0.1:5432"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def job(database: str, what: str, league_slug: str, since: str | None) -> dict:
    os.environ.update(
        DATABASE_URL=f"{SERVER}/{database}", DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0"
    )
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
    )
    import django

    django.setup()
    from django.db import transaction

    from exchange import archive
    from frames.models import Frame
    from frames.ratings.services import ratings_recompute
    from leagues.models import League

    league = League.objects.get(slug=league_slug)
    game_id = league.seasons.order_by("-id").values_list("game_id", flat=True).first()
    assert game_id is not None, "the league has no season"
    frames = Frame.objects.filter(match__fixture__season__league=league).count()
    base = rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    detail: dict = {}
    if what == "ratings":
        with transaction.atomic():
            day = date.fromisoformat(since) if since else None
            done = ratings_recompute(game_id=game_id, since=day)
            detail = {"game": game_id, "since": since, "frames_replayed": done.frames}
            transaction.set_rollback(True)
    elif what == "archive-whole":  # before issue 33: the archive built whole, then dumped
        text = archive.dumps(archive.league_export(league=league, full=False))
        detail = {"bytes": len(text)}
    else:
        size = 0
        with open(os.devnull, "w") as sink:
            for chunk in archive.league_export_text(league=league, full=False):
                sink.write(chunk)
                size += len(chunk)
        detail = {"bytes": size}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "database": database,
        "job": what,
        "league": league_slug,
        "league_frames": frames,
        "seasons": league.seasons.count(),
        "rss_before_mb": round(base, 1),
        "peak_rss_mb": round(peak, 1),
        "peak_over_start_mb": round(peak - base, 1),
        "wall_s": round(time.perf_counter() - wall, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        **detail,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--league", default="league-1")
    parser.add_argument("--since", help="ratings: replay from this day (YYYY-MM-DD)")
    parser.add_argument(
        "--job", choices=("ratings", "archive", "archive-whole", "both"), default="both"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(job(args.database, args.job, args.league, args.since)))
        return 0
    for what in ("ratings", "archive") if args.job == "both" else (args.job,):
        command = [sys.executable, __file__, "--child", "--database", args.database]
        command += ["--league", args.league, "--job", what]
        if args.since:
            command += ["--since", args.since]
        run = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
        print(run.stdout.strip().splitlines()[-1], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
