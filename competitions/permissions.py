"""Who may do what in a competition. Registered into the one predicate table
(marker.permissions) when the app loads."""

from __future__ import annotations

from typing import Any

from leagues.models import Organisation
from leagues.permissions import is_organisation_officer
from marker.permissions import (
    is_authenticated,
    is_competitions_secretary,
    is_secretary,
    is_team_captain,
    register,
    registered,
)


def organisation_of(obj: Any) -> Organisation | None:
    """The organisation whose competition `obj` is (a competition, or its tie, entry,
    round or group); None for a league's competition."""
    if isinstance(obj, Organisation):
        return obj
    competition = obj if hasattr(obj, "settle_by") else getattr(obj, "competition", None)
    if competition is None or getattr(competition, "organisation_id", None) is None:
        return None
    return competition.organisation


def is_competition_officer(user: Any, obj: Any) -> bool:
    """Who runs a competition: a league's competitions secretary (or secretary) for a
    season's; the organisation's officers (its secretary or competitions officer) for an
    organisation's, and no league's secretary."""
    organisation = organisation_of(obj)
    if organisation is not None:
        return is_organisation_officer(user, organisation)
    return is_competitions_secretary(user, obj)


def enters_for_league(user: Any, competition: Any, league: Any) -> bool:
    """In an organisation's competition, a member league's secretary enters that league's
    teams and players (the organisation's officers enter anyone's)."""
    return (
        getattr(competition, "organisation_id", None) is not None
        and league is not None
        and is_secretary(user, league)
    )


def entry_people(entry: Any) -> set[int]:
    """The user ids who speak for an entry: its player and partner, or its team's
    captain and vice-captain."""
    if entry is None:
        return set()
    if entry.team_id is not None:
        return {u for u in (entry.team.captain_id, entry.team.vice_captain_id) if u}
    ids = set()
    for player in (entry.player, entry.partner):
        if player is not None and player.user_id:
            ids.add(player.user_id)
    return ids


def speaks_for_entry(user: Any, entry: Any) -> bool:
    return is_authenticated(user) and user.pk in entry_people(entry)


def is_tie_party(user: Any, tie: Any) -> bool:
    """A player (or captain) of either entrant of the tie."""
    return tie is not None and (
        speaks_for_entry(user, tie.home) or speaks_for_entry(user, tie.away)
    )


def can_play_tie(user: Any, tie: Any) -> bool:
    return is_competition_officer(user, tie) or is_tie_party(user, tie)


def can_manage_entry(user: Any, entry: Any) -> bool:
    return is_competition_officer(user, entry) or speaks_for_entry(user, entry)


# The competition's secretary: create, draw, deadlines, awards, walkovers, fees.
register("competitions.manage", is_competition_officer)
# Enter a competition (the service checks the entry mode, the date and eligibility).
register("competitions.enter", is_authenticated)
# Withdraw an entry: its player or captain, or the secretary.
register("competitions.manage_entry", can_manage_entry)
# Record or confirm a tie's result, open its frames on the pad: its players or captains.
register("competitions.play_tie", can_play_tie)
register("competitions.captain_team", is_team_captain)


def is_county_tie_officer(user: Any, match: Any) -> bool:
    """The officers of the organisation whose competition's tie a match is (a county
    championship's match between teams of two leagues): they settle its disputes and
    correct its result, as the home league's results secretary may."""
    fixture_id = getattr(match, "fixture_id", None)
    if fixture_id is None or not is_authenticated(user):
        return False
    state = getattr(match, "_state", None)
    fixture = state.fields_cache.get("fixture") if state is not None else None
    if fixture is not None and fixture.division_id is not None:
        return False  # a league fixture, in hand: no tie (and no query)
    from .models import Tie

    tie = (
        Tie.objects.filter(fixture_id=fixture_id, competition__organisation__isnull=False)
        .select_related("competition__organisation")
        .first()
    )
    return tie is not None and is_organisation_officer(user, tie.competition.organisation)


# A match's result is settled by its league's results secretary (frames' rule); a county
# tie's, by the county's officers too. Frames knows nothing of competitions, so the rule
# is widened here, where competitions load after frames (INSTALLED_APPS).
_settle_dispute = registered().get("frames.settle_dispute")
if _settle_dispute is not None:
    _frames_settle = _settle_dispute

    def settles_match(user: Any, match: Any) -> bool:
        return _frames_settle(user, match) or is_county_tie_officer(user, match)

    register("frames.settle_dispute", settles_match)
