"""Competition pages: a season's competitions, an event's bracket and group tables (on a
phone, and printed on one A4 page)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from leagues.models import Season
from marker.errors import DomainError
from marker.permissions import require_perm

from .. import selectors
from ..models import Competition, Group
from ..services.ties import group_set_deadline


@require_safe
def season_competitions(request, pk: int):
    """The season's competitions, each with its stage and, once won, its winner. With
    `?panel=1`, the list alone (the season page loads it in place)."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    competitions = list(
        selectors.competitions_of(season)
        .select_related(*(f"winner__{j}" for j in selectors.ENTRY_JOINS))
        .order_by("name")
    )
    template = (
        "competitions/_season_panel.html"
        if request.GET.get("panel")
        else "competitions/season_competitions.html"
    )
    return render(request, template, {"season": season, "competitions": competitions})


def _competition(pk: int) -> Competition:
    return get_object_or_404(Competition.objects.select_related("season__league", "plate"), pk=pk)


@require_safe
def competition_detail(request, pk: int):
    """The bracket (rounds side by side, each scrolling on a phone; one A4 page printed),
    the group tables with their tie-breakers explained, and where the plate is fed from."""
    competition = _competition(pk)
    bracket = selectors.bracket(competition)
    groups = selectors.group_tables(competition) if competition.has_groups else []
    feeders = list(Competition.objects.filter(plate=competition).only("pk", "name"))
    return render(
        request,
        "competitions/competition.html",
        {
            "competition": competition,
            "bracket": bracket,
            "groups": groups,
            "feeders": feeders,
            "can_manage": request.user.has_perm("competitions.manage", competition),
        },
    )


class GroupDeadlineForm(forms.Form):
    deadline = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


@login_required
@require_POST
def group_deadline(request, pk: int):
    """The secretary sets (or clears) the date a group's matches must be played by."""
    group = get_object_or_404(Group.objects.select_related("competition__season"), pk=pk)
    require_perm(request.user, "competitions.manage", group.competition)
    form = GroupDeadlineForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the deadline as a date and time.")
        return redirect("competition-detail", pk=group.competition_id)
    try:
        group_set_deadline(actor=request.user, group=group, deadline=form.cleaned_data["deadline"])
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{group.name}: deadline saved.")
    return redirect("competition-detail", pk=group.competition_id)
