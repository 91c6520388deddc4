"""Email backends for the publishing tests: one that counts the connections opened and the
messages sent (Django's local-memory outbox still receives them), and one that fails on a
chosen message, as an SMTP server that goes away would."""

from __future__ import annotations

from django.core.mail.backends.locmem import EmailBackend


class Counting(EmailBackend):
    opened = 0
    sent = 0
    fail_at: int | None = None  # the n-th message (1-based) raises, once

    @classmethod
    def reset(cls, fail_at: int | None = None) -> None:
        cls.opened, cls.sent, cls.fail_at = 0, 0, fail_at

    def open(self):
        type(self).opened += 1
        return super().open()

    def send_messages(self, messages):
        for message in messages:
            if type(self).fail_at == type(self).sent + 1:
                type(self).fail_at = None
                raise OSError("SMTP server went away")
            super().send_messages([message])
            type(self).sent += 1
        return len(messages)
