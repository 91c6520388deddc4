"""Who may do what on match night. Registered into the one predicate table
(marker.permissions) when the app loads; views and the API ask `user.has_perm(...)`."""

from __future__ import annotations

from typing import Any

from marker.permissions import (
    is_authenticated,
    is_results_secretary,
    is_team_captain,
    league_id_of,
    register,
)


def is_match_captain(user: Any, match: Any) -> bool:
    """Captain or vice-captain of either team in this match."""
    if match is None:
        return False
    fixture = match.fixture
    return is_team_captain(user, fixture.home) or is_team_captain(user, fixture.away)


def is_frame_referee(user: Any, frame: Any) -> bool:
    """The player appointed to referee this frame (read from the frame's referee, which
    the write path's one query brings along, not from `user.player`)."""
    if not is_authenticated(user) or frame is None or frame.referee_id is None:
        return False
    return frame.referee.user_id is not None and frame.referee.user_id == user.pk


def is_friendly_owner(user: Any, frame: Any) -> bool:
    """Whoever started this friendly game."""
    return (
        is_authenticated(user)
        and frame is not None
        and frame.friendly_id is not None
        and frame.friendly.owner_id == user.pk
    )


def can_enter_frame_events(user: Any, frame: Any) -> bool:
    """A league frame: its referee, a captain of either team, or a results secretary of
    its league. A friendly game: whoever started it."""
    if frame is not None and frame.friendly_id is not None:
        return is_friendly_owner(user, frame)
    return (
        is_frame_referee(user, frame)
        or (frame is not None and is_match_captain(user, frame.match))
        or is_results_secretary(user, frame)
    )


def can_run_match(user: Any, match: Any) -> bool:
    return is_match_captain(user, match) or is_results_secretary(user, match)


register("frames.run_match", can_run_match)
# Settle a disputed (or unconfirmed) result: a results secretary of the match's league.
register("frames.settle_dispute", is_results_secretary)
# Replace a result scored on the pad with paper scores.
register("frames.replace_pad_result", is_results_secretary)
# Only this team's captain or vice-captain (the object is the team).
register("frames.captain_team", is_team_captain)
register("frames.enter_event", can_enter_frame_events)


def can_open_match(user: Any, fixture: Any) -> bool:
    """Open match night for a fixture: a captain of either team, or a results secretary."""
    if fixture is None:
        return False
    return (
        is_team_captain(user, fixture.home)
        or is_team_captain(user, fixture.away)
        or is_results_secretary(user, fixture)
    )


register("frames.open_match", can_open_match)
# What only a captain can do, for their own side: Ready, reveal, agree to play short, ask
# for a re-draw, propose or accept an order of play, confirm or dispute the result.
register("frames.captain_match", is_match_captain)


# ------------------------------------------------------------------ the paper card's photos


def _referees_match(user: Any, match: Any) -> bool:
    """Referees a frame of this match (one query)."""
    from frames.models import Frame

    return Frame.objects.filter(match_id=match.pk, referee__user_id=user.pk).exists()


def can_upload_card(user: Any, match: Any) -> bool:
    """Photograph the signed card: a captain of either team, a referee of the match, or a
    results secretary of its league."""
    if not is_authenticated(user) or match is None:
        return False
    return (
        is_match_captain(user, match)
        or is_results_secretary(user, match)
        or _referees_match(user, match)
    )


def can_view_card(user: Any, match: Any) -> bool:
    """See the photographed card (it shows the players' names and signatures): signed-in
    members of the match's league (a player on the roster of one of its teams, any season),
    the match's captains and referees, and the league's officers. Not the public."""
    if not is_authenticated(user) or match is None:
        return False
    if is_match_captain(user, match) or is_results_secretary(user, match):
        return True
    from leagues.models import Registration

    league_id = league_id_of(match)
    if league_id is None:
        return _referees_match(user, match)
    member = Registration.objects.filter(
        player__user_id=user.pk,
        team__season__league_id=league_id,
        status=Registration.Status.ACTIVE,
    ).exists()
    return member or _referees_match(user, match)


register("frames.upload_card", can_upload_card)
register("frames.view_card", can_view_card)
