"""Availability's API: a captain's (or officer's) sheet for a fixture, asking and chasing,
and answering (with the signed link's token, no login; or signed in, as the player)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api import ERRORS
from leagues.models import (
    Availability,
    AvailabilityAnswer,
    AwayDates,
    Fixture,
    Player,
    Season,
    Team,
)
from leagues.serializers import ErrorSerializer
from marker.api_inputs import int_param
from marker.errors import DomainError

from . import selectors, services


class AnswerRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="registration.player_id")
    name = serializers.CharField(source="registration.player.name")
    answer = serializers.CharField(source="answer.answer", allow_null=True, default=None)
    note = serializers.CharField(source="answer.note", default="")
    via = serializers.CharField(source="answer.via", allow_null=True, default=None)
    answered_at = serializers.DateTimeField(
        source="answer.answered_at", allow_null=True, default=None
    )


class CountsSerializer(serializers.Serializer[Any]):
    yes = serializers.IntegerField()
    maybe = serializers.IntegerField()
    no = serializers.IntegerField()
    waiting = serializers.IntegerField(help_text="On the roster, not answered.")


class SheetSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField(source="team.pk")
    team_name = serializers.CharField(source="team.name")
    asked_at = serializers.DateTimeField(source="request.asked_at", allow_null=True, default=None)
    answer_by = serializers.DateTimeField(source="request.answer_by", allow_null=True, default=None)
    chased_at = serializers.DateTimeField(source="request.chased_at", allow_null=True, default=None)
    chases = serializers.IntegerField(source="request.chases", default=0)
    closed = serializers.BooleanField(help_text="Match night has started: answers are final.")
    counts = CountsSerializer()
    players = AnswerRowSerializer(source="rows", many=True)


class FixtureAvailabilitySerializer(serializers.Serializer[Any]):
    fixture = serializers.IntegerField()
    teams = SheetSerializer(many=True)


class AskSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField(help_text="The team (home or away) whose squad to ask.")
    answer_by = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Default: the day before at noon."
    )


class AskedSerializer(serializers.Serializer[Any]):
    asked = serializers.IntegerField(help_text="Messages queued now.")
    away = serializers.ListField(child=serializers.IntegerField(), help_text="Answered no (away).")
    unreachable = serializers.ListField(
        child=serializers.IntegerField(), help_text="No login and no email: not asked."
    )
    sheet = SheetSerializer()


class ChaseSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField()


class ChasedSerializer(serializers.Serializer[Any]):
    chased = serializers.ListField(child=serializers.IntegerField())
    sheet = SheetSerializer()


class AnswerSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(
        required=False, max_length=500, help_text="The signed link's token: no login needed."
    )
    fixture = serializers.IntegerField(required=False, help_text="Signed in, without a token.")
    team = serializers.IntegerField(required=False, help_text="Optional, signed in.")
    answer = serializers.ChoiceField(choices=AvailabilityAnswer.choices)
    note = serializers.CharField(required=False, allow_blank=True, max_length=services.MAX_NOTE)


class AnsweredSerializer(serializers.ModelSerializer[Availability]):
    class Meta:
        model = Availability
        fields = ["fixture", "team", "player", "answer", "note", "answered_at", "via"]


def _fixture(pk: int) -> Fixture:
    # The teams' seasons too: each team's permission looks for its league.
    return get_object_or_404(
        Fixture.objects.select_related("home__season", "away__season", "season"), pk=pk
    )


def _team(fixture: Fixture, team_id: int) -> Team:
    team = {fixture.home_id: fixture.home, fixture.away_id: fixture.away}.get(team_id)
    if team is None:
        raise DomainError(
            "not_in_fixture", "That team does not play in this fixture.", field="team"
        )
    return team


def _require_a_side(user, fixture: Fixture) -> None:
    """Before reading the input: a caller who may ask for neither side is refused (403)
    whatever they send; the service checks the side they name."""
    if not selectors.teams_to_ask(user, fixture):
        raise PermissionDenied("Only the team's captains and the league's officers ask the squad.")


class FixtureAvailabilityView(APIView):
    """Who is in, maybe, out and not answered, for each side of the fixture the caller
    captains (both sides for a league officer)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("team", int, description="Only this team's side.")],
        responses={200: FixtureAvailabilitySerializer, **ERRORS},
    )
    def get(self, request, pk: int):
        fixture = _fixture(pk)
        teams = selectors.teams_to_ask(request.user, fixture)
        wanted = int_param(request, "team")
        if wanted is not None:
            _team(fixture, wanted)
            teams = [t for t in teams if t.pk == wanted]
        if not teams:
            raise PermissionDenied("Only the team's captains and the league's officers see this.")
        sheets = [selectors.availability_sheet(fixture, team) for team in teams]
        return Response(
            FixtureAvailabilitySerializer({"fixture": fixture.pk, "teams": sheets}).data
        )


class FixtureAvailabilityAskView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AskSerializer, responses={200: AskedSerializer, **ERRORS})
    def post(self, request, pk: int):
        fixture = _fixture(pk)
        _require_a_side(request.user, fixture)
        data = AskSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = _team(fixture, data.validated_data["team"])
        result = services.availability_ask(
            fixture=fixture,
            team=team,
            actor=request.user,
            answer_by=data.validated_data.get("answer_by"),
        )
        body = {
            "asked": result.asked,
            "away": [p.pk for p in result.away],
            "unreachable": [p.pk for p in result.unreachable],
            "sheet": selectors.availability_sheet(fixture, team),
        }
        return Response(AskedSerializer(body).data, status=status.HTTP_200_OK)


class FixtureAvailabilityChaseView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ChaseSerializer, responses={200: ChasedSerializer, 409: ErrorSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        fixture = _fixture(pk)
        _require_a_side(request.user, fixture)
        data = ChaseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = _team(fixture, data.validated_data["team"])
        result = services.availability_chase(fixture=fixture, team=team, actor=request.user)
        body = {
            "chased": [p.pk for p in result.chased],
            "sheet": selectors.availability_sheet(fixture, team),
        }
        return Response(ChasedSerializer(body).data)


class AvailabilityAnswerView(APIView):
    """A player's answer: with the signed link's token (no login), or signed in as the
    player, naming the fixture. Answering again changes it until match night opens."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=AnswerSerializer,
        responses={
            200: AnsweredSerializer,
            401: ErrorSerializer,
            409: ErrorSerializer,
            410: ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request):
        data = AnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values.get("token"):
            answer = services.availability_answer_by_link(
                token=values["token"], answer=values["answer"], note=values.get("note", "")
            )
        else:
            if not request.user.is_authenticated:
                raise DomainError(
                    "not_authenticated",
                    "Answer with your link's token, or sign in and name the fixture.",
                    status=401,
                )
            if values.get("fixture") is None:
                raise DomainError("required", "Name the fixture you answer for.", field="fixture")
            fixture = _fixture(values["fixture"])
            team = _team(fixture, values["team"]) if values.get("team") is not None else None
            answer = services.availability_answer_as_player(
                actor=request.user,
                fixture=fixture,
                team=team,
                answer=values["answer"],
                note=values.get("note", ""),
            )
        return Response(AnsweredSerializer(answer).data)


class AwayDatesSerializer(serializers.ModelSerializer[AwayDates]):
    class Meta:
        model = AwayDates
        fields = ["id", "season", "start", "end", "note", "created_at"]
        read_only_fields = ["id", "created_at"]
        # The service checks the range and the season (one error shape, 400).
        extra_kwargs = {"season": {"queryset": Season.objects.all()}}


class MyAwayDatesView(APIView):
    """The signed-in player's away dates: fixtures on them are answered "no (away)" when
    their captain asks."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: AwayDatesSerializer(many=True), **ERRORS})
    def get(self, request):
        player = Player.objects.filter(user=request.user).first()
        found = selectors.away_dates_of(player) if player is not None else []
        return Response(AwayDatesSerializer(found, many=True).data)

    @extend_schema(request=AwayDatesSerializer, responses={201: AwayDatesSerializer, **ERRORS})
    def post(self, request):
        data = AwayDatesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = services.player_of(request.user)
        away = services.away_add(
            player=player,
            season=values["season"],
            start=values["start"],
            end=values["end"],
            note=values.get("note", ""),
            actor=request.user,
        )
        return Response(AwayDatesSerializer(away).data, status=status.HTTP_201_CREATED)


class MyAwayDateView(APIView):
    """Remove away dates (the player's own, or by the league's secretary)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request, pk: int):
        away = get_object_or_404(AwayDates, pk=pk)
        services.away_remove(away=away, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
