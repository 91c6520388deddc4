"""The season's awards in the API: anyone reads the standings; the secretary defines and
removes awards. Thin: look up, permission on the object, one service or selector."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from frames.models import Award
from leagues.models import MAX_FRAME_SCORE, Season
from marker.api_errors import ErrorSerializer

from . import awards

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class AwardDefineSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    measure = serializers.ChoiceField(choices=Award.Measure.choices)
    stat = serializers.CharField(
        max_length=60,
        required=False,
        default="",
        allow_blank=True,
        help_text="A statistic the season's game declares (for 'stat' and 'at_least').",
    )
    threshold = serializers.IntegerField(
        min_value=1, max_value=MAX_FRAME_SCORE, required=False, allow_null=True, default=None
    )
    min_fixtures_percent = serializers.IntegerField(min_value=0, max_value=100, default=0)
    min_frames = serializers.IntegerField(min_value=0, max_value=awards.MAX_MIN_FRAMES, default=0)


class StandingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    value = serializers.FloatField(allow_null=True)
    value_display = serializers.CharField()
    frames = serializers.IntegerField()
    fixtures = serializers.IntegerField()
    team_fixtures = serializers.IntegerField()
    eligible = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True)
    explanation = serializers.CharField(help_text="'qualifies: 14 of 22 fixtures, 40 frames'.")


class AwardSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="award.pk")
    name = serializers.CharField(source="award.name")
    measure = serializers.CharField(source="award.measure")
    stat = serializers.CharField(source="award.stat")
    threshold = serializers.IntegerField(source="award.threshold", allow_null=True)
    min_fixtures_percent = serializers.IntegerField(source="award.min_fixtures_percent")
    min_frames = serializers.IntegerField(source="award.min_frames")
    description = serializers.CharField()
    leaders = StandingSerializer(many=True)
    not_eligible = StandingSerializer(
        many=True, help_text="Players who would be ahead of the leaders shown but do not qualify."
    )


class SeasonAwardsView(APIView):
    """A season's awards with their standings, explained; the secretary adds one."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: AwardSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        season = self.get_permission_object()
        return Response(AwardSerializer(awards.season_awards(season), many=True).data)

    @extend_schema(request=AwardDefineSerializer, responses={201: AwardSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = AwardDefineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        award = awards.award_define(
            season=self.get_permission_object(), actor=request.user, **data.validated_data
        )
        return Response(
            AwardSerializer(awards.award_standings(award)).data, status=status.HTTP_201_CREATED
        )


class AwardView(APIView):
    """One award: its standings; the secretary removes it."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Award.objects.select_related("season"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: AwardSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(AwardSerializer(awards.award_standings(self.get_permission_object())).data)

    @extend_schema(responses={204: None, 403: ErrorSerializer, 404: ErrorSerializer})
    def delete(self, request, pk: int):
        awards.award_delete(award=self.get_permission_object(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
