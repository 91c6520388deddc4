"""What every stage of match night shares: the actor and clock, who may act, and the
players present."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.utils import timezone

from frames.models import (
    SIDES,
    Frame,
    FrameEvent,
    Match,
    Presence,
)
from leagues.models import Player
from marker import commit_reveal
from marker.errors import DomainError
from marker.permissions import require

User = Any  # settings.AUTH_USER_MODEL instance (or None for the system)


#: A frame conceded by both short sides (the model stores one word).
BOTH = "both"


FRAME_NUMBERS = tuple(range(1, 10))


OPEN = (Match.Status.DRAWN, Match.Status.IN_PLAY)


def resolve_now(now: datetime | None) -> datetime:
    return now or timezone.now()


def check_side(side: str) -> str:
    if side not in SIDES:
        raise DomainError("bad_side", f"A side is 'home' or 'away', not {side!r}.", field="side")
    return side


def require_captain(match: Match, side: str, actor: User, doing: str, *, secretary: bool = False):
    """Only the side's captain or vice-captain (or, where allowed, the secretary)."""
    check_side(side)
    who = f"{match.team(side).name}'s captain or vice-captain"
    require(
        actor,
        "leagues.change_team" if secretary else "frames.captain_team",
        match.team(side),
        code="not_captain",
        message=f"Only {who}{' or the secretary' if secretary else ''} can {doing}.",
    )


def require_runner(match: Match, actor: User, doing: str) -> None:
    """A captain of either side, or the secretary."""
    require(
        actor,
        "frames.run_match",
        match,
        code="not_captain",
        message=f"Only a captain of either team or the secretary can {doing}.",
    )


def require_status(match: Match, *allowed: str) -> None:
    if match.status in allowed:
        return
    messages: dict[str, tuple[str, str]] = {
        Match.Status.SETUP: ("not_drawn", "The match has not been drawn yet."),
        Match.Status.DRAWN: ("already_drawn", "The match has been drawn."),
        Match.Status.IN_PLAY: ("in_play", "The match is being played."),
        Match.Status.COMPLETE: (
            "complete",
            "Every frame is finished; the result awaits confirmation.",
        ),
        Match.Status.DISPUTED: (
            "match_disputed",
            "The result is disputed; the secretary settles it.",
        ),
        Match.Status.CONFIRMED: (
            "already_confirmed",
            "The result is confirmed; it can no longer change.",
        ),
    }
    code, message = messages[match.status]
    raise DomainError(code, message, status=409)


def _name_key(name: str) -> str:
    """Names people read as the same (the draw refuses them in one hat)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def player_labels(players: Iterable[Player]) -> dict[str, Player]:
    """A side's hat: one stable, unique label per player. The label is the player's name;
    two present players whose names read the same both get their id appended, so the draw
    depends only on who is present and the seed.

    >>> sorted(player_labels([Player(pk=3, name="Dave"), Player(pk=4, name="dave ")]))
    ['Dave #3', 'dave #4']
    """
    players = list(players)
    keys = Counter(_name_key(p.name) for p in players)
    labels = {}
    for player in sorted(players, key=lambda p: p.pk):
        name = " ".join(player.name.split())
        labels[
            name if name and keys[_name_key(name)] == 1 else f"{name or 'Player'} #{player.pk}"
        ] = player
    return labels


def present_players(match: Match) -> dict[str, dict[str, Player]]:
    """Label → player for each side's present players."""
    by_side: dict[str, list[Player]] = {side: [] for side in SIDES}
    for presence in Presence.objects.filter(match=match).select_related("player"):
        by_side[presence.side].append(presence.player)
    return {side: player_labels(players) for side, players in by_side.items()}


def new_server_secret(match: Match) -> None:
    match.server_secret = commit_reveal.new_secret()
    match.server_commitment = commit_reveal.commitment(match.server_secret)


#: The fields a new round of Ready rewrites (restart_round).
ROUND_FIELDS = [
    *(f"{side}_{part}" for side in SIDES for part in ("commitment", "secret")),
    "server_commitment",
    "server_secret",
]


def restart_round(match: Match) -> None:
    """Withdraw both sides' Ready and commit the server to a new secret (the caller saves
    ROUND_FIELDS and logs it). A commitment is final once the other side has committed:
    nobody replaces theirs alone; the whole round starts again instead, so no secret of
    the old round (the other captain's, the server's) counts any more."""
    for side in SIDES:
        setattr(match, f"{side}_commitment", "")
        setattr(match, f"{side}_secret", "")
    new_server_secret(match)


def frames_started(match: Match) -> bool:
    return (
        Frame.objects.filter(match=match)
        .exclude(status__in=[Frame.Status.SCHEDULED, Frame.Status.CONCEDED])
        .exists()
        or FrameEvent.objects.filter(frame__match=match).exists()
    )


def frames_for_update(match: Match):
    return Frame.objects.select_for_update().filter(match=match).prefetch_related("players")
