"""Who may open and post to a person's message choices. The token pages need no login:
the token in every message is the credential."""

from __future__ import annotations

from notifications.delivery import unsubscribe_token
from notifications.services import To, recipient_for

from .base import EVERYONE, SIGNED_IN, Rule


def setup(ctx) -> None:
    from django.utils import timezone

    ctx.recipient = recipient_for(To(email=f"walk.{ctx.slug}@example.org"), now=timezone.now())


ACCESS = {
    "notifications-choices": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "notifications-choices-token": Rule(
        kwargs=lambda c: {"token": c.recipient.token},
        get=EVERYONE,
        post=EVERYONE,
        note="the token is the credential",
    ),
    "notifications-unsubscribe": Rule(
        kwargs=lambda c: {"token": unsubscribe_token(c.recipient, "dispute")},
        get=EVERYONE,
        post=EVERYONE,
        note="the signed token is the credential (RFC 8058 one-click)",
    ),
}
