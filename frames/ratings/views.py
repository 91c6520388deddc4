"""Ratings and pictures pages. Thin: look up (404), call a selector, draw, render.
Everything here is public, like the statistics: results and ratings are the league's."""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from frames import cards
from frames.models import Frame, FramePlayer, Match
from leagues.models import DEFAULT_RANKING_MIN_FRAMES, Division, League, Organisation, Player, Team
from leagues.organisations import selectors as organisation_selectors
from rules import registry

from . import pictures, rankings, selectors


def _int(request, name: str, default: int = 0, top: int = 1000) -> int:
    try:
        return max(0, min(int(request.GET.get(name, default)), top))
    except ValueError:
        return default


def player_context(player: Player) -> dict[str, Any]:
    """Everything the player's ratings section shows (a fixed number of queries)."""
    rated = selectors.player_ratings(player)
    games = []
    for r in rated:
        holes = selectors.hole_map(player, r.game_id)
        breaks = selectors.break_values(player, r.game_id)
        games.append(
            {
                "rating": r,
                "history": pictures.history_chart(r.history),
                "recent": r.history[-10:][::-1],
                "holes": holes,
                "hole_chart": pictures.hole_map_chart(holes) if holes and holes["total"] else None,
                "breaks": pictures.histogram(breaks["values"], breaks["label"]),
            }
        )
    return {"player": player, "games": games, "opponents": selectors.opponents(player)}


@require_safe
def player_ratings(request, pk: int):
    """The player page with ratings and pictures; the section alone for htmx (the
    league's player page loads it into its `player_ratings` block)."""
    player = get_object_or_404(Player, pk=pk)
    context = player_context(player)
    if getattr(request, "htmx", False):
        return render(request, "frames/ratings/_player.html", context)
    context["registrations"] = player.registrations.select_related("team", "season").order_by(
        "-season_id"
    )
    return render(request, "frames/ratings/player.html", context)


@require_safe
def league_ratings(request, league: str):
    league_obj = get_object_or_404(League, slug=league)
    games = selectors.league_games(league_obj)
    game_id = request.GET.get("game", games[0])
    if game_id not in games:
        game_id = games[0]
    min_frames = _int(request, "min")
    provisional = request.GET.get("provisional", "show") != "hide"
    rows = selectors.league_table(
        league_obj, game_id, min_frames=min_frames, provisional=provisional
    )
    return render(
        request,
        "frames/ratings/league.html",
        {
            "league": league_obj,
            # Each organisation the league belongs to ranks its players with theirs: its
            # ranking of this game (every game its leagues play, unless it chose some).
            "organisations": [
                (
                    o,
                    reverse("organisation-ranking", args=[o.slug, game_id])
                    if not o.ranked_games or game_id in o.ranked_games
                    else reverse("organisation-rankings", args=[o.slug]),
                )
                for o in organisation_selectors.organisations_of_league(league_obj)
            ],
            "games": [(g, selectors.game_name(g)) for g in games],
            "game_id": game_id,
            "game": selectors.game_name(game_id),
            "rows": rows,
            "min_frames": min_frames,
            "provisional": provisional,
        },
    )


@require_safe
def match_expectation(request, pk: int):
    match = get_object_or_404(
        Match.objects.select_related("fixture__home", "fixture__away", "fixture__division"), pk=pk
    )
    context = {
        "match": match,
        "fixture": match.fixture,
        "expectation": selectors.match_expectation(match),
        "worms": list(
            Frame.objects.filter(match=match, last_seq__gt=0)
            .order_by("order")
            .values_list("pk", "number")
        ),
    }
    if getattr(request, "htmx", False):
        return render(request, "frames/ratings/_expectation.html", context)
    return render(request, "frames/ratings/expectation.html", context)


@require_safe
def frame_worm(request, pk: int):
    frame = get_object_or_404(
        Frame.objects.select_related("match__fixture__home", "match__fixture__away", "friendly"),
        pk=pk,
    )
    fixture = frame.match.fixture if frame.match else None
    players = (
        list(
            FramePlayer.objects.filter(frame=frame)
            .select_related("player")
            .order_by("side", "position")
        )
        if fixture
        else []
    )
    home = fixture.home.name if fixture else "Home"
    away = fixture.away.name if fixture else "Away"
    points = selectors.frame_worm(frame)
    return render(
        request,
        "frames/ratings/worm.html",
        {
            "frame": frame,
            "fixture": fixture,
            "home": home,
            "away": away,
            "points": points[1:],
            "chart": pictures.worm_chart(points, home, away),
            # A friendly game's frame is its players' own: no card, no tags to share it.
            "share": (
                cards.frame_meta(frame, players, reverse("frame-worm", args=[frame.pk]))
                if fixture
                else None
            ),
        },
    )


@require_safe
def match_card_png(request, pk: int):
    """The match's result card (a PNG, docs/result-cards.md); 404 before any result."""
    try:
        card = cards.match_card(pk)
    except cards.NoCard:
        raise Http404("This match has no result card yet.") from None
    return cards.card_response(request, card)


@require_safe
def frame_card_png(request, pk: int):
    """A league or cup match frame's result card; 404 for a friendly game's frame or a
    frame without a result."""
    try:
        card = cards.frame_card(pk)
    except cards.NoCard:
        raise Http404("This frame has no result card.") from None
    return cards.card_response(request, card)


@require_safe
def division_positions(request, league: str, pk: int):
    division = get_object_or_404(
        Division.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    data = selectors.division_positions(division)
    return render(
        request,
        "frames/ratings/positions.html",
        {"division": division, "data": data, "chart": pictures.positions_chart(data)},
    )


@require_safe
def head_to_head_players(request, a: int, b: int):
    first, second = get_object_or_404(Player, pk=a), get_object_or_404(Player, pk=b)
    return render(
        request,
        "frames/ratings/h2h_players.html",
        {"a": first, "b": second, "h2h": selectors.head_to_head_players(first, second)},
    )


@require_safe
def head_to_head_teams(request, a: int, b: int):
    first = get_object_or_404(Team.objects.select_related("season"), pk=a)
    second = get_object_or_404(Team.objects.select_related("season"), pk=b)
    return render(
        request,
        "frames/ratings/h2h_teams.html",
        {"a": first, "b": second, "h2h": selectors.head_to_head_teams(first, second)},
    )


# --------------------------------------------------------------------- rankings


def _organisation(slug: str) -> Organisation:
    return get_object_or_404(Organisation, slug=slug)


def _page_of(request, ranking_for) -> rankings.Ranking:
    """The page `?page=` asks for (1 when it is not a whole number); 404 past the last."""
    raw = request.GET.get("page", "1")
    page = int(raw) if re.fullmatch(r"[0-9]{1,6}", raw) and int(raw) > 0 else 1
    ranking = ranking_for((page - 1) * rankings.PAGE_SIZE)
    if page > ranking.pages:
        raise Http404("No such page of the ranking.")
    return ranking


@require_safe
def organisation_rankings(request, slug: str):
    """The games an organisation ranks, with its rules."""
    organisation = _organisation(slug)
    games = organisation_selectors.ranked_games(organisation)
    return render(
        request,
        "frames/ratings/organisation_rankings.html",
        {
            "organisation": organisation,
            "games": [(g, selectors.game_name(g)) for g in games],
            "can_set": request.user.has_perm("leagues.set_organisation_rankings", organisation),
        },
    )


@require_safe
def organisation_ranking(request, slug: str, game_id: str):
    """The organisation's ranking in one game, 50 players a page."""
    organisation = _organisation(slug)
    if game_id not in organisation_selectors.ranked_games(organisation):
        raise Http404("The organisation does not rank this game.")
    league_ids = list(organisation.leagues.values_list("pk", flat=True))
    ranking = _page_of(
        request,
        lambda offset: rankings.ranking(
            game_id,
            league_ids=league_ids,
            min_frames=organisation.ranking_min_frames,
            today=timezone.localdate(),
            offset=offset,
        ),
    )
    return render(
        request,
        "frames/ratings/ranking.html",
        {
            "organisation": organisation,
            "game_id": game_id,
            "game": selectors.game_name(game_id),
            "ranking": ranking,
        },
    )


@require_safe
def site_ranking(request, game_id: str):
    """Every league's players ranked in one game, by the default rules."""
    try:
        registry.get(game_id)
    except registry.UnknownGame:
        raise Http404("No such game.") from None
    ranking = _page_of(
        request,
        lambda offset: rankings.ranking(
            game_id,
            league_ids=None,
            min_frames=DEFAULT_RANKING_MIN_FRAMES,
            today=timezone.localdate(),
            offset=offset,
        ),
    )
    return render(
        request,
        "frames/ratings/ranking.html",
        {
            "organisation": None,
            "game_id": game_id,
            "game": selectors.game_name(game_id),
            "ranking": ranking,
        },
    )
