"""`{% notice_banner %}`: the site notices on every page (base.html), with the league's own
on its pages (docs/paper-card.md)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

#: The page's objects that say which league it belongs to, in this order.
_PAGE_OBJECTS = ("league", "fixture", "match", "season", "division", "team")
#: The path from each towards its league, followed only through rows already loaded.
_PATH = {"match": "fixture", "fixture": "season", "division": "season", "team": "season"}


def _loaded_league_id(obj: Any, depth: int = 0) -> int | None:
    """The league of a page's object, without a query: None if it is not at hand."""
    meta = getattr(obj, "_meta", None)
    if meta is None or depth > 4:
        return None
    if meta.label_lower == "leagues.league":
        return int(obj.pk)
    if getattr(obj, "league_id", None) is not None:
        return int(obj.league_id)
    step = _PATH.get(meta.model_name)
    if step is None or not meta.get_field(step).is_cached(obj):
        return None
    return _loaded_league_id(getattr(obj, step), depth + 1)


@register.inclusion_tag("leagues/_notices.html", takes_context=True)
def notice_banner(context: template.Context) -> dict[str, Any]:
    finder = context.get("site_notices")
    if finder is None:
        return {"notices": []}
    league_id = None
    for name in _PAGE_OBJECTS:
        league_id = _loaded_league_id(context.get(name))
        if league_id is not None:
            break
    return {"notices": finder.for_page(league_id)}
