"""Who may open the competition pages (the API's rows are in matrix_competitions.py): everyone reads; scoring a tie on the pad is for its
players (or captains) and the competitions secretary."""

from __future__ import annotations

from competitions import draw as cupdraw
from competitions.models import Tie
from competitions.services.draws import draw_commit, draw_perform, draw_reveal
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create

from .base import COMPETITIONS, PLAYER, SECRETARY, Rule


def _drawn(competition, secretary):
    draw_commit(actor=secretary, competition=competition, commitment=cupdraw.commitment("access"))
    draw_reveal(actor=secretary, competition=competition, secret="access")
    return draw_perform(actor=secretary, competition=competition)


def setup(ctx) -> None:
    league = ctx.league
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Pages Cup", kind="team_knockout"
    )
    for team in league.teams[:2]:
        entry_create(actor=league.secretary, competition=comp, team=team)
    ctx.pages_cup = comp
    singles = competition_create(
        actor=league.secretary, season=league.season, name="Pages Singles", kind="singles"
    )
    rita = league.player_user.player
    other = league.teams[1].registrations.first().player
    for player in (rita, other):
        entry_create(actor=league.secretary, competition=singles, player=player)
    _drawn(singles, league.secretary)
    ctx.pages_singles_tie = Tie.objects.get(competition=singles, status="scheduled")
    groups = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Pages Groups",
        kind="group_knockout",
        group_size=3,
        group_qualifiers=1,
    )
    for player in [r.player for r in league.teams[2].registrations.order_by("id")[:3]]:
        entry_create(actor=league.secretary, competition=groups, player=player)
    _drawn(groups, league.secretary)
    ctx.pages_group = groups.groups.get()


tie = lambda c: {"pk": c.pages_singles_tie.pk}  # noqa: E731


ACCESS = {
    "season-competitions": Rule(kwargs=lambda c: {"pk": c.league.season.pk}),
    "competition-detail": Rule(kwargs=lambda c: {"pk": c.pages_cup.pk}),
    "player-ties-ical": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].registrations.first().player_id}
    ),
    "team-ties-ical": Rule(kwargs=lambda c: {"pk": c.league.teams[0].pk}),
    "tie-detail": Rule(kwargs=tie),
    # A decided tie's result card (PNG): public (404 until decided).
    "tie-card": Rule(kwargs=tie),
    # Sets a group's deadline: the secretaries.
    "group-deadline": Rule(
        kwargs=lambda c: {"pk": c.pages_group.pk},
        get=None,
        post=frozenset({SECRETARY, COMPETITIONS}),
    ),
    # Opens the tie's next frame on the pad: the tie's players and the secretary.
    "tie-pad": Rule(kwargs=tie, get=None, post=frozenset({PLAYER, SECRETARY, COMPETITIONS})),
    # Corrects a decided tie: the secretaries.
    "tie-correct": Rule(kwargs=tie, get=None, post=frozenset({SECRETARY, COMPETITIONS})),
}
