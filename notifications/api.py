"""The push API of the signed-in person: the server's public key and their phones (GET),
a phone's subscription (POST, idempotent on its endpoint), a phone removed (DELETE).
Errors are `{"error", "message", "field"?}` (`marker.api_errors`)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from marker.api_errors import ErrorSerializer

from . import push, services
from .models import PushSubscription, Recipient
from .vapid import keys

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer}


class KeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(
        max_length=200, help_text="The browser's P-256 public key, base64url (65 bytes)."
    )
    auth = serializers.CharField(
        max_length=100, help_text="The subscription's auth secret, base64url (16 bytes)."
    )


class SubscribeSerializer(serializers.Serializer):
    endpoint = serializers.CharField(
        max_length=1000, help_text="The push service's URL for this browser (https)."
    )
    keys = KeysSerializer()
    user_agent = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        help_text="Names the phone in the list (the request's User-Agent by default).",
    )


class UnsubscribeSerializer(serializers.Serializer):
    endpoint = serializers.CharField(max_length=1000)


class DeviceSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()

    class Meta:
        model = PushSubscription
        fields = ["id", "name", "endpoint", "user_agent", "created_at", "last_sent_at"]

    def get_name(self, obj: PushSubscription) -> str:
        return push.device_label(obj.user_agent)


class PushStateSerializer(serializers.Serializer):
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The server's VAPID public key (applicationServerKey), base64url; "
        "null when push is not set up on this server.",
    )
    push_on = serializers.BooleanField(help_text="The person's choice: push to their phones.")
    devices = DeviceSerializer(many=True)


def _me(request) -> Recipient:
    user = request.user
    found = services.recipient_for(
        services.To(user_id=user.pk, email=getattr(user, "email", "")), now=timezone.now()
    )
    assert found is not None  # a login is always reachable
    return found


def _state(recipient: Recipient) -> dict:
    pair = keys()
    return {
        "public_key": pair.public if pair else None,
        "push_on": recipient.push_on,
        "devices": push.devices_of(recipient),
    }


class PushView(APIView):
    """The signed-in person's phones for push messages."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PushStateSerializer, 403: ErrorSerializer})
    def get(self, request):
        return Response(PushStateSerializer(_state(_me(request))).data)

    @extend_schema(
        request=SubscribeSerializer,
        responses={200: DeviceSerializer, 201: DeviceSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request):
        data = SubscribeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        subscription, created = push.push_subscribe(
            recipient=_me(request),
            endpoint=given["endpoint"],
            p256dh=given["keys"]["p256dh"],
            auth=given["keys"]["auth"],
            user_agent=given.get("user_agent") or request.headers.get("User-Agent", ""),
        )
        return Response(DeviceSerializer(subscription).data, status=201 if created else 200)

    @extend_schema(
        request=UnsubscribeSerializer, responses={204: None, 404: ErrorSerializer, **ERRORS}
    )
    def delete(self, request):
        data = UnsubscribeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        push.push_unsubscribe(recipient=_me(request), endpoint=data.validated_data["endpoint"])
        return Response(status=204)
