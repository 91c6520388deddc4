"""A match's result follows its frames. The one place that adds frames up (the tally), keeps
a match's result and status in step when a frame starts, ends or is corrected, and writes
a confirmed result onto its fixture (a cup fixture's then decides its tie, through the
competitions core). The pad, match night and paper entry all call it; it calls nothing
above it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from competitions.results import tie_fixture_result
from leagues.fixtures.services import fixture_record_result
from marker.formats import sections_won

from . import announce
from .models import SIDES, Frame, Match, MatchLog, Side
from .ratings.tasks import frames_changed, match_result_counted
from .stats.tasks import record_frame_stats

User = Any  # settings.AUTH_USER_MODEL instance (or None for the system)


HALF = Decimal("0.5")


DONE = (Frame.Status.COMPLETE, Frame.Status.CONCEDED)


@dataclass(frozen=True)
class Tally:
    """A match result from its frames: frames won (a shared frame is half each) and the
    aggregate of the frame scores. `finished` when every frame is complete or conceded."""

    home_frames: Decimal
    away_frames: Decimal
    home_score: int
    away_score: int
    finished: bool
    started: bool

    @property
    def frames_display(self) -> str:
        def fmt(value: Decimal) -> str:
            return f"{value.normalize():f}".replace(".5", "½").replace("0½", "½")

        return f"{fmt(self.home_frames)}–{fmt(self.away_frames)}"


def frame_winner(frame: Frame) -> str:
    """The side that takes the frame ("" for none: unplayed, shared, or both conceded)."""
    if frame.status == Frame.Status.CONCEDED:
        return {"home": Side.AWAY, "away": Side.HOME}.get(frame.conceded_by, "")
    if frame.status == Frame.Status.COMPLETE and not frame.shared:
        return frame.winner
    return ""


def tally(frames: Iterable[Frame]) -> Tally:
    """Add the frames up. A conceded frame is won by the side that did not concede (by
    nobody when both did) and adds no points; a shared frame is half a frame each.

    >>> f = Frame(status="complete", home_score=1200, away_score=1200, shared=True)
    >>> g = Frame(status="conceded", conceded_by="away")
    >>> t = tally([f, g])
    >>> (t.home_frames, t.away_frames, t.home_score, t.away_score, t.finished)
    (Decimal('1.5'), Decimal('0.5'), 1200, 1200, True)
    """
    won: dict[str, Decimal] = {Side.HOME: Decimal(0), Side.AWAY: Decimal(0)}
    score: dict[str, int] = {Side.HOME: 0, Side.AWAY: 0}
    finished, started, count = True, False, 0
    for frame in frames:
        count += 1
        if frame.status not in DONE:
            finished = False
        if frame.status in (Frame.Status.IN_PLAY, Frame.Status.COMPLETE):
            started = True
        if frame.status == Frame.Status.COMPLETE:
            score[Side.HOME] += frame.home_score or 0
            score[Side.AWAY] += frame.away_score or 0
            if frame.shared:
                won[Side.HOME] += HALF
                won[Side.AWAY] += HALF
        winner = frame_winner(frame)
        if winner:
            won[winner] += 1
    return Tally(
        won[Side.HOME],
        won[Side.AWAY],
        score[Side.HOME],
        score[Side.AWAY],
        finished and count > 0,
        started,
    )


def lock_match(match: Match, *, frames: bool = False) -> Match:
    """The match row, locked for this transaction (two captains press at once).

    With `frames`, the match's frames are locked first: the pad locks a frame, then the
    match (frames.events.frame_confirm), so every service takes them in that order.
    """
    if frames:
        list(
            Frame.objects.select_for_update()
            .filter(match_id=match.pk)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    return (
        Match.objects.select_for_update(of=("self",))
        # The season's registration rules come along (match night asks them; no row: none).
        .select_related(
            "fixture__home",
            "fixture__away",
            "fixture__season__league",
            "fixture__season__registration_rules",
        )
        .get(pk=match.pk)
    )


def clear_confirmations(match: Match) -> list[str]:
    cleared = []
    for side in SIDES:
        if getattr(match, f"{side}_confirmed_at") is not None:
            setattr(match, f"{side}_confirmed_by", None)
            setattr(match, f"{side}_confirmed_at", None)
            cleared.append(side)
    return cleared


def update_result(match: Match) -> Match:
    if match.status in (Match.Status.SETUP, Match.Status.CONFIRMED):
        return match
    frames = list(Frame.objects.filter(match=match))
    result = tally(frames)
    match.home_frames, match.away_frames = result.home_frames, result.away_frames
    match.home_score, match.away_score = result.home_score, result.away_score
    fields = ["home_frames", "away_frames", "home_score", "away_score"]
    if match.status != Match.Status.DISPUTED:
        if result.finished:
            status = Match.Status.COMPLETE
        elif result.started:
            status = Match.Status.IN_PLAY
        else:
            status = Match.Status.DRAWN
        if status == Match.Status.COMPLETE and match.status != status:
            finished = [f.completed_at for f in frames if f.completed_at]
            match.completed_at = max(finished) if finished else timezone.now()
            fields.append("completed_at")
            MatchLog.add(
                match,
                None,
                "completed",
                match.completed_at,
                home_frames=str(result.home_frames),
                away_frames=str(result.away_frames),
                home_score=result.home_score,
                away_score=result.away_score,
            )
        elif status != Match.Status.COMPLETE:
            if match.completed_at is not None:
                match.completed_at = None
                fields.append("completed_at")
            if clear_confirmations(match):
                fields += [
                    "home_confirmed_by",
                    "home_confirmed_at",
                    "away_confirmed_by",
                    "away_confirmed_at",
                ]
        match.status = status
        fields.append("status")
    match.save(update_fields=sorted(set(fields)))
    return match


@transaction.atomic
def match_update_result(*, match: Match) -> Match:
    """Recompute the match result from its frames (frames won, a shared frame being half
    each, and the aggregate score) and its status: drawn, in play, or complete (awaiting
    the captains' confirmation). The pad calls this whenever a frame starts or ends."""
    return update_result(lock_match(match))


def match_sections(match: Match) -> tuple[Decimal, Decimal]:
    """Sections won by each side under the match's format, from its frames (a conceded
    frame goes to the side that did not concede; a level section is half each)."""
    frames = Frame.objects.filter(match=match).only(
        "number", "status", "winner", "shared", "conceded_by"
    )
    return sections_won(
        match.format,
        [
            (f.number, frame_winner(f), f.status == Frame.Status.COMPLETE and f.shared)
            for f in frames
            if f.status in DONE
        ],
    )


def record_result(match: Match, actor: User, now: datetime, how: str) -> Match:
    """The result counts: the match is confirmed and written onto its fixture, and a cup
    fixture's result decides its tie, in this transaction (a refusal undoes the result)."""
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = now
    match.save(update_fields=["status", "confirmed_at"])
    home_sections, away_sections = match_sections(match)
    fixture = fixture_record_result(
        fixture=match.fixture,
        home_frames=match.home_frames,
        away_frames=match.away_frames,
        home_score=match.home_score,
        away_score=match.away_score,
        confirmed_at=now,
        home_sections=home_sections,
        away_sections=away_sections,
    )
    tie_fixture_result(fixture)
    match_result_counted(match, how)  # the ratings from its day on, after commit
    MatchLog.add(
        match,
        actor,
        "result_recorded",
        now,
        how=how,
        home_frames=str(match.home_frames),
        away_frames=str(match.away_frames),
        home_score=match.home_score,
        away_score=match.away_score,
    )
    announce.match_result(match, now)  # the players of both teams, once
    return match


def frame_result_recorded(frame_id: int) -> None:
    """A frame's result was written or changed: its players' statistics and, where it
    counts, the ratings follow, once the transaction commits (Celery tasks; the beat
    healers catch any that is lost)."""
    record_frame_stats.delay_on_commit(frame_id)
    frames_changed([frame_id])
