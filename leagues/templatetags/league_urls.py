"""Addresses of pages under a league (`/<league-slug>/…`) from the ids a template has at
hand: `{% season_url 'team-detail' team.season_id team.pk %}`,
`{% league_url 'league-ratings' league_id %}`. Loaded everywhere (TEMPLATES builtins).

On a page under a league, every season-scoped object it shows is of that league (each view
404s an object of another league), so the slug is the page's own; elsewhere (a match, a
player, an email) it comes from `leagues.links` (read once per request, not once per link).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from leagues import links

register = template.Library()


def _page_league(context: Any) -> str | None:
    match = getattr(context.get("request"), "resolver_match", None)
    return match.kwargs.get("league") if match is not None else None


@register.simple_tag(takes_context=True)
def season_url(context: Any, name: str, season_id: int, *args: Any) -> str:
    slug = _page_league(context) or links.season_slug(season_id)
    return reverse(name, args=[slug, *args])


@register.simple_tag
def league_url(name: str, league_id: int, *args: Any) -> str:
    return reverse(name, args=[links.league_slug(league_id), *args])
