"""The Redis cache backend (one client per pool) and the live versions on it: what one
process bumps, another reads, and sessions read through it."""

from __future__ import annotations

import uuid

import pytest

from marker.cache import RedisCache
from tests.conftest import IN_CI, REDIS_URL, _redis_up

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache():
    if not _redis_up():
        if IN_CI:
            pytest.fail(f"Redis is required in CI at {REDIS_URL}")
        pytest.skip("Redis is not running")
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    return lambda: RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})


def test_the_backend_keeps_one_client_and_does_what_djangos_does(redis_cache):
    cache = redis_cache()
    cache.set("a", {"x": 1}, 30)
    assert cache.get("a") == {"x": 1}
    assert cache.add("a", 2, 30) is False and cache.add("b", 2, 30) is True
    assert cache.get_many(["a", "b", "c"]) == {"a": {"x": 1}, "b": 2}
    assert cache.incr("b") == 3
    cache.delete("a")
    assert cache.get("a") is None
    assert cache._cache.get_client() is cache._cache.get_client()
    cache.set_many_plain({"v1": 123456789, "v2": "text"}, 30)
    assert cache.get_many(["v1", "v2"]) == {"v1": 123456789, "v2": "text"}
    assert 0 < cache._cache.get_client().ttl(cache.make_and_validate_key("v1")) <= 30


def test_a_version_bumped_by_one_process_is_read_by_another(redis_cache, settings, monkeypatch):
    from marker import versions

    settings.LIVE_VERSIONS = None  # decided by the backend: a shared cache is trusted
    settings.CACHES = {"default": {"BACKEND": "marker.cache.RedisCache", "LOCATION": REDIS_URL}}
    writer, reader = redis_cache(), redis_cache()  # two processes' cache objects
    monkeypatch.setattr(versions, "cache", reader)
    before = versions.read("live:m:1")
    assert before is not None and versions.read("live:m:1") == before
    monkeypatch.setattr(versions, "cache", writer)
    versions._store({"live:m:1"})  # what bump() does on commit
    monkeypatch.setattr(versions, "cache", reader)
    assert versions.read("live:m:1") != before
