"""Background jobs of match night. Every task is safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import signoff


@shared_task(acks_late=True)
def autoconfirm_matches() -> list[int]:
    """Confirm the complete, undisputed results whose league's confirmation period has
    passed (Celery beat runs it every 15 minutes; see CELERY_BEAT_SCHEDULE)."""
    return [match.pk for match in signoff.match_autoconfirm_due(now=timezone.now())]
