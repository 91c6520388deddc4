"""Background jobs of match night. Every task is safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import nocard, signoff


@shared_task(acks_late=True)
def autoconfirm_matches() -> list[int]:
    """Confirm the complete, undisputed results whose league's confirmation period has
    passed (Celery beat runs it every 15 minutes; see CELERY_BEAT_SCHEDULE)."""
    return [match.pk for match in signoff.match_autoconfirm_due(now=timezone.now())]


@shared_task(acks_late=True)
def remind_no_card() -> list[int]:
    """Remind both captains of each fixture with no result and no photo of its card past
    its league's deadline, once ever per fixture (hourly; see CELERY_BEAT_SCHEDULE)."""
    return nocard.no_card_remind(now=timezone.now())
