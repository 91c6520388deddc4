"""Every read of the league's money: balances (who owes what), statements with a
running balance, the AGM's summary, the ledger's lines. Each is a fixed number of
queries, whatever the number of accounts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from leagues.models import Player, Registration, Season, Team

from .accounts import Account, PlayerAccount, account_filter
from .models import LedgerEntry

Kind = LedgerEntry.Kind


def lines(season: Season) -> QuerySet[LedgerEntry]:
    """The season's ledger, oldest first, with what a page shows of each line."""
    return (
        LedgerEntry.objects.filter(season=season)
        .select_related("team", "player", "created_by", "reverses")
        .annotate(reversal_count=Count("reversed_by"))
        .order_by("created_at", "id")
    )


@dataclass
class Balance:
    account: Any  # a Team, or a Player
    kind: str  # "team" or "player"
    charged: int  # pence: charges less their reversals
    paid: int  # pence: payments less their reversals (positive)
    balance: int  # charged − paid: what the account owes (negative: in credit)

    @property
    def name(self) -> str:
        return self.account.name


def _sums(season: Season, by: str) -> dict[int, dict[str, int]]:
    """{account id: {"charged", "paid"}} for the teams (`by="team"`) or the players."""
    rows = (
        LedgerEntry.objects.filter(season=season, **{f"{by}__isnull": False})
        .values(by)
        .annotate(
            charged=Sum(
                "amount",
                filter=Q(kind__in=LedgerEntry.CHARGES)
                | Q(kind=Kind.REVERSAL, amount__lt=0, reverses__kind__in=LedgerEntry.CHARGES),
                default=0,
            ),
            paid=Sum(
                "amount",
                filter=Q(kind=Kind.PAYMENT) | Q(kind=Kind.REVERSAL, reverses__kind=Kind.PAYMENT),
                default=0,
            ),
        )
    )
    return {row[by]: {"charged": row["charged"], "paid": -row["paid"]} for row in rows}


def balances(season: Season) -> tuple[list[Balance], list[Balance]]:
    """Every team of the season and every player with a line or a registration in it,
    with what each owes (four queries)."""
    team_sums = _sums(season, "team")
    player_sums = _sums(season, "player")
    teams = []
    for team in Team.objects.filter(season=season).order_by("name"):
        got = team_sums.get(team.pk, {"charged": 0, "paid": 0})
        teams.append(
            Balance(team, "team", got["charged"], got["paid"], got["charged"] - got["paid"])
        )
    players = []
    registered = Registration.objects.filter(season=season).values("player_id")
    for player in Player.objects.filter(
        Q(pk__in=registered) | Q(pk__in=list(player_sums))
    ).order_by("name", "id"):
        got = player_sums.get(player.pk, {"charged": 0, "paid": 0})
        players.append(
            Balance(player, "player", got["charged"], got["paid"], got["charged"] - got["paid"])
        )
    return teams, players


@dataclass
class StatementLine:
    entry: LedgerEntry
    charge: int  # pence added (0 if none)
    credit: int  # pence taken off (0 if none)
    balance: int  # running balance after this line


@dataclass
class Statement:
    season: Season
    account: Account
    lines: list[StatementLine] = field(default_factory=list)

    @property
    def balance(self) -> int:
        return self.lines[-1].balance if self.lines else 0

    @property
    def charged(self) -> int:
        return sum(line.charge for line in self.lines)

    @property
    def credited(self) -> int:
        return sum(line.credit for line in self.lines)


def statement(account: Account) -> Statement:
    """An account's lines in order with the running balance (one query)."""
    season = account.season
    out = Statement(season=season, account=account)
    running = 0
    rows = (
        LedgerEntry.objects.filter(**account_filter(account))
        .select_related("reverses")
        .order_by("created_at", "id")
    )
    for entry in rows:
        running += entry.amount
        out.lines.append(
            StatementLine(
                entry=entry,
                charge=max(entry.amount, 0),
                credit=max(-entry.amount, 0),
                balance=running,
            )
        )
    return out


def player_account(season: Season, player: Player) -> PlayerAccount:
    return PlayerAccount(season=season, player=player)


@dataclass
class Summary:
    """The season's money for the AGM, in pence."""

    income_by_kind: list[tuple[str, int]]  # charges by kind, net of their reversals
    payments_by_method: list[tuple[str, int]]  # received, net of reversals (positive)
    fines: list[LedgerEntry]  # the fines standing (not reversed)
    charged: int
    received: int
    outstanding: int  # owed by accounts in debt
    in_credit: int  # owed to accounts in credit (positive)
    debtors: list[Balance]


def agm_summary(season: Season) -> Summary:
    """Income by kind, payments by method, fines, what is outstanding."""
    by_kind: dict[str, int] = {}
    by_method: dict[str, int] = {}
    rows = (
        LedgerEntry.objects.filter(season=season)
        .values("kind", "method", "reverses__kind", "reverses__method")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        kind = row["reverses__kind"] if row["kind"] == Kind.REVERSAL else row["kind"]
        method = row["reverses__method"] if row["kind"] == Kind.REVERSAL else row["method"]
        if kind == Kind.PAYMENT:
            by_method[method] = by_method.get(method, 0) - row["total"]
        else:
            by_kind[kind] = by_kind.get(kind, 0) + row["total"]
    kinds = [(label, by_kind.get(k, 0)) for k, label in Kind.choices if k in LedgerEntry.CHARGES]
    methods = [(label, by_method.get(m, 0)) for m, label in LedgerEntry.Method.choices]
    fines = list(
        LedgerEntry.objects.filter(season=season, kind=Kind.FINE, reversed_by__isnull=True)
        .select_related("team", "player")
        .order_by("created_at", "id")
    )
    teams, players = balances(season)
    everyone = teams + players
    debtors = sorted((b for b in everyone if b.balance > 0), key=lambda b: (-b.balance, b.name))
    return Summary(
        income_by_kind=kinds,
        payments_by_method=methods,
        fines=fines,
        charged=sum(v for _, v in kinds),
        received=sum(v for _, v in methods),
        outstanding=sum(b.balance for b in debtors),
        in_credit=-sum(b.balance for b in everyone if b.balance < 0),
        debtors=debtors,
    )
