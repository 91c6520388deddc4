"""Rounds' dates and ties' results: a paper scoresheet, both sides signing it, and the
secretary's awards, walkovers and withdrawals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from leagues.models import MAX_FRAME_SCORE, Fixture
from marker.errors import DomainError
from marker.permissions import allowed, require

from ..common import log, require_secretary, resolve_now
from ..models import Entry, Group, Round, Tie, TieFrame
from ..permissions import speaks_for_entry
from ..results import lock_tie, tie_decide


@transaction.atomic
def round_set_dates(
    *,
    actor: Any,
    round: Round,
    date: date | None,
    deadline: datetime | None,
    now: datetime | None = None,
) -> Round:
    """The secretary sets a round's date and deadline; the round's cup fixtures take
    the date."""
    now = resolve_now(now)
    require_secretary(actor, round.competition, "set a round's dates")
    round.date = date
    round.deadline = deadline
    round.save(update_fields=["date", "deadline"])
    Fixture.objects.filter(cup_tie__round=round, result_confirmed_at__isnull=True).update(date=date)
    log(
        round.competition,
        actor,
        "round_dates",
        now,
        round=round.number,
        date=str(date) if date else None,
        deadline=deadline.isoformat() if deadline else None,
    )
    return round


@transaction.atomic
def group_set_deadline(
    *, actor: Any, group: Group, deadline: datetime | None, now: datetime | None = None
) -> Group:
    """The secretary sets the date a group's matches must be played by: once it has
    passed, a match not played may be awarded (`tie_award`)."""
    now = resolve_now(now)
    require_secretary(actor, group.competition, "set a group's deadline")
    group.deadline = deadline
    group.save(update_fields=["deadline"])
    log(
        group.competition,
        actor,
        "group_deadline",
        now,
        group=group.number,
        deadline=deadline.isoformat() if deadline else None,
    )
    return group


def require_open_tie(tie: Tie) -> None:
    if tie.decided:
        raise DomainError("tie_decided", "This tie is already decided.", status=409)
    if not (tie.home_id and tie.away_id):
        raise DomainError("tie_not_ready", "This tie is waiting for its entrants.", status=409)


def _side_entry(tie: Tie, side: str) -> Entry:
    if side not in ("home", "away"):
        raise DomainError("bad_side", "A side is 'home' or 'away'.", field="winner")
    entry = tie.home if side == "home" else tie.away
    assert entry is not None
    return entry


def tie_deadline(tie: Tie) -> datetime | None:
    if tie.round is not None:
        return tie.round.deadline
    return tie.group.deadline if tie.group is not None else None


@transaction.atomic
def tie_award(
    *, actor: Any, tie: Tie, winner: str, reason: str, now: datetime | None = None
) -> Tie:
    """The secretary awards a tie not played by its deadline to one side, with a reason."""
    now = resolve_now(now)
    require_secretary(actor, tie, "award a tie")
    tie = lock_tie(tie)
    require_open_tie(tie)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("no_reason", "Give the reason for the award.", field="reason")
    deadline = tie_deadline(tie)
    if deadline is None or now < deadline:
        raise DomainError(
            "before_deadline",
            "A tie can be awarded only once its "
            + ("round" if tie.round_id else "group")
            + "'s deadline has passed"
            + (
                f" ({timezone.localtime(deadline):%d %b %Y %H:%M})."
                if deadline
                else " (it has none)."
            ),
        )
    return tie_decide(tie, _side_entry(tie, winner), Tie.Status.AWARDED, reason, actor, now)


@transaction.atomic
def tie_walkover(
    *, actor: Any, tie: Tie, winner: str, reason: str, now: datetime | None = None
) -> Tie:
    """The secretary records a walkover (the other side did not turn up), with a reason."""
    now = resolve_now(now)
    require_secretary(actor, tie, "record a walkover")
    tie = lock_tie(tie)
    require_open_tie(tie)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("no_reason", "Give the reason for the walkover.", field="reason")
    return tie_decide(tie, _side_entry(tie, winner), Tie.Status.WALKOVER, reason, actor, now)


@transaction.atomic
def tie_withdraw(
    *, actor: Any, tie: Tie, side: str, reason: str = "", now: datetime | None = None
) -> Tie:
    """One side withdraws from a tie (the secretary records it): the other goes through."""
    now = resolve_now(now)
    require_secretary(actor, tie, "record a withdrawal")
    tie = lock_tie(tie)
    require_open_tie(tie)
    leaving = _side_entry(tie, side)
    other = tie.away if leaving.pk == tie.home_id else tie.home
    assert other is not None
    reason = " ".join((reason or "").split()) or f"{leaving.name} withdrew"
    return tie_decide(tie, other, Tie.Status.WITHDRAWN, reason, actor, now)


def frames_to_win(tie: Tie) -> int:
    if tie.race_to:
        return tie.race_to
    best_of = tie.best_of or tie.competition.best_of
    return best_of // 2 + 1


def winner_of_frames(tie: Tie, wins: Mapping[str, int]) -> str | None:
    need = frames_to_win(tie)
    for side in ("home", "away"):
        if wins[side] >= need:
            return side
    return None


def _check_frames(tie: Tie, frames: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, str]]:
    """Paper frames: each {home, away} scores; the winner is the higher score. They must
    end exactly when one side has won the tie."""
    if not isinstance(frames, list | tuple) or not frames:
        raise DomainError("bad_frames", "Give each frame's scores, in order.", field="frames")
    need = frames_to_win(tie)
    if len(frames) > 2 * need - 1:
        raise DomainError("bad_frames", f"At most {2 * need - 1} frames.", field="frames")
    out = []
    wins = {"home": 0, "away": 0}
    for i, frame in enumerate(frames, start=1):
        if winner_of_frames(tie, wins) is not None:
            raise DomainError(
                "bad_frames", f"Frame {i} comes after the tie was won.", field="frames"
            )
        try:
            home, away = frame["home"], frame["away"]
        except (TypeError, KeyError):
            raise DomainError(
                "bad_frames", f"Frame {i}: give home and away scores.", field="frames"
            ) from None
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_FRAME_SCORE
            for v in (home, away)
        ):
            raise DomainError(
                "bad_frames", f"Frame {i}: scores are whole numbers from 0.", field="frames"
            )
        winner = frame.get("winner") or ("home" if home > away else "away" if away > home else "")
        if winner not in ("home", "away"):
            raise DomainError(
                "bad_frames",
                f"Frame {i} is level: say who won it (winner: home or away).",
                field="frames",
            )
        wins[winner] += 1
        out.append((home, away, winner))
    if winner_of_frames(tie, wins) is None:
        raise DomainError(
            "bad_frames", f"Nobody has won {need} frames: the tie is not finished.", field="frames"
        )
    return out


def frames_winner(frames: Sequence[tuple[int, int, str]]) -> str:
    """The side that won more of the (home score, away score, winner) frames."""
    home = sum(1 for f in frames if f[2] == "home")
    return "home" if home > len(frames) - home else "away"


@transaction.atomic
def tie_record_paper(
    *, actor: Any, tie: Tie, frames: Sequence[Mapping[str, Any]], now: datetime | None = None
) -> Tie:
    """An individual tie's frames keyed in from the paper scoresheet. From the secretary
    the result counts at once; from a player it counts once the other side confirms
    (`tie_confirm`)."""
    now = resolve_now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may enter its result.",
    )
    tie = lock_tie(tie)
    require_open_tie(tie)
    if tie.competition.is_team_event:
        raise DomainError(
            "team_tie", "A team tie is played as a match: enter its scores on the match's page."
        )
    checked = _check_frames(tie, frames)
    TieFrame.objects.filter(tie=tie).delete()
    TieFrame.objects.bulk_create(
        TieFrame(tie=tie, number=i, home_score=h, away_score=a, winner=w, source="paper")
        for i, (h, a, w) in enumerate(checked, start=1)
    )
    tie.home_confirmed_by = tie.away_confirmed_by = None
    log(tie.competition, actor, "paper", now, tie=tie, frames=[list(f) for f in checked])
    return tie_sign(tie, actor, now, frames_winner(checked))


def tie_sign(tie: Tie, actor: Any, now: datetime, winner: str) -> Tie:
    """The side(s) the actor speaks for sign the result (its frames, won by `winner`); the
    secretary's word is final. Both sides signed: the tie is played and its winner goes
    through."""
    secretary = allowed(actor, "competitions.manage", tie)
    for side, entry in (("home", tie.home), ("away", tie.away)):
        if secretary or speaks_for_entry(actor, entry):
            setattr(tie, f"{side}_confirmed_by", actor)
    tie.save(update_fields=["home_confirmed_by", "away_confirmed_by"])
    if tie.home_confirmed_by_id and tie.away_confirmed_by_id:
        tie_decide(tie, _side_entry(tie, winner), Tie.Status.PLAYED, "", actor, now)
    return tie
