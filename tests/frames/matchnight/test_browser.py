"""Commit–reveal on the captains' phones: Debian's Chromium through Playwright, on a
phone-sized viewport. Each phone makes its secret, sends only the commitment, and reveals
the secret by itself once all three commitments are in."""

from __future__ import annotations

import pytest
from django.test import Client

from frames.draw import commitment, derive_seed
from frames.matchnight import squads
from frames.models import Match, MatchLog
from tests.conftest import make_league
from tests.frames.matchnight_helpers import fixture_of, roster

PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def chromium(browser):
    """The session's Debian Chromium (tests/conftest.py)."""
    return browser


def phone(browser, live_server, user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context.new_page()


def test_each_captains_phone_commits_and_reveals_its_own_secret(live_server, chromium):
    league = make_league()
    match = squads.match_open(fixture=fixture_of(league), actor=league.captain)
    for side, who in (("home", league.captain), ("away", league.other_captain)):
        squads.match_mark_present(
            match=match, side=side, players=roster(league, side)[:6], actor=who
        )
    url = live_server.url + match.get_absolute_url()
    home = phone(chromium, live_server, league.captain)
    away = phone(chromium, live_server, league.other_captain)
    errors = []
    for page in (home, away):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)

    for page, team in ((home, "Premier Team 1"), (away, "Premier Team 2")):
        with page.expect_navigation():
            page.get_by_role("button", name=f"Ready: {team}'s squad is right").click()
    match.refresh_from_db()
    assert match.home_commitment and match.away_commitment
    # The home secret is still on the home phone only (the away phone, last to commit,
    # found every commitment in and has started revealing its own).
    assert match.home_secret == ""

    # All three commitments are in: each phone reveals by itself when the page updates.
    for page in (home, away):
        page.goto(url)
        page.wait_for_function("!document.querySelector('form[data-reveal]')")
    home.goto(url)
    with home.expect_navigation():
        home.get_by_role("button", name="Draw the frames").click()

    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.DRAWN
    kept = {
        side: page.evaluate(
            f"localStorage.getItem('marker:secret:{getattr(match, side + '_commitment')}')"
        )
        for side, page in (("home", home), ("away", away))
    }
    assert kept["home"] == match.home_secret and kept["away"] == match.away_secret
    assert commitment(kept["home"]) == match.home_commitment
    assert match.seed == derive_seed(kept["home"], kept["away"], match.server_secret)
    made_by = MatchLog.objects.filter(match=match, action="committed").values_list(
        "detail__made_by", flat=True
    )
    assert list(made_by) == ["device", "device"]
    away.goto(url)
    assert str(match.seed) in away.content() and match.server_secret in away.content()
    assert errors == []
    for page in (home, away):
        page.context.close()  # lets the live server's threads close their connections
