"""The ledger's side of a cup entry's fee, as `competitions.common` asks for it (the
hook `set_fee_ledger`: competitions sits below money and cannot import it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import services


def entry_fee_charge(*, entry: Any, actor: Any, now: datetime) -> None:
    services.cup_entry_charge(entry=entry, actor=actor, now=now)


def entry_fee_settle(*, entry: Any, actor: Any, paid: bool, now: datetime) -> None:
    services.cup_entry_settle(entry=entry, actor=actor, paid=paid, now=now)
