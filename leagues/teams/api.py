"""The API of teams: teams, registering and updating one, its roster."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api import ERRORS
from leagues.models import (
    Registration,
    Team,
)
from leagues.serializers import (
    ErrorSerializer,
    RegistrationSerializer,
    RosterAddSerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
)
from leagues.teams import services as team_services
from marker.api_inputs import int_param


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
        if (season := int_param(self.request, "season")) is not None:
            qs = qs.filter(season_id=season)
        if (division := int_param(self.request, "division")) is not None:
            qs = qs.filter(division_id=division)
        return qs

    def get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=TeamCreateSerializer,
        responses={201: TeamSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def create(self, request, *args, **kwargs):
        data = TeamCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_register(captain=request.user, **data.validated_data)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TeamUpdateSerializer, responses={200: TeamSerializer, **ERRORS})
    def partial_update(self, request, *args, **kwargs):
        team = self.get_object()
        data = TeamUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_update(team=team, **data.validated_data)
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
        reg = team_services.roster_add_player(
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
        reg = team_services.roster_remove_player(registration=reg)
        return Response(RegistrationSerializer(reg).data)
