"""Statistics pages: leaderboards per division and season, and the player page's
statistics with its form chart (server-rendered SVG). Thin: look up, call frames.stats."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from frames.models import Award
from leagues.models import MAX_FRAME_SCORE, Division, Player, Season
from marker.errors import DomainError
from marker.permissions import require_perm

from . import awards, chart, selectors


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


class AwardForm(forms.Form):
    name = forms.CharField(max_length=80)
    measure = forms.ChoiceField(choices=Award.Measure.choices)
    stat = forms.ChoiceField(required=False, help_text="For a statistic or a threshold.")
    threshold = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_FRAME_SCORE,
        help_text="For a threshold: the value a frame's statistic reaches (e.g. a break of 200).",
    )
    min_fixtures_percent = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=50,
        label="Played in at least (% of the team's fixtures)",
    )
    min_frames = forms.IntegerField(
        min_value=0, max_value=awards.MAX_MIN_FRAMES, initial=0, label="And at least (frames)"
    )

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        stat = self.fields["stat"]
        assert isinstance(stat, forms.ChoiceField)
        stat.choices = [("", "—"), *awards.stat_choices(season)]


@require_http_methods(["GET", "POST"])
def season_awards(request, league: str, pk: int):
    """The season's awards, each with its leaders and who does not qualify, explained;
    the secretary adds and removes awards here."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    form = AwardForm(season=season)
    if request.method == "POST":
        require_perm(request.user, "leagues.manage_league", season)
        if request.POST.get("action") == "delete":
            award = get_object_or_404(Award, pk=request.POST.get("award") or 0, season=season)
            awards.award_delete(award=award, actor=request.user)
            messages.success(request, f"{award.name} removed.")
            return redirect("season-awards", league=season.league.slug, pk=season.pk)
        form = AwardForm(request.POST, season=season)
        if form.is_valid():
            try:
                award = awards.award_define(season=season, actor=request.user, **form.cleaned_data)
            except DomainError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, f"{award.name} added.")
                return redirect("season-awards", league=season.league.slug, pk=season.pk)
    return render(
        request,
        "frames/stats_awards.html",
        {
            "season": season,
            "standings": awards.season_awards(season),
            "form": form,
            "can_manage": request.user.has_perm("leagues.manage_league", season),
        },
    )
