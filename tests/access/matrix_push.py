"""Who may use the push API (a person's own phones) and remove a phone. Any signed-in
person has phones of their own; someone else's phone is a 404 (tests/notifications)."""

from __future__ import annotations

from .base import SIGNED_IN, Rule

ACCESS = {
    "api-notifications-push": Rule(get=SIGNED_IN, post=SIGNED_IN),
    # Nobody's phone: 404 for everyone signed in (their own: tests/notifications).
    "notifications-push-remove": Rule(kwargs=lambda c: {"pk": 999_999}, get=None, post=SIGNED_IN),
}

# DELETE a phone: signed in only (an empty body is a 400 for them).
METHOD_CHECKS = {
    ("api-notifications-push", "delete"): (lambda c: {}, SIGNED_IN),
}
