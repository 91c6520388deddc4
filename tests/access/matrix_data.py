"""Who may import a season's data and export it (spreadsheets, the league's archive)."""

from __future__ import annotations

from .base import STAFF, Rule

season = lambda c: {"pk": c.league.season.pk}  # noqa: E731

ACCESS = {
    "season-import": Rule(kwargs=season, get=STAFF, post=STAFF),
    "season-data": Rule(kwargs=season, get=STAFF),
    "season-export": Rule(
        kwargs=lambda c: {"pk": c.league.season.pk, "sheet": "fixtures", "fmt": "xlsx"},
        get=STAFF,
    ),
    "api-season-import": Rule(kwargs=season, get=None, post=STAFF),
    "league-archive": Rule(kwargs=lambda c: {"slug": c.league.season.league.slug}, get=STAFF),
}
