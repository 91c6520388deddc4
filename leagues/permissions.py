"""Who may do what in a league: registered into the one predicate table
(marker.permissions) when the app loads; views, services and the API ask for them by name."""

from __future__ import annotations

from marker.permissions import either, is_authenticated, is_secretary, is_team_captain, register

from .models import Season

register("leagues.manage_league", is_secretary)
register("leagues.register_team", is_authenticated)
register("leagues.change_team", either(is_secretary, is_team_captain))
register("leagues.manage_fixtures", is_secretary)


def is_officer_for_player(user, player) -> bool:
    """A secretary of a league this player has been registered in, or the site
    administrator (a player who never registered: whoever is secretary of `player`, which
    is the site administrator once leagues are tenants)."""
    if not is_authenticated(user) or player is None:
        return False
    if user.is_superuser:
        return True
    seasons = list(
        Season.objects.filter(registrations__player=player).select_related("league").distinct()
    )
    if not seasons:
        return is_secretary(user, player)
    return any(is_secretary(user, season) for season in seasons)


def sees_full_name(user, player) -> bool:
    """The player themself and the league's officers see the full name of a player who
    asked not to be named publicly; everyone else sees their initials."""
    if player is None:
        return False
    if is_authenticated(user) and player.user_id is not None and player.user_id == user.pk:
        return True
    return is_officer_for_player(user, player)


register("leagues.erase_person", is_officer_for_player)
register("leagues.see_full_name", sees_full_name)
