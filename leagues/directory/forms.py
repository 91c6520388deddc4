from __future__ import annotations

from django import forms

from leagues.models import DirectoryPost, League, Team, Weekday
from rules import registry

from . import services


class VenueDetailsForm(forms.Form):
    town = forms.CharField(max_length=80, required=False)
    address = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=500, required=False
    )
    notes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=services.MAX_NOTES,
        required=False,
        label="Public notes",
        help_text="Parking, steps, food: what a visiting team would like to know.",
    )
    latitude = forms.DecimalField(
        required=False, min_value=-90, max_value=90, decimal_places=5, max_digits=8
    )
    longitude = forms.DecimalField(
        required=False, min_value=-180, max_value=180, decimal_places=5, max_digits=8
    )


class VenueTableForm(forms.Form):
    game_id = forms.ChoiceField(label="Game", choices=())
    count = forms.IntegerField(
        min_value=1, max_value=services.MAX_TABLES, initial=1, label="Tables"
    )
    notes = forms.CharField(
        max_length=services.MAX_TABLE_NOTES,
        required=False,
        help_text="For example: one in the back room.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = registry.game_choices()


class VenueNightForm(forms.Form):
    weekday = forms.TypedChoiceField(label="Day", choices=Weekday.choices, coerce=int)
    starts_at = forms.TimeField(
        required=False, label="From", widget=forms.TimeInput(attrs={"type": "time"})
    )
    note = forms.CharField(
        max_length=services.MAX_NIGHT_NOTE,
        required=False,
        help_text="For example: league nights; the table is free other nights.",
    )


class PostForm(forms.Form):
    kind = forms.ChoiceField(choices=DirectoryPost.Kind.choices, widget=forms.RadioSelect)
    league = forms.ModelChoiceField(
        queryset=League.objects.all(),
        required=False,
        help_text="For “Looking for a team”: the league you would like to play in.",
    )
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        required=False,
        help_text="For “Join a team”: the team you captain.",
    )
    title = forms.CharField(max_length=services.MAX_TITLE)
    body = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=services.MAX_BODY,
        required=False,
        label="Text",
        help_text="Leave email addresses and phone numbers out: answers come through the site.",
    )
    days = forms.IntegerField(
        min_value=1,
        max_value=services.MAX_DAYS,
        initial=services.DEFAULT_DAYS,
        label="Days up",
        help_text=f"From 1 to {services.MAX_DAYS}; it comes down on its own.",
    )

    def __init__(self, *args, teams=None, **kwargs):
        super().__init__(*args, **kwargs)
        if teams is not None:
            self.fields["team"].queryset = teams


class MessageForm(forms.Form):
    body = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=services.MAX_BODY,
        label="Your message",
        help_text="Sent through the site: your email address is not shown.",
    )


class ModerateForm(forms.Form):
    action = forms.ChoiceField(choices=[("publish", "Publish"), ("refuse", "Refuse")])
    reason = forms.CharField(max_length=services.MAX_REASON, required=False)
