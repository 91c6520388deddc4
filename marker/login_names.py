"""The username django-axes records for a failed login (`AXES_USERNAME_CALLABLE`).

Django's login form hands any username to `authenticate` (its length limit is not a
validator), and axes stores it in a 255-character column: a longer one was a 500. A real
username has at most 150 characters, so the recorded one is cut there, NUL characters
(which PostgreSQL cannot store) removed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

MAX_USERNAME = 150


def axes_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", request.POST).get(field)
    if username is None:
        return None
    return str(username).replace("\x00", "")[:MAX_USERNAME]
