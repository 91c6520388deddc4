"""The API docs render in Chromium under the site's CSP with no network beyond the server
(issue 11, item 10): every request off the live server is refused, and the page reports
no CSP violation and no console error."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_render_with_no_csp_violation_and_no_network(phone, live_server):
    context = phone()
    origin = urlsplit(live_server.url).netloc
    off_site: list[str] = []

    def only_ours(route):
        url = route.request.url
        if urlsplit(url).netloc == origin or url.startswith("data:"):
            route.continue_()
        else:
            off_site.append(url)
            route.abort()

    context.route("**/*", only_ours)
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda message: console.append(message.text) if message.type == "error" else None,
    )
    page.add_init_script(
        "window.__cspViolations = [];"
        "document.addEventListener('securitypolicyviolation', e => "
        "window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Marker API")
    # Every tag is listed, collapsed (147 operations are too many to open at once on a
    # phone); opening one shows its operations.
    expect(page.locator(".opblock-tag").first).to_be_visible()
    assert page.locator(".opblock-tag").count() > 20
    page.locator(".opblock-tag", has_text="competitions").first.click()
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() >= 10
    assert page.evaluate("window.__cspViolations") == []
    assert not [text for text in console if "Content Security Policy" in text], console
    assert console == [], console
    assert off_site == [], off_site
