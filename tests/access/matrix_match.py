"""Who may open and post to each match-night page and endpoint.

The match is drawn in setup (teams[0] at home to teams[1]), so every page has frames to
show. Empty posts are refused as invalid (or as not possible at this stage, 409) and
change nothing.
"""

from __future__ import annotations

from frames.matchnight import drawing, seeding, squads
from leagues.models import Fixture

from .base import CAPTAIN, EVERYONE, OTHER_CAPTAIN, RESULTS_OFFICERS, VICE, Rule

# Captains of either team of the match (the other captain's team plays away).
CAPTAINS = frozenset({CAPTAIN, VICE, OTHER_CAPTAIN})
# Who runs the night: a captain, or a results secretary (or secretary) of the league.
RUNNERS = CAPTAINS | RESULTS_OFFICERS


def setup(ctx) -> None:
    league = ctx.league
    fixture = Fixture.objects.get(
        home=league.teams[0], away=league.teams[1], division=league.premier
    )
    match = squads.match_open(fixture=fixture, actor=league.captain)
    for side, team, captain in (
        ("home", league.teams[0], league.captain),
        ("away", league.teams[1], league.other_captain),
    ):
        players = [r.player for r in team.registrations.filter(status="active")]
        squads.match_mark_present(match=match, side=side, players=players, actor=captain)
        seeding.match_commit(match=match, side=side, actor=captain)
    ctx.match_fixture = fixture
    ctx.match = drawing.match_draw(match=match, actor=league.captain)


fixture = lambda c: {"pk": c.match_fixture.pk}  # noqa: E731
match = lambda c: {"pk": c.match.pk}  # noqa: E731
frame = lambda c: {"pk": c.match.pk, "number": 1}  # noqa: E731

ACCESS = {
    # Pages
    "tonight": Rule(),
    "fixture-night": Rule(kwargs=fixture),
    "match-open": Rule(kwargs=fixture, get=EVERYONE, post=RUNNERS),
    "match-detail": Rule(kwargs=match),
    "match-scorecard": Rule(kwargs=match),
    "match-sheet": Rule(kwargs=match),
    "match-presence": Rule(kwargs=match, get=None, post=RUNNERS),
    "match-commit": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-restart-ready": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-reveal": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-nominate": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-agree-short": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-draw": Rule(kwargs=match, get=None, post=RUNNERS),
    "match-redraw": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-reorder": Rule(kwargs=match, get=CAPTAINS, post=CAPTAINS),
    "match-reorder-answer": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-referee": Rule(kwargs=frame, get=RUNNERS, post=RUNNERS),
    "match-paper": Rule(kwargs=match, get=RUNNERS, post=RUNNERS),
    "match-confirm": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-dispute": Rule(kwargs=match, get=None, post=CAPTAINS),
    "match-settle": Rule(kwargs=match, get=RESULTS_OFFICERS, post=RESULTS_OFFICERS),
    # API
    "api-match-open": Rule(kwargs=fixture, get=None, post=RUNNERS),
    "api-match-detail": Rule(kwargs=match),
    "api-match-presence": Rule(kwargs=match, get=None, post=RUNNERS),
    "api-match-commit": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-reveal": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-nomination": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-agree-short": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-draw": Rule(kwargs=match, get=None, post=RUNNERS),
    "api-match-redraw": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-reorder": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-reorder-accept": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-reorder-reject": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-referee": Rule(kwargs=frame, get=None, post=RUNNERS),
    "api-match-paper": Rule(kwargs=match, get=None, post=RUNNERS),
    "api-match-confirm": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-dispute": Rule(kwargs=match, get=None, post=CAPTAINS),
    "api-match-settle": Rule(kwargs=match, get=None, post=RESULTS_OFFICERS),
}
