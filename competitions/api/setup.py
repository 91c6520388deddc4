"""The competitions API of competitions: a season's list, creating one, reading one."""

from __future__ import annotations

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.models import Organisation, Season
from leagues.serializers import ErrorSerializer

from .. import selectors
from .. import serializers as s
from ..models import Competition
from ..services.setup import competition_create
from .common import ERRORS


class SeasonCompetitionsView(APIView):
    """A season's competitions (anyone); the competitions secretary creates one."""

    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: s.CompetitionSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        rows = selectors.competitions_of(season).annotate(
            entry_count=Count("entries", filter=Q(entries__status="entered"))
        )
        return Response(s.CompetitionSerializer(rows, many=True).data)

    @extend_schema(
        request=s.CompetitionCreateSerializer, responses={201: s.CompetitionSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = s.CompetitionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = competition_create(
            actor=request.user, season=get_object_or_404(Season, pk=pk), **data.validated_data
        )
        return Response(s.CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class OrganisationCompetitionsView(APIView):
    """An organisation's competitions (anyone); its officers create one (a county
    championship), naming the game it plays."""

    write_permission = "leagues.run_organisation_competitions"

    def get_permission_object(self):
        return get_object_or_404(Organisation, slug=self.kwargs["slug"])

    @extend_schema(responses={200: s.CompetitionSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, slug: str):
        organisation = get_object_or_404(Organisation, slug=slug)
        rows = selectors.competitions_of_organisation(organisation).annotate(
            entry_count=Count("entries", filter=Q(entries__status="entered"))
        )
        return Response(s.CompetitionSerializer(rows, many=True).data)

    @extend_schema(
        request=s.OrganisationCompetitionCreateSerializer,
        responses={201: s.CompetitionSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        data = s.OrganisationCompetitionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = competition_create(
            actor=request.user,
            organisation=get_object_or_404(Organisation, slug=slug),
            **data.validated_data,
        )
        return Response(s.CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class CompetitionView(APIView):
    @extend_schema(responses={200: s.CompetitionSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.CompetitionSerializer(get_object_or_404(Competition, pk=pk)).data)
