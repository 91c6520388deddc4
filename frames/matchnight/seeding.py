"""The draw's seed, by commit and reveal: each captain's phone commits to a secret
(Ready), then reveals it once every commitment, the server's included, is in."""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from django.db import transaction

from frames.draw import commitment as sha256_commitment
from frames.models import (
    Match,
    MatchLog,
    Presence,
)
from frames.results import (
    lock_match,
)
from marker.errors import DomainError

from .common import (
    User,
    new_server_secret,
    require_captain,
    require_status,
    resolve_now,
)

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@transaction.atomic
def match_commit(
    *,
    match: Match,
    side: str,
    actor: User,
    commitment: str = "",
    now: datetime | None = None,
) -> Match:
    """A captain presses Ready: their side commits to a secret for the seed.

    With `commitment` (the SHA-256 of a secret made on the captain's phone), the
    secret stays on the phone until every commitment is in, then is revealed with
    match_reveal. Without it, the server makes the secret for the captain: unknowable to
    the other captain, though not to the server. Pressing Ready again with a new
    commitment replaces the old one (a lost phone); the server made its own commitment
    when the match was opened, so no party learns anything from the others' secrets.
    """
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "press Ready for this side")
    require_status(match, Match.Status.SETUP)
    if not Presence.objects.filter(match=match, side=side).exists():
        raise DomainError(
            "no_players", "Mark who is present for your side before pressing Ready.", field="side"
        )
    current = getattr(match, f"{side}_commitment")
    held = getattr(match, f"{side}_secret")
    value = (commitment or "").strip().lower()
    if value:
        if not _HEX64.match(value):
            raise DomainError(
                "bad_commitment",
                "A commitment is the SHA-256 of the secret: 64 hexadecimal characters.",
                field="commitment",
            )
        if value == current:
            return match
        secret, made_by = "", "device"
    else:
        if current and held:
            return match  # already Ready with a secret the server holds
        secret = secrets.token_hex(16)
        value, made_by = sha256_commitment(secret), "server"
    if not match.server_commitment:
        new_server_secret(match)
    setattr(match, f"{side}_commitment", value)
    setattr(match, f"{side}_secret", secret)
    match.save(
        update_fields=[f"{side}_commitment", f"{side}_secret", "server_commitment", "server_secret"]
    )
    MatchLog.add(
        match,
        actor,
        "committed",
        now,
        side=side,
        commitment=value,
        made_by=made_by,
        replaced=bool(current),
    )
    return match


def all_committed(match: Match) -> bool:
    return bool(match.home_commitment and match.away_commitment and match.server_commitment)


@transaction.atomic
def match_reveal(
    *, match: Match, side: str, secret: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain's phone reveals the secret it committed to, once all three commitments
    are in. A secret that does not match its commitment is refused."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "reveal this side's secret")
    require_status(match, Match.Status.SETUP)
    if not all_committed(match):
        raise DomainError(
            "not_all_committed",
            "Wait until both captains have pressed Ready: no secret is revealed before all "
            "three commitments are in.",
        )
    secret = (secret or "").strip()
    recorded = getattr(match, f"{side}_commitment")
    if not secret or sha256_commitment(secret) != recorded:
        raise DomainError(
            "reveal_mismatch",
            f"That secret does not match the {side} commitment {recorded[:12]}…; "
            "reveal the secret this side committed to (or press Ready again).",
            field="secret",
        )
    if getattr(match, f"{side}_secret") == secret:
        return match
    setattr(match, f"{side}_secret", secret)
    match.save(update_fields=[f"{side}_secret"])
    MatchLog.add(match, actor, "revealed", now, side=side)
    return match
