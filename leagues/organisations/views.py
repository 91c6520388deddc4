"""The pages of organisations above leagues."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from marker.errors import DomainError
from marker.permissions import require_perm
from rules import registry

from ..forms import RankingRulesForm
from ..models import Organisation
from . import selectors, services


@require_GET
def organisation_list(request):
    return render(
        request,
        "leagues/organisation_list.html",
        {"organisations": list(selectors.organisations())},
    )


@require_GET
def organisation_home(request, slug: str):
    try:
        page = selectors.organisation_page(slug)
    except Organisation.DoesNotExist:
        raise Http404("No such organisation.") from None
    return render(request, "leagues/organisation.html", page)


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


@require_http_methods(["GET", "HEAD", "POST"])
def organisation_ranking_rules(request, slug: str):
    """Its officers set who its rankings rank (the minimum frames) and in which games."""
    organisation = get_object_or_404(Organisation, slug=slug)
    require_perm(request.user, "leagues.set_organisation_rankings", organisation)
    offered = sorted(set(selectors.member_games(organisation)) | set(organisation.ranked_games))
    games = [(g, _game_name(g)) for g in offered]
    if request.method == "POST":
        form = RankingRulesForm(request.POST, games=games)
        if form.is_valid():
            try:
                services.organisation_set_ranking_rules(
                    organisation=organisation,
                    actor=request.user,
                    min_frames=form.cleaned_data["min_frames"],
                    games=form.cleaned_data["games"],
                )
            except DomainError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, "The ranking rules are saved.")
                return redirect("organisation-rankings", slug=organisation.slug)
    else:
        form = RankingRulesForm(
            initial={
                "min_frames": organisation.ranking_min_frames,
                "games": organisation.ranked_games,
            },
            games=games,
        )
    return render(
        request,
        "leagues/organisation_ranking_rules.html",
        {"organisation": organisation, "form": form},
    )
