"""The referee pad's API: append events to a frame's log, read its state and events, the
game's vocabulary, a match's live summary, and the pad's session (a fresh CSRF token).

Views stay thin: look the frame up (404), check `frames.enter_event` on writes (403), then
call one service or selector. Anyone may read.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from frames.models import Frame, Match, MatchLog
from leagues.serializers import ErrorSerializer
from rules import registry

from . import events, selectors
from .serializers import (
    ConfirmInSerializer,
    ConflictSerializer,
    EventAnswerSerializer,
    EventInSerializer,
    EventListSerializer,
    FrameStateSerializer,
    MatchLiveSerializer,
    PadSessionSerializer,
    RefusalSerializer,
    ReusedSerializer,
)

ENTER = "frames.enter_event"
NOT_MODIFIED = OpenApiResponse(description="Not modified (If-None-Match matched the ETag).")


def _opaque(tag: str) -> str:
    """An entity tag without its weak mark and quotes: If-None-Match compares weakly
    (RFC 9110 13.1.2), and a proxy that compresses the body (nginx's gzip, deploy/)
    hands the client our strong tag made weak."""
    return tag.removeprefix("W/").strip('"')


def _not_modified(request, etag: str) -> bool:
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or _opaque(etag) in {_opaque(t) for t in tags}


def _conditional(request, etag: str, build) -> Response:
    """200 with the body `build()` makes, or 304 when the client holds this ETag."""
    response = Response(status=304) if _not_modified(request, etag) else Response(build())
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _frame_for_write(view: APIView, request, pk: int) -> Frame:
    frame = selectors.frame_for_write(pk)
    if frame is None:
        raise exceptions.NotFound("No such frame.")
    if not request.user.has_perm(ENTER, frame):
        view.permission_denied(
            request, message="Only the frame's referee, a captain or the secretary may do this."
        )
    return frame


class FrameEventsView(APIView):
    """A frame's log. GET: the events after `since` (anyone). POST: append one event — the
    frame's referee, a captain of either team or the secretary."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="Events after this seq (0: all).")],
        responses={200: EventListSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request, pk: int):
        frame = Frame.objects.filter(pk=pk).first()
        if frame is None:
            raise exceptions.NotFound("No such frame.")
        try:
            since = max(0, int(request.query_params.get("since", 0)))
        except ValueError:
            raise exceptions.ValidationError({"since": ["An integer is required."]}) from None
        return Response(
            {**selectors.frame_head(frame), "events": selectors.events_since(frame.pk, since, 1000)}
        )

    @extend_schema(
        request=EventInSerializer,
        responses={
            201: OpenApiResponse(EventAnswerSerializer, description="Appended: the new state."),
            200: OpenApiResponse(
                EventAnswerSerializer, description="Already stored: the same answer again."
            ),
            400: OpenApiResponse(
                RefusalSerializer, description="Refused by the rules engine (or invalid input)."
            ),
            403: OpenApiResponse(ErrorSerializer, description="Not allowed, or not signed in."),
            404: OpenApiResponse(ErrorSerializer, description="No such frame."),
            409: OpenApiResponse(
                ConflictSerializer,
                description="Sequence number taken: the current state and the missing events.",
            ),
            422: OpenApiResponse(
                ReusedSerializer, description="Event id already used with another payload."
            ),
        },
    )
    def post(self, request, pk: int):
        frame = _frame_for_write(self, request, pk)
        data = EventInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        answer = events.frame_record_event(
            frame=frame,
            frame_id=frame.pk,
            event_id=values["event_id"],
            expected_seq=values["expected_seq"],
            payload=values["payload"],
            kind=values["kind"],
            user=request.user,
            device_id=values["device_id"],
            now=timezone.now(),
        )
        return Response(answer.body, status=answer.status)


class FrameStateView(APIView):
    """What the pad shows: the frame's head, sides, recent events; ETag/304 for polling."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: FrameStateSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request, pk: int):
        try:
            frame = selectors.frame_for_pad(pk)
        except Frame.DoesNotExist:
            raise exceptions.NotFound("No such frame.") from None
        etag = selectors.frame_etag(frame, request.user.pk or 0)

        def build():
            return {
                **selectors.frame_state(frame),
                "can_enter": request.user.has_perm(ENTER, frame),
            }

        return _conditional(request, etag, build)


class FrameConfirmOutSerializer(serializers.Serializer):
    frame = serializers.IntegerField()
    status = serializers.CharField()
    home_score = serializers.IntegerField(allow_null=True)
    away_score = serializers.IntegerField(allow_null=True)
    winner = serializers.CharField(allow_blank=True)
    shared = serializers.BooleanField()


class FrameConfirmView(APIView):
    """The referee confirms the result shown at `seq`: the frame becomes complete."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=ConfirmInSerializer,
        responses={
            200: FrameConfirmOutSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
            409: ConflictSerializer,
        },
    )
    def post(self, request, pk: int):
        frame = _frame_for_write(self, request, pk)
        data = ConfirmInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        frame = events.frame_confirm(
            frame_id=frame.pk,
            seq=data.validated_data["seq"],
            user=request.user,
            now=timezone.now(),
        )
        return Response(
            {
                "frame": frame.pk,
                "status": frame.status,
                "home_score": frame.home_score,
                "away_score": frame.away_score,
                "winner": frame.winner,
                "shared": frame.shared,
            }
        )


class GameDescribeView(APIView):
    """A game's vocabulary (`python -m rules describe`): what the pad is built from."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer})
    def get(self, request, game_id: str):
        try:
            game = registry.get(game_id)
        except registry.UnknownGame:
            raise exceptions.NotFound("No such game.") from None
        response = Response(game.describe())
        response["Cache-Control"] = "public, max-age=300"
        return response


class MatchLiveView(APIView):
    """Every frame of a match: players, scores, the break. ETag/304 for polling."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchLiveSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request, pk: int):
        try:
            body = selectors.match_live(pk)
        except Match.DoesNotExist:
            raise exceptions.NotFound("No such match.") from None
        return _conditional(request, selectors.body_etag(body), lambda: body)


class PadSessionView(APIView):
    """Who is signed in, and a current CSRF token (it rotates at login): the pad reads it
    before sending queued events after a re-login."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PadSessionSerializer})
    def get(self, request):
        user = request.user
        response = Response(
            {
                "authenticated": bool(user.is_authenticated),
                "username": user.get_username() if user.is_authenticated else None,
                "csrf_token": get_token(request),
            }
        )
        response["Cache-Control"] = "no-store"
        return response


def bench_endpoints_enabled() -> bool:
    """The bench's baseline endpoint is routed only when MARKER_BENCH_ENDPOINTS is set."""
    flag = getattr(settings, "MARKER_BENCH_ENDPOINTS", None)
    if flag is None:
        flag = os.environ.get("MARKER_BENCH_ENDPOINTS", "").lower() in {"1", "true", "yes"}
    return bool(flag)


class BenchInsertView(APIView):
    """Benchmark baseline only (not routed unless MARKER_BENCH_ENDPOINTS=1): the same
    authentication, CSRF and JSON parsing as a shot, then one INSERT."""

    permission_classes = [IsAuthenticated]

    @extend_schema(exclude=True)
    def post(self, request, pk: int):
        MatchLog.objects.create(
            match_id=pk,
            actor=request.user,
            action="bench",
            detail=request.data,
            at=timezone.now(),
        )
        return Response({"ok": True}, status=201)
