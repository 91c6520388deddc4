"""What the league's money holds of a person (`marker.personal_data`): the lines of
their player account (subs, fines, payments, reversals), each season's. They are the
league's accounts and are kept on erasure, as results are: the player's row is renamed,
so a statement then reads "Former player N". What a rule writes in a line's text names
teams, fixtures and competitions, never a person; a treasurer's own note may, and is
exported with the line."""

from __future__ import annotations

from typing import Any

from marker.personal_data import Person, Section, iso

from .models import LedgerEntry


def _lines(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    rows = (
        LedgerEntry.objects.filter(player=person.player)
        .select_related("season__league")
        .order_by("created_at", "id")
    )
    return [
        {
            "league": e.season.league.name,
            "season": e.season.name,
            "kind": e.kind,
            "amount_pence": e.amount,
            "description": e.description,
            "method": e.method,
            "paid_on": e.paid_on.isoformat() if e.paid_on else None,
            "reference": e.reference,
            "reverses": e.reverses_id,
            "created_at": iso(e.created_at),
        }
        for e in rows
    ]


SECTIONS: tuple[Section, ...] = (
    Section(
        "money",
        (
            "money.LedgerEntry.player",
            "money.LedgerEntry.description",
            "money.LedgerEntry.reference",
        ),
        export=_lines,
        description="the lines of the player's account: subs, fines, payments (kept)",
    ),
)

#: Fields that look personal by the rule and are not, with why.
NOT_PERSONAL: dict[str, str] = {
    "money.LedgerEntry.created_by": "the officer who wrote the line (an account, emptied on theirs)",
    "money.FeeSchedule.updated_by": "the officer who set the fees (an account, emptied on theirs)",
}
