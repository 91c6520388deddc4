"""Results and sign-off: paper scores keyed in, each captain's confirmation or dispute,
the secretary's settlement, and confirmation once the league's period has passed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from frames import announce
from frames.engine import game_of
from frames.models import (
    SIDES,
    Frame,
    FrameEvent,
    Match,
    MatchLog,
    Side,
)
from frames.results import (
    clear_confirmations,
    frame_result_recorded,
    lock_match,
    record_result,
    tally,
    update_result,
)
from frames.selectors import matches_awaiting_confirmation
from leagues.models import MAX_FRAME_SCORE
from marker.errors import DomainError
from marker.permissions import allowed, require

from .common import (
    OPEN,
    User,
    frames_for_update,
    require_captain,
    require_runner,
    require_status,
    resolve_now,
)


def _check_score(value: Any, field: str, *, step: int = 1) -> int:
    """A paper score: a whole number, 0 or more, a multiple of the game's declared
    `score_step` (10 where every hole scores tens; most games score in ones)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % step:
        in_steps = "" if step == 1 else ", in tens" if step == 10 else f", in steps of {step}"
        raise DomainError(
            "bad_score",
            f"A frame score is a whole number of points, 0 or more{in_steps} "
            f"(not {str(value)[:40]!r}).",
            field=field,
        )
    if value > MAX_FRAME_SCORE:
        raise DomainError(
            "bad_score", f"A frame score is at most {MAX_FRAME_SCORE} points.", field=field
        )
    return value


def _key_frame(
    frame: Frame, home_score: int, away_score: int, actor: User, now: datetime, *, allow_shots: bool
) -> dict[str, Any] | None:
    """Write paper scores onto a locked frame; the change for the log, or None."""
    step = game_of(frame).score_step
    _check_score(home_score, "home_score", step=step)
    _check_score(away_score, "away_score", step=step)
    if frame.status == Frame.Status.CONCEDED:
        raise DomainError("frame_conceded", f"Frame {frame.number} was conceded: it has no scores.")
    if not allow_shots and (frame.last_seq > 0 or FrameEvent.objects.filter(frame=frame).exists()):
        raise DomainError(
            "frame_has_shots",
            f"Frame {frame.number} was scored shot by shot on the pad; only the secretary can "
            "replace its result with paper scores.",
            status=403,
        )
    if (
        frame.status == Frame.Status.COMPLETE
        and frame.home_score == home_score
        and frame.away_score == away_score
    ):
        return None
    previous = {
        "status": frame.status,
        "home_score": frame.home_score,
        "away_score": frame.away_score,
        "result_source": frame.result_source,
    }
    frame.home_score, frame.away_score = home_score, away_score
    frame.shared = home_score == away_score
    frame.winner = "" if frame.shared else (Side.HOME if home_score > away_score else Side.AWAY)
    frame.status = Frame.Status.COMPLETE
    frame.result_source = "paper"
    frame.completed_at = now
    frame.save(
        update_fields=[
            "home_score",
            "away_score",
            "shared",
            "winner",
            "status",
            "result_source",
            "completed_at",
        ]
    )
    frame_result_recorded(frame.pk)  # the players' statistics, after commit
    return {
        "frame": frame.number,
        "home_score": home_score,
        "away_score": away_score,
        "previous": previous,
    }


@transaction.atomic
def frame_key_in_paper(
    *, frame: Frame, home_score: int, away_score: int, actor: User, now: datetime | None = None
) -> Frame:
    """Key in one frame's scores from the paper sheet: the frame is complete without
    shots (result_source 'paper'); the winner, or a shared frame, follows from the scores.
    A frame scored on the pad can be overwritten by the secretary only."""
    if frame.match is None:
        raise DomainError("not_a_league_frame", "A friendly game has no paper score sheet.")
    match = match_key_in_paper(
        match=frame.match, scores={frame.number: (home_score, away_score)}, actor=actor, now=now
    )
    return Frame.objects.get(match=match, number=frame.number)


@transaction.atomic
def match_key_in_paper(
    *,
    match: Match,
    scores: Mapping[int, tuple[int, int]],
    actor: User,
    now: datetime | None = None,
) -> Match:
    """Key in frame scores from the paper sheet (frame number → (home, away)), all or
    nothing. A result awaiting confirmation that changes needs confirming again."""
    now = resolve_now(now)
    match = lock_match(match, frames=True)
    require_runner(match, actor, "key in a paper score sheet")
    require_status(match, *OPEN, Match.Status.COMPLETE)
    if not scores:
        raise DomainError("no_scores", "Key in at least one frame's scores.")
    frames = {f.number: f for f in frames_for_update(match)}
    changes = []
    for number, (home_score, away_score) in sorted(scores.items()):
        if number not in frames:
            raise DomainError("no_such_frame", f"This match has no frame {number}.", field="frame")
        change = _key_frame(
            frames[number],
            home_score,
            away_score,
            actor,
            now,
            allow_shots=allowed(actor, "frames.replace_pad_result", match),
        )
        if change:
            changes.append(change)
    if not changes:
        return match
    MatchLog.add(match, actor, "paper_keyed", now, frames=changes)
    if match.status == Match.Status.COMPLETE:
        cleared = clear_confirmations(match)
        if cleared:
            match.save(
                update_fields=[
                    "home_confirmed_by",
                    "home_confirmed_at",
                    "away_confirmed_by",
                    "away_confirmed_at",
                ]
            )
            MatchLog.add(
                match,
                actor,
                "confirmations_cleared",
                now,
                sides=cleared,
                reason="the result changed",
            )
    match = update_result(match)
    if match.status == Match.Status.COMPLETE:
        # The side that keyed the sheet in asks the other to confirm (the secretary: both).
        keyed_by = [s for s in SIDES if match.team(s).is_captain(actor)]
        waiting = [announce.other(keyed_by[0])] if len(keyed_by) == 1 else list(SIDES)
        announce.result_to_confirm(match, waiting, now)
    return match


def _require_complete(match: Match) -> None:
    if match.status in (Match.Status.DRAWN, Match.Status.IN_PLAY):
        unfinished = (
            Frame.objects.filter(match=match)
            .exclude(status__in=[Frame.Status.COMPLETE, Frame.Status.CONCEDED])
            .values_list("number", flat=True)
        )
        raise DomainError(
            "not_complete",
            f"Frames {', '.join(map(str, sorted(unfinished)))} are not finished yet.",
            status=409,
        )
    require_status(match, Match.Status.COMPLETE)


@transaction.atomic
def match_confirm(*, match: Match, side: str, actor: User, now: datetime | None = None) -> Match:
    """A captain confirms the result for their side. When both have, the result counts:
    it is written onto the fixture (once; confirming again changes nothing)."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "confirm the result for this side")
    if match.status == Match.Status.CONFIRMED:
        return match
    _require_complete(match)
    if getattr(match, f"{side}_confirmed_at") is None:
        setattr(match, f"{side}_confirmed_by", actor)
        setattr(match, f"{side}_confirmed_at", now)
        match.save(update_fields=[f"{side}_confirmed_by", f"{side}_confirmed_at"])
        MatchLog.add(match, actor, "confirmed", now, side=side)
    if match.home_confirmed_at and match.away_confirmed_at:
        record_result(match, actor, now, "both captains confirmed")
    else:
        announce.result_to_confirm(match, [announce.other(side)], now)
    return match


@transaction.atomic
def match_dispute(
    *, match: Match, side: str, actor: User, reason: str, now: datetime | None = None
) -> Match:
    """A captain disputes the result, with a reason; the secretary settles it. The
    result does not count meanwhile, and is never confirmed automatically."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "dispute the result for this side")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", "Say what is wrong with the result.", field="reason")
    if len(reason) > 2000:
        raise DomainError(
            "reason_too_long", "Keep the reason under 2,000 characters.", field="reason"
        )
    if (
        match.status == Match.Status.DISPUTED
        and match.disputed_by == side
        and match.dispute_reason == reason
    ):
        return match
    if match.status != Match.Status.DISPUTED:
        _require_complete(match)
    match.status = Match.Status.DISPUTED
    match.disputed_by, match.dispute_reason, match.disputed_at = side, reason, now
    fields = ["status", "disputed_by", "dispute_reason", "disputed_at"]
    if getattr(match, f"{side}_confirmed_at") is not None:
        setattr(match, f"{side}_confirmed_by", None)
        setattr(match, f"{side}_confirmed_at", None)
        fields += [f"{side}_confirmed_by", f"{side}_confirmed_at"]
    match.save(update_fields=fields)
    MatchLog.add(match, actor, "disputed", now, side=side, reason=reason)
    announce.dispute_raised(match, side, reason, now)
    return match


SETTLE_ACCEPT = "accept"


SETTLE_CORRECT = "correct"


@transaction.atomic
def match_settle(
    *,
    match: Match,
    actor: User,
    decision: str,
    note: str = "",
    scores: Mapping[int, tuple[int, int]] | None = None,
    now: datetime | None = None,
    reopen_confirmed: bool = False,
) -> Match:
    """The secretary settles a disputed (or unconfirmed) result: accept it as it stands,
    or correct frame scores (frame number → (home, away)); either way it is confirmed.
    `reopen_confirmed`: a confirmed match's scores corrected again (only a cup tie's
    correction asks it, `competitions.services.corrections.tie_correct`, which checks what
    the new result would move)."""
    now = resolve_now(now)
    match = lock_match(match, frames=True)
    require(
        actor,
        "frames.settle_dispute",
        match,
        code="not_secretary",
        message="Only the league secretary settles a result.",
    )
    if match.status == Match.Status.CONFIRMED and reopen_confirmed:
        pass
    elif match.status != Match.Status.DISPUTED:
        _require_complete(match)
    if decision not in (SETTLE_ACCEPT, SETTLE_CORRECT):
        raise DomainError("bad_decision", "Decide 'accept' or 'correct'.", field="decision")
    changes = []
    if decision == SETTLE_CORRECT:
        if not scores:
            raise DomainError("no_scores", "Give the corrected frame scores.", field="scores")
        frames = {f.number: f for f in frames_for_update(match)}
        for number, (home_score, away_score) in sorted(scores.items()):
            if number not in frames:
                raise DomainError(
                    "no_such_frame", f"This match has no frame {number}.", field="frame"
                )
            change = _key_frame(
                frames[number], home_score, away_score, actor, now, allow_shots=True
            )
            if change:
                changes.append(change)
        result = tally(frames.values())
        if not result.finished:
            raise DomainError("not_complete", "Every frame needs a result before settling.")
        match.home_frames, match.away_frames = result.home_frames, result.away_frames
        match.home_score, match.away_score = result.home_score, result.away_score
        match.save(update_fields=["home_frames", "away_frames", "home_score", "away_score"])
    MatchLog.add(
        match,
        actor,
        "settled",
        now,
        decision=decision,
        note=note.strip(),
        corrections=changes,
        dispute={"side": match.disputed_by, "reason": match.dispute_reason},
    )
    was_disputed = match.status == Match.Status.DISPUTED
    match = record_result(match, actor, now, f"settled by the secretary ({decision})")
    if was_disputed:
        announce.dispute_settled(match, decision, now)
    return match


@transaction.atomic
def match_autoconfirm(*, match: Match, now: datetime | None = None) -> Match:
    """Confirm one complete, undisputed result whose confirmation period has passed."""
    now = resolve_now(now)
    match = lock_match(match)
    if match.status != Match.Status.COMPLETE or match.completed_at is None:
        return match
    hours = match.fixture.season.league.confirm_after_hours
    if match.completed_at + timedelta(hours=hours) > now:
        return match
    MatchLog.add(
        match,
        None,
        "auto_confirmed",
        now,
        after_hours=hours,
        confirmed_by=[s for s in SIDES if getattr(match, f"{s}_confirmed_at")],
    )
    return record_result(match, None, now, f"confirmed automatically after {hours} hours")


def match_autoconfirm_due(*, now: datetime | None = None) -> list[Match]:
    """Confirm every complete, undisputed result older than its league's period
    (League.confirm_after_hours, 48 by default). Each match is its own transaction, so
    one failure does not hold the others back; running it twice changes nothing."""
    now = resolve_now(now)
    confirmed = []
    for match in matches_awaiting_confirmation():
        hours = match.fixture.season.league.confirm_after_hours
        if match.completed_at is not None and match.completed_at + timedelta(hours=hours) <= now:
            match = match_autoconfirm(match=match, now=now)
            if match.status == Match.Status.CONFIRMED and match.confirmed_at == now:
                confirmed.append(match)
    return confirmed
