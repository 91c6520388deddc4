"""The competitions API of entries: listing and entering, withdrawing, the fee paid, the
handicap start."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.serializers import ErrorSerializer

from .. import selectors
from .. import serializers as s
from ..models import Competition, Entry
from ..services.entries import entry_create, entry_mark_paid, entry_set_start, entry_withdraw
from .common import ERRORS


class EntriesView(APIView):
    """A competition's entries (anyone); enter one (the secretary, or while entries are
    open the player, pair or team captain; eligibility refusals name the rule)."""

    write_permission = "competitions.enter"

    @extend_schema(responses={200: s.EntrySerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        competition = get_object_or_404(Competition, pk=pk)
        return Response(s.EntrySerializer(selectors.entries_of(competition), many=True).data)

    @extend_schema(
        request=s.EntryCreateSerializer, responses={201: s.EntryCreatedSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        competition = get_object_or_404(Competition, pk=pk)
        data = s.EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_create(actor=request.user, competition=competition, **data.validated_data)
        warning = ""
        if data.validated_data["late"] and entry.source.startswith("late entry"):
            warning = f"Entries had closed: {entry.name} is entered late ({entry.source})."
        return Response(
            s.EntryCreatedSerializer(entry, context={"warning": warning}).data,
            status=status.HTTP_201_CREATED,
        )


class _EntryCommand(APIView):
    """A command on one entry: the entry is read once, for the permission and the write."""

    def entry(self) -> Entry:
        if not hasattr(self, "_entry"):
            self._entry = get_object_or_404(
                Entry.objects.select_related("competition", "team", "player", "partner"),
                pk=self.kwargs["pk"],
            )
        return self._entry

    def get_permission_object(self):
        return self.entry().competition  # the secretary's commands


class EntryWithdrawView(_EntryCommand):
    """Withdraw an entry (its player or captain, or the secretary)."""

    write_permission = "competitions.manage_entry"

    def get_permission_object(self):
        return self.entry()

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        entry = entry_withdraw(actor=request.user, entry=self.entry())
        return Response(s.EntrySerializer(entry).data)


class EntryPaidView(_EntryCommand):
    """Record an entry's fee as paid or unpaid (the secretary)."""

    write_permission = "competitions.manage"

    @extend_schema(request=s.PaidSerializer, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.PaidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_mark_paid(
            actor=request.user, entry=self.entry(), paid=data.validated_data["paid"]
        )
        return Response(s.EntrySerializer(entry).data)


class EntryStartView(_EntryCommand):
    """Set an entrant's handicap start, points a frame (the secretary)."""

    write_permission = "competitions.manage"

    @extend_schema(request=s.StartSerializer, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.StartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_set_start(
            actor=request.user, entry=self.entry(), start=data.validated_data["start"]
        )
        return Response(s.EntrySerializer(entry).data)
