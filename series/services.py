"""Every write of a ranking series: creating and editing a series, its events, and an
off-system event's placings. Keyword-only, one transaction each, a refusal a DomainError
having changed nothing."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from competitions.models import Competition
from leagues.models import League, Organisation, Player
from marker.errors import DomainError
from marker.permissions import require
from rules import registry

from . import eligibility
from . import standings as calc
from .models import Series, SeriesEvent, SeriesResult

MAX_TABLE = 32
MAX_BEST_N = 50
MAX_POINTS = Decimal("10000")


def _require(actor: Any, obj: Any) -> None:
    require(
        actor,
        "series.manage",
        obj,
        message="Only the competitions secretary (or the organisation's officers) runs a "
        "ranking series.",
    )


def _table(points: Any) -> list[str]:
    if not isinstance(points, list | tuple) or not 1 <= len(points) <= MAX_TABLE:
        raise DomainError(
            "bad_points_table",
            f"The points table is a list of 1 to {MAX_TABLE} numbers, best first.",
            field="points_table",
        )
    out = []
    for p in points:
        try:
            value = Decimal(str(p))
        except (InvalidOperation, ValueError):
            value = Decimal(-1)
        if not value.is_finite() or not Decimal(0) <= value <= MAX_POINTS:
            raise DomainError(
                "bad_points_table",
                f"Each row of the points table is a number from 0 to {MAX_POINTS}.",
                field="points_table",
            )
        out.append(calc.fmt(value))
    return out


def _tie_breakers(codes: Any) -> list[str]:
    if not isinstance(codes, list | tuple) or any(c not in calc.TIE_BREAKERS for c in codes):
        raise DomainError(
            "bad_tie_breakers",
            "Tie-breakers are chosen from: " + ", ".join(calc.TIE_BREAKERS) + ".",
            field="tie_breakers",
        )
    if len(set(codes)) != len(codes):
        raise DomainError(
            "bad_tie_breakers", "Each tie-breaker is listed once.", field="tie_breakers"
        )
    return list(codes)


def _check(series: Series) -> None:
    if not series.name.strip():
        raise DomainError("bad_name", "Name the series.", field="name")
    if not 1 <= series.best_n <= MAX_BEST_N:
        raise DomainError("bad_best_n", f"Best N counts 1 to {MAX_BEST_N} results.", field="best_n")
    if series.category in (Series.Category.OVER, Series.Category.UNDER):
        if series.category_age is None or not 5 <= series.category_age <= 100:
            raise DomainError(
                "bad_category_age",
                "An over- or under-age category names an age from 5 to 100.",
                field="category_age",
            )
    else:
        series.category_age = None
    if not Decimal(0) <= Decimal(series.appearance_points) <= MAX_POINTS:
        raise DomainError(
            "bad_points_table",
            f"Points for playing are from 0 to {MAX_POINTS}.",
            field="appearance_points",
        )
    if series.game_id:
        try:
            registry.get(series.game_id)
        except registry.UnknownGame:
            raise DomainError("bad_game", "No such game.", field="game_id") from None


FIELDS = (
    "name",
    "season",
    "game_id",
    "best_n",
    "basis",
    "points_table",
    "appearance_points",
    "category",
    "category_age",
    "age_on",
    "tie_breakers",
)


@transaction.atomic
def series_create(
    *,
    actor: Any,
    owner: League | Organisation,
    name: str,
    season: str,
    best_n: int,
    points_table: list,
    basis: str = Series.Basis.ROUND,
    appearance_points: Decimal = Decimal(0),
    category: str = Series.Category.OPEN,
    category_age: int | None = None,
    age_on: date | None = None,
    tie_breakers: list | None = None,
    game_id: str = "",
    now: datetime | None = None,
) -> Series:
    """A new ranking series of a league or an organisation."""
    _require(actor, owner)
    series = Series(
        league=owner if isinstance(owner, League) else None,
        organisation=owner if isinstance(owner, Organisation) else None,
        name=name.strip()[:120],
        season=season.strip()[:40],
        game_id=game_id or (owner.game_id if isinstance(owner, League) else ""),
        best_n=best_n,
        basis=basis,
        points_table=_table(points_table),
        appearance_points=appearance_points,
        category=category,
        category_age=category_age,
        age_on=age_on,
        tie_breakers=_tie_breakers(list(tie_breakers or [])),
        created_at=now or timezone.now(),
    )
    _check(series)
    series.save()
    return series


@transaction.atomic
def series_update(*, actor: Any, series: Series, **changes: Any) -> Series:
    """Change a series' settings (any of FIELDS); the standings follow at once."""
    _require(actor, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise DomainError("bad_field", f"No such setting: {', '.join(sorted(unknown))}.")
    for key, value in changes.items():
        if key == "points_table":
            value = _table(value)
        elif key == "tie_breakers":
            value = _tie_breakers(value)
        elif key in ("name", "season") and isinstance(value, str):
            value = value.strip()
        setattr(series, key, value)
    _check(series)
    series.save()
    return series


def _check_competition(series: Series, competition: Competition) -> None:
    if competition.entrant == Competition.Entrant.TEAM:
        raise DomainError(
            "bad_event",
            f"The {competition.name} is a team event: a ranking series ranks players.",
            field="competition",
        )
    if series.league_id is not None:
        ours = competition.season is not None and competition.season.league_id == series.league_id
    else:
        ours = competition.organisation_id == series.organisation_id
    if not ours:
        raise DomainError(
            "bad_event",
            f"The {competition.name} is not one of {series.owner.name}'s competitions.",
            field="competition",
        )


@transaction.atomic
def series_event_add(
    *,
    actor: Any,
    series: Series,
    name: str = "",
    competition: Competition | None = None,
    weight: Decimal = Decimal("1.00"),
    day: date | None = None,
) -> SeriesEvent:
    """Add an event: one of the owner's singles or pairs competitions, or (with no
    competition) an event run off-system whose placings are entered by hand."""
    _require(actor, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if competition is not None:
        _check_competition(series, competition)
        name = name or competition.name
    if not name.strip():
        raise DomainError("bad_name", "Name the event.", field="name")
    if not Decimal("0.01") <= Decimal(weight) <= Decimal("99"):
        raise DomainError("bad_weight", "A weight is from 0.01 to 99.", field="weight")
    number = (series.events.aggregate(n=Max("number"))["n"] or 0) + 1
    try:
        with transaction.atomic():
            return SeriesEvent.objects.create(
                series=series,
                number=number,
                name=name.strip()[:120],
                competition=competition,
                weight=weight,
                date=day,
            )
    except IntegrityError:
        raise DomainError(
            "already_in_series", "That competition is already an event of this series."
        ) from None


@transaction.atomic
def series_event_update(
    *,
    actor: Any,
    event: SeriesEvent,
    name: str | None = None,
    weight: Decimal | None = None,
    day: date | None = None,
    complete: bool | None = None,
) -> SeriesEvent:
    """Rename or re-weight an event, or say an off-system event's placings are all in
    (`complete`: the standings count it, and the next event is the one after)."""
    _require(actor, event)
    event = SeriesEvent.objects.select_for_update().get(pk=event.pk)
    if name is not None:
        if not name.strip():
            raise DomainError("bad_name", "Name the event.", field="name")
        event.name = name.strip()[:120]
    if weight is not None:
        if not Decimal("0.01") <= Decimal(weight) <= Decimal("99"):
            raise DomainError("bad_weight", "A weight is from 0.01 to 99.", field="weight")
        event.weight = weight
    if day is not None:
        event.date = day
    if complete is not None:
        if event.competition_id is not None:
            raise DomainError(
                "competition_event",
                "A competition's event is complete when the competition finishes.",
                field="complete",
            )
        event.complete = complete
    event.save()
    return event


@transaction.atomic
def series_result_set(
    *, actor: Any, event: SeriesEvent, player: Player, placing: int, now: datetime | None = None
) -> SeriesResult:
    """A player's placing in an off-system event (again: the placing is changed). A
    category series refuses a player outside its category (`series_not_eligible`), on
    the event's date (else today)."""
    _require(actor, event)
    event = SeriesEvent.objects.select_related("series").get(pk=event.pk)
    if event.competition_id is not None:
        raise DomainError(
            "competition_event",
            "This event's placings come from its competition's results.",
        )
    if not 1 <= placing <= 1024:
        raise DomainError("bad_placing", "A placing is from 1 to 1024.", field="placing")
    if player.is_erased:
        raise DomainError("erased", "This person was erased.", field="player")
    on = event.date or timezone.localdate(now or timezone.now())
    eligibility.check(event.series, player, on, event.name)
    result, _ = SeriesResult.objects.update_or_create(
        event=event, player=player, defaults={"placing": placing}
    )
    return result


@transaction.atomic
def series_result_remove(*, actor: Any, result: SeriesResult) -> None:
    _require(actor, result.event)
    SeriesResult.objects.filter(pk=result.pk).delete()
