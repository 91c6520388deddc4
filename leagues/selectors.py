"""Every non-trivial read of the league. Each owns its joins, so pages make a fixed
number of queries however large the league grows (asserted in tests)."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from .models import Division, Fixture, League, Registration, Season, Team, Venue


def fixtures_qs() -> QuerySet[Fixture]:
    return Fixture.objects.select_related("home", "away", "venue", "division")


def league_overview() -> list[League]:
    return list(
        League.objects.prefetch_related(
            Prefetch("seasons", queryset=Season.objects.prefetch_related("divisions"))
        )
    )


def season_detail(season_id: int) -> Season:
    return (
        Season.objects.select_related("league")
        .prefetch_related(
            Prefetch(
                "divisions",
                queryset=Division.objects.prefetch_related(
                    Prefetch("teams", queryset=Team.objects.select_related("venue"))
                ),
            )
        )
        .get(pk=season_id)
    )


def division_detail(division_id: int) -> tuple[Division, list[Team], list[Fixture]]:
    division = Division.objects.select_related("season", "season__league").get(pk=division_id)
    teams = list(division.teams.select_related("venue").order_by("name"))
    fixtures = list(fixtures_qs().filter(division=division).order_by("date", "round", "id"))
    return division, teams, fixtures


def roster(team: Team) -> list[Registration]:
    return list(
        team.registrations.filter(status=Registration.Status.ACTIVE)
        .select_related("player")
        .order_by("player__name")
    )


def team_detail(team_id: int) -> tuple[Team, list[Registration], list[Fixture]]:
    team = Team.objects.select_related(
        "season", "season__league", "division", "venue", "captain", "vice_captain"
    ).get(pk=team_id)
    fixtures = list(
        fixtures_qs().filter(Q(home=team) | Q(away=team)).order_by("date", "round", "id")
    )
    return team, roster(team), fixtures


def venue_detail(venue_id: int) -> tuple[Venue, list[Team], list[Fixture]]:
    venue = Venue.objects.get(pk=venue_id)
    teams = list(venue.teams.select_related("season", "division"))
    fixtures = list(fixtures_qs().filter(venue=venue).order_by("date", "id"))
    return venue, teams, fixtures


def team_fixtures(team: Team) -> list[Fixture]:
    return list(fixtures_qs().filter(Q(home=team) | Q(away=team)).order_by("date", "id"))
