"""Reads of public pages from a PostgreSQL streaming replica (`DATABASE_REPLICA_URL`).

Which requests read from the replica (`ReplicaReads`, the middleware, decides; the router
`ReplicaRouter` follows): a GET or HEAD by a visitor who is not signed in (no session
cookie) and has not written lately (no `REPLICA_PIN_COOKIE`). Everything else reads and
writes on the primary, and so does, within such a request:

- every read inside a transaction (`atomic`) on the primary;
- every read after the request wrote anything (the router saw a write);
- every read after the request used the live version tokens (`marker.versions.read`): a
  body built from a lagging replica would be kept under the new tokens and shown until
  the next change, not just late;
- the sessions and the login throttle's tables (`PRIMARY_APPS`).

A writer reads its own writes: every request that is not GET/HEAD/OPTIONS is answered with
the pin cookie, which keeps that browser on the primary for `REPLICA_PIN_SECONDS` (10 s).
The pin must outlast the largest lag the replica is allowed (`REPLICA_MAX_LAG_SECONDS`,
5 s): reads fall back to the primary whenever the replica is further behind, or cannot be
reached. Its state (`status()`: usable, lag) is checked with one cheap query
(`pg_last_xact_replay_timestamp()`) in a thread of its own, at most once per
`REPLICA_CHECK_SECONDS` (1 s) per process, so no request waits for it; a replica that
failed is not asked again for `REPLICA_RETRY_SECONDS` (5 s).

A replica that dies between two checks fails the request that was using it: when the
answer is a 5xx and the replica's connection had an error, the middleware marks the
replica down and answers the same (safe, so repeatable) request again from the primary.
No client sees the error.

Tasks, management commands and the shell have no request: they use the primary only.
This module imports no app.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

REPLICA = "replica"
# Apps whose tables are read on the primary only: a session or a lock-out written a
# moment ago must be seen at once.
PRIMARY_APPS = frozenset({"sessions", "axes"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
READ_METHODS = frozenset({"GET", "HEAD"})

# The replica's lag in seconds: 0 when it has replayed all it received (or is not a
# standby at all); else how old the last transaction it replayed is.
LAG_SQL = """
SELECT CASE
  WHEN NOT pg_is_in_recovery() THEN 0
  WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 1e9)
END
"""


def configured() -> bool:
    return bool(getattr(settings, "REPLICA_READS", False)) and REPLICA in settings.DATABASES


def max_lag() -> float:
    return float(getattr(settings, "REPLICA_MAX_LAG_SECONDS", 5))


def pin_seconds() -> int:
    return int(getattr(settings, "REPLICA_PIN_SECONDS", 10))


def pin_cookie() -> str:
    return str(getattr(settings, "REPLICA_PIN_COOKIE", "marker_primary"))


# ------------------------------------------------------------------ the replica's state


@dataclass
class Status:
    usable: bool
    lag_seconds: float | None
    checked_at: float  # time.monotonic()
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        lag = None if self.lag_seconds is None else round(self.lag_seconds, 3)
        out: dict[str, Any] = {"usable": self.usable, "lag_seconds": lag}
        if self.error:
            out["error"] = self.error
        return out


_status: Status | None = None
_status_lock = threading.Lock()
_checking = False
# Before the first check has answered: not usable (reads stay on the primary).
UNCHECKED = Status(False, None, 0.0, error="not checked yet")


def _fresh(status: Status | None, now: float) -> bool:
    if status is None:
        return False
    if status.error:
        wait = float(getattr(settings, "REPLICA_RETRY_SECONDS", 5))
    else:
        wait = float(getattr(settings, "REPLICA_CHECK_SECONDS", 1))
    return now - status.checked_at < wait


def _check() -> Status:
    now = time.monotonic()
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(LAG_SQL)
            row = cursor.fetchone()
        lag = float(row[0]) if row and row[0] is not None else None
    except Exception as exc:  # any failure to ask is a replica not to use
        connections[REPLICA].close_if_unusable_or_obsolete()
        logger.warning("replica unusable, reading from the primary: %s", exc)
        return Status(False, None, now, error=type(exc).__name__)
    usable = lag is not None and lag <= max_lag()
    return Status(usable, lag, now)


def _refresh() -> None:
    global _status, _checking
    try:
        _status = _check()
    finally:
        connections[REPLICA].close()  # this thread's own connection
        with _status_lock:
            _checking = False


def status(*, force: bool = False) -> Status:
    """The replica's state as last found. No request waits for the check (a replica that
    hangs would hold it): when the answer is older than `REPLICA_CHECK_SECONDS` a thread
    asks again and the caller gets the last answer meanwhile (`UNCHECKED` at first: the
    primary). `force` asks here and now."""
    global _status, _checking
    if force:
        _status = _check()
        return _status
    current = _status
    if _fresh(current, time.monotonic()):
        assert current is not None
        return current
    with _status_lock:
        if _checking:
            return current or UNCHECKED
        _checking = True
    threading.Thread(target=_refresh, name="replica-check", daemon=True).start()
    return current or UNCHECKED


def mark_down(reason: str) -> None:
    """Stop reading from the replica for `REPLICA_RETRY_SECONDS` (it failed a request)."""
    global _status
    _status = Status(False, None, time.monotonic(), error=reason)
    try:
        connections[REPLICA].close()
    except Exception:  # closing a dead connection may fail too
        pass


def forget() -> None:
    """Forget the state (tests; a changed DATABASES)."""
    global _status
    _status = None


def describe() -> dict[str, Any] | None:
    """For /healthz: None without a replica; else usable, lag and the bound."""
    if not configured():
        return None
    return {**status().as_dict(), "max_lag_seconds": max_lag()}


# ------------------------------------------------------------------ the request's reads


@dataclass
class Reads:
    """What this request may read from the replica; `primary` once it must not."""

    primary: bool = False
    used: bool = False  # the router sent a read to the replica


_reads: ContextVar[Reads | None] = ContextVar("marker_replica_reads", default=None)


@contextmanager
def replica_reads() -> Iterator[Reads]:
    """Within it, the router may send reads to the replica (the middleware opens it)."""
    reads = Reads()
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


def stick_to_primary() -> None:
    """The rest of this request reads from the primary (a write, the live versions)."""
    reads = _reads.get()
    if reads is not None:
        reads.primary = True


def reading_from_replica() -> bool:
    reads = _reads.get()
    return reads is not None and not reads.primary


class ReplicaRouter:
    """`DATABASE_ROUTERS` entry: reads to the replica where `ReplicaReads` allows it and the
    replica is usable; writes, migrations and everything else on the primary."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str | None:
        reads = _reads.get()
        if reads is None or reads.primary or not configured():
            return DEFAULT_DB_ALIAS
        if model._meta.app_label in PRIMARY_APPS:
            return DEFAULT_DB_ALIAS
        blocks = connections[DEFAULT_DB_ALIAS].atomic_blocks
        # A test case's own transaction is not the code's (as Django's `durable` tells them).
        if blocks and not getattr(blocks[-1], "_from_testcase", False):
            return DEFAULT_DB_ALIAS
        if not status().usable:
            return DEFAULT_DB_ALIAS
        reads.used = True
        return REPLICA

    def db_for_write(self, model: type[Any], **hints: Any) -> str | None:
        stick_to_primary()
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        # The replica holds the primary's rows: an object read from either may be related
        # to one from the other.
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db == DEFAULT_DB_ALIAS


class ReplicaReads:
    """Middleware: lets a public read (GET/HEAD, not signed in, not pinned) use the replica;
    pins a writer to the primary; answers again from the primary a read the replica failed.
    Does nothing without `DATABASE_REPLICA_URL`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not configured():
            return self.get_response(request)
        if request.method not in READ_METHODS:
            response = self.get_response(request)
            if request.method not in SAFE_METHODS:
                self.pin(response)
            return response
        if settings.SESSION_COOKIE_NAME in request.COOKIES or pin_cookie() in request.COOKIES:
            return self.get_response(request)
        with replica_reads() as reads:
            response = self.get_response(request)
            if not (reads.used and response.status_code >= 500):
                return response
            if not connections[REPLICA].errors_occurred:
                return response  # the replica answered: the error is the app's own
            logger.warning(
                "the replica failed a read of %s: answered from the primary", request.path
            )
            mark_down("failed a request")
            reads.primary = True
            return self.get_response(request)

    @staticmethod
    def pin(response: HttpResponse) -> None:
        response.set_cookie(
            pin_cookie(),
            "1",
            max_age=pin_seconds(),
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
