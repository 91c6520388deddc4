"""Competitions: anyone reads them; the competitions secretary runs them; players and
captains enter (the service checks the entry mode) and play their ties."""

from __future__ import annotations

from datetime import UTC, date, datetime

from competitions import draw as cupdraw
from competitions.models import Tie
from competitions.services.draws import draw_commit, draw_perform, draw_reveal
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates

from .base import COMPETITIONS, COMPETITIONS_OFFICERS, EVERYONE, SIGNED_IN, Rule

NOW = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)


def setup(ctx) -> None:
    league = ctx.league
    sec = league.secretary
    cup = competition_create(
        actor=sec, season=league.season, name="Access Cup", kind="team_knockout", now=NOW
    )
    # teams[0] and a team of the second division: no league fixture between them, so the
    # cup fixture never shadows the one other modules look up (teams[0] v teams[1])
    for team in (league.teams[0], league.teams[4]):
        entry_create(actor=sec, competition=cup, team=team, now=NOW)
    draw_commit(actor=sec, competition=cup, commitment=cupdraw.commitment("s"), now=NOW)
    draw_reveal(actor=sec, competition=cup, secret="s", now=NOW)
    draw_perform(actor=sec, competition=cup, now=NOW)
    ctx.cup = cup
    ctx.cup_entry = cup.entries.get(team=league.teams[0])
    ctx.cup_tie = Tie.objects.get(competition=cup)
    ctx.cup_round = cup.rounds.get(number=1)
    # dated after the league's fixtures, so it sorts after them on any database
    round_set_dates(actor=sec, round=ctx.cup_round, date=date(2027, 6, 1), deadline=None, now=NOW)


cup = lambda c: {"pk": c.cup.pk}  # noqa: E731
entry = lambda c: {"pk": c.cup_entry.pk}  # noqa: E731
tie = lambda c: {"pk": c.cup_tie.pk}  # noqa: E731
TEAM0 = frozenset({"captain", "vice_captain", "secretary", COMPETITIONS})
TIE_PARTIES = TEAM0  # teams[0]'s captains (the other team's captain has no role here)

ACCESS = {
    "api-season-competitions": Rule(
        kwargs=lambda c: {"pk": c.league.season.pk}, post=COMPETITIONS_OFFICERS
    ),
    "api-competition": Rule(kwargs=cup),
    "api-competition-entries": Rule(kwargs=cup, post=SIGNED_IN),
    "api-competition-draw": Rule(kwargs=cup, post=COMPETITIONS_OFFICERS),
    "api-competition-draw-commit": Rule(kwargs=cup, get=None, post=COMPETITIONS_OFFICERS),
    "api-competition-draw-reveal": Rule(kwargs=cup, get=None, post=COMPETITIONS_OFFICERS),
    "api-competition-knockout": Rule(kwargs=cup, get=None, post=COMPETITIONS_OFFICERS),
    "api-competition-bracket": Rule(kwargs=cup, get=EVERYONE),
    "api-competition-groups": Rule(kwargs=cup, get=EVERYONE),
    "api-entry-withdraw": Rule(kwargs=entry, get=None, post=TEAM0),
    "api-entry-paid": Rule(kwargs=entry, get=None, post=COMPETITIONS_OFFICERS),
    "api-entry-start": Rule(kwargs=entry, get=None, post=COMPETITIONS_OFFICERS),
    "api-round": Rule(kwargs=lambda c: {"pk": c.cup_round.pk}, post=COMPETITIONS_OFFICERS),
    # the group made by matrix_competition_pages' setup
    "api-group": Rule(kwargs=lambda c: {"pk": c.pages_group.pk}, post=COMPETITIONS_OFFICERS),
    "api-tie": Rule(kwargs=tie),
    "api-tie-result": Rule(kwargs=tie, get=None, post=TIE_PARTIES),
    "api-tie-confirm": Rule(kwargs=tie, get=None, post=TIE_PARTIES),
    "api-tie-frames": Rule(kwargs=tie, get=None, post=TIE_PARTIES),
    "api-tie-award": Rule(kwargs=tie, get=None, post=COMPETITIONS_OFFICERS),
    "api-tie-walkover": Rule(kwargs=tie, get=None, post=COMPETITIONS_OFFICERS),
    "api-tie-withdraw": Rule(kwargs=tie, get=None, post=COMPETITIONS_OFFICERS),
    "api-tie-correct": Rule(kwargs=tie, get=None, post=COMPETITIONS_OFFICERS),
}
