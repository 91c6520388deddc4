"""Reads of the statistics: leaderboards, a player's summary and form."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Greatest

from leagues.models import Division, Player, PlayerFrameStat, Season

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
