"""Tie pages: each tie with its scorecard and the pad, and the iCalendar feeds of a player's
or a team's ties."""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from frames.models import Match
from leagues.models import Player, Team
from marker.errors import DomainError
from marker.permissions import require_perm

from .. import selectors
from ..ical import player_ties, team_ties, ties_calendar
from ..models import Tie
from ..services.corrections import tie_correct as correct_tie
from ..services.pad import tie_frame_open
from ..services.ties import tie_deadline
from .cards import tie_meta


@require_safe
def tie_detail(request, pk: int):
    """One tie: its entrants, deadline and result; an individual tie's frames with the
    pad's links; a team tie's match scorecard (the match page's, loaded in place)."""
    try:
        tie = selectors.tie_detail(pk)
    except Tie.DoesNotExist:
        raise Http404 from None
    frames = list(tie.frames.all())
    match = None
    if tie.fixture_id is not None:
        match = Match.objects.filter(fixture_id=tie.fixture_id).only("pk", "status").first()
    return render(
        request,
        "competitions/tie.html",
        {
            "tie": tie,
            "competition": tie.competition,
            "frames": frames,
            "match": match,
            "deadline": tie_deadline(tie),
            "can_play": request.user.has_perm("competitions.play_tie", tie),
            "can_correct": tie.decided
            and not tie.bye
            and request.user.has_perm("competitions.manage", tie),
            "corrections": selectors.tie_corrections(tie),
            "share": tie_meta(tie),
        },
    )


class CorrectionForm(forms.Form):
    """The secretary's correction of a decided tie (the page's form; the API takes the
    same as JSON): a reason, and the winner, the frames or the match's frame scores."""

    reason = forms.CharField(max_length=200)
    winner = forms.ChoiceField(
        choices=[("", "(unchanged)"), ("home", "Home"), ("away", "Away")], required=False
    )
    frames = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One frame a line: the home score, then the away score (e.g. 300 120).",
    )
    match_frames = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One corrected frame a line: its number, the home score, the away score "
        "(e.g. 4: 620 380).",
    )

    @staticmethod
    def _lines(text: str, width: int, field: str) -> list[list[int]]:
        rows = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            numbers = [int(x) for x in re.findall(r"\d+", line)]
            if len(numbers) != width:
                raise forms.ValidationError(
                    f"Line {n} of {field}: give {width} whole numbers.", code="bad_line"
                )
            rows.append(numbers)
        return rows

    def clean_frames(self) -> list[dict[str, int]]:
        rows = self._lines(self.cleaned_data["frames"], 2, "the frames")
        return [{"home": h, "away": a} for h, a in rows]

    def clean_match_frames(self) -> dict[int, tuple[int, int]]:
        rows = self._lines(self.cleaned_data["match_frames"], 3, "the match's frames")
        return {n: (h, a) for n, h, a in rows}


@login_required
@require_POST
def tie_correct(request, pk: int):
    """The secretary corrects a decided tie from its page (`tie_correct` checks and moves
    later rounds back, or refuses saying why)."""
    tie = get_object_or_404(Tie.objects.select_related("competition__season"), pk=pk)
    require_perm(request.user, "competitions.manage", tie)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("tie-detail", pk=tie.pk)
    data = form.cleaned_data
    try:
        corrected = correct_tie(
            actor=request.user,
            tie=tie,
            reason=data["reason"],
            winner=data["winner"] or None,
            frames=data["frames"] or None,
            match_frames=data["match_frames"] or None,
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("tie-detail", pk=tie.pk)
    winner = corrected.winner.name if corrected.winner is not None else "nobody"
    messages.success(request, f"Corrected: {winner} won this tie.")
    return redirect("tie-detail", pk=tie.pk)


@login_required
@require_POST
def tie_pad(request, pk: int):
    """Open the tie's next frame (or the one in play) on the referee pad."""
    tie = get_object_or_404(
        Tie.objects.select_related(
            "competition__season",
            *(f"{s}__{j}" for s in ("home", "away") for j in selectors.ENTRY_JOINS),
        ),
        pk=pk,
    )
    require_perm(request.user, "competitions.play_tie", tie)
    try:
        tie_frame = tie_frame_open(actor=request.user, tie=tie)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("tie-detail", pk=tie.pk)
    return redirect("frame-pad", pk=tie_frame.frame_id)


def _calendar(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


@require_safe
def player_ties_ical(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    return _calendar(
        ties_calendar(f"{player.name}: cup ties", player_ties(player)), f"player-{pk}-ties"
    )


@require_safe
def team_ties_ical(request, pk: int):
    team = get_object_or_404(Team, pk=pk)
    return _calendar(ties_calendar(f"{team.name}: cup ties", team_ties(team)), f"team-{pk}-ties")
