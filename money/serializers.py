"""The money API's inputs and outputs. Amounts are integers of pence; an entry's
`amount` follows the ledger's sign convention (a charge positive, a payment negative)."""

from __future__ import annotations

from rest_framework import serializers

from leagues.models import Player, Team
from marker.api_inputs import StrictPrimaryKeyRelatedField

from .models import LedgerEntry
from .services import HAND_CHARGES, MAX_AMOUNT


class LedgerEntrySerializer(serializers.ModelSerializer):
    reversed_by = serializers.SerializerMethodField()

    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "season",
            "team",
            "player",
            "kind",
            "amount",
            "description",
            "method",
            "paid_on",
            "reference",
            "reverses",
            "reversed_by",
            "fixture",
            "cup_entry",
            "created_at",
        ]
        read_only_fields = fields

    def get_reversed_by(self, entry: LedgerEntry) -> int | None:
        """The id of the line that reversed this one, if any."""
        return getattr(entry, "reversed_by_id", None)


class LedgerEntryCreateSerializer(serializers.Serializer):
    """A charge by hand (`kind`: team_fee, player_sub, fine, table_money) or a payment
    (`kind`: payment, with `method`). `amount` is positive pence either way."""

    kind = serializers.ChoiceField(choices=[*HAND_CHARGES, LedgerEntry.Kind.PAYMENT])
    team = StrictPrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True, default=None
    )
    player = StrictPrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)
    description = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default=""
    )
    method = serializers.ChoiceField(
        choices=LedgerEntry.Method.choices, required=False, allow_blank=True, default=""
    )
    paid_on = serializers.DateField(required=False, allow_null=True, default=None)
    reference = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")


class ReverseSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=120)


class StatementLineSerializer(serializers.Serializer):
    entry = LedgerEntrySerializer()
    charge = serializers.IntegerField(help_text="Pence charged by this line (0 if none).")
    credit = serializers.IntegerField(help_text="Pence paid or credited (0 if none).")
    balance = serializers.IntegerField(help_text="The running balance after this line.")


class StatementSerializer(serializers.Serializer):
    account = serializers.CharField(help_text="The team's or the player's name.")
    season = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="Pence owed (negative: in credit).")
    lines = StatementLineSerializer(many=True)


class BalanceSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="team or player")
    id = serializers.IntegerField()
    name = serializers.CharField()
    charged = serializers.IntegerField()
    paid = serializers.IntegerField()
    balance = serializers.IntegerField()
