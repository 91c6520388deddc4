"""The personal data API: my data (GET), whether I am named publicly (POST), and the
secretary's erasure of a person (POST). Errors are `{"error", "message"}`."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.models import Player
from leagues.serializers import ErrorSerializer
from marker.errors import DomainError

from . import erasure, export, naming
from .calendar import services as calendar_services
from .calendar.addresses import address_of

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class PrivacySerializer(serializers.Serializer):
    private_name = serializers.BooleanField(
        help_text="True: public pages, the API's public reads and exports show my initials."
    )


class PrivacyAnswerSerializer(serializers.Serializer):
    private_name = serializers.BooleanField()
    public_name = serializers.CharField()


class EraseSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(help_text="Must be true: an erasure cannot be undone.")


class ErasureSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.SerializerMethodField()
    at = serializers.DateTimeField()

    def get_name(self, obj) -> str:
        return erasure.former_name(obj.number)


class MyDataView(APIView):
    """Everything Marker holds about the signed-in person (the same JSON as the page's
    download)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: ErrorSerializer})
    def get(self, request):
        player = Player.objects.filter(user=request.user).first()
        return Response(export.person_data(player, request.user))


class MyPrivacyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PrivacySerializer, responses={200: PrivacyAnswerSerializer, **ERRORS})
    def post(self, request):
        data = PrivacySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = Player.objects.filter(user=request.user).first()
        if player is None:
            raise DomainError("no_player", "Your account has no player record.", status=404)
        player = naming.person_set_private_name(
            player=player, private=data.validated_data["private_name"]
        )
        return Response(PrivacyAnswerSerializer(player).data)


class CalendarAddressSerializer(serializers.Serializer):
    url = serializers.URLField(
        help_text="The private https address: anyone who has it can read the calendar."
    )
    webcal = serializers.CharField(
        help_text="The same address as webcal://, for a phone's subscribe link."
    )
    created_at = serializers.DateTimeField()


def _own_player_or_404(user) -> Player:
    player = Player.objects.filter(user=user).first()
    if player is None:
        raise DomainError("no_player", "Your account has no player record.", status=404)
    return player


class MyCalendarView(APIView):
    """My calendar's private address (made the first time it is asked for): every
    fixture of my teams this season, my cup ties and their deadlines, with reminders."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: CalendarAddressSerializer, **ERRORS, 409: ErrorSerializer})
    def get(self, request):
        feed = calendar_services.calendar_feed_ensure(player=_own_player_or_404(request.user))
        return Response(CalendarAddressSerializer(address_of(request, feed)).data)


class MyCalendarRevokeView(APIView):
    """Revoke my calendar's address (it answers 404 from now on) and make a new one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={201: CalendarAddressSerializer, **ERRORS, 409: ErrorSerializer}
    )
    def post(self, request):
        feed = calendar_services.calendar_feed_renew(player=_own_player_or_404(request.user))
        return Response(CalendarAddressSerializer(address_of(request, feed)).data, status=201)


class MayErase(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.user.has_perm("leagues.erase_person", view.get_permission_object())


class PersonEraseView(APIView):
    """Erase a person (irreversible): their account and contact details go, their name
    becomes "Former player N"; results, statistics and ratings stay."""

    permission_classes = [MayErase]

    def get_permission_object(self):
        return get_object_or_404(Player, pk=self.kwargs["pk"])

    @extend_schema(
        request=EraseSerializer,
        responses={201: ErasureSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, pk: int):
        player = self.get_permission_object()
        data = EraseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not data.validated_data["confirm"]:
            raise DomainError(
                "not_confirmed",
                "Set confirm to true: an erasure cannot be undone.",
                field="confirm",
            )
        done = erasure.person_erase(player=player, actor=request.user)
        return Response(ErasureSerializer(done).data, status=201)
