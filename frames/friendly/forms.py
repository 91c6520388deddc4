"""The form that starts a friendly game: the game, the players, and one control for every
option the game declares, built from its declaration (`describe()["setup"]`), never per game:

- a choice (or a yes/no) is a menu, a whole number or a number a number box;
- a name from the seating (who breaks, who deals) a text box for one of the players' names;
- a list of numbers (the cups' values) a line of numbers;
- an object with fixed fields (the pins' values) one control per field;
- a union (lives: one number for all, or each player's) one control per variant, of
  which one is given;
- an object keyed by players or by free keys (each player's lives, cards) one line a key,
  `key: value` (a list of choices — the cards of a hand — gets a card picker in the page).

Options the service draws itself (a player's secret ball) get no control: the declaration's
`drawn_by_service` says so, or, until it does, the names in DRAWN_BY_SERVICE."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from django import forms

from rules import registry

#: Options the players field already decides.
SEATING = {"players", "sides"}
#: The seating's choice sets: an option naming one of them names a player (or a side).
SEATING_SETS = {"players", "parties", "sides"}
#: Options the service draws (secretly) when the game starts, when the declaration does not
#: say it (`drawn_by_service`).
DRAWN_BY_SERVICE = {"private"}
#: The most items a list or a keyed option takes from the form.
MAX_ITEMS = 64


def drawn_by_service(option: Mapping[str, Any]) -> bool:
    """Whether the service draws this option itself: no control for it."""
    if "drawn_by_service" in option:
        return bool(option["drawn_by_service"])
    return option["name"] in DRAWN_BY_SERVICE


def _words(name: str) -> str:
    return name.replace("_", " ")


def _scalar(item: Mapping[str, Any], text: str) -> Any:
    """One value of a list or a keyed option, typed as its declaration says."""
    kind = item["type"]
    try:
        if kind == "int":
            return int(text)
        if kind == "number":
            return float(text)
    except ValueError:
        raise forms.ValidationError(
            f"“{text}” is not a {'whole number' if kind == 'int' else 'number'}."
        ) from None
    if kind == "bool":
        if text.lower() in ("yes", "true"):
            return True
        if text.lower() in ("no", "false"):
            return False
        raise forms.ValidationError(f"“{text}”: say yes or no.")
    return text


def _is_scalar(item: Mapping[str, Any] | None) -> bool:
    return item is not None and item["type"] in ("int", "number", "str", "bool")


def _list_values(item: Mapping[str, Any], text: str) -> list[Any]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if len(parts) > MAX_ITEMS:
        raise forms.ValidationError(f"At most {MAX_ITEMS} values.")
    return [_scalar(item, p) for p in parts]


def _text(value: Any, limit: int) -> str:
    text = "" if value is None else str(value).strip()
    if len(text) > limit:
        raise forms.ValidationError(f"Keep it under {limit} characters.")
    return text


class ListField(forms.Field):
    """A list of scalars as one line: values separated by spaces or commas."""

    widget = forms.TextInput

    def __init__(self, *, item: Mapping[str, Any], **kwargs: Any) -> None:
        self.item = item
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return " ".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[Any] | None:
        text = _text(value, 1000)
        if not text:
            return None
        return _list_values(self.item, text)


class KeyedField(forms.Field):
    """An object keyed by players (or free keys): one line a key, `key: value`; a value
    that is a list (the cards of a hand) is its items separated by spaces."""

    widget = forms.Textarea

    def __init__(self, *, item: Mapping[str, Any], **kwargs: Any) -> None:
        self.item = item
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return "\n".join(f"{k}: {self._shown(v)}" for k, v in value.items())
        return value

    def _shown(self, value: Any) -> str:
        return " ".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)

    def to_python(self, value: Any) -> dict[str, Any] | None:
        text = _text(value, 4000)
        if not text:
            return None
        result: dict[str, Any] = {}
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > MAX_ITEMS:
            raise forms.ValidationError(f"At most {MAX_ITEMS} lines.")
        for line in lines:
            key, sep, rest = line.rpartition(":")
            key, rest = " ".join(key.split()), rest.strip()
            if not sep or not key or not rest:
                raise forms.ValidationError(
                    f"“{line.strip()}”: write a name, a colon, then its value."
                )
            if self.item["type"] == "list" and _is_scalar(self.item.get("item")):
                result[key] = _list_values(self.item["item"], rest)
            else:
                result[key] = _scalar(self.item, rest)
        return result


@dataclass
class _Control:
    """One option's control: its form fields and how their values make the option's."""

    keys: list[str]
    build: Callable[[Mapping[str, Any]], Any]  # cleaned data -> the value, or None (not given)
    legend: str = ""
    parts: list[_Control] = field(default_factory=list)


def _scalar_field(option: Mapping[str, Any], label: str) -> forms.Field | None:
    common = {"label": label, "help_text": option["doc"], "required": False}
    kind, default = option["type"], option["default"]
    if option["choices"]:
        choices: list[tuple[str, str]] = [
            ("", f"default ({default})" if default is not None else "choose")
        ]
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
    if kind == "str":
        if option["choices_from"] in SEATING_SETS:
            common["help_text"] = f"{option['doc']} (a name from Players)"
            return forms.CharField(max_length=200, initial=default, **common)
        return forms.CharField(max_length=60, initial=default, **common)
    if kind == "list" and _is_scalar(option["item"]):
        common["help_text"] = f"{option['doc']} (separated by spaces)"
        return ListField(item=option["item"], initial=default, **common)
    item = option["item"]
    if kind == "object" and not option["fields"] and item is not None:
        keyed = _is_scalar(item) or (item["type"] == "list" and _is_scalar(item["item"]))
        if keyed:
            help_text = option["doc"] + " (one line each: a name, a colon, its value)"
            attrs: dict[str, Any] = {"rows": 4, "autocomplete": "off"}
            cards = (item.get("item") or {}).get("choices") if item["type"] == "list" else None
            if cards:
                # a hand of cards: the page's picker writes these lines
                attrs["data-picker"] = json.dumps([str(c) for c in cards])
                attrs["data-keys"] = option["choices_from"] or ""
                help_text = (
                    option["doc"] + f" (one line each: a name, a colon, {_words(item['name'])})"
                )
            return KeyedField(
                item=item,
                widget=forms.Textarea(attrs=attrs),
                initial=default,
                label=label,
                help_text=help_text,
                required=False,
            )
    return None


def _control(form: forms.Form, option: Mapping[str, Any], key: str, label: str) -> _Control | None:
    """The control of an option (or of a part of one): form fields added to `form`."""
    if option["type"] == "object" and option["fields"]:
        parts = [
            _control(form, sub, f"{key}__{sub['name']}", f"{label}: {_words(sub['name'])}")
            for sub in option["fields"]
        ]
        given = [p for p in parts if p is not None]
        if not given:
            return None

        def whole(data: Mapping[str, Any]) -> Any:
            value = {
                sub["name"]: part.build(data)
                for sub, part in zip(option["fields"], parts, strict=True)
                if part is not None and part.build(data) is not None
            }
            return value or None

        return _Control([k for p in given for k in p.keys], whole, label, given)
    if option["type"] == "union":
        variants = [
            (v, _control(form, v, f"{key}__{v['name']}", f"{label}: {_words(v['name'])}"))
            for v in option["variants"]
        ]
        made = [(v, c) for v, c in variants if c is not None]
        if not made:
            return None

        def one_of(data: Mapping[str, Any]) -> Any:
            given = [c.build(data) for _, c in made if c.build(data) is not None]
            if len(given) > 1:
                names = " or ".join(_words(v["name"]) for v, _ in made)
                raise forms.ValidationError(f"{label}: give {names}, not both.")
            return given[0] if given else None

        return _Control([k for _, c in made for k in c.keys], one_of, label, [c for _, c in made])
    made_field = _scalar_field(option, label)
    if made_field is None:
        return None
    form.fields[key] = made_field

    def value(data: Mapping[str, Any]) -> Any:
        got = data.get(key)
        if got in (None, ""):
            return None
        if isinstance(made_field, forms.ChoiceField) and not isinstance(
            made_field, forms.TypedChoiceField
        ):
            return json.loads(got)  # choices are JSON: "7", "\"home\""
        if isinstance(made_field, forms.TypedChoiceField):
            return got == "true"
        return got

    return _Control([key], value)


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
        help_text="Options not shown above, as an object.",
    )

    def __init__(self, *args: Any, game_id: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` is typed by the base Field; "game" is the ChoiceField declared above.
        cast(forms.ChoiceField, self.fields["game"]).choices = registry.game_choices()
        self.fields["game"].initial = game_id
        self.controls: dict[str, _Control] = {}
        #: declared options with no control (the JSON box is for them), drawn ones aside
        self.unshown: list[str] = []
        try:
            describe = registry.get(game_id).describe()
        except registry.UnknownGame:
            return
        for option in describe["setup"]:
            if option["name"] in SEATING or drawn_by_service(option):
                continue
            control = _control(
                self, option, f"opt_{option['name']}", option["name"].replace("_", " ").capitalize()
            )
            if control is None:
                self.unshown.append(option["name"])
            else:
                self.controls[option["name"]] = control

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[key] for control in self.controls.values() for key in control.keys]

    @property
    def option_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each option's fields, with a legend where an option has several."""
        return [
            (control.legend, [self[key] for key in control.keys])
            for control in self.controls.values()
        ]

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

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.chosen: dict[str, Any] = {}
        for name, control in self.controls.items():
            try:
                value = control.build(data)
            except forms.ValidationError as exc:
                self.add_error(control.keys[0], exc)
                continue
            if value is not None:
                self.chosen[name] = value
        return data

    def player_entries(self) -> list[Any]:
        entries: list[Any] = []
        for line in self.cleaned_data["players"].splitlines():
            names = [n.strip() for n in line.replace(",", "&").split("&") if n.strip()]
            if names:
                entries.append(names[0] if len(names) == 1 else names)
        return entries

    def options(self) -> dict[str, Any]:
        chosen: dict[str, Any] = dict(self.cleaned_data.get("more_options") or {})
        chosen.update(self.chosen)
        return chosen
