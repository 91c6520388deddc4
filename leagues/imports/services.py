"""The secretary's import as a request asks for it: immediately, or (a large file) as a
background job (`job`, `tasks`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from leagues import imports
from leagues.models import ImportJob, Season

from . import job, tasks


@transaction.atomic
def import_queue(
    *,
    season: Season,
    actor: Any,
    kind: str,
    table: imports.Table,
    mapping: list[str] | None,
    now: datetime,
) -> ImportJob:
    """Queue a background import of `table` and send it to the workers after the commit.
    A file with a problem in a row is refused here, as an immediate import is
    (`import_invalid`): checking is quick, writing is what takes the time."""
    imports.refuse_problems(imports.plan(season=season, kind=kind, table=table, mapping=mapping))
    queued = job.import_job_create(
        season=season, actor=actor, kind=kind, table=table, mapping=mapping, now=now
    )
    tasks.import_job_queue(queued.pk)
    return queued
