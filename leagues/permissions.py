"""Who may do what in a league: registered into the one predicate table
(marker.permissions) when the app loads; views, services and the API ask for them by name.

Every secretary predicate decides from the league of the object it is asked about
(docs/tenancy.md): pass the season, division, team, fixture… or the league itself."""

from __future__ import annotations

from typing import Any

from marker.permissions import (
    either,
    is_authenticated,
    is_competitions_secretary,
    is_results_secretary,
    is_secretary,
    is_site_admin,
    is_team_captain,
    league_ids_where,
    register,
    set_role_loader,
)

from .models import LeagueRole, Organisation, OrganisationRole, PostConversation, Season, Team


def load_league_roles(user: Any) -> dict[int, frozenset[str]]:
    """One query: the user's roles, by league id."""
    roles: dict[int, set[str]] = {}
    for league_id, role in LeagueRole.objects.filter(user_id=user.pk).values_list(
        "league_id", "role"
    ):
        roles.setdefault(league_id, set()).add(role)
    return {league_id: frozenset(held) for league_id, held in roles.items()}


set_role_loader(load_league_roles)

# Everything of the league: seasons, divisions, teams, tables and publishing, officers.
register("leagues.manage_league", is_secretary)
# Add and remove the league's officers (the object is the league).
register("leagues.manage_officers", is_secretary)
# Create a league and appoint its first secretary (no object): the site administrator.
register("leagues.create_league", is_site_admin)
register("leagues.register_team", is_authenticated)
register("leagues.change_team", either(is_secretary, is_team_captain))
# Fixtures and results: move, postpone, award a walkover or a concession.
register("leagues.manage_fixtures", is_results_secretary)


# Post and end notices (the object is the league; None, the whole site: a site administrator).
def can_post_notice(user: Any, league: Any) -> bool:
    return is_site_admin(user) if league is None else is_secretary(user, league)


register("leagues.post_notice", can_post_notice)
# Competitions (cups, knockouts): the competitions secretary.
register("leagues.manage_competitions", is_competitions_secretary)


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


def is_organisation_officer(user, organisation: Organisation | None, *roles: str) -> bool:
    """An officer of the organisation (any of `roles`, or any role), or the site
    administrator."""
    if not is_authenticated(user) or organisation is None:
        return False
    if user.is_superuser:
        return True
    held = OrganisationRole.objects.filter(organisation=organisation, user_id=user.pk)
    if roles:
        held = held.filter(role__in=roles)
    return held.exists()


def is_organisation_secretary(user, organisation: Organisation | None) -> bool:
    return is_organisation_officer(user, organisation, OrganisationRole.Role.SECRETARY)


# An organisation above leagues: its members, officers, competitions, series, rankings.
register("leagues.manage_organisation", is_organisation_secretary)
register("leagues.run_organisation_competitions", is_organisation_officer)
# Its ranking rules (the minimum frames, the games ranked): any of its officers.
register("leagues.set_organisation_rankings", is_organisation_officer)
register("leagues.erase_person", is_officer_for_player)
register("leagues.see_full_name", sees_full_name)
register("leagues.import_data", is_secretary)
register("leagues.export_data", is_secretary)


def is_league_officer(user, obj) -> bool:
    """Any officer of the league of `obj` (a secretary, results or competitions secretary)."""
    return is_results_secretary(user, obj) or is_competitions_secretary(user, obj)


# Availability (docs/availability.md): the team's captain or vice-captain, or an officer of
# its league, asks the squad, chases, and sees (and sets) the answers. The object is a team.
register("leagues.ask_availability", either(is_team_captain, is_league_officer))


# The directory ("Where to play", docs/directory.md).
def is_secretary_at_venue(user, venue) -> bool:
    """A secretary of a league whose teams play at the venue this season (a season not
    finished), or the site administrator: they keep its tables, nights and notes."""
    if not is_authenticated(user) or venue is None:
        return False
    if user.is_superuser:
        return True
    leagues = league_ids_where(user)
    if not leagues:
        return False
    return (
        Team.objects.filter(venue=venue, season__league_id__in=leagues)
        .exclude(season__status=Season.Status.FINISHED)
        .exists()
    )


def is_conversation_party(user, conversation: PostConversation | None) -> bool:
    """The post's author or the person who answered it: nobody else reads their messages."""
    if not is_authenticated(user) or conversation is None:
        return False
    return user.pk in (conversation.answerer_id, conversation.post.author_id)


def is_post_author(user, post) -> bool:
    return is_authenticated(user) and post is not None and post.author_id == user.pk


register("leagues.edit_venue", is_secretary_at_venue)
# "Join a team": the team's captain or vice-captain, for their team (the object is the team).
register("leagues.post_for_team", is_team_captain)
# "Looking for a team", and answering a post: anyone signed in.
register("leagues.post_looking", is_authenticated)
register("leagues.answer_post", is_authenticated)
register("leagues.withdraw_post", is_post_author)
# The league's secretary publishes or refuses its posts (the object is the league or a post).
register("leagues.moderate_posts", is_secretary)
register("leagues.see_conversation", is_conversation_party)
