"""Background jobs of the competitions. Every task is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from .services import notices


@shared_task(name="competitions.tasks.tie_deadlines", acks_late=True)
def tie_deadlines() -> int:
    """Daily (beat): tell both sides of each unplayed tie whose deadline is within two
    days (TIE_DEADLINE), once per tie however often this runs."""
    return notices.tie_deadlines_notify()
