"""Who may use the push API (a person's own phones) and remove a phone. Any signed-in
person has phones of their own; someone else's phone is a 404 (tests/notifications)."""

from __future__ import annotations

from .base import EVERYONE, SIGNED_IN, Rule

ACCESS = {
    "api-notifications-push": Rule(get=SIGNED_IN, post=SIGNED_IN),
    # Nobody's phone: 404 for everyone signed in (their own: tests/notifications).
    "notifications-push-remove": Rule(kwargs=lambda c: {"pk": 999_999}, get=None, post=SIGNED_IN),
    # The notifications core's pages (written down here until their own module comes):
    # a person's choices need a login; the emailed token links need none (an unknown
    # token is a 404, a tampered unsubscribe link a 400: nobody is denied).
    "notifications-choices": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "notifications-choices-token": Rule(
        kwargs=lambda c: {"token": "no-such-token"}, get=EVERYONE, post=EVERYONE
    ),
    "notifications-unsubscribe": Rule(
        kwargs=lambda c: {"token": "not-signed"}, get=EVERYONE, post=EVERYONE
    ),
}

# DELETE a phone: signed in only (an empty body is a 400 for them).
METHOD_CHECKS = {
    ("api-notifications-push", "delete"): (lambda c: {}, SIGNED_IN),
}
