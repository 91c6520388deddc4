"""The secretary's form for a season's rules: the rules version and the house rules, one
field per house rule the game declares (rules.house), never a JSON field."""

from __future__ import annotations

from typing import Any

from django import forms

from leagues.models import Season
from marker.api_inputs import digits
from rules import registry
from rules.core import Game
from rules.house import HouseRule, house_rules

#: The house rule's form field's name: prefixed, so an option never clashes with `version`.
PREFIX = "house_"


class NumberListField(forms.Field):
    """Whole numbers separated by commas or spaces (a board's cup values)."""

    widget = forms.TextInput

    def __init__(self, *, minimum: float | None = None, **kwargs: Any) -> None:
        self.minimum = minimum
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[int] | None:
        text = str(value or "")
        if len(text) > 200:
            raise forms.ValidationError("At most 200 characters.")
        parts = text.replace(",", " ").split()
        if not parts:
            return None
        numbers = []
        for part in parts:
            if not digits(part) or len(part) > 6:
                raise forms.ValidationError(
                    f"“{part[:20]}” is not a whole number: give numbers separated by commas."
                )
            numbers.append(int(part))
        if self.minimum is not None and min(numbers) < self.minimum:
            raise forms.ValidationError(f"Every number is at least {self.minimum:g}.")
        return numbers


def _form_field(rule: HouseRule) -> forms.Field:
    """The form field of one house rule, from the option's declaration."""
    f = rule.field
    assert f is not None
    optional = f.default is None or f.nullable
    common: dict[str, Any] = {"label": rule.label, "help_text": rule.source, "required": False}
    if f.type == "bool":
        return forms.BooleanField(**common)
    if isinstance(f.choices, tuple) and f.choices:
        choices = [(str(c), str(c)) for c in f.choices]
        coerce: Any = int if f.type == "int" else str
        return forms.TypedChoiceField(
            choices=choices, coerce=coerce, **{**common, "required": not optional}
        )
    bounds: dict[str, Any] = {
        k: v for k, v in (("min_value", f.minimum), ("max_value", f.maximum)) if v is not None
    }
    if f.type == "int":
        return forms.IntegerField(**bounds, **{**common, "required": not optional})
    if f.type == "number":
        return forms.DecimalField(
            max_digits=9, decimal_places=3, **bounds, **{**common, "required": not optional}
        )
    if f.type == "list":
        item_min = f.item.minimum if f.item is not None else None
        return NumberListField(minimum=item_min, **{**common, "required": not optional})
    return forms.CharField(max_length=60, **{**common, "required": not optional})


def _plain(value: Any) -> Any:
    """A form value as the engine takes it (a decimal that is whole as an int)."""
    if hasattr(value, "as_integer_ratio") and not isinstance(value, (int, float)):
        return int(value) if value == int(value) else float(value)
    return value


class SeasonRulesForm(forms.Form):
    """A season's rules version (the same or a newer one) and its house rules."""

    rules_version = forms.TypedChoiceField(coerce=int, label="Rules version")
    changes_read = forms.BooleanField(
        required=False, label="I have read what changes in the newer version"
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.season = season
        versions = [
            g.version
            for g in registry.versions(season.game_id)
            if g.version >= season.rules_version
        ]
        version_field = self.fields["rules_version"]
        assert isinstance(version_field, forms.TypedChoiceField)
        version_field.choices = [
            (v, f"Version {v}" + (" (this season's)" if v == season.rules_version else ""))
            for v in versions
        ]
        self.fields["rules_version"].initial = season.rules_version
        game: Game[Any] = registry.get(season.game_id, season.rules_version)
        if self.is_bound:
            try:
                game = registry.get(season.game_id, int(self.data.get("rules_version", "")))
            except (ValueError, registry.UnknownGame):
                pass
        self.game = game
        self.house = house_rules(game)
        options = season.game_options or {}
        for rule in self.house:
            assert rule.field is not None
            field = _form_field(rule)
            default = rule.field.default
            field.initial = options.get(rule.option, default)
            self.fields[PREFIX + rule.option] = field

    def house_fields(self) -> list[forms.BoundField]:
        """The house rules' fields, in the game's order."""
        return [self[PREFIX + rule.option] for rule in self.house]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        version = data.get("rules_version")
        if version is not None and version != self.season.rules_version:
            if not data.get("changes_read"):
                self.add_error(
                    "changes_read", "Read the changes and tick the box to move to a newer version."
                )
        return data

    def house_options(self) -> dict[str, Any]:
        """The house rules as option → value (an empty optional field: the game's
        default, or no limit where the game has none)."""
        out: dict[str, Any] = {}
        for rule in self.house:
            assert rule.field is not None
            value = self.cleaned_data.get(PREFIX + rule.option)
            if value is None or value == "":
                if rule.field.type == "bool":
                    value = False
                elif rule.field.default is None:
                    value = None
                else:
                    continue  # left empty: the game's default
            out[rule.option] = _plain(value)
        return out
