"""The ranking series API: the list (by league or organisation), a series with its
events, and its standings with each player's explanation. Public reads."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from marker.api_errors import ErrorSerializer
from marker.api_inputs import int_param

from . import selectors
from . import serializers as s
from . import standings as calc
from .models import SeriesEvent


class SeriesListView(APIView):
    """Ranking series, newest first; filter by `league` or `organisation` (ids)."""

    @extend_schema(
        parameters=[OpenApiParameter("league", int), OpenApiParameter("organisation", int)],
        responses={200: s.SeriesSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request):
        qs = selectors.series_with_owner().order_by("-created_at", "name")
        if (league := int_param(request, "league")) is not None:
            qs = qs.filter(league_id=league)
        if (organisation := int_param(request, "organisation")) is not None:
            qs = qs.filter(organisation_id=organisation)
        return Response(s.SeriesSerializer(qs[:200], many=True).data)


class SeriesDetailView(APIView):
    """A series: its rules and its events."""

    @extend_schema(responses={200: s.SeriesDetailSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        series = get_object_or_404(selectors.series_with_owner(), pk=pk)
        events = selectors.events_of(series)
        data = s.SeriesSerializer(series).data
        data["events"] = s.SeriesEventSerializer(events, many=True).data
        return Response(data)


class SeriesStandingsView(APIView):
    """A series' standings: each player's rank (shared or not), total, results (counted
    or dropped), the reason a tie was broken, and what they need in the next event."""

    @extend_schema(responses={200: s.SeriesStandingsSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        series = get_object_or_404(selectors.series_with_owner(), pk=pk)
        table = selectors.series_standings(series)
        nxt: SeriesEvent | None = table.next_event
        return Response(
            s.SeriesStandingsSerializer(
                {
                    "series": series.pk,
                    "played": table.played_count,
                    "events": len(table.events),
                    "next_event": nxt.name if nxt is not None else None,
                    "rows": [
                        {
                            "rank": row.rank,
                            "shared": row.shared,
                            "player": row.player_id,
                            "name": row.name,
                            "total": calc.fmt(row.total),
                            "results": [
                                {
                                    "event": r.event.id,
                                    "event_name": r.event.name,
                                    "placing": r.placing,
                                    "result": r.label,
                                    "points": calc.fmt(r.points),
                                    "counted": r.counted,
                                }
                                for r in row.results
                            ],
                            "tie_break": row.tie_break,
                            "needs_above": row.needs_above,
                            "needs_leader": row.needs_leader,
                        }
                        for row in table.rows
                    ],
                }
            ).data
        )
