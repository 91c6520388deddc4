"""The API of teams: teams, registering and updating one, its roster."""

from __future__ import annotations

from datetime import date

from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import eligibility, selectors
from leagues.api import ERRORS
from leagues.models import (
    Player,
    Registration,
    Season,
    Team,
    Transfer,
)
from leagues.serializers import (
    EligibilitySerializer,
    ErrorSerializer,
    RegistrationRulesOutSerializer,
    RegistrationRulesSerializer,
    RegistrationSerializer,
    RosterAddSerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
    TransferDecideSerializer,
    TransferRequestSerializer,
    TransferSerializer,
)
from leagues.teams import eligibility_services
from leagues.teams import services as team_services
from marker.api_inputs import int_param
from marker.errors import DomainError
from marker.permissions import require


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


# ---- registration rules (docs/eligibility.md)


def _rules_body(rules) -> dict:
    body = {name: getattr(rules, name) for name in eligibility_services.RULE_FIELDS}
    body["season"] = rules.season_id
    body["in_force"] = [
        {"rule": code, "text": text} for code, text in eligibility.rules_summary(rules)
    ]
    return body


class SeasonRegistrationRulesView(APIView):
    """A season's registration rules: anyone reads them (with the rules in force, in the
    handbook's words); the secretary changes them (the fields given)."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self) -> Season:
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: RegistrationRulesOutSerializer})
    def get(self, request, pk: int):
        rules = eligibility.rules_of(self.get_permission_object())
        return Response(RegistrationRulesOutSerializer(_rules_body(rules)).data)

    @extend_schema(
        request=RegistrationRulesSerializer,
        responses={200: RegistrationRulesOutSerializer, **ERRORS},
    )
    def put(self, request, pk: int):
        data = RegistrationRulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rules = eligibility_services.season_rules_update(
            season=self.get_permission_object(), actor=request.user, **data.validated_data
        )
        return Response(RegistrationRulesOutSerializer(_rules_body(rules)).data)

    @extend_schema(
        request=RegistrationRulesSerializer,
        responses={200: RegistrationRulesOutSerializer, **ERRORS},
    )
    def patch(self, request, pk: int):
        return self.put(request, pk)


@extend_schema(
    parameters=[
        OpenApiParameter("player", int, required=True),
        OpenApiParameter("date", str, description="YYYY-MM-DD; today when not given."),
    ]
)
class TeamEligibilityView(APIView):
    """May this player play for this team on this date? The answer with every refusal's
    rule (code and the handbook's words). The team's captains and the secretary ask."""

    @extend_schema(responses={200: EligibilitySerializer, **ERRORS})
    def get(self, request, pk: int):
        team = get_object_or_404(Team.objects.select_related("season__league"), pk=pk)
        require(
            request.user,
            "leagues.change_team",
            team,
            code="not_captain",
            message=f"Only {team.name}'s captains or the secretary may ask.",
        )
        player_id = int_param(request, "player")
        if player_id is None:
            raise DomainError("required", "Give the player's id.", field="player")
        player = get_object_or_404(Player, pk=player_id)
        on = eligibility.local_day(None)
        if request.query_params.get("date"):
            try:
                on = date.fromisoformat(request.query_params["date"][:10])
            except ValueError:
                raise DomainError(
                    "bad_value", "Give the date as YYYY-MM-DD.", field="date"
                ) from None
        answer = eligibility.may_play(team=team, player=player, on=on)
        return Response(
            EligibilitySerializer(
                {
                    "team": team.pk,
                    "player": player.pk,
                    "date": on,
                    "eligible": answer.eligible,
                    "play_up": answer.play_up,
                    "refusals": [r.as_dict() for r in answer.refusals],
                }
            ).data
        )


class SeasonTransfersView(APIView):
    """A season's transfers: the secretary and its teams' captains read them; a team's
    captain (or the secretary) asks for one into their team. The season's rules decide at
    once: `approved`, `refused` (with the rule) or `pending` the secretary's approval."""

    def get_season(self) -> Season:
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    def get_permissions(self):
        return [IsAuthenticated()]

    @extend_schema(responses={200: TransferSerializer(many=True), **ERRORS})
    def get(self, request, pk: int):
        season = self.get_season()
        transfers = selectors.season_transfers(season)
        if not request.user.has_perm("leagues.manage_league", season):
            mine = [
                t.pk
                for t in Team.objects.filter(season=season)
                if request.user.has_perm("leagues.change_team", t)
            ]
            if not mine:
                raise DomainError(
                    "forbidden",
                    "Only the secretary and the season's captains see its transfers.",
                    status=403,
                )
            transfers = transfers.filter(Q(from_team__in=mine) | Q(to_team__in=mine))
        return Response(TransferSerializer(transfers, many=True).data)

    @extend_schema(request=TransferRequestSerializer, responses={201: TransferSerializer, **ERRORS})
    def post(self, request, pk: int):
        season = self.get_season()
        data = TransferRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        to_team = data.validated_data["to_team"]
        if to_team.season_id != season.pk:
            raise DomainError("bad_team", "That team plays in another season.", field="to_team")
        transfer = eligibility_services.transfer_request(
            player=data.validated_data["player"],
            to_team=to_team,
            actor=request.user,
            reason=data.validated_data["reason"],
        )
        return Response(TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)


class TransferDecideView(APIView):
    """The secretary approves or refuses a transfer awaiting approval."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self) -> Transfer:
        return get_object_or_404(
            Transfer.objects.select_related("season__league", "player", "from_team", "to_team"),
            pk=self.kwargs["pk"],
        )

    @extend_schema(request=TransferDecideSerializer, responses={200: TransferSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = TransferDecideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        transfer = eligibility_services.transfer_decide(
            transfer=self.get_permission_object(),
            actor=request.user,
            approve=data.validated_data["approve"],
            note=data.validated_data["note"],
        )
        return Response(TransferSerializer(transfer).data)
