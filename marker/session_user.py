"""The signed-in user read together with something else, in one query.

Django loads `request.user` lazily: the session (a cache hit with cached sessions), then
one SELECT of the user. A hot write path that must read a row of its own anyway (the
shot: the frame and its permission facts) can read the user in that same statement:
`session_user_id` says who the session names without touching the database, the caller
reads the user's row in its own statement, and `accept_session_user` checks that row as
`django.contrib.auth.get_user` would (the backend's `user_can_authenticate`, the session's
auth hash with the secret-key fallbacks) and installs it as `request.user`.

Only for sessions signed in through `ModelBackend` (or a subclass that keeps its
`get_user`); any other backend answers None and the caller takes the ordinary path.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare


def session_user_id(request: HttpRequest) -> Any | None:
    """The pk the session names, when it was signed in through ModelBackend; else None
    (anonymous, or a backend whose `get_user` we do not mirror). No database query."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    try:
        raw = session[SESSION_KEY]
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = load_backend(backend_path)
    if not isinstance(backend, ModelBackend) or type(backend).get_user is not ModelBackend.get_user:
        return None
    try:
        return get_user_model()._meta.pk.to_python(raw)
    except Exception:  # a malformed session: let the ordinary path decide
        return None


def session_identity(request: HttpRequest) -> str | None:
    """Who the session says is signed in, for an ETag: "anon", "u<pk>", or None when the
    session names a user through a backend we do not mirror. No database query; no
    session read at all for a request without a session cookie."""
    session = getattr(request, "session", None)
    if session is None or session.session_key is None:
        return "anon"
    if SESSION_KEY not in session:
        return "anon"
    user_id = session_user_id(request)
    return None if user_id is None else f"u{user_id}"


def accept_session_user(request: HttpRequest, user: Any | None) -> bool:
    """Check `user` (a row the caller read) against the session as Django's `get_user`
    does and, when it holds, make it `request.user`. False when it does not: the caller
    leaves `request.user` to Django (which will say anonymous, flushing the session)."""
    if user is None:
        return False
    backend = load_backend(request.session[BACKEND_SESSION_KEY])
    if not backend.user_can_authenticate(user):  # type: ignore[attr-defined]  # ModelBackend
        return False
    session_hash = request.session.get(HASH_SESSION_KEY)
    if not session_hash:
        return False
    if not constant_time_compare(session_hash, user.get_session_auth_hash()):
        # A secret-key rotation (the fallbacks) or a changed password: Django's own path
        # re-keys or flushes the session.
        return False
    request.user = user
    return True
