"""Publishing a season's tables: the secretary asks for it (or asks again after a
failure), and a sweeper re-queues a job whose worker vanished. The job itself is
`publication_job`; the Celery tasks are in `tasks.py`."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from marker.errors import DomainError

from . import tasks
from .models import (
    Division,
    Publication,
    Season,
)
from .publication_job import publications_mark_stale


@transaction.atomic
def publication_request(*, season: Season, actor=None, now: datetime | None = None) -> Publication:
    """Ask for the season's tables to be published as of now. The job runs after the
    commit (in-process without a broker). While one is queued or running, asking again
    returns it (the database holds one active publication per season)."""

    now = now or timezone.now()
    Season.objects.select_for_update().filter(pk=season.pk).first()
    active = Publication.objects.filter(
        season=season, state__in=[Publication.State.QUEUED, Publication.State.RUNNING]
    ).first()
    if active is not None:
        return active
    if not Division.objects.filter(season=season).exists():
        raise DomainError("no_divisions", f"{season} has no divisions to publish.")
    publication = Publication.objects.create(
        season=season,
        as_of=now,
        created_by=actor,
        created_at=now,
        heartbeat_at=now,
        step="Waiting for a worker",
    )
    tasks.publication_queue(publication.pk)
    return publication


@transaction.atomic
def publication_retry(*, publication: Publication, now: datetime | None = None) -> Publication:
    """Queue a failed publication again; what it had finished is kept."""

    now = now or timezone.now()
    updated = Publication.objects.filter(pk=publication.pk, state=Publication.State.FAILED).update(
        state=Publication.State.QUEUED, heartbeat_at=now, error="", step="Queued again"
    )
    if not updated:
        raise DomainError("not_failed", "Only a failed publication can be tried again.")
    tasks.publication_queue(publication.pk)
    publication.refresh_from_db()
    return publication


@transaction.atomic
def publications_requeue_stale(*, now: datetime | None = None) -> list[int]:
    """The sweeper: stale publications (see `publications_mark_stale`) go back to queued
    and are sent to the workers again after the commit. Returns their ids."""
    stale = publications_mark_stale(now=now or timezone.now())
    for pk in stale:
        tasks.publication_queue(pk)
    return stale
