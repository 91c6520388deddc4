"""What counts in the tables beyond played results (the points scheme, deductions,
awarded matches) and who receives them by email (subscriptions). Each function is one
transaction and raises DomainError."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from leagues.models import (
    MAX_MATCH_SCORE,
    Fixture,
    League,
    PointDeduction,
    Season,
    Subscription,
    Team,
    validate_tie_breakers,
)
from marker.errors import DomainError

_SCHEME_FIELDS = (
    "points_per_frame",
    "points_per_match_win",
    "points_per_match_draw",
    "bonus_margin_points",
    "bonus_aggregate_points",
)


def _decimal(
    value, field: str, *, halves: bool = False, maximum: Decimal = Decimal("999.9")
) -> Decimal:
    """A number of zero or more, in halves or tenths, at most `maximum` (its column's
    digits: `max_digits=4, decimal_places=1` unless said otherwise)."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise DomainError(
            "bad_value", f"{str(value)[:40]!r} is not a number.", field=field
        ) from None
    if not number.is_finite() or number < 0:
        raise DomainError("bad_value", "Give a number of zero or more.", field=field)
    if number > maximum:
        raise DomainError("bad_value", f"Give a number of at most {maximum}.", field=field)
    if (number * 2) % 1 or (not halves and number * 10 % 1):
        raise DomainError(
            "bad_value",
            "Use whole or half numbers." if halves else "Use at most one decimal place.",
            field=field,
        )
    return number


@transaction.atomic
def season_set_points_scheme(
    *,
    season: Season,
    points_per_frame=None,
    points_per_match_win=None,
    points_per_match_draw=None,
    bonus_margin: int | None | str = "",
    bonus_margin_points=None,
    bonus_aggregate_points=None,
    tie_breakers: list[str] | None = None,
) -> Season:
    """Set a season's points scheme and tie-breaker order (fields not given are kept).
    `bonus_margin=None` turns the winning-margin bonus off."""
    given = {
        "points_per_frame": points_per_frame,
        "points_per_match_win": points_per_match_win,
        "points_per_match_draw": points_per_match_draw,
        "bonus_margin_points": bonus_margin_points,
        "bonus_aggregate_points": bonus_aggregate_points,
    }
    fields = []
    for name, value in given.items():
        if value is not None:
            setattr(season, name, _decimal(value, name))
            fields.append(name)
    if bonus_margin != "":
        if bonus_margin is not None and (not isinstance(bonus_margin, int) or bonus_margin < 1):
            raise DomainError(
                "bad_value",
                "The bonus margin is a number of frames, 1 or more.",
                field="bonus_margin",
            )
        season.bonus_margin = bonus_margin
        fields.append("bonus_margin")
    if tie_breakers is not None:
        try:
            validate_tie_breakers(tie_breakers)
        except ValidationError as exc:
            raise DomainError("bad_tie_breakers", exc.messages[0], field="tie_breakers") from None
        season.tie_breakers = list(tie_breakers)
        fields.append("tie_breakers")
    if fields:
        season.save(update_fields=fields)
    return season


@transaction.atomic
def point_deduction_add(
    *, team: Team, points, reason: str, by=None, now: datetime | None = None
) -> PointDeduction:
    """Deduct points from a team; the reason is shown on the table."""
    reason = reason.strip()
    if not reason:
        raise DomainError("required", "Give the reason for the deduction.", field="reason")
    amount = _decimal(points, "points", halves=True, maximum=Decimal("9999.5"))
    if amount <= 0:
        raise DomainError("bad_value", "Deduct at least half a point.", field="points")
    if team.division_id is None:
        raise DomainError("no_division", f"{team.name} is not in a division.", field="team")
    return PointDeduction.objects.create(
        team=team, points=amount, reason=reason[:200], by=by, at=now or timezone.now()
    )


@transaction.atomic
def fixture_award(
    *,
    fixture: Fixture,
    outcome: str,
    home_frames,
    away_frames,
    reason: str,
    home_score: int = 0,
    away_score: int = 0,
    now: datetime | None = None,
) -> Fixture:
    """Record a walkover or a conceded match: the awarded frames (and scores, if any)
    count in the table like a played result, and the reason is shown beneath it."""
    if fixture.kind == Fixture.Kind.CUP:
        raise DomainError(
            "cup_fixture",
            "This fixture is a cup tie: award it, or record the walkover, in its competition.",
        )
    if outcome not in (Fixture.Outcome.WALKOVER, Fixture.Outcome.CONCEDED):
        raise DomainError("bad_value", "Choose walkover or conceded.", field="outcome")
    reason = reason.strip()
    if not reason:
        raise DomainError("required", "Give the reason; the table shows it.", field="reason")
    home = _decimal(home_frames, "home_frames", halves=True)
    away = _decimal(away_frames, "away_frames", halves=True)
    if home == away:
        raise DomainError(
            "no_winner",
            "Award the match to one side: the frames cannot be level.",
            field="home_frames",
        )
    for name, score in (("home_score", home_score), ("away_score", away_score)):
        if isinstance(score, bool) or not isinstance(score, int):
            raise DomainError("bad_value", "A score is a whole number.", field=name)
        if score < 0:
            raise DomainError("bad_value", "Scores cannot be negative.", field=name)
        if score > MAX_MATCH_SCORE:
            raise DomainError(
                "bad_value", f"A match's score is at most {MAX_MATCH_SCORE}.", field=name
            )
    fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
    if fixture.result_confirmed_at is not None and fixture.outcome == Fixture.Outcome.PLAYED:
        raise DomainError(
            "has_result", "This match has a confirmed result from the night; it was played."
        )
    fixture.outcome = outcome
    fixture.outcome_reason = reason[:200]
    fixture.home_frames, fixture.away_frames = home, away
    fixture.home_score, fixture.away_score = home_score, away_score
    fixture.result_confirmed_at = now or timezone.now()
    fixture.status = Fixture.Status.PLAYED
    fixture.save(
        update_fields=[
            "outcome",
            "outcome_reason",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "result_confirmed_at",
            "status",
        ]
    )
    return fixture


@transaction.atomic
def subscription_create(*, league: League, user, now: datetime | None = None) -> Subscription:
    """Email the league's tables to this user's address whenever they are published."""
    email = (getattr(user, "email", "") or "").strip().lower()
    if "@" not in email:
        raise DomainError(
            "no_email",
            "Your account has no email address to send the tables to.",
            field="email",
        )
    subscription, created = Subscription.objects.get_or_create(
        league=league,
        email=email,
        defaults={"user": user, "created_at": now or timezone.now()},
    )
    if not created and not subscription.active:
        subscription.active = True
        subscription.save(update_fields=["active"])
    return subscription


@transaction.atomic
def subscription_cancel(*, token: str) -> Subscription:
    subscription = Subscription.objects.select_for_update().filter(token=token).first()
    if subscription is None:
        raise DomainError("not_found", "This subscription does not exist.", status=404)
    if subscription.active:
        subscription.active = False
        subscription.save(update_fields=["active"])
    return subscription
