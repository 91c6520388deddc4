"""The league's REST API. Reference data are read-only viewsets; each command has its own
view with an input serializer. Permissions are checked on every object."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .models import Division, Fixture, League, Player, Registration, Season, Team, Venue
from .permissions import ReadOnlyOrPredicate
from .serializers import (
    DivisionSerializer,
    ErrorSerializer,
    FixtureMoveSerializer,
    FixturePostponeSerializer,
    FixtureSerializer,
    FixturesGenerateSerializer,
    LeagueSerializer,
    PlayerSerializer,
    RegistrationSerializer,
    RosterAddSerializer,
    SeasonSerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
    VenueSerializer,
)

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class LeagueViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = League.objects.all()
    serializer_class = LeagueSerializer


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer


class DivisionViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Division.objects.all()
    serializer_class = DivisionSerializer

    def get_queryset(self):
        qs = super().get_queryset()
        if season := self.request.query_params.get("season"):
            qs = qs.filter(season_id=season)
        return qs


class VenueViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Venue.objects.all()
    serializer_class = VenueSerializer


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer


@extend_schema(parameters=[OpenApiParameter("season", int), OpenApiParameter("division", int)])
class TeamViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Teams. Any signed-in user may enter a team (and becomes its captain); only its
    captain, vice-captain or the secretary may change it."""

    queryset = Team.objects.all()
    serializer_class = TeamSerializer
    write_permission = "leagues.change_team"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = super().get_queryset()
        params = self.request.query_params
        if season := params.get("season"):
            qs = qs.filter(season_id=season)
        if division := params.get("division"):
            qs = qs.filter(division_id=division)
        return qs

    def get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(request=TeamCreateSerializer, responses={201: TeamSerializer, **ERRORS})
    def create(self, request, *args, **kwargs):
        data = TeamCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = services.team_register(captain=request.user, **data.validated_data)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TeamUpdateSerializer, responses={200: TeamSerializer, **ERRORS})
    def partial_update(self, request, *args, **kwargs):
        team = self.get_object()
        data = TeamUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = services.team_update(team=team, **data.validated_data)
        return Response(TeamSerializer(team).data)

    def update(self, request, *args, **kwargs):
        return self.partial_update(request, *args, **kwargs)


class RosterView(APIView):
    """A team's roster: anyone reads it; the team's captains and the secretary change it."""

    write_permission = "leagues.change_team"

    def get_team(self) -> Team:
        return get_object_or_404(Team.objects.select_related("season"), pk=self.kwargs["pk"])

    def get_permission_object(self):
        return self.get_team()

    @extend_schema(responses={200: RegistrationSerializer(many=True)})
    def get(self, request, pk: int):
        regs = self.get_team().registrations.filter(status="active").select_related("player")
        return Response(RegistrationSerializer(regs, many=True).data)

    @extend_schema(request=RosterAddSerializer, responses={201: RegistrationSerializer, **ERRORS})
    def post(self, request, pk: int):
        team = self.get_team()
        data = RosterAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.roster_add_player(
            team=team,
            player=data.validated_data.get("player"),
            name=data.validated_data.get("name", ""),
            email=data.validated_data.get("email", ""),
            kind=data.validated_data["kind"],
        )
        return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


class RosterEntryView(APIView):
    write_permission = "leagues.change_team"

    def get_permission_object(self):
        return get_object_or_404(Team, pk=self.kwargs["pk"])

    @extend_schema(request=None, responses={200: RegistrationSerializer, **ERRORS})
    def delete(self, request, pk: int, registration_id: int):
        reg = get_object_or_404(
            Registration.objects.select_related("player"), pk=registration_id, team_id=pk
        )
        reg = services.roster_remove_player(registration=reg)
        return Response(RegistrationSerializer(reg).data)


@extend_schema(
    parameters=[
        OpenApiParameter("season", int),
        OpenApiParameter("division", int),
        OpenApiParameter("team", int),
        OpenApiParameter("venue", int),
    ]
)
class FixtureViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = FixtureSerializer

    def get_queryset(self):
        qs = Fixture.objects.select_related("home", "away", "venue").order_by("date", "id")
        params = self.request.query_params
        for key in ("season", "division", "venue"):
            if value := params.get(key):
                qs = qs.filter(**{f"{key}_id": value})
        if team := params.get("team"):
            qs = qs.filter(Q(home_id=team) | Q(away_id=team))
        return qs


class FixturesGenerateView(APIView):
    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(request=FixturesGenerateSerializer, responses={201: FixtureSerializer(many=True), **ERRORS})
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = FixturesGenerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixtures = services.fixtures_generate(season=season, **data.validated_data)
        return Response(
            {"created": len(fixtures)} | {"fixtures": FixtureSerializer(
                Fixture.objects.filter(season=season).select_related("home", "away", "venue"),
                many=True,
            ).data},
            status=status.HTTP_201_CREATED,
        )


class FixtureMoveView(APIView):
    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixtureMoveSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixtureMoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = services.fixture_move(
            fixture=get_object_or_404(Fixture, pk=pk),
            new_date=data.validated_data["date"],
            reason=data.validated_data["reason"],
        )
        return Response(FixtureSerializer(fixture).data)


class FixturePostponeView(APIView):
    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixturePostponeSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixturePostponeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = services.fixture_postpone(
            fixture=get_object_or_404(Fixture, pk=pk), reason=data.validated_data["reason"]
        )
        return Response(FixtureSerializer(fixture).data)


__all__ = ["ReadOnlyOrPredicate"]
