"""The API docs work under our own CSP with no network (issue 11, item 10): the page and
its start-up script come from /api/docs/, Swagger UI's assets from our static files
(drf-spectacular-sidecar). The browser check is tests/e2e/test_api_docs.py."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_the_docs_page_loads_only_same_origin_assets_and_no_inline_code():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    urls = asset_urls(html)
    assert len(urls) >= 4  # the stylesheet, the icon, two bundles, the start-up script
    for url in urls:
        assert url.startswith("/"), url
        assert not url.startswith("//"), url
    assert "cdn" not in html.lower() and "http://" not in html and "https://" not in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag, tag  # no inline script
    assert "<style" not in html and " style=" not in html
    assert "/api/docs/?script=" in urls
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_every_asset_the_docs_page_names_is_served_by_us():
    html = Client().get("/api/docs/").content.decode()
    for url in asset_urls(html):
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url
    script = Client().get("/api/docs/?script")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    body = script.content.decode()
    assert "SwaggerUIBundle" in body and "/api/schema/" in body


def test_the_schema_the_docs_read_is_served():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content
