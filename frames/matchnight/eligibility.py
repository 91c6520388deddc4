"""Sign-off's eligibility check: each frame played by a player the season's registration
rules did not allow (`leagues.eligibility.played_refusals`) is flagged with the penalty
the season gives (forfeit the frame to the opponents), and the secretary records a
decision: apply the forfeit (the frame's scores are corrected through the one correction
path, `signoff.match_settle`) or waive it, with a note. Both are logged."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from frames.engine import game_of
from frames.models import SIDES, Frame, FramePlayer, Match, MatchLog, other_side
from leagues import eligibility
from leagues.models import EligibilityLog, Player
from leagues.teams.eligibility_services import ineligible_frame_decide
from marker.errors import DomainError
from marker.permissions import require

from . import signoff
from .common import User, resolve_now

FORFEIT = "forfeit"
WAIVE = "waive"
#: The match statuses at which a flag is shown and decided.
SIGN_OFF = (Match.Status.COMPLETE, Match.Status.DISPUTED, Match.Status.CONFIRMED)


@dataclass(frozen=True)
class Flag:
    """A frame played by an ineligible player: the rule, the penalty, and the
    secretary's decision once recorded."""

    frame_number: int
    side: str
    player: Player
    refusal: eligibility.Refusal
    penalty: str
    decision: EligibilityLog | None

    @property
    def decided(self) -> bool:
        return self.decision is not None

    def as_dict(self) -> dict:
        return {
            "frame": self.frame_number,
            "side": self.side,
            "player": self.player.pk,
            "player_name": self.player.name,
            **self.refusal.as_dict(),
            "penalty": self.penalty,
            "decision": (
                None
                if self.decision is None
                else {
                    "action": self.decision.action,
                    "note": self.decision.note,
                    "at": self.decision.at.isoformat(),
                }
            ),
        }


def ineligible_frames(match: Match) -> list[Flag]:
    """The match's frames played by ineligible players (none before the draw). A fixed
    number of queries."""
    if match.status not in (*SIGN_OFF, Match.Status.DRAWN, Match.Status.IN_PLAY):
        return []
    fixture = match.fixture
    slots = list(
        FramePlayer.objects.filter(frame__match=match)
        .exclude(frame__status=Frame.Status.CONCEDED)
        .select_related("player")
        .order_by("frame__number", "side", "position")
        .values_list("frame__number", "side", "player")
    )
    if not slots:
        return []
    players = {p.pk: p for p in Player.objects.filter(pk__in={pk for _, _, pk in slots})}
    teams = {side: match.team(side) for side in SIDES}
    played = list({(side, pk): (teams[side], players[pk]) for _, side, pk in slots}.values())
    on = fixture.date or eligibility.local_day(match.drawn_at)
    refusals = eligibility.played_refusals(fixture=fixture, played=played, on=on)
    if not refusals:
        return []
    decisions = {
        (log.frame_number, log.player_id): log
        for log in EligibilityLog.objects.filter(
            fixture=fixture,
            action__in=[
                EligibilityLog.Action.FORFEIT_APPLIED,
                EligibilityLog.Action.FORFEIT_WAIVED,
            ],
        )
    }
    penalty = eligibility.rules_of(fixture.season).get_penalty_display()
    flags = []
    for number, side, pk in slots:
        refusal = refusals.get((teams[side].pk, pk))
        if refusal is not None:
            flags.append(
                Flag(number, side, players[pk], refusal, penalty, decisions.get((number, pk)))
            )
    return flags


def _forfeit_scores(frame: Frame, side: str) -> tuple[int, int]:
    """The frame to the opponents of `side`: the offending side scores nothing, the
    opponents keep the frame's higher score (at least one scoring step)."""
    best = max(frame.home_score or 0, frame.away_score or 0) or game_of(frame).score_step
    return (0, best) if side == "home" else (best, 0)


@transaction.atomic
def match_ineligible_decide(
    *,
    match: Match,
    frame_number: int,
    player: Player,
    decision: str,
    note: str,
    actor: User,
    now: datetime | None = None,
) -> Match:
    """The secretary decides on a frame played by an ineligible player: `forfeit` (the
    frame goes to the opponents; the match result is corrected by `match_settle`, which
    confirms it, reopening a confirmed one) or `waive` (the result stands). With a note;
    once per frame and player."""
    now = resolve_now(now)
    require(
        actor,
        "frames.settle_dispute",
        match,
        code="not_secretary",
        message="Only the league secretary decides on an ineligible player.",
    )
    if decision not in (FORFEIT, WAIVE):
        raise DomainError("bad_decision", "Decide 'forfeit' or 'waive'.", field="decision")
    note = " ".join((note or "").split())
    if len(note) > 500:
        raise DomainError("note_too_long", "Keep the note under 500 characters.", field="note")
    match = Match.objects.select_related("fixture__season", "fixture__home", "fixture__away").get(
        pk=match.pk
    )
    if match.status not in SIGN_OFF:
        raise DomainError(
            "not_complete", "Decide once every frame is finished, at sign-off.", status=409
        )
    flag = next(
        (
            f
            for f in ineligible_frames(match)
            if f.frame_number == frame_number and f.player.pk == player.pk
        ),
        None,
    )
    if flag is None:
        raise DomainError(
            "not_ineligible",
            f"{player.name} was not flagged as ineligible in frame {frame_number}.",
            field="player",
        )
    if flag.decided:
        raise DomainError(
            "already_decided",
            f"Frame {frame_number}'s ineligible player is already decided.",
            status=409,
        )
    if decision == FORFEIT:
        others = [f for f in ineligible_frames(match) if f.frame_number == frame_number]
        if any(f.side == other_side(flag.side) and not f.decided for f in others):
            raise DomainError(
                "both_ineligible",
                f"Both sides played an ineligible player in frame {frame_number}: "
                "correct its scores by settling the result instead.",
                status=409,
            )
        frame = Frame.objects.get(match=match, number=frame_number)
        signoff.match_settle(
            match=match,
            actor=actor,
            decision=signoff.SETTLE_CORRECT,
            note=f"{flag.refusal.message} Penalty: {flag.penalty}. {note}".strip(),
            scores={frame_number: _forfeit_scores(frame, flag.side)},
            now=now,
            reopen_confirmed=match.status == Match.Status.CONFIRMED,
        )
    ineligible_frame_decide(
        fixture=match.fixture,
        frame_number=frame_number,
        player=player,
        team=match.team(flag.side),
        refusal=flag.refusal,
        forfeit=decision == FORFEIT,
        note=note,
        actor=actor,
        now=now,
    )
    MatchLog.add(
        match,
        actor,
        "ineligible_decided",
        now,
        side=flag.side,
        frame=frame_number,
        player=player.pk,
        rule=flag.refusal.code,
        decision=decision,
        reason=note,
    )
    return Match.objects.get(pk=match.pk)
