"""What every competition write shares: the clock, the log, the secretary's permission
and the competition's lock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from types import ModuleType
from typing import Any

from django.utils import timezone

from marker.permissions import require

from .models import Competition, CompetitionLog, Entry, Tie

# An entry's fee is a fact of the league's ledger (the `money` app, which sits above
# competitions and registers itself here when it loads): charged when the entry is made,
# paid when that charge is settled. `Entry.paid` reads the ledger's lines on the entry.
_fee_ledger: list[ModuleType] = []


def set_fee_ledger(ledger: ModuleType) -> None:
    """The ledger's module: `entry_fee_charge(entry=, actor=, now=)` and
    `entry_fee_settle(entry=, actor=, paid=, now=)`."""
    _fee_ledger[:] = [ledger]


def fee_charge(entry: Entry, actor: Any, now: datetime) -> None:
    """Charge the entry's fee to its entrant's account (nothing when it is free)."""
    if _fee_ledger:
        _fee_ledger[0].entry_fee_charge(entry=entry, actor=actor, now=now)


def fee_settle(entry: Entry, actor: Any, paid: bool, now: datetime) -> None:
    """Record the entry's fee as paid (a payment of what is owed on it) or not (its
    payments reversed)."""
    if not _fee_ledger:
        raise RuntimeError("No ledger is installed to record fees in.")
    _fee_ledger[0].entry_fee_settle(entry=entry, actor=actor, paid=paid, now=now)


# Rules of the apps above (a ranking series' category: `series`) that an entry must also
# pass: each is called with the competition, the player and the time of entry, and raises
# the DomainError that names the rule. Registered when those apps load.
EntryCheck = Callable[[Competition, Any, datetime], None]
_entry_checks: list[EntryCheck] = []


def add_entry_check(check: EntryCheck) -> None:
    """An app above adds a rule a player's entry must pass (once: added again, kept once)."""
    if check not in _entry_checks:
        _entry_checks.append(check)


def run_entry_checks(competition: Competition, player: Any, now: datetime) -> None:
    """Every rule the apps above added, in the order they were added."""
    for check in _entry_checks:
        check(competition, player, now)


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
