"""The roll of honour: division honours from the final tables when a season finishes,
competition honours recorded by their final, and the name the team had when it won."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import honours
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture, Honour, Season
from leagues.teams import services as team_services
from marker.errors import DomainError
from tests.factories import PlayerFactory, SeasonFactory
from tests.links import league_reverse


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def play_season(league, *, leave_out: int = 0):
    """Every fixture confirmed (but the last `leave_out`): each division's first team wins
    every match 5–0, its second team every other match 4–1, the rest 3–2 at home."""
    fixtures = list(Fixture.objects.filter(season=league.season).order_by("id"))
    firsts = {t.pk for t in league.teams if t.name.endswith("Team 1")}
    seconds = {t.pk for t in league.teams if t.name.endswith("Team 2")}
    for fixture in fixtures[: len(fixtures) - leave_out]:
        home, away = 3, 2
        for ranked, (win, lose) in ((seconds, (4, 1)), (firsts, (5, 0))):
            if fixture.home_id in ranked:
                home, away = win, lose
            elif fixture.away_id in ranked:
                home, away = lose, win
        fixture_services.fixture_record_result(
            fixture=fixture,
            home_frames=home,
            away_frames=away,
            home_score=home * 1000,
            away_score=away * 1000,
            confirmed_at=timezone.now(),
        )


def test_finishing_a_season_puts_each_divisions_winner_and_runner_up_on_the_roll(league):
    play_season(league)
    lines = honours.season_finish(season=league.season, actor=league.secretary)
    got = {(h.title, h.position): h.name for h in lines}
    assert got == {
        ("Premier", "winner"): "Premier Team 1",
        ("Premier", "runner_up"): "Premier Team 2",
        ("Second", "winner"): "Second Team 1",
        ("Second", "runner_up"): "Second Team 2",
    }
    league.season.refresh_from_db()
    assert league.season.status == Season.Status.FINISHED
    winner = next(h for h in lines if h.title == "Premier" and h.position == "winner")
    assert winner.detail.startswith("30 points from 6 matches")  # 5 frames × 6 matches
    # Finishing again replaces the lines instead of adding more.
    honours.season_finish(season=league.season, actor=league.secretary)
    assert Honour.objects.filter(league=league.season.league).count() == 4


def test_a_season_with_results_missing_is_finished_only_when_the_secretary_insists(league):
    play_season(league, leave_out=2)
    with pytest.raises(DomainError) as err:
        honours.season_finish(season=league.season, actor=league.secretary)
    assert err.value.code == "season_not_final"
    assert "2 fixtures" in err.value.message
    assert not Honour.objects.exists()
    with pytest.raises(DomainError) as err:
        honours.season_finish(season=league.season, actor=league.captain, force=True)
    assert err.value.status == 403
    assert honours.season_finish(season=league.season, actor=league.secretary, force=True)


def test_honours_keep_the_name_the_team_won_under_after_a_rename(client, league):
    play_season(league)
    honours.season_finish(season=league.season, actor=league.secretary)
    champion = league.teams[0]
    team_services.team_update(team=champion, name="Renamed Rockets")
    page = client.get(reverse("league-honours", args=[league.season.league.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Premier Team 1" in html
    assert "(now Renamed Rockets)" in html
    team_page = client.get(league_reverse("team-detail", args=[champion.pk])).content.decode()
    assert "Winner</strong>, Premier" in team_page
    assert "as Premier Team 1" in team_page
    api = client.get(reverse("api-league-honours", args=[league.season.league_id])).json()
    mine = next(h for h in api if h["team"] == champion.pk)
    assert (mine["name"], mine["team_name_now"], mine["position"]) == (
        "Premier Team 1",
        "Renamed Rockets",
        "winner",
    )


def test_a_competition_final_records_its_winners_once_and_the_players_see_it(client, league):
    ann, bob = PlayerFactory(name="Ann Adcock"), PlayerFactory(name="Bob Bunn")
    cat, dan = PlayerFactory(name="Cat Cubitt"), PlayerFactory(name="Dan Dye")
    honours.record_honour(
        season=league.season,
        title="Pairs",
        kind="competition",
        source="competition:99",
        winner=[ann, bob],
        runner_up=[cat, dan],
        detail="won the final 3–1",
    )
    # Settled again the other way: the lines are replaced, not added.
    honours.record_honour(
        season=league.season,
        title="Pairs",
        kind="competition",
        source="competition:99",
        winner=[cat, dan],
    )
    rows = Honour.objects.filter(source="competition:99")
    assert [(h.position, h.name) for h in rows] == [("winner", "Cat Cubitt & Dan Dye")]
    page = client.get(reverse("player-detail", args=[dan.pk])).content.decode()
    assert "Winner</strong>, Pairs" in page
    assert (
        "Winner</strong>, Pairs"
        not in client.get(reverse("player-detail", args=[ann.pk])).content.decode()
    )
    # A team's players see their team's honours on their own page.
    honours.record_honour(
        season=league.season, title="Cup", kind="competition", source="c:1", winner=league.teams[0]
    )
    member = league.teams[0].registrations.first().player
    assert (
        "Winner</strong>, Cup"
        in client.get(reverse("player-detail", args=[member.pk])).content.decode()
    )


def test_record_honour_refuses_nonsense(league):
    with pytest.raises(DomainError):
        honours.record_honour(
            season=league.season, title="Cup", kind="raffle", source="x", winner=league.teams[0]
        )
    with pytest.raises(DomainError):
        honours.record_honour(
            season=league.season, title="Cup", kind="competition", source="x", winner=[]
        )
    assert not Honour.objects.exists()


def _honours_for(league, seasons: int):
    for n in range(seasons):
        season = SeasonFactory(league=league.season.league, name=f"19{n:02d}")
        for title in ("Premier", "Cup", "Plate"):
            honours.record_honour(
                season=season,
                title=title,
                kind="competition",
                source=f"{season.pk}:{title}",
                winner=league.teams[n % 4],
                runner_up=[PlayerFactory(), PlayerFactory()],
            )


def test_the_roll_of_honour_page_makes_the_same_queries_however_long_the_roll(
    client, league, django_assert_num_queries
):
    url = reverse("league-honours", args=[league.season.league.slug])
    _honours_for(league, 1)
    client.get(url)
    with django_assert_num_queries(4) as small:  # and the site notices
        assert client.get(url).status_code == 200
    _honours_for(league, 6)
    with django_assert_num_queries(len(small.captured_queries)):
        page = client.get(url)
    assert page.content.decode().count('<th scope="row">') == 7 * 3


def test_the_finish_page_is_the_secretarys(client, league):
    play_season(league)
    url = league_reverse("season-finish", args=[league.season.pk])
    client.force_login(league.captain)
    assert client.post(url).status_code == 403
    client.force_login(league.secretary)
    assert "Finish the season" in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302
    assert Honour.objects.filter(season=league.season).count() == 4
    api = client.post(reverse("api-season-finish", args=[league.season.pk]), {"force": "maybe"})
    assert api.status_code == 400
    assert api.json()["error"]
