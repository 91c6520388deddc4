"""Helpers for the ratings tests: confirmed matches with frames written directly (the
ratings read only results), on fixtures of the small league."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from frames.models import Frame, FramePlayer, Match
from leagues.models import Fixture

BB = "bar_billiards_4pin"
CONFIRMED_AT = datetime(2026, 9, 2, 12, 0, tzinfo=timezone.get_current_timezone())


def roster(team) -> list:
    return [r.player for r in team.registrations.select_related("player").order_by("id")]


def confirmed_match(fixture: Fixture, day: date, frames: list[tuple]) -> Match:
    """A confirmed match on `day` with its frames: each (home players, away players,
    home score, away score); a level score is a shared frame."""
    Fixture.objects.filter(pk=fixture.pk).update(
        date=day, result_confirmed_at=CONFIRMED_AT, status=Fixture.Status.PLAYED
    )
    match = Match.objects.create(
        fixture=fixture, status=Match.Status.CONFIRMED, game_id=BB, confirmed_at=CONFIRMED_AT
    )
    for number, (home, away, hs, as_) in enumerate(frames, start=1):
        add_frame(match, number, home, away, hs, as_)
    won = sum(1 for _h, _a, hs, as_ in frames if hs > as_)
    lost = sum(1 for _h, _a, hs, as_ in frames if hs < as_)
    shared = Decimal(len(frames) - won - lost) / 2
    Match.objects.filter(pk=match.pk).update(
        home_frames=won + shared,
        away_frames=lost + shared,
        home_score=sum(f[2] for f in frames),
        away_score=sum(f[3] for f in frames),
    )
    match.refresh_from_db()
    return match


def add_frame(match: Match, number: int, home, away, hs: int, as_: int) -> Frame:
    shared = hs == as_
    frame = Frame.objects.create(
        match=match,
        number=number,
        order=number,
        kind="doubles" if len(home) == 2 else "singles",
        game_id=BB,
        status=Frame.Status.COMPLETE,
        home_score=hs,
        away_score=as_,
        shared=shared,
        winner="" if shared else ("home" if hs > as_ else "away"),
        result_source="paper",
    )
    for side, players in (("home", home), ("away", away)):
        for position, player in enumerate(players, start=1):
            FramePlayer.objects.create(frame=frame, side=side, position=position, player=player)
    return frame


def fixtures_of(league, division=None) -> list[Fixture]:
    return list(
        Fixture.objects.filter(division=division or league.premier)
        .select_related("home", "away")
        .order_by("round", "id")
    )
