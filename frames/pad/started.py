"""A frame of a league match started: its teams' registered players are told
(FRAME_STARTED, off by default), once per frame (`frame-started:{frame.pk}`).

Called only when a frame goes from scheduled to in play (its first event, or the pad's
start), inside that write's transaction: the shots after it never reach here."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse

from frames.models import Frame, FramePlayer, Match
from leagues import audience
from leagues.models import Fixture
from notifications.events import Event
from notifications.services import anyone_wants, notify


def frame_started_notify(*, frame: Frame, match: Match | None, now: datetime) -> int:
    if match is None:  # a friendly game: nobody's team
        return 0
    if not anyone_wants(Event.FRAME_STARTED):  # off by default: one query, usually the last
        return 0
    fixture = Fixture.objects.select_related("home", "away", "season").get(pk=match.fixture_id)
    sides: dict[str, list[str]] = {"home": [], "away": []}
    for slot in FramePlayer.objects.filter(frame_id=frame.pk).select_related("player"):
        sides.setdefault(slot.side, []).append(slot.player.public_name)
    who = " v ".join(" & ".join(names) or "?" for names in (sides["home"], sides["away"]))
    return notify(
        event=Event.FRAME_STARTED,
        to=audience.team_people([fixture.home_id, fixture.away_id], captains=False),
        key=f"frame-started:{frame.pk}",
        title=f"Frame {frame.number} started: {fixture.home.name} v {fixture.away.name}",
        body=f"{who}. Follow it live.",
        url=reverse("match-live", args=[match.pk]),
        league_id=fixture.season.league_id,
        now=now,
    )
