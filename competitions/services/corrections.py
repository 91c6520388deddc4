"""Correcting a decided tie: the secretary's way back from a mistyped result or a wrong
award (docs/competitions.md, *Correcting a decided tie*).

A correction gives a reason and one of: the right winner (a tie awarded, walked over or
withdrawn from), the right frames (an individual tie's result), or the right frame scores
of a cup match (its match settled again). The new winner replaces the old one in the
next round while that tie has not been played (a frame started counts as played), the
plate's entry of a first-round loser follows, and a corrected final rewrites the roll of
honour. Anything played since is refused, naming the tie to correct first. Every
correction is a line of the competition's log (`corrected`) with the reason, the result
before and after, and what moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from frames.matchnight import signoff
from frames.models import Frame, Match
from marker.errors import DomainError
from marker.permissions import require

from ..common import lock_competition, log, resolve_now
from ..models import Competition, Entry, Tie, TieFrame
from ..results import lock_tie, team_tie_winner, tie_decide
from .ties import _check_frames, _side_entry, frames_winner

#: What a match counts as played from: a frame in play or finished, or any shot entered.
_PLAYED_MATCH = (
    Match.Status.IN_PLAY,
    Match.Status.COMPLETE,
    Match.Status.DISPUTED,
    Match.Status.CONFIRMED,
)


def _summary(tie: Tie) -> dict[str, Any]:
    """The tie's decision as the log keeps it: status, winner, frames, reason."""
    result = tie.result
    return {
        "status": tie.status,
        "winner": tie.winner.name if tie.winner is not None else None,
        "home_frames": None if result.home_frames is None else str(result.home_frames),
        "away_frames": None if result.away_frames is None else str(result.away_frames),
        "reason": tie.award_reason,
    }


def _tie_name(tie: Tie) -> str:
    where = tie.round.name if tie.round is not None else (tie.group.name if tie.group else "")
    return f"{tie} ({where})" if where else str(tie)


def _started(tie: Tie) -> bool:
    """Whether a tie has been played, or has begun: a frame of it exists (paper or pad),
    or its cup match has a frame in play, finished or with a shot."""
    if tie.decided and not tie.bye:
        return True
    if TieFrame.objects.filter(tie=tie).exists():
        return True
    if tie.fixture_id is None:
        return False
    match = Match.objects.filter(fixture_id=tie.fixture_id).first()
    if match is None:
        return False
    return (
        match.status in _PLAYED_MATCH
        or Frame.objects.filter(match=match)
        .filter(status__in=[Frame.Status.IN_PLAY, Frame.Status.COMPLETE])
        .exists()
        or Frame.objects.filter(match=match, last_seq__gt=0).exists()
    )


def _take_back_next(tie: Tie, old: Entry) -> list[str]:
    """Take the old winner out of the next round's tie (not played yet), or refuse."""
    assert tie.round is not None
    nxt = (
        Tie.objects.select_for_update(of=("self",))
        .filter(
            round__competition=tie.competition_id,
            round__number=tie.round.number + 1,
            slot=(tie.slot + 1) // 2,
        )
        .select_related("round", "home", "away")
        .first()
    )
    if nxt is None:  # the final: deciding it again rewrites the winner and the roll of honour
        return [f"{old.name} no longer the winner of the {tie.competition.name}"]
    side = "home" if tie.slot % 2 == 1 else "away"
    if getattr(nxt, f"{side}_id") != old.pk:
        return []
    if _started(nxt):
        state = f"decided ({nxt.get_status_display().lower()})" if nxt.decided else "being played"
        raise DomainError(
            "later_round_played",
            f"{old.name} has already played on: {_tie_name(nxt)} is {state}. Correct that "
            "tie first (the latest round first), then this one.",
            status=409,
        )
    label = _tie_name(nxt)
    setattr(nxt, side, None)
    fields = [side]
    if nxt.status != Tie.Status.PENDING:
        nxt.status = Tie.Status.PENDING
        nxt.home_start = nxt.away_start = 0
        nxt.home_confirmed_by = nxt.away_confirmed_by = None
        fields += ["status", "home_start", "away_start", "home_confirmed_by", "away_confirmed_by"]
    fixture = nxt.fixture
    if fixture is not None:
        # A cup fixture is made for two teams: the next one is made when both are known.
        nxt.fixture = None
        fields.append("fixture")
    nxt.save(update_fields=fields)
    if fixture is not None:
        Match.objects.filter(fixture=fixture).delete()
        fixture.delete()
    return [f"{old.name} taken out of {label}"]


def _take_back_plate(competition: Competition, tie: Tie, new_winner: Entry) -> list[str]:
    """A first-round loser who now wins leaves the plate, while it takes entries."""
    assert tie.round is not None
    plate = competition.plate
    if (
        tie.round.number != 1
        or plate is None
        or competition.plate_rule != Competition.PlateRule.FIRST_ROUND_LOSERS
    ):
        return []
    kwargs = {"team": new_winner.team} if new_winner.team_id else {"player": new_winner.player}
    entered = Entry.objects.filter(
        competition=plate, source=f"lost in round 1 of the {competition.name}"[:120], **kwargs
    )
    if not entered.exists():
        return []
    if plate.stage != Competition.Stage.ENTRIES:
        raise DomainError(
            "plate_drawn",
            f"{new_winner.name} went into the {plate.name} as a loser, and it has been drawn: "
            "correct the plate first.",
            status=409,
        )
    entered.delete()
    return [f"{new_winner.name} taken out of the {plate.name}"]


def _take_back(competition: Competition, tie: Tie, new_winner: Entry) -> list[str]:
    """Undo what the tie's old winner was sent through to, or refuse when it has been
    played on."""
    old = tie.winner
    assert old is not None
    if tie.round is None:
        if (
            competition.stage != Competition.Stage.DRAWN
            or competition.knockout_secretary_commitment
        ):
            raise DomainError(
                "knockout_drawn",
                "The knock-out is being drawn (or has been) from these groups: a group "
                "match can no longer change who goes through.",
                status=409,
            )
        return []
    moved = _take_back_next(tie, old)
    return moved + _take_back_plate(competition, tie, new_winner)


def _team_result_winner(tie: Tie) -> Entry:
    """A cup match's winner, read from its (settled again) fixture, as at confirmation:
    more frames; level on frames, the higher aggregate."""
    fixture = tie.fixture
    assert fixture is not None
    fixture.refresh_from_db()
    side = team_tie_winner(tie.competition, fixture)
    if side is None:
        raise DomainError(
            "correction_level",
            "With these scores the match is level on frames and on aggregate: correct the "
            "tie with a winner instead (an award, with the reason).",
            status=409,
        )
    entry = tie.home if side == "home" else tie.away
    assert entry is not None
    return entry


def _normalised_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("no_reason", "Give the reason for the correction.", field="reason")
    return reason


@transaction.atomic
def tie_correct(
    *,
    actor: Any,
    tie: Tie,
    reason: str,
    winner: str | None = None,
    frames: Sequence[Mapping[str, Any]] | None = None,
    match_frames: Mapping[int, tuple[int, int]] | None = None,
    now: datetime | None = None,
) -> Tie:
    """The secretary corrects a decided tie, with a reason: `winner` ('home' or 'away')
    for a tie decided without being played (awarded, walkover, withdrawal), `frames` for
    an individual tie's frames (as from paper), `match_frames` (frame number → (home,
    away)) for a cup match's scores, which settles the confirmed match again. Refused,
    with nothing changed, when the old winner has played on since."""
    now = resolve_now(now)
    require(
        actor,
        "competitions.manage",
        tie,
        message="Only the league's secretary (or competitions secretary) may correct a tie.",
    )
    lock_competition(tie.competition)
    tie = lock_tie(tie)
    competition = Competition.objects.select_related("plate").get(pk=tie.competition_id)
    tie.competition = competition
    reason = _normalised_reason(reason)
    if tie.bye:
        raise DomainError("tie_bye", "A bye has no result to correct.", status=409)
    if not tie.decided:
        raise DomainError(
            "tie_not_decided",
            "This tie is not decided yet: enter its result or award it instead.",
            status=409,
        )
    given = [
        n for n, v in (("winner", winner), ("frames", frames), ("match_frames", match_frames)) if v
    ]
    if len(given) != 1:
        raise DomainError(
            "bad_correction",
            "Give one correction: the winner, the frames (a singles or pairs tie) or the "
            "match's frame scores (a team tie).",
            field="winner",
        )
    before = _summary(tie)
    match = (
        Match.objects.filter(fixture_id=tie.fixture_id, status=Match.Status.CONFIRMED).first()
        if tie.fixture_id is not None
        else None
    )
    played = tie.status == Tie.Status.PLAYED
    status = tie.status
    checked: list[tuple[int, int, str]] = []
    if winner:
        if played:
            raise DomainError(
                "tie_was_played",
                "This tie was played: its winner follows its frames. Correct the "
                + ("match's frame scores." if competition.is_team_event else "frames."),
                field="winner",
                status=409,
            )
        new_winner = _side_entry(tie, winner)
    elif frames:
        if competition.is_team_event:
            raise DomainError(
                "team_tie",
                "A team tie is a match: correct the match's frame scores (match_frames).",
                field="frames",
            )
        checked = _check_frames(tie, frames)
        new_winner = _side_entry(tie, frames_winner(checked))
        status = Tie.Status.PLAYED
    else:
        if match is None:
            raise DomainError(
                "no_match",
                "This tie has no confirmed match to correct: correct its winner instead.",
                field="match_frames",
            )
        new_winner = None
    moved: list[str] = []
    if new_winner is not None and new_winner.pk != tie.winner_id:
        moved = _take_back(competition, tie, new_winner)
    if frames:
        TieFrame.objects.filter(tie=tie).delete()
        TieFrame.objects.bulk_create(
            TieFrame(tie=tie, number=i, home_score=h, away_score=a, winner=w, source="paper")
            for i, (h, a, w) in enumerate(checked, start=1)
        )
        tie.home_confirmed_by = tie.away_confirmed_by = actor
    if match is not None and match_frames:
        signoff.match_settle(
            match=match,
            actor=actor,
            decision=signoff.SETTLE_CORRECT,
            note=reason,
            scores=match_frames,
            now=now,
            reopen_confirmed=True,
        )
        new_winner = _team_result_winner(tie)
        if new_winner.pk != tie.winner_id:
            moved = _take_back(competition, tie, new_winner)
    assert new_winner is not None
    if new_winner.pk != tie.winner_id:
        tie = tie_decide(tie, new_winner, status, reason if status != "played" else "", actor, now)
    else:
        tie.status = status
        tie.award_reason = "" if status == Tie.Status.PLAYED else reason[:200]
        tie.decided_by, tie.decided_at = actor, now
        tie.save(
            update_fields=[
                "status",
                "award_reason",
                "decided_by",
                "decided_at",
                "home_confirmed_by",
                "away_confirmed_by",
            ]
        )
    tie = lock_tie(tie)
    log(
        competition,
        actor,
        "corrected",
        now,
        tie=tie,
        reason=reason,
        before=before,
        after=_summary(tie),
        moved=moved,
    )
    return tie
