"""Season rollover: start next season from this one.

The new season copies the divisions, the teams (same names, venues, captains and
vice-captains), the points scheme, the tie-breakers, the game and its options; last
season's rosters come across as *pending* registrations that a captain or the secretary
confirms (rule 8 counts only active ones). Promotions and relegations are proposed from
the final tables (`standings.tables`): the secretary sets how many teams go up and down
at each division boundary, adjusts the proposal by moving a team, and the moves are
applied only when the secretary confirms. A season is rolled over once; a season whose
tables are not final (fixtures without a confirmed result) is refused unless the
secretary overrides explicitly.

`rollover_proposal` is the read, `season_rollover` the write.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from marker.errors import DomainError
from marker.permissions import require

from . import standings
from .models import Division, Fixture, Registration, Season, Team

#: The most teams a secretary may move across one boundary (a bound the form can hold).
MAX_MOVES = 50


@dataclass
class TeamPlacement:
    """One team's line in the proposal: where it finished, and where it is proposed to
    play next season (`to_division_id`, a division of *this* season standing for its
    copy in the next)."""

    team_id: int
    team: str
    position: str
    points: str
    to_division_id: int
    move: str  # "up", "down", "stays"


@dataclass
class DivisionProposal:
    division_id: int
    division: str
    rank: int
    rows: list[TeamPlacement] = field(default_factory=list)
    down: int = 0  # teams down to (and up from) the division below
    below: str = ""  # the division below, if any


@dataclass
class Proposal:
    season: Season
    boundaries: dict[int, int]  # upper division's id → teams up (= teams down) across it
    divisions: list[DivisionProposal]
    unfinished: list[Fixture]

    @property
    def placements(self) -> dict[int, int]:
        return {row.team_id: row.to_division_id for d in self.divisions for row in d.rows}

    @property
    def final(self) -> bool:
        return not self.unfinished


def _divisions(season: Season) -> list[Division]:
    return list(Division.objects.filter(season=season).order_by("rank", "name", "id"))


def unfinished_fixtures(season: Season) -> list[Fixture]:
    """Fixtures still without a confirmed result: while any remain, the tables are not
    final."""
    return list(
        Fixture.objects.filter(season=season, result_confirmed_at__isnull=True)
        .select_related("home", "away")
        .order_by("date", "id")
    )


def _check_boundaries(divisions: list[Division], boundaries: Mapping[int, int]) -> dict[int, int]:
    """Teams up/down per boundary, keyed by the upper division's id (0 where not given)."""
    ids = {d.pk for d in divisions[:-1]}
    unknown = [k for k in boundaries if k not in ids]
    if unknown:
        raise DomainError(
            "bad_boundary",
            "A boundary is named by the division above it (the bottom division has none).",
            field="boundaries",
        )
    result = {}
    for d in divisions[:-1]:
        n = boundaries.get(d.pk, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_MOVES:
            raise DomainError(
                "bad_value",
                f"The number of teams up and down below {d.name} is a whole number from 0 "
                f"to {MAX_MOVES}.",
                field="boundaries",
            )
        result[d.pk] = n
    return result


def rollover_proposal(season: Season, *, boundaries: Mapping[int, int] | None = None) -> Proposal:
    """Promotions and relegations proposed from the season's tables: across each boundary
    the bottom n of the division above swap with the top n of the one below (n set by the
    secretary per boundary). Raises DomainError when a division has too few teams for
    the moves asked of it."""
    divisions = _divisions(season)
    counts = _check_boundaries(divisions, boundaries or {})
    tables = {t.division_id: t for t in standings.tables(season)}
    result = []
    for i, d in enumerate(divisions):
        rows = tables[d.pk].rows if d.pk in tables else []
        up = counts.get(divisions[i - 1].pk, 0) if i > 0 else 0
        down = counts.get(d.pk, 0) if i < len(divisions) - 1 else 0
        if up + down > len(rows):
            raise DomainError(
                "too_many_moves",
                f"{d.name} has {len(rows)} teams: it cannot send {up} up and {down} down.",
                field="boundaries",
            )
        proposal = DivisionProposal(
            d.pk,
            d.name,
            d.rank,
            down=down,
            below=divisions[i + 1].name if i < len(divisions) - 1 else "",
        )
        for index, row in enumerate(rows):
            to, move = d.pk, "stays"
            if index < up:
                to, move = divisions[i - 1].pk, "up"
            elif index >= len(rows) - down:
                to, move = divisions[i + 1].pk, "down"
            proposal.rows.append(
                TeamPlacement(
                    team_id=row.team_id,
                    team=row.team,
                    position=f"{row.position}{'=' * row.shared}",
                    points=standings.number(row.points),
                    to_division_id=to,
                    move=move,
                )
            )
        result.append(proposal)
    return Proposal(season, counts, result, unfinished_fixtures(season))


def _placements(
    proposal: Proposal, divisions: list[Division], given: Mapping[int, int] | None
) -> dict[int, int]:
    """The proposal with the secretary's adjustments (team id → division id of this
    season), each checked."""
    placements = proposal.placements
    ids = {d.pk for d in divisions}
    for team_id, division_id in (given or {}).items():
        if team_id not in placements:
            raise DomainError(
                "bad_team", "Move only teams of this season's divisions.", field="placements"
            )
        if division_id not in ids:
            raise DomainError(
                "bad_division",
                "Move a team into one of this season's divisions.",
                field="placements",
            )
        placements[team_id] = division_id
    return placements


@transaction.atomic
def season_rollover(
    *,
    season: Season,
    actor: Any,
    name: str,
    slug: str = "",
    boundaries: Mapping[int, int] | None = None,
    placements: Mapping[int, int] | None = None,
    override_unfinished: bool = False,
    start_date: date | None = None,
) -> Season:
    """Start the next season from `season`: divisions, teams and the scheme copied, the
    rosters as pending registrations, and each team placed where the proposal (with the
    secretary's adjustments in `placements`) puts it. Refused if the season was rolled
    over already, or if its tables are not final unless `override_unfinished`."""
    require(
        actor,
        "leagues.manage_league",
        season,
        code="forbidden",
        message="Only the league's secretary can start the next season.",
    )
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    following = Season.objects.filter(rolled_from=season).first()
    if following is not None:
        raise DomainError(
            "already_rolled_over",
            f"{season.name} was already rolled over into {following.name}.",
            status=409,
            extra={"season": following.pk},
        )
    name = " ".join((name or "").split())[:60]
    if not name:
        raise DomainError("required", "Name the new season.", field="name")
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError(
            "required", "Give the new season a short name for its address.", field="slug"
        )
    if Season.objects.filter(league=season.league, slug=slug).exists():
        raise DomainError(
            "slug_taken", f"The league already has a season called {slug}.", field="slug"
        )
    proposal = rollover_proposal(season, boundaries=boundaries)
    if proposal.unfinished and not override_unfinished:
        first = proposal.unfinished[0]
        raise DomainError(
            "tables_not_final",
            f"The tables of {season.name} are not final: {len(proposal.unfinished)} "
            f"fixture(s) have no confirmed result (the first: {first.home.name} v "
            f"{first.away.name}). Confirm or award them first, or roll over anyway "
            "(the promotions would follow the tables as they stand).",
            status=409,
            extra={"unconfirmed_fixtures": len(proposal.unfinished)},
        )
    divisions = _divisions(season)
    moves = _placements(proposal, divisions, placements)

    try:
        with transaction.atomic():
            new = Season.objects.create(
                league=season.league,
                name=name,
                slug=slug,
                status=Season.Status.REGISTRATION,
                start_date=start_date,
                game_id=season.game_id,
                rules_version=season.rules_version,  # moved on by the secretary, if wished
                game_options=dict(season.game_options),
                points_per_frame=season.points_per_frame,
                points_per_match_win=season.points_per_match_win,
                points_per_match_draw=season.points_per_match_draw,
                bonus_margin=season.bonus_margin,
                bonus_margin_points=season.bonus_margin_points,
                bonus_aggregate_points=season.bonus_aggregate_points,
                tie_breakers=list(season.tie_breakers),
                rolled_from=season,
            )
    except IntegrityError:  # rolled over by a concurrent request a moment ago
        raise DomainError(
            "already_rolled_over", f"{season.name} was already rolled over.", status=409
        ) from None
    copies = {
        d.pk: Division.objects.create(season=new, name=d.name, rank=d.rank) for d in divisions
    }
    teams = list(Team.objects.filter(season=season).order_by("name", "id"))
    new_teams = Team.objects.bulk_create(
        [
            Team(
                season=new,
                division=copies[moves[t.pk]] if t.pk in moves else None,
                name=t.name,
                venue_id=t.venue_id,
                captain_id=t.captain_id,
                vice_captain_id=t.vice_captain_id,
                previous=t,
            )
            for t in teams
        ]
    )
    team_of = {t.previous_id: t for t in new_teams}
    Registration.objects.bulk_create(
        [
            Registration(
                season=new,
                team=team_of[reg.team_id],
                player_id=reg.player_id,
                kind=Registration.Kind.REGISTERED,
                status=Registration.Status.PENDING,
            )
            for reg in Registration.objects.filter(
                season=season, status=Registration.Status.ACTIVE
            ).order_by("id")
        ]
    )
    return new
