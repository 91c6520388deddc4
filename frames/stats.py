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
from datetime import date
from typing import Any

from celery import shared_task
from django.db.models import (
    Count,
    Exists,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Greatest

from leagues.models import Division, Player, PlayerFrameStat, Season
from leagues.services import player_frame_stats_replace
from rules import registry

from .events import frame_setup
from .models import Frame, FrameEvent, FramePlayer, Side

COUNTED = (Frame.Status.COMPLETE,)


# ------------------------------------------------------------------- from the log


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
    scores = {Side.HOME: frame.home_score or 0, Side.AWAY: frame.away_score or 0}
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


@shared_task(acks_late=True)
def record_frame_stats(frame_id: int) -> int:
    """Queue after a frame's result is written (delay_on_commit)."""
    return frame_stats_record(frame_id=frame_id)


@shared_task
def sync_frame_stats() -> int:
    """Beat: heal frames whose statistics were missed."""
    return stats_sync()


# -------------------------------------------------------------------------- reads

#: Leaderboard columns people may sort by (annotation names differ from the line's
#: field names: an annotation would otherwise shadow the field inside the aggregates).
SORTS = {
    "win_rate": "Win rate",
    "played": "Frames played",
    "frames_won": "Frames won",
    "best_break": "Highest break",
    "average": "Average score",
    "two_hundreds": "200s",
    "red_two_hundreds": "Red in the 200",
    "wipeouts": "Black-pin wipe-outs",
}


def _aggregates() -> dict[str, Any]:
    played = Count("id")
    won = Count("id", filter=Q(won=True))
    shared = Count("id", filter=Q(shared=True))
    return {
        "played": played,
        "frames_won": won,
        "frames_shared": shared,
        "frames_lost": played - won - shared,
        "win_rate": ExpressionWrapper(
            (Cast(won, FloatField()) + Cast(shared, FloatField()) * Value(0.5))
            * Value(100.0)
            / Cast(Greatest(played, Value(1)), FloatField()),
            output_field=FloatField(),
        ),
        "average": ExpressionWrapper(
            Cast(Coalesce(Sum("score"), 0), FloatField()) / Cast(Greatest(played, 1), FloatField()),
            output_field=FloatField(),
        ),
        "shot_frames": Count("id", filter=Q(has_shots=True)),
        "best_break": Coalesce(Max("high_break"), 0),
        "two_hundreds": Coalesce(Sum("pots_200"), 0),
        "red_two_hundreds": Coalesce(Sum("reds_200"), 0),
        "wipeouts": Coalesce(Sum("black_pin_wipeouts"), 0),
        "wiped_total": Coalesce(Sum("points_wiped"), 0),
    }


def _counted() -> QuerySet[PlayerFrameStat]:
    return PlayerFrameStat.objects.filter(fixture__result_confirmed_at__isnull=False)


def leaderboard(
    *,
    season: Season | None = None,
    division: Division | None = None,
    sort: str = "win_rate",
    min_frames: int = 0,
) -> list[dict]:
    """Players of a division (or a season) with their figures, best first by `sort`
    (then highest break, then name). One grouped query."""
    if sort not in SORTS:
        sort = "win_rate"
    qs = _counted()
    if division is not None:
        qs = qs.filter(division=division)
    elif season is not None:
        qs = qs.filter(season=season)
    rows = (
        qs.values("player_id", "player__name", "team_id", "team__name")
        .annotate(**_aggregates())
        .filter(played__gte=max(min_frames, 1))
        .order_by(F(sort).desc(), F("best_break").desc(), "player__name", "team__name")
    )
    return list(rows)


def player_summary(player: Player) -> list[dict]:
    """The player's figures per season, newest first (one grouped query)."""
    return list(
        _counted()
        .filter(player=player)
        .values("season_id", "season__name", "season__league__name", "team_id", "team__name")
        .annotate(**_aggregates())
        .order_by("-season_id", "team__name")
    )


def player_form(player: Player, *, frames: int = 20) -> list[PlayerFrameStat]:
    """The player's last `frames` lines, oldest first."""
    recent = list(
        _counted()
        .filter(player=player)
        .select_related("fixture__home", "fixture__away")
        .order_by("-played_on", "-fixture_id", "-frame_number")[:frames]
    )
    recent.reverse()
    return recent


# ----------------------------------------------------------------- the form chart

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 8
COLOURS = {"won": "#0b6e4f", "lost": "#b3261e", "shared": "#9a6700"}


def form_chart(lines: list[PlayerFrameStat]) -> dict | None:
    """Geometry for the server-rendered SVG form chart: one bar per frame (height: the
    side's score; colour: won, lost or shared) and a line for the running win rate.
    Presentation attributes only (the CSP forbids style attributes)."""
    if not lines:
        return None
    top = max(max(line.score for line in lines), 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / len(lines)
    bar_w = max(step * 0.7, 1.0)
    bars, points = [], []
    won = 0.0
    for i, line in enumerate(lines):
        result = "shared" if line.shared else ("won" if line.won else "lost")
        won += 1 if line.won else 0.5 if line.shared else 0
        h = max(inner_h * line.score / top, 1.0)
        x = CHART_PAD + i * step + (step - bar_w) / 2
        fixture = line.fixture
        opponent = fixture.away if line.side == "home" else fixture.home
        when = line.played_on.strftime("%-d %b") if isinstance(line.played_on, date) else ""
        bars.append(
            {
                "x": round(x, 1),
                "y": round(CHART_PAD + inner_h - h, 1),
                "w": round(bar_w, 1),
                "h": round(h, 1),
                "fill": COLOURS[result],
                "title": f"{when} v {opponent.name}, frame {line.frame_number}: {result} "
                f"{line.score:,}–{line.opponent_score:,}",
            }
        )
        rate = won / (i + 1)
        points.append(
            f"{round(CHART_PAD + i * step + step / 2, 1)},"
            f"{round(CHART_PAD + inner_h * (1 - rate), 1)}"
        )
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "bars": bars,
        "rate_line": " ".join(points),
        "base_y": CHART_HEIGHT - CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "pad": CHART_PAD,
        "top": top,
        "last_rate": round(100 * won / len(lines)),
    }
