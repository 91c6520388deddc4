"""Availability's API: the captain's sheet (their side only; an officer's both), asking
and chasing, answering with the link's token (no login) or signed in; errors in the one
shape, nothing changed on a refusal."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.availability import links
from leagues.models import Availability, AvailabilityRequest, Registration
from tests.factories import PlayerFactory
from tests.leagues.availability_helpers import asked, soon, squad


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def fixture(league):
    return soon(league)


@pytest.fixture
def players(league):
    return squad(league.teams[0])


def url(fixture, what: str = "") -> str:
    return f"/api/fixtures/{fixture.pk}/availability/{what}"


def test_the_captain_asks_chases_and_reads_their_side(api, league, fixture, players):
    team = league.teams[0]
    api.force_authenticate(league.captain)
    done = api.post(url(fixture, "ask/"), {"team": team.pk}, format="json")
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["asked"] == 7 and body["away"] == [] and body["unreachable"] == []
    assert body["sheet"]["counts"] == {"yes": 0, "maybe": 0, "no": 0, "waiting": 7}
    assert len(asked()) == 7

    token = links.answer_token(player_id=players[0].pk, fixture_id=fixture.pk, team_id=team.pk)
    assert (
        APIClient().post("/api/availability/answer/", {"token": token, "answer": "yes"}).status_code
        == 200
    )

    sheet = api.get(url(fixture)).json()
    assert [t["team"] for t in sheet["teams"]] == [team.pk]  # their side only
    side = sheet["teams"][0]
    assert side["counts"] == {"yes": 1, "maybe": 0, "no": 0, "waiting": 6}
    row = next(p for p in side["players"] if p["player"] == players[0].pk)
    assert (row["answer"], row["via"]) == ("yes", "link")
    assert side["answer_by"] and side["chases"] == 0 and side["closed"] is False

    chased = api.post(url(fixture, "chase/"), {"team": team.pk}, format="json")
    assert chased.status_code == 200
    assert sorted(chased.json()["chased"]) == sorted(p.pk for p in players[1:])
    again = api.post(url(fixture, "chase/"), {"team": team.pk}, format="json")
    assert again.status_code == 409
    assert again.json()["error"] == "chased_recently" and "next_chase_at" in again.json()


def test_the_sheet_is_a_fixed_number_of_queries(
    api, league, fixture, players, django_assert_num_queries
):
    api.force_authenticate(league.secretary)
    api.get(url(fixture))  # the secretary's roles, loaded once per user

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(url(fixture)).status_code == 200
        return len(ctx.captured_queries)

    # The fixture; for each side the ask, the closure, the roster and the answers.
    with django_assert_num_queries(9):
        api.get(url(fixture))
    before = count()
    for _ in range(5):
        Registration.objects.create(
            team=league.teams[0], season=league.season, player=PlayerFactory()
        )
    for p in players:
        Availability.objects.create(
            fixture=fixture,
            team=league.teams[0],
            player=p,
            answer="yes",
            via="app",
            answered_at=timezone.now(),
        )
    assert count() == before


def test_a_captain_of_another_team_sees_and_asks_nothing_of_this_one(api, league, fixture):
    elsewhere = league.teams[2].captain  # plays in another fixture
    api.force_authenticate(elsewhere)
    read = api.get(url(fixture))
    assert read.status_code == 403 and read.json()["error"] == "permission_denied"
    ask = api.post(url(fixture, "ask/"), {"team": league.teams[0].pk}, format="json")
    assert ask.status_code == 403 and set(ask.json()) >= {"error", "message"}
    # The other side's captain: their own side, never this one's.
    api.force_authenticate(league.other_captain)
    assert [t["team"] for t in api.get(url(fixture)).json()["teams"]] == [league.teams[1].pk]
    assert api.get(url(fixture), {"team": league.teams[0].pk}).status_code == 403
    ask = api.post(url(fixture, "ask/"), {"team": league.teams[0].pk}, format="json")
    assert ask.status_code == 403
    assert not AvailabilityRequest.objects.exists()


def test_an_officer_sees_both_sides(api, league, fixture):
    api.force_authenticate(league.secretary)
    teams = [t["team"] for t in api.get(url(fixture)).json()["teams"]]
    assert teams == [league.teams[0].pk, league.teams[1].pk]


def test_errors_come_in_the_one_shape(api, league, fixture):
    assert api.get(url(fixture)).status_code in (401, 403)
    api.force_authenticate(league.captain)
    missing = api.get("/api/fixtures/999999/availability/")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    stranger_team = api.post(url(fixture, "ask/"), {"team": league.teams[3].pk}, format="json")
    assert stranger_team.status_code == 400
    assert stranger_team.json()["error"] == "not_in_fixture"
    bad = api.post(url(fixture, "ask/"), {"team": "x"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid"
    not_asked = api.post(url(fixture, "chase/"), {"team": league.teams[0].pk}, format="json")
    assert not_asked.status_code == 400 and not_asked.json()["error"] == "not_asked"
    assert not AvailabilityRequest.objects.exists()


def test_answering_with_a_token_needs_no_login_and_a_changed_one_is_refused(
    league, fixture, players
):
    anonymous = APIClient(enforce_csrf_checks=True)
    token = links.answer_token(
        player_id=players[0].pk, fixture_id=fixture.pk, team_id=league.teams[0].pk
    )
    done = anonymous.post(
        "/api/availability/answer/", {"token": token, "answer": "maybe", "note": "lift?"}
    )
    assert done.status_code == 200, done.json()
    assert (done.json()["answer"], done.json()["via"], done.json()["note"]) == (
        "maybe",
        "link",
        "lift?",
    )
    bad = anonymous.post("/api/availability/answer/", {"token": token[:-2], "answer": "no"})
    assert bad.status_code == 400 and bad.json()["error"] == "link_invalid"
    assert Availability.objects.get().answer == "maybe"
    nobody = anonymous.post("/api/availability/answer/", {"fixture": fixture.pk, "answer": "no"})
    assert nobody.status_code == 401 and nobody.json()["error"] == "not_authenticated"


def test_a_signed_in_player_answers_through_the_api(api, league, fixture, players):
    api.force_authenticate(league.player_user)
    done = api.post("/api/availability/answer/", {"fixture": fixture.pk, "answer": "yes"})
    assert done.status_code == 200
    assert (done.json()["team"], done.json()["via"]) == (league.teams[0].pk, "app")
    api.force_authenticate(league.outsider)
    refused = api.post("/api/availability/answer/", {"fixture": fixture.pk, "answer": "yes"})
    assert refused.status_code == 403 and refused.json()["error"] == "not_a_player"


def test_a_player_keeps_their_away_dates_through_the_api(api, league, fixture, players):
    api.force_authenticate(league.player_user)
    body = {
        "season": league.season.pk,
        "start": fixture.date.isoformat(),
        "end": fixture.date.isoformat(),
        "note": "Away",
    }
    made = api.post("/api/me/away-dates/", body, format="json")
    assert made.status_code == 201, made.json()
    listed = api.get("/api/me/away-dates/").json()
    assert [(a["id"], a["note"]) for a in listed] == [(made.json()["id"], "Away")]
    backwards = dict(body, end="2020-01-01")
    bad = api.post("/api/me/away-dates/", backwards, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_range"

    api.force_authenticate(league.captain)  # not theirs: refused, nothing removed
    refused = api.delete(f"/api/me/away-dates/{made.json()['id']}/")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert api.get("/api/me/away-dates/").json() == []  # no player record: nothing of theirs
    nobody = api.post("/api/me/away-dates/", body, format="json")
    assert nobody.status_code == 403 and nobody.json()["error"] == "not_a_player"

    api.force_authenticate(league.player_user)
    assert api.delete(f"/api/me/away-dates/{made.json()['id']}/").status_code == 204
    assert api.get("/api/me/away-dates/").json() == []
