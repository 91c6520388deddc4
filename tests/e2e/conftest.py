"""Browser tests: Playwright (sync API) driving Debian's Chromium on a phone-sized screen,
against pytest-django's live server. Never downloads a browser: without /usr/bin/chromium
the tests skip, except in CI (CI=true), where they fail. The `browser` and `phone`
fixtures are shared with the other browser tests, in tests/conftest.py.

Every page a browser test visits is checked with axe-core (vendored:
`tests/e2e/vendor/axe.min.js`, axe-core 4.10.3, MPL-2.0) at WCAG 2.2 AA: no serious or
critical violation. `phone` here wraps the shared one: it notes each page a context
navigates to, and when the test ends opens each again (a GET, same session) and runs axe
on it. `assert_accessible(page)` checks the page as it stands, mid-test."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

AXE_SOURCE = Path(__file__).with_name("vendor") / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SERIOUS = ("serious", "critical")

#: Pages whose markup belongs to the referee pad's own work (issue 11, item 12): checked by
#: that work's tests, not here. Everything else a test visits is checked.
NOT_CHECKED_HERE = ("/frames/", "/sw.js", "/manifest.webmanifest", "/api/", "/static/")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def axe_violations(page, impacts=SERIOUS) -> list[dict]:
    """axe-core's violations on the page as it stands, of the given impacts. axe is put in
    by Playwright (which the page's CSP does not govern), never by the page."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                       resultTypes: ['violations']})""",
        AXE_TAGS,
    )
    return [v for v in result["violations"] if v["impact"] in impacts]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {node.get('failureSummary', '')[:300]}")
    return "\n".join(lines)


def assert_accessible(page, where: str = "") -> None:
    """No serious or critical axe-core violation (WCAG 2.2 AA) on the page as it stands."""
    bad = axe_violations(page)
    assert not bad, f"axe on {where or page.url}:\n{describe(bad)}"


def checked(url: str) -> bool:
    path = urlsplit(url).path
    return url.startswith("http") and not any(path.startswith(p) for p in NOT_CHECKED_HERE)


@pytest.fixture
def phone(phone):
    """The shared `phone(user=None, **options)`, whose contexts' pages are each checked
    with axe when the test ends (every URL visited, once per signed-in context)."""
    visited: list[tuple[object, str]] = []

    def note(context, frame) -> None:
        if frame.parent_frame is None and checked(frame.url):
            key = (context, frame.url.split("#", 1)[0])
            if key not in visited:
                visited.append(key)

    def make(user=None, **options):
        context = phone(user, **options)
        context.on(
            "page", lambda page: page.on("framenavigated", lambda frame: note(context, frame))
        )
        return context

    yield make
    failures = []
    for context, url in visited:
        page = context.new_page()
        try:
            response = page.goto(url)
            if response is None or response.status != 200:
                continue
            page.wait_for_load_state("networkidle")
            bad = axe_violations(page)
            if bad:
                failures.append(f"{url}:\n{describe(bad)}")
        finally:
            page.close()
    assert not failures, "axe-core (WCAG 2.2 AA) found:\n" + "\n".join(failures)
