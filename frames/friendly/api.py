"""The friendly games API: start a game of anything, and list your own."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from frames.models import Friendly
from leagues.serializers import ErrorSerializer

from . import selectors, services


class FriendlyStartSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=60, help_text="A game id (`GET /api/games/...`).")
    players = serializers.ListField(
        child=serializers.JSONField(),
        max_length=services.MAX_PARTIES,
        help_text="Names in order of play; a list of names is one side of partners.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="The game's own setup options."
    )
    title = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class FriendlySerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="frame.game_id")
    frame = serializers.IntegerField(source="frame.pk")
    status = serializers.CharField(source="frame.status")
    pad = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()

    class Meta:
        model = Friendly
        fields = ["id", "title", "game", "frame", "status", "created_at", "pad", "page"]

    def get_pad(self, obj: Friendly) -> str:
        return reverse("frame-pad", args=[obj.frame.pk])

    def get_page(self, obj: Friendly) -> str:
        return reverse("friendly-detail", args=[obj.pk])


class FriendliesView(APIView):
    """Your friendly games (GET), or start one (POST): scored on the pad like any frame,
    through `/api/frames/{frame}/events/`."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: FriendlySerializer(many=True)})
    def get(self, request):
        games = selectors.friendlies_of(request.user)[:100]
        return Response(FriendlySerializer(games, many=True).data)

    @extend_schema(
        request=FriendlyStartSerializer,
        responses={
            201: FriendlySerializer,
            400: OpenApiResponse(ErrorSerializer, description="Bad game, players or options."),
            403: OpenApiResponse(ErrorSerializer, description="Not signed in."),
        },
    )
    def post(self, request):
        data = FriendlyStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        friendly = services.friendly_start(
            owner=request.user,
            game_id=data.validated_data["game"],
            players=data.validated_data["players"],
            options=data.validated_data["options"],
            title=data.validated_data["title"],
        )
        return Response(FriendlySerializer(friendly).data, status=status.HTTP_201_CREATED)
