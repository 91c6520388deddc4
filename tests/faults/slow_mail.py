"""An email backend for the fault tests' worker processes: each message takes
FAULT_MAIL_DELAY seconds (a slow SMTP server), then its recipients are appended to
FAULT_MAIL_LOG, one line each, with one unbuffered write (so a SIGKILLed worker leaves
exactly the lines of the messages it finished sending)."""

from __future__ import annotations

import os
import time

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        delay = float(os.environ.get("FAULT_MAIL_DELAY", "0"))
        path = os.environ["FAULT_MAIL_LOG"]
        for message in email_messages:
            time.sleep(delay)
            line = "".join(f"{r}\n" for r in message.recipients()).encode()
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
        return len(email_messages)
