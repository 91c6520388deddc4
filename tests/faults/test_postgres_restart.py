"""PostgreSQL goes down in the middle of a shot soak (an immediate shutdown: what a crash
leaves) and comes back: the app servers reconnect, the referees' phones retry what failed
with the same event ids, and once it is back the database holds exactly the shots the
phones saw acknowledged — none lost, none doubled.

A private PostgreSQL (initdb + pg_ctl on a free port): the shared one is never touched."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from bench import league_night
from tests.faults.harness import ROOT, PrivatePostgres, server_env, start_gunicorn, stop

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    # One at a time (under xdist, all on one worker): each starts servers of its own.
    pytest.mark.xdist_group("faults"),
]


@pytest.fixture
def private_postgres():
    pg = PrivatePostgres()
    try:
        pg.create_database()
        yield pg
    finally:
        pg.close()


def test_postgres_restarted_during_a_shot_soak_loses_and_doubles_nothing(private_postgres):
    pg = private_postgres
    env = server_env(pg.url, WEB_CONCURRENCY="2", GUNICORN_THREADS="4")
    seeding = (
        "import dataclasses, json; from bench import league_night as ln; ln.setup_django(); "
        "print(json.dumps(dataclasses.asdict(ln.seed(6, 2))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", seeding],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    night = league_night.Night(**json.loads(done.stdout.strip().splitlines()[-1]))
    night.frames = [tuple(f) for f in night.frames]
    server, base = start_gunicorn(env)
    outage = {}

    def crash_and_return() -> None:
        outage["down"] = time.monotonic()
        pg.stop("immediate")  # no checkpoint, no goodbye to clients: a crash
        time.sleep(3)
        pg.start()  # crash recovery replays the WAL
        outage["up"] = time.monotonic()

    load = league_night.Load(
        base=base,
        frames=len(night.frames),
        spectators=6,
        seconds=18,
        grace=60,
        schedule=[(6, crash_and_return)],
    )
    meter = league_night.CpuMeter([server.pid], pg.url)
    try:
        # In a thread of its own: a browser test earlier in the session may have left
        # Playwright's event loop running in this one.
        with ThreadPoolExecutor(1) as pool:
            result = pool.submit(
                asyncio.run, league_night.run_load(load, night, meter, "sessionid")
            ).result()
    finally:
        stop(server)
    tally, acked = result["tally"], result["acked"]

    assert outage.get("up"), "the database was not restarted"
    # The outage was felt (requests failed) and every failed shot was retried to success.
    assert tally.errors, "no request failed: the restart did not hit the soak"
    assert tally.retried_to_success > 0
    assert tally.unfinished == 0, tally.notes
    assert not [n for n in tally.notes if "stopped" in n], tally.notes
    with psycopg.connect(pg.url) as conn:
        stored: dict[int, list[tuple[int, str]]] = {fid: [] for fid in acked}
        for frame_id, seq, event_id in conn.execute(
            "SELECT frame_id, seq, event_id::text FROM frames_frameevent "
            "WHERE frame_id = ANY(%s) ORDER BY frame_id, seq",
            (list(acked),),
        ):
            stored[frame_id].append((seq, event_id))
        last = dict(
            conn.execute(
                "SELECT id, last_seq FROM frames_frame WHERE id = ANY(%s)", (list(acked),)
            ).fetchall()
        )
    assert all(len(v) >= 2 for v in acked.values()), "too few shots to say anything"
    for frame_id, mine in acked.items():
        assert stored[frame_id] == mine, f"frame {frame_id}: stored shots differ from acknowledged"
        assert last[frame_id] == len(mine)
    print(
        f"\npostgres restart: {sum(len(v) for v in acked.values())} shots, "
        f"{sum(tally.errors.values())} failed requests retried, "
        f"{outage['up'] - outage['down']:.1f} s down"
    )
