"""The league part of a page's address (`/<league-slug>/…`), found without a query per link.

A page of one league links to dozens of teams, fixtures and divisions. Their addresses need
the league's slug, which is two joins away from a team; instead of joining on every list,
the slugs of every season's league are read once (one small query, a row per season) and
kept until the next request starts (`ForgetLeagueSlugs`) or a season not yet known is asked
for. A slug renamed in the middle of a request is seen from the next one.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.apps import apps
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

_season_slugs: dict[int, str] = {}
_league_slugs: dict[int, str] = {}


def forget() -> None:
    _season_slugs.clear()
    _league_slugs.clear()


def _load() -> None:
    # By name: the models import this module for their addresses.
    season_model = apps.get_model("leagues", "Season")
    rows = list(season_model.objects.values_list("id", "league_id", "league__slug"))
    _season_slugs.clear()
    _league_slugs.clear()
    for season_id, league_id, slug in rows:
        _season_slugs[season_id] = slug
        _league_slugs[league_id] = slug


def _cached_league(obj: Any) -> Any:
    """The league already loaded on `obj` (a season, or anything with a loaded season)."""
    cache = getattr(getattr(obj, "_state", None), "fields_cache", {})
    if "league" in cache:
        return cache["league"]
    season = cache.get("season")
    if season is not None:
        return season._state.fields_cache.get("league")
    return None


def season_slug(season_id: int, obj: Any = None) -> str:
    """The slug of the league of season `season_id`."""
    league = _cached_league(obj) if obj is not None else None
    if league is not None:
        return league.slug
    if season_id not in _season_slugs:
        _load()
    return _season_slugs[season_id]


def league_slug(league_id: int) -> str:
    if league_id not in _league_slugs:
        league_model = apps.get_model("leagues", "League")
        _league_slugs[league_id] = league_model.objects.values_list("slug", flat=True).get(
            pk=league_id
        )
    return _league_slugs[league_id]


def season_url(name: str, season_id: int, *args: Any, obj: Any = None) -> str:
    """reverse(name) of a page under the league of season `season_id`."""
    return reverse(name, args=[season_slug(season_id, obj), *args])


#: Never a league's slug, whatever the URLconf holds today (paths the web server, the
#: browser or a later page may claim).
ALWAYS_RESERVED = frozenset(
    {
        "admin",
        "api",
        "accounts",
        "static",
        "media",
        "site",
        "leagues",
        "players",
        "pad",
        "favicon.ico",
        "robots.txt",
        "sw.js",
        "manifest.webmanifest",
        "well-known",
        "new",
        "www",
    }
)


@cache
def reserved_slugs() -> frozenset[str]:
    """The first segment of every top-level path of the URLconf (`admin`, `api`,
    `tonight`, `games`…) and the static and media prefixes: a league whose slug were one of
    them would be hidden by that page (or hide it)."""
    taken: set[str] = set(ALWAYS_RESERVED)

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver) and (not route or route.endswith("/")):
                if "<" not in route.split("/")[0]:
                    first = route.split("/")[0]
                    if first:
                        taken.add(first)
                        continue
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern):
                first = route.lstrip("^").split("/")[0]
                if first and "<" not in first:
                    taken.add(first.rstrip("$"))

    walk(get_resolver().url_patterns, "")
    for url in (settings.STATIC_URL, getattr(settings, "MEDIA_URL", "")):
        first = (url or "").strip("/").split("/")[0]
        if first and "://" not in (url or ""):
            taken.add(first)
    return frozenset(taken)


class ForgetLeagueSlugs:
    """Middleware: each request starts with the slugs read afresh."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        forget()
        return self.get_response(request)
