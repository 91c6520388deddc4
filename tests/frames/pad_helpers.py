"""Helpers shared by the pad's tests (service, API, soak, state machine, browser): a match
between two teams of the small league, and frames with players and a referee."""

from __future__ import annotations

import uuid
from typing import Any

from frames.models import Frame, FramePlayer, Match
from leagues.models import Fixture
from tests.factories import FixtureFactory, FrameFactory, FramePlayerFactory, MatchFactory

BB = "bar_billiards_4pin"


def make_match(league, *, home: int = 1, away: int = 0) -> Match:
    """A match in play between league.teams[home] and league.teams[away] (a fixture of
    theirs with no match yet, or a new one)."""
    home_team, away_team = league.teams[home], league.teams[away]
    fixture = Fixture.objects.filter(home=home_team, away=away_team, match__isnull=True).first()
    if fixture is None:
        fixture = FixtureFactory(
            season=league.season,
            division=league.second,
            round=90 + Fixture.objects.count(),
            home=home_team,
            away=away_team,
            venue=home_team.venue,
        )
    return MatchFactory(fixture=fixture, status=Match.Status.IN_PLAY)


def team_players(team, count: int) -> list:
    return [r.player for r in team.registrations.select_related("player").order_by("id")[:count]]


def make_frame(
    match: Match,
    *,
    number: int = 1,
    referee=None,
    kind: str = "singles",
    game_id: str = BB,
    setup: dict | None = None,
) -> Frame:
    """A scheduled frame with one player a side (two in doubles), named in order."""
    frame = FrameFactory(
        match=match,
        number=number,
        order=number,
        kind=kind,
        game_id=game_id,
        referee=referee,
        setup=setup or {},
    )
    per_side = 2 if kind == "doubles" else 1
    fixture = match.fixture
    taken = set(FramePlayer.objects.filter(frame__match=match).values_list("player_id", flat=True))
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        candidates = [
            p
            for p in team_players(team, 12)
            if p.pk not in taken and (referee is None or p.pk != referee.pk)
        ]
        for position, player in enumerate(candidates[:per_side], start=1):
            FramePlayerFactory(frame=frame, side=side, position=position, player=player)
    return frame


def referee_player(league):
    """The league's `player_user` as a Player (a registered player of teams[0])."""
    return league.player_user.player


def body(
    payload: dict[str, Any] | None = None,
    *,
    seq: int,
    kind: str = "event",
    event_id: str | None = None,
    device: str = "test-device",
) -> dict[str, Any]:
    """A POST body for the events endpoint."""
    return {
        "event_id": event_id or str(uuid.uuid4()),
        "expected_seq": seq,
        "kind": kind,
        "payload": payload if payload is not None else {},
        "device_id": device,
    }


def shot(*pots: tuple[str, int], fouls: tuple[str, ...] = (), **extra) -> dict[str, Any]:
    """A bar billiards shot: shot(("white", 50), ("red", 100), fouls=("miss",))."""
    event: dict[str, Any] = {"type": "shot"}
    if pots:
        event["pots"] = [{"ball": b, "hole": h} for b, h in pots]
    if fouls:
        event["fouls"] = list(fouls)
    event.update(extra)
    return event
