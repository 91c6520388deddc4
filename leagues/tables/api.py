"""The API of the tables: published and provisional tables, publications, awarded
matches, deductions, the points scheme."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import (
    publishing,
    selectors,
    standings,
)
from leagues.api import ERRORS, ManagesLeague
from leagues.models import (
    Division,
    Fixture,
    PointDeduction,
    Publication,
    Season,
    Team,
)
from leagues.serializers import (
    ErrorSerializer,
    FixtureAwardSerializer,
    FixtureSerializer,
    LiveTableSerializer,
    PointDeductionCreateSerializer,
    PointDeductionSerializer,
    PointsSchemeSerializer,
    ProvisionalResultSerializer,
    PublicationSerializer,
    PublishedTableSerializer,
)
from leagues.tables import services as table_services


class PublishedTableView(APIView):
    """A division's latest published table, and the results confirmed since (provisional)."""

    @extend_schema(responses={200: PublishedTableSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        division = get_object_or_404(Division, pk=pk)
        fixtures = list(
            selectors.fixtures_qs().filter(division=division, result_confirmed_at__isnull=False)
        )
        page = selectors.division_table_page(division, fixtures)
        snapshot = page["snapshot"]
        return Response(
            {
                "division": division.pk,
                "published": snapshot is not None,
                "as_of": snapshot.as_of if snapshot else None,
                "publication": snapshot.publication_id if snapshot else None,
                "rows": snapshot.rows if snapshot else [],
                "notes": snapshot.notes if snapshot else [],
                "provisional_results": ProvisionalResultSerializer(
                    page["provisional_results"], many=True
                ).data,
            }
        )


class LiveTableView(APIView):
    """The provisional table from every confirmed result (the secretary's view)."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Division.objects.select_related("season"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: LiveTableSerializer, 403: ErrorSerializer})
    def get(self, request, pk: int):
        table = standings.division_table(self.get_permission_object())
        return Response(
            {
                "division": table.division_id,
                "provisional": True,
                "rows": table.as_rows(),
                "notes": [{"team": n["team"], "text": n["text"]} for n in table.notes],
                "scheme": table.scheme.describe(),
            }
        )


class SeasonPublicationsView(APIView):
    """The season's publications (GET), or publish its tables now (POST): answers 202
    with the publication; poll `publications/<id>/` for its progress."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: PublicationSerializer(many=True), 403: ErrorSerializer})
    def get(self, request, pk: int):
        publications = Publication.objects.filter(season_id=pk)[:50]
        return Response(PublicationSerializer(publications, many=True).data)

    @extend_schema(request=None, responses={202: PublicationSerializer, **ERRORS})
    def post(self, request, pk: int):
        publication = publishing.publication_request(
            season=self.get_permission_object(), actor=request.user
        )
        publication.refresh_from_db()  # in-process, the job may already have run
        return Response(PublicationSerializer(publication).data, status=status.HTTP_202_ACCEPTED)


class PublicationView(APIView):
    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Publication, pk=self.kwargs["pk"]).season

    @extend_schema(responses={200: PublicationSerializer, 403: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(PublicationSerializer(get_object_or_404(Publication, pk=pk)).data)


class FixtureAwardView(APIView):
    """Record a walkover or a conceded match (awarded frames, reason shown on the table)."""

    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixtureAwardSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixtureAwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = table_services.fixture_award(
            fixture=get_object_or_404(Fixture, pk=pk), **data.validated_data
        )
        return Response(FixtureSerializer(fixture).data)


class TeamDeductionsView(APIView):
    """A team's point deductions: anyone reads them; the secretary adds one."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Team, pk=self.kwargs["pk"]).season

    @extend_schema(responses={200: PointDeductionSerializer(many=True)})
    def get(self, request, pk: int):
        deductions = PointDeduction.objects.filter(team_id=pk).select_related("team")
        return Response(PointDeductionSerializer(deductions, many=True).data)

    @extend_schema(
        request=PointDeductionCreateSerializer, responses={201: PointDeductionSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = PointDeductionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deduction = table_services.point_deduction_add(
            team=get_object_or_404(Team, pk=pk), by=request.user, **data.validated_data
        )
        return Response(PointDeductionSerializer(deduction).data, status=status.HTTP_201_CREATED)


class PointsSchemeView(APIView):
    """A season's points scheme and tie-breaker order: anyone reads it; the secretary
    changes it (POST the fields to change)."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: PointsSchemeSerializer})
    def get(self, request, pk: int):
        return Response(PointsSchemeSerializer(self.get_permission_object()).data)

    @extend_schema(
        request=PointsSchemeSerializer, responses={200: PointsSchemeSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = PointsSchemeSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        season = table_services.season_set_points_scheme(season=season, **data.validated_data)
        return Response(PointsSchemeSerializer(season).data)
