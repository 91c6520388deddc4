"""The league's money: a season's fee schedule and an append-only ledger (docs/money.md).

Money is integers of pence. **Sign convention:** an entry's `amount` is what it adds to
its account's debt: a charge (team fee, player sub, cup entry, fine, table money) is
positive, a payment is negative, and a reversal is the reversed entry's amount negated.
An account's balance is the sum of its entries: positive, it owes the league; negative,
it is in credit.

An entry is never edited or deleted, only reversed: the model refuses a save of an
existing row and a delete, the admin is read-only, and the database holds what it can
(one reversal per entry, a reversal's sign, a charge's sign, a unique idempotency key for
what a rule raised).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from competitions.models import Entry as CupEntry
from leagues.models import Fixture, League, Player, Season, Team


class LedgerQuerySet(models.QuerySet["LedgerEntry"]):
    """No bulk change or removal either."""

    def update(self, **kwargs: Any) -> int:
        raise LedgerImmutable("Ledger entries are never changed: reverse them instead.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise LedgerImmutable("Ledger entries are never deleted: reverse them instead.")


class FeeSchedule(models.Model):
    """What a season charges, in pence, set by the secretary or treasurer. A cup's entry
    fee is the competition's own `fee` (set with the competition)."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="fee_schedule")
    team_fee = models.PositiveIntegerField(default=0, help_text="Each team, once a season.")
    player_sub = models.PositiveIntegerField(
        default=0, help_text="Each registered player, once a season."
    )
    table_money = models.PositiveIntegerField(
        default=0, help_text="Paid by the home side for each home match played."
    )
    postponement_fine = models.PositiveIntegerField(
        default=0,
        help_text="Raised on the side that postponed a fixture without a new date.",
    )
    fine_after_days = models.PositiveSmallIntegerField(
        default=14,
        help_text="Days after the fixture's night a postponement without a new date is fined.",
    )
    updated_at = models.DateTimeField()
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"Fees of {self.season}"


class LedgerEntry(models.Model):
    """One line of a league's ledger: a charge, a payment or a reversal, on one account
    (a team or a player) of one season."""

    class Kind(models.TextChoices):
        TEAM_FEE = "team_fee", "Team fee"
        PLAYER_SUB = "player_sub", "Player sub"
        CUP_ENTRY = "cup_entry", "Cup entry fee"
        FINE = "fine", "Fine"
        TABLE_MONEY = "table_money", "Table money"
        PAYMENT = "payment", "Payment"
        REVERSAL = "reversal", "Reversal"

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        TRANSFER = "transfer", "Bank transfer"
        OTHER = "other", "Other"

    CHARGES = (
        Kind.TEAM_FEE,
        Kind.PLAYER_SUB,
        Kind.CUP_ENTRY,
        Kind.FINE,
        Kind.TABLE_MONEY,
    )

    # A league's (or a season's) removal by the site administrator takes its ledger with
    # it; an account with lines cannot be removed on its own.
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ledger")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ledger")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="ledger"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="ledger"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount = models.IntegerField(help_text="Pence added to the account's debt (see above).")
    description = models.CharField(max_length=200)
    method = models.CharField(max_length=8, choices=Method.choices, blank=True)
    paid_on = models.DateField(null=True, blank=True, help_text="A payment's date.")
    reference = models.CharField(max_length=80, blank=True, help_text="A payment's reference.")
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="reversed_by",
    )
    # What the line is about, where it is about one thing: a reference kept as history
    # (a fixture regenerated, or a plate entry taken back by a correction, leaves the line
    # as it was: the treasurer reverses it if it should not stand).
    fixture = models.ForeignKey(
        Fixture,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    cup_entry = models.ForeignKey(
        CupEntry,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="fee_lines",
    )
    idempotency_key = models.CharField(max_length=80, null=True, blank=True, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=False, player__isnull=True)
                | Q(team__isnull=True, player__isnull=False),
                name="ledger_account_is_a_team_or_a_player",
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_not_zero"),
            models.CheckConstraint(
                condition=Q(kind__in=["payment", "reversal"]) | Q(amount__gt=0),
                name="ledger_charge_positive",
            ),
            models.CheckConstraint(
                condition=~Q(kind="payment") | (Q(amount__lt=0) & ~Q(method="")),
                name="ledger_payment_negative_with_method",
            ),
            models.CheckConstraint(
                condition=Q(kind="reversal", reverses__isnull=False)
                | (~Q(kind="reversal") & Q(reverses__isnull=True)),
                name="ledger_reversal_names_its_entry",
            ),
        ]
        indexes = [
            models.Index(fields=["season", "team"], name="ledger_season_team"),
            models.Index(fields=["season", "player"], name="ledger_season_player"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}p: {self.description}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Append-only: a new row is written once; an existing one is never changed."""
        if self.pk is not None and not kwargs.get("force_insert"):
            raise LedgerImmutable("A ledger entry is never changed: reverse it instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise LedgerImmutable("A ledger entry is never deleted: reverse it instead.")

    @property
    def account(self) -> Team | Player:
        return self.team if self.team_id is not None else self.player  # type: ignore[return-value]

    @property
    def account_key(self) -> str:
        return f"team:{self.team_id}" if self.team_id is not None else f"player:{self.player_id}"


class LedgerImmutable(Exception):
    """A ledger entry was asked to change or go: the ledger is append-only."""
