"""Who may read and set match formats: the secretary sets them; anyone reads them."""

from __future__ import annotations

from .base import EVERYONE, STAFF, Rule

season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
division = lambda c: {"pk": c.league.premier.pk}  # noqa: E731
league_season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731
league_division = lambda c: {"league": c.slug, "pk": c.league.premier.pk}  # noqa: E731

ACCESS = {
    "season-format": Rule(kwargs=league_season, get=STAFF, post=STAFF),
    "division-format": Rule(kwargs=league_division, get=STAFF, post=STAFF),
    "api-season-format": Rule(kwargs=season, get=EVERYONE, post=STAFF),
    "api-division-format": Rule(kwargs=division, get=EVERYONE, post=STAFF),
}
