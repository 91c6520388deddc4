"""Background jobs of the league. Arguments are ids; every task is safe to run twice."""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from .fixtures import services as fixture_services


@shared_task(acks_late=True, max_retries=5, autoretry_for=(OSError,), retry_backoff=True)
def send_fixture_reminders(day: str | None = None) -> int:
    """Daily (beat): remind captains of tomorrow's fixtures (or of `day`, ISO format).
    Each reminder is sent once, however often this runs."""
    target = date.fromisoformat(day) if day else timezone.localdate() + timedelta(days=1)
    return fixture_services.reminders_send(day=target)
