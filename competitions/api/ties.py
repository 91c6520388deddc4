"""The competitions API of rounds and ties: a round's dates, a tie's paper result and
sign-off, its frames on the pad, awards, walkovers and withdrawals."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.serializers import ErrorSerializer

from .. import selectors
from .. import serializers as s
from ..models import Group, Round, Tie
from ..services.corrections import tie_correct
from ..services.pad import tie_confirm, tie_frame_open
from ..services.ties import (
    group_set_deadline,
    round_set_dates,
    tie_award,
    tie_record_paper,
    tie_walkover,
    tie_withdraw,
)
from .common import CONFLICT, ERRORS


class RoundView(APIView):
    """A round (anyone); the secretary sets its date and deadline."""

    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(
            Round.objects.select_related("competition"), pk=self.kwargs["pk"]
        ).competition

    @extend_schema(responses={200: s.RoundSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.RoundSerializer(get_object_or_404(Round, pk=pk)).data)

    @extend_schema(request=s.RoundDatesSerializer, responses={200: s.RoundSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.RoundDatesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_set_dates(
            actor=request.user,
            round=get_object_or_404(Round.objects.select_related("competition"), pk=pk),
            **data.validated_data,
        )
        return Response(s.RoundSerializer(rnd).data)


class GroupView(APIView):
    """A group (anyone); the secretary sets the date its matches must be played by (a
    match not played by then may be awarded)."""

    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(
            Group.objects.select_related("competition"), pk=self.kwargs["pk"]
        ).competition

    @extend_schema(responses={200: s.GroupSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.GroupSerializer(get_object_or_404(Group, pk=pk)).data)

    @extend_schema(request=s.GroupDeadlineSerializer, responses={200: s.GroupSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.GroupDeadlineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        group = group_set_deadline(
            actor=request.user,
            group=get_object_or_404(Group.objects.select_related("competition"), pk=pk),
            deadline=data.validated_data["deadline"],
        )
        return Response(s.GroupSerializer(group).data)


def _tie(pk: int) -> Tie:
    return get_object_or_404(
        Tie.objects.select_related("competition__season", "round", "group", *selectors.TIE_JOINS),
        pk=pk,
    )


class TieView(APIView):
    """A tie with its frames."""

    @extend_schema(responses={200: s.TieDetailSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        try:
            tie = selectors.tie_detail(pk)
        except Tie.DoesNotExist:
            raise Http404 from None
        return Response(s.TieDetailSerializer(tie).data)


class _TieCommand(APIView):
    write_permission = "competitions.play_tie"

    def get_permission_object(self):
        return _tie(self.kwargs["pk"])


class TieResultView(_TieCommand):
    """An individual tie's frames from the paper scoresheet (a player's entry waits for
    the other side's confirmation; the secretary's counts at once)."""

    @extend_schema(
        request=s.PaperResultSerializer, responses={200: s.TieDetailSerializer, **CONFLICT}
    )
    def post(self, request, pk: int):
        data = s.PaperResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie_record_paper(
            actor=request.user,
            tie=self.get_permission_object(),
            frames=data.validated_data["frames"],
        )
        return Response(s.TieDetailSerializer(selectors.tie_detail(pk)).data)


class TieConfirmView(_TieCommand):
    """A side signs off the tie's frames (scored on the pad, or keyed in by the other)."""

    @extend_schema(request=None, responses={200: s.TieDetailSerializer, **CONFLICT})
    def post(self, request, pk: int):
        tie_confirm(actor=request.user, tie=self.get_permission_object())
        return Response(s.TieDetailSerializer(selectors.tie_detail(pk)).data)


class TieFrameOpenView(_TieCommand):
    """Open the tie's next frame on the pad (`frame` is the pad's frame id)."""

    @extend_schema(request=None, responses={201: s.TieFrameSerializer, **CONFLICT})
    def post(self, request, pk: int):
        tf = tie_frame_open(actor=request.user, tie=self.get_permission_object())
        return Response(s.TieFrameSerializer(tf).data, status=status.HTTP_201_CREATED)


class _TieSecretaryCommand(APIView):
    write_permission = "competitions.manage"

    def get_permission_object(self):
        return _tie(self.kwargs["pk"])


class TieAwardView(_TieSecretaryCommand):
    """Award a tie not played by its deadline, with a reason."""

    @extend_schema(request=s.AwardSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.AwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_award(actor=request.user, tie=self.get_permission_object(), **data.validated_data)
        return Response(s.TieSerializer(tie).data)


class TieWalkoverView(_TieSecretaryCommand):
    """Record a walkover, with a reason."""

    @extend_schema(request=s.AwardSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.AwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_walkover(
            actor=request.user, tie=self.get_permission_object(), **data.validated_data
        )
        return Response(s.TieSerializer(tie).data)


class TieWithdrawView(_TieSecretaryCommand):
    """Record one side's withdrawal from a tie: the other goes through."""

    @extend_schema(request=s.WithdrawSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_withdraw(
            actor=request.user, tie=self.get_permission_object(), **data.validated_data
        )
        return Response(s.TieSerializer(tie).data)


class TieCorrectView(_TieSecretaryCommand):
    """Correct a decided tie, with a reason: the winner of a tie decided without being
    played, an individual tie's frames, or a team tie's match frame scores (the confirmed
    match settled again). The new winner replaces the old in the next round while it is
    unplayed, and a corrected final rewrites the roll of honour; 409 when the old winner
    has played on since."""

    @extend_schema(
        request=s.CorrectionSerializer, responses={200: s.TieDetailSerializer, **CONFLICT}
    )
    def post(self, request, pk: int):
        data = s.CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie_correct(
            actor=request.user,
            tie=self.get_permission_object(),
            reason=data.validated_data["reason"],
            winner=data.validated_data.get("winner"),
            frames=data.validated_data.get("frames"),
            match_frames=data.match_scores(),
        )
        return Response(s.TieDetailSerializer(selectors.tie_detail(pk)).data)
