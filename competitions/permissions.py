"""Who may do what in a competition. Registered into the one predicate table
(marker.permissions) when the app loads."""

from __future__ import annotations

from typing import Any

from marker.permissions import (
    is_authenticated,
    is_competitions_secretary,
    is_team_captain,
    register,
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
    return is_competitions_secretary(user, tie) or is_tie_party(user, tie)


def can_manage_entry(user: Any, entry: Any) -> bool:
    return is_competitions_secretary(user, entry) or speaks_for_entry(user, entry)


# The competition's secretary: create, draw, deadlines, awards, walkovers, fees.
register("competitions.manage", is_competitions_secretary)
# Enter a competition (the service checks the entry mode, the date and eligibility).
register("competitions.enter", is_authenticated)
# Withdraw an entry: its player or captain, or the secretary.
register("competitions.manage_entry", can_manage_entry)
# Record or confirm a tie's result, open its frames on the pad: its players or captains.
register("competitions.play_tie", can_play_tie)
register("competitions.captain_team", is_team_captain)
