"""Statistics pages: leaderboards per division and season, and the player page's
statistics with its form chart (server-rendered SVG). Thin: look up, call frames.stats."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from leagues.models import Division, Player, Season

from . import chart, selectors


def _sort(request, game_id: str) -> str:
    sort = request.GET.get("sort", "win_rate")
    return sort if sort in selectors.sorts(game_id) else "win_rate"


def _min_frames(request) -> int:
    try:
        return max(0, min(int(request.GET.get("min", "0")), 1000))
    except ValueError:
        return 0


@require_safe
def division_leaderboard(request, league: str, pk: int):
    division = get_object_or_404(
        Division.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    game_id = division.season.game_id
    sort, min_frames = _sort(request, game_id), _min_frames(request)
    return render(
        request,
        "frames/stats_leaderboard.html",
        {
            "title": f"{division.name} leaderboard",
            "season": division.season,
            "division": division,
            "rows": selectors.leaderboard(division=division, sort=sort, min_frames=min_frames),
            "sort": sort,
            "sorts": selectors.sorts(game_id),
            "columns": selectors.columns(game_id),
            "min_frames": min_frames,
        },
    )


@require_safe
def season_leaderboard(request, league: str, pk: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    game_id = season.game_id
    sort, min_frames = _sort(request, game_id), _min_frames(request)
    return render(
        request,
        "frames/stats_leaderboard.html",
        {
            "title": f"{season} leaderboard",
            "season": season,
            "division": None,
            "rows": selectors.leaderboard(season=season, sort=sort, min_frames=min_frames),
            "sort": sort,
            "sorts": selectors.sorts(game_id),
            "columns": selectors.columns(game_id),
            "min_frames": min_frames,
        },
    )


@require_safe
def player_stats(request, pk: int):
    """The player page with statistics and form; its statistics alone for htmx (the
    league's player page loads them into its `player_stats` block)."""
    player = get_object_or_404(Player, pk=pk)
    form = selectors.player_form(player)
    context = {
        "player": player,
        "summary": selectors.player_summary(player),
        "form": form,
        "chart": chart.form_chart(form),
    }
    if getattr(request, "htmx", False):
        return render(request, "frames/stats_player_fragment.html", context)
    context["registrations"] = player.registrations.select_related("team", "season").order_by(
        "-season_id"
    )
    return render(request, "frames/stats_player.html", context)
