"""A team cup tie is a real match: opened, marked, drawn, keyed in and signed off through
the unchanged match-night flow; its confirmation sends the winner through and leaves the
league table as it was."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest

from competitions.models import Competition, Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from frames.matchnight import drawing, seeding, signoff, squads
from frames.models import Frame, Match
from leagues import standings
from leagues.models import Fixture, Honour
from marker.errors import DomainError

from .helpers import NOW, drawn

pytestmark = pytest.mark.django_db


def _cup_final_keyed_in(league):
    """A team cup's final, its match night played and keyed in (the away side wins every
    frame), waiting for the captains' sign-off."""
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:2]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    tie = Tie.objects.select_related("fixture", "home__team", "away__team").get(competition=cup)
    captains = {league.teams[0].pk: league.captain, league.teams[1].pk: league.other_captain}
    home_captain = captains[tie.home.team_id]
    away_captain = captains[tie.away.team_id]
    match = squads.match_open(fixture=tie.fixture, actor=home_captain, now=NOW)
    for side, team, who in (
        ("home", tie.home.team, home_captain),
        ("away", tie.away.team, away_captain),
    ):
        players = [r.player for r in team.registrations.filter(status="active").order_by("id")[:6]]
        squads.match_mark_present(match=match, side=side, players=players, actor=who, now=NOW)
        seeding.match_commit(match=match, side=side, actor=who, now=NOW)
    drawing.match_draw(match=match, actor=home_captain, now=NOW + timedelta(minutes=5))
    frames = Frame.objects.filter(match=match).exclude(status=Frame.Status.CONCEDED)
    signoff.match_key_in_paper(
        match=match,
        scores={f.number: (400, 900) for f in frames},
        actor=home_captain,
        now=NOW + timedelta(hours=2),
    )
    return cup, tie, match, frames, home_captain, away_captain


def test_a_cup_final_played_through_match_night(league):
    table_before = standings.division_table(league.premier)
    cup, tie, match, frames, home_captain, away_captain = _cup_final_keyed_in(league)
    signoff.match_confirm(
        match=match, side="home", actor=home_captain, now=NOW + timedelta(hours=2)
    )
    tie.refresh_from_db()
    assert tie.status == Tie.Status.SCHEDULED  # one captain is not enough
    signoff.match_confirm(
        match=match, side="away", actor=away_captain, now=NOW + timedelta(hours=2)
    )
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.PLAYED, tie.away_id)
    assert tie.away_frames == frames.count() and tie.home_frames == 0
    assert (cup.stage, cup.winner_id, cup.runner_up_id) == (
        Competition.Stage.FINISHED,
        tie.away_id,
        tie.home_id,
    )
    assert standings.division_table(league.premier) == table_before
    # The winners and runners-up go on the league's roll of honour, under their names now.
    roll = {(h.position, h.name) for h in Honour.objects.filter(source=f"competition:{cup.pk}")}
    assert roll == {("winner", tie.away.team.name), ("runner_up", tie.home.team.name)}


def test_a_refusal_to_decide_the_tie_undoes_the_confirmed_result(league):
    """The tie is decided inside the transaction that confirms the match: when deciding it
    is refused, the match, its fixture and the tie are as they were before the sign-off."""
    cup, tie, match, _, home_captain, away_captain = _cup_final_keyed_in(league)
    signoff.match_confirm(
        match=match, side="home", actor=home_captain, now=NOW + timedelta(hours=2)
    )
    refusal = DomainError("tie_refused", "The tie cannot be decided.")
    with (
        mock.patch("frames.results.tie_fixture_result", side_effect=refusal),
        pytest.raises(DomainError) as err,
    ):
        signoff.match_confirm(
            match=match, side="away", actor=away_captain, now=NOW + timedelta(hours=2)
        )
    assert err.value.code == "tie_refused"
    assert Match.objects.get(pk=match.pk).status != Match.Status.CONFIRMED
    fixture = Fixture.objects.get(pk=tie.fixture_id)
    assert fixture.result_confirmed_at is None and fixture.home_frames is None
    tie.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.SCHEDULED, None)
    # unrefused, the same sign-off sends the winner through
    signoff.match_confirm(
        match=match, side="away", actor=away_captain, now=NOW + timedelta(hours=2)
    )
    tie.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.PLAYED, tie.away_id)
