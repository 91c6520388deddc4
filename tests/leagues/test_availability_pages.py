"""Availability's pages: the captain's sheet (ask, chase, mark an answer; their team
only), "My availability" (answer, away dates), and the links to them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leagues.models import Availability, AvailabilityRequest, AwayDates, Registration
from tests.factories import PlayerFactory
from tests.leagues.availability_helpers import asked, soon, squad


@pytest.fixture
def fixture(league):
    return soon(league)


@pytest.fixture
def players(league):
    return squad(league.teams[0])


def sheet_url(fixture, team) -> str:
    slug = fixture.season.league.slug
    return f"/{slug}/fixtures/{fixture.pk}/availability/{team.pk}/"


def test_the_captain_asks_the_squad_with_one_tap_and_sees_who_is_in(
    league, fixture, players, client
):
    team = league.teams[0]
    client.force_login(league.captain)
    url = sheet_url(fixture, team)
    page = client.get(url).content.decode()
    assert "Ask the squad" in page and "7</strong> not answered" in page
    done = client.post(url, {"action": "ask"}, follow=True)
    assert "Asked 7 players." in done.content.decode()
    assert len(asked()) == 7
    Availability.objects.create(
        fixture=fixture,
        team=team,
        player=players[0],
        answer="yes",
        via="link",
        answered_at=timezone.now(),
    )
    page = client.get(url).content.decode()
    assert "1</strong> in" in page and "6</strong> not answered" in page
    assert "Chase the 6 who have not answered" in page

    again = client.post(url, {"action": "ask"}, follow=True)
    assert "nobody new to ask" in again.content.decode() and len(asked()) == 7

    client.post(url, {"action": "chase"})
    assert len(asked("availability-chase:")) == 6
    page = client.get(url).content.decode()
    assert "You can chase again from" in page and "Chase the 6" not in page
    again = client.post(url, {"action": "chase"})
    assert again.status_code == 409 and "chase again from" in again.content.decode()


def test_the_captain_marks_an_answer_given_at_the_bar(league, fixture, players, client):
    client.force_login(league.vice_captain)
    client.post(
        sheet_url(fixture, league.teams[0]),
        {"action": "set", "player": players[2].pk, "answer": "maybe"},
    )
    made = Availability.objects.get()
    assert (made.player, made.answer, made.via) == (players[2], "maybe", "captain")


def test_the_sheet_is_a_fixed_number_of_queries(league, fixture, players, client):
    client.force_login(league.captain)
    url = sheet_url(fixture, league.teams[0])
    client.get(url)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    before = count()
    for _ in range(6):
        Registration.objects.create(
            team=league.teams[0], season=league.season, player=PlayerFactory()
        )
    for p in players:
        Availability.objects.create(
            fixture=fixture,
            team=league.teams[0],
            player=p,
            answer="no",
            via="app",
            answered_at=timezone.now(),
        )
    assert count() == before


def test_another_teams_captain_is_refused_and_a_team_outside_the_fixture_is_not_found(
    league, fixture, client
):
    client.force_login(league.other_captain)
    assert client.get(sheet_url(fixture, league.teams[0])).status_code == 403
    assert client.post(sheet_url(fixture, league.teams[0]), {"action": "ask"}).status_code == 403
    assert client.get(sheet_url(fixture, league.teams[1])).status_code == 200
    assert client.get(sheet_url(fixture, league.teams[2])).status_code == 404
    client.force_login(league.teams[2].captain)
    assert client.get(sheet_url(fixture, league.teams[0])).status_code == 403
    assert not AvailabilityRequest.objects.exists()


def test_the_fixture_page_asks_the_squad_in_one_tap_then_links_to_the_answers(
    league, fixture, players, client
):
    url = fixture.get_absolute_url()
    sheet = sheet_url(fixture, league.teams[0])
    client.force_login(league.captain)
    page = client.get(url).content.decode()
    assert f'action="{sheet}"' in page and f"Ask {league.teams[0].name}'s squad" in page
    assert sheet_url(fixture, league.teams[1]) not in page
    done = client.post(sheet, {"action": "ask"})
    assert done.status_code == 302 and done["Location"] == sheet
    assert len(asked()) == 7
    page = client.get(url).content.decode()
    assert "See the answers" in page and "squad</button>" not in page
    client.force_login(league.secretary)  # an officer: both sides
    page = client.get(url).content.decode()
    assert sheet in page and sheet_url(fixture, league.teams[1]) in page
    client.force_login(league.outsider)
    assert "/availability/" not in client.get(url).content.decode()


def test_the_roster_page_links_to_the_next_fixtures_sheets(league, fixture, client):
    client.force_login(league.captain)
    team = league.teams[0]
    page = client.get(f"/{fixture.season.league.slug}/teams/{team.pk}/roster/").content.decode()
    assert "Who is playing?" in page and sheet_url(fixture, team) in page


def test_a_player_answers_and_keeps_away_dates_on_my_availability(league, fixture, players, client):
    client.force_login(league.player_user)
    page = client.get("/me/availability/").content.decode()
    assert f"{fixture.home.name} v {fixture.away.name}" in page
    client.post("/me/availability/", {"action": "answer", "fixture": fixture.pk, "answer": "yes"})
    made = Availability.objects.get()
    assert (made.player.user, made.answer, made.via) == (league.player_user, "yes", "app")

    day = fixture.date + timedelta(days=7)
    done = client.post(
        "/me/availability/",
        {
            "action": "away_add",
            "away-season": league.season.pk,
            "away-start": day.isoformat(),
            "away-end": (day + timedelta(days=3)).isoformat(),
            "away-note": "Holiday",
        },
        follow=True,
    )
    assert "is marked" in done.content.decode()
    away = AwayDates.objects.get()
    assert (away.start, away.note) == (day, "Holiday")
    bad = client.post(
        "/me/availability/",
        {
            "action": "away_add",
            "away-season": league.season.pk,
            "away-start": day.isoformat(),
            "away-end": (day - timedelta(days=3)).isoformat(),
        },
    )
    assert bad.status_code == 400 and "before the first" in bad.content.decode()
    client.post("/me/availability/", {"action": "away_remove", "away": away.pk})
    assert not AwayDates.objects.exists()


def test_someone_elses_away_dates_are_not_found(league, fixture, players, client):
    away = AwayDates.objects.create(
        player=players[0],
        season=league.season,
        start=fixture.date,
        end=fixture.date,
        created_at=timezone.now(),
    )
    client.force_login(league.player_user)
    assert (
        client.post("/me/availability/", {"action": "away_remove", "away": away.pk}).status_code
        == 404
    )
    assert AwayDates.objects.exists()


def test_my_availability_is_a_fixed_number_of_queries(league, fixture, players, client):
    client.force_login(league.player_user)
    client.get("/me/availability/")

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/me/availability/").status_code == 200
        return len(ctx.captured_queries)

    before = count()
    for f in league.season.fixtures.filter(home=league.teams[0]):
        Availability.objects.create(
            fixture=f,
            team=league.teams[0],
            player=players[-1],
            answer="maybe",
            via="app",
            answered_at=timezone.now(),
        )
    AwayDates.objects.create(
        player=players[-1],
        season=league.season,
        start=fixture.date,
        end=fixture.date,
        created_at=timezone.now(),
    )
    assert count() == before
