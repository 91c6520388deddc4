"""A person's choices as one form: channels, cadence, quiet hours (in their time zone),
each event on or off, and per league a mute and per-event overrides.

The leagues are passed in (`leagues`: (id, name) pairs) by the page that knows where the
person plays or officiates (`people`): this app imports no other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import available_timezones

from django import forms
from django.db import transaction

from . import services
from .events import DEFAULT_ON, GROUPS, Event
from .models import Choice, Recipient

#: A league's override of one event: like everywhere else (no row), on, or off.
LIKE_EVERYWHERE, ON, OFF = "", "on", "off"
OVERRIDES = [(LIKE_EVERYWHERE, "As everywhere"), (ON, "On"), (OFF, "Off")]


@lru_cache(maxsize=1)
def zone_choices() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(available_timezones()) if "/" in z]


@dataclass
class LeagueFields:
    """One league's part of the form, for the template."""

    id: int
    name: str
    mute: forms.BoundField
    overrides: list[forms.BoundField]
    changed: int  # how many overrides are set (shown on the closed summary)


class ChoicesForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        label="Time zone", required=False, choices=[("", "—")], help_text="Quiet hours are in it."
    )

    class Meta:
        model = Recipient
        fields = ["email_on", "push_on", "cadence", "quiet_start", "quiet_end"]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "cadence": forms.RadioSelect,
        }
        labels = {"quiet_start": "Quiet from", "quiet_end": "Quiet until"}

    def __init__(
        self,
        *args,
        recipient: Recipient,
        leagues: Sequence[tuple[int, str]] = (),
        **kwargs,
    ) -> None:
        kwargs["instance"] = recipient
        super().__init__(*args, **kwargs)
        self.leagues = list(leagues)
        zone_field = self.fields["time_zone"]
        assert isinstance(zone_field, forms.ChoiceField)
        zone_field.choices = zone_choices()
        zone_field.initial = recipient.time_zone
        rows = list(Choice.objects.filter(recipient=recipient))  # every choice, one query
        chosen = {c.event: c.enabled for c in rows if c.league_id is None}
        self.chosen = chosen
        for event in Event:
            self.fields[f"event_{event.value}"] = forms.BooleanField(
                label=event.label,
                required=False,
                initial=chosen.get(event.value, event.value in DEFAULT_ON),
            )
        by_league = {(c.league_id, c.event): c.enabled for c in rows if c.league_id is not None}
        for league_id, _name in self.leagues:
            self.fields[f"league_{league_id}_mute"] = forms.BooleanField(
                label="Mute this league",
                required=False,
                initial=by_league.get((league_id, "")) is False,
            )
            for event in Event:
                found = by_league.get((league_id, event.value))
                self.fields[f"league_{league_id}_{event.value}"] = forms.ChoiceField(
                    label=event.label,
                    required=False,
                    choices=OVERRIDES,
                    initial=LIKE_EVERYWHERE if found is None else (ON if found else OFF),
                )

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def clean(self):
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(
                "Give both ends of the quiet hours, or clear both for none.", code="quiet_hours"
            )
        return data

    # ------------------------------------------------------------------ for the template

    def event_fields(self):
        return [self[f"event_{e.value}"] for e in Event]

    def event_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[f"event_{e.value}"] for e in events]) for title, events in GROUPS]

    def league_fields(self) -> list[LeagueFields]:
        out = []
        for league_id, name in self.leagues:
            overrides = [
                self[f"league_{league_id}_{e.value}"] for _title, events in GROUPS for e in events
            ]
            out.append(
                LeagueFields(
                    id=league_id,
                    name=name,
                    mute=self[f"league_{league_id}_mute"],
                    overrides=overrides,
                    changed=sum(1 for f in overrides if f.value()),
                )
            )
        return out

    # ------------------------------------------------------------------ saving

    @transaction.atomic
    def save(self, commit: bool = True) -> Recipient:
        recipient = super().save(commit=False)
        recipient.time_zone = self.cleaned_data["time_zone"]
        if commit:
            recipient.save()
        for event in Event:
            enabled = self.cleaned_data[f"event_{event.value}"]
            if event.value not in self.chosen and enabled == (event.value in DEFAULT_ON):
                continue  # still the default: no row, so a better default reaches them
            services.choice_set(recipient=recipient, enabled=enabled, event=event.value)
        for league_id, _name in self.leagues:
            if self.cleaned_data[f"league_{league_id}_mute"]:
                services.choice_set(recipient=recipient, enabled=False, league_id=league_id)
            else:
                services.choice_clear(recipient=recipient, league_id=league_id)
            for event in Event:
                value = self.cleaned_data[f"league_{league_id}_{event.value}"]
                if value == LIKE_EVERYWHERE:
                    services.choice_clear(
                        recipient=recipient, event=event.value, league_id=league_id
                    )
                else:
                    services.choice_set(
                        recipient=recipient,
                        enabled=value == ON,
                        event=event.value,
                        league_id=league_id,
                    )
        return recipient
