"""The API of seasons and divisions: their match formats, rolling a season over,
importing into it, finishing it."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import (
    formats,
    honours,
    imports,
    rollover,
)
from leagues.api import ERRORS, ManagesLeague
from leagues.imports import job as import_job
from leagues.imports import services as import_services
from leagues.models import (
    Division,
    ImportJob,
    Season,
)
from leagues.serializers import (
    BoundarySerializer,
    DivisionSerializer,
    ErrorSerializer,
    HonourSerializer,
    ImportInputSerializer,
    ImportJobSerializer,
    ImportPlanSerializer,
    MatchFormatInputSerializer,
    MatchFormatSerializer,
    RolloverProposalSerializer,
    RolloverSerializer,
    SeasonFinishSerializer,
    SeasonSerializer,
)
from marker.api_inputs import int_param
from marker.formats import effective_format


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer

    @extend_schema(parameters=[OpenApiParameter("league", int)])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        qs = super().get_queryset()
        if (league := int_param(self.request, "league")) is not None:
            qs = qs.filter(league_id=league)
        return qs


class DivisionViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Division.objects.all()
    serializer_class = DivisionSerializer

    @extend_schema(parameters=[OpenApiParameter("season", int)])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        qs = super().get_queryset()
        if (season := int_param(self.request, "season")) is not None:
            qs = qs.filter(season_id=season)
        return qs


def _format_body(fmt, inherited: bool) -> dict:
    return {"format": fmt.to_json(), "description": fmt.describe(), "inherited": inherited}


class SeasonFormatView(APIView):
    """A season's match format: anyone reads it; the secretary sets it (a preset, or the
    format's JSON; an invalid one is refused with every problem listed)."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: MatchFormatSerializer})
    def get(self, request, pk: int):
        season = self.get_permission_object()
        fmt = effective_format(season.match_format)
        return Response(MatchFormatSerializer(_format_body(fmt, False)).data)

    @extend_schema(
        request=MatchFormatInputSerializer, responses={200: MatchFormatSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = MatchFormatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = formats.season_set_format(
            season=self.get_permission_object(),
            actor=request.user,
            match_format=data.validated_data["format"],
            preset=data.validated_data["preset"],
        )
        fmt = effective_format(season.match_format)
        return Response(MatchFormatSerializer(_format_body(fmt, False)).data)


class DivisionFormatView(APIView):
    """A division's match format (its own, or its season's): anyone reads it; the
    secretary sets it, or `inherit` to play the season's."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(
            Division.objects.select_related("season__league"), pk=self.kwargs["pk"]
        )

    @extend_schema(responses={200: MatchFormatSerializer})
    def get(self, request, pk: int):
        division = self.get_permission_object()
        body = _format_body(division.format, division.match_format is None)
        return Response(MatchFormatSerializer(body).data)

    @extend_schema(
        request=MatchFormatInputSerializer, responses={200: MatchFormatSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = MatchFormatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        division = formats.division_set_format(
            division=self.get_permission_object(),
            actor=request.user,
            match_format=data.validated_data["format"],
            preset=data.validated_data["preset"],
            inherit=data.validated_data["inherit"],
        )
        body = _format_body(division.format, division.match_format is None)
        return Response(MatchFormatSerializer(body).data)


def _proposal_data(proposal: rollover.Proposal, rolled_into: Season | None) -> dict:
    return {
        "final": proposal.final,
        "unconfirmed_fixtures": len(proposal.unfinished),
        "divisions": [
            {
                "division_id": d.division_id,
                "division": d.division,
                "rank": d.rank,
                "down": d.down,
                "rows": [vars(row) for row in d.rows],
            }
            for d in proposal.divisions
        ],
        "rolled_into": rolled_into.pk if rolled_into else None,
    }


class SeasonRolloverView(APIView):
    """The secretary's season rollover. GET proposes promotions and relegations from the
    final tables (`?above=<division id>&teams=<n>` pairs, repeated, set each boundary);
    POST starts the next season with the moves (and the adjustments in `placements`)."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(
        parameters=[
            OpenApiParameter("above", int, many=True, description="A boundary's upper division."),
            OpenApiParameter("teams", int, many=True, description="Teams up and down across it."),
        ],
        responses={200: RolloverProposalSerializer, **ERRORS},
    )
    def get(self, request, pk: int):
        season = self.get_permission_object()
        above = request.query_params.getlist("above")[:50]
        teams = request.query_params.getlist("teams")[:50]
        data = BoundarySerializer(
            data=[{"above": a, "teams": t} for a, t in zip(above, teams, strict=False)], many=True
        )
        data.is_valid(raise_exception=True)
        boundaries = {b["above"]: b["teams"] for b in data.validated_data}
        proposal = rollover.rollover_proposal(season, boundaries=boundaries)
        return Response(
            RolloverProposalSerializer(
                _proposal_data(proposal, Season.objects.filter(rolled_from=season).first())
            ).data
        )

    @extend_schema(
        request=RolloverSerializer,
        responses={201: SeasonSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = RolloverSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        new = rollover.season_rollover(
            season=season,
            actor=request.user,
            name=v["name"],
            slug=v["slug"],
            start_date=v["start_date"],
            boundaries={b["above"]: b["teams"] for b in v["boundaries"]},
            placements={p["team"]: p["division"] for p in v["placements"]},
            override_unfinished=v["override_unfinished"],
        )
        return Response(SeasonSerializer(new).data, status=status.HTTP_201_CREATED)


def import_job_body(request, job: ImportJob) -> dict:
    progress, step = import_job.job_progress(job)
    result = job.result or {}
    return {
        "id": job.pk,
        "kind": job.kind,
        "filename": job.filename,
        "rows": job.rows,
        "state": job.state,
        "progress": progress,
        "step": step,
        "error": job.error,
        "counts": result.get("counts", {}),
        "changes": result.get("changes", 0),
        "problems": result.get("problems", []),
        "created_at": job.created_at,
        "finished_at": job.finished_at,
        "url": reverse("api-season-import-job", args=[job.season_id, job.pk]),
    }


class ImportsData(BasePermission):
    """Reads and writes for whoever may import the season's data (its secretary)."""

    def has_permission(self, request, view) -> bool:
        return request.user.has_perm("leagues.import_data", view.get_permission_object())


class SeasonImportView(APIView):
    """Import a spreadsheet into a season (docs/data.md): a dry run says what would be
    created or changed and every problem by row and column; a real run imports every row
    or, when any has a problem, none (`import_invalid`, with the problems). A real run of
    more rows than the instance imports at once (`IMPORT_BACKGROUND_ROWS`) is queued as
    a background job: 202, with the job, whose `url` tells its progress."""

    parser_classes = [MultiPartParser, FormParser]
    write_permission = "leagues.import_data"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(
        request={"multipart/form-data": ImportInputSerializer},
        responses={200: ImportPlanSerializer, 202: ImportJobSerializer, **ERRORS},
    )
    def post(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        data = ImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        kind = data.validated_data["kind"]
        upload = data.validated_data["file"]
        table = imports.read_table(upload.name or "", upload.read(imports.MAX_BYTES + 1), kind)
        mapping = data.validated_data.get("mapping")
        if not data.validated_data["dry_run"] and import_job.runs_in_background(table):
            queued = import_services.import_queue(
                season=season,
                actor=request.user,
                kind=kind,
                table=table,
                mapping=mapping,
                now=timezone.now(),
            )
            body = import_job_body(request, queued)
            return Response(ImportJobSerializer(body).data, status=status.HTTP_202_ACCEPTED)
        if data.validated_data["dry_run"]:
            plan = imports.plan(season=season, kind=kind, table=table, mapping=mapping)
        else:
            plan = imports.import_apply(
                season=season, actor=request.user, kind=kind, table=table, mapping=mapping
            )
        body = plan.as_dict() | {"imported": not data.validated_data["dry_run"]}
        return Response(ImportPlanSerializer(body).data)


class SeasonImportJobView(APIView):
    """A background import: its state and progress, then what it did or every problem
    that stopped it (nothing imported)."""

    permission_classes = [ImportsData]

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: ImportJobSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int, job: int):
        found = get_object_or_404(ImportJob, pk=job, season_id=pk)
        return Response(ImportJobSerializer(import_job_body(request, found)).data)


class SeasonFinishView(APIView):
    """Finish a season: each division's winner and runner-up go on the roll of honour
    from the final tables."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(
        request=SeasonFinishSerializer,
        responses={200: HonourSerializer(many=True), **ERRORS},
    )
    def post(self, request, pk: int):
        data = SeasonFinishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lines = honours.season_finish(
            season=self.get_permission_object(), actor=request.user, **data.validated_data
        )
        return Response(HonourSerializer(lines, many=True).data)
