"""/healthz: 200 while the database and the cache answer, 503 naming what does not; a
plain-HTTP request is answered, not redirected to HTTPS (the load balancer asks the app
servers directly)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_healthy_when_database_and_cache_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": True, "cache": True}
    assert "no-cache" in response["Cache-Control"]


def test_not_redirected_to_https_when_the_rest_is(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/pad/").status_code == 301


def test_unhealthy_when_the_cache_is_down(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": True, "cache": False}


def test_unhealthy_when_the_database_is_down(client, monkeypatch):
    def broken(*args, **kwargs):
        raise connection.OperationalError("the database went away")

    monkeypatch.setattr(connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is False
