"""The background import's task (`leagues.imports.job`). Its argument is the job's id; it
is safe to run twice (the job's row is claimed first)."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from . import job


@shared_task(name="leagues.imports.run_import", acks_late=True)
def run_import(job_id: int) -> str:
    """Run an import job (see job.import_job_run)."""
    return job.import_job_run(job_id=job_id)


def import_job_queue(job_id: int) -> None:
    """Send the job to the workers once its row is committed (with no broker, eagerly in
    this process after the commit)."""

    def send_import_job() -> None:  # named: Django logs a robust hook's failure by name
        run_import.delay(job_id)

    transaction.on_commit(send_import_job, robust=True)
