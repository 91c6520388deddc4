"""Every non-trivial read of the league. Each owns its joins, so pages make a fixed
number of queries however large the league grows (asserted in tests)."""

from __future__ import annotations

from datetime import date

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from . import standings
from .models import (
    Division,
    Fixture,
    League,
    Player,
    PointDeduction,
    Publication,
    Registration,
    Season,
    TableSnapshot,
    Team,
    Venue,
)


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


def player_suggestions(team: Team, text: str, limit: int = 8) -> list[dict]:
    """Players already in the league whose name contains `text` (two letters or more), as
    a captain types a name to add: each with the team they play for this season, if any
    (rule 8 keeps them there), and whether they are on this roster already."""
    text = " ".join((text or "").split())
    if len(text) < 2:
        return []
    players = list(Player.objects.filter(name__icontains=text).order_by("name", "id")[:limit])
    regs = (
        Registration.objects.filter(player__in=players, season_id=team.season_id)
        .filter(Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False))
        .select_related("team")
        .order_by("id")
    )
    teams: dict[int, Team] = {}
    for reg in regs:
        if reg.team_id == team.pk and reg.status == Registration.Status.ACTIVE:
            teams[reg.player_id] = reg.team  # on this roster: say so, whatever else
        else:
            teams.setdefault(reg.player_id, reg.team)
    return [
        {
            "player": player,
            "team": teams.get(player.pk),
            "here": teams.get(player.pk) is not None and teams[player.pk].pk == team.pk,
        }
        for player in players
    ]


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


# ----------------------------------------------------------------------------- tables


def latest_snapshot(division: Division) -> TableSnapshot | None:
    """The division's latest published table (from a finished publication)."""
    return (
        TableSnapshot.objects.filter(division=division, publication__state=Publication.State.DONE)
        .order_by("-as_of", "-id")
        .first()
    )


def division_table_page(division: Division, fixtures: list[Fixture]) -> dict:
    """What the public division page shows of the table: the latest published snapshot,
    and the results confirmed since (all results when nothing is published yet), which
    are marked provisional. One query, whatever the size of the division."""
    snapshot = latest_snapshot(division)
    cut = snapshot.as_of if snapshot else None
    provisional = [
        f
        for f in fixtures
        if f.result_confirmed_at is not None and (cut is None or f.result_confirmed_at > cut)
    ]
    provisional.sort(key=lambda f: (f.result_confirmed_at, f.pk))
    return {"snapshot": snapshot, "provisional_results": provisional}


def season_tables_page(season: Season, *, today: date | None = None) -> dict:
    """The secretary's tables page: every division's provisional table (the same few
    queries for any number of divisions), recent publications, deductions, and the
    fixtures still without a result up to today (for walkovers and concessions)."""
    today = today or timezone.localdate()
    return {
        "tables": standings.tables(season),
        "publications": list(
            Publication.objects.filter(season=season).select_related("created_by")[:10]
        ),
        "deductions": list(
            PointDeduction.objects.filter(team__season=season)
            .select_related("team", "by")
            .order_by("-at", "-id")
        ),
        "teams": list(Team.objects.filter(season=season, division__isnull=False).order_by("name")),
        "outstanding": list(
            fixtures_qs()
            .filter(
                season=season,
                kind=Fixture.Kind.LEAGUE,
                result_confirmed_at__isnull=True,
                date__lte=today,
            )
            .order_by("date", "division__rank", "id")
        ),
    }
