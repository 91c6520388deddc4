"""Captains' nominations, for a format whose players are not drawn from a hat
(docs/formats.md): a blind nomination (every frame's players, section by section) or a
numbered lineup (placed by the format's pairing schedule).

Secrecy and fairness: a nomination is kept server-side and shown to nobody but its own
side until both are in; each is committed to when submitted (the SHA-256 of its canonical
JSON and a random salt, shown to both captains at once), so once both are in and revealed
together anyone can check that neither changed after seeing the other's. A captain may
replace their own nomination until the other side's is in; from then on both are final.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from frames.draw import DrawError, check_nomination
from frames.models import SIDES, Match, MatchLog
from frames.results import lock_match
from leagues.models import Player
from marker.commit_reveal import commitment as sha256_commitment
from marker.errors import DomainError
from marker.formats import BLIND, FIXED

from .common import User, present_players, require_captain, require_status, resolve_now


def canonical(nomination: Any) -> str:
    """The nomination's JSON as committed to: compact, keys sorted."""
    return json.dumps(nomination, separators=(",", ":"), sort_keys=True)


def nomination_commitment(nomination: Any, salt: str) -> str:
    """SHA-256 of ``salt:canonical JSON`` (``printf %s "$SALT:$JSON" | sha256sum``)."""
    return sha256_commitment(f"{salt}:{canonical(nomination)}")


def both_nominated(match: Match) -> bool:
    return match.home_nomination is not None and match.away_nomination is not None


def nomination_labels(match: Match, side: str, nomination: Any) -> Any:
    """A stored nomination (player ids) as the draw's labels (names), for frames.draw."""
    label_of = {p.pk: label for label, p in present_players(match)[side].items()}
    absent = dict(
        Player.objects.filter(pk__in=_ids(nomination) - set(label_of)).values_list("pk", "name")
    )

    def name(pk: int) -> str:
        return label_of.get(pk) or f"{absent.get(pk, 'Player')} (no longer marked present)"

    if match.format.selection == FIXED:
        return [name(pk) for pk in nomination]
    return [[[name(pk) for pk in frame] for frame in section] for section in nomination]


def _ids(nomination: Any) -> set[int]:
    if isinstance(nomination, int):
        return {nomination}
    if isinstance(nomination, list):
        return set().union(*(_ids(item) for item in nomination)) if nomination else set()
    return set()


@transaction.atomic
def match_nominate(
    *,
    match: Match,
    side: str,
    actor: User,
    sections: Sequence[Sequence[Sequence[Player]]] | None = None,
    lineup: Sequence[Player] | None = None,
    now: datetime | None = None,
) -> Match:
    """A captain submits their side's nomination: `sections` (blind: per section, per
    frame, the players; an empty frame concedes it, for a side short by agreement) or
    `lineup` (fixed order: the players numbered 1, 2, 3 …). Checked at once against the
    players present and the format's substitution rule; nothing of it is shown to the
    other side until both are in. Submitting the same nomination again changes nothing."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "nominate this side's players")
    require_status(match, Match.Status.SETUP)
    fmt = match.format
    if fmt.selection not in (BLIND, FIXED):
        raise DomainError(
            "not_nominated_format",
            f"In this format ({fmt.name}) players are drawn from the hat: there is nothing "
            "to nominate.",
        )
    present = present_players(match)[side]
    ids = {p.pk for p in present.values()}
    if fmt.selection == FIXED:
        if lineup is None or sections is not None:
            raise DomainError(
                "bad_nomination",
                "This format takes a numbered lineup (the players in order).",
                field="lineup",
            )
        stored: Any = [p.pk for p in lineup]
        picked = list(lineup)
    else:
        if sections is None or lineup is not None:
            raise DomainError(
                "bad_nomination",
                "This format takes every frame's players, section by section.",
                field="sections",
            )
        stored = [[[p.pk for p in frame] for frame in section] for section in sections]
        picked = [p for section in sections for frame in section for p in frame]
    for player in picked:
        if player.pk not in ids:
            raise DomainError(
                "not_present",
                f"{player.name} is not marked present for {match.team(side).name}.",
                field="lineup" if fmt.selection == FIXED else "sections",
            )
    agreed = match.short_agreed_home and match.short_agreed_away
    try:
        check_nomination(
            fmt, side, tuple(sorted(present)), nomination_labels(match, side, stored), agreed
        )
    except DrawError as exc:
        raise DomainError(
            exc.code, exc.message, field="lineup" if fmt.selection == FIXED else "sections"
        ) from None
    current = getattr(match, f"{side}_nomination")
    if current == stored:
        return match
    if both_nominated(match):
        raise DomainError(
            "nomination_final",
            "Both nominations are in and revealed: they can no longer change.",
            status=409,
        )
    salt = secrets.token_hex(16)
    setattr(match, f"{side}_nomination", stored)
    setattr(match, f"{side}_nomination_salt", salt)
    setattr(match, f"{side}_nomination_commitment", nomination_commitment(stored, salt))
    fields = [f"{side}_nomination", f"{side}_nomination_salt", f"{side}_nomination_commitment"]
    match.save(update_fields=fields)
    MatchLog.add(
        match,
        actor,
        "nominated",
        now,
        side=side,
        commitment=getattr(match, f"{side}_nomination_commitment"),
        replaces=bool(current),
    )
    if both_nominated(match):
        MatchLog.add(
            match,
            None,
            "nominations_revealed",
            now,
            **{
                s: {
                    "nomination": getattr(match, f"{s}_nomination"),
                    "salt": getattr(match, f"{s}_nomination_salt"),
                    "commitment": getattr(match, f"{s}_nomination_commitment"),
                }
                for s in SIDES
            },
        )
    return match


def visible_nomination(match: Match, side: str, viewer_side: str | None) -> Any:
    """What a viewer may see of a side's nomination: all of it once both are in; before,
    only its own captain (`viewer_side` == side) sees it; anyone sees whether it is in
    and its commitment."""
    nomination = getattr(match, f"{side}_nomination")
    if nomination is None:
        return None
    if both_nominated(match) or viewer_side == side:
        return nomination
    return None


__all__ = [
    "both_nominated",
    "canonical",
    "match_nominate",
    "nomination_commitment",
    "nomination_labels",
    "visible_nomination",
]
