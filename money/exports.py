"""The treasurer's spreadsheets: the season's ledger, the balances, the AGM summary, as
CSV or XLSX. Amounts are in pounds as numbers (two decimals); a name that looks like a
formula stays text (`marker.spreadsheet`, as the league's other exports)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.utils import timezone

from leagues.models import Season
from marker import spreadsheet

from . import selectors


def _pounds(pence: int) -> float:
    return float(Decimal(pence) / 100)


def ledger_rows(season: Season) -> list[list]:
    rows: list[list] = [
        [
            "Date",
            "Account",
            "Account type",
            "Kind",
            "Description",
            "Charge (£)",
            "Credit (£)",
            "Method",
            "Paid on",
            "Reference",
            "Reverses line",
            "Line",
            "By",
        ]
    ]
    for e in selectors.lines(season):
        account = e.team if e.team_id is not None else e.player
        rows.append(
            [
                timezone.localtime(e.created_at).strftime("%Y-%m-%d %H:%M"),
                account.name if account is not None else "",
                "team" if e.team_id is not None else "player",
                e.get_kind_display(),
                e.description,
                _pounds(e.amount) if e.amount > 0 else "",
                _pounds(-e.amount) if e.amount < 0 else "",
                e.get_method_display() if e.method else "",
                e.paid_on.isoformat() if e.paid_on else "",
                e.reference,
                e.reverses_id or "",
                e.pk,
                e.created_by.get_username() if e.created_by else "rule",
            ]
        )
    return rows


def balances_rows(season: Season) -> list[list]:
    rows: list[list] = [["Account", "Account type", "Charged (£)", "Paid (£)", "Balance (£)"]]
    teams, players = selectors.balances(season)
    for b in teams + players:
        rows.append([b.name, b.kind, _pounds(b.charged), _pounds(b.paid), _pounds(b.balance)])
    return rows


def summary_rows(season: Season) -> list[list]:
    s = selectors.agm_summary(season)
    rows: list[list] = [["Section", "Item", "Amount (£)"]]
    rows += [["Income", label, _pounds(v)] for label, v in s.income_by_kind]
    rows.append(["Income", "Total charged", _pounds(s.charged)])
    rows += [["Payments", label, _pounds(v)] for label, v in s.payments_by_method]
    rows.append(["Payments", "Total received", _pounds(s.received)])
    rows.append(["Outstanding", "Owed to the league", _pounds(s.outstanding)])
    rows.append(["Outstanding", "Owed by the league (credit)", _pounds(s.in_credit)])
    for fine in s.fines:
        account = fine.team if fine.team_id is not None else fine.player
        rows.append(
            ["Fine", f"{account.name if account else ''}: {fine.description}", _pounds(fine.amount)]
        )
    return rows


#: What a season's money exports: name → (title, rows).
SHEETS: dict[str, tuple[str, Callable[[Season], list[list]]]] = {
    "ledger": ("Ledger", ledger_rows),
    "balances": ("Balances", balances_rows),
    "summary": ("AGM summary", summary_rows),
}
FORMATS = ("csv", "xlsx")


def export(*, season: Season, sheet: str, fmt: str) -> tuple[bytes, str, str]:
    """(the file's bytes, its content type, its name)."""
    title, rows_of = SHEETS[sheet]
    rows = rows_of(season)
    name = f"{season.league.slug}-{season.slug}-money-{sheet}.{fmt}"
    if fmt == "xlsx":
        return (
            spreadsheet.xlsx_bytes(rows, title),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            name,
        )
    return spreadsheet.write_rows(rows).encode("utf-8-sig"), "text/csv; charset=utf-8", name
