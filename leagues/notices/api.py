"""`GET /api/notices/?league=<slug>`: the notices shown now (the site's and the league's),
polled by the referee pad when online."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api import ERRORS
from leagues.models import League, Notice

from . import selectors


class NoticeSerializer(serializers.ModelSerializer):
    league: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True
    )

    class Meta:
        model = Notice
        fields = ["id", "title", "body", "level", "starts_at", "ends_at", "league"]


class NoticesView(APIView):
    """The notices shown now: the site's, and the league's when `league` names one."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("league", str, description="A league's slug.")],
        responses={200: NoticeSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        slug = request.query_params.get("league", "")
        league_id = None
        if slug:
            league_id = get_object_or_404(League.objects.only("pk"), slug=slug).pk
        notices = selectors.notices_shown(now=timezone.now(), league_id=league_id)
        response = Response(NoticeSerializer(notices, many=True).data)
        response["Cache-Control"] = "no-cache"
        return response
