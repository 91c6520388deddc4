"""A tie's result and what follows it: deciding a tie, sending its winner through (the
next round, the plate, the roll of honour) and a cup fixture's confirmed result deciding
its tie. The core of competitions: it needs leagues and never frames, so frames' result
path calls it directly (`tie_fixture_result`)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from leagues import honours
from leagues.models import Fixture, Player, Season, Team

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
        # An organisation's tie is a fixture between teams of two leagues: it lives in the
        # home team's season (its league's match night, pad and sign-off; both captains).
        tie.fixture = Fixture.objects.create(
            season=competition.season or home.season,
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
            record_competition_honours(competition, winner, loser, now)
        else:
            next_tie, side = nxt
            setattr(next_tie, side, winner)
            next_tie.save(update_fields=[side])
            if next_tie.home_id and next_tie.away_id:
                _ready_or_withdrawn(next_tie, actor, now)
    return tie


def honour_seasons(competition: Competition, *entries: Entry | None) -> list[Season]:
    """The seasons whose rolls of honour carry the competition: its own season; for an
    organisation's, the season of each member league taking part (a team's season, a
    player's registration in a member league playing its game), one per league."""
    if competition.season is not None:
        return [competition.season]
    seasons: dict[int, Season] = {}
    for entry in Entry.objects.filter(competition=competition).select_related(
        "team__season__league"
    ):
        if entry.team is not None:
            seasons.setdefault(entry.team.season.league_id, entry.team.season)
    players = [
        p.pk
        for e in Entry.objects.filter(competition=competition, team__isnull=True)
        for p in (e.player, e.partner)
        if p is not None
    ]
    if players and competition.organisation_id is not None:
        for season in Season.objects.filter(
            league__organisations=competition.organisation_id,
            game_id=competition.game_id,
            registrations__player__in=players,
            registrations__status="active",
        ).order_by("-start_date", "-pk"):
            seasons.setdefault(season.league_id, season)
    return sorted(seasons.values(), key=lambda s: s.league_id)


def record_competition_honours(
    competition: Competition, winner: Entry, loser: Entry | None, now: datetime
) -> None:
    """The winner and runner-up on the roll of honour, under the names they have now (kept
    if they change): the season's roll; for an organisation's competition, one line each
    on the roll of every member league taking part (`source` names the competition and
    the league, so settling the final again rewrites each)."""
    organisation = competition.organisation
    for season in honour_seasons(competition):
        source = f"competition:{competition.pk}"
        if organisation is not None:
            source = f"{source}:league:{season.league_id}"
        honours.record_honour(
            season=season,
            title=competition.name,
            kind="competition",
            source=source,
            winner=_holder(winner),
            runner_up=_holder(loser) if loser is not None else None,
            detail=organisation.name if organisation is not None else "",
            now=now,
        )


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
    side = team_tie_winner(tie.competition, fixture)
    now = fixture.result_confirmed_at or timezone.now()
    if side is None:
        log(tie.competition, None, "level", now, tie=tie)
        return
    tie_decide(tie, tie.home if side == "home" else tie.away, Tie.Status.PLAYED, "", None, now)  # type: ignore[arg-type]


def team_tie_winner(competition: Competition, fixture: Fixture) -> str | None:
    """Which side wins a team tie from its match's result, by the competition's rule (the
    one place it is decided): `frames`, more frames, level on frames the higher
    aggregate; `aggregate`, the higher total score over all frames ("on total scores
    made"), level on that, more frames. "home", "away", or None when level on both (the
    secretary awards it)."""
    frames = (fixture.home_frames or Decimal(0), fixture.away_frames or Decimal(0))
    scores = (fixture.home_score or 0, fixture.away_score or 0)
    home: tuple[Decimal, Decimal] = (frames[0], Decimal(scores[0]))
    away: tuple[Decimal, Decimal] = (frames[1], Decimal(scores[1]))
    if competition.settle_by == Competition.SettleBy.AGGREGATE:
        home, away = home[::-1], away[::-1]
    if home == away:
        return None
    return "home" if home > away else "away"


def _holder(entry: Entry) -> Team | list[Player]:
    """Who an entry is on the roll of honour: its team, or its player (and partner)."""
    if entry.team is not None:
        return entry.team
    return [p for p in (entry.player, entry.partner) if p is not None]
