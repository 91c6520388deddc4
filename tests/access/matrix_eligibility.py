"""Who may read and change the registration rules (docs/eligibility.md): the secretary
sets the rules and decides transfers; a team's captains ask for transfers and whether a
player may play; at sign-off the captains see the flags and the results officers decide."""

from __future__ import annotations

from django.utils import timezone

from leagues.models import Transfer

from .base import (
    CAPTAIN,
    EVERYONE,
    OTHER_CAPTAIN,
    RESULTS_OFFICERS,
    SIGNED_IN,
    STAFF,
    TEAM0_CAPTAINS,
    VICE,
    Rule,
)

CAPTAINS = frozenset({CAPTAIN, VICE, OTHER_CAPTAIN})


def setup(ctx) -> None:
    league = ctx.league
    mover = league.teams[2].registrations.filter(status="active").first()
    ctx.transfer = Transfer.objects.create(
        season=league.season,
        player=mover.player,
        from_team=league.teams[2],
        to_team=league.teams[0],
        requested_by=league.captain,
        created_at=timezone.now(),
    )


league_season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731
api_season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
match = lambda c: {"pk": c.match.pk}  # noqa: E731

ACCESS = {
    "season-registration-rules": Rule(kwargs=league_season, get=STAFF, post=STAFF),
    "season-transfers": Rule(kwargs=league_season, get=STAFF, post=STAFF),
    "api-season-registration-rules": Rule(kwargs=api_season, get=EVERYONE, post=None),
    "api-team-eligibility": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].pk}, get=TEAM0_CAPTAINS, post=None
    ),
    # Any signed-in user may post a request (the team's captaincy is checked on the team
    # named in it: an empty one is refused as invalid); the list is the season's officers'
    # and captains'.
    "api-season-transfers": Rule(kwargs=api_season, get=CAPTAINS | STAFF, post=SIGNED_IN),
    "api-transfer-decide": Rule(kwargs=lambda c: {"pk": c.transfer.pk}, get=None, post=STAFF),
    "match-ineligible": Rule(kwargs=match, get=None, post=RESULTS_OFFICERS),
    "api-match-eligibility": Rule(
        kwargs=match, get=CAPTAINS | RESULTS_OFFICERS, post=RESULTS_OFFICERS
    ),
}
