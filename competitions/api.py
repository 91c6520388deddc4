"""The competitions API: competitions, entries, the draw (commit, reveal, perform), rounds,
ties (paper results, sign-off, pad frames, awards, walkovers, withdrawals), the bracket and
the group tables. Thin views: look up, ask the permission on the object, one service or
selector. Errors are the API's one shape."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.models import Season
from leagues.serializers import ErrorSerializer

from . import selectors
from . import serializers as s
from .models import Competition, Entry, Round, Tie
from .services.draws import draw_commit, draw_perform, draw_reveal, knockout_draw_from_groups
from .services.entries import entry_create, entry_mark_paid, entry_set_start, entry_withdraw
from .services.pad import tie_confirm, tie_frame_open
from .services.setup import competition_create
from .services.ties import round_set_dates, tie_award, tie_record_paper, tie_walkover, tie_withdraw

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
CONFLICT = {
    **ERRORS,
    409: OpenApiResponse(ErrorSerializer, description="Not now: the state forbids it."),
}


class SeasonCompetitionsView(APIView):
    """A season's competitions (anyone); the competitions secretary creates one."""

    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: s.CompetitionSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        rows = selectors.competitions_of(season).annotate(
            entry_count=Count("entries", filter=Q(entries__status="entered"))
        )
        return Response(s.CompetitionSerializer(rows, many=True).data)

    @extend_schema(
        request=s.CompetitionCreateSerializer, responses={201: s.CompetitionSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = s.CompetitionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = competition_create(
            actor=request.user, season=get_object_or_404(Season, pk=pk), **data.validated_data
        )
        return Response(s.CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class CompetitionView(APIView):
    @extend_schema(responses={200: s.CompetitionSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.CompetitionSerializer(get_object_or_404(Competition, pk=pk)).data)


class EntriesView(APIView):
    """A competition's entries (anyone); enter one (the secretary, or while entries are
    open the player, pair or team captain; eligibility refusals name the rule)."""

    write_permission = "competitions.enter"

    @extend_schema(responses={200: s.EntrySerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        competition = get_object_or_404(Competition, pk=pk)
        return Response(s.EntrySerializer(selectors.entries_of(competition), many=True).data)

    @extend_schema(request=s.EntryCreateSerializer, responses={201: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        competition = get_object_or_404(Competition, pk=pk)
        data = s.EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_create(actor=request.user, competition=competition, **data.validated_data)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class _EntryCommand(APIView):
    """A command on one entry: the entry is read once, for the permission and the write."""

    def entry(self) -> Entry:
        if not hasattr(self, "_entry"):
            self._entry = get_object_or_404(
                Entry.objects.select_related("competition", "team", "player", "partner"),
                pk=self.kwargs["pk"],
            )
        return self._entry

    def get_permission_object(self):
        return self.entry().competition  # the secretary's commands


class EntryWithdrawView(_EntryCommand):
    """Withdraw an entry (its player or captain, or the secretary)."""

    write_permission = "competitions.manage_entry"

    def get_permission_object(self):
        return self.entry()

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        entry = entry_withdraw(actor=request.user, entry=self.entry())
        return Response(s.EntrySerializer(entry).data)


class EntryPaidView(_EntryCommand):
    """Record an entry's fee as paid or unpaid (the secretary)."""

    write_permission = "competitions.manage"

    @extend_schema(request=s.PaidSerializer, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.PaidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_mark_paid(
            actor=request.user, entry=self.entry(), paid=data.validated_data["paid"]
        )
        return Response(s.EntrySerializer(entry).data)


class EntryStartView(_EntryCommand):
    """Set an entrant's handicap start, points a frame (the secretary)."""

    write_permission = "competitions.manage"

    @extend_schema(request=s.StartSerializer, responses={200: s.EntrySerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.StartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_set_start(
            actor=request.user, entry=self.entry(), start=data.validated_data["start"]
        )
        return Response(s.EntrySerializer(entry).data)


class _SecretaryCommand(APIView):
    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(Competition, pk=self.kwargs["pk"])


class DrawCommitView(_SecretaryCommand):
    """The secretary commits to a secret for the draw's seed; the server commits too."""

    @extend_schema(request=s.CommitSerializer, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.CommitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = draw_commit(
            actor=request.user, competition=self.get_permission_object(), **data.validated_data
        )
        return Response(s.DrawSerializer(competition).data)


class DrawRevealView(_SecretaryCommand):
    """The secretary reveals the secret committed to."""

    @extend_schema(request=s.RevealSerializer, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.RevealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = draw_reveal(
            actor=request.user, competition=self.get_permission_object(), **data.validated_data
        )
        return Response(s.DrawSerializer(competition).data)


class DrawView(_SecretaryCommand):
    """The draw (anyone reads its seed, algorithm, secrets once drawn, and the command that
    replays it); the secretary performs it."""

    @extend_schema(responses={200: s.DrawSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.DrawSerializer(get_object_or_404(Competition, pk=pk)).data)

    @extend_schema(request=None, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        competition = draw_perform(actor=request.user, competition=self.get_permission_object())
        return Response(s.DrawSerializer(competition).data)


class KnockoutDrawView(_SecretaryCommand):
    """A group event's knock-out, drawn from the group tables' qualifiers."""

    @extend_schema(request=None, responses={200: s.DrawSerializer, **CONFLICT})
    def post(self, request, pk: int):
        competition = knockout_draw_from_groups(
            actor=request.user, competition=self.get_permission_object()
        )
        return Response(s.DrawSerializer(competition).data)


class BracketView(APIView):
    """The whole knock-out bracket: every round, every tie, entrants and results."""

    @extend_schema(responses={200: s.BracketSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(
            s.BracketSerializer(selectors.bracket(get_object_or_404(Competition, pk=pk))).data
        )


class GroupsView(APIView):
    """Every group's table, each row explaining its place, with the group's matches."""

    @extend_schema(responses={200: s.GroupTableSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        tables = selectors.group_tables(get_object_or_404(Competition, pk=pk))
        return Response(s.GroupTableSerializer(tables, many=True).data)


class RoundView(APIView):
    """A round (anyone); the secretary sets its date and deadline."""

    write_permission = "competitions.manage"

    def get_permission_object(self):
        return get_object_or_404(
            Round.objects.select_related("competition"), pk=self.kwargs["pk"]
        ).competition

    @extend_schema(responses={200: s.RoundSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(s.RoundSerializer(get_object_or_404(Round, pk=pk)).data)

    @extend_schema(request=s.RoundDatesSerializer, responses={200: s.RoundSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = s.RoundDatesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_set_dates(
            actor=request.user,
            round=get_object_or_404(Round.objects.select_related("competition"), pk=pk),
            **data.validated_data,
        )
        return Response(s.RoundSerializer(rnd).data)


def _tie(pk: int) -> Tie:
    return get_object_or_404(
        Tie.objects.select_related("competition__season", "round", "group", *selectors.TIE_JOINS),
        pk=pk,
    )


class TieView(APIView):
    """A tie with its frames."""

    @extend_schema(responses={200: s.TieDetailSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        try:
            tie = selectors.tie_detail(pk)
        except Tie.DoesNotExist:
            raise Http404 from None
        return Response(s.TieDetailSerializer(tie).data)


class _TieCommand(APIView):
    write_permission = "competitions.play_tie"

    def get_permission_object(self):
        return _tie(self.kwargs["pk"])


class TieResultView(_TieCommand):
    """An individual tie's frames from the paper scoresheet (a player's entry waits for
    the other side's confirmation; the secretary's counts at once)."""

    @extend_schema(
        request=s.PaperResultSerializer, responses={200: s.TieDetailSerializer, **CONFLICT}
    )
    def post(self, request, pk: int):
        data = s.PaperResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie_record_paper(
            actor=request.user,
            tie=self.get_permission_object(),
            frames=data.validated_data["frames"],
        )
        return Response(s.TieDetailSerializer(selectors.tie_detail(pk)).data)


class TieConfirmView(_TieCommand):
    """A side signs off the tie's frames (scored on the pad, or keyed in by the other)."""

    @extend_schema(request=None, responses={200: s.TieDetailSerializer, **CONFLICT})
    def post(self, request, pk: int):
        tie_confirm(actor=request.user, tie=self.get_permission_object())
        return Response(s.TieDetailSerializer(selectors.tie_detail(pk)).data)


class TieFrameOpenView(_TieCommand):
    """Open the tie's next frame on the pad (`frame` is the pad's frame id)."""

    @extend_schema(request=None, responses={201: s.TieFrameSerializer, **CONFLICT})
    def post(self, request, pk: int):
        tf = tie_frame_open(actor=request.user, tie=self.get_permission_object())
        return Response(s.TieFrameSerializer(tf).data, status=status.HTTP_201_CREATED)


class _TieSecretaryCommand(APIView):
    write_permission = "competitions.manage"

    def get_permission_object(self):
        return _tie(self.kwargs["pk"])


class TieAwardView(_TieSecretaryCommand):
    """Award a tie not played by its deadline, with a reason."""

    @extend_schema(request=s.AwardSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.AwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_award(actor=request.user, tie=self.get_permission_object(), **data.validated_data)
        return Response(s.TieSerializer(tie).data)


class TieWalkoverView(_TieSecretaryCommand):
    """Record a walkover, with a reason."""

    @extend_schema(request=s.AwardSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.AwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_walkover(
            actor=request.user, tie=self.get_permission_object(), **data.validated_data
        )
        return Response(s.TieSerializer(tie).data)


class TieWithdrawView(_TieSecretaryCommand):
    """Record one side's withdrawal from a tie: the other goes through."""

    @extend_schema(request=s.WithdrawSerializer, responses={200: s.TieSerializer, **CONFLICT})
    def post(self, request, pk: int):
        data = s.WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie = tie_withdraw(
            actor=request.user, tie=self.get_permission_object(), **data.validated_data
        )
        return Response(s.TieSerializer(tie).data)
