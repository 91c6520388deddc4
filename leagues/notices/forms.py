from __future__ import annotations

from django import forms

from leagues.models import Notice


class NoticeForm(forms.Form):
    title = forms.CharField(max_length=120)
    body = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=1000, required=False, label="Text"
    )
    level = forms.ChoiceField(choices=Notice.Level.choices, initial=Notice.Level.INFO)
    starts_at = forms.DateTimeField(
        required=False,
        label="Shown from",
        help_text="Empty: now.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    ends_at = forms.DateTimeField(
        required=False,
        label="Until",
        help_text="Empty: until you end it.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
