"""What every stage of match night shares: the actor and clock, who may act, and the
players present."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
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
from marker.personal_data import rewriter, unique_label

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


def public_labels(
    present: Mapping[str, Iterable[Player]],
    drawn: Mapping[str, Mapping[str, int]] | None = None,
) -> dict[str, dict[str, str]]:
    """Per side, the hat label of each player who asked not to be named → the label the
    public sees: their initials, with their id where that would read as another label of
    the side ("N. N. #12"). Labels are only names for hat positions: the draw depends on
    the hat's order and the seed, not on the spelling, so a hat published with these labels
    in its stored order replays (`python -m frames.draw --as-listed`, docs/draw.md).
    `drawn` is the draw's label → player id per side as logged (else today's labels).

    >>> ann, bob = Player(pk=1, name="Ann Bee", private_name=True), Player(pk=2, name="A. B.")
    >>> public_labels({"home": [ann, bob], "away": []})
    {'home': {'Ann Bee': 'A. B. #1'}, 'away': {}}
    """
    out: dict[str, dict[str, str]] = {}
    for side in SIDES:
        players = {p.pk: p for p in present.get(side, ())}
        if drawn is not None and side in drawn:
            labels = {label: int(pk) for label, pk in drawn[side].items()}
        else:
            labels = {label: p.pk for label, p in player_labels(players.values()).items()}
        hidden = {pk for pk, p in players.items() if p.private_name}
        taken = Counter(_name_key(label) for label, pk in labels.items() if pk not in hidden)
        taken.update(_name_key(players[pk].initials) for pk in labels.values() if pk in hidden)
        changed: dict[str, str] = {}
        for label, pk in labels.items():
            if pk in hidden:
                public = players[pk].initials
                if label.endswith(f" #{pk}") or taken[_name_key(public)] > 1:
                    public = f"{public} #{pk}"
                changed[label] = public
        out[side] = changed
    return out


def frame_names(sides: Mapping[str, Iterable[tuple[str, Player]]]) -> dict[str, list[str]]:
    """The labels a frame's engine setup stores for its players, per side, from each
    player's label (their hat label, or their name): a player who asked not to be named is
    stored by their initials, with their id where that would read as another label of the
    frame ("N. N. #12"), so the pad, the state, the shot log and the worm show what the
    public may see from the start (`people.naming` renames them when that changes).

    >>> ann, bob = Player(pk=1, name="Ann Bee", private_name=True), Player(pk=2, name="A. B.")
    >>> frame_names({"home": [("Ann Bee", ann)], "away": [("A. B.", bob)]})
    {'home': ['A. B. #1'], 'away': ['A. B.']}
    """
    rows = {side: list(items) for side, items in sides.items()}
    taken = [label for items in rows.values() for label, p in items if not p.private_name]
    out: dict[str, list[str]] = {}
    for side, items in rows.items():
        names = []
        for label, player in items:
            if player.private_name:
                label = unique_label(player.initials, player.pk, taken)
                taken.append(label)
            names.append(label)
        out[side] = names
    return out


def public_hats(detail: Any) -> tuple[dict[str, list[str]], Callable[[Any], Any]]:
    """A drawn match's hats as the public sees them (`public_labels`, in their stored
    order), and the rewrite of its other stored texts (the draw's notes, the log). From
    the match's detail (`frames.selectors.match_detail`): no query."""
    logged = next(
        (e.detail.get("players") for e in reversed(detail.log) if e.action == "drawn"), None
    )
    present = {side: [p.player for p in detail.squads[side].present] for side in SIDES}
    labels = public_labels(present, logged if isinstance(logged, dict) else None)
    hats = {
        side: [labels[side].get(label, label) for label in getattr(detail.match, f"{side}_hat")]
        for side in SIDES
    }
    changed = {old: new for side in SIDES for old, new in labels[side].items()}
    others = {" ".join(p.name.split()) for side in SIDES for p in present[side]}
    if isinstance(logged, dict):
        others |= {label for side in SIDES for label in logged.get(side, {})}
    return hats, rewriter(changed, others - set(changed))


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
