"""The draw's seed, by commit and reveal: each captain's phone commits to a secret
(Ready), then reveals it once every commitment, the server's included, is in."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from frames.models import (
    SIDES,
    Match,
    MatchLog,
    Presence,
    other_side,
)
from frames.results import (
    lock_match,
)
from marker import commit_reveal
from marker.errors import DomainError

from .common import (
    ROUND_FIELDS,
    User,
    new_server_secret,
    require_captain,
    require_status,
    resolve_now,
    restart_round,
)


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
    commitment replaces the old one (a lost phone) only until the other side has
    committed: from then on a commitment is final (`commitment_final`), and a lost phone
    starts the whole round again (match_restart_ready). The server made its own
    commitment when the match was opened, before either captain.
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
    value = commit_reveal.normalise_commitment(commitment)
    if value:
        if not commit_reveal.is_commitment(value):
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
        secret, value, made_by = "", "", "server"
    if current and getattr(match, f"{other_side(side)}_commitment"):
        raise DomainError(
            "commitment_final",
            f"{match.team(side).name} is already Ready and {match.team(other_side(side)).name} "
            "has committed too: a commitment is final once the other side has committed. "
            "If this phone lost its secret, start Ready again for both sides.",
            status=409,
        )
    if made_by == "server":
        secret = commit_reveal.new_secret()
        value = commit_reveal.commitment(secret)
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
    if not commit_reveal.verify(secret, recorded):
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


@transaction.atomic
def match_restart_ready(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain starts Ready again for both sides (a phone lost its secret once both had
    committed): both commitments and any secrets revealed are set aside and the server
    commits to a new secret; each captain presses Ready again. Nobody has seen a secret
    of the old round, so nobody gains by it. Nothing to restart changes nothing."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "start Ready again for this match")
    require_status(match, Match.Status.SETUP)
    if not any(getattr(match, f"{s}_commitment") for s in SIDES):
        return match
    restart_round(match)
    match.save(update_fields=ROUND_FIELDS)
    MatchLog.add(
        match, actor, "ready_restarted", now, side=side, server_commitment=match.server_commitment
    )
    return match
