"""Tie pages: each tie with its scorecard and the pad, and the iCalendar feeds of a player's
or a team's ties."""

from __future__ import annotations

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
from ..services.pad import tie_frame_open
from ..services.ties import tie_deadline


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
        },
    )


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
