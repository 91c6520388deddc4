"""The money API: a season's ledger (list, and add a charge or a payment), balances,
reversing an entry, statements. Every error is the API's one shape; every object is
checked (404 for none, 403 for someone else's)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.models import Player, Season, Team
from marker.api_errors import ErrorSerializer
from marker.errors import DomainError
from marker.permissions import require

from . import selectors, services
from . import serializers as s
from .accounts import PlayerAccount
from .models import LedgerEntry

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


def _signed_in(request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=pk)


def _may_manage(request, season: Season) -> None:
    _signed_in(request)
    require(
        request.user,
        "money.manage",
        season,
        message="Only the league's treasurer or secretary sees and writes its ledger.",
    )


class LedgerView(APIView):
    """A season's ledger, oldest first (treasurer, secretary); add a charge or a payment."""

    write_permission = "money.manage"

    def get_permission_object(self):
        return _season(self.kwargs["pk"])

    @extend_schema(responses={200: s.LedgerEntrySerializer(many=True), **ERRORS})
    def get(self, request, pk: int):
        season = _season(pk)
        _may_manage(request, season)
        return Response(s.LedgerEntrySerializer(selectors.lines(season), many=True).data)

    @extend_schema(
        request=s.LedgerEntryCreateSerializer, responses={201: s.LedgerEntrySerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        season = _season(pk)
        _may_manage(request, season)
        data = s.LedgerEntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        account = {"team": d["team"], "player": d["player"]}
        if d["kind"] == LedgerEntry.Kind.PAYMENT:
            entry = services.payment_record(
                actor=request.user,
                season=season,
                amount=d["amount"],
                method=d["method"],
                paid_on=d["paid_on"],
                reference=d["reference"],
                description=d["description"],
                **account,
            )
        else:
            if d["method"]:
                raise DomainError("bad_method", "Only a payment has a method.", field="method")
            entry = services.charge_add(
                actor=request.user,
                season=season,
                kind=d["kind"],
                amount=d["amount"],
                description=d["description"],
                **account,
            )
        return Response(s.LedgerEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class BalancesView(APIView):
    """Who owes what: every team and player of the season (treasurer, secretary)."""

    @extend_schema(responses={200: s.BalanceSerializer(many=True), **ERRORS})
    def get(self, request, pk: int):
        season = _season(pk)
        _may_manage(request, season)
        teams, players = selectors.balances(season)
        rows = [
            {
                "kind": b.kind,
                "id": b.account.pk,
                "name": b.name,
                "charged": b.charged,
                "paid": b.paid,
                "balance": b.balance,
            }
            for b in teams + players
        ]
        return Response(s.BalanceSerializer(rows, many=True).data)


class ReverseView(APIView):
    """Reverse one entry, saying why (treasurer, secretary); once an entry (409 after)."""

    write_permission = "money.manage"

    def get_permission_object(self):
        return get_object_or_404(
            LedgerEntry.objects.select_related("season"), pk=self.kwargs["pk"]
        ).season

    @extend_schema(
        request=s.ReverseSerializer,
        responses={
            201: s.LedgerEntrySerializer,
            **ERRORS,
            409: OpenApiResponse(ErrorSerializer, description="Already reversed."),
        },
    )
    def post(self, request, pk: int):
        _signed_in(request)
        entry = get_object_or_404(LedgerEntry.objects.select_related("season"), pk=pk)
        _may_manage(request, entry.season)
        data = s.ReverseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reversal = services.entry_reverse(
            actor=request.user, entry=entry, reason=data.validated_data["reason"]
        )
        return Response(s.LedgerEntrySerializer(reversal).data, status=status.HTTP_201_CREATED)


def _statement_response(statement, name: str) -> Response:
    body = {
        "account": name,
        "season": statement.season.pk,
        "balance": statement.balance,
        "lines": statement.lines,
    }
    return Response(s.StatementSerializer(body).data)


class TeamStatementView(APIView):
    """A team's statement with its running balance: its captains, treasurer, secretary."""

    @extend_schema(responses={200: s.StatementSerializer, **ERRORS})
    def get(self, request, pk: int):
        _signed_in(request)
        team = get_object_or_404(Team.objects.select_related("season__league"), pk=pk)
        require(
            request.user,
            "money.view_statement",
            team,
            message="A team's statement is for its captains and the league's officers.",
        )
        return _statement_response(selectors.statement(team), team.name)


class PlayerStatementView(APIView):
    """A player's statement for a season: that player, treasurer, secretary."""

    @extend_schema(responses={200: s.StatementSerializer, **ERRORS})
    def get(self, request, season: int, pk: int):
        _signed_in(request)
        account = PlayerAccount(season=_season(season), player=get_object_or_404(Player, pk=pk))
        require(
            request.user,
            "money.view_statement",
            account,
            message="A player's statement is for that player and the league's officers.",
        )
        return _statement_response(selectors.statement(account), account.player.name)
