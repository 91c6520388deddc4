"""Reads of site notices: those shown now (the banner, the pad) and a poster's list."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from leagues.models import Notice


def _live(now: datetime) -> Q:
    return Q(starts_at__lte=now) & (Q(ends_at__isnull=True) | Q(ends_at__gt=now))


def notices_shown(
    *, now: datetime, league_id: int | None = None, league_slug: str | None = None
) -> list[Notice]:
    """The notices to show now: the site's, and the league's (by id or by its slug) when on
    one of its pages. Warnings first, then the newest (one query)."""
    where = Q(league__isnull=True)
    if league_id is not None:
        where |= Q(league_id=league_id)
    elif league_slug:
        where |= Q(league__slug=league_slug)
    return list(
        Notice.objects.filter(where & _live(now))
        .select_related("league")
        .annotate(
            rank=Case(
                When(level=Notice.Level.WARNING, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", "-starts_at", "-id")
    )


def notices_posted(*, league_id: int | None) -> QuerySet[Notice]:
    """A league's notices (or the site's, `league_id` None), for its posters' page: the
    newest first, ended ones included."""
    qs = Notice.objects.select_related("created_by")
    qs = qs.filter(league__isnull=True) if league_id is None else qs.filter(league_id=league_id)
    return qs.order_by("-starts_at", "-id")
