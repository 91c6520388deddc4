"""Competitions' services: entries, the draw, ties from paper, awards, the plate."""

from __future__ import annotations

from datetime import timedelta

import pytest

from competitions.models import Competition, Entry, Tie
from competitions.services.entries import entry_create, entry_withdraw
from competitions.services.pad import tie_confirm, tie_frame_open
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates, tie_award, tie_record_paper, tie_walkover
from marker.errors import DomainError
from tests.competitions.helpers import NOW, drawn, registered_players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def singles(league, n, **kwargs):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles",
        kind="singles",
        now=NOW,
        **kwargs,
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return comp


def play_out(comp, secretary, frames=None):
    """Play every scheduled knock-out tie from paper (home wins 2-0) until the final."""
    while True:
        ties = list(Tie.objects.filter(competition=comp, status="scheduled", round__isnull=False))
        if not ties:
            return
        for tie in ties:
            tie_record_paper(
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


def test_a_players_paper_result_waits_for_the_other_players_confirmation(league):
    comp = drawn(singles(league, 2), league.secretary)
    tie = Tie.objects.select_related("home__player", "away__player").get(competition=comp)
    users = {}
    for side in ("home", "away"):
        player = getattr(tie, side).player
        player.user = UserFactory(username=f"u{player.pk}")
        player.save(update_fields=["user"])
        users[side] = player.user
    with pytest.raises(DomainError) as err:
        tie_record_paper(actor=league.outsider, tie=tie, frames=[], now=NOW)
    assert err.value.status == 403
    tie_record_paper(
        actor=users["away"],
        tie=tie,
        frames=[{"home": 100, "away": 200}, {"home": 100, "away": 200}],
        now=NOW,
    )
    tie.refresh_from_db()
    assert tie.status == Tie.Status.SCHEDULED and tie.away_confirmed_by == users["away"]
    tie_confirm(actor=users["home"], tie=tie, now=NOW)
    tie.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.PLAYED, tie.away_id)


def test_award_only_after_the_deadline_with_a_reason(league):
    comp = drawn(singles(league, 4), league.secretary)
    rnd = comp.rounds.get(number=1)
    round_set_dates(
        actor=league.secretary, round=rnd, date=None, deadline=NOW + timedelta(days=7), now=NOW
    )
    tie = Tie.objects.filter(round=rnd).first()
    with pytest.raises(DomainError) as err:
        tie_award(actor=league.secretary, tie=tie, winner="away", reason="no show", now=NOW)
    assert err.value.code == "before_deadline"
    later = NOW + timedelta(days=8)
    with pytest.raises(DomainError) as err:
        tie_award(actor=league.secretary, tie=tie, winner="away", reason=" ", now=later)
    assert err.value.code == "no_reason"
    tie = tie_award(
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
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Ladies",
        kind="singles",
        eligibility_label="ladies",
        now=NOW,
    )
    player = registered_players(league, 1)[0]
    with pytest.raises(DomainError) as err:
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    assert err.value.code == "not_eligible" and "ladies" in err.value.message
    assert not Entry.objects.filter(competition=comp).exists()


def test_a_moving_handicap_moves_both_starts_by_the_step_within_bounds(league):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Handicap",
        kind="singles",
        handicap_rule="moving",
        handicap_step=5,
        handicap_min=0,
        handicap_max=20,
        now=NOW,
    )
    a, b = registered_players(league, 2)
    entry_create(actor=league.secretary, competition=comp, player=a, start=0, now=NOW)
    entry_create(actor=league.secretary, competition=comp, player=b, start=20, now=NOW)
    comp = drawn(comp, league.secretary)
    tie = Tie.objects.get(competition=comp)
    assert {tie.home_start, tie.away_start} == {0, 20}
    tie_record_paper(
        actor=league.secretary,
        tie=tie,
        frames=[{"home": 300, "away": 200}, {"home": 250, "away": 100}],
        now=NOW,
    )
    home = Entry.objects.get(pk=tie.home_id)
    away = Entry.objects.get(pk=tie.away_id)
    # the winner's start goes down by 5, the loser's up by 5, within 0..20
    before = {tie.home_id: tie.home_start, tie.away_id: tie.away_start}
    assert home.start == max(0, before[home.pk] - 5)
    assert away.start == min(20, before[away.pk] + 5)


def test_walkovers_and_withdrawals_send_the_other_side_through(league):
    comp = drawn(singles(league, 4), league.secretary)
    first, second = Tie.objects.filter(round__competition=comp, round__number=1).order_by("slot")
    with pytest.raises(DomainError) as err:
        tie_walkover(actor=league.captain, tie=first, winner="home", reason="x", now=NOW)
    assert err.value.status == 403
    tie_walkover(
        actor=league.secretary, tie=first, winner="home", reason="Away did not turn up", now=NOW
    )
    entry_withdraw(actor=league.secretary, entry=second.away, now=NOW)
    second.refresh_from_db()
    assert (second.status, second.winner_id) == (Tie.Status.WITHDRAWN, second.home_id)
    final = Tie.objects.get(round__competition=comp, round__number=2)
    assert (final.home_id, final.away_id, final.status) == (
        first.home_id,
        second.home_id,
        Tie.Status.SCHEDULED,
    )
    with pytest.raises(DomainError) as err:
        tie_walkover(actor=league.secretary, tie=first, winner="away", reason="again", now=NOW)
    assert err.value.code == "tie_decided"


def test_a_start_is_refused_for_a_game_that_is_not_a_total_of_points(league):
    league.season.game_id = "three_cushion_carom"
    league.season.save(update_fields=["game_id"])
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Carom handicap",
        kind="singles",
        handicap_rule="fixed",
        now=NOW,
    )
    a, b = registered_players(league, 2)
    entry_create(actor=league.secretary, competition=comp, player=a, start=10, now=NOW)
    entry_create(actor=league.secretary, competition=comp, player=b, now=NOW)
    comp = drawn(comp, league.secretary)
    tie = Tie.objects.get(competition=comp)
    with pytest.raises(DomainError) as err:
        tie_frame_open(actor=league.secretary, tie=tie, now=NOW)
    assert err.value.code == "no_start" and "total of points" in err.value.message
    assert not tie.frames.exists()
