"""`/healthz`: what a load balancer (nginx, deploy/) asks before it sends an app server
traffic. Cheap: one `SELECT 1` on the database and one round trip to the cache, no
session, no template. 200 `{"ok": true, ...}` when both answer, 503 naming the one that
did not. With a replica (`DATABASE_REPLICA_URL`, marker/replica.py) the answer also says
whether public reads use it and how far behind it is (`replica`: usable, lag_seconds,
max_lag_seconds): it never makes the check fail, as reads fall back to the primary."""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from marker import replica


def _database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except Exception:
        return False


def _cache() -> bool:
    key = f"healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, 1, timeout=5)
        ok = bool(cache.get(key) == 1)
        cache.delete(key)
        return ok
    except Exception:
        return False


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "cache": _cache()}
    ok = all(checks.values())
    answer: dict[str, object] = {"ok": ok, **checks}
    if (state := replica.describe()) is not None:
        answer["replica"] = state
    return JsonResponse(answer, status=200 if ok else 503)
