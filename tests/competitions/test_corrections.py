"""Correcting a decided tie (issue 28, item 4): the secretary's way back from a mistyped
result or a wrong award, through the API and the tie page. The new winner replaces the
old one in the next round while it is unplayed, a started round refuses with its reason,
a corrected final rewrites the roll of honour, and a confirmed cup match is settled
again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from competitions.models import Competition, CompetitionLog, Entry, Tie, TieFrame
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates, tie_award, tie_record_paper
from frames.matchnight import signoff, squads
from frames.models import Match
from leagues.models import Fixture, Honour

from .helpers import NOW, drawn, registered_players
from .test_cup_match_night import _cup_final_keyed_in

pytestmark = pytest.mark.django_db

HOME_WINS = [{"home": 300, "away": 200}, {"home": 250, "away": 100}]
AWAY_WINS = [{"home": 100, "away": 200}, {"home": 150, "away": 400}]


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


def client_for(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def knockout(league, n: int, *, kind: str = "singles", name: str = "Singles", **kwargs):
    comp = competition_create(
        actor=league.secretary, season=league.season, name=name, kind=kind, now=NOW, **kwargs
    )
    players = registered_players(league, n * (2 if kind == "pairs" else 1))
    if kind == "pairs":
        for player, partner in zip(players[::2], players[1::2], strict=True):
            entry_create(
                actor=league.secretary, competition=comp, player=player, partner=partner, now=NOW
            )
    else:
        for player in players:
            entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def paper(league, tie, frames):
    return tie_record_paper(actor=league.secretary, tie=tie, frames=frames, now=NOW)


def correct(user, tie, **body):
    return client_for(user).post(
        f"/api/ties/{tie.pk}/correct/", body, content_type="application/json"
    )


def test_a_mistyped_singles_result_is_corrected_and_the_right_winner_goes_through(league):
    comp = knockout(league, 4)
    first, second = Tie.objects.filter(round__competition=comp, round__number=1).order_by("slot")
    paper(league, first, HOME_WINS)  # typed the wrong way round
    final = Tie.objects.get(round__competition=comp, round__number=2)
    assert final.home_id == first.home_id and final.status == Tie.Status.PENDING
    # before: the only answer was "already decided"
    assert (
        client_for(league.secretary)
        .post(
            f"/api/ties/{first.pk}/result/", {"frames": AWAY_WINS}, content_type="application/json"
        )
        .json()["error"]
        == "tie_decided"
    )
    answer = correct(
        league.secretary, first, frames=AWAY_WINS, reason="Scores keyed in the wrong way round"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["winner"] == first.away_id and body["status"] == "played"
    assert (body["home_frames"], body["away_frames"]) == ("0.0", "2.0")
    final.refresh_from_db()
    assert final.home_id == first.away_id and final.away_id is None
    assert [(f.home_score, f.away_score) for f in TieFrame.objects.filter(tie=first)] == [
        (100, 200),
        (150, 400),
    ]
    (line,) = CompetitionLog.objects.filter(tie=first, action="corrected")
    assert line.actor == league.secretary
    assert line.detail["reason"] == "Scores keyed in the wrong way round"
    assert line.detail["before"]["winner"] == first.home.name
    assert line.detail["after"]["winner"] == first.away.name
    # the other semi-final arriving now meets the corrected winner
    paper(league, second, HOME_WINS)
    final.refresh_from_db()
    assert (final.home_id, final.away_id, final.status) == (
        first.away_id,
        second.home_id,
        Tie.Status.SCHEDULED,
    )


def test_a_scheduled_next_tie_goes_back_to_waiting_for_its_entrant(league):
    comp = knockout(league, 4)
    first, second = Tie.objects.filter(round__competition=comp, round__number=1).order_by("slot")
    paper(league, first, HOME_WINS)
    paper(league, second, HOME_WINS)
    final = Tie.objects.get(round__competition=comp, round__number=2)
    assert final.status == Tie.Status.SCHEDULED
    assert correct(league.secretary, second, frames=AWAY_WINS, reason="typo").status_code == 200
    final.refresh_from_db()
    assert (final.home_id, final.away_id, final.status) == (
        first.home_id,
        second.away_id,
        Tie.Status.SCHEDULED,
    )


def test_a_correction_is_refused_once_the_winner_has_played_on(league):
    comp = knockout(league, 4)
    first, second = Tie.objects.filter(round__competition=comp, round__number=1).order_by("slot")
    paper(league, first, HOME_WINS)
    paper(league, second, HOME_WINS)
    final = Tie.objects.get(round__competition=comp, round__number=2)
    # a frame of the final started (one frame on paper is enough: it is being played)
    TieFrame.objects.create(tie=final, number=1, home_score=80, away_score=0, source="pad")
    answer = correct(league.secretary, first, frames=AWAY_WINS, reason="typo")
    assert answer.status_code == 409
    error = answer.json()
    assert error["error"] == "later_round_played"
    assert first.home.name in error["message"] and "Correct that tie first" in error["message"]
    assert "(Final) is being played" in error["message"]
    first.refresh_from_db()
    final.refresh_from_db()
    assert first.winner_id == first.home_id and final.home_id == first.home_id
    assert [(f.home_score, f.away_score) for f in TieFrame.objects.filter(tie=first)] == [
        (300, 200),
        (250, 100),
    ]
    assert not CompetitionLog.objects.filter(action="corrected").exists()
    # the same winner with corrected scores moves nobody, so it is allowed
    scores = [{"home": 310, "away": 200}, {"home": 250, "away": 100}]
    assert correct(league.secretary, first, frames=scores, reason="310, not 300").status_code == 200
    final.refresh_from_db()
    assert final.home_id == first.home_id


def test_correcting_the_final_rewrites_the_winner_and_the_roll_of_honour(league):
    comp = knockout(league, 2, kind="pairs", name="Pairs")
    final = Tie.objects.select_related("home__player", "away__player").get(competition=comp)
    paper(league, final, HOME_WINS)
    source = f"competition:{comp.pk}"
    roll = dict(Honour.objects.filter(source=source).values_list("position", "name"))
    assert roll == {"winner": final.home.name, "runner_up": final.away.name}
    answer = correct(league.secretary, final, frames=AWAY_WINS, reason="Wrong way round")
    assert answer.status_code == 200
    comp.refresh_from_db()
    assert (comp.winner_id, comp.runner_up_id, comp.stage) == (
        final.away_id,
        final.home_id,
        Competition.Stage.FINISHED,
    )
    roll = dict(Honour.objects.filter(source=source).values_list("position", "name"))
    assert roll == {"winner": final.away.name, "runner_up": final.home.name}
    winner_line = Honour.objects.get(source=source, position="winner")
    assert set(winner_line.players.values_list("pk", flat=True)) == {
        final.away.player_id,
        final.away.partner_id,
    }


def test_an_award_is_corrected_with_the_right_winner_and_refusals_change_nothing(league):
    comp = knockout(league, 4)
    rnd = comp.rounds.get(number=1)
    round_set_dates(actor=league.secretary, round=rnd, date=None, deadline=NOW, now=NOW)
    tie = Tie.objects.filter(round=rnd).order_by("slot").first()
    tie_award(
        actor=league.secretary,
        tie=tie,
        winner="home",
        reason="Not played",
        now=NOW + timedelta(days=1),
    )
    # refusals: not the secretary, no reason, two corrections at once, a bye
    assert correct(league.captain, tie, winner="away", reason="x").status_code == 403
    answer = correct(league.secretary, tie, winner="away", reason="  ")
    assert answer.status_code == 400 and answer.json()["error"] in ("no_reason", "invalid")
    answer = correct(league.secretary, tie, winner="away", frames=AWAY_WINS, reason="x")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_correction"
    tie.refresh_from_db()
    assert tie.winner_id == tie.home_id
    answer = correct(
        league.secretary, tie, winner="away", reason="The home side had not turned up: wrong side"
    )
    assert answer.status_code == 200, answer.content
    tie.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.AWARDED, tie.away_id)
    assert tie.award_reason == "The home side had not turned up: wrong side"
    final = Tie.objects.get(round__competition=comp, round__number=2)
    assert tie.away_id in (final.home_id, final.away_id)
    assert tie.home_id not in (final.home_id, final.away_id)
    # an undecided tie has nothing to correct
    other = Tie.objects.filter(round=rnd).exclude(pk=tie.pk).get()
    answer = correct(league.secretary, other, winner="away", reason="x")
    assert answer.status_code == 409 and answer.json()["error"] == "tie_not_decided"


def test_a_played_tie_is_corrected_by_its_frames_not_by_naming_a_winner(league):
    comp = knockout(league, 2)
    tie = Tie.objects.get(competition=comp)
    paper(league, tie, HOME_WINS)
    answer = correct(league.secretary, tie, winner="away", reason="x")
    assert answer.status_code == 409 and answer.json()["error"] == "tie_was_played"


def test_a_first_round_loser_put_right_leaves_the_plate_and_the_other_goes_in(league):
    plate = competition_create(
        actor=league.secretary, season=league.season, name="Plate", kind="singles", now=NOW
    )
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles",
        kind="singles",
        plate_rule="first_round_losers",
        plate=plate,
        now=NOW,
    )
    for player in registered_players(league, 4):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    drawn(comp, league.secretary)
    tie = Tie.objects.filter(round__competition=comp, round__number=1).order_by("slot").first()
    paper(league, tie, HOME_WINS)
    assert list(Entry.objects.filter(competition=plate).values_list("player", flat=True)) == [
        tie.away.player_id
    ]
    assert correct(league.secretary, tie, frames=AWAY_WINS, reason="typo").status_code == 200
    assert list(Entry.objects.filter(competition=plate).values_list("player", flat=True)) == [
        tie.home.player_id
    ]


def test_a_confirmed_cup_match_is_settled_again_through_its_tie(league):
    cup, tie, match, frames, home_captain, away_captain = _cup_final_keyed_in(league)
    for side, who in (("home", home_captain), ("away", away_captain)):
        signoff.match_confirm(match=match, side=side, actor=who, now=NOW + timedelta(hours=2))
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id
    # before: settling the confirmed match again was refused
    answer = client_for(league.secretary).post(
        f"/api/matches/{match.pk}/settle/",
        {"decision": "correct", "frames": [{"number": 1, "home_score": 900, "away_score": 400}]},
        content_type="application/json",
    )
    assert answer.status_code == 409 and answer.json()["error"] == "already_confirmed"
    corrected = [{"number": f.number, "home_score": 900, "away_score": 400} for f in frames]
    # naming a winner of a played match is refused: its frames decide
    answer = correct(league.secretary, tie, winner="home", reason="x")
    assert answer.status_code == 409 and answer.json()["error"] == "tie_was_played"
    answer = correct(
        league.secretary, tie, match_frames=corrected, reason="Score sheet read upside down"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["winner"] == tie.home_id
    assert body["home_frames"] == f"{frames.count()}.0" and body["away_frames"] == "0.0"
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    fixture = Fixture.objects.get(pk=tie.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (frames.count(), 0)
    cup.refresh_from_db()
    assert (cup.winner_id, cup.runner_up_id) == (tie.home_id, tie.away_id)
    roll = dict(
        Honour.objects.filter(source=f"competition:{cup.pk}").values_list("position", "name")
    )
    assert roll == {"winner": tie.home.team.name, "runner_up": tie.away.team.name}


def test_the_secretary_corrects_a_tie_from_its_page(client, league):
    comp = knockout(league, 2)
    tie = Tie.objects.get(competition=comp)
    paper(league, tie, HOME_WINS)
    client.force_login(league.captain)
    assert "Correct this result" not in client.get(f"/ties/{tie.pk}/").content.decode()
    assert client.post(f"/ties/{tie.pk}/correct/", {"reason": "x"}).status_code == 403
    client.force_login(league.secretary)
    page = client.get(f"/ties/{tie.pk}/").content.decode()
    assert "Correct this result" in page and 'name="frames"' in page
    answer = client.post(
        f"/ties/{tie.pk}/correct/",
        {"frames": "100 200\n150 400", "reason": "Wrong way round"},
        follow=True,
    )
    page = answer.content.decode()
    assert f"Corrected: {tie.away.name} won this tie." in page
    assert "Reason: Wrong way round" in page
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id
    # a refusal is shown, and nothing changes
    answer = client.post(
        f"/ties/{tie.pk}/correct/", {"frames": "100 200", "reason": "again"}, follow=True
    )
    assert "Nobody has won 2 frames" in answer.content.decode()
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id


def test_a_team_tie_put_right_gives_the_next_round_a_new_cup_fixture(league):
    """The final's cup fixture was made for the wrong team: an unplayed match night opened
    for it goes with it, and the final gets a fixture for the teams that meet."""
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:4]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    rnd = cup.rounds.get(number=1)
    round_set_dates(actor=league.secretary, round=rnd, date=None, deadline=NOW, now=NOW)
    later = NOW + timedelta(days=1)
    first, second = Tie.objects.filter(round=rnd).order_by("slot")
    for tie in (first, second):
        tie_award(actor=league.secretary, tie=tie, winner="home", reason="No show", now=later)
    final = Tie.objects.select_related("fixture").get(round__competition=cup, round__number=2)
    old_fixture = final.fixture
    assert old_fixture is not None
    squads.match_open(fixture=old_fixture, actor=league.secretary, now=later)
    answer = correct(league.secretary, first, winner="away", reason="The home side had no team")
    assert answer.status_code == 200, answer.content
    final.refresh_from_db()
    assert (final.home_id, final.away_id, final.status) == (
        first.away_id,
        second.home_id,
        Tie.Status.SCHEDULED,
    )
    assert not Fixture.objects.filter(pk=old_fixture.pk).exists()
    assert not Match.objects.filter(fixture_id=old_fixture.pk).exists()
    assert (final.fixture.home_id, final.fixture.away_id) == (
        first.away.team_id,
        second.home.team_id,
    )
    (line,) = CompetitionLog.objects.filter(tie=first, action="corrected")
    assert line.detail["moved"] == [
        f"{first.home.name} taken out of {first.home.name} v {second.home.name} (Final)"
    ]
