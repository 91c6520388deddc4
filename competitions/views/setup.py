"""Competition pages: a season's competitions, an event's bracket and group tables (on a
phone, and printed on one A4 page)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from leagues.models import Season

from .. import selectors
from ..models import Competition


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
