"""Sending: each delivery once, on its channel, when it is due.

A delivery is claimed under a row lock (`skip_locked`: two workers never take the same
one), sent, and marked sent in the same transaction, so a task run again (a retry, a
second message for the same work, the minute sweeper) finds it sent and sends nothing.
A provider that asks us to back off (SMTP errors, a push service's 429 or 5xx) holds the
delivery (`due_at` later, growing with each attempt); a push subscription the service
says is gone (404/410) is dropped with its deliveries.
"""

from __future__ import annotations

import json
import logging
import smtplib
from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from marker.api_inputs import digits

from . import vapid
from .events import Event
from .models import Delivery, Notification, PushSubscription, Recipient

log = logging.getLogger(__name__)

#: Attempts before a delivery is given up.
MAX_ATTEMPTS = 8
#: The longest a push service may hold us off, and a push message's time to live.
MAX_BACKOFF = timedelta(hours=6)
PUSH_TTL = 12 * 3600
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


class Backoff(Exception):
    """The provider asked us to wait (`after`, when it said how long)."""

    def __init__(self, message: str, after: timedelta | None = None) -> None:
        super().__init__(message)
        self.after = after


class Gone(Exception):
    """The push subscription no longer exists (404/410): drop it."""


def absolute(url: str) -> str:
    if url.startswith(("http://", "https://")):
        return url
    return settings.SITE_URL.rstrip("/") + "/" + url.lstrip("/")


def unsubscribe_token(recipient: Recipient, event: str = "", league_id: int | None = None) -> str:
    """A signed, unexpiring token naming whom and what to turn off (RFC 8058 one-click)."""
    return signing.dumps({"r": recipient.pk, "e": event, "l": league_id}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(recipient: Recipient, event: str = "", league_id: int | None = None) -> str:
    return absolute(
        reverse("notifications-unsubscribe", args=[unsubscribe_token(recipient, event, league_id)])
    )


def choices_url(recipient: Recipient) -> str:
    return absolute(reverse("notifications-choices-token", args=[recipient.token]))


def backoff_for(attempts: int) -> timedelta:
    """1, 2, 4 … minutes, at most `MAX_BACKOFF`."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), MAX_BACKOFF)


# ---------------------------------------------------------------------------- channels


def _email_message(recipient: Recipient, subject: str, text: str, unsubscribe: str) -> EmailMessage:
    footer = (
        f"\n\n--\nStop messages like this: {unsubscribe}\n"
        f"All your choices (channels, quiet hours, digests): {choices_url(recipient)}\n"
    )
    return EmailMessage(
        subject=subject,
        body=text + footer,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[recipient.address],
        headers={
            # RFC 2369 and RFC 8058: mail clients show an Unsubscribe button that POSTs here.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def send_email(delivery: Delivery, connection=None) -> None:
    n = delivery.notification
    recipient = n.recipient
    message = _email_message(
        recipient,
        n.title,
        f"{n.body}\n\n{absolute(n.url)}",
        unsubscribe_url(recipient, n.event, n.league_id),
    )
    try:
        message.send(fail_silently=False) if connection is None else connection.send_messages(
            [message]
        )
    except (smtplib.SMTPException, OSError) as exc:
        raise Backoff(f"email: {exc}"[:300]) from exc


def push_payload(n: Notification) -> dict:
    return {
        "title": n.title,
        "body": n.body[:300],
        "url": absolute(n.url),
        "tag": f"{n.event}:{n.key}",
    }


def send_push(delivery: Delivery) -> None:
    """Sign (VAPID) and encrypt (RFC 8291) the message with pywebpush and post it to the
    subscription's push service."""
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    sub = delivery.subscription
    if sub is None:
        raise Gone("subscription removed")
    pair = vapid.keys()
    if pair is None:
        raise RuntimeError("push is off: no VAPID keys")
    try:
        webpush(
            subscription_info={
                "endpoint": sub.endpoint,
                "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
            },
            data=json.dumps(push_payload(delivery.notification)),
            vapid_private_key=pair.private,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=PUSH_TTL,
            timeout=10,
        )
    except WebPushException as exc:
        response = exc.response
        status = getattr(response, "status_code", None)
        if status in (404, 410):
            raise Gone(f"push: {status}") from exc
        if status is None or status == 429 or status >= 500:
            after = None
            retry_after = getattr(response, "headers", {}).get("Retry-After") if response else None
            if retry_after and digits(str(retry_after)):
                after = timedelta(seconds=int(retry_after))
            raise Backoff(f"push: {status or exc}"[:300], after) from exc
        raise  # a request the service refuses (400, 403, 413): a fault of ours, given up
    except OSError as exc:  # connection refused, timeout
        raise Backoff(f"push: {exc}"[:300]) from exc


# ---------------------------------------------------------------------------- sending


def deliver_one(delivery_id: int, *, now: datetime | None = None) -> str:
    """Send one due delivery (email or push) once. Returns its status afterwards."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("notification__recipient__user", "subscription")
            .filter(pk=delivery_id, status=Delivery.Status.PENDING, due_at__lte=now)
            .exclude(channel=Delivery.Channel.DIGEST)
            .first()
        )
        if delivery is None:
            return "not due"
        delivery.attempts += 1
        try:
            if delivery.channel == Delivery.Channel.EMAIL:
                send_email(delivery)
            else:
                send_push(delivery)
        except Gone as exc:
            if delivery.subscription_id:
                PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
            delivery.status, delivery.last_error = Delivery.Status.DROPPED, str(exc)[:300]
        except Backoff as exc:
            delivery.last_error = str(exc)[:300]
            if delivery.attempts >= MAX_ATTEMPTS:
                delivery.status = Delivery.Status.FAILED
            else:
                delivery.due_at = now + (exc.after or backoff_for(delivery.attempts))
        except Exception as exc:  # refused for good: log, do not retry forever
            log.exception("delivery %s failed", delivery.pk)
            delivery.status, delivery.last_error = Delivery.Status.FAILED, str(exc)[:300]
        else:
            delivery.status, delivery.sent_at = Delivery.Status.SENT, now
            if delivery.subscription_id:
                PushSubscription.objects.filter(pk=delivery.subscription_id).update(
                    last_sent_at=now
                )
        delivery.save(update_fields=["status", "attempts", "due_at", "sent_at", "last_error"])
        return delivery.status


def due_deliveries(now: datetime, limit: int = 500) -> list[int]:
    return list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, due_at__lte=now)
        .exclude(channel=Delivery.Channel.DIGEST)
        .order_by("due_at", "id")
        .values_list("id", flat=True)[:limit]
    )


def send_digest(recipient_id: int, *, now: datetime | None = None) -> int:
    """One email gathering a person's due digest entries, sent once: the entries are
    locked and marked sent in the transaction of the send. Returns how many it held."""
    now = now or timezone.now()
    with transaction.atomic():
        entries = list(
            Delivery.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("notification__recipient__user")
            .filter(
                notification__recipient_id=recipient_id,
                channel=Delivery.Channel.DIGEST,
                status=Delivery.Status.PENDING,
                due_at__lte=now,
            )
            .order_by("notification__created_at", "id")
        )
        if not entries:
            return 0
        recipient = entries[0].notification.recipient
        by_event: dict[str, list[Notification]] = defaultdict(list)
        for entry in entries:
            by_event[entry.notification.event].append(entry.notification)
        parts = []
        for event, items in by_event.items():
            parts.append(Event(event).label)
            parts += [f"  • {n.title}\n    {absolute(n.url)}" for n in items]
            parts.append("")
        cadence = "week" if recipient.cadence == "weekly" else "day"
        message = _email_message(
            recipient,
            f"Marker: your {cadence} ({len(entries)} message{'s' if len(entries) != 1 else ''})",
            "\n".join(parts).rstrip(),
            unsubscribe_url(recipient),
        )
        try:
            message.send(fail_silently=False)
        except (smtplib.SMTPException, OSError) as exc:
            Delivery.objects.filter(pk__in=[e.pk for e in entries]).update(
                due_at=now + backoff_for(entries[0].attempts + 1), last_error=str(exc)[:300]
            )
            return 0
        Delivery.objects.filter(pk__in=[e.pk for e in entries]).update(
            status=Delivery.Status.SENT, sent_at=now
        )
        return len(entries)


def digests_due(now: datetime) -> list[int]:
    return list(
        Delivery.objects.filter(
            channel=Delivery.Channel.DIGEST, status=Delivery.Status.PENDING, due_at__lte=now
        )
        .values_list("notification__recipient_id", flat=True)
        .distinct()
        .order_by("notification__recipient_id")
    )
