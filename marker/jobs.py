"""A background job whose row is its own source of truth (an outbox): the one idiom of the
publishing job and the large import (docs/architecture.md).

The row is written with the request that asks for the work; a worker *claims* it with one
conditional UPDATE (queued → running, or running with a heartbeat older than the job's
staleness → running), so two deliveries of the message never both run it, and a lost
message or a killed worker costs latency, never the work. A model subclasses `Job`, adds
its own `State` (with at least ``queued`` and ``running``) and `state` field, and claims
with `Job.claim`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce

QUEUED, RUNNING = "queued", "running"


class Job(models.Model):
    """The fields every background job keeps: its progress, who asked, its heartbeat."""

    progress = models.PositiveSmallIntegerField(default=0, help_text="Percent done.")
    step = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        abstract = True

    @property
    def is_active(self) -> bool:
        """Queued or running: not yet done or failed."""
        return getattr(self, "state", None) in (QUEUED, RUNNING)

    @classmethod
    def claim(cls, pk: int, *, now: datetime, stale_after: timedelta, **also: Any) -> bool:
        """Take job `pk`: queued → running, or running with a stale heartbeat (its worker
        died) → running, setting `also` on the way. One conditional UPDATE, so two
        workers never both win."""
        claimed = (
            cls._default_manager.filter(pk=pk)
            .filter(Q(state=QUEUED) | Q(state=RUNNING, heartbeat_at__lt=now - stale_after))
            .update(
                state=RUNNING,
                heartbeat_at=now,
                started_at=Coalesce(F("started_at"), Value(now)),
                attempts=F("attempts") + 1,
                **also,
            )
        )
        return claimed == 1
