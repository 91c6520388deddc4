"""The competitions API of the draw (commit, reveal, perform, a group event's knock-out)
and what it makes: the bracket and the group tables."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.serializers import ErrorSerializer

from .. import selectors
from .. import serializers as s
from ..models import Competition
from ..services.draws import draw_commit, draw_perform, draw_reveal, knockout_draw_from_groups
from .common import CONFLICT


class _SecretaryCommand(APIView):
    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(Competition, pk=self.kwargs["pk"])


class DrawCommitView(_SecretaryCommand):
    """The secretary commits to a secret for the draw's seed; the server commits too."""

    @extend_schema(request=s.CommitSerializer, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.CommitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = draw_commit(
            actor=request.user, competition=self.get_permission_object(), **data.validated_data
        )
        return Response(s.DrawSerializer(competition).data)


class DrawRevealView(_SecretaryCommand):
    """The secretary reveals the secret committed to."""

    @extend_schema(request=s.RevealSerializer, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.RevealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = draw_reveal(
            actor=request.user, competition=self.get_permission_object(), **data.validated_data
        )
        return Response(s.DrawSerializer(competition).data)


class DrawView(_SecretaryCommand):
    """The draw (anyone reads its seed, algorithm, secrets once drawn, and the command that
    replays it); the secretary performs it."""

    @extend_schema(responses={200: s.DrawSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.DrawSerializer(get_object_or_404(Competition, pk=pk)).data)

    @extend_schema(request=None, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        competition = draw_perform(actor=request.user, competition=self.get_permission_object())
        return Response(s.DrawSerializer(competition).data)


class KnockoutDrawView(_SecretaryCommand):
    """A group event's knock-out, drawn from the group tables' qualifiers."""

    @extend_schema(request=None, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        competition = knockout_draw_from_groups(
            actor=request.user, competition=self.get_permission_object()
        )
        return Response(s.DrawSerializer(competition).data)


class BracketView(APIView):
    """The whole knock-out bracket: every round, every tie, entrants and results."""

    @extend_schema(responses={200: s.BracketSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(
            s.BracketSerializer(selectors.bracket(get_object_or_404(Competition, pk=pk))).data
        )


class GroupsView(APIView):
    """Every group's table, each row explaining its place, with the group's matches."""

    @extend_schema(responses={200: s.GroupTableSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        tables = selectors.group_tables(get_object_or_404(Competition, pk=pk))
        return Response(s.GroupTableSerializer(tables, many=True).data)
