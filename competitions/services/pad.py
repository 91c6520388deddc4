"""An individual tie scored on the pad: opening its frames (friendly frames of the
season's game, on the entrants' starts) and confirming the frames once the tie is won."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from frames.engine import frame_outcome, service_draws, side_result, side_setup
from frames.matchnight.common import frame_names
from frames.models import Frame, Friendly
from leagues.models import Registration
from marker.errors import DomainError
from marker.permissions import require
from rules.vocabulary import RuleError

from ..common import log, resolve_now
from ..models import Tie, TieFrame
from ..results import lock_tie
from .ties import frames_winner, require_open_tie, tie_sign, winner_of_frames


def _pad_frames(tie: Tie) -> list[tuple[int, int, str]]:
    out = []
    for tf in TieFrame.objects.filter(tie=tie).select_related("frame").order_by("number"):
        frame = tf.frame
        if frame is not None and frame.status == Frame.Status.COMPLETE:
            result = side_result(frame_outcome(frame), frame.parties)
            tf.home_score, tf.away_score = result.home or 0, result.away or 0
            tf.winner = result.winner
            tf.source = "pad"
            tf.save(update_fields=["home_score", "away_score", "winner", "source"])
        if tf.winner not in ("home", "away"):
            raise DomainError(
                "frame_unfinished", f"Frame {tf.number} has no winner yet.", status=409
            )
        out.append((tf.home_score or 0, tf.away_score or 0, tf.winner))
    return out


@transaction.atomic
def tie_confirm(*, actor: Any, tie: Tie, now: datetime | None = None) -> Tie:
    """A side (or the secretary) signs off the tie's frames, scored on the pad or keyed
    in by the other side. Once both sides have, the winner goes through."""
    now = resolve_now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may confirm it.",
    )
    tie = lock_tie(tie)
    require_open_tie(tie)
    frames = _pad_frames(tie)
    if (
        not frames
        or winner_of_frames(
            tie,
            {
                "home": sum(1 for f in frames if f[2] == "home"),
                "away": sum(1 for f in frames if f[2] == "away"),
            },
        )
        is None
    ):
        raise DomainError("tie_unfinished", "Nobody has won the tie yet.", status=409)
    log(tie.competition, actor, "confirmed", now, tie=tie)
    return tie_sign(tie, actor, now, frames_winner(frames))


@transaction.atomic
def tie_frame_open(*, actor: Any, tie: Tie, now: datetime | None = None) -> TieFrame:
    """Open the tie's next frame for the pad: a frame of the season's game between the
    two entrants, each side starting on its handicap start, scored by whoever opened it
    (the pad's friendly-frame flow). Refused once the tie is won."""
    now = resolve_now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may score it.",
    )
    tie = lock_tie(tie)
    require_open_tie(tie)
    competition = tie.competition
    if competition.is_team_event:
        raise DomainError("team_tie", "A team tie is played as a match: open its match night.")
    existing = list(TieFrame.objects.filter(tie=tie).select_related("frame").order_by("number"))
    wins = {"home": 0, "away": 0}
    for tf in existing:
        frame = tf.frame
        if frame is not None and frame.status != Frame.Status.COMPLETE:
            return tf  # the frame in play
        winner = tf.winner
        if frame is not None:
            winner = side_result(frame_outcome(frame), frame.parties).winner
        if winner in wins:
            wins[winner] += 1
    if winner_of_frames(tie, wins) is not None:
        raise DomainError("tie_won", "The tie is won: confirm its result.", status=409)
    season = competition.season or _home_league_season(tie)
    names = frame_names(
        {
            side: [(p.name, p) for p in (entry.player, entry.partner) if p is not None]
            for side, entry in (("home", tie.home), ("away", tie.away))
            if entry is not None
        }
    )
    options = dict(season.game_options or {})
    if tie.home_start or tie.away_start:
        options["starts"] = {"home": tie.home_start, "away": tie.away_start}
    try:
        setup, parties = side_setup(
            season.game_id, names, options, season.rules_version, rng=service_draws()
        )
    except RuleError as exc:
        raise DomainError(exc.code, exc.message, field="start") from None
    number = len(existing) + 1
    friendly = Friendly.objects.create(
        owner=actor, title=f"{competition.name}: {tie}, frame {number}"[:120], created_at=now
    )
    frame = Frame.objects.create(
        friendly=friendly,
        number=1,
        order=1,
        kind=Frame.Kind.SINGLES if len(names.get("home", [])) < 2 else Frame.Kind.DOUBLES,
        game_id=season.game_id,
        rules_version=season.rules_version,
        setup=setup,
        parties=parties,
    )
    tf = TieFrame.objects.create(tie=tie, number=number, frame=frame, source="pad")
    log(competition, actor, "frame_opened", now, tie=tie, frame=frame.pk)
    return tf


def _home_league_season(tie: Tie):
    """An organisation's individual tie plays its game by the rules (version, options) of
    the home entrant's own league: the season of their registration in a member league."""
    competition = tie.competition
    for entry in (tie.home, tie.away):
        player = entry.player if entry is not None else None
        if player is None:
            continue
        reg = (
            Registration.objects.filter(
                player=player,
                status=Registration.Status.ACTIVE,
                season__league__organisations=competition.organisation_id,
                season__game_id=competition.game_id,
            )
            .select_related("season")
            .order_by("-season__start_date", "-pk")
            .first()
        )
        if reg is not None:
            return reg.season
    raise DomainError(
        "not_registered", f"Neither side of {tie} is registered in a member league any more."
    )
