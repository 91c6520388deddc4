"""Competition pages: a season's competitions, an event's bracket and group tables (on a
phone, and printed on one A4 page)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from leagues.models import Organisation, Season
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
    # The county's (and any association's) competitions the league takes part in.
    across = list(selectors.organisations_competitions_for_league(season.league))
    return render(
        request,
        template,
        {"season": season, "competitions": competitions, "across_leagues": across},
    )


@require_safe
def organisation_competitions(request, slug: str):
    """An organisation's competitions (a county championship across its member leagues),
    each with its game, rule, stage and winner. With `?panel=1`, the list alone (the
    organisation's page loads it in place)."""
    organisation = Organisation.objects.filter(slug=slug).first()
    if organisation is None:
        raise Http404("No such organisation.")
    competitions = list(
        selectors.competitions_of_organisation(organisation)
        .select_related(*(f"winner__{j}" for j in selectors.ENTRY_JOINS))
        .order_by("name")
    )
    template = (
        "competitions/_organisation_panel.html"
        if request.GET.get("panel")
        else "competitions/organisation_competitions.html"
    )
    return render(
        request,
        template,
        {
            "organisation": organisation,
            "competitions": competitions,
            "can_run": request.user.has_perm("leagues.run_organisation_competitions", organisation),
        },
    )


def _competition(pk: int) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("season__league", "organisation", "plate"), pk=pk
    )


@require_safe
def competition_detail(request, pk: int):
    """The bracket (rounds side by side, each scrolling on a phone; one A4 page printed),
    the group tables with their tie-breakers explained, and where the plate is fed from."""
    competition = _competition(pk)
    bracket = selectors.bracket(competition)
    groups = selectors.group_tables(competition) if competition.has_groups else []
    feeders = list(Competition.objects.filter(plate=competition).only("pk", "name"))
    member_leagues = (
        list(competition.organisation.leagues.order_by("name"))
        if competition.organisation is not None
        else []
    )
    return render(
        request,
        "competitions/competition.html",
        {
            "competition": competition,
            "bracket": bracket,
            "groups": groups,
            "feeders": feeders,
            "member_leagues": member_leagues,
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
