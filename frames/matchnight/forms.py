"""Forms of the match-night pages. They only parse input; the services decide."""

from __future__ import annotations

from typing import cast

from django import forms

from frames.engine import game_of
from frames.models import Frame, Side
from leagues.models import MAX_FRAME_SCORE, Player

SIDE_CHOICES = Side.choices


class SideForm(forms.Form):
    side = forms.ChoiceField(choices=SIDE_CHOICES, widget=forms.HiddenInput)


class PresenceForm(SideForm):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.all(), required=False, widget=forms.CheckboxSelectMultiple
    )
    draft = forms.ModelMultipleChoiceField(
        queryset=Player.objects.all(),
        required=False,
        label="Draft players from outside the team",
        help_text="Players on no other team this season (rule 8).",
    )
    new_players = forms.CharField(
        required=False,
        label="Draft newcomers",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Names of people new to the league, one per line.",
    )

    def __init__(self, *args, roster=(), draftable=None, **kwargs):
        super().__init__(*args, **kwargs)
        # `fields` is typed by the base Field; these are the model choice fields above.
        players = cast(forms.ModelMultipleChoiceField, self.fields["players"])
        players.queryset = Player.objects.filter(pk__in=[p.pk for p in roster])
        players.label = "Present tonight"
        if draftable is not None:
            cast(forms.ModelMultipleChoiceField, self.fields["draft"]).queryset = draftable

    def new_names(self) -> list[str]:
        return [
            line.strip() for line in self.cleaned_data["new_players"].splitlines() if line.strip()
        ]


class CommitForm(SideForm):
    # Filled in by static/frames/match.js (the SHA-256 of a secret kept on the phone);
    # left empty, the server makes the secret for the captain.
    commitment = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)


class RevealForm(SideForm):
    secret = forms.CharField(max_length=128, widget=forms.HiddenInput)


class DisputeForm(SideForm):
    reason = forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3}), label="What is wrong?"
    )


class ReorderAnswerForm(SideForm):
    answer = forms.ChoiceField(choices=[("accept", "Accept"), ("reject", "Reject")])


class ReorderForm(SideForm):
    """One select per place in the order of play."""

    def __init__(self, *args, frames=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(f.number, f"Frame {f.number} ({f.get_kind_display().lower()})") for f in frames]
        for position, frame in enumerate(frames, start=1):
            self.fields[f"place_{position}"] = forms.TypedChoiceField(
                choices=choices, coerce=int, initial=frame.number, label=f"{position}."
            )

    def order(self) -> list[int]:
        places = sorted(
            (int(name.removeprefix("place_")), value)
            for name, value in self.cleaned_data.items()
            if name.startswith("place_")
        )
        return [value for _, value in places]


class RefereeForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label="Referee")

    def __init__(self, *args, present=(), **kwargs):
        super().__init__(*args, **kwargs)
        player = cast(forms.ModelChoiceField, self.fields["player"])  # the field above
        player.queryset = Player.objects.filter(pk__in=[p.pk for p in present])


def score_field(label: str, step: int = 1) -> forms.IntegerField:
    """A paper score's box; `step` is the game's declared `score_step` (the service checks
    it, with a clear message; the box only guides the keyboard)."""
    return forms.IntegerField(
        min_value=0,
        max_value=MAX_FRAME_SCORE,
        required=False,
        label=label,
        widget=forms.NumberInput(attrs={"step": step, "inputmode": "numeric"}),
    )


def score_step(frame: Frame) -> int:
    """What a score is in the frame's game: a multiple of its declared `score_step`."""
    return game_of(frame).score_step


def score_unit(steps: set[int]) -> str:
    """What the sheet's scores are counted in, in words ("points, in tens")."""
    if len(steps) != 1:
        return "points, as each frame's game counts them"
    (step,) = steps
    return "points" if step == 1 else "points, in tens" if step == 10 else f"points, in {step}s"


class ScoresForm(forms.Form):
    """Home and away scores per frame (both or neither)."""

    def __init__(self, *args, frames=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.frames = list(frames)
        steps = set()
        for frame in self.frames:
            if frame.status == "conceded":
                continue
            step = score_step(frame)
            steps.add(step)
            self.fields[f"home_{frame.number}"] = score_field("Home", step)
            self.fields[f"away_{frame.number}"] = score_field("Away", step)
            if frame.home_score is not None:
                self.initial[f"home_{frame.number}"] = frame.home_score
                self.initial[f"away_{frame.number}"] = frame.away_score
        #: what the scores are counted in, for the page's help ("points, in tens")
        self.score_unit = score_unit(steps or {1})

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what the base clean returns
        for frame in self.frames:
            home, away = data.get(f"home_{frame.number}"), data.get(f"away_{frame.number}")
            if (home is None) != (away is None):
                self.add_error(f"home_{frame.number}", "Give both scores, or neither.")
        return data

    def rows(self):
        for frame in self.frames:
            if frame.status == "conceded":
                yield frame, None, None
            else:
                yield frame, self[f"home_{frame.number}"], self[f"away_{frame.number}"]

    def scores(self, *, changed_only: bool = True) -> dict[int, tuple[int, int]]:
        result = {}
        for frame in self.frames:
            home = self.cleaned_data.get(f"home_{frame.number}")
            away = self.cleaned_data.get(f"away_{frame.number}")
            if home is None or away is None:
                continue
            same = frame.status == "complete" and (frame.home_score, frame.away_score) == (
                home,
                away,
            )
            if not (changed_only and same):
                result[frame.number] = (home, away)
        return result


class SettleForm(ScoresForm):
    decision = forms.ChoiceField(
        choices=[
            ("accept", "Accept the result as it stands"),
            ("correct", "Correct the scores below"),
        ],
        widget=forms.RadioSelect,
        initial="accept",
    )
    note = forms.CharField(max_length=500, required=False, label="Note for the captains")


class IneligibleForm(forms.Form):
    """The secretary's decision on a frame played by an ineligible player."""

    frame = forms.IntegerField(min_value=1, max_value=99)
    player = forms.IntegerField(min_value=1)
    decision = forms.ChoiceField(
        choices=[("forfeit", "Apply the forfeit"), ("waive", "Waive it")],
        label="Decision",
    )
    note = forms.CharField(max_length=500, required=False, label="Note")
