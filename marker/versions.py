"""Version tokens in the shared cache: what a poll compares instead of building its body.

A writer calls `bump(key, ...)` for what it changed; each key gets a new random token once
the transaction commits (a transaction's keys are gathered and stored in one trip). A
reader calls `read(key, ...)` and derives its ETag from the tokens: a client that holds
that ETag gets 304 without a query. A body built for a set of tokens can be kept under
them (`remember`/`recall`), shared by every client.

What keeps the answers right:

- Tokens are random, never counters: a key that expired or was evicted gets a fresh token
  that no client can hold, so its next poll builds the body (never a stale 304).
- A cache that cannot be reached makes `read` answer None: the caller builds the body from
  the database and derives its ETag from the content, as if there were no cache.
- A bump that fails (the cache unreachable at commit) is kept and retried before this
  process trusts the cache again: until it succeeds `read` answers None here. Other
  processes may answer 304 from the old token until this one flushes it, or until the
  token's time to live (`LIVE_VERSION_TTL`, 300 s) runs out: that is the only window.
- A process keeps the tokens it read for `LIVE_VERSION_MEMO` seconds (0.25 by default;
  0 turns it off), so most unchanged polls make no trip to the cache: another process's
  change reaches a spectator at most that much later (they poll every 2 s).
  (A token nobody bumps expires too: every poll of it is then built once more.)
- The tokens only work when every process sees the same cache: Redis in production
  (`CACHE_URL`). A local-memory cache is per process, so with it the tokens are used only
  when `LIVE_VERSIONS` says so (`make run`: one process); otherwise every poll builds.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from marker import replica

logger = logging.getLogger(__name__)

# The version every live read includes (`frames.live`): a write of a name they show (a
# team, a player, a fixture: `leagues.models`, which frames cannot reach) bumps it.
EVERYTHING = "live:all"

_pending: set[str] = set()
_lock = threading.Lock()
# Tokens this process read lately, for `LIVE_VERSION_MEMO` seconds: an unchanged poll is
# then answered without a trip to the cache. Another process's bump is seen at most that
# much later; this process's own bumps clear it at once.
_memo: dict[str, tuple[float, str]] = {}  # key -> (kept until, token)
_MEMO_MAX = 4096
# Bodies (bytes) this process built or fetched, under their keys: a key names a version,
# so a kept body never goes stale and a poll that finds it here makes no trip to the cache.
_kept: dict[str, bytes] = {}
_KEPT_MAX = 512


def enabled() -> bool:
    """Whether polls may trust the tokens (a cache every process shares, or said so)."""
    flag = getattr(settings, "LIVE_VERSIONS", None)
    if flag is not None:
        return bool(flag)
    backend = settings.CACHES["default"]["BACKEND"]
    return not backend.endswith(("LocMemCache", "DummyCache"))


def ttl() -> int:
    return int(getattr(settings, "LIVE_VERSION_TTL", 300))


def memo_seconds() -> float:
    return float(getattr(settings, "LIVE_VERSION_MEMO", 0))


def _token() -> int:
    # Random, 48 bits; an int (Django's Redis serializer stores ints as plain numbers and
    # reads them back without unpickling).
    return secrets.randbits(48)


class _Bumps:
    """The keys one transaction bumped: stored together, in one trip, when it commits."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.stored = False

    def __call__(self) -> None:
        self.stored = True
        _store(set(self.keys))


def bump(*keys: str) -> None:
    """New tokens for `keys` once the current transaction commits (at once outside one).
    A transaction's bumps are gathered: each key is stored once, in one trip, on commit;
    a rolled-back transaction stores none. (A key bumped in a savepoint that rolls back
    may still be stored with the others: a spare bump costs one rebuild, never a stale
    answer.)"""
    if not keys:
        return
    connection = transaction.get_connection()  # looked up once: the shot pays for it
    if not connection.in_atomic_block:
        connection.on_commit(lambda: _store(set(keys)))  # autocommit: at once
        return
    gathered = getattr(connection, "marker_version_bumps", None)
    # The transaction's callback, while it is still due: a commit runs it, a rollback (of
    # the transaction, or of the savepoint it was registered in) drops it, and the next
    # bump then starts anew.
    if (
        gathered is None
        or gathered.stored
        or not any(entry[1] is gathered for entry in connection.run_on_commit)
    ):
        gathered = _Bumps()
        connection.marker_version_bumps = gathered
        connection.on_commit(gathered)
    gathered.keys.update(keys)


def _store(keys: set[str]) -> bool:
    with _lock:
        keys |= _pending
        _pending.clear()
    if not keys:
        return True
    for key in keys:  # this process's own bumps are seen at once
        _memo.pop(key, None)
    try:
        store = getattr(cache, "set_many_plain", cache.set_many)  # marker.cache: one trip
        store({key: _token() for key in keys}, ttl())
    except Exception:
        logger.warning("cache unreachable: %d version bump(s) kept for later", len(keys))
        with _lock:
            _pending.update(keys)
        return False
    return True


def read(*keys: str, stick: bool = True) -> list[str] | None:
    """The keys' current tokens (fresh ones for keys that have none), or None when they
    cannot be trusted: the cache unreachable, a bump of this process not yet stored, or
    tokens not enabled. The caller then builds its answer from the database.

    The rest of the request reads from the primary (`marker.replica`): what is built for
    these tokens must show the writes that made them. `stick=False` leaves the request's
    other reads where they were, for a caller that reads what it keeps from the primary
    itself (`using(DEFAULT_DB_ALIAS)`), as the site notices every page shows do."""
    if stick:
        replica.stick_to_primary()
    if not enabled():
        return None
    if _pending and not _store(set()):
        return None
    window = memo_seconds()
    if window > 0:
        now = time.monotonic()
        kept = [_memo.get(key) for key in keys]
        if all(hit is not None and hit[0] > now for hit in kept):
            return [hit[1] for hit in kept]  # type: ignore[index]
    try:
        found = cache.get_many(keys)
        missing = [key for key in keys if key not in found]
        if missing:
            for key in missing:
                cache.add(key, _token(), ttl())
            found.update(cache.get_many(missing))
    except Exception:
        logger.warning("cache unreachable: building from the database")
        return None
    if any(key not in found for key in keys):
        return None
    tokens = [str(found[key]) for key in keys]
    if window > 0:
        if len(_memo) >= _MEMO_MAX:
            _memo.clear()
        until = time.monotonic() + window
        for key, token in zip(keys, tokens, strict=True):
            _memo[key] = (until, token)
    return tokens


def recall(key: str) -> Any | None:
    """A kept body, or None (not kept, or the cache unreachable)."""
    local = _kept.get(key)
    if local is not None:
        return local
    try:
        value = cache.get(key)
    except Exception:
        return None
    _keep_here(key, value)
    return value


def _keep_here(key: str, value: Any) -> None:
    """Bytes only: a body shared between threads must not change under them."""
    if isinstance(value, bytes):
        if len(_kept) >= _KEPT_MAX:
            _kept.clear()
        _kept[key] = value


def remember(key: str, value: Any) -> None:
    _keep_here(key, value)
    try:
        cache.set(key, value, ttl())
    except Exception:
        logger.warning("cache unreachable: a built body not kept")


def build_once(
    key: str, build: Callable[[], Any], *, wait: float = 0.5, step: float = 0.005
) -> tuple[Any, bool]:
    """(the body kept under `key`, built?): the first caller to miss builds and keeps it;
    the others wait (up to `wait` seconds) for it instead of building it too. An exception
    from `build` is raised to its caller (nothing is kept)."""
    kept = recall(key)
    if kept is not None:
        return kept, False
    lock = key + ":building"
    try:
        mine = cache.add(lock, 1, max(1, int(wait * 4)))
    except Exception:
        mine = True
    if not mine:
        waited = 0.0
        while waited < wait:
            time.sleep(step)
            waited += step
            kept = recall(key)
            if kept is not None:
                return kept, False
    try:
        value = build()
    except BaseException:
        _forget(lock)
        raise
    remember(key, value)
    # The lock is left to expire: it names this version, which nobody builds again.
    return value, True


def _forget(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:
        pass


def bumps_pending() -> Sequence[str]:
    """The bumps this process could not store yet (for tests and health checks)."""
    with _lock:
        return sorted(_pending)
