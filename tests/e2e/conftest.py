"""Browser tests: Playwright (sync API) driving Debian's Chromium on a phone-sized screen,
against pytest-django's live server. Never downloads a browser: without /usr/bin/chromium
the tests skip, except in CI (CI=true), where they fail."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in this thread; the tests also use the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is required in CI (Debian's chromium package)")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser, live_server):
    """`phone(user=None, **options)`: a new phone-sized browser context, signed in as
    `user` (a session cookie made on the server) when given."""
    from django.test import Client

    contexts = []

    def make(user=None, **options):
        context = browser.new_context(base_url=live_server.url, **PHONE, **options)
        context.set_default_timeout(15_000)
        if user is not None:
            client = Client()
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
            context.add_cookies(
                [
                    {
                        "name": "sessionid",
                        "value": client.cookies["sessionid"].value,
                        "url": live_server.url,
                    }
                ]
            )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
