"""Who may do what on match night. Registered into the one predicate table
(marker.permissions) when the app loads; views and the API ask `user.has_perm(...)`."""

from __future__ import annotations

from typing import Any

from marker.permissions import is_authenticated, is_secretary, is_team_captain, register


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
    """A league frame: its referee, a captain of either team, or the secretary. A friendly
    game: whoever started it."""
    if frame is not None and frame.friendly_id is not None:
        return is_friendly_owner(user, frame)
    return (
        is_secretary(user)
        or is_frame_referee(user, frame)
        or (frame is not None and is_match_captain(user, frame.match))
    )


def can_run_match(user: Any, match: Any) -> bool:
    return is_secretary(user) or is_match_captain(user, match)


register("frames.run_match", can_run_match)
register("frames.settle_dispute", is_secretary)
# Replace a result scored on the pad with paper scores.
register("frames.replace_pad_result", is_secretary)
# Only this team's captain or vice-captain (the object is the team).
register("frames.captain_team", is_team_captain)
register("frames.enter_event", can_enter_frame_events)


def can_open_match(user: Any, fixture: Any) -> bool:
    """Open match night for a fixture: a captain of either team, or the secretary."""
    if fixture is None:
        return False
    return (
        is_secretary(user)
        or is_team_captain(user, fixture.home)
        or is_team_captain(user, fixture.away)
    )


register("frames.open_match", can_open_match)
# What only a captain can do, for their own side: Ready, reveal, agree to play short, ask
# for a re-draw, propose or accept an order of play, confirm or dispute the result.
register("frames.captain_match", is_match_captain)
