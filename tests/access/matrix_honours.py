"""Who may open the roll of honour and the season's awards, finish a season and define
awards."""

from __future__ import annotations

from frames.stats import awards
from leagues import honours

from .base import EVERYONE, STAFF, Rule


def setup(ctx) -> None:
    league = ctx.league
    ctx.award = awards.award_define(
        season=league.season, actor=league.secretary, name="Best win rate", measure="win_rate"
    )
    honours.honour_record(
        season=league.season,
        title="Cup",
        kind="competition",
        source="competition:access",
        winner=league.teams[0],
        runner_up=league.teams[1],
    )


season = lambda c: {"pk": c.league.season.pk}  # noqa: E731

league_season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731

ACCESS = {
    "league-honours": Rule(kwargs=lambda c: {"league": c.league.season.league.slug}),
    "season-finish": Rule(kwargs=league_season, get=STAFF, post=STAFF),
    "season-awards": Rule(kwargs=league_season, get=EVERYONE, post=STAFF),
    # API
    "api-league-honours": Rule(kwargs=lambda c: {"pk": c.league.season.league_id}),
    "api-season-finish": Rule(kwargs=season, get=None, post=STAFF),
    "api-season-awards": Rule(kwargs=season, get=EVERYONE, post=STAFF),
    "api-award": Rule(kwargs=lambda c: {"pk": c.award.pk}, get=EVERYONE, post=None),
}

# DELETE an award: only the secretary (the allowed case is in tests/frames/stats/test_awards.py).
METHOD_CHECKS = {
    ("api-award", "delete"): (lambda c: {"pk": c.award.pk}, STAFF),
}
