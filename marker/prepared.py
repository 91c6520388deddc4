"""A cursor whose statements PostgreSQL plans once per connection.

Django binds parameters on the client and never prepares, so PostgreSQL plans every
statement it runs. For the few hot statements that join many tables (the shot's read of
the frame, its permission facts and the user; the shot's compare-and-set and append),
planning costs several times the execution. `prepared_cursor()` is Django's own cursor
(so the statement is counted and logged like any other) over a psycopg cursor with
server-side binding that prepares its statements: the first execution on a connection
plans, the next ones reuse the plan.

Behind a connection pooler in transaction mode, prepared statements need PgBouncer 1.21 or
later with `max_prepared_statements` set: `DATABASE_PREPARED_STATEMENTS` (on by default, off
by default with `DATABASE_POOLER=pgbouncer`, as Debian 12's PgBouncer is 1.18) says
whether to prepare. Without it, and elsewhere than PostgreSQL: an ordinary cursor.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection

try:
    import psycopg
except ImportError:  # pragma: no cover - SQLite-only installs
    psycopg = None  # type: ignore[assignment]


if psycopg is not None:

    class _Logged:
        """What Django's query log reads from a cursor (`_query.query`), which psycopg
        leaves empty after a prepared execution: the statement's text."""

        def __init__(self, text: str) -> None:
            self.query = text.encode()

    class _PreparingCursor(psycopg.Cursor):
        def execute(
            self, query: Any, params: Any = None, *, prepare: Any = None, **kwargs: Any
        ) -> Any:
            result = super().execute(query, params, prepare=True, **kwargs)
            if self._query is None and isinstance(query, str):
                self._query = _Logged(query)  # type: ignore[assignment]  # read as text only
            return result


def prepared_cursor() -> Any:
    """A cursor (use it as a context manager) that prepares what it executes."""
    if (
        connection.vendor != "postgresql"
        or psycopg is None
        or not getattr(settings, "DATABASE_PREPARED_STATEMENTS", True)
    ):
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's preparation off (None), which also refuses prepare=True;
        # a threshold never reached keeps every other statement unprepared (Django's
        # client-side binding cursors never prepare anyway) and lets ours ask.
        raw.prepare_threshold = 2**31 - 1
    return connection._prepare_cursor(_PreparingCursor(raw))  # type: ignore[attr-defined]
