"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

`django.core.cache.backends.redis.RedisCacheClient.get_client` builds a new `redis.Redis`
for every cache operation, and building one (its response callbacks, its options) costs
more CPU than the operation on loopback. A `redis.Redis` over a connection pool is safe to
share between threads, so this backend builds it once per pool. Everything else is
Django's (`CACHES = {"default": {"BACKEND": "marker.cache.RedisCache", ...}}`).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._clients_lock = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            with self._clients_lock:
                client = self._clients.get(index)
                if client is None:
                    pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
                    client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
                    self._clients[index] = client
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def set_many_plain(self, data: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT) -> None:
        """`set_many` as one round trip of `SET key value EX timeout` commands, without
        Django's MULTI/EXEC and separate EXPIREs (the version bumps of every shot)."""
        client = self._cache.get_client(write=True)  # type: ignore[attr-defined]
        expire = self.get_backend_timeout(timeout)
        pipeline = client.pipeline(transaction=False)
        for key, value in data.items():
            pipeline.set(
                self.make_and_validate_key(key),
                self._cache._serializer.dumps(value),  # type: ignore[attr-defined]
                ex=None if expire is None else max(1, int(expire)),
            )
        pipeline.execute()
