"""Who may read a league's rule book (everyone) and set a season's rules (the secretary)."""

from __future__ import annotations

from .base import STAFF, Rule

league = lambda c: {"league": c.slug}  # noqa: E731
league_season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731

ACCESS = {
    "league-rules": Rule(kwargs=league),
    "season-rules": Rule(kwargs=league_season),
    "season-rules-edit": Rule(kwargs=league_season, get=STAFF, post=STAFF),
}
