"""The directory's API ("Where to play", docs/directory.md): venues (public, paginated,
filtered by name or town, town, game, league), one venue, the posts up now, posting,
answering a post through the site, and the secretary's decision on a post."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api import ERRORS
from leagues.models import DirectoryPost, League, Team, Venue
from leagues.serializers import ErrorSerializer
from marker.api_inputs import StrictPrimaryKeyRelatedField
from marker.errors import DomainError

from . import selectors, services

CONFLICT = {409: ErrorSerializer}


class TableSerializer(serializers.Serializer[Any]):
    game_id = serializers.CharField()
    game = serializers.CharField(help_text="The game's name.")
    count = serializers.IntegerField()
    notes = serializers.CharField()


class NightSerializer(serializers.Serializer[Any]):
    weekday = serializers.IntegerField(help_text="0 is Monday.")
    day = serializers.CharField(source="get_weekday_display")
    starts_at = serializers.TimeField(allow_null=True)
    note = serializers.CharField()


class LeagueRefSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()


class TeamRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = serializers.CharField(source="season.league.slug")


class VenueEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="venue.pk")
    name = serializers.CharField(source="venue.name")
    address = serializers.CharField(source="venue.address")
    town = serializers.CharField(source="venue.town")
    latitude = serializers.DecimalField(
        source="venue.latitude", max_digits=8, decimal_places=5, allow_null=True
    )
    longitude = serializers.DecimalField(
        source="venue.longitude", max_digits=8, decimal_places=5, allow_null=True
    )
    map_url = serializers.CharField(help_text="OpenStreetMap, when it has coordinates; else ''.")
    notes = serializers.CharField(source="venue.notes")
    tables = TableSerializer(many=True)
    nights = NightSerializer(source="venue.nights.all", many=True)
    leagues = LeagueRefSerializer(many=True, help_text="The leagues whose teams play here now.")
    teams = TeamRefSerializer(many=True, help_text="The teams at home here this season.")


def _filters() -> list[OpenApiParameter]:
    return [
        OpenApiParameter("q", str, description="Part of the venue's name or town."),
        OpenApiParameter("town", str, description="The town, exactly (any case)."),
        OpenApiParameter("game", str, description="A game id: venues with a table for it."),
        OpenApiParameter("league", str, description="A league's slug: where its teams play."),
    ]


class VenuesView(generics.ListAPIView[Venue]):
    """The directory's venues, by name."""

    permission_classes = [AllowAny]
    serializer_class = VenueEntrySerializer

    def get_queryset(self):
        params = self.request.query_params
        return selectors.venues_queryset(
            q=params.get("q", "")[:120],
            town=params.get("town", "")[:80],
            game=params.get("game", "")[:60],
            league=params.get("league", "")[:60],
        )

    @extend_schema(
        parameters=_filters(), responses={200: VenueEntrySerializer(many=True), **ERRORS}
    )
    def get(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        entries = selectors.venue_entries(page if page is not None else [])
        return self.get_paginated_response(VenueEntrySerializer(entries, many=True).data)


class VenueView(APIView):
    """One venue: its tables, league nights, leagues and teams there, map link."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: VenueEntrySerializer, **ERRORS})
    def get(self, request, pk: int):
        try:
            entry = selectors.venue_entry(pk)
        except Venue.DoesNotExist:
            raise DomainError("not_found", "No such venue.", status=404) from None
        return Response(VenueEntrySerializer(entry).data)


class PostSerializer(serializers.ModelSerializer[DirectoryPost]):
    league: serializers.SlugRelatedField[League] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    team_name = serializers.CharField(source="team.name", default=None, allow_null=True)
    venue = serializers.IntegerField(source="team.venue_id", default=None, allow_null=True)
    author = serializers.SerializerMethodField(
        help_text="The author's public name (never an email address)."
    )

    class Meta:
        model = DirectoryPost
        fields = [
            "id",
            "kind",
            "league",
            "team",
            "team_name",
            "venue",
            "title",
            "body",
            "author",
            "status",
            "refusal_reason",
            "created_at",
            "expires_at",
        ]

    @extend_schema_field(OpenApiTypes.STR)
    def get_author(self, post: DirectoryPost) -> str:
        return selectors.user_label(post.author)


class PostCreateSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=DirectoryPost.Kind.choices)
    league = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=League.objects.all(),
        required=False,
        help_text="For “Looking for a team”; a “Join a team” post is in its team's league.",
    )
    team = StrictPrimaryKeyRelatedField(
        queryset=Team.objects.select_related("season__league"),
        required=False,
        help_text="For “Join a team”: the team you captain.",
    )
    title = serializers.CharField(max_length=services.MAX_TITLE)
    body = serializers.CharField(max_length=services.MAX_BODY, required=False, allow_blank=True)
    days = serializers.IntegerField(
        min_value=1, max_value=services.MAX_DAYS, default=services.DEFAULT_DAYS
    )


class PostsView(generics.ListAPIView[DirectoryPost]):
    """The posts up now (published, not expired), newest first; signed in, post one (it
    waits for the league's secretary)."""

    serializer_class = PostSerializer

    def get_permissions(self):
        if self.request.method == "POST":
            return [IsAuthenticated()]
        return [AllowAny()]

    def get_queryset(self):
        params = self.request.query_params
        kind = params.get("kind", "")
        return selectors.posts_shown(
            now=timezone.now(),
            league_slug=params.get("league", "")[:60],
            kind=kind if kind in DirectoryPost.Kind.values else "",
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("league", str, description="A league's slug."),
            OpenApiParameter("kind", str, enum=DirectoryPost.Kind.values),
        ],
        responses={200: PostSerializer(many=True), **ERRORS},
    )
    def get(self, request, *args, **kwargs):
        return self.list(request, *args, **kwargs)

    @extend_schema(
        request=PostCreateSerializer,
        responses={201: PostSerializer, 401: ErrorSerializer, **CONFLICT, **ERRORS},
    )
    def post(self, request, *args, **kwargs):
        data = PostCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        team = values.get("team") if values["kind"] == DirectoryPost.Kind.JOIN_TEAM else None
        league = team.season.league if team is not None else values.get("league")
        if league is None:
            raise DomainError("post_league", "Name the league.", field="league")
        post = services.post_create(
            league=league,
            kind=values["kind"],
            team=team,
            actor=request.user,
            title=values["title"],
            body=values.get("body", ""),
            days=values["days"],
        )
        return Response(PostSerializer(post).data, status=status.HTTP_201_CREATED)


class MessageInputSerializer(serializers.Serializer[Any]):
    body = serializers.CharField(max_length=services.MAX_BODY)


class MessageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    conversation = serializers.IntegerField(source="conversation_id")
    body = serializers.CharField()
    created_at = serializers.DateTimeField()


class PostAnswerView(APIView):
    """Answer a post through the site: the author is told and reads it on their
    conversation page; neither side sees the other's email address."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=MessageInputSerializer,
        responses={201: MessageSerializer, 401: ErrorSerializer, **CONFLICT, **ERRORS},
    )
    def post(self, request, pk: int):
        post = selectors.post_visible(pk, user=request.user, now=timezone.now())
        if post is None:
            raise DomainError("not_found", "No such post up now.", status=404)
        data = MessageInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = services.post_answer(
            post=post, actor=request.user, body=data.validated_data["body"]
        )
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)


class ModerateSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=["publish", "refuse"])
    reason = serializers.CharField(max_length=services.MAX_REASON, required=False, allow_blank=True)


class PostModerateView(APIView):
    """The league's secretary publishes or refuses (with a reason) a waiting post."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ModerateSerializer,
        responses={200: PostSerializer, 401: ErrorSerializer, **CONFLICT, **ERRORS},
    )
    def post(self, request, pk: int):
        post = get_object_or_404(
            DirectoryPost.objects.select_related("league", "author__player", "team"), pk=pk
        )
        if not request.user.has_perm(services.MODERATE, post.league):
            raise DomainError(
                "not_moderator", "Only the league's secretary decides its posts.", status=403
            )
        data = ModerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["action"] == "publish":
            post = services.post_publish(post=post, actor=request.user)
        else:
            post = services.post_refuse(
                post=post, actor=request.user, reason=data.validated_data.get("reason", "")
            )
        return Response(PostSerializer(post).data)
