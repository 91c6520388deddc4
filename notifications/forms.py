"""A person's choices as one form: channels, cadence, quiet hours, and each event on or off."""

from __future__ import annotations

from django import forms
from django.db import transaction

from . import services
from .events import DEFAULT_ON, Event
from .models import Choice, Recipient


class ChoicesForm(forms.ModelForm):
    class Meta:
        model = Recipient
        fields = ["email_on", "push_on", "cadence", "quiet_start", "quiet_end"]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "cadence": forms.RadioSelect,
        }
        labels = {"quiet_start": "Quiet from", "quiet_end": "Quiet until"}

    def __init__(self, *args, recipient: Recipient, **kwargs) -> None:
        kwargs["instance"] = recipient
        super().__init__(*args, **kwargs)
        chosen = {
            c.event: c.enabled
            for c in Choice.objects.filter(recipient=recipient, league__isnull=True)
        }
        for event in Event:
            self.fields[f"event_{event.value}"] = forms.BooleanField(
                label=event.label,
                required=False,
                initial=chosen.get(event.value, event.value in DEFAULT_ON),
            )

    def clean(self):
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(
                "Give both ends of the quiet hours, or clear both for none.", code="quiet_hours"
            )
        return data

    def event_fields(self):
        return [self[f"event_{e.value}"] for e in Event]

    @transaction.atomic
    def save(self, commit: bool = True) -> Recipient:
        recipient = super().save(commit=commit)
        for event in Event:
            services.choice_set(
                recipient=recipient,
                enabled=self.cleaned_data[f"event_{event.value}"],
                event=event.value,
            )
        return recipient
