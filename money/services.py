"""Every write of the league's money (docs/money.md). Each is one transaction; a refusal
raises `DomainError` and writes nothing. The ledger is append-only: these functions only
ever add lines (a charge, a payment, a reversal).

What a rule raises (the season's fees, table money, a postponement fine, a cup entry's
fee) carries an idempotency key unique in the database, so raising it again adds nothing.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.urls import reverse
from django.utils import timezone

from competitions.models import Entry as CupEntry
from leagues.models import Fixture, Player, Registration, Season, Team
from marker.errors import DomainError
from marker.permissions import require
from notifications.events import Event
from notifications.services import To, notify

from . import selectors
from .models import FeeSchedule, LedgerEntry

Kind = LedgerEntry.Kind
#: The largest single amount, in pence (£100,000): a typing slip, not a league's fee.
MAX_AMOUNT = 10_000_000
#: The kinds a treasurer may charge by hand.
HAND_CHARGES = (Kind.TEAM_FEE, Kind.PLAYER_SUB, Kind.FINE, Kind.TABLE_MONEY)


def pounds(pence: int) -> str:
    """`1234` → `£12.34`, `-50` → `-£0.50`.

    >>> pounds(1234), pounds(-50), pounds(0)
    ('£12.34', '-£0.50', '£0.00')
    """
    sign = "-" if pence < 0 else ""
    return f"{sign}£{abs(pence) // 100:,}.{abs(pence) % 100:02d}"


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _require_manage(actor: Any, season: Season, doing: str) -> None:
    require(
        actor,
        "money.manage",
        season,
        message=f"Only the league's treasurer or secretary may {doing}.",
    )


def _check_amount(amount: Any, field: str = "amount") -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise DomainError("bad_amount", "Give the amount in whole pence.", field=field)
    if not 0 < amount <= MAX_AMOUNT:
        raise DomainError(
            "bad_amount",
            f"An amount is from 1p to {pounds(MAX_AMOUNT)}, in pence.",
            field=field,
        )
    return amount


def _check_account(season: Season, team: Team | None, player: Player | None) -> None:
    if (team is None) == (player is None):
        raise DomainError("bad_account", "Name one account: a team or a player.", field="team")
    if team is not None and team.season_id != season.pk:
        raise DomainError("wrong_season", f"{team.name} is not a team of {season}.", field="team")
    if (
        player is not None
        and not Registration.objects.filter(season=season, player=player).exists()
    ):
        raise DomainError(
            "wrong_season",
            f"{player.name} has never been registered in {season}.",
            field="player",
        )


def _append(*, key: str | None = None, **fields: Any) -> LedgerEntry | None:
    """Add one line; with `key`, only if no line has it yet (None when one had)."""
    if key is not None:
        if LedgerEntry.objects.filter(idempotency_key=key).exists():
            return None
        try:
            with transaction.atomic():
                return LedgerEntry.objects.create(idempotency_key=key, **fields)
        except IntegrityError:  # raised at the same moment elsewhere
            if LedgerEntry.objects.filter(idempotency_key=key).exists():
                return None
            raise
    return LedgerEntry.objects.create(**fields)


def _actor(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


# ------------------------------------------------------------------ the fee schedule


@transaction.atomic
def schedule_set(
    *,
    actor: Any,
    season: Season,
    team_fee: int,
    player_sub: int,
    table_money: int,
    postponement_fine: int,
    fine_after_days: int = 14,
    now: datetime | None = None,
) -> FeeSchedule:
    """Set the season's fees, in pence. Charges already raised stay as they are (reverse
    one to correct it); new ones use the new amounts."""
    _require_manage(actor, season, "set the season's fees")
    values = {
        "team_fee": team_fee,
        "player_sub": player_sub,
        "table_money": table_money,
        "postponement_fine": postponement_fine,
    }
    for field, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AMOUNT:
            raise DomainError(
                "bad_amount", f"A fee is from 0 to {pounds(MAX_AMOUNT)}, in pence.", field=field
            )
    if not isinstance(fine_after_days, int) or not 0 <= fine_after_days <= 365:
        raise DomainError(
            "bad_days", "A postponement is fined after 0 to 365 days.", field="fine_after_days"
        )
    schedule, _ = FeeSchedule.objects.select_for_update().update_or_create(
        season=season,
        defaults={
            **values,
            "fine_after_days": fine_after_days,
            "updated_at": _now(now),
            "updated_by": _actor(actor),
        },
    )
    return schedule


def schedule_of(season: Season) -> FeeSchedule:
    """The season's schedule, or an unsaved one of zeros."""
    found = FeeSchedule.objects.filter(season=season).first()
    return found or FeeSchedule(season=season, updated_at=timezone.now())


# ------------------------------------------------------------------ charges and payments


@transaction.atomic
def charge_add(
    *,
    actor: Any,
    season: Season,
    kind: str,
    amount: int,
    description: str,
    team: Team | None = None,
    player: Player | None = None,
    now: datetime | None = None,
) -> LedgerEntry:
    """A charge by hand: a fine (with its reason), or a fee or table money the rules did
    not raise."""
    _require_manage(actor, season, "charge an account")
    if kind not in HAND_CHARGES:
        raise DomainError(
            "bad_kind",
            "Charge a team fee, a player sub, a fine or table money (a cup entry's fee is "
            "charged when the entry is made).",
            field="kind",
        )
    _check_amount(amount)
    _check_account(season, team, player)
    description = (description or "").strip()
    if not description:
        raise DomainError(
            "reason_required", "Say what the charge is for (a fine's reason).", field="description"
        )
    entry = _append(
        league_id=season.league_id,
        season=season,
        team=team,
        player=player,
        kind=kind,
        amount=amount,
        description=description[:200],
        created_by=_actor(actor),
        created_at=_now(now),
    )
    assert entry is not None
    return entry


@transaction.atomic
def payment_record(
    *,
    actor: Any,
    season: Season,
    amount: int,
    method: str,
    paid_on: date | None = None,
    reference: str = "",
    description: str = "",
    team: Team | None = None,
    player: Player | None = None,
    now: datetime | None = None,
) -> LedgerEntry:
    """A payment received (cash, bank transfer or other; no card processing): `amount`
    is the pence paid (positive), written as a negative line."""
    _require_manage(actor, season, "record payments")
    _check_amount(amount)
    if method not in LedgerEntry.Method.values:
        raise DomainError(
            "bad_method", "A payment is by cash, bank transfer or other.", field="method"
        )
    _check_account(season, team, player)
    now = _now(now)
    paid_on = paid_on or timezone.localdate(now)
    if paid_on > timezone.localdate(now) + timedelta(days=1):
        raise DomainError("future_payment", "A payment cannot be dated ahead.", field="paid_on")
    entry = _append(
        league_id=season.league_id,
        season=season,
        team=team,
        player=player,
        kind=Kind.PAYMENT,
        amount=-amount,
        method=method,
        paid_on=paid_on,
        reference=(reference or "").strip()[:80],
        description=((description or "").strip() or "Payment")[:200],
        created_by=_actor(actor),
        created_at=now,
    )
    assert entry is not None
    return entry


def _reverse(entry: LedgerEntry, actor: Any, reason: str, now: datetime) -> LedgerEntry:
    if entry.kind == Kind.REVERSAL:
        raise DomainError(
            "is_reversal",
            "A reversal is not reversed: add the charge or payment again instead.",
        )
    if LedgerEntry.objects.filter(reverses=entry).exists():
        raise DomainError("already_reversed", "This entry has already been reversed.", status=409)
    try:
        with transaction.atomic():
            return LedgerEntry.objects.create(
                league_id=entry.league_id,
                season_id=entry.season_id,
                team_id=entry.team_id,
                player_id=entry.player_id,
                kind=Kind.REVERSAL,
                amount=-entry.amount,
                description=f"Reversed: {entry.description} ({reason})"[:200],
                reverses=entry,
                fixture_id=entry.fixture_id,
                cup_entry_id=entry.cup_entry_id,
                created_by=_actor(actor),
                created_at=now,
            )
    except IntegrityError:
        raise DomainError(
            "already_reversed", "This entry has already been reversed.", status=409
        ) from None


@transaction.atomic
def entry_reverse(
    *, actor: Any, entry: LedgerEntry, reason: str, now: datetime | None = None
) -> LedgerEntry:
    """Reverse one entry (a charge waived, a payment recorded in error): a new line of
    the opposite amount. An entry is reversed at most once (the database holds it)."""
    entry = LedgerEntry.objects.select_related("season").get(pk=entry.pk)
    _require_manage(actor, entry.season, "reverse entries")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", "Say why it is reversed.", field="reason")
    LedgerEntry.objects.select_for_update().filter(pk=entry.pk).first()
    return _reverse(entry, actor, reason, _now(now))


# ------------------------------------------------------------------ what rules raise


def _raise_season_fees(season: Season, actor: Any, now: datetime) -> dict[str, int]:
    schedule = schedule_of(season)
    made = {"team_fee": 0, "player_sub": 0, "cup_entry": 0, "table_money": 0}
    common = {"league_id": season.league_id, "season": season, "created_at": now}
    if schedule.team_fee:
        for team in Team.objects.filter(season=season).order_by("id"):
            if _append(
                key=f"team_fee:{season.pk}:team:{team.pk}",
                team=team,
                kind=Kind.TEAM_FEE,
                amount=schedule.team_fee,
                description=f"Team fee, {season.name}",
                created_by=_actor(actor),
                **common,
            ):
                made["team_fee"] += 1
    if schedule.player_sub:
        players = (
            Player.objects.filter(
                registrations__season=season,
                registrations__status=Registration.Status.ACTIVE,
            )
            .distinct()
            .order_by("id")
        )
        for player in players:
            if _append(
                key=f"player_sub:{season.pk}:player:{player.pk}",
                player=player,
                kind=Kind.PLAYER_SUB,
                amount=schedule.player_sub,
                description=f"Player sub, {season.name}",
                created_by=_actor(actor),
                **common,
            ):
                made["player_sub"] += 1
    for cup_entry in (
        CupEntry.objects.filter(competition__season=season, status=CupEntry.Status.ENTERED)
        .select_related("competition__season", "team", "player", "partner")
        .order_by("id")
    ):
        if _charge_cup_entry(cup_entry, actor, now):
            made["cup_entry"] += 1
    made["table_money"] = _raise_table_money(season, now)
    return made


@transaction.atomic
def season_fees_raise(*, actor: Any, season: Season, now: datetime | None = None) -> dict[str, int]:
    """Charge every team its fee and every registered player their sub once, each cup
    entry its fee and each played home match its table money (what was raised before is
    not raised again). Returns how many lines of each kind were added."""
    _require_manage(actor, season, "raise the season's fees")
    if not FeeSchedule.objects.filter(season=season).exists():
        raise DomainError("no_schedule", f"Set the fees of {season} first.")
    return _raise_season_fees(season, actor, _now(now))


def _raise_table_money(season: Season, now: datetime) -> int:
    schedule = FeeSchedule.objects.filter(season=season).first()
    if schedule is None or not schedule.table_money:
        return 0
    made = 0
    played = (
        Fixture.objects.filter(season=season, result_confirmed_at__isnull=False)
        .select_related("home", "away")
        .order_by("id")
    )
    for fixture in played:
        if _append(
            key=f"table_money:fixture:{fixture.pk}",
            league_id=season.league_id,
            season=season,
            team=fixture.home,
            kind=Kind.TABLE_MONEY,
            amount=schedule.table_money,
            description=f"Table money: {fixture.home.name} v {fixture.away.name}"
            + (f", {fixture.date:%d %b %Y}" if fixture.date else ""),
            fixture=fixture,
            created_at=now,
        ):
            made += 1
    return made


@transaction.atomic
def table_money_raise(*, now: datetime | None = None) -> int:
    """Rule (beat): table money for every played home match of a running season whose
    schedule charges it, once a match."""
    now = _now(now)
    seasons = Season.objects.filter(
        status=Season.Status.RUNNING, fee_schedule__table_money__gt=0
    ).order_by("id")
    return sum(_raise_table_money(season, now) for season in seasons)


@transaction.atomic
def postponement_fines_raise(*, now: datetime | None = None) -> int:
    """Rule (beat): a fixture postponed without a new date for the season's number of
    days (counted from the night it was due) fines the side that postponed, once."""
    now = _now(now)
    today = timezone.localdate(now)
    made = 0
    schedules = FeeSchedule.objects.filter(postponement_fine__gt=0).select_related("season")
    for schedule in schedules.order_by("id"):
        season = schedule.season
        cutoff = today - timedelta(days=schedule.fine_after_days)
        postponed = (
            Fixture.objects.filter(season=season, status=Fixture.Status.POSTPONED)
            .exclude(postponed_by="")
            .filter(Q(original_date__lte=cutoff) | Q(original_date__isnull=True, date__lte=cutoff))
            .select_related("home", "away")
            .order_by("id")
        )
        for fixture in postponed:
            side = fixture.home if fixture.postponed_by == Fixture.Side.HOME else fixture.away
            due = fixture.original_date or fixture.date
            if _append(
                key=f"postponement_fine:fixture:{fixture.pk}",
                league_id=season.league_id,
                season=season,
                team=side,
                kind=Kind.FINE,
                amount=schedule.postponement_fine,
                description=f"Fine: {fixture.home.name} v {fixture.away.name} postponed "
                f"by {side.name} without a new date for {schedule.fine_after_days} days"
                + (f" (due {due:%d %b %Y})" if due else ""),
                fixture=fixture,
                created_at=now,
            ):
                made += 1
    return made


# ------------------------------------------------------------------ cup entry fees


def _cup_account(cup_entry: Any) -> dict[str, Any]:
    if cup_entry.team_id is not None:
        return {"team_id": cup_entry.team_id}
    return {"player_id": cup_entry.player_id}


def _charge_cup_entry(cup_entry: Any, actor: Any, now: datetime) -> LedgerEntry | None:
    competition = cup_entry.competition
    pence = int(round(competition.fee * 100))
    if pence <= 0:
        return None
    return _append(
        key=f"cup_entry:entry:{cup_entry.pk}",
        league_id=competition.season.league_id,
        season_id=competition.season_id,
        kind=Kind.CUP_ENTRY,
        amount=pence,
        description=f"Entry to the {competition.name}"[:200],
        cup_entry=cup_entry,
        created_by=_actor(actor),
        created_at=now,
        **_cup_account(cup_entry),
    )


def cup_entry_owed(cup_entry: Any) -> int:
    """Pence still owed on a cup entry's fee."""
    return (
        LedgerEntry.objects.filter(cup_entry=cup_entry).aggregate(total=Sum("amount"))["total"] or 0
    )


def cup_entry_charge(*, entry: Any, actor: Any, now: datetime) -> None:
    """A cup entry was made: charge its fee (once an entry)."""
    _charge_cup_entry(entry, actor, now)


def cup_entry_settle(*, entry: Any, actor: Any, paid: bool, now: datetime) -> None:
    """The competitions secretary marked an entry paid (a payment of what is owed on it,
    method "other") or unpaid (its payments reversed). The caller checked the permission."""
    competition = entry.competition
    if paid:
        if int(round(competition.fee * 100)) <= 0:
            raise DomainError(
                "no_fee", f"The {competition.name} is free: there is no fee to pay.", field="paid"
            )
        _charge_cup_entry(entry, actor, now)
        owed = cup_entry_owed(entry)
        if owed > 0:
            LedgerEntry.objects.create(
                league_id=competition.season.league_id,
                season_id=competition.season_id,
                kind=Kind.PAYMENT,
                amount=-owed,
                method=LedgerEntry.Method.OTHER,
                paid_on=timezone.localdate(now),
                description=f"Entry to the {competition.name} marked paid"[:200],
                cup_entry=entry,
                created_by=_actor(actor),
                created_at=now,
                **_cup_account(entry),
            )
        return
    payments = LedgerEntry.objects.filter(
        cup_entry=entry, kind=Kind.PAYMENT, reversed_by__isnull=True
    ).order_by("id")
    for payment in payments:
        _reverse(payment, actor, "entry marked unpaid", now)


# ------------------------------------------------------------------ reminders


def reminder_period(now: datetime) -> str:
    """The week a reminder belongs to (one reminder an account a week): `2026-W48`."""
    year, week, _ = timezone.localdate(now).isocalendar()
    return f"{year}-W{week:02d}"


def _remind(season: Season, now: datetime) -> int:
    period = reminder_period(now)
    teams, players = selectors.balances(season)
    captains = {
        team.pk: team
        for team in Team.objects.filter(season=season).select_related("captain", "vice_captain")
    }
    users = {p.pk: p for p in Player.objects.filter(pk__in=[b.account.pk for b in players])}
    sent = 0
    for line in teams:
        if line.balance <= 0:
            continue
        team = captains[line.account.pk]
        to = [To(user_id=u.pk, email=u.email) for u in (team.captain,) if u is not None]
        sent += notify(
            event=Event.MONEY_OWED,
            to=to,
            key=f"owed:team:{team.pk}:{period}",
            title=f"{team.name} owes the league {pounds(line.balance)}",
            body=f"{team.name}'s balance with {season.league.name} ({season.name}) is "
            f"{pounds(line.balance)}. Pay the treasurer by cash or bank transfer.",
            url=reverse("money-team-statement", args=[team.pk]),
            league_id=season.league_id,
            now=now,
        )
    for line in players:
        if line.balance <= 0:
            continue
        player = users[line.account.pk]
        if player.user_id is None and not player.email:
            continue
        sent += notify(
            event=Event.MONEY_OWED,
            to=[To(user_id=player.user_id, email=player.email)],
            key=f"owed:player:{player.pk}:{period}",
            title=f"You owe {season.league.name} {pounds(line.balance)}",
            body=f"Your balance with {season.league.name} ({season.name}) is "
            f"{pounds(line.balance)}.",
            url=reverse("money-player-statement", args=[season.pk, player.pk]),
            league_id=season.league_id,
            now=now,
        )
    return sent


@transaction.atomic
def reminders_send(*, actor: Any, season: Season, now: datetime | None = None) -> int:
    """Remind every account in debt of what it owes (a team's captain, the player),
    through their notification choices: once an account a week, however often it is
    pressed. Returns how many people were told."""
    _require_manage(actor, season, "send reminders")
    return _remind(season, _now(now))


@transaction.atomic
def reminders_send_all(*, now: datetime | None = None) -> int:
    """Rule (beat, weekly): reminders for every running season with a fee schedule."""
    now = _now(now)
    seasons = Season.objects.filter(
        status=Season.Status.RUNNING, fee_schedule__isnull=False
    ).select_related("league")
    return sum(_remind(season, now) for season in seasons.order_by("id"))
