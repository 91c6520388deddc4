"""What the referee pad and the live page read: a frame's position and events, the
frames a user referees, and the live match."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, Subquery
from django.urls import reverse

from frames.engine import frame_setup, initial_view
from frames.models import Frame, FrameEvent, Match, Side
from frames.results import tally
from marker.session_user import user_columns, user_from_columns
from rules import registry

# What a write reads: the frame's position and cached state, and what `frames.enter_event`
# looks at (the referee, both teams' captains). Not the (larger) public view, which only a
# 409 answer needs; the columns are named because the match row alone has ~30 of them.
_WRITE_FIELDS = (
    "id",
    "match_id",
    "friendly_id",
    "friendly__owner_id",
    "game_id",
    "referee_id",
    "referee__user_id",
    "status",
    "setup",
    "state",
    "last_seq",
    "top_seq",
    "started_at",
    "match__status",
    "match__fixture_id",
    *(
        f"match__fixture__{side}__{field}"
        for side in ("home", "away")
        for field in ("id", "captain_id", "vice_captain_id")
    ),
)

OPEN_STATUSES = (Frame.Status.SCHEDULED, Frame.Status.IN_PLAY)
RECENT_EVENTS = 8


def _write_rows():
    return Frame.objects.select_related(
        "match__fixture__home", "match__fixture__away", "friendly", "referee"
    ).only(*_WRITE_FIELDS)


def frame_for_write(frame_id: int) -> Frame | None:
    """The frame row with what `frames.enter_event` looks at (referee, captains): one read
    serves both the permission check and the write."""
    return _write_rows().filter(pk=frame_id).first()


def frame_and_user_for_write(frame_id: int, user_id: Any) -> tuple[Frame, Any] | None:
    """`frame_for_write` with the signed-in user's row in the same statement (one query
    for the shot's whole read: `marker.session_user`). None when there is no such frame;
    the user is None when there is no such user."""
    user_model = get_user_model()
    row = (
        _write_rows()
        .filter(pk=frame_id)
        .annotate(
            _user=Subquery(
                user_model._default_manager.filter(pk=user_id).values(row=user_columns())[:1]
            )
        )
        .first()
    )
    if row is None:
        return None
    data = row._user  # type: ignore[attr-defined]  # the annotation above
    if isinstance(data, str):  # a backend that hands JSON back as text
        data = json.loads(data)
    return row, user_from_columns(data)


def frame_head(frame: Frame) -> dict[str, Any]:
    """The frame's current position: sequence numbers, status and public state."""
    return {
        "frame": frame.pk,
        "status": frame.status,
        "last_seq": frame.last_seq,
        "top_seq": frame.top_seq,
        "view": frame.view if frame.view is not None else initial_view(frame),
    }


def _event_rows(qs) -> list[dict[str, Any]]:
    return [
        {
            "seq": r["seq"],
            "event_id": str(r["event_id"]),
            "kind": r["kind"],
            "payload": r["payload"],
            "top_before": r["top_before"],
            "top_after": r["top_after"],
            "last": (r["view_after"] or {}).get("last"),
            "entered_by": r["entered_by__username"],
            "device_id": r["device_id"],
            "created_at": r["created_at"].isoformat(),
        }
        for r in qs.values(
            "seq",
            "event_id",
            "kind",
            "payload",
            "top_before",
            "top_after",
            "view_after",
            "entered_by__username",
            "device_id",
            "created_at",
        )
    ]


def events_since(frame_id: int, since: int, limit: int | None = None) -> list[dict[str, Any]]:
    """The frame's events after sequence number `since`, in order."""
    qs = FrameEvent.objects.filter(frame_id=frame_id, seq__gt=since).order_by("seq")
    if limit is not None:
        qs = qs[:limit]
    return _event_rows(qs)


def recent_events(frame_id: int, count: int = RECENT_EVENTS) -> list[dict[str, Any]]:
    """The frame's last `count` events, oldest first."""
    rows = _event_rows(FrameEvent.objects.filter(frame_id=frame_id).order_by("-seq")[:count])
    return rows[::-1]


def frame_players(frame: Frame) -> dict[str, list[str]]:
    """side -> its players' names in order (from prefetched `players__player`)."""
    players: dict[str, list[str]] = {Side.HOME: [], Side.AWAY: []}
    for slot in frame.players.all():
        players[slot.side].append(slot.player.name)
    return players


def frame_sides(frame: Frame) -> dict[str, dict[str, Any]]:
    """side -> {team, players} for display (none for a friendly game: its parties are the
    engine's)."""
    if frame.match is None:
        return {}
    fixture = frame.match.fixture
    players = frame_players(frame)
    return {
        Side.HOME: {"team": fixture.home.name, "players": players[Side.HOME]},
        Side.AWAY: {"team": fixture.away.name, "players": players[Side.AWAY]},
    }


def frame_for_pad(frame_id: int) -> Frame:
    """The frame with its match, teams, referee and players (raises Frame.DoesNotExist)."""
    return (
        Frame.objects.select_related(
            "match__fixture__home", "match__fixture__away", "referee", "friendly"
        )
        .prefetch_related("players__player")
        .get(pk=frame_id)
    )


def frame_state(frame: Frame) -> dict[str, Any]:
    """What the pad shows: the head, the sides, the recent events and the confirmation."""
    return {
        **frame_head(frame),
        "match": frame.match_id,
        "friendly": frame.friendly_id,
        "number": frame.number,
        "kind": frame.kind,
        "game_id": frame.game_id,
        "referee": frame.referee.name if frame.referee else None,
        "sides": frame_sides(frame),
        **frame_engine(frame),
        "recent": recent_events(frame.pk),
        "confirmed": frame.status == Frame.Status.COMPLETE,
        "result": {
            "home": frame.home_score,
            "away": frame.away_score,
            "winner": frame.winner,
            "shared": frame.shared,
        },
    }


def frame_engine(frame: Frame) -> dict[str, Any]:
    """What a pad needs to run the engine itself (offline): the frame's setup, the engine's
    own state at the current event (`dump`, null before the first event) and the values
    the event fields may take now (`choices`, for `choices_from` fields)."""
    game = registry.get(frame.game_id)
    setup = frame_setup(frame) if frame.state is None else dict(frame.setup)
    state = game.initial(setup) if frame.state is None else game.load(frame.state)
    return {"setup": setup, "dump": frame.state, "choices": game.choice_sets(state)}


def frame_etag(frame: Frame, *extra: Any) -> str:
    """A strong ETag for a frame's state: it changes with every event and status change."""
    return (
        f'"f{frame.pk}-{frame.last_seq}-{frame.top_seq}-{frame.status}-{"-".join(map(str, extra))}"'
    )


def match_live(match_id: int) -> dict[str, Any]:
    """Every frame of a match with its players, scores and break (raises Match.DoesNotExist)."""
    match = Match.objects.select_related("fixture__home", "fixture__away").get(pk=match_id)
    frames = list(
        Frame.objects.filter(match=match)
        .select_related("referee")
        .prefetch_related("players__player")
        .order_by("order")
    )
    rows = []
    for frame in frames:
        view = frame.view or {}
        players = frame_players(frame)
        scores = view.get("scores") or {}
        rows.append(
            {
                "id": frame.pk,
                "number": frame.number,
                "order": frame.order,
                "kind": frame.kind,
                "status": frame.status,
                "players": players,
                "referee": frame.referee.name if frame.referee else None,
                "scores": {
                    Side.HOME.value: scores.get(Side.HOME, frame.home_score),
                    Side.AWAY.value: scores.get(Side.AWAY, frame.away_score),
                },
                "break": view.get("break", 0),
                "at_table": view.get("at_table"),
                "player": view.get("player"),
                "next": view.get("next"),
                "over": bool(view.get("over")) or frame.status == Frame.Status.COMPLETE,
                "winner": frame.winner or view.get("winner") or "",
                "shared": frame.shared or bool(view.get("shared")),
                "last_seq": frame.last_seq,
                "pad": reverse("frame-pad", args=[frame.pk]),
            }
        )
    return {
        "match": match.pk,
        "status": match.status,
        "status_label": match.get_status_display(),
        "frames_display": tally(frames).frames_display,
        "home": {"team": match.fixture.home.name, "score": match.home_score},
        "away": {"team": match.fixture.away.name, "score": match.away_score},
        "frames": rows,
    }


def body_etag(body: Any) -> str:
    """A strong ETag for a JSON body."""
    digest = hashlib.blake2b(
        json.dumps(body, sort_keys=True, default=str).encode(), digest_size=12
    ).hexdigest()
    return f'"{digest}"'


def frames_for_user(user: Any) -> list[Frame]:
    """Open frames this user may score: as referee, as a captain of either team, or all
    frames of matches in play for the secretary."""
    if not getattr(user, "is_authenticated", False):
        return []
    qs = Frame.objects.filter(status__in=OPEN_STATUSES).exclude(
        match__status__in=[Match.Status.CONFIRMED, Match.Status.SETUP]
    )
    if not user.is_staff:
        mine = (
            Q(referee__user=user)
            | Q(match__fixture__home__captain=user)
            | Q(match__fixture__home__vice_captain=user)
            | Q(match__fixture__away__captain=user)
            | Q(match__fixture__away__vice_captain=user)
        )
        qs = qs.filter(mine)
    return list(
        qs.select_related("match__fixture__home", "match__fixture__away", "referee").order_by(
            "-match__fixture__date", "match_id", "order"
        )[:40]
    )
