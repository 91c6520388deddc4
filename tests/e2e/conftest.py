"""Browser tests: Playwright (sync API) driving Debian's Chromium on a phone-sized screen,
against pytest-django's live server. Never downloads a browser: without /usr/bin/chromium
the tests skip, except in CI (CI=true), where they fail. The `browser` and `phone`
fixtures are shared with the other browser tests, in tests/conftest.py."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)
