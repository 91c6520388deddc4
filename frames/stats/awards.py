"""The season's awards: their definitions, who leads each, who qualifies, and why.

An award (`frames.models.Award`, defined by the secretary with `award_define`) ranks players of a season by
one measure drawn from their frame lines (`PlayerFrameStat`): a statistic the game
declares, aggregated as the game says (the highest break is the best, 200s are summed),
the frames in which a statistic reached a threshold, the win rate, or the average score.
Its eligibility rules, a share of the team's fixtures and a number of frames, are
computed in the same query: one grouped aggregate per award gives every player's figure,
appearances, the team's fixtures and whether they qualify, ordered qualified first, best
first. Nothing is summed in Python; the rows are only worded ("qualifies: 14 of 22
fixtures"; "not eligible: 9 of 22 fixtures, needs 11").

Only results that count are counted: fixtures whose result is confirmed, as in the tables
and the leaderboards. The team's fixtures are those it has played so far (confirmed), so
the rule reads the same in November as in May.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import (
    BooleanField,
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.db.models.lookups import GreaterThanOrEqual
from django.utils import timezone

from frames.models import Award, PlayerFrameStat
from leagues.models import MAX_FRAME_SCORE, Fixture, Season, public_name_of
from marker.errors import DomainError
from marker.permissions import require
from rules import registry
from rules.core import Stat

from .selectors import _aggregates, _stat, _value

#: How many qualified players each award lists.
SHOWN = 5
#: The most frames an award may ask a player to have played.
MAX_MIN_FRAMES = 1000


def _declared(season: Season) -> dict[str, Stat]:
    try:
        return {s.name: s for s in registry.get(season.game_id).statistics}
    except registry.UnknownGame:
        return {}


# --------------------------------------------------------------------- definitions


@transaction.atomic
def award_define(
    *,
    season: Season,
    actor: Any,
    name: str,
    measure: str,
    stat: str = "",
    threshold: int | None = None,
    min_fixtures_percent: int = 0,
    min_frames: int = 0,
    now: datetime | None = None,
) -> Award:
    """Define a season award from the statistics, with its eligibility rules: a share of
    the team's fixtures played (0–100 %) and a number of frames."""
    require(
        actor,
        "leagues.manage_league",
        season,
        message="Only the league's secretary can define the season's awards.",
    )
    name = " ".join((name or "").split())
    if not name:
        raise DomainError("bad_value", "Give the award a name.", field="name")
    if measure not in Award.Measure.values:
        raise DomainError(
            "bad_value",
            f"Choose the measure from: {', '.join(Award.Measure.values)}.",
            field="measure",
        )
    if measure in (Award.Measure.STAT, Award.Measure.AT_LEAST):
        declared = _declared(season)
        if stat not in declared:
            raise DomainError(
                "unknown_stat",
                f"{season.game_id} declares no statistic {stat!r}; choose from: "
                f"{', '.join(declared) or 'none'}.",
                field="stat",
            )
    else:
        stat = ""
    if measure == Award.Measure.AT_LEAST:
        if threshold is None or not 0 < threshold <= MAX_FRAME_SCORE:
            raise DomainError(
                "bad_value",
                f"Give the threshold a frame's statistic must reach (1 to {MAX_FRAME_SCORE}).",
                field="threshold",
            )
    else:
        threshold = None
    if not 0 <= min_fixtures_percent <= 100:
        raise DomainError(
            "bad_value", "The share of fixtures is 0 to 100 %.", field="min_fixtures_percent"
        )
    if not 0 <= min_frames <= MAX_MIN_FRAMES:
        raise DomainError(
            "bad_value", f"The frames needed are 0 to {MAX_MIN_FRAMES}.", field="min_frames"
        )
    if Award.objects.filter(season=season, name=name).exists():
        raise DomainError(
            "award_exists", f"{season} already has an award named {name!r}.", field="name"
        )
    return Award.objects.create(
        season=season,
        name=name,
        measure=measure,
        stat=stat,
        threshold=threshold,
        min_fixtures_percent=min_fixtures_percent,
        min_frames=min_frames,
        order=Award.objects.filter(season=season).count(),
        created_at=now or timezone.now(),
    )


@transaction.atomic
def award_delete(*, award: Award, actor: Any) -> None:
    require(
        actor,
        "leagues.manage_league",
        award.season,
        message="Only the league's secretary can remove an award.",
    )
    award.delete()


def _measure(award: Award, declared: dict[str, Stat]) -> tuple[Any, bool, str]:
    """The award's figure as an aggregate, whether lower is better, and its unit."""
    if award.measure == Award.Measure.WIN_RATE:
        return _aggregates([])["win_rate"], False, "%"
    if award.measure == Award.Measure.AVERAGE:
        return _aggregates([])["average"], False, ""
    stat = declared.get(award.stat)
    if stat is None:
        return Value(None, output_field=FloatField()), False, ""
    if award.measure == Award.Measure.AT_LEAST:
        reached: Any = GreaterThanOrEqual(_value(stat.name), Value(float(award.threshold or 0)))
        return Count("id", filter=Q(reached)), False, ""
    return _stat(stat), stat.agg == "min", ""


def describe(award: Award, declared: dict[str, Stat] | None = None) -> str:
    """What the award ranks by, and who may win it, in words."""
    declared = declared if declared is not None else _declared(award.season)
    stat = declared.get(award.stat)
    label = stat.label if stat else award.stat
    if award.measure == Award.Measure.WIN_RATE:
        what = "the best win rate (frames won, a shared frame counting half)"
    elif award.measure == Award.Measure.AVERAGE:
        what = "the best average score a frame"
    elif award.measure == Award.Measure.AT_LEAST:
        what = f"the most frames with a {label.lower()} of {award.threshold:,} or more"
    elif stat is not None and stat.agg == "max" and label.lower().startswith(("high", "best")):
        what = f"the {label.lower()}"
    elif stat is not None and stat.agg == "max":
        what = f"the highest {label.lower()}"
    elif stat is not None and stat.agg == "min":
        what = f"the lowest {label.lower()}"
    elif stat is not None and stat.agg == "ratio":
        what = f"the best {label.lower()}"
    else:
        what = f"the most {label.lower()}"
    rules = []
    if award.min_fixtures_percent:
        rules.append(f"played in at least {award.min_fixtures_percent}% of the team's fixtures")
    if award.min_frames:
        rules.append(f"at least {award.min_frames} frame{'s' * (award.min_frames != 1)}")
    who = "; open to players who have " + " and ".join(rules) if rules else "; open to everyone"
    return f"For {what}{who}."


@dataclass
class Standing:
    player_id: int
    player: str
    team_id: int
    team: str
    value: float | None
    value_display: str
    frames: int
    fixtures: int
    team_fixtures: int
    eligible: bool
    position: int | None
    explanation: str


@dataclass
class AwardStandings:
    award: Award
    description: str
    leaders: list[Standing] = field(default_factory=list)  # the qualified, best first
    not_eligible: list[Standing] = field(default_factory=list)  # who would lead but cannot

    @property
    def winners(self) -> list[Standing]:
        return [s for s in self.leaders if s.position == 1]


def _needed(award: Award, team_fixtures: int) -> int:
    # ceil(percent × fixtures / 100) in integers
    return -(-award.min_fixtures_percent * team_fixtures // 100)


def _explain(award: Award, row: dict) -> str:
    fixtures, of, frames = row["fixtures"], row["team_fixtures"], row["frames"]
    said = f"{fixtures} of {of} fixtures, {frames} frame{'s' * (frames != 1)}"
    if row["eligible"]:
        return f"qualifies: {said}"
    missing = []
    needed = _needed(award, of)
    if fixtures < needed:
        missing.append(f"needs {needed} fixtures")
    if frames < award.min_frames:
        missing.append(f"needs {award.min_frames} frames")
    return f"not eligible: {said}; " + ", ".join(missing)


def _show(value: float | None, unit: str, agg: str) -> str:
    if value is None:
        return "–"
    if unit == "%":
        return f"{value:.1f}%"
    if agg in ("ratio", "average") or value != int(value):
        return f"{value:.2f}"
    return f"{int(value):,}"


def award_rows(award: Award, *, declared: dict[str, Stat] | None = None) -> list[dict]:
    """Every player's figure for the award, qualified first, best first: ONE aggregate
    query (figure, frames, fixtures played, the team's fixtures, eligibility)."""
    declared = declared if declared is not None else _declared(award.season)
    measure, lower_is_better, _unit = _measure(award, declared)
    team_fixtures = (
        Fixture.objects.filter(
            Q(home_id=OuterRef("team_id")) | Q(away_id=OuterRef("team_id")),
            result_confirmed_at__isnull=False,
        )
        .order_by()
        .values("season_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    percent = award.min_fixtures_percent
    rows = (
        PlayerFrameStat.objects.filter(
            season_id=award.season_id, fixture__result_confirmed_at__isnull=False
        )
        .values("player_id", "player__name", "player__private_name", "team_id", "team__name")
        .annotate(
            value=measure,
            frames=Count("id"),
            fixtures=Count("fixture_id", distinct=True),
            team_fixtures=Coalesce(Subquery(team_fixtures, output_field=IntegerField()), 0),
        )
        .annotate(
            eligible=Case(
                When(
                    Q(fixtures__gte=F("team_fixtures") * Value(percent) / Value(100.0))
                    & Q(frames__gte=award.min_frames),
                    then=Value(True),
                ),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .order_by(
            F("eligible").desc(),
            F("value").asc(nulls_last=True)
            if lower_is_better
            else F("value").desc(nulls_last=True),
            F("frames").desc(),
            # Not by name: an erasure or a choice of initials must not reorder the list.
            "player_id",
        )
    )
    return list(rows)


def award_standings(award: Award, *, shown: int = SHOWN) -> AwardStandings:
    """The award's leaders (the first `shown` who qualify; those level share a place), and
    the players who would be ahead of the last of them but do not qualify, each explained."""
    declared = _declared(award.season)
    _measure_expr, lower_is_better, unit = _measure(award, declared)
    stat = declared.get(award.stat)
    agg = "average" if award.measure == Award.Measure.AVERAGE else (stat.agg if stat else "")
    if award.measure == Award.Measure.AT_LEAST:
        agg = "count"
    result = AwardStandings(award, describe(award, declared))
    rows = award_rows(award, declared=declared)
    eligible = [r for r in rows if r["eligible"] and r["value"] is not None]
    position, previous = 0, object()
    for index, row in enumerate(eligible[:shown]):
        if row["value"] != previous:
            position, previous = index + 1, row["value"]
        result.leaders.append(_standing(award, row, position, unit, agg))
    if eligible[:shown]:
        last = eligible[:shown][-1]["value"]
        better = (lambda v: v < last) if lower_is_better else (lambda v: v > last)
    else:
        better = lambda v: True  # noqa: E731
    result.not_eligible = [
        _standing(award, r, None, unit, agg)
        for r in rows
        if not r["eligible"] and r["value"] is not None and better(r["value"])
    ][:shown]
    return result


def _standing(award: Award, row: dict, position: int | None, unit: str, agg: str) -> Standing:
    return Standing(
        player_id=row["player_id"],
        player=public_name_of(row["player__name"], row["player__private_name"]),
        team_id=row["team_id"],
        team=row["team__name"],
        value=row["value"],
        value_display=_show(row["value"], unit, agg),
        frames=row["frames"],
        fixtures=row["fixtures"],
        team_fixtures=row["team_fixtures"],
        eligible=row["eligible"],
        position=position,
        explanation=_explain(award, row),
    )


def season_awards(season: Season) -> list[AwardStandings]:
    """Every award of the season with its standings: one query for the awards, one each."""
    awards = list(Award.objects.filter(season=season).select_related("season"))
    return [award_standings(a) for a in awards]


def stat_choices(season: Season) -> list[tuple[str, str]]:
    """The statistics the season's game declares, for the secretary's form."""
    return [(s.name, f"{s.label} ({s.agg})") for s in _declared(season).values()]
