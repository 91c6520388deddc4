"""The treasurer's forms. Amounts are typed in pounds (`12.50`, `£12.50`) and kept in
pence."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from leagues.models import Player, Season, Team

from .models import LedgerEntry
from .services import HAND_CHARGES, MAX_AMOUNT

_POUNDS = re.compile(r"£?\s*(\d{1,6})(?:\.(\d{1,2}))?")


def pence_of(text: str) -> int:
    """`"12.5"` → 1250, `"£3"` → 300; ValueError for anything else.

    >>> pence_of("12.5"), pence_of("£3"), pence_of("0.07")
    (1250, 300, 7)
    """
    match = _POUNDS.fullmatch((text or "").strip().replace(",", ""))
    if match is None:
        raise ValueError(text)
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))


class PoundsField(forms.Field):
    """An amount typed in pounds, cleaned to pence."""

    def __init__(self, *, allow_zero: bool = False, **kwargs: Any) -> None:
        self.allow_zero = allow_zero
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        value = str(value).strip() if value is not None else ""
        if value in self.empty_values:
            return None
        try:
            pence = pence_of(value)
        except ValueError:
            raise forms.ValidationError("Give an amount in pounds, like 12.50.") from None
        if pence > MAX_AMOUNT or (pence == 0 and not self.allow_zero):
            raise forms.ValidationError("That amount is out of range.")
        return pence


class ScheduleForm(forms.Form):
    team_fee = PoundsField(allow_zero=True, label="Team fee (£, each team)")
    player_sub = PoundsField(allow_zero=True, label="Player sub (£, each registered player)")
    table_money = PoundsField(allow_zero=True, label="Table money (£, home side, each match)")
    postponement_fine = PoundsField(
        allow_zero=True, label="Fine for postponing without a new date (£)"
    )
    fine_after_days = forms.IntegerField(
        min_value=0, max_value=365, label="Fine after this many days without a new date"
    )


def account_choices(season: Season) -> list:
    """The season's teams and registered players, grouped, for an account's select."""
    teams = [(f"team:{t.pk}", t.name) for t in Team.objects.filter(season=season)]
    players = [
        (f"player:{p.pk}", p.name)
        for p in Player.objects.filter(registrations__season=season).distinct().order_by("name")
    ]
    return [("", "Choose…"), ("Teams", teams), ("Players", players)]


class _AccountForm(forms.Form):
    """An account of the season: a team or a player, chosen from one list."""

    account = forms.ChoiceField(label="Team or player")

    def __init__(
        self, *args: Any, season: Season, choices: list | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.season = season
        field = self.fields["account"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices if choices is not None else account_choices(season)

    def account_kwargs(self) -> dict[str, Any]:
        kind, _, pk = self.cleaned_data["account"].partition(":")
        if kind == "team":
            return {"team": Team.objects.get(pk=pk, season=self.season)}
        return {"player": Player.objects.get(pk=pk)}


class ChargeForm(_AccountForm):
    kind = forms.ChoiceField(
        choices=[(k, LedgerEntry.Kind(k).label) for k in HAND_CHARGES],
        initial=LedgerEntry.Kind.FINE,
    )
    amount = PoundsField(label="Amount (£)")
    description = forms.CharField(max_length=200, label="What for (a fine's reason)")


class PaymentForm(_AccountForm):
    amount = PoundsField(label="Amount paid (£)")
    method = forms.ChoiceField(choices=LedgerEntry.Method.choices)
    paid_on = forms.DateField(
        required=False, label="Paid on", widget=forms.DateInput(attrs={"type": "date"})
    )
    reference = forms.CharField(max_length=80, required=False)
    description = forms.CharField(max_length=200, required=False, label="Note")


class ReverseForm(forms.Form):
    reason = forms.CharField(max_length=120, label="Why")
