"""The signed link a player answers from without logging in: three buttons, the current
answer, a change until match night opens; a changed or expired link changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from frames.matchnight import squads
from leagues.availability import links
from leagues.models import Availability, Registration
from tests.leagues.availability_helpers import soon, squad


@pytest.fixture
def fixture(league):
    return soon(league)


@pytest.fixture
def rita(league):
    return squad(league.teams[0])[-1]


def link(fixture, team, player) -> str:
    return links.answer_path(
        links.answer_token(player_id=player.pk, fixture_id=fixture.pk, team_id=team.pk)
    )


def test_the_link_opens_three_buttons_and_records_the_answer_without_a_login(
    league, fixture, rita, client
):
    url = link(fixture, league.teams[0], rita)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Are you playing, Rita Referee?" in html
    assert "You have not answered yet." in html
    for label in ("Yes, I'm in", "Maybe", "No, I can't"):
        assert label in html
    assert page["Referrer-Policy"] == "same-origin"

    done = client.post(url, {"answer": "yes", "note": "after 8"}, follow=True)
    assert done.redirect_chain == [(url, 302)]
    assert "Thanks: you&#x27;re in." in done.content.decode()
    assert 'Your answer: <strong class="answer-yes">Yes</strong> (after 8)' in done.content.decode()
    made = Availability.objects.get()
    assert (made.player, made.team, made.answer, made.via) == (rita, league.teams[0], "yes", "link")

    client.post(url, {"answer": "no"})
    assert Availability.objects.get().answer == "no"


def test_a_changed_link_is_refused_and_changes_nothing(league, fixture, rita, client):
    url = link(fixture, league.teams[0], rita)
    token = url.rstrip("/").rsplit("/", 1)[1]
    other = links.answer_token(
        player_id=rita.pk + 1, fixture_id=fixture.pk, team_id=league.teams[0].pk
    )
    # Someone else's signature on Rita's payload, and a letter changed.
    forged = token.rsplit(":", 1)[0] + ":" + other.rsplit(":", 1)[1]
    changed = token[:-3] + ("a" if token[-3] != "a" else "b") + token[-2:]
    for bad in (forged, changed, "nonsense"):
        bad_url = links.answer_path(bad)
        assert client.get(bad_url).status_code == 400
        page = client.post(bad_url, {"answer": "yes"})
        assert page.status_code == 400
        assert "This link does not work" in page.content.decode()
    assert not Availability.objects.exists()


def test_a_link_expires_after_the_fixtures_date(league, fixture, rita, client):
    url = link(fixture, league.teams[0], rita)
    fixture.__class__.objects.filter(pk=fixture.pk).update(
        date=timezone.localdate() - timedelta(days=1)
    )
    page = client.post(url, {"answer": "yes"})
    assert page.status_code == 410
    assert "This link has expired" in page.content.decode()
    assert not Availability.objects.exists()


def test_a_link_older_than_its_longest_life_has_expired(league, fixture, rita, client, monkeypatch):
    url = link(fixture, league.teams[0], rita)
    monkeypatch.setattr(links, "MAX_AGE", timedelta(seconds=-1))
    assert client.post(url, {"answer": "yes"}).status_code == 410
    assert not Availability.objects.exists()


def test_once_match_night_opens_the_answer_is_final(league, fixture, rita, client):
    url = link(fixture, league.teams[0], rita)
    client.post(url, {"answer": "yes"})
    squads.match_open(fixture=fixture, actor=league.captain)
    page = client.post(url, {"answer": "no"})
    assert page.status_code == 409
    assert "Match night has started" in page.content.decode()
    assert Availability.objects.get().answer == "yes"
    shown = client.get(url).content.decode()
    assert "answers can no longer change" in shown and 'name="answer"' not in shown


def test_a_player_taken_off_the_roster_can_no_longer_answer(league, fixture, rita, client):
    url = link(fixture, league.teams[0], rita)
    Registration.objects.filter(player=rita).update(status=Registration.Status.REMOVED)
    page = client.post(url, {"answer": "yes"})
    assert page.status_code == 403
    assert "no longer on" in page.content.decode()
    assert 'name="answer"' not in client.get(url).content.decode()
    assert not Availability.objects.exists()


def test_a_bad_answer_is_a_clear_400(league, fixture, rita, client):
    url = link(fixture, league.teams[0], rita)
    page = client.post(url, {"answer": "perhaps"})
    assert page.status_code == 400
    assert not Availability.objects.exists()
