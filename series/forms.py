"""The secretary's forms for a ranking series. The points table is typed as numbers
separated by commas, best first ("25, 18, 12, 8"); the tie-breakers are chosen in order."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from . import standings as calc
from .models import Series

TIE_BREAKER_CHOICES = [("", "—"), *calc.TIE_BREAKERS.items()]
TIE_BREAKER_SLOTS = len(calc.TIE_BREAKERS)


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120)
    season = forms.CharField(max_length=40, label="Season or year")
    best_n = forms.IntegerField(
        min_value=1, max_value=50, initial=4, label="Best results that count"
    )
    basis = forms.ChoiceField(choices=Series.Basis.choices, initial=Series.Basis.ROUND)
    points_table = forms.CharField(
        max_length=400,
        initial="25, 18, 12, 8, 4",
        help_text="Best first: by round reached (winner, runner-up, semi-final, "
        "quarter-final, last 16, …) or by placing (1st, 2nd, 3rd, …).",
    )
    appearance_points = forms.DecimalField(
        min_value=0, max_value=10000, decimal_places=2, initial=0, label="Points beyond the table"
    )
    category = forms.ChoiceField(choices=Series.Category.choices, initial=Series.Category.OPEN)
    category_age = forms.IntegerField(
        min_value=5, max_value=100, required=False, label="Age (over- or under-age category)"
    )
    age_on = forms.DateField(
        required=False,
        label="Age reckoned on",
        help_text="Blank: on the day a player enters.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(TIE_BREAKER_SLOTS):
            self.fields[f"tie_breaker_{i + 1}"] = forms.ChoiceField(
                choices=TIE_BREAKER_CHOICES,
                required=False,
                label=f"Tie-breaker {i + 1}",
                initial=list(calc.TIE_BREAKERS)[i] if i < 3 else "",
            )

    def clean_points_table(self) -> list[str]:
        raw = self.cleaned_data["points_table"]
        try:
            return [str(Decimal(p.strip())) for p in raw.replace(";", ",").split(",") if p.strip()]
        except InvalidOperation:
            raise forms.ValidationError("Numbers separated by commas: 25, 18, 12, 8") from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["tie_breakers"] = [
            data.pop(f"tie_breaker_{i + 1}")
            for i in range(TIE_BREAKER_SLOTS)
            if data.get(f"tie_breaker_{i + 1}")
        ]
        for i in range(TIE_BREAKER_SLOTS):
            data.pop(f"tie_breaker_{i + 1}", None)
        return data

    @staticmethod
    def initial_of(series: Series) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": series.name,
            "season": series.season,
            "best_n": series.best_n,
            "basis": series.basis,
            "points_table": ", ".join(str(p) for p in series.points_table),
            "appearance_points": series.appearance_points,
            "category": series.category,
            "category_age": series.category_age,
            "age_on": series.age_on,
        }
        for i in range(TIE_BREAKER_SLOTS):
            initial[f"tie_breaker_{i + 1}"] = (
                series.tie_breakers[i] if i < len(series.tie_breakers) else ""
            )
        return initial


class EventForm(forms.Form):
    competition = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label="Competition",
        help_text="Blank: an event run off-system, its placings entered here.",
    )
    name = forms.CharField(max_length=120, required=False, help_text="Blank: the competition's.")
    weight = forms.DecimalField(
        min_value=Decimal("0.01"), max_value=99, decimal_places=2, initial=1
    )
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, competitions: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["competition"].choices = [("", "— off-system —")] + [  # type: ignore[attr-defined]
            (c.pk, c.name) for c in competitions
        ]


class ResultForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int)
    placing = forms.IntegerField(
        min_value=1,
        max_value=1024,
        help_text="1 the winner, 2 the runner-up; a round's losers share its best placing "
        "(both semi-finalists 3, quarter-finalists 5).",
    )

    def __init__(self, *args: Any, players: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p.pk, p.name) for p in players]  # type: ignore[attr-defined]
