"""A large import as a background job (docs/data.md): a file of more than
`settings.IMPORT_BACKGROUND_ROWS` rows is imported by a worker while the page shows its
progress; smaller ones are imported in the request, as before.

The job's row (`leagues.models.ImportJob`) is the intent, as for publishing tables: the task
claims it with a conditional UPDATE, so two deliveries never both run it. The rows are
written all or nothing in one transaction with the job's `done` mark, so a worker killed
half-way has written nothing and the job can run again. Inside that transaction the
progress is told through the cache (the row's own progress is not visible to others until
the commit); `job_progress` reads it from there while the job runs."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from leagues import imports
from leagues.models import ImportJob, Season
from marker.errors import DomainError
from marker.permissions import require

logger = logging.getLogger(__name__)

#: A job queued or running whose heartbeat is older than this is presumed dead (its
#: worker died or its message was lost): longer than a task may run (CELERY_TASK_TIME_LIMIT).
IMPORT_STALE_AFTER = timedelta(seconds=getattr(settings, "IMPORT_STALE_SECONDS", 600))


def runs_in_background(table: imports.Table) -> bool:
    """Whether importing `table` is a background job (more rows than the setting)."""
    return len(table.rows) > settings.IMPORT_BACKGROUND_ROWS


def _told_key(job_id: int) -> str:
    return f"leagues:import-job:{job_id}"


def job_progress(job: ImportJob) -> tuple[int, str]:
    """(percent, step) of a job: while it writes, what it last told the cache."""
    if job.state == ImportJob.State.RUNNING:
        told = cache.get(_told_key(job.pk))
        if told:
            return int(told[0]), str(told[1])
    return job.progress, job.step


@transaction.atomic
def import_job_create(
    *,
    season: Season,
    actor: Any,
    kind: str,
    table: imports.Table,
    mapping: list[str] | None,
    now: datetime,
) -> ImportJob:
    """Queue the import of `table` (the caller sends it to the workers after the commit).
    One import at a time per season (`import_running`); a job whose worker vanished is
    marked failed first."""
    require(
        actor,
        "leagues.import_data",
        season,
        message="Only the league's secretary may import its data.",
    )
    season = Season.objects.select_for_update().get(pk=season.pk)
    columns = imports.check_mapping(kind, table.headers, mapping)
    active = ImportJob.objects.filter(
        season=season, state__in=[ImportJob.State.QUEUED, ImportJob.State.RUNNING]
    )
    active.filter(heartbeat_at__lt=now - IMPORT_STALE_AFTER).update(
        state=ImportJob.State.FAILED,
        error="The job stopped before it finished: nothing was imported. Import the file again.",
        step="Stopped",
        table={},
        finished_at=now,
    )
    if active.exists():
        raise DomainError(
            "import_running",
            "An import into this season is already running: wait for it to finish.",
            status=409,
        )
    return ImportJob.objects.create(
        season=season,
        kind=kind,
        filename=table.filename,
        table=table.as_data(),
        mapping=columns,
        rows=len(table.rows),
        step=f"Queued: {len(table.rows)} rows",
        created_by=actor,
        created_at=now,
        heartbeat_at=now,
    )


def import_job_claim(*, job_id: int, now: datetime) -> bool:
    """Take the job (`marker.jobs.Job.claim`): queued → running, or running with a stale
    heartbeat → running; two workers never both win."""
    return ImportJob.claim(
        job_id, now=now, stale_after=IMPORT_STALE_AFTER, progress=5, step="Checking the rows"
    )


def _finish(job_id: int, state: str, *, step: str, result: dict, error: str = "") -> None:
    now = timezone.now()
    ImportJob.objects.filter(pk=job_id, state=ImportJob.State.RUNNING).update(
        state=state,
        progress=100,
        step=step[:200],
        result=result,
        error=error[:2000],
        table={},
        finished_at=now,
        heartbeat_at=now,
    )
    cache.delete(_told_key(job_id))


def import_job_run(*, job_id: int, now: datetime | None = None) -> str:
    """The job: import the rows (all or none) as the secretary who asked, telling the
    progress as they are written. Returns "imported", "refused" (a problem in a row, or
    the secretary no longer may: nothing written, the problems kept on the job),
    "failed" (an error: nothing written) or "skipped" (not claimable: done, or running
    elsewhere). Safe to run twice."""
    now = now or timezone.now()
    if not import_job_claim(job_id=job_id, now=now):
        return "skipped"
    job = ImportJob.objects.select_related("season", "created_by").get(pk=job_id)
    key = _told_key(job_id)

    def told(done: int, total: int) -> None:
        cache.set(key, (10 + 89 * done // max(total, 1), f"Written {done} of {total}"), 3600)

    try:
        table = imports.Table.from_data(job.table)
        with transaction.atomic():
            plan = imports.import_apply(
                season=job.season,
                actor=job.created_by,
                kind=job.kind,
                table=table,
                mapping=job.mapping or None,
                progress=told,
            )
            _finish(
                job_id,
                ImportJob.State.DONE,
                step=f"Imported: {plan.changes} change(s)",
                result={"counts": plan.counts, "changes": plan.changes, "problems": []},
            )
    except DomainError as exc:
        problems = exc.extra.get("problems", []) if exc.extra else []
        _finish(
            job_id,
            ImportJob.State.FAILED,
            step="Nothing was imported",
            result={"counts": {}, "changes": 0, "problems": problems},
            error=exc.message,
        )
        return "refused"
    except Exception as exc:
        logger.exception("import job %s failed", job_id)
        _finish(
            job_id,
            ImportJob.State.FAILED,
            step="Nothing was imported",
            result={"counts": {}, "changes": 0, "problems": []},
            error=f"The import failed ({type(exc).__name__}): nothing was imported.",
        )
        return "failed"
    return "imported"
