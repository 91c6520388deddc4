"""Whom a league's messages go to (`notifications.notify`'s `to`): a team's registered
players with its captain and vice-captain, a league's players and officers, and the
leagues a person plays or officiates in (for their choices page). Reads only."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from notifications.services import To

from .models import League, LeagueRole, Player, Registration, Team

#: The registrations that put a player on a team's roster (a removed one does not).
ON_ROSTER = (Registration.Status.ACTIVE,)


def _player_to(player: Player) -> To:
    return To(user_id=player.user_id, email=player.email)


def _user_to(user) -> To:
    return To(user_id=user.pk, email=getattr(user, "email", "") or "")


def team_people(team_ids: Iterable[int], *, captains: bool = True) -> list[To]:
    """The registered players of the teams (and their captains and vice-captains), in
    two queries; people are told once by `notify` however often they appear."""
    team_ids = [t for t in team_ids if t is not None]
    out = [
        _player_to(r.player)
        for r in Registration.objects.filter(team_id__in=team_ids, status__in=ON_ROSTER)
        .select_related("player")
        .order_by("player_id")
        if not r.player.is_erased
    ]
    if captains:
        for team in Team.objects.filter(pk__in=team_ids).select_related("captain", "vice_captain"):
            out += [_user_to(u) for u in (team.captain, team.vice_captain) if u is not None]
    return out


def season_people(season_id: int, league_id: int) -> list[To]:
    """A season's registered players, its captains, and the league's officers."""
    team_ids = list(Team.objects.filter(season_id=season_id).values_list("pk", flat=True))
    out = team_people(team_ids)
    out += [
        _user_to(role.user)
        for role in LeagueRole.objects.filter(league_id=league_id).select_related("user")
    ]
    return out


def leagues_of(*, user_id: int | None, email: str = "") -> list[tuple[int, str]]:
    """(id, name) of the leagues a person plays in (a registration, or captaining a
    team), or officiates in, by their login or (without one) their roster address. One
    query."""
    ids: list = []
    if user_id is not None:
        ids = [
            LeagueRole.objects.filter(user_id=user_id).values("league_id"),
            Registration.objects.filter(player__user_id=user_id, status__in=ON_ROSTER).values(
                "season__league_id"
            ),
            Team.objects.filter(Q(captain_id=user_id) | Q(vice_captain_id=user_id)).values(
                "season__league_id"
            ),
        ]
    elif email:
        ids = [
            Registration.objects.filter(
                player__user__isnull=True, player__email__iexact=email, status__in=ON_ROSTER
            ).values("season__league_id")
        ]
    if not ids:
        return []
    where = Q(pk__in=ids[0])
    for more in ids[1:]:
        where |= Q(pk__in=more)
    return list(League.objects.filter(where).order_by("name").values_list("pk", "name"))
