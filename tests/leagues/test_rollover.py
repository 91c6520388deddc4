"""Season rollover: the next season from this one, with promotions and relegations
proposed from the final tables, adjusted by the secretary and applied on confirmation."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from leagues import rollover
from leagues.fixtures import services as fixture_services
from leagues.models import Division, Fixture, Registration, Season, Team
from leagues.teams import services as team_services
from marker.errors import DomainError
from tests.factories import (
    DivisionFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
    make_secretary,
)
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

NOW = datetime(2027, 4, 1, 20, 0, tzinfo=timezone.get_current_timezone())


def three_divisions(*, finished: bool = True):
    """Three divisions of four teams; in each, the team with the lower number beats every
    team with a higher one (so the final order is 1, 2, 3, 4); each team has two players."""
    season = SeasonFactory(
        status=Season.Status.RUNNING,
        game_id="bar_billiards_4pin",
        points_per_match_win=Decimal("2"),
        tie_breakers=["points", "frames_won", "aggregate"],
    )
    secretary = make_secretary(season, username="sec")
    divisions = []
    for rank, name in enumerate(("Premier", "First", "Second"), start=1):
        division = DivisionFactory(season=season, name=name, rank=rank)
        venue = VenueFactory()
        teams = [
            TeamFactory(season=season, division=division, venue=venue, name=f"{name} {i}")
            for i in range(1, 5)
        ]
        for team in teams:
            for _ in range(2):
                team_services.roster_add_player(team=team, player=PlayerFactory())
        for h in teams:
            for a in teams:
                if h == a:
                    continue
                fixture = Fixture.objects.create(
                    season=season,
                    division=division,
                    round=1,
                    home=h,
                    away=a,
                    venue=venue,
                    date=date(2027, 1, 5),
                )
                if finished or h != teams[0] or a != teams[1]:
                    home_wins = h.name < a.name
                    fixture_services.fixture_record_result(
                        fixture=fixture,
                        home_frames=Decimal(6 if home_wins else 3),
                        away_frames=Decimal(3 if home_wins else 6),
                        home_score=1000,
                        away_score=900,
                        confirmed_at=NOW,
                    )
        divisions.append(division)
    return season, divisions, secretary


def placements_by_name(season: Season) -> dict[str, str]:
    return {
        t.name: t.division.name
        for t in Team.objects.filter(season=season).select_related("division")
    }


def test_proposal_moves_bottom_and_top_teams_across_each_boundary():
    season, (premier, first, second), _ = three_divisions()
    proposal = rollover.rollover_proposal(season, boundaries={premier.pk: 1, first.pk: 2})
    assert proposal.final
    moves = {row.team: (row.move, row.to_division_id) for d in proposal.divisions for row in d.rows}
    assert moves["Premier 4"] == ("down", first.pk)
    assert moves["Premier 3"] == ("stays", premier.pk)
    assert moves["First 1"] == ("up", premier.pk)
    assert moves["First 2"] == ("stays", first.pk)
    assert moves["First 3"] == ("down", second.pk)
    assert moves["First 4"] == ("down", second.pk)
    assert moves["Second 1"] == ("up", first.pk)
    assert moves["Second 2"] == ("up", first.pk)
    assert moves["Second 3"] == ("stays", second.pk)


def test_rollover_applies_the_adjusted_proposal_and_copies_the_season():
    season, (premier, first, second), secretary = three_divisions()
    roster_before = {
        (r.team.name, r.player_id)
        for r in Registration.objects.filter(season=season).select_related("team")
    }
    # A manual adjustment: Second 3 goes up as well (say the league voted it up).
    new = rollover.season_rollover(
        season=season,
        actor=secretary,
        name="2027-28",
        boundaries={premier.pk: 1, first.pk: 2},
        placements={Team.objects.get(season=season, name="Second 3").pk: first.pk},
    )
    assert new.rolled_from == season
    assert new.status == Season.Status.REGISTRATION
    assert new.game_id == season.game_id and new.game_options == season.game_options
    assert new.points_per_match_win == Decimal("2")
    assert new.tie_breakers == ["points", "frames_won", "aggregate"]
    assert [(d.name, d.rank) for d in Division.objects.filter(season=new)] == [
        ("Premier", 1),
        ("First", 2),
        ("Second", 3),
    ]
    placed = placements_by_name(new)
    assert placed == {
        "Premier 1": "Premier",
        "Premier 2": "Premier",
        "Premier 3": "Premier",
        "First 1": "Premier",
        "Premier 4": "First",
        "First 2": "First",
        "Second 1": "First",
        "Second 2": "First",
        "Second 3": "First",
        "First 3": "Second",
        "First 4": "Second",
        "Second 4": "Second",
    }
    for old in Team.objects.filter(season=season):
        copy = Team.objects.get(season=new, name=old.name)
        assert (copy.venue_id, copy.captain_id, copy.previous_id) == (
            old.venue_id,
            old.captain_id,
            old.pk,
        )
    # Last season's rosters are pending, to be confirmed; nobody is on a roster yet.
    regs = Registration.objects.filter(season=new).select_related("team")
    assert {(r.team.name, r.player_id) for r in regs} == roster_before
    assert {r.status for r in regs} == {Registration.Status.PENDING}
    # The old season is untouched.
    assert placements_by_name(season)["Premier 4"] == "Premier"


def test_a_season_is_rolled_over_once():
    season, (premier, _, _), secretary = three_divisions()
    rollover.season_rollover(season=season, actor=secretary, name="Next")
    with pytest.raises(DomainError) as err:
        rollover.season_rollover(season=season, actor=secretary, name="Next again")
    assert err.value.code == "already_rolled_over"
    assert Season.objects.filter(league=season.league).count() == 2


def test_tables_not_final_are_refused_unless_the_secretary_overrides():
    season, _, secretary = three_divisions(finished=False)
    with pytest.raises(DomainError) as err:
        rollover.season_rollover(season=season, actor=secretary, name="Next")
    assert err.value.code == "tables_not_final"
    assert "Premier 1 v Premier 2" in err.value.message
    assert not Season.objects.filter(rolled_from=season).exists()
    new = rollover.season_rollover(
        season=season, actor=secretary, name="Next", override_unfinished=True
    )
    assert new.rolled_from == season


def test_too_many_moves_for_a_division_are_refused():
    season, (premier, first, _), secretary = three_divisions()
    with pytest.raises(DomainError) as err:
        rollover.rollover_proposal(season, boundaries={premier.pk: 2, first.pk: 3})
    assert err.value.code == "too_many_moves"


def test_pending_registrations_are_confirmed_by_the_captain():
    season, _, secretary = three_divisions()
    new = rollover.season_rollover(season=season, actor=secretary, name="Next")
    team = Team.objects.get(season=new, name="Premier 1")
    first, second = Registration.objects.filter(team=team).order_by("id")
    team_services.registration_confirm(registration=first)
    team_services.registration_confirm(registration=second, accept=False)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Registration.Status.ACTIVE
    assert second.status == Registration.Status.REMOVED
    # Rule 8: a player already on another roster this season cannot be confirmed here.
    other = Team.objects.get(season=new, name="Premier 2")
    pending = Registration.objects.filter(team=other).first()
    team_services.roster_add_player(team=team, player=pending.player)
    with pytest.raises(DomainError) as err:
        team_services.registration_confirm(registration=pending)
    assert err.value.code == "plays_for_another_team"


def test_the_captain_confirms_on_the_roster_page(client):
    season, _, secretary = three_divisions()
    new = rollover.season_rollover(season=season, actor=secretary, name="Next")
    team = Team.objects.get(season=new, name="Second 2")
    reg = Registration.objects.filter(team=team).first()
    client.force_login(team.captain)
    page = client.get(league_reverse("team-roster", args=[team.pk]))
    assert "Last season's players" in page.content.decode()
    response = client.post(
        league_reverse("team-roster", args=[team.pk]), {"action": "confirm", "registration": reg.pk}
    )
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.status == Registration.Status.ACTIVE


def test_the_rollover_page_proposes_adjusts_and_applies(client):
    season, (premier, first, second), secretary = three_divisions()
    client.force_login(secretary)
    url = league_reverse("season-rollover", args=[season.pk])
    page = client.get(url, {f"n_{premier.pk}": "1", f"n_{first.pk}": "1"})
    assert page.status_code == 200
    body = page.content.decode()
    assert "Premier 4" in body and "Start the new season" in body
    data = {f"n_{premier.pk}": "1", f"n_{first.pk}": "1", "name": "2027-28", "confirm": "1"}
    data |= {f"team_{t.pk}": t.division_id for t in Team.objects.filter(season=season)}
    # Apply the proposal as proposed, but keep Premier 4 up (an adjustment).
    data |= {f"team_{Team.objects.get(season=season, name='Premier 4').pk}": premier.pk}
    data |= {f"team_{Team.objects.get(season=season, name='First 1').pk}": premier.pk}
    data |= {f"team_{Team.objects.get(season=season, name='First 4').pk}": second.pk}
    data |= {f"team_{Team.objects.get(season=season, name='Second 1').pk}": first.pk}
    # Unconfirmed: nothing happens without the box ticked.
    response = client.post(url, {**data, "confirm": ""})
    assert response.status_code == 400
    assert not Season.objects.filter(rolled_from=season).exists()
    response = client.post(url, data)
    assert response.status_code == 302
    new = Season.objects.get(rolled_from=season)
    placed = placements_by_name(new)
    assert placed["Premier 4"] == "Premier" and placed["First 1"] == "Premier"
    assert placed["First 4"] == "Second" and placed["Second 1"] == "First"
    # Twice: the page says where it went, and the POST is refused.
    again = client.post(url, {**data, "name": "Other"})
    assert again.status_code in (200, 409)
    assert Season.objects.filter(rolled_from=season).count() == 1


def test_the_api_proposes_and_rolls_over_for_the_secretary_only():
    season, (premier, first, _), secretary = three_divisions()
    api = APIClient()
    url = reverse("api-season-rollover", args=[season.pk])
    other_captain = Team.objects.filter(season=season).last().captain
    for user in (None, UserFactory(username="stranger"), other_captain):
        api.force_authenticate(user)
        assert api.get(url).status_code in (401, 403)
        assert api.post(url, {"name": "X"}, format="json").status_code in (401, 403)
    api.force_authenticate(secretary)
    proposal = api.get(f"{url}?above={premier.pk}&teams=1&above={first.pk}&teams=2").json()
    assert proposal["final"] is True
    rows = {r["team"]: r["move"] for d in proposal["divisions"] for r in d["rows"]}
    assert rows["Premier 4"] == "down" and rows["Second 2"] == "up"
    bad = api.post(url, {"name": "X", "boundaries": [{"above": 10**9, "teams": 1}]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_boundary"
    assert not Season.objects.filter(rolled_from=season).exists()
    made = api.post(
        url,
        {"name": "2027-28", "boundaries": [{"above": premier.pk, "teams": 1}]},
        format="json",
    )
    assert made.status_code == 201
    again = api.post(url, {"name": "2027-29"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "already_rolled_over"


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_rollover_page_makes_the_same_queries_for_any_number_of_teams(client):
    season, (premier, first, second), secretary = three_divisions()
    client.force_login(secretary)
    url = league_reverse("season-rollover", args=[season.pk]) + f"?n_{premier.pk}=1&n_{first.pk}=1"
    small = _queries(client, url)
    venue = VenueFactory()
    extra = [
        TeamFactory(season=season, division=second, venue=venue, name=f"Extra {i}")
        for i in range(6)
    ]
    for h in extra:
        for a in extra:
            if h != a:
                fixture_services.fixture_record_result(
                    fixture=Fixture.objects.create(
                        season=season, division=second, round=2, home=h, away=a, venue=venue
                    ),
                    home_frames=Decimal(5),
                    away_frames=Decimal(4),
                    home_score=1,
                    away_score=1,
                    confirmed_at=NOW,
                )
    assert _queries(client, url) == small
