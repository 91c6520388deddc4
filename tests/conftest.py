"""Shared fixtures: a small league with one user per role."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date

import pytest
from django.db import connection

from leagues import services
from leagues.models import Season
from tests.factories import (
    DivisionFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(autouse=True)
def _skip_postgres_only(request):
    """Tests marked `postgres` need real concurrency; on SQLite they are skipped (not in CI)."""
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")


@dataclass
class SmallLeague:
    season: Season
    premier: object
    second: object
    teams: list
    captain: object  # captain of teams[0]
    vice_captain: object  # vice-captain of teams[0]
    other_captain: object  # captain of teams[1]
    player_user: object  # a registered player of teams[0] (the referee role)
    secretary: object
    outsider: object  # signed in, no team


def make_league(teams_per_division: int = 4, players_per_team: int = 6) -> SmallLeague:
    season = SeasonFactory(status=Season.Status.REGISTRATION, start_date=date(2026, 9, 1))
    premier = DivisionFactory(season=season, name="Premier", rank=1)
    second = DivisionFactory(season=season, name="Second", rank=2)
    shared_pub = VenueFactory(name=f"Shared Pub {season.pk}", tables=1)
    teams = []
    for division in (premier, second):
        for i in range(teams_per_division):
            venue = shared_pub if i == 0 else VenueFactory()
            team = TeamFactory(division=division, season=season, venue=venue,
                               name=f"{division.name} Team {i + 1}")
            for _ in range(players_per_team):
                services.roster_add_player(team=team, player=PlayerFactory())
            teams.append(team)
    first = teams[0]
    vice = UserFactory(username=f"vice{season.pk}")
    first.vice_captain = vice
    first.save(update_fields=["vice_captain"])
    player_user = UserFactory(username=f"player{season.pk}")
    services.roster_add_player(team=first, player=PlayerFactory(user=player_user, name="Rita Referee"))
    secretary = UserFactory(username=f"secretary{season.pk}", is_staff=True)
    outsider = UserFactory(username=f"outsider{season.pk}")
    services.fixtures_generate(season=season, start_date=date(2026, 9, 1))
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    return SmallLeague(season, premier, second, teams, first.captain, vice, teams[1].captain,
                       player_user, secretary, outsider)


@pytest.fixture
def league(db) -> SmallLeague:
    return make_league()
