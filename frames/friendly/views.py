"""Pages of friendly games: start one, your games, and a game's live page (anyone with the
link may watch; whoever started it scores it on the pad)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from frames.models import Frame, Friendly
from marker.errors import DomainError
from rules import registry

from . import selectors, services
from .forms import FriendlyForm


@login_required
@require_safe
def friendly_list(request):
    games = [
        {"game": g, "status": selectors.status_of(g.frame)}
        for g in selectors.friendlies_of(request.user)
    ]
    return render(request, "frames/friendly_list.html", {"games": games})


@login_required
@require_http_methods(["GET", "POST"])
def friendly_new(request):
    data = request.POST if request.method == "POST" else request.GET
    game_id = data.get("game") or registry.DEFAULT_GAME
    starting = request.method == "POST" and "start" in request.POST
    form = FriendlyForm(request.POST if starting else None, game_id=game_id)
    if starting and form.is_valid():
        try:
            friendly = services.friendly_start(
                owner=request.user,
                game_id=form.cleaned_data["game"],
                players=form.player_entries(),
                options=form.options(),
                title=form.cleaned_data["title"],
            )
        except DomainError as exc:
            target = exc.field if exc.field in form.fields else None
            form.add_error(target, exc.message)
        else:
            return redirect("frame-pad", pk=friendly.frame.pk)
    template = "frames/_friendly_options.html" if request.htmx else "frames/friendly_new.html"
    return render(request, template, {"form": form, "game_id": game_id})


def _page(request, pk: int) -> dict[str, Any]:
    friendly = get_object_or_404(Friendly.objects.select_related("owner__player", "frame"), pk=pk)
    frame: Frame = friendly.frame
    return {
        "friendly": friendly,
        "frame": frame,
        "live": selectors.live(frame),
        "can_score": request.user.has_perm("frames.enter_event", frame),
    }


@require_safe
def friendly_detail(request, pk: int):
    return render(request, "frames/friendly_detail.html", _page(request, pk))


@require_safe
def friendly_live(request, pk: int):
    """The live score alone, for the page's htmx polling."""
    return render(request, "frames/_friendly_live.html", _page(request, pk))
