"""Competitions' services: entries, the draw, ties from paper, awards, the plate."""

from __future__ import annotations

from datetime import timedelta

import pytest

from competitions import services
from competitions.models import Competition, Entry, Tie
from marker.errors import DomainError

from .helpers import NOW, drawn, registered_players

pytestmark = pytest.mark.django_db


def singles(league, n, **kwargs):
    comp = services.competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles",
        kind="singles",
        now=NOW,
        **kwargs,
    )
    for player in registered_players(league, n):
        services.entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return comp


def play_out(comp, secretary, frames=None):
    """Play every scheduled knock-out tie from paper (home wins 2-0) until the final."""
    while True:
        ties = list(Tie.objects.filter(competition=comp, status="scheduled", round__isnull=False))
        if not ties:
            return
        for tie in ties:
            services.tie_record_paper(
                actor=secretary,
                tie=tie,
                frames=frames or [{"home": 300, "away": 200}, {"home": 250, "away": 100}],
                now=NOW,
            )


def test_a_singles_cup_of_five_has_three_byes_and_a_winner(league):
    comp = drawn(singles(league, 5), league.secretary)
    assert comp.stage == Competition.Stage.DRAWN
    first = Tie.objects.filter(round__competition=comp, round__number=1)
    assert first.count() == 4
    assert first.filter(bye=True, status="bye").count() == 3
    assert comp.rounds.count() == 3
    play_out(comp, league.secretary)
    comp.refresh_from_db()
    assert comp.stage == Competition.Stage.FINISHED
    final = Tie.objects.get(round__competition=comp, round__number=3)
    assert comp.winner_id == final.winner_id == final.home_id
    assert comp.runner_up_id == final.away_id


def test_a_players_paper_result_waits_for_the_other_side(league):
    comp = singles(league, 2)
    home_player, away_player = registered_players(league, 2)
    comp = drawn(comp, league.secretary)
    tie = Tie.objects.get(round__competition=comp, round__number=1)
    assert tie.home and tie.away


def test_award_only_after_the_deadline_with_a_reason(league):
    comp = drawn(singles(league, 4), league.secretary)
    rnd = comp.rounds.get(number=1)
    services.round_set_dates(
        actor=league.secretary, round=rnd, date=None, deadline=NOW + timedelta(days=7), now=NOW
    )
    tie = Tie.objects.filter(round=rnd).first()
    with pytest.raises(DomainError) as err:
        services.tie_award(
            actor=league.secretary, tie=tie, winner="away", reason="no show", now=NOW
        )
    assert err.value.code == "before_deadline"
    later = NOW + timedelta(days=8)
    with pytest.raises(DomainError) as err:
        services.tie_award(actor=league.secretary, tie=tie, winner="away", reason=" ", now=later)
    assert err.value.code == "no_reason"
    tie = services.tie_award(
        actor=league.secretary,
        tie=tie,
        winner="away",
        reason="Not played by the deadline",
        now=later,
    )
    assert tie.status == Tie.Status.AWARDED and tie.winner_id == tie.away_id
    semi = Tie.objects.get(round__competition=comp, round__number=2)
    assert tie.away_id in (semi.home_id, semi.away_id)


def test_eligibility_refusals_name_the_rule(league):
    comp = services.competition_create(
        actor=league.secretary,
        season=league.season,
        name="Ladies",
        kind="singles",
        eligibility_label="ladies",
        now=NOW,
    )
    player = registered_players(league, 1)[0]
    with pytest.raises(DomainError) as err:
        services.entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    assert err.value.code == "not_eligible" and "ladies" in err.value.message
    assert not Entry.objects.filter(competition=comp).exists()
