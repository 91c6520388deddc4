"""A worker finds every task by autodiscovery alone, under the names the beat schedule and
queued messages use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

LIST_TASKS = """
import json
from config.celery import app
app.loader.import_default_modules()  # what a worker does as it starts
print(json.dumps(sorted(name for name in app.tasks if not name.startswith("celery."))))
"""


def test_a_fresh_worker_process_discovers_every_task_under_its_name():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    out = subprocess.run(
        [sys.executable, "-c", LIST_TASKS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert found == {
        "competitions.tasks.tie_deadlines",
        "frames.matchnight.tasks.autoconfirm_matches",
        "frames.matchnight.tasks.remind_no_card",
        "frames.ratings.tasks.follow_results",
        "frames.ratings.tasks.recompute_ratings",
        "frames.ratings.tasks.sweep_ratings",
        "frames.stats.tasks.record_frame_stats",
        "frames.stats.tasks.sync_frame_stats",
        "leagues.directory.tasks.expire_posts",
        "leagues.imports.run_import",
        "leagues.invitations.send_invitation",
        "leagues.publishing.publish_tables",
        "leagues.publishing.sweep_publications",
        "leagues.tasks.send_fixture_reminders",
        "money.raise_by_rule",
        "money.send_reminders",
        "notifications.deliver",
        "notifications.sweep",
    }
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= found
