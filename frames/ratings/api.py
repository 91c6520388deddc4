"""The ratings API: a player's ratings, a league's table, a match's expectation, head to
head, and the figures behind each picture (a frame's worm, a player's hole map and
breaks, a division's positions). Read-only and public, like the pages; errors are
`{"error", "message"}`."""

from __future__ import annotations

import re
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from frames.models import Frame, Match, RatingRun
from leagues.models import (
    DEFAULT_RANKING_MIN_FRAMES,
    Division,
    League,
    Organisation,
    Player,
    Team,
)
from leagues.organisations import selectors as organisation_selectors
from leagues.serializers import ErrorSerializer
from marker.api_inputs import digits
from marker.errors import DomainError
from rules import registry

from . import rankings, selectors

NOT_FOUND = {404: ErrorSerializer}
BAD = {400: ErrorSerializer, 404: ErrorSerializer}


# ------------------------------------------------------------------ serializers


class LeagueRankSerializer(serializers.Serializer):
    league_id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    players = serializers.IntegerField()
    provisional = serializers.BooleanField()
    threshold = serializers.IntegerField(help_text="Rated frames before a rating counts.")


class HistoryPointSerializer(serializers.Serializer):
    played_on = serializers.DateField()
    frame_id = serializers.IntegerField()
    opponent = serializers.CharField()
    result = serializers.CharField()
    expected = serializers.FloatField(help_text="The side's chance of winning, before.")
    delta = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    frames = serializers.IntegerField()


class RatingRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingRun
        fields = [
            "id",
            "game_id",
            "since",
            "reason",
            "state",
            "frames_replayed",
            "players_changed",
            "attempts",
            "created_at",
            "started_at",
            "finished_at",
        ]


class PlayerRatingSerializer(serializers.Serializer):
    game_id = serializers.CharField()
    game = serializers.CharField()
    mu = serializers.FloatField(help_text="OpenSkill's estimate of skill.")
    sigma = serializers.FloatField(help_text="Its uncertainty (one standard deviation).")
    ordinal = serializers.FloatField(help_text="The conservative rating, mu − 3 sigma.")
    frames = serializers.IntegerField()
    provisional = serializers.BooleanField()
    rank = serializers.IntegerField(help_text="Rank across the instance, by ordinal.")
    players = serializers.IntegerField()
    leagues = LeagueRankSerializer(many=True)
    history = HistoryPointSerializer(many=True)
    note = RatingRunSerializer(allow_null=True, help_text="The last correction that moved it.")


class LeagueRatingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="1 + the players above by conservative rating: equal ratings share a rank."
    )
    tied = serializers.BooleanField(help_text="Another player shares this rank.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    frames = serializers.IntegerField()
    league_frames = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last_played_on = serializers.DateField(allow_null=True)


class ExpectationRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    home = serializers.FloatField(help_text="The home side's chance of winning the frame.")


class AfterSerializer(serializers.Serializer):
    home = serializers.FloatField()
    away = serializers.FloatField()
    difference = serializers.FloatField(help_text="Home's frames won less those expected.")


class ExpectationSerializer(serializers.Serializer):
    basis = serializers.CharField(help_text="'the draw', 'the squads', or '' (no squads).")
    rows = ExpectationRowSerializer(many=True)
    home = serializers.FloatField(allow_null=True)
    away = serializers.FloatField(allow_null=True)
    after = AfterSerializer(allow_null=True, required=False)


class WormPointSerializer(serializers.Serializer):
    shot = serializers.IntegerField()
    home = serializers.FloatField()
    away = serializers.FloatField()


class PlaceSerializer(serializers.Serializer):
    place = serializers.JSONField(help_text="The hole or pocket, as the game names it.")
    pots = serializers.IntegerField()
    x = serializers.FloatField(help_text="Where it sits across the table: 0 left .. 1 right.")
    y = serializers.FloatField(help_text="Where it sits along it: 0 back .. 1 front.")


class HoleMapSerializer(serializers.Serializer):
    drawable = serializers.BooleanField(help_text="False: the game declares nothing to draw.")
    place = serializers.CharField(allow_blank=True)
    shape = serializers.CharField(
        allow_blank=True,
        help_text="The table the places are drawn on, as the game declares it: `pockets` "
        "(round a pocket table) or `bed` (numbered holes); blank when nothing is drawn.",
    )
    places = PlaceSerializer(many=True)
    total = serializers.IntegerField()
    frames = serializers.IntegerField()


class BreaksSerializer(serializers.Serializer):
    # DRF's serializer metaclass takes declared fields off the class: no clash with
    # `Field.label` (the stubs cannot say so).
    label = serializers.CharField()  # type: ignore[assignment]
    values = serializers.ListField(child=serializers.FloatField())


class TeamPositionsSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    positions = serializers.ListField(child=serializers.IntegerField())
    points = serializers.DecimalField(max_digits=8, decimal_places=1)


class PositionsSerializer(serializers.Serializer):
    rounds = serializers.ListField(child=serializers.IntegerField())
    teams = TeamPositionsSerializer(many=True)


class H2HFrameSerializer(serializers.Serializer):
    frame_id = serializers.IntegerField()
    number = serializers.IntegerField()
    kind = serializers.CharField()
    played_on = serializers.DateField(allow_null=True)
    fixture = serializers.CharField()
    fixture_id = serializers.IntegerField(allow_null=True)
    side = serializers.CharField()
    result = serializers.CharField()
    home_score = serializers.IntegerField(allow_null=True)
    away_score = serializers.IntegerField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    shared = serializers.IntegerField()
    played = serializers.IntegerField()


class ChanceSerializer(serializers.Serializer):
    game_id = serializers.CharField()
    game = serializers.CharField()
    chance = serializers.FloatField(help_text="The first player's chance in a frame today.")


class H2HPlayersSerializer(serializers.Serializer):
    record = RecordSerializer()
    frames = H2HFrameSerializer(many=True)
    chances = ChanceSerializer(many=True)


class MatchesRecordSerializer(serializers.Serializer):
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()


class H2HTeamsSerializer(serializers.Serializer):
    record = RecordSerializer()
    matches = MatchesRecordSerializer()
    frames = H2HFrameSerializer(many=True)


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 + the players rated above: ties share a rank.")
    tied = serializers.BooleanField(help_text="Another player shares this rank.")
    player_id = serializers.IntegerField()
    name = serializers.CharField(
        help_text="The public name: initials for a player who asked not to be named."
    )
    leagues = serializers.ListField(
        child=serializers.CharField(), help_text="Where they played in the twelve months."
    )
    ordinal = serializers.FloatField(help_text="The rating: the conservative μ − 3σ.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    frames = serializers.IntegerField(help_text="Rated frames in the twelve months.")
    new = serializers.BooleanField(help_text="Not ranked on `compared_with`.")
    previous_rank = serializers.IntegerField(
        allow_null=True, help_text="The rank on `compared_with` (null: new)."
    )
    movement = serializers.IntegerField(
        allow_null=True, help_text="Places gained since (negative: lost; null: new)."
    )
    rating_change = serializers.FloatField(allow_null=True, help_text="The rating's change since.")


class RankingSerializer(serializers.Serializer):
    game_id = serializers.CharField()
    min_frames = serializers.IntegerField(
        help_text="Rated frames in the last twelve months a player needs to be ranked."
    )
    today = serializers.DateField()
    since = serializers.DateField(help_text="Frames played after this day count.")
    compared_with = serializers.DateField(help_text="The day movement is measured from.")
    count = serializers.IntegerField(source="ranked", help_text="Players ranked.")
    unranked = serializers.IntegerField(help_text="Players who played, with too few frames.")
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = RankingRowSerializer(many=True, source="rows")


# ------------------------------------------------------------------ views


class _Public(APIView):
    permission_classes = [AllowAny]


def _game(request: Request, default: str, allowed: list[str] | None = None) -> str:
    game_id = request.query_params.get("game", default)
    if allowed is not None and game_id not in allowed:
        raise DomainError("bad_value", f"Choose a game from {', '.join(allowed)}.", field="game")
    return game_id


def _player_games(player: Player) -> list[str]:
    return sorted(set(player.ratings.values_list("game_id", flat=True)))


class PlayerRatingsView(_Public):
    @extend_schema(responses={200: PlayerRatingSerializer(many=True), **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        rows = [vars(r) for r in selectors.player_ratings(player)]
        return Response(PlayerRatingSerializer(rows, many=True).data)


class LeagueRatingsView(_Public):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "game", str, description="A game the league plays (default: its own)."
            ),
            OpenApiParameter("min_frames", int),
            OpenApiParameter("provisional", str, enum=["show", "hide"]),
        ],
        responses={200: LeagueRatingRowSerializer(many=True), **BAD},
    )
    def get(self, request: Request, pk: int) -> Response:
        league = get_object_or_404(League, pk=pk)
        games = selectors.league_games(league)
        game_id = _game(request, games[0], games)
        raw = request.query_params.get("min_frames", "0")
        if not digits(raw):
            raise DomainError("bad_value", "min_frames is a whole number.", field="min_frames")
        provisional = request.query_params.get("provisional", "show")
        if provisional not in ("show", "hide"):
            raise DomainError("bad_value", "provisional is show or hide.", field="provisional")
        rows = selectors.league_table(
            league, game_id, min_frames=int(raw), provisional=provisional == "show"
        )
        return Response(LeagueRatingRowSerializer(rows, many=True).data)


class MatchExpectationView(_Public):
    @extend_schema(responses={200: ExpectationSerializer, **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("fixture"), pk=pk)
        return Response(ExpectationSerializer(selectors.match_expectation(match)).data)


class FrameWormView(_Public):
    @extend_schema(responses={200: WormPointSerializer(many=True), **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        frame = get_object_or_404(Frame, pk=pk)
        return Response(WormPointSerializer(selectors.frame_worm(frame), many=True).data)


class PlayerHoleMapView(_Public):
    @extend_schema(
        parameters=[OpenApiParameter("game", str, description="Default: the player's first.")],
        responses={200: HoleMapSerializer, **BAD},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        games = _player_games(player)
        game_id = _game(request, games[0] if games else "", None)
        if not game_id:
            raise DomainError(
                "bad_value", "Name the game (the player has no rating).", field="game"
            )
        data: dict[str, Any] | None = selectors.hole_map(player, game_id)
        if data is None:
            data = {"place": "", "shape": "", "places": [], "total": 0, "frames": 0}
        return Response(HoleMapSerializer({"drawable": bool(data["place"]), **data}).data)


class PlayerBreaksView(_Public):
    @extend_schema(
        parameters=[OpenApiParameter("game", str, description="Default: the player's first.")],
        responses={200: BreaksSerializer, **BAD},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        games = _player_games(player)
        game_id = _game(request, games[0] if games else "", None)
        if not game_id:
            raise DomainError(
                "bad_value", "Name the game (the player has no rating).", field="game"
            )
        return Response(BreaksSerializer(selectors.break_values(player, game_id)).data)


class DivisionPositionsView(_Public):
    @extend_schema(responses={200: PositionsSerializer, **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        division = get_object_or_404(Division.objects.select_related("season"), pk=pk)
        return Response(PositionsSerializer(selectors.division_positions(division)).data)


class HeadToHeadPlayersView(_Public):
    @extend_schema(responses={200: H2HPlayersSerializer, **BAD})
    def get(self, request: Request, a: int, b: int) -> Response:
        first, second = get_object_or_404(Player, pk=a), get_object_or_404(Player, pk=b)
        if first.pk == second.pk:
            raise DomainError("same_player", "Choose two different players.")
        return Response(H2HPlayersSerializer(selectors.head_to_head_players(first, second)).data)


class HeadToHeadTeamsView(_Public):
    @extend_schema(responses={200: H2HTeamsSerializer, **BAD})
    def get(self, request: Request, a: int, b: int) -> Response:
        first, second = get_object_or_404(Team, pk=a), get_object_or_404(Team, pk=b)
        if first.pk == second.pk:
            raise DomainError("same_team", "Choose two different teams.")
        return Response(H2HTeamsSerializer(selectors.head_to_head_teams(first, second)).data)


class RatingRunsView(_Public):
    @extend_schema(
        parameters=[OpenApiParameter("game", str)],
        responses={200: RatingRunSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        runs = RatingRun.objects.all()
        if "game" in request.query_params:
            runs = runs.filter(game_id=request.query_params["game"])
        return Response(RatingRunSerializer(runs[:50], many=True).data)


PAGING = [
    OpenApiParameter(
        "limit", int, description=f"Rows a page (default {rankings.PAGE_SIZE}, at most 500)."
    ),
    OpenApiParameter("offset", int, description="Rows to skip (default 0)."),
]


def _paging(request: Request) -> tuple[int, int]:
    out = []
    for name, default, low, high in (
        ("limit", rankings.PAGE_SIZE, 1, 500),
        ("offset", 0, 0, 10_000_000),
    ):
        raw = request.query_params.get(name, "")
        if raw == "":
            out.append(default)
            continue
        if not re.fullmatch(r"[0-9]{1,9}", raw) or not low <= int(raw) <= high:
            raise DomainError(
                "bad_parameter", f"`{name}` is a whole number from {low} to {high}.", field=name
            )
        out.append(int(raw))
    return out[0], out[1]


def _ranking_answer(request: Request, ranking: rankings.Ranking) -> Response:
    def link(offset: int) -> str:
        return request.build_absolute_uri(f"{request.path}?limit={ranking.limit}&offset={offset}")

    end = ranking.offset + ranking.limit
    data = {
        **vars(ranking),
        "next": link(end) if end < ranking.ranked else None,
        "previous": link(max(0, ranking.offset - ranking.limit)) if ranking.offset else None,
        "rows": [
            {
                **vars(r),
                "new": r.new,
                "movement": r.movement,
                "rating_change": r.rating_change,
            }
            for r in ranking.rows
        ],
    }
    return Response(RankingSerializer(data).data)


class OrganisationRankingView(_Public):
    @extend_schema(
        parameters=PAGING,
        responses={200: RankingSerializer, **BAD},
        description="An organisation's ranking of one game it ranks (docs/ratings.md, "
        "*Rankings*): its member leagues' players with enough frames in the last twelve "
        "months, by rating, with their movement since a calendar month before. 404: no "
        "such organisation, or a game it does not rank.",
    )
    def get(self, request: Request, slug: str, game_id: str) -> Response:
        organisation = get_object_or_404(Organisation, slug=slug)
        if game_id not in organisation_selectors.ranked_games(organisation):
            raise DomainError("not_found", "The organisation does not rank this game.", status=404)
        limit, offset = _paging(request)
        ranking = rankings.ranking(
            game_id,
            league_ids=list(organisation.leagues.values_list("pk", flat=True)),
            min_frames=organisation.ranking_min_frames,
            today=timezone.localdate(),
            offset=offset,
            limit=limit,
        )
        return _ranking_answer(request, ranking)


class SiteRankingView(_Public):
    @extend_schema(
        parameters=PAGING,
        responses={200: RankingSerializer, **BAD},
        description="Every league's players ranked in one game, by the default rules "
        f"({DEFAULT_RANKING_MIN_FRAMES} rated frames in the last twelve months). 404: no "
        "such game.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        try:
            registry.get(game_id)
        except registry.UnknownGame:
            raise DomainError("not_found", "No such game.", status=404) from None
        limit, offset = _paging(request)
        ranking = rankings.ranking(
            game_id,
            league_ids=None,
            min_frames=DEFAULT_RANKING_MIN_FRAMES,
            today=timezone.localdate(),
            offset=offset,
            limit=limit,
        )
        return _ranking_answer(request, ranking)
