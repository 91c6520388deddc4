"""Season awards: computed by the database with their eligibility rules, and explained."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from frames.models import Award
from frames.stats import awards, record
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture
from marker.errors import DomainError
from tests.links import league_reverse


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def team_fixtures(league, team):
    return list(
        Fixture.objects.filter(Q(home=team) | Q(away=team), season=league.season).order_by(
            "date", "id"
        )
    )


def confirm(fixture, when=None):
    fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=3,
        away_frames=2,
        home_score=3000,
        away_score=2500,
        confirmed_at=when or timezone.now(),
    )


def line(fixture, frame_number, player, team, *, won=True, high_break=0, pots_200=0, score=1000):
    side = "home" if fixture.home_id == team.pk else "away"
    return {
        "player_id": player.pk,
        "side": side,
        "won": won,
        "score": score,
        "opponent_score": 500,
        "has_shots": True,
        "game_id": fixture.season.game_id,
        "values": {"high_break": high_break, "pots_200": pots_200, "breaks": 3},
    }


def play(fixture, frame_number, *lines_):
    record.player_frame_stats_replace(
        fixture=fixture, frame_number=frame_number, lines=list(lines_)
    )


@pytest.fixture
def season_played(league):
    """Team 1 of the Premier plays its first four fixtures (confirmed). Ann plays all four
    with modest breaks; Bob plays one fixture with a huge break; Cat plays three."""
    team = league.teams[0]
    ann, bob, cat = (reg.player for reg in team.registrations.order_by("id")[:3])
    fixtures = team_fixtures(league, team)[:4]
    for i, fixture in enumerate(fixtures):
        confirm(fixture, timezone.now() - timedelta(days=10 - i))
        play(fixture, 1, line(fixture, 1, ann, team, high_break=1200 + i, pots_200=2))
        if i == 0:
            play(fixture, 2, line(fixture, 2, bob, team, high_break=9000, pots_200=9))
        if i < 3:
            play(fixture, 3, line(fixture, 3, cat, team, high_break=2000, pots_200=1, won=False))
    # A fixture not confirmed yet counts for nobody.
    unconfirmed = team_fixtures(league, team)[5]
    play(unconfirmed, 1, line(unconfirmed, 1, bob, team, high_break=99999))
    return {"team": team, "ann": ann, "bob": bob, "cat": cat}


def define(league, **kwargs):
    return awards.award_define(season=league.season, actor=league.secretary, **kwargs)


def test_highest_break_goes_to_a_player_who_qualifies_and_says_why_others_do_not(
    league, season_played
):
    award = define(
        league, name="Highest break", measure="stat", stat="high_break", min_fixtures_percent=50
    )
    result = awards.award_standings(award)
    # Bob's 9,000 (one fixture of four) beats everyone but he played too little.
    assert [s.player for s in result.winners] == [season_played["cat"].name]
    assert result.winners[0].value_display == "2,000"
    assert result.winners[0].explanation == "qualifies: 3 of 4 fixtures, 3 frames"
    assert [s.player for s in result.not_eligible] == [season_played["bob"].name]
    assert result.not_eligible[0].explanation == (
        "not eligible: 1 of 4 fixtures, 1 frame; needs 2 fixtures"
    )
    assert "played in at least 50% of the team's fixtures" in result.description


def test_most_200s_sums_the_statistic_and_minimum_frames_rule(league, season_played):
    award = define(league, name="Most 200s", measure="stat", stat="pots_200", min_frames=4)
    result = awards.award_standings(award)
    assert [(s.player, s.value_display) for s in result.leaders] == [
        (season_played["ann"].name, "8")
    ]
    # Bob (9 in one frame) and Cat (3 frames) are named, with what they lack.
    explained = {s.player: s.explanation for s in result.not_eligible}
    assert explained[season_played["bob"].name].endswith("needs 4 frames")
    assert season_played["cat"].name not in explained  # 3 is below Ann's 8: not a contender


def test_frames_with_a_break_of_at_least_a_threshold(league, season_played):
    award = define(league, name="2,000 club", measure="at_least", stat="high_break", threshold=2000)
    result = awards.award_standings(award)
    top = result.leaders[0]
    assert (top.player, top.value) == (season_played["cat"].name, 3)
    assert "of 2,000 or more" in result.description


def test_win_rate_with_eligibility_no_longer_rewards_stopping_after_a_few_wins(
    league, season_played
):
    award = define(league, name="Best win rate", measure="win_rate", min_fixtures_percent=75)
    result = awards.award_standings(award)
    # Bob won his only frame (100%) but played 1 of 4; Ann won 4 of 4 over every fixture.
    assert [(s.player, s.value_display) for s in result.leaders] == [
        (season_played["ann"].name, "100.0%"),
        (season_played["cat"].name, "0.0%"),
    ]
    assert result.leaders[1].explanation == "qualifies: 3 of 4 fixtures, 3 frames"
    assert [s.player for s in result.not_eligible] == [season_played["bob"].name]
    assert result.not_eligible[0].explanation.endswith("needs 3 fixtures")


def test_award_standings_are_one_query_whatever_the_number_of_players(
    league, season_played, django_assert_num_queries
):
    award = define(league, name="Average", measure="average")
    with django_assert_num_queries(1):
        rows = awards.award_rows(award)
    assert len(rows) == 3
    # More players: still one query.
    other = league.teams[1]
    fixture = team_fixtures(league, other)[0]
    confirm(fixture)
    for n, reg in enumerate(other.registrations.all()[:5], start=1):
        play(fixture, n, line(fixture, n, reg.player, other))
    with django_assert_num_queries(1):
        rows = awards.award_rows(award)
    assert len(rows) == 8


def test_defining_an_award_refuses_bad_input_and_strangers(league):
    with pytest.raises(DomainError) as err:
        define(league, name="X", measure="stat", stat="no_such_thing")
    assert err.value.code == "unknown_stat"
    assert "high_break" in err.value.message
    with pytest.raises(DomainError) as err:
        define(league, name="X", measure="at_least", stat="high_break")
    assert err.value.field == "threshold"
    with pytest.raises(DomainError) as err:
        define(league, name="X", measure="win_rate", min_fixtures_percent=101)
    assert err.value.field == "min_fixtures_percent"
    with pytest.raises(DomainError) as err:
        awards.award_define(
            season=league.season, actor=league.captain, name="X", measure="win_rate"
        )
    assert err.value.status == 403
    define(league, name="Win rate", measure="win_rate")
    with pytest.raises(DomainError) as err:
        define(league, name="Win rate", measure="average")
    assert err.value.code == "award_exists"
    assert Award.objects.filter(season=league.season).count() == 1


def test_the_awards_page_explains_each_award_in_a_fixed_number_of_queries(
    client, league, season_played, django_assert_num_queries
):
    define(league, name="Highest break", measure="stat", stat="high_break", min_fixtures_percent=50)
    define(league, name="Most 200s", measure="stat", stat="pots_200", min_frames=4)
    url = league_reverse("season-awards", args=[league.season.pk])
    client.get(url)
    # season, awards, one aggregate each, the site notices
    with django_assert_num_queries(5) as few:
        page = client.get(url)
    html = page.content.decode()
    assert "qualifies: 3 of 4 fixtures, 3 frames" in html
    assert "not eligible: 1 of 4 fixtures, 1 frame; needs 2 fixtures" in html
    # More players in the season: the same queries.
    other = league.teams[1]
    fixture = team_fixtures(league, other)[0]
    confirm(fixture)
    for n, reg in enumerate(other.registrations.all(), start=1):
        play(fixture, n, line(fixture, n, reg.player, other, pots_200=n))
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(url)


def test_the_secretary_adds_and_removes_awards_on_the_page(client, league):
    url = league_reverse("season-awards", args=[league.season.pk])
    client.force_login(league.captain)
    assert (
        client.post(url, {"action": "define", "name": "X", "measure": "win_rate"}).status_code
        == 403
    )
    client.force_login(league.secretary)
    form = {
        "action": "define",
        "name": "Most 200s",
        "measure": "stat",
        "stat": "pots_200",
        "min_fixtures_percent": 50,
        "min_frames": 0,
    }
    assert client.post(url, form).status_code == 302
    award = Award.objects.get(season=league.season)
    assert "played in at least 50% of the team&#x27;s fixtures" in client.get(url).content.decode()
    assert client.post(url, {"action": "delete", "award": award.pk}).status_code == 302
    assert not Award.objects.exists()


def test_the_awards_api(client, league, season_played):
    url = reverse("api-season-awards", args=[league.season.pk])
    body = {
        "name": "Highest break",
        "measure": "stat",
        "stat": "high_break",
        "min_fixtures_percent": 50,
    }
    client.force_login(league.captain)
    assert client.post(url, body, content_type="application/json").status_code == 403
    client.force_login(league.secretary)
    bad = client.post(url, {**body, "stat": "nope"}, content_type="application/json")
    assert (bad.status_code, bad.json()["error"]) == (400, "unknown_stat")
    bad = client.post(url, {**body, "min_fixtures_percent": 150}, content_type="application/json")
    assert bad.status_code == 400
    created = client.post(url, body, content_type="application/json")
    assert created.status_code == 201
    data = created.json()
    assert data["leaders"][0]["explanation"] == "qualifies: 3 of 4 fixtures, 3 frames"
    assert data["not_eligible"][0]["player"] == season_played["bob"].name
    client.logout()
    listed = client.get(url).json()
    assert [a["name"] for a in listed] == ["Highest break"]
    award = reverse("api-award", args=[data["id"]])
    assert client.delete(award).status_code in (401, 403)
    client.force_login(league.secretary)
    assert client.delete(award).status_code == 204
    assert not Award.objects.exists()
