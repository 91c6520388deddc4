"""Celery tasks of the notifications: arguments are ids; every task is safe to run twice
(a delivery is marked sent in the transaction of its send)."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from . import delivery


@shared_task(name="notifications.deliver", acks_late=True)
def deliver(notification_ids: list[int]) -> int:
    """Send the due deliveries of new messages (those held by quiet hours or a back-off
    wait for the sweeper). Returns how many were sent now."""
    from .models import Delivery

    now = timezone.now()
    ids = list(
        Delivery.objects.filter(notification_id__in=notification_ids, due_at__lte=now)
        .exclude(channel=Delivery.Channel.DIGEST)
        .values_list("id", flat=True)
    )
    return sum(delivery.deliver_one(pk, now=now) == "sent" for pk in ids)


@shared_task(name="notifications.sweep")
def sweep(now: str | None = None) -> int:
    """Every minute (beat): send what came due (quiet hours ended, a back-off elapsed)
    and the digests whose time came. `now` (ISO 8601, aware) stands in for the clock, for
    tests and for sending by hand what a stopped beat left behind."""
    clock = datetime.fromisoformat(now) if now else timezone.now()
    if clock.tzinfo is None:
        raise ValueError(f"sweep(now={now!r}): give a time zone (an aware time)")
    sent = sum(
        delivery.deliver_one(pk, now=clock) == "sent" for pk in delivery.due_deliveries(clock)
    )
    for recipient_id in delivery.digests_due(clock):
        sent += delivery.send_digest(recipient_id, now=clock)
    return sent
