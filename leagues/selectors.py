"""Every non-trivial read of the league. Each owns its joins, so pages make a fixed
number of queries however large the league grows (asserted in tests)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from rules import registry

from . import standings
from .models import (
    Division,
    EligibilityLog,
    Fixture,
    Invitation,
    League,
    LeagueRole,
    Player,
    PointDeduction,
    Publication,
    Registration,
    Season,
    TableSnapshot,
    Team,
    Transfer,
    Venue,
)
from .tables.selectors import provisional_tables


def fixtures_qs() -> QuerySet[Fixture]:
    return Fixture.objects.select_related("home", "away", "venue", "division")


#: Leagues a page of the league list shows.
LEAGUES_PER_PAGE = 50


def league_search(q: str = "") -> QuerySet[League]:
    """The leagues whose name or town holds every word of `q` (any case; at most five
    words), by name."""
    leagues = League.objects.order_by("name", "pk")
    for word in q.split()[:5]:
        leagues = leagues.filter(Q(name__icontains=word) | Q(town__icontains=word))
    return leagues


def league_overview(leagues: Iterable[League] | None = None) -> list[dict]:
    """Leagues (every league when None) with their game and current season (two queries:
    the leagues, their seasons)."""
    if leagues is None:
        leagues = League.objects.all()
    leagues = list(leagues)
    prefetch_related_objects(leagues, "seasons")
    rows = []
    for league in leagues:
        season = current_season(list(league.seasons.all()))
        # The game being played: the current season's (a league's own is for new seasons).
        game_id = season.game_id if season is not None else league.game_id
        rows.append({"league": league, "game": _game_name(game_id), "season": season})
    return rows


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


def current_season(seasons: list[Season]) -> Season | None:
    """The season running now, else the one open for registration, else the latest."""
    for status in (Season.Status.RUNNING, Season.Status.REGISTRATION):
        for season in seasons:
            if season.status == status:
                return season
    return seasons[0] if seasons else None


def league_home(slug: str, *, today: date | None = None) -> dict:
    """A league's home page: its seasons, the current season's published tables (and,
    of a division with results but nothing published, its provisional table) and the
    coming fixtures. Raises League.DoesNotExist."""
    today = today or timezone.localdate()
    league = League.objects.get(slug=slug)
    seasons = list(league.seasons.prefetch_related("divisions"))
    season = current_season(seasons)
    snapshots: list[TableSnapshot] = []
    provisional: list[dict] = []
    fixtures: list[Fixture] = []
    if season is not None:
        latest: dict[int, TableSnapshot] = {}
        for snap in (
            TableSnapshot.objects.filter(
                division__season=season, publication__state=Publication.State.DONE
            )
            .select_related("division")
            .order_by("division__rank", "-as_of", "-id")
        ):
            latest.setdefault(snap.division_id, snap)
        snapshots = list(latest.values())
        provisional = provisional_tables(season, season.divisions.all(), published=latest)
        fixtures = list(
            fixtures_qs()
            .filter(season=season, result_confirmed_at__isnull=True)
            .filter(Q(date__gte=today) | Q(date__isnull=True))
            .order_by("date", "division__rank", "id")[:20]
        )
    return {
        "league": league,
        "game": _game_name(season.game_id if season is not None else league.game_id),
        "seasons": seasons,
        "season": season,
        "snapshots": snapshots,
        "provisional_tables": provisional,
        "fixtures": fixtures,
        # The counties and associations it belongs to: their competitions draw on it.
        "organisations": list(league.organisations.order_by("name")),
    }


def league_officers(league: League) -> dict:
    return {
        "roles": list(
            LeagueRole.objects.filter(league=league).select_related("user").order_by("role", "id")
        ),
        "invitations": list(
            Invitation.objects.filter(
                kind=Invitation.Kind.OFFICER, league=league, accepted_at__isnull=True
            ).order_by("-created_at")
        ),
    }


def season_detail(season_id: int, league_slug: str | None = None) -> Season:
    qs = Season.objects.select_related("league")
    if league_slug is not None:
        qs = qs.filter(league__slug=league_slug)
    return qs.prefetch_related(
        Prefetch(
            "divisions",
            queryset=Division.objects.prefetch_related(
                Prefetch("teams", queryset=Team.objects.select_related("venue"))
            ),
        )
    ).get(pk=season_id)


def division_detail(
    division_id: int, league_slug: str | None = None
) -> tuple[Division, list[Team], list[Fixture]]:
    qs = Division.objects.select_related("season", "season__league")
    if league_slug is not None:
        qs = qs.filter(season__league__slug=league_slug)
    division = qs.get(pk=division_id)
    teams = list(division.teams.select_related("venue").order_by("name"))
    fixtures = list(fixtures_qs().filter(division=division).order_by("date", "round", "id"))
    return division, teams, fixtures


def roster(team: Team) -> list[Registration]:
    return list(
        team.registrations.filter(status=Registration.Status.ACTIVE)
        .select_related("player")
        .order_by("player__name")
    )


def pending_registrations(team: Team) -> list[Registration]:
    """Last season's players copied to this team by a rollover, awaiting a captain's (or
    the secretary's) confirmation."""
    return list(
        team.registrations.filter(status=Registration.Status.PENDING)
        .select_related("player")
        .order_by("player__name", "id")
    )


def player_suggestions(team: Team, text: str, limit: int = 8) -> list[dict]:
    """Players already in the league whose name contains `text` (two letters or more), as
    a captain types a name to add: each with the team they play for this season, if any
    (rule 8 keeps them there), and whether they are on this roster already."""
    text = " ".join((text or "").split())
    if len(text) < 2:
        return []
    players = list(
        Player.objects.filter(name__icontains=text, erased_number__isnull=True).order_by(
            "name", "id"
        )[:limit]
    )
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


def team_detail(
    team_id: int, league_slug: str | None = None
) -> tuple[Team, list[Registration], list[Fixture]]:
    qs = Team.objects.select_related(
        "season", "season__league", "division", "venue", "captain", "vice_captain"
    )
    if league_slug is not None:
        qs = qs.filter(season__league__slug=league_slug)
    team = qs.get(pk=team_id)
    fixtures = list(
        fixtures_qs().filter(Q(home=team) | Q(away=team)).order_by("date", "round", "id")
    )
    return team, roster(team), fixtures


def venue_detail(venue_id: int, league_slug: str) -> tuple[Venue, list[Team], list[Fixture]]:
    """A venue as one league sees it: its teams and fixtures there. Venues are shared by
    the leagues of the instance; one where this league has never played is not found
    (Venue.DoesNotExist)."""
    venue = Venue.objects.get(pk=venue_id)
    teams = list(
        venue.teams.filter(season__league__slug=league_slug).select_related("season", "division")
    )
    fixtures = list(
        fixtures_qs().filter(venue=venue, season__league__slug=league_slug).order_by("date", "id")
    )
    if not teams and not fixtures:
        raise Venue.DoesNotExist
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


# ---- registration rules


def season_transfers(season):
    """A season's transfers, newest first, with their players and teams."""
    return Transfer.objects.filter(season=season).select_related(
        "player", "from_team", "to_team", "requested_by", "decided_by"
    )


def eligibility_log(season, *, team=None, limit: int = 100):
    """The registration rules' log (who, when, which rule), newest first; a team's lines
    only when `team` is given."""
    found = EligibilityLog.objects.filter(season=season).select_related(
        "player", "team", "actor", "fixture"
    )
    if team is not None:
        found = found.filter(Q(team=team) | Q(transfer__from_team=team))
    return found[:limit]


def transfer_candidates(team):
    """Players on another team's roster this season: whom a captain may ask to transfer in."""
    return (
        Registration.objects.filter(season_id=team.season_id, status=Registration.Status.ACTIVE)
        .exclude(team=team)
        .select_related("player", "team")
        .order_by("player__name", "id")
    )
