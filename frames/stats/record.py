"""Player statistics from the shot records.

When a frame is complete its log is folded through the rules engine once, and each
player's line for the frame (the result, and the statistics the game declares: for bar
billiards the highest break, breaks, 200s and so on) is written as `PlayerFrameStat` rows by
`player_frame_stats_replace`, next to the fixture the frame was played for.
Leaderboards and the player page then aggregate those lines in the database.

- Only the effective history counts: an event an undo took back is left out. The event
  an undo takes back is the undo's `top_before`, so "not undone" is one anti-join.
- The engine computes each named player's statistics (`Game.player_statistics`); the
  names in the frame's setup are matched to its players in `FramePlayer` order (the order
  the draw gave the engine), so two players with the same name are never confused.
- Frames scored on paper give results but no shot statistics (`has_shots` false);
  frames conceded before play are not counted as played.
- Leaderboards count matches whose result is confirmed, like the tables.

`frame_stats_record` runs when a frame completes (call it, or queue
`record_frame_stats`, after the frame's result is written); `sync_frame_stats` (beat)
records any complete frame whose lines are missing or stale, and `stats_rebuild`
recomputes everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import (
    Exists,
    OuterRef,
    Q,
    QuerySet,
)

from frames.engine import frame_setup, game_of
from frames.models import Frame, FrameEvent, FramePlayer, PlayerFrameStat, Side
from leagues.models import Fixture, Season
from marker.errors import DomainError

COUNTED = (Frame.Status.COMPLETE,)

STAT_FIELDS = ("won", "shared", "score", "opponent_score", "has_shots", "game_id", "values")


@transaction.atomic
def player_frame_stats_replace(
    *, fixture: Fixture, frame_number: int, lines: list[dict], source_seq: int = 0
) -> list[PlayerFrameStat]:
    """Replace the players' lines for one frame of a fixture. Each line is a dict with
    player_id, side ("home"/"away"), doubles, and STAT_FIELDS (`values`: the statistics the
    game declares, name → number)."""
    teams = {"home": fixture.home_id, "away": fixture.away_id}
    new = []
    for line in lines:
        side = line["side"]
        if side not in teams:
            raise DomainError("bad_value", f"{side!r} is not a side.", field="side")
        values = line.get("values") or {}
        if not all(
            isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
            for k, v in values.items()
        ):
            raise DomainError("bad_value", "Statistics are numbers by name.", field="values")
        new.append(
            PlayerFrameStat(
                season_id=fixture.season_id,
                division_id=fixture.division_id,
                fixture=fixture,
                frame_number=frame_number,
                player_id=line["player_id"],
                team_id=teams[side],
                side=side,
                doubles=bool(line.get("doubles")),
                played_on=line.get("played_on") or fixture.date,
                source_seq=source_seq,
                **{k: line[k] for k in STAT_FIELDS if k in line},
            )
        )
    PlayerFrameStat.objects.filter(fixture=fixture, frame_number=frame_number).delete()
    return PlayerFrameStat.objects.bulk_create(new)


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


def setup_names(setup: Mapping[str, Any], players: list[FramePlayer]) -> dict[str, int]:
    """Name in the engine's setup → player id, for a league frame's players. The setup
    names them in `FramePlayer` order: by side (home first) and position, either as
    `{"players": {side: [names]}}` or as one list, home's players first."""
    named = setup.get("players")
    if isinstance(named, Mapping):
        names = [n for side in (Side.HOME, Side.AWAY) for n in named.get(side) or ()]
    elif isinstance(named, list):
        names = list(named)
    else:
        names = []
    ordered = sorted(players, key=lambda p: (p.side != Side.HOME, p.position))
    return {
        name: fp.player_id
        for name, fp in zip(names, ordered, strict=False)
        if isinstance(name, str)
    }


def frame_lines(frame: Frame, players: list[FramePlayer], payloads: list[dict]) -> list[dict]:
    """Each player's line for a complete frame (dicts for player_frame_stats_replace): the
    result for their side, and the statistics the game declares, computed by the engine
    from the effective log (paper frames have none)."""
    has_shots = bool(payloads) and frame.result_source != "paper"
    values: dict[int, dict[str, Any]] = {}
    if has_shots:
        setup = frame_setup(frame)
        by_name = game_of(frame).player_statistics(setup, payloads)
        for name, player_id in setup_names(setup, players).items():
            values[player_id] = dict(by_name.get(name, {}))
    scores: dict[str, int] = {Side.HOME: frame.home_score or 0, Side.AWAY: frame.away_score or 0}
    lines = []
    for fp in sorted(players, key=lambda p: (p.side, p.position)):
        other = Side.AWAY if fp.side == Side.HOME else Side.HOME
        lines.append(
            {
                "player_id": fp.player_id,
                "side": str(fp.side),
                "doubles": frame.kind == Frame.Kind.DOUBLES,
                "played_on": frame.completed_at.date() if frame.completed_at else None,
                "won": frame.winner == fp.side and not frame.shared,
                "shared": frame.shared,
                "score": scores[fp.side],
                "opponent_score": scores[other],
                "has_shots": has_shots,
                "game_id": frame.game_id,
                "values": values.get(fp.player_id, {}),
            }
        )
    return lines


def frame_stats_record(*, frame_id: int) -> int:
    """(Re)write the players' lines for one frame from its log; a frame that is not
    complete has none. Safe to run twice. Returns the number of lines written."""
    frame = Frame.objects.select_related("match__fixture").get(pk=frame_id)
    if frame.match is None:
        return 0  # a friendly game: no league, no lines
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
