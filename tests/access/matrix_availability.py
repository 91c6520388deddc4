"""Who may open and post to availability's pages and endpoints (docs/availability.md):
the answer link is its own credential; a team's sheet is its captains' and the league's
officers'; the API's sheet shows each caller their own side."""

from __future__ import annotations

from django.utils import timezone

from leagues.availability import links
from leagues.models import AwayDates, Fixture

from .base import (
    CAPTAIN,
    COMPETITIONS,
    EVERYONE,
    OTHER_CAPTAIN,
    PLAYER,
    RESULTS,
    SECRETARY,
    SIGNED_IN,
    VICE,
    Rule,
)

#: Team 0's captains and every officer of league A.
TEAM0_ASKERS = frozenset({CAPTAIN, VICE, SECRETARY, RESULTS, COMPETITIONS})
#: Either side's: team 1's captain asks their own squad.
EITHER_SIDE = TEAM0_ASKERS | {OTHER_CAPTAIN}


def setup(ctx) -> None:
    ctx.availability_fixture = Fixture.objects.get(
        home=ctx.league.teams[0], away=ctx.league.teams[1]
    )
    player_id = ctx.league.teams[0].registrations.first().player_id
    rita = ctx.league.player_user.player
    ctx.away_dates = AwayDates.objects.create(
        player=rita,
        season=ctx.league.season,
        start=ctx.availability_fixture.date,
        end=ctx.availability_fixture.date,
        created_at=timezone.now(),
    )
    ctx.availability_token = links.answer_token(
        player_id=player_id, fixture_id=ctx.availability_fixture.pk, team_id=ctx.league.teams[0].pk
    )


sheet = lambda c: {  # noqa: E731
    "league": c.slug,
    "pk": c.availability_fixture.pk,
    "team": c.league.teams[0].pk,
}
api_fixture = lambda c: {"pk": c.availability_fixture.pk}  # noqa: E731

ACCESS = {
    "availability-answer": Rule(
        kwargs=lambda c: {"token": c.availability_token},
        get=EVERYONE,
        post=EVERYONE,
        note="the signed link is the credential",
    ),
    "my-availability": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "fixture-availability": Rule(kwargs=sheet, get=TEAM0_ASKERS, post=TEAM0_ASKERS),
    "api-fixture-availability": Rule(kwargs=api_fixture, get=EITHER_SIDE, post=None),
    "api-fixture-availability-ask": Rule(kwargs=api_fixture, get=None, post=EITHER_SIDE),
    "api-fixture-availability-chase": Rule(kwargs=api_fixture, get=None, post=EITHER_SIDE),
    "api-availability-answer": Rule(get=None, post=EVERYONE, note="the token, or the player"),
    # Signed in without a player record: an empty list; an empty post is invalid (400).
    "api-my-away-dates": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "api-my-away-date": Rule(kwargs=lambda c: {"pk": c.away_dates.pk}, get=None, post=None),
}

METHOD_CHECKS = {
    # Rita's own away dates: she, or her league's secretary, removes them.
    ("api-my-away-date", "delete"): (
        lambda c: {"pk": c.away_dates.pk},
        frozenset({PLAYER, SECRETARY}),
    ),
}
