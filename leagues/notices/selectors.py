"""Reads of site notices: those shown now (the banner, the pad) and a poster's list.

Every HTML page asks for the notices, so with a shared cache (`marker.versions` enabled)
the ones not yet ended are kept under the version token `VERSION` and filtered by the
clock here: an unchanged page reads no notice row. Posting or ending a notice bumps the
token (`leagues.notices.services`); a notice starting or ending on its own needs no bump,
as its times are kept with it."""

from __future__ import annotations

import pickle
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from leagues.models import Notice
from marker import versions

#: The version token of every notice (one key: notices change rarely).
VERSION = "notices:all"


def _live(now: datetime) -> Q:
    return Q(starts_at__lte=now) & (Q(ends_at__isnull=True) | Q(ends_at__gt=now))


def _scope(league_id: int | None, league_slug: str | None) -> Q:
    where = Q(league__isnull=True)
    if league_id is not None:
        where |= Q(league_id=league_id)
    elif league_slug:
        where |= Q(league__slug=league_slug)
    return where


def _order(notice: Notice) -> tuple:
    # Warnings first, then the newest (as the query orders them).
    return (notice.level != Notice.Level.WARNING, -notice.starts_at.timestamp(), -notice.pk)


def notices_shown(
    *, now: datetime, league_id: int | None = None, league_slug: str | None = None
) -> list[Notice]:
    """The notices to show now: the site's, and the league's (by id or by its slug) when on
    one of its pages. Warnings first, then the newest (one query; none when the shared
    cache holds this scope's notices under the current token)."""
    where = _scope(league_id, league_slug)
    tokens = versions.read(VERSION, stick=False)
    if tokens is None:
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
    key = f"{VERSION}:{tokens[0]}:{league_id}:{league_slug or ''}"
    kept = versions.recall(key)
    if isinstance(kept, bytes):
        pending: list[Notice] = pickle.loads(kept)  # noqa: S301 (our own bytes, by our key)
    else:
        # Not ended yet, or ending later: what this scope may show from now until a bump.
        # Read from the primary: a lagging replica's answer would be kept under the new
        # token (the page's other reads may still come from the replica).
        pending = list(
            Notice.objects.using(DEFAULT_DB_ALIAS)
            .filter(where & (Q(ends_at__isnull=True) | Q(ends_at__gt=now)))
            .select_related("league")
            .order_by("-starts_at", "-id")
        )
        versions.remember(key, pickle.dumps(pending))
    return sorted(
        (n for n in pending if n.starts_at <= now and (n.ends_at is None or n.ends_at > now)),
        key=_order,
    )


def notices_posted(*, league_id: int | None) -> QuerySet[Notice]:
    """A league's notices (or the site's, `league_id` None), for its posters' page: the
    newest first, ended ones included."""
    qs = Notice.objects.select_related("created_by")
    qs = qs.filter(league__isnull=True) if league_id is None else qs.filter(league_id=league_id)
    return qs.order_by("-starts_at", "-id")
