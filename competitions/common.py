"""What every competition write shares: the clock, the log, the secretary's permission
and the competition's lock."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from marker.permissions import require

from .models import Competition, CompetitionLog, Tie


def resolve_now(now: datetime | None) -> datetime:
    """The time a write happens at: the one given (tests, demos), else now."""
    return now or timezone.now()


def log(
    competition: Competition,
    actor: Any,
    action: str,
    at: datetime,
    tie: Tie | None = None,
    **detail,
) -> None:
    """One line of the competition's log (the actor kept when signed in)."""
    CompetitionLog.objects.create(
        competition=competition,
        tie=tie,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        detail=detail,
        at=at,
    )


def require_secretary(actor: Any, obj: Any, doing: str) -> None:
    """Refuse (403) anyone but the competitions secretary, saying what they tried."""
    require(
        actor,
        "competitions.manage",
        obj,
        message=f"Only the competitions secretary may {doing}.",
    )


def lock_competition(competition: Competition) -> Competition:
    """The competition's row, locked for this transaction."""
    return Competition.objects.select_for_update().get(pk=competition.pk)
