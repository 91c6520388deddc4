"""A person's phones for Web Push: subscribe one (idempotent on its endpoint; an endpoint
last held by someone else moves to this person), remove one, and list them.

A subscription is what the browser's `pushManager.subscribe()` answers (RFC 8030 endpoint,
RFC 8291 keys): the endpoint the push service gave, the browser's P-256 public key
(`p256dh`, 65 bytes uncompressed) and its 16-byte auth secret, each base64url.
"""

from __future__ import annotations

import binascii
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from marker.errors import DomainError

from .models import Delivery, PushSubscription, Recipient
from .vapid import b64url_decode, push_available

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
P256DH_BYTES = 65
AUTH_BYTES = 16


def _check_endpoint(endpoint: str) -> str:
    endpoint = (endpoint or "").strip()
    if not endpoint:
        raise DomainError(
            "endpoint_required", "Give the subscription's endpoint.", field="endpoint"
        )
    if len(endpoint) > 1000:
        raise DomainError(
            "endpoint_too_long", "A push endpoint is at most 1,000 characters.", field="endpoint"
        )
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
    except ValueError:
        parts, host = None, ""
    local = settings.PUSH_ALLOW_LOCAL_HTTP and host in LOCAL_HOSTS
    if (
        parts is None
        or not host
        or not (parts.scheme == "https" or (local and parts.scheme == "http"))
    ):
        raise DomainError(
            "bad_endpoint",
            "A push endpoint is an https:// address given by the browser's push service.",
            field="endpoint",
        )
    return endpoint


def _check_key(value: str, field: str, size: int) -> str:
    value = (value or "").strip().rstrip("=")
    what = "the browser's public key (p256dh)" if field == "p256dh" else "the auth secret"
    try:
        if not value or any(c in value for c in "+/ "):
            raise ValueError
        raw = b64url_decode(value)
    except (ValueError, binascii.Error):
        raise DomainError(
            "bad_key", f"Give {what} in base64url (no padding needed).", field=f"keys.{field}"
        ) from None
    if len(raw) != size or (field == "p256dh" and raw[0] != 4):
        raise DomainError(
            "bad_key",
            f"{what[0].upper()}{what[1:]} must be {size} bytes"
            f"{' (an uncompressed P-256 point)' if field == 'p256dh' else ''}, not {len(raw)}.",
            field=f"keys.{field}",
        )
    return value


@transaction.atomic
def push_subscribe(
    *,
    recipient: Recipient,
    endpoint: str,
    p256dh: str,
    auth: str,
    user_agent: str = "",
    now: datetime | None = None,
) -> tuple[PushSubscription, bool]:
    """Keep a phone's subscription for this person. Subscribing again with the same
    endpoint updates its keys; an endpoint last held by another person (a shared phone,
    someone else signed in) becomes this person's, and the messages still waiting for it
    under the other person are dropped. Returns the subscription and whether it is new."""
    if not push_available():
        raise DomainError(
            "push_off", "Push messages are not set up on this server (no VAPID keys).", status=409
        )
    endpoint = _check_endpoint(endpoint)
    p256dh = _check_key(p256dh, "p256dh", P256DH_BYTES)
    auth = _check_key(auth, "auth", AUTH_BYTES)
    now = now or timezone.now()
    if not recipient.push_on:  # turning push on for a phone is choosing push
        recipient.push_on = True
        recipient.save(update_fields=["push_on"])
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is None:
        return (
            PushSubscription.objects.create(
                recipient=recipient,
                endpoint=endpoint,
                p256dh=p256dh,
                auth=auth,
                user_agent=(user_agent or "")[:300],
                created_at=now,
            ),
            True,
        )
    if found.recipient_id != recipient.pk:
        Delivery.objects.filter(subscription=found, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.DROPPED, last_error="the phone moved to another person"
        )
        found.recipient = recipient
        found.created_at = now
    found.p256dh, found.auth = p256dh, auth
    found.user_agent = (user_agent or found.user_agent)[:300]
    found.save(update_fields=["recipient", "p256dh", "auth", "user_agent", "created_at"])
    return found, False


@transaction.atomic
def push_unsubscribe(*, recipient: Recipient, endpoint: str = "", pk: int | None = None) -> None:
    """Forget one of this person's phones (by endpoint, or by id from the choices page);
    its waiting messages are dropped. Someone else's phone, or one already gone: 404."""
    found = PushSubscription.objects.select_for_update().filter(recipient=recipient)
    if pk is not None:
        found = found.filter(pk=pk)
    else:
        found = found.filter(endpoint=(endpoint or "").strip())
    subscription = found.first()
    if subscription is None:
        raise DomainError(
            "no_subscription", "This phone is not subscribed to your messages.", status=404
        )
    Delivery.objects.filter(subscription=subscription, status=Delivery.Status.PENDING).update(
        status=Delivery.Status.DROPPED, last_error="the phone was removed"
    )
    subscription.delete()


def devices_of(recipient: Recipient) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(recipient=recipient).order_by("created_at", "id"))


def device_label(user_agent: str) -> str:
    """A short name for a phone from its browser's user agent ("Chrome on Android").

    >>> device_label("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36")
    'Chrome on Android'
    >>> device_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1")
    'Safari on iPhone'
    >>> device_label("")
    'A browser'
    """
    ua = user_agent or ""
    browser = next(
        (
            name
            for token, name in (
                ("Edg/", "Edge"),
                ("Firefox/", "Firefox"),
                ("SamsungBrowser", "Samsung Internet"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
            )
            if token in ua
        ),
        "",
    )
    system = next(
        (
            name
            for token, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Mac OS X", "a Mac"),
                ("Windows", "Windows"),
                ("Linux", "Linux"),
            )
            if token in ua
        ),
        "",
    )
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or "A browser"
