"""Player statistics from the shot records.

When a frame is complete its log is folded through the rules engine once, and each
player's line for the frame (result, highest break, breaks, 200s, the red in the 200,
black-pin wipe-outs) is written onto the league by `leagues.services.
player_frame_stats_replace` — the way a match result is written onto its fixture.
Leaderboards and the player page then aggregate those lines in the database.

- Only the effective history counts: an event an undo took back is left out. The event
  an undo takes back is the undo's `top_before`, so "not undone" is one anti-join.
- The engine is re-run with each side's players named by their ids (in `FramePlayer`
  position order, the order the draw gave the engine), so in doubles every visit is
  credited to the player at the table (`last.player`), and two players with the same
  name can never be confused.
- Frames scored on paper give results but no shot statistics (`has_shots` false);
  frames conceded before play are not counted as played.
- Leaderboards count matches whose result is confirmed, like the tables.

`frame_stats_record` runs when a frame completes (call it, or queue
`record_frame_stats`, after the frame's result is written); `sync_frame_stats` (beat)
records any complete frame whose lines are missing or stale, and `stats_rebuild`
recomputes everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Exists,
    OuterRef,
    Q,
    QuerySet,
)

from frames.engine import frame_setup
from frames.models import Frame, FrameEvent, FramePlayer, Side
from leagues.models import PlayerFrameStat, Season
from leagues.services import player_frame_stats_replace
from rules import registry

COUNTED = (Frame.Status.COMPLETE,)


def effective_payloads(frame_id: int) -> list[dict]:
    """The frame's game events still in its history, in order (undone ones left out)."""
    undone = FrameEvent.objects.filter(
        frame_id=OuterRef("frame_id"), kind=FrameEvent.Kind.UNDO, top_before=OuterRef("seq")
    )
    return list(
        FrameEvent.objects.filter(frame_id=frame_id, kind=FrameEvent.Kind.EVENT)
        .exclude(Exists(undone))
        .order_by("seq")
        .values_list("payload", flat=True)
    )


@dataclass
class _Counts:
    high_break: int = 0
    breaks: int = 0
    points_banked: int = 0
    pots_200: int = 0
    reds_200: int = 0
    black_pin_wipeouts: int = 0
    points_wiped: int = 0


def shot_counts(
    game_id: str, setup: Mapping[str, Any], payloads: Iterable[Mapping[str, Any]]
) -> dict[str, _Counts]:
    """Fold the events through the engine and count, per player named in `setup`, what
    each shot's `last` summary says that player did. Pure: no database.

    >>> setup = {"players": {"home": ["7"], "away": ["9"]}}
    >>> c = shot_counts("bar_billiards_4pin", setup, [
    ...     {"type": "shot", "pots": [{"ball": "white", "hole": 200}, {"ball": "red", "hole": 200}]},
    ...     {"type": "shot"},
    ...     {"type": "shot", "fouls": ["pin_200"]},
    ... ])
    >>> c["7"].high_break, c["7"].pots_200, c["7"].reds_200, c["9"].black_pin_wipeouts
    (600, 1, 1, 1)
    """
    game = registry.get(game_id)
    counts: dict[str, _Counts] = {}
    if getattr(game, "family", "") != "bar_billiards":
        return counts
    state = game.initial(setup)
    for payload in payloads:
        state = game.apply(state, payload)
        last = game.view(state).get("last") or {}
        player = last.get("player")
        if last.get("type") != "shot" or player is None:
            continue
        c = counts.setdefault(player, _Counts())
        banked = last.get("banked") or 0
        if banked > 0:
            c.breaks += 1
            c.points_banked += banked
            c.high_break = max(c.high_break, banked)
        for pot in last.get("pots") or ():
            if pot.get("hole") == 200 and pot.get("points", 0) > 0:
                if pot.get("ball") == "red":
                    c.reds_200 += 1
                else:
                    c.pots_200 += 1
        if last.get("foul") == "pin_200":
            c.black_pin_wipeouts += 1
            c.points_wiped += last.get("wiped") or 0
    return counts


def frame_lines(frame: Frame, players: list[FramePlayer], payloads: list[dict]) -> list[dict]:
    """Each player's line for a complete frame (dicts for player_frame_stats_replace)."""
    by_side: dict[str, list[FramePlayer]] = {Side.HOME: [], Side.AWAY: []}
    for fp in sorted(players, key=lambda p: (p.side, p.position)):
        by_side[fp.side].append(fp)
    has_shots = bool(payloads) and frame.result_source != "paper"
    counts: dict[str, _Counts] = {}
    if has_shots:
        setup = frame_setup(frame)
        setup["players"] = {
            side: [str(fp.player_id) for fp in fps] or [None] for side, fps in by_side.items()
        }
        counts = shot_counts(frame.game_id, setup, payloads)
    scores: dict[str, int] = {Side.HOME: frame.home_score or 0, Side.AWAY: frame.away_score or 0}
    lines = []
    for side, fps in by_side.items():
        other = Side.AWAY if side == Side.HOME else Side.HOME
        for fp in fps:
            c = counts.get(str(fp.player_id), _Counts())
            lines.append(
                {
                    "player_id": fp.player_id,
                    "side": str(side),
                    "doubles": frame.kind == Frame.Kind.DOUBLES,
                    "played_on": frame.completed_at.date() if frame.completed_at else None,
                    "won": frame.winner == side and not frame.shared,
                    "shared": frame.shared,
                    "score": scores[side],
                    "opponent_score": scores[other],
                    "has_shots": has_shots,
                    **c.__dict__,
                }
            )
    return lines


def frame_stats_record(*, frame_id: int) -> int:
    """(Re)write the players' lines for one frame from its log; a frame that is not
    complete has none. Safe to run twice. Returns the number of lines written."""
    frame = Frame.objects.select_related("match__fixture").get(pk=frame_id)
    fixture = frame.match.fixture
    lines: list[dict] = []
    if frame.status in COUNTED:
        players = list(FramePlayer.objects.filter(frame=frame))
        lines = frame_lines(frame, players, effective_payloads(frame.pk))
        for line in lines:
            line["played_on"] = fixture.date or line["played_on"]
    player_frame_stats_replace(
        fixture=fixture, frame_number=frame.number, lines=lines, source_seq=frame.last_seq
    )
    return len(lines)


def frames_needing_stats() -> QuerySet[Frame]:
    """Complete frames whose lines are missing or older than their log, and frames with
    lines that no longer count (reopened, conceded)."""
    lines = PlayerFrameStat.objects.filter(
        fixture_id=OuterRef("match__fixture_id"), frame_number=OuterRef("number")
    )
    has_players = FramePlayer.objects.filter(frame_id=OuterRef("pk"))
    return Frame.objects.filter(
        Q(status__in=COUNTED, match__fixture__isnull=False)
        & Exists(has_players)
        & (~Exists(lines) | Exists(lines.exclude(source_seq=OuterRef("last_seq"))))
        | (~Q(status__in=COUNTED) & Exists(lines))
    )


def stats_sync(*, limit: int = 1000) -> int:
    """Record the frames `frames_needing_stats` finds (the healer). Returns how many."""
    ids = list(frames_needing_stats().order_by("id").values_list("pk", flat=True)[:limit])
    for frame_id in ids:
        frame_stats_record(frame_id=frame_id)
    return len(ids)


def stats_rebuild(*, season: Season | None = None) -> int:
    """Recompute every line (of one season) from the logs."""
    frames = Frame.objects.filter(status__in=COUNTED)
    lines = PlayerFrameStat.objects.all()
    if season is not None:
        frames = frames.filter(match__fixture__season=season)
        lines = lines.filter(season=season)
    lines.delete()
    ids = list(frames.order_by("id").values_list("pk", flat=True))
    for frame_id in ids:
        frame_stats_record(frame_id=frame_id)
    return len(ids)
