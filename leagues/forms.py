from __future__ import annotations

import json
from datetime import date
from typing import cast

from django import forms

from marker.formats import PRESETS
from rules import registry

from .models import MAX_RANKING_MIN_FRAMES, Division, LeagueRole, Venue, Weekday


class TeamRegisterForm(forms.Form):
    name = forms.CharField(max_length=120)
    venue = forms.ModelChoiceField(queryset=Venue.objects.all())
    division = forms.ModelChoiceField(queryset=Division.objects.none(), required=False)

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        if season is not None:
            self.fields["division"].queryset = season.divisions.all()


SOMEONE_ELSE = "This is someone else with the same name, new to the league"


class AddPlayerForm(forms.Form):
    name = forms.CharField(max_length=120, label="Player's name")
    email = forms.EmailField(required=False)
    someone_else = forms.BooleanField(required=False, label=SOMEONE_ELSE)


class AddExistingPlayerForm(forms.Form):
    existing = forms.IntegerField(min_value=1, max_value=2**63 - 1)


class InviteForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField()
    someone_else = forms.BooleanField(required=False, label=SOMEONE_ELSE)


class RemovePlayerForm(forms.Form):
    registration = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)


class DateListField(forms.CharField):
    """Dates, one per line or comma-separated, as YYYY-MM-DD."""

    def to_python(self, value):
        text = super().to_python(value) or ""
        dates: list[date] = []
        for part in text.replace(",", "\n").split():
            try:
                dates.append(date.fromisoformat(part.strip()))
            except ValueError:
                raise forms.ValidationError(
                    f"{part!r} is not a date; write dates as YYYY-MM-DD.", code="bad_date"
                ) from None
        return dates


class FixturesGenerateForm(forms.Form):
    start_date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    blackout_dates = DateListField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Nights with no matches (Christmas, cup nights), YYYY-MM-DD, one per line.",
    )


class FixtureMoveForm(forms.Form):
    action = forms.ChoiceField(choices=[("move", "Move to a new date"), ("postpone", "Postpone")])
    new_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.CharField(max_length=200, required=False)
    by = forms.ChoiceField(
        label="Postponed by",
        required=False,
        choices=[("", "Not said"), ("home", "The home team"), ("away", "The away team")],
        help_text="A league may fine the side that postpones without a new date.",
    )

    def clean(self):
        data = super().clean()
        if data.get("action") == "move" and not data.get("new_date"):
            self.add_error("new_date", "Choose the new date.")
        return data


class AcceptInvitationForm(forms.Form):
    username = forms.CharField(max_length=150)
    password = forms.CharField(widget=forms.PasswordInput, min_length=8)


class LeagueCreateForm(forms.Form):
    """A site administrator's new league and its first secretary."""

    name = forms.CharField(max_length=120)
    slug = forms.SlugField(
        max_length=60, label="Address", help_text="The league's pages live under /<address>/."
    )
    town = forms.CharField(
        max_length=80,
        required=False,
        help_text="Where the league plays: the league list finds it by its town.",
    )
    game_id = forms.ChoiceField(label="Game", choices=())
    match_night = forms.TypedChoiceField(coerce=int, choices=Weekday.choices, initial=1)
    secretary = forms.CharField(
        max_length=254,
        label="First secretary",
        help_text="An account's username or email, or the email address of someone to invite.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = registry.game_choices()
        self.fields["game_id"].initial = registry.default_game_id()


class SeasonCreateForm(forms.Form):
    """A league's secretary starts a season: its game, divisions and match format."""

    name = forms.CharField(max_length=60, help_text="For example “Winter 2026”.")
    slug = forms.SlugField(
        max_length=60,
        required=False,
        label="Address",
        help_text="Optional: made from the name when left empty.",
    )
    game_id = forms.ChoiceField(label="Game", choices=())
    start_date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Start date"
    )
    divisions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One per line, the top division first.",
    )
    match_format_preset = forms.ChoiceField(
        required=False,
        label="Match format",
        choices=[("", "Marker's default")] + [(key, data["name"]) for key, data in PRESETS.items()],
        help_text="You can change it later on the season's format page.",
    )

    def __init__(self, *args, league=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = registry.game_choices()
        self.fields["game_id"].initial = (
            league.game_id if league is not None else registry.default_game_id()
        )

    def clean_divisions(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["divisions"].splitlines()]


class OfficerAddForm(forms.Form):
    who = forms.CharField(
        max_length=254,
        label="Username or email",
        help_text="Someone without an account is invited by email.",
    )
    role = forms.ChoiceField(choices=LeagueRole.Role.choices)


class OfficerRemoveForm(forms.Form):
    role = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)


class MatchFormatForm(forms.Form):
    """A match format: a preset, or the format's JSON edited (docs/formats.md)."""

    preset = forms.ChoiceField(
        required=False,
        choices=[("", "Keep the JSON below")]
        + [(key, data["name"]) for key, data in PRESETS.items()],
        label="Start from a preset",
        help_text="Choosing a preset replaces the JSON below with it.",
    )
    format = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false"}),
        label="The format (JSON)",
        help_text="Sections (name, kind: singles/doubles/triples, frames, and for a fixed "
        "order pairings like 1v1 or 1+2v3+4); selection: hat, blind or fixed; "
        "substitution: norwich_five or max_per_section (with max_per_section: k); "
        "referee: norwich_rotation, none or named; points: frame, section, match "
        "(null: the season's scheme); min_players.",
    )
    inherit = forms.BooleanField(required=False, label="Play the season's format")

    def clean_format(self):
        text = self.cleaned_data["format"].strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(f"This is not valid JSON: {exc}") from None


class RegistrationRulesForm(forms.Form):
    """The season's registration rules (docs/eligibility.md); empty: no such rule."""

    registrations_open = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Registrations open"
    )
    registrations_close = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Registrations close"
    )
    close_at_first_match_after = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label="Close at the first match on or after",
        help_text="1 January: no new registrations after the first match of the New Year.",
    )
    min_notice_days = forms.IntegerField(
        min_value=0,
        max_value=365,
        initial=0,
        label="Days' notice before a new player may play",
        help_text="Chester: 3. 0: at once.",
    )
    play_up_allowed = forms.BooleanField(
        required=False,
        label="Players may play up for a higher team of their club (same home venue)",
    )
    play_up_cap = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100,
        label="At most this many appearances in a higher division",
        help_text="Alby: 6. Empty: no cap.",
    )
    play_up_divisions = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=20,
        label="Divisions above that count as higher",
        help_text="1: only the division directly above. Empty: every division above.",
    )
    transfers_allowed = forms.BooleanField(required=False, label="Transfers are allowed")
    transfers_only_while_open = forms.BooleanField(
        required=False, label="Transfers only while registrations are open"
    )
    transfers_need_approval = forms.BooleanField(
        required=False, label="Transfers need the secretary's approval"
    )
    penalty = forms.ChoiceField(
        choices=[("forfeit_frame", "The frame is forfeited to the opponents")],
        label="Penalty for a frame played by an ineligible player",
    )


class TransferRequestForm(forms.Form):
    player = forms.IntegerField(min_value=1, label="Player")
    reason = forms.CharField(max_length=300, required=False, label="Reason")


class TransferDecideForm(forms.Form):
    transfer = forms.IntegerField(min_value=1)
    decision = forms.ChoiceField(choices=[("approve", "Approve"), ("refuse", "Refuse")])
    note = forms.CharField(max_length=500, required=False, label="Note")


class RankingRulesForm(forms.Form):
    """An organisation's ranking rules (docs/ratings.md, *Rankings*)."""

    min_frames = forms.IntegerField(
        min_value=1,
        max_value=MAX_RANKING_MIN_FRAMES,
        label="Frames needed to be ranked",
        help_text="Rated frames in the member leagues in the last twelve months.",
    )
    games = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Games ranked",
        help_text="None ticked: every game the member leagues play.",
    )

    def __init__(self, *args, games: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.MultipleChoiceField, self.fields["games"]).choices = games
