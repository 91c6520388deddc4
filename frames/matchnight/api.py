"""The match-night API. Reading a match is public; each command is its own view with an
input serializer, answers with the whole match, and refuses with
`{"error": code, "message": text}` (400 bad input, 403 not yours to do, 404, 409 not now)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from frames import selectors
from frames.models import Frame, Match
from leagues.models import Fixture, Player
from leagues.serializers import ErrorSerializer
from marker.errors import DomainError

from . import drawing, eligibility, nominating, ordering, seeding, signoff, squads
from .serializers import (
    CommitInputSerializer,
    DisputeInputSerializer,
    IneligibleDecideInputSerializer,
    IneligibleFrameSerializer,
    MatchSerializer,
    NominationInputSerializer,
    PaperInputSerializer,
    PresenceInputSerializer,
    RefereeInputSerializer,
    ReorderInputSerializer,
    RevealInputSerializer,
    SettleInputSerializer,
    SideInputSerializer,
)

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input (a stable `error` code)."),
    403: OpenApiResponse(ErrorSerializer, description="Not yours to do (e.g. `not_captain`)."),
    404: OpenApiResponse(ErrorSerializer, description="No such match."),
    409: OpenApiResponse(ErrorSerializer, description="Not at this stage of the night."),
}


def match_response(match: Match, code: int = status.HTTP_200_OK) -> Response:
    return Response(MatchSerializer(selectors.match_detail(match.pk)).data, status=code)


class MatchDetailView(APIView):
    """A match night: squads, commitments, the draw, the scorecard and the result."""

    @extend_schema(responses={200: MatchSerializer, 404: ERRORS[404]})
    def get(self, request, pk: int):
        return match_response(get_object_or_404(Match, pk=pk))


class MatchOpenView(APIView):
    """Open the fixture's match night (or get it, if already open)."""

    write_permission = "frames.open_match"

    def get_permission_object(self) -> Fixture:
        return get_object_or_404(
            Fixture.objects.select_related("home", "away", "season__league"), pk=self.kwargs["pk"]
        )

    @extend_schema(request=None, responses={201: MatchSerializer, 200: MatchSerializer, **ERRORS})
    def post(self, request, pk: int):
        fixture = self.get_permission_object()
        existed = Match.objects.filter(fixture=fixture).exists()
        match = squads.match_open(fixture=fixture, actor=request.user)
        return match_response(match, status.HTTP_200_OK if existed else status.HTTP_201_CREATED)


class MatchCommand(APIView):
    """A command on a match: permission on the match, parse the input, call the service."""

    write_permission = "frames.run_match"
    input_serializer: type | None = None

    def get_permission_object(self) -> Match:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(selectors.match_qs(), pk=self.kwargs["pk"])
        return self._match

    def perform(self, match: Match, data, request, serializer) -> Match:
        raise NotImplementedError

    def post(self, request, pk: int, **kwargs):
        match = self.get_permission_object()
        data, serializer = {}, None
        if self.input_serializer is not None:
            serializer = self.input_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
        self.perform(match, data, request, serializer)
        return match_response(match)


def command_schema(input_serializer, description: str):
    return extend_schema(
        request=input_serializer,
        responses={200: MatchSerializer, **ERRORS},
        description=description,
    )


class PresenceView(MatchCommand):
    input_serializer = PresenceInputSerializer

    @command_schema(
        PresenceInputSerializer,
        "Set who is present for a side (that side's captain, or the secretary). Players "
        "come from the roster, or are drafted under rule 8 (`plays_for_another_team`).",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        squads.match_mark_present(
            match=match,
            side=data["side"],
            players=data["players"],
            new_players=data["new_players"],
            actor=request.user,
        )


class NominationView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = NominationInputSerializer

    @command_schema(
        NominationInputSerializer,
        "A captain submits their side's nomination: `sections` (captains' blind "
        "nomination) or `lineup` (fixed order). Sealed until both are in: the answer shows "
        "only its commitment until then.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        sections, lineup = data.get("sections"), data.get("lineup")
        ids = list(lineup or []) + [
            pk for section in sections or [] for frame in section for pk in frame
        ]
        players = Player.objects.in_bulk(ids)
        missing = sorted(set(ids) - set(players))
        if missing:
            raise DomainError("unknown_player", f"No player has id {missing[0]}.", field="sections")
        nominating.match_nominate(
            match=match,
            side=data["side"],
            actor=request.user,
            lineup=None if lineup is None else [players[pk] for pk in lineup],
            sections=None
            if sections is None
            else [[[players[pk] for pk in frame] for frame in section] for section in sections],
        )


class CommitView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = CommitInputSerializer

    @command_schema(
        CommitInputSerializer,
        "A captain is Ready: commit to a secret for the seed (SHA-256 hex). Without a "
        "commitment the server makes the secret for the captain.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        seeding.match_commit(
            match=match, side=data["side"], commitment=data["commitment"], actor=request.user
        )


class RevealView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = RevealInputSerializer

    @command_schema(
        RevealInputSerializer,
        "Reveal the secret committed to, once all three commitments are in "
        "(`not_all_committed`); a secret that does not match is refused (`reveal_mismatch`).",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        seeding.match_reveal(
            match=match, side=data["side"], secret=data["secret"], actor=request.user
        )


class AgreeShortView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = SideInputSerializer

    @command_schema(
        SideInputSerializer,
        "A captain agrees to play although a side has fewer than five (rule 8).",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        squads.match_agree_short(match=match, side=data["side"], actor=request.user)


class DrawView(MatchCommand):
    @command_schema(
        None,
        "Draw the nine frames: the server reveals its secret and the seed is derived from "
        "all three (`not_all_committed`, `not_revealed`, `too_few_players`).",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        drawing.match_draw(match=match, actor=request.user)


class RedrawView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = SideInputSerializer

    @command_schema(
        SideInputSerializer,
        "A captain asks for a re-draw; when both have asked (and no frame has started) the "
        "draw is set aside and the captains commit afresh.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        drawing.match_request_redraw(match=match, side=data["side"], actor=request.user)


class ReorderView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = ReorderInputSerializer

    @command_schema(
        ReorderInputSerializer,
        "A captain proposes another order of play; the other captain accepts or rejects it.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        ordering.match_reorder(
            match=match, side=data["side"], order=data["order"], actor=request.user
        )


class ReorderAcceptView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = SideInputSerializer

    @command_schema(SideInputSerializer, "The other captain accepts the proposed order of play.")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        ordering.match_reorder_accept(match=match, side=data["side"], actor=request.user)


class ReorderRejectView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = SideInputSerializer

    @command_schema(
        SideInputSerializer, "Turn down (or, for its author, withdraw) the proposed order."
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        ordering.match_reorder_reject(match=match, side=data["side"], actor=request.user)


class RefereeView(MatchCommand):
    input_serializer = RefereeInputSerializer

    @command_schema(
        RefereeInputSerializer,
        "Appoint a frame's referee: a present player who does not play in it "
        "(`referee_plays_frame`, `not_present`).",
    )
    def post(self, request, pk: int, number: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        frame = get_object_or_404(Frame, match=match, number=self.kwargs["number"])
        drawing.match_set_referee(frame=frame, player=data["player"], actor=request.user)


class PaperView(MatchCommand):
    input_serializer = PaperInputSerializer

    @command_schema(
        PaperInputSerializer,
        "Key in frame scores from the paper score sheet (all or nothing): each frame is "
        "complete without shots. Frames scored on the pad: the secretary only.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        signoff.match_key_in_paper(match=match, scores=serializer.scores(), actor=request.user)


class ConfirmView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = SideInputSerializer

    @command_schema(
        SideInputSerializer,
        "A captain confirms the result for their side; once both have, it counts.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        signoff.match_confirm(match=match, side=data["side"], actor=request.user)


class DisputeView(MatchCommand):
    write_permission = "frames.captain_match"
    input_serializer = DisputeInputSerializer

    @command_schema(DisputeInputSerializer, "A captain disputes the result, with a reason.")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        signoff.match_dispute(
            match=match, side=data["side"], reason=data["reason"], actor=request.user
        )


class SettleView(MatchCommand):
    write_permission = "frames.settle_dispute"
    input_serializer = SettleInputSerializer

    @command_schema(
        SettleInputSerializer,
        "The secretary settles the result: accept it, or correct frame scores; it is then "
        "confirmed and written onto the fixture.",
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def perform(self, match, data, request, serializer):
        signoff.match_settle(
            match=match,
            actor=request.user,
            decision=data["decision"],
            note=data["note"],
            scores=serializer.scores(),
        )


class IneligibleFramesView(APIView):
    """Sign-off's eligibility check: the frames played by players the season's
    registration rules did not allow, each with its rule and penalty and the secretary's
    decision. Read by the match's captains and the secretary; decided by the secretary
    (`forfeit`: the frame goes to the opponents and the result is corrected and confirmed;
    `waive`: it stands)."""

    write_permission = "frames.settle_dispute"

    def get_permission_object(self) -> Match:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(selectors.match_qs(), pk=self.kwargs["pk"])
        return self._match

    def _flags(self, match: Match) -> Response:
        flags = eligibility.ineligible_frames(match)
        return Response(IneligibleFrameSerializer([f.as_dict() for f in flags], many=True).data)

    @extend_schema(responses={200: IneligibleFrameSerializer(many=True), **ERRORS})
    def get(self, request, pk: int):
        match = self.get_permission_object()
        if not request.user.has_perm("frames.run_match", match):
            raise DomainError(
                "not_captain",
                "Only a captain of either team or the secretary sees the eligibility check.",
                status=403,
            )
        return self._flags(match)

    @extend_schema(
        request=IneligibleDecideInputSerializer,
        responses={200: IneligibleFrameSerializer(many=True), **ERRORS},
    )
    def post(self, request, pk: int):
        match = self.get_permission_object()
        data = IneligibleDecideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = eligibility.match_ineligible_decide(
            match=match,
            frame_number=data.validated_data["frame"],
            player=data.validated_data["player"],
            decision=data.validated_data["decision"],
            note=data.validated_data["note"],
            actor=request.user,
        )
        return self._flags(match)
