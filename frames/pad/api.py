"""The referee pad's API: append events to a frame's log, read its state and events, the
game's vocabulary, a match's live summary, and the pad's session (a fresh CSRF token).

Views stay thin: look the frame up (404), check `frames.enter_event` on writes (403), then
call one service or selector. Anyone may read.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import SAFE_METHODS, AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from frames import live
from frames.models import Frame, Match
from leagues.serializers import ErrorSerializer
from marker.session_user import accept_session_user, session_identity, session_user_id
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


class FrameWriteView(APIView):
    """A write to a frame that reads the signed-in user in the same statement as the frame
    and its permission facts (`selectors.frame_and_user_for_write`): with cached sessions
    a shot reads the database once before its append. The user is checked as Django's
    `get_user` checks it (`marker.session_user`) and becomes `request.user` before DRF's
    session authentication (and its CSRF check) runs; when the check does not hold, or the
    session is anonymous, Django's ordinary lazy user decides."""

    def initial(self, request, *args, **kwargs):
        pk = kwargs.get("pk")
        if request.method not in SAFE_METHODS and pk is not None:
            django_request = request._request
            user_id = session_user_id(django_request)
            if user_id is not None:
                found = selectors.frame_and_user_for_write(pk, user_id)
                if found is None:
                    django_request._marker_write_frame = None  # no such frame: 404
                else:
                    frame, user = found
                    django_request._marker_write_frame = frame
                    accept_session_user(django_request, user)
        super().initial(request, *args, **kwargs)


def _frame_for_write(view: APIView, request, pk: int) -> Frame:
    frame: Frame | None
    if hasattr(request._request, "_marker_write_frame"):  # read in `FrameWriteView.initial`
        frame = request._request._marker_write_frame
    else:
        frame = selectors.frame_for_write(pk)
    if frame is None:
        raise exceptions.NotFound("No such frame.")
    if not request.user.has_perm(ENTER, frame):
        view.permission_denied(
            request, message="Only the frame's referee, a captain or the secretary may do this."
        )
    return frame


class FrameEventsView(FrameWriteView):
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
    """What the pad shows: the frame's head, sides, recent events; ETag/304 for polling.

    The ETag comes from the frame's version in the cache (`frames.live`) and who asks: a
    poll whose ETag still holds is answered 304 before DRF, without a query. What every
    viewer sees is built once per change and kept; `can_enter` is added per viewer."""

    permission_classes = [AllowAny]

    def dispatch(self, request, *args, **kwargs):
        self.live_etag = None
        if request.method == "GET" and not wants_html(request):
            who = session_identity(request)
            tag = selectors.live_tokens(live.frame_key(kwargs["pk"])) if who else None
            if who and tag is not None:
                self.live_etag = selectors.frame_state_etag(kwargs["pk"], tag, who)
                self.live_tag = tag
                if _not_modified(request, self.live_etag):
                    return _answer_not_modified(self.live_etag)
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(responses={200: FrameStateSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request, pk: int):
        if self.live_etag is not None:
            try:
                shared, built = selectors.frame_state_shared(pk, self.live_tag)
            except Frame.DoesNotExist:
                raise exceptions.NotFound("No such frame.") from None
            can_enter = False
            if request.user.is_authenticated:
                frame = selectors.frame_for_write(pk)
                can_enter = frame is not None and request.user.has_perm(ENTER, frame)
            response = Response({**shared, "can_enter": can_enter})
            return _with_etag(response, self.live_etag, built)
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


class FrameConfirmView(FrameWriteView):
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
    """Every frame of a match: players, scores, the break. ETag/304 for polling.

    Answered before DRF when the match's version is in the cache (`frames.live`): a 304
    without a query or a session, or the JSON built once per change and shared by every
    spectator. Without the cache, the body is built and its ETag is a hash of it."""

    permission_classes = [AllowAny]
    authentication_classes: list = []  # the same for everyone: no session, no user

    def dispatch(self, request, *args, **kwargs):
        tried = getattr(request, "live_answer_tried", False)  # by LivePolls, which stepped aside
        if request.method == "GET" and not tried and not wants_html(request):
            answer = live_match_answer(request, kwargs["pk"])
            if answer is not None:
                return answer
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(responses={200: MatchLiveSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request, pk: int):
        try:
            body = selectors.match_live(pk)
        except Match.DoesNotExist:
            raise exceptions.NotFound("No such match.") from None
        return _conditional(request, selectors.body_etag(body), lambda: body)


def wants_html(request) -> bool:
    """A browser opening the URL itself gets DRF's page (the slow path)."""
    return "text/html" in request.headers.get("Accept", "")


def _answer_not_modified(etag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept, Cookie"
    return response


def _with_etag(response, etag: str, built: bool):
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # Whether this answer built the body or served the one kept for this version.
    response["Server-Timing"] = "live;desc=built" if built else "live;desc=kept"
    return response


def live_match_answer(request, pk: int) -> HttpResponse | None:
    tag = selectors.live_tokens(live.match_key(pk))
    if tag is None:
        return None
    etag = selectors.match_live_etag(pk, tag)
    if _not_modified(request, etag):
        return _answer_not_modified(etag)
    try:
        body, built = selectors.match_live_json(pk, tag)
    except Match.DoesNotExist:
        return None  # DRF's path answers the 404
    response = HttpResponse(body, content_type="application/json")
    response["Vary"] = "Accept"
    return _with_etag(response, etag, built)


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
