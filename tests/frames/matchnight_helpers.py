"""Helpers for the match-night tests (no tests here): a fixture between the small
league's first two teams, squads, a drawn match, a snapshot of the database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from frames.draw import Draw, DrawnFrame, Referee
from frames.matchnight import common, drawing, seeding, signoff, squads
from frames.models import Frame, FrameEvent, FramePlayer, Match, MatchLog, Presence
from leagues.models import Fixture, Registration

NIGHT = datetime(2026, 9, 1, 19, 30, tzinfo=UTC)


def later(minutes: int = 0, hours: int = 0) -> datetime:
    return NIGHT + timedelta(minutes=minutes, hours=hours)


def fixture_of(league) -> Fixture:
    """teams[0] (captain, vice-captain, Rita) at home to teams[1] (other captain)."""
    return Fixture.objects.get(home=league.teams[0], away=league.teams[1])


def captain(league, side: str):
    return league.captain if side == "home" else league.other_captain


def roster(league, side: str) -> list:
    team = league.teams[0] if side == "home" else league.teams[1]
    regs = team.registrations.filter(status="active").select_related("player").order_by("id")
    return [r.player for r in regs]


def open_match(league) -> Match:
    return squads.match_open(fixture=fixture_of(league), actor=league.captain, now=NIGHT)


def mark(league, match: Match, home: int = 6, away: int = 6) -> Match:
    for side, count in (("home", home), ("away", away)):
        squads.match_mark_present(
            match=match,
            side=side,
            players=roster(league, side)[:count],
            actor=captain(league, side),
            now=NIGHT,
        )
    return match


def ready(league, match: Match) -> Match:
    """Both captains press Ready (the server makes their secrets)."""
    for side in ("home", "away"):
        seeding.match_commit(match=match, side=side, actor=captain(league, side), now=NIGHT)
    return match


def drawn(league, home: int = 6, away: int = 6, agree: bool = False) -> Match:
    match = mark(league, open_match(league), home, away)
    if agree:
        for side in ("home", "away"):
            squads.match_agree_short(match=match, side=side, actor=captain(league, side))
    ready(league, match)
    return drawing.match_draw(match=match, actor=league.captain, now=later(5))


def frames_of(match: Match) -> list[Frame]:
    return list(Frame.objects.filter(match=match).order_by("order"))


def as_draw(match: Match) -> Draw:
    """The stored frames as a frames.draw.Draw (labels from the hats), to validate."""
    match.refresh_from_db()
    present = common.present_players(match)
    label = {(side, p.pk): name for side in present for name, p in present[side].items()}
    frames = []
    for frame in Frame.objects.filter(match=match).order_by("order").prefetch_related("players"):
        names = {
            s: tuple(label[(s, fp.player_id)] for fp in frame.players.all() if fp.side == s)
            for s in ("home", "away")
        }
        referee = None
        if frame.referee_id:
            relaxed = frame.referee_note or None
            codes = []
            if relaxed and "also referees" in relaxed:
                codes.append("one_frame_each")
            if relaxed and "other side" in relaxed:
                codes.append("side_rotation")
            referee = Referee(
                frame.referee_side,
                label[(frame.referee_side, frame.referee_id)],
                ",".join(codes) or None,
            )
        conceded = ()
        if frame.status == Frame.Status.CONCEDED:
            conceded = ("home", "away") if frame.conceded_by == "both" else (frame.conceded_by,)
        frames.append(
            DrawnFrame(frame.number, frame.kind, names["home"], names["away"], referee, conceded)
        )
    return Draw(
        seed=match.seed,
        algorithm=match.algorithm,
        home_hat=tuple(match.home_hat),
        away_hat=tuple(match.away_hat),
        frames=tuple(frames),
        notes=tuple(match.draw_notes),
        agreed=match.short_agreed_home and match.short_agreed_away,
    )


def key_all(league, match: Match, scores: dict[int, tuple[int, int]] | None = None, **kw):
    """Key every played frame in from paper (home wins by default)."""
    scores = scores or {
        f.number: (1000, 500) for f in frames_of(match) if f.status != Frame.Status.CONCEDED
    }
    return signoff.match_key_in_paper(
        match=match,
        scores=scores,
        actor=kw.get("actor", league.captain),
        now=kw.get("now", later(120)),
    )


def snapshot(match: Match | None = None) -> dict:
    """What the database holds of match night (and rule 8), to prove a refusal changed
    nothing."""
    rows = {
        "matches": list(Match.objects.order_by("pk").values()),
        "log": MatchLog.objects.count(),
        "presences": list(Presence.objects.order_by("pk").values()),
        "frames": list(Frame.objects.order_by("pk").values()),
        "frame_players": FramePlayer.objects.count(),
        "events": FrameEvent.objects.count(),
        "registrations": list(Registration.objects.order_by("pk").values()),
        "fixtures": list(
            Fixture.objects.order_by("pk").values(
                "pk", "home_frames", "away_frames", "result_confirmed_at", "status"
            )
        ),
    }
    return rows


def refused(code: str, call, *args, **kwargs):
    """Assert that `call` raises DomainError(code) and changes nothing; return the error."""
    from marker.errors import DomainError

    before = snapshot()
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    assert info.value.code == code, info.value.message
    assert info.value.message
    assert snapshot() == before
    return info.value
