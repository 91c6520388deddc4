"""Ranking series: the standings, events and lists are public; a league's series is run by
its competitions secretary (and secretary), an organisation's by its officers (none of
the walk's roles but the site administrator)."""

from __future__ import annotations

from leagues.models import Organisation
from series import services

from .base import COMPETITIONS_OFFICERS, EVERYONE, SITE_ADMIN_ONLY, Rule


def setup(ctx) -> None:
    league = ctx.league
    ctx.series_organisation = Organisation.objects.create(
        name=f"Series County {ctx.slug}", slug=f"series-county-{ctx.slug}"
    )
    ctx.series = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Access Grand Prix",
        season="2026",
        best_n=4,
        points_table=[25, 18, 12, 8],
    )
    ctx.series_event = services.series_event_add(
        actor=league.secretary, series=ctx.series, name="Open 1"
    )


series = lambda c: {"pk": c.series.pk}  # noqa: E731
league = lambda c: {"slug": c.slug}  # noqa: E731
organisation = lambda c: {"slug": c.series_organisation.slug}  # noqa: E731

ACCESS = {
    "league-series": Rule(kwargs=league),
    "organisation-series": Rule(kwargs=organisation),
    "series-create-league": Rule(
        kwargs=league, get=COMPETITIONS_OFFICERS, post=COMPETITIONS_OFFICERS
    ),
    "series-create-organisation": Rule(
        kwargs=organisation,
        get=SITE_ADMIN_ONLY,
        post=SITE_ADMIN_ONLY,
        note="an organisation's officers too (not a role of this matrix)",
    ),
    "series-detail": Rule(kwargs=series),
    "series-events": Rule(kwargs=series),
    "series-edit": Rule(kwargs=series, get=COMPETITIONS_OFFICERS, post=COMPETITIONS_OFFICERS),
    "series-event-add": Rule(kwargs=series, get=COMPETITIONS_OFFICERS, post=COMPETITIONS_OFFICERS),
    "series-event-results": Rule(
        kwargs=lambda c: {"pk": c.series_event.pk},
        get=COMPETITIONS_OFFICERS,
        post=COMPETITIONS_OFFICERS,
    ),
    "api-series-list": Rule(get=EVERYONE, post=None),
    "api-series-detail": Rule(kwargs=series, get=EVERYONE, post=None),
    "api-series-standings": Rule(kwargs=series, get=EVERYONE, post=None),
}
