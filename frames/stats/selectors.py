"""Reads of the statistics: leaderboards, a player's summary and form.

Every figure is aggregated by the database in one grouped query: the results every game
has (frames played, won, shared, the win rate, the average score) and the statistics the
season's game declares (`Game.statistics`: each with its label and how it adds up over
frames: a sum, the best, the fewest, the number of frames in which it happened, or a
ratio of two sums). The web app names no game: it ranks what the game declares.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce, Greatest, NullIf

from frames.models import PlayerFrameStat
from leagues.models import Division, Player, Season, public_name_of
from rules import registry
from rules.core import Stat

#: The results every game has, by sort key.
GENERAL = {
    "win_rate": "Win rate",
    "played": "Frames played",
    "frames_won": "Frames won",
    "average": "Average score",
}


@dataclass(frozen=True)
class Column:
    """A declared statistic as a leaderboard column: its sort key and how to show it."""

    key: str
    label: str
    doc: str
    agg: str

    def show(self, value: Any) -> str:
        if value is None:
            return "–"
        if self.agg == "ratio":
            return f"{value:.2f}"
        return f"{value:g}" if isinstance(value, float) else str(value)


def columns(game_id: str) -> list[Column]:
    """The game's declared statistics as columns (none for a game the engine lost)."""
    try:
        stats = registry.get(game_id).statistics
    except registry.UnknownGame:
        return []
    return [Column(f"s_{s.name}", s.label, s.doc, s.agg) for s in stats]


def sorts(game_id: str) -> dict[str, str]:
    """Every key a leaderboard of this game can be sorted by, with its label."""
    return {**GENERAL, **{c.key: c.label for c in columns(game_id)}}


def _value(name: str) -> Cast:
    return Cast(KeyTextTransform(name, "values"), FloatField())


def _stat(stat: Stat) -> Any:
    if stat.agg == "sum":
        return Coalesce(Sum(_value(stat.name)), Value(0.0))
    if stat.agg == "max":
        return Max(_value(stat.name))
    if stat.agg == "min":
        return Min(_value(stat.name))
    if stat.agg == "count":
        happened = Q(values__has_key=stat.name) & ~Q(**{f"values__{stat.name}": 0})
        return Count("id", filter=happened)
    assert stat.numerator and stat.denominator  # a ratio names both
    return ExpressionWrapper(
        Sum(_value(stat.numerator)) / NullIf(Sum(_value(stat.denominator)), Value(0.0)),
        output_field=FloatField(),
    )


def _aggregates(stats: Iterable[Stat]) -> dict[str, Any]:
    played = Count("id")
    won = Count("id", filter=Q(won=True))
    shared = Count("id", filter=Q(shared=True))
    figures: dict[str, Any] = {
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
    }
    for stat in stats:
        figures[f"s_{stat.name}"] = _stat(stat)
    return figures


def _game_stats(game_ids: Iterable[str]) -> list[Stat]:
    stats: dict[str, Stat] = {}
    for game_id in game_ids:
        try:
            for stat in registry.get(game_id).statistics:
                stats.setdefault(stat.name, stat)
        except registry.UnknownGame:
            continue
    return list(stats.values())


def _with_cells(row: dict[str, Any], game_id: str) -> dict[str, Any]:
    row["cells"] = [(c, c.show(row.get(c.key))) for c in columns(game_id)]
    return row


def _counted() -> QuerySet[PlayerFrameStat]:
    return PlayerFrameStat.objects.filter(fixture__result_confirmed_at__isnull=False)


def leaderboard(
    *,
    season: Season | None = None,
    division: Division | None = None,
    sort: str = "win_rate",
    min_frames: int = 0,
) -> list[dict]:
    """Players of a division (or a season) with their figures, best first by `sort` (a
    key of `sorts(game)`; then frames won, then the player's id, which no erasure or
    choice of initials changes). One grouped query."""
    scope = division.season if division is not None else season
    game_id = scope.game_id if scope is not None else registry.DEFAULT_GAME
    if sort not in sorts(game_id):
        sort = "win_rate"
    qs = _counted()
    if division is not None:
        qs = qs.filter(division=division)
    elif season is not None:
        qs = qs.filter(season=season)
    rows = (
        qs.values("player_id", "player__name", "player__private_name", "team_id", "team__name")
        .annotate(**_aggregates(_game_stats([game_id])))
        .filter(played__gte=max(min_frames, 1))  # type: ignore[misc]
        .order_by(
            F(sort).desc(nulls_last=True),
            F("frames_won").desc(),
            # Then by registration (the player's id), not by name: an erasure or a
            # choice of initials must not reorder equal rows.
            "player_id",
            "team_id",
        )
    )
    return [_public(_with_cells(row, game_id)) for row in rows]


def _public(row: dict[str, Any]) -> dict[str, Any]:
    """The row with the player's public name in `player__name` (initials for a player
    who asked not to be named)."""
    row["player__name"] = public_name_of(row["player__name"], row.pop("player__private_name"))
    return row


def player_summary(player: Player) -> list[dict]:
    """The player's figures per season, newest first, each with its game's statistics
    (two queries: the games the player has played, then one grouped query)."""
    lines = _counted().filter(player=player)
    game_ids = sorted(set(lines.values_list("game_id", flat=True).distinct()))
    rows = (
        lines.values(
            "season_id", "season__name", "season__league__name", "team_id", "team__name", "game_id"
        )
        .annotate(**_aggregates(_game_stats(game_ids)))
        .order_by("-season_id", "team__name")
    )
    return [_with_cells(row, row["game_id"]) for row in rows]


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
