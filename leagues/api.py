"""The league's REST API: the league itself (officers, seasons, honours), venues and
players, and what the sub-domains' APIs share. Reference data are read-only viewsets;
each command has its own view with an input serializer. Permissions are checked on every
object."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from . import (
    honours,
    selectors,
    tenancy,
)
from .models import (
    Invitation,
    League,
    LeagueRole,
    Player,
    Venue,
)
from .seasons import services as season_services
from .serializers import (
    ErrorSerializer,
    HonourSerializer,
    LeagueCreatedSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    OfficerAddedSerializer,
    OfficerAddSerializer,
    OfficersSerializer,
    PlayerSerializer,
    SeasonCreatedSerializer,
    SeasonCreateSerializer,
    VenueSerializer,
)

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class LeagueViewSet(viewsets.ReadOnlyModelViewSet):
    """The leagues of this site: anyone reads them; a site administrator creates one, with
    its first secretary (an account, or an email address to invite)."""

    queryset = League.objects.all()
    serializer_class = LeagueSerializer

    def get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=LeagueCreateSerializer,
        responses={201: LeagueCreatedSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def create(self, request, *args, **kwargs):
        if not request.user.has_perm("leagues.create_league"):
            raise PermissionDenied("Only a site administrator creates leagues.")
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league, appointment = tenancy.league_create(actor=request.user, **data.validated_data)
        return Response(
            LeagueCreatedSerializer(
                {
                    "league": league,
                    "secretary": appointment if isinstance(appointment, LeagueRole) else None,
                    "invitation": appointment if isinstance(appointment, Invitation) else None,
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )


class LeagueOfficersView(APIView):
    """A league's officers and pending invitations (its secretaries only), and appointing
    one: an existing account at once, anyone else by an emailed invitation."""

    permission_classes = [IsAuthenticated]  # and manage_officers on the league, below

    def get_league(self) -> League:
        league = get_object_or_404(League, pk=self.kwargs["pk"])
        if not self.request.user.has_perm("leagues.manage_officers", league):
            raise PermissionDenied("Only the league's secretary manages its officers.")
        return league

    @extend_schema(responses={200: OfficersSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        page = selectors.league_officers(self.get_league())
        return Response(
            OfficersSerializer({"officers": page["roles"], "invitations": page["invitations"]}).data
        )

    @extend_schema(request=OfficerAddSerializer, responses={201: OfficerAddedSerializer, **ERRORS})
    def post(self, request, pk: int):
        league = self.get_league()
        data = OfficerAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = tenancy.officer_appoint(actor=request.user, league=league, **data.validated_data)
        return Response(
            OfficerAddedSerializer(
                {
                    "officer": made if isinstance(made, LeagueRole) else None,
                    "invitation": made if isinstance(made, Invitation) else None,
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )


class LeagueSeasonsView(APIView):
    """Start a season of a league (its secretary): its game, divisions and format."""

    permission_classes = [IsAuthenticated]  # and manage_league on the league, below

    @extend_schema(
        request=SeasonCreateSerializer, responses={201: SeasonCreatedSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        league = get_object_or_404(League, pk=pk)
        if not request.user.has_perm("leagues.manage_league", league):
            raise PermissionDenied("Only the league's secretary starts a season.")
        data = SeasonCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_services.season_create(
            league=league, actor=request.user, **data.validated_data
        )
        return Response(SeasonCreatedSerializer(season).data, status=status.HTTP_201_CREATED)


class LeagueOfficerView(APIView):
    """Remove an officer (a league keeps at least one secretary: 409)."""

    permission_classes = [IsAuthenticated]  # and manage_officers on the league, below

    @extend_schema(
        request=None,
        responses={204: None, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def delete(self, request, pk: int, role_id: int):
        role = get_object_or_404(LeagueRole, pk=role_id, league_id=pk)
        if not request.user.has_perm("leagues.manage_officers", role.league):
            raise PermissionDenied("Only the league's secretary manages its officers.")
        tenancy.officer_remove(actor=request.user, role=role)
        return Response(status=status.HTTP_204_NO_CONTENT)


class VenueViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Venue.objects.all()
    serializer_class = VenueSerializer


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer


class ManagesLeague(BasePermission):
    """Reads and writes for the secretary only (the view's `get_permission_object`)."""

    def has_permission(self, request, view) -> bool:
        return request.user.has_perm("leagues.manage_league", view.get_permission_object())


class LeagueHonoursView(APIView):
    """The league's roll of honour: every winner and runner-up of its divisions and
    competitions, newest season first, under the name each had when it won."""

    @extend_schema(responses={200: HonourSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        league = get_object_or_404(League, pk=pk)
        lines = [
            honour
            for season in honours.league_honours(league)
            for line in season.lines
            for honour in (line.winner, line.runner_up)
            if honour is not None
        ]
        return Response(HonourSerializer(lines, many=True).data)
