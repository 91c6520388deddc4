"""A tie's result and what follows it: deciding a tie, sending its winner through (the
next round, the plate, the roll of honour) and a cup fixture's confirmed result deciding
its tie. The core of competitions: it needs leagues and never frames, so frames' result
path calls it directly (`tie_fixture_result`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from leagues import honours
from leagues.models import Fixture, Player, Team

from .common import log
from .models import Competition, Entry, Tie


def tie_ready(tie: Tie) -> None:
    """A tie with both entrants: its starts, and for a team tie its cup fixture."""
    competition = tie.competition
    assert tie.home is not None and tie.away is not None
    fields = ["status", "home_start", "away_start"]
    tie.status = Tie.Status.SCHEDULED
    tie.home_start, tie.away_start = tie.home.start, tie.away.start
    if competition.is_team_event and tie.fixture_id is None:
        home, away = tie.home.team, tie.away.team
        assert home is not None and away is not None
        tie.fixture = Fixture.objects.create(
            season=competition.season,
            kind=Fixture.Kind.CUP,
            division=None,
            round=tie.round.number if tie.round else 0,
            home=home,
            away=away,
            venue=home.venue,
            date=tie.round.date if tie.round else None,
            note=f"{competition.name}, {tie.round.name if tie.round else ''}".strip(", ")[:200],
        )
        fields.append("fixture")
    tie.save(update_fields=fields)


def _next_tie(tie: Tie) -> tuple[Tie, str] | None:
    if tie.round is None:
        return None
    nxt = (
        Tie.objects.select_for_update(of=("self",))
        .filter(
            round__competition=tie.competition_id,
            round__number=tie.round.number + 1,
            slot=(tie.slot + 1) // 2,
        )
        .select_related("round", "competition")
        .order_by("pk")
        .first()
    )
    if nxt is None:
        return None
    return nxt, "home" if tie.slot % 2 == 1 else "away"


def enter_plate(competition: Competition, entry: Entry, why: str, now: datetime) -> None:
    """Enter a loser into the competition's plate while it takes entries (once)."""
    plate = competition.plate
    if plate is None or plate.stage != Competition.Stage.ENTRIES:
        return
    kwargs = {"team": entry.team} if entry.team_id else {"player": entry.player}
    if Entry.objects.filter(competition=plate, **kwargs).exists():
        return
    Entry.objects.create(
        competition=plate,
        team=entry.team,
        player=entry.player,
        partner=entry.partner,
        start=entry.start,
        entered_at=now,
        source=why[:120],
    )
    log(plate, None, "entered", now, name=entry.name, source=why)


def _move_starts(tie: Tie) -> None:
    competition = tie.competition
    if (
        competition.handicap_rule != Competition.HandicapRule.MOVING
        or tie.status != Tie.Status.PLAYED
    ):
        return
    step = competition.handicap_step
    lo, hi = competition.handicap_min, competition.handicap_max
    for entry, delta in (
        (tie.winner, -step),
        (tie.home if tie.winner_id == tie.away_id else tie.away, step),
    ):
        assert entry is not None
        entry.start = max(lo, min(hi, entry.start + delta))
        entry.save(update_fields=["start"])


def tie_decide(tie: Tie, winner: Entry, status: str, reason: str, actor: Any, now: datetime) -> Tie:
    """Record a tie's winner and send them through: into the next round's tie (its home
    slot for the upper tie; an opponent who withdrew while waiting gives it to them),
    losers of round one into the plate, the final's winner as the competition's."""
    tie.winner = winner
    tie.status = status
    tie.award_reason = reason[:200]
    tie.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    tie.decided_at = now
    tie.save(
        update_fields=[
            "winner",
            "status",
            "award_reason",
            "decided_by",
            "decided_at",
        ]
    )
    competition = tie.competition
    log(competition, actor, "decided", now, tie=tie, winner=winner.pk, status=status, reason=reason)
    _move_starts(tie)
    loser = None if tie.bye else (tie.away if winner.pk == tie.home_id else tie.home)
    if tie.round is not None:
        if (
            tie.round.number == 1
            and loser is not None
            and competition.plate_rule == Competition.PlateRule.FIRST_ROUND_LOSERS
            and status != Tie.Status.WITHDRAWN
        ):
            enter_plate(competition, loser, f"lost in round 1 of the {competition.name}", now)
        nxt = _next_tie(tie)
        if nxt is None:
            competition.winner = winner
            competition.runner_up = loser
            competition.stage = Competition.Stage.FINISHED
            competition.finished_at = now
            competition.save(update_fields=["winner", "runner_up", "stage", "finished_at"])
            log(competition, actor, "finished", now, winner=winner.pk)
            # The roll of honour, under the names they have now (kept if they change).
            honours.record_honour(
                season=competition.season,
                title=competition.name,
                kind="competition",
                source=f"competition:{competition.pk}",
                winner=_holder(winner),
                runner_up=_holder(loser) if loser is not None else None,
                now=now,
            )
        else:
            next_tie, side = nxt
            setattr(next_tie, side, winner)
            next_tie.save(update_fields=[side])
            if next_tie.home_id and next_tie.away_id:
                _ready_or_withdrawn(next_tie, actor, now)
    return tie


def _ready_or_withdrawn(tie: Tie, actor: Any, now: datetime) -> None:
    """A tie whose entrants are both known: to be played, or, when one of them withdrew
    while waiting for the other, the other's (both withdrawn: the secretary decides)."""
    assert tie.home is not None and tie.away is not None
    out = [e for e in (tie.home, tie.away) if e.status == Entry.Status.WITHDRAWN]
    if len(out) != 1:
        tie_ready(tie)
        return
    other = tie.away if out[0].pk == tie.home_id else tie.home
    tie_decide(tie, other, Tie.Status.WITHDRAWN, f"{out[0].name} withdrew", actor, now)


def lock_tie(tie: Tie) -> Tie:
    """The tie's row, locked for this transaction, with its competition and entrants."""
    return (
        Tie.objects.select_for_update(of=("self",))
        .select_related(
            "competition__season",
            "round",
            "home__team",
            "away__team",
            "home__player",
            "away__player",
            "home__partner",
            "away__partner",
        )
        .get(pk=tie.pk)
    )


def tie_fixture_result(fixture: Fixture) -> None:
    """A cup fixture's confirmed result decides its tie (more frames wins; level on frames,
    the higher aggregate; level on both, the secretary awards). Frames' result path calls
    it inside the transaction that confirms the result, so a refusal here undoes that; a
    fixture of no tie is left alone."""
    tie = Tie.objects.filter(fixture=fixture).first()
    if tie is None:
        return
    tie = lock_tie(tie)
    if tie.decided:
        return
    key = ((fixture.home_frames or 0), (fixture.home_score or 0))
    other = ((fixture.away_frames or 0), (fixture.away_score or 0))
    now = fixture.result_confirmed_at or timezone.now()
    if key == other:
        log(tie.competition, None, "level", now, tie=tie)
        return
    tie_decide(tie, tie.home if key > other else tie.away, Tie.Status.PLAYED, "", None, now)  # type: ignore[arg-type]


def _holder(entry: Entry) -> Team | list[Player]:
    """Who an entry is on the roll of honour: its team, or its player (and partner)."""
    if entry.team is not None:
        return entry.team
    return [p for p in (entry.player, entry.partner) if p is not None]
