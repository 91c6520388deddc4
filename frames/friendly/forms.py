"""The form that starts a friendly game: the game, the players, and the game's own simple
options as inputs (anything richer as JSON)."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms

from rules import registry

#: Options the players field already decides.
SEATING = {"players", "sides"}


def _option_field(option: dict[str, Any]) -> forms.Field | None:
    label = option["name"].replace("_", " ").capitalize()
    common = {"label": label, "help_text": option["doc"], "required": False}
    kind, default = option["type"], option["default"]
    if option["choices"]:
        choices = [("", f"default ({default})" if default is not None else "default")]
        choices += [(json.dumps(c), str(c)) for c in option["choices"]]
        return forms.ChoiceField(choices=choices, **common)
    if kind == "bool":
        return forms.TypedChoiceField(
            choices=[
                ("", f"default ({'yes' if default else 'no'})"),
                ("true", "yes"),
                ("false", "no"),
            ],
            **common,
        )
    if kind == "int":
        return forms.IntegerField(
            min_value=option["minimum"], max_value=option["maximum"], initial=default, **common
        )
    if kind == "number":
        return forms.FloatField(
            min_value=option["minimum"], max_value=option["maximum"], initial=default, **common
        )
    if kind == "str" and not option["choices_from"]:
        return forms.CharField(max_length=60, initial=default, **common)
    return None


class FriendlyForm(forms.Form):
    game = forms.ChoiceField(label="Game")
    title = forms.CharField(label="Title", max_length=120, required=False)
    players = forms.CharField(
        label="Players",
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
        max_length=2000,
        help_text="One player a line. Partners on one line, joined by “&” (Ann & Cat).",
    )
    more_options = forms.CharField(
        label="Other options (JSON)",
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=4000,
        help_text='Options not shown above, as an object, e.g. {"private": {"Ann": 3}}.',
    )

    def __init__(self, *args: Any, game_id: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` is typed by the base Field; "game" is the ChoiceField declared above.
        cast(forms.ChoiceField, self.fields["game"]).choices = registry.game_choices()
        self.fields["game"].initial = game_id
        self.option_names: list[str] = []
        try:
            describe = registry.get(game_id).describe()
        except registry.UnknownGame:
            return
        for option in describe["setup"]:
            if option["name"] in SEATING:
                continue
            field = _option_field(option)
            if field is not None:
                self.fields[f"opt_{option['name']}"] = field
                self.option_names.append(option["name"])

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{name}"] for name in self.option_names]

    def clean_more_options(self) -> dict[str, Any]:
        text = self.cleaned_data.get("more_options", "").strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError:
            raise forms.ValidationError("Give the options as a JSON object.") from None
        if not isinstance(value, dict):
            raise forms.ValidationError("Give the options as a JSON object.")
        return value

    def player_entries(self) -> list[Any]:
        entries: list[Any] = []
        for line in self.cleaned_data["players"].splitlines():
            names = [n.strip() for n in line.replace(",", "&").split("&") if n.strip()]
            if names:
                entries.append(names[0] if len(names) == 1 else names)
        return entries

    def options(self) -> dict[str, Any]:
        chosen: dict[str, Any] = dict(self.cleaned_data.get("more_options") or {})
        for name in self.option_names:
            value = self.cleaned_data.get(f"opt_{name}")
            if value in (None, ""):
                continue
            if isinstance(self.fields[f"opt_{name}"], forms.ChoiceField):
                value = json.loads(value)  # choices are JSON: "7", "true", "\"home\""
            chosen[name] = value
        return chosen
