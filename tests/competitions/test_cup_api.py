"""A whole singles cup through the API: entries (with an eligibility refusal), the draw
by commit and reveal, round one with byes, ties scored on the pad with a handicap start
and signed off by both players, others from paper, winners through to the final."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from competitions import draw as cupdraw
from competitions.models import Competition, Tie, TieFrame
from frames.pad import events
from leagues.models import Player
from rules import get
from rules.core import replay as replay_game
from tests.factories import PlayerFactory, UserFactory

from .helpers import NOW, registered_players

pytestmark = pytest.mark.django_db

BB = get("bar_billiards_4pin")
SHORT_FRAME = [
    {"type": "bar_down"},
    {"type": "shot", "pots": [{"ball": "white", "hole": 200}, {"ball": "red", "hole": 200}]},
    *[{"type": "shot", "pots": [{"ball": "white", "hole": 200}]}] * 5,
]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def with_user(player: Player):
    if player.user_id is None:
        player.user = UserFactory(username=f"p{player.pk}")
        player.save(update_fields=["user"])
    return player.user


def play_frame_on_pad(frame_id: int, user) -> None:
    for seq, event in enumerate(SHORT_FRAME, start=1):
        events.frame_record_event(
            frame_id=frame_id,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=user,
            device_id="t",
            now=NOW,
        )
    events.frame_confirm(frame_id=frame_id, seq=len(SHORT_FRAME), user=user, now=NOW)


def test_a_handicap_singles_cup_from_entries_to_its_winner(league):
    sec = client_for(league.secretary)
    answer = sec.post(
        f"/api/seasons/{league.season.pk}/competitions/",
        {
            "name": "Handicap Singles",
            "kind": "singles",
            "best_of": 3,
            "final_best_of": 3,
            "handicap_rule": "fixed",
        },
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.json()
    comp_id = answer.json()["id"]
    players = registered_players(league, 5)
    for player in players:
        answer = sec.post(
            f"/api/competitions/{comp_id}/entries/",
            {"player": player.pk},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.json()
    # an unregistered player is refused, naming the rule; nothing is stored
    stranger = PlayerFactory()
    answer = sec.post(
        f"/api/competitions/{comp_id}/entries/",
        {"player": stranger.pk},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert (
        answer.json()["error"] == "not_registered"
        and "registered players" in answer.json()["message"]
    )
    # a bad body gets the API's error shape
    answer = sec.post(
        f"/api/competitions/{comp_id}/entries/", {"player": "x"}, content_type="application/json"
    )
    assert answer.status_code == 400 and "error" in answer.json()

    # the draw: commit, (no perform before reveal), reveal, perform
    secret = "the secretary's secret"
    assert (
        sec.post(
            f"/api/competitions/{comp_id}/draw/commit/",
            {"commitment": cupdraw.commitment(secret)},
            content_type="application/json",
        ).status_code
        == 200
    )
    early = sec.post(f"/api/competitions/{comp_id}/draw/")
    assert early.status_code == 400 and early.json()["error"] == "not_revealed"
    assert (
        sec.post(
            f"/api/competitions/{comp_id}/draw/reveal/",
            {"secret": "wrong"},
            content_type="application/json",
        ).json()["error"]
        == "reveal_mismatch"
    )
    assert (
        sec.post(
            f"/api/competitions/{comp_id}/draw/reveal/",
            {"secret": secret},
            content_type="application/json",
        ).status_code
        == 200
    )
    drawn = sec.post(f"/api/competitions/{comp_id}/draw/").json()
    assert drawn["algorithm"] == cupdraw.ALGORITHM_VERSION
    comp = Competition.objects.get(pk=comp_id)
    assert drawn["seed"] == cupdraw.derive_seed(secret, comp.server_secret)
    # the replay command gives the same first round
    replay = cupdraw.draw_knockout(list(drawn["draw_record"]["entrants"]), drawn["seed"])
    assert replay.to_json()["ties"] == drawn["draw_record"]["ties"]

    bracket = client_for(league.outsider).get(f"/api/competitions/{comp_id}/bracket/").json()
    assert [r["round"]["name"] for r in bracket["rounds"]] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    first = bracket["rounds"][0]["ties"]
    assert sum(t["bye"] for t in first) == 3 and all(
        t["status"] == "bye" for t in first if t["bye"]
    )

    # the one real first-round tie: on the pad, the away player given a start of 100
    tie = Tie.objects.get(round__competition=comp, round__number=1, bye=False)
    assert (
        sec.post(
            f"/api/competition-entries/{tie.away_id}/start/",
            {"start": 100},
            content_type="application/json",
        ).status_code
        == 200
    )
    tie.refresh_from_db()
    home_user, away_user = with_user(tie.home.player), with_user(tie.away.player)
    assert tie.away_start == 100  # the unplayed tie takes the new start
    home = client_for(home_user)
    for _ in range(2):
        opened = home.post(f"/api/ties/{tie.pk}/frames/")
        assert opened.status_code == 201, opened.json()
        play_frame_on_pad(opened.json()["frame"], home_user)
    assert home.post(f"/api/ties/{tie.pk}/frames/").json()["error"] == "tie_won"
    frames = TieFrame.objects.filter(tie=tie).order_by("number")
    assert home.post(f"/api/ties/{tie.pk}/confirm/").status_code == 200
    tie.refresh_from_db()
    assert tie.status == Tie.Status.SCHEDULED  # waits for the other side
    assert client_for(away_user).post(f"/api/ties/{tie.pk}/confirm/").status_code == 200
    tie.refresh_from_db()
    level = BB.outcome(replay_game(BB, {}, SHORT_FRAME)).scores  # the same frame played level
    assert level["away"] == 0
    expected = (level["home"], 100, "home")  # the away side's start is on its score
    assert [(f.home_score, f.away_score, f.winner) for f in frames] == [expected] * 2
    assert (tie.status, tie.winner_id, tie.home_frames, tie.away_frames) == (
        Tie.Status.PLAYED,
        tie.home_id,
        2,
        0,
    )

    # the rest from paper, the secretary's word final, until the final is won
    while True:
        open_ties = Tie.objects.filter(competition=comp, status="scheduled")
        if not open_ties:
            break
        for t in open_ties:
            answer = sec.post(
                f"/api/ties/{t.pk}/result/",
                {"frames": [{"home": 100, "away": 300}, {"home": 200, "away": 250}]},
                content_type="application/json",
            )
            assert answer.status_code == 200, answer.json()
    final = client_for(league.outsider).get(f"/api/competitions/{comp_id}/bracket/").json()
    last = final["rounds"][-1]["ties"][0]
    assert last["status"] == "played" and last["winner"] == last["away"]
    assert final["winner"]["id"] == last["away"] and final["runner_up"]["id"] == last["home"]
    assert (
        client_for(league.outsider).get(f"/api/competitions/{comp_id}/").json()["stage"]
        == "finished"
    )


def test_paper_result_that_does_not_finish_the_tie_is_refused(league):
    sec = client_for(league.secretary)
    comp = sec.post(
        f"/api/seasons/{league.season.pk}/competitions/",
        {"name": "S", "kind": "singles"},
        content_type="application/json",
    ).json()
    for player in registered_players(league, 2):
        sec.post(
            f"/api/competitions/{comp['id']}/entries/",
            {"player": player.pk},
            content_type="application/json",
        )
    sec.post(f"/api/competitions/{comp['id']}/draw/commit/", {}, content_type="application/json")
    comp_row = Competition.objects.get(pk=comp["id"])
    sec.post(
        f"/api/competitions/{comp['id']}/draw/reveal/",
        {"secret": comp_row.secretary_secret},
        content_type="application/json",
    )
    assert sec.post(f"/api/competitions/{comp['id']}/draw/").status_code == 200
    tie = Tie.objects.get(competition_id=comp["id"])
    answer = sec.post(
        f"/api/ties/{tie.pk}/result/",
        {"frames": [{"home": 1, "away": 0}]},
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["error"] == "bad_frames"
    tie.refresh_from_db()
    assert tie.status == "scheduled" and not tie.frames.exists()


def test_a_pair_that_withdrew_before_its_opponent_was_known_gives_the_tie_to_the_opponent(
    league,
):
    """A pair through on a bye withdraws: when round one's other winner arrives, round two
    goes to them (a withdrawal), not scheduled against a pair no longer in."""
    sec = client_for(league.secretary)
    comp = sec.post(
        f"/api/seasons/{league.season.pk}/competitions/",
        {"name": "Pairs", "kind": "pairs"},
        content_type="application/json",
    ).json()
    players = registered_players(league, 6)
    for a, b in zip(players[::2], players[1::2], strict=True):
        answer = sec.post(
            f"/api/competitions/{comp['id']}/entries/",
            {"player": a.pk, "partner": b.pk},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.json()
    sec.post(f"/api/competitions/{comp['id']}/draw/commit/", {}, content_type="application/json")
    secret = Competition.objects.get(pk=comp["id"]).secretary_secret
    sec.post(
        f"/api/competitions/{comp['id']}/draw/reveal/",
        {"secret": secret},
        content_type="application/json",
    )
    assert sec.post(f"/api/competitions/{comp['id']}/draw/").status_code == 200
    bye = Tie.objects.get(competition_id=comp["id"], round__number=1, status="bye")
    played = Tie.objects.get(competition_id=comp["id"], round__number=1, status="scheduled")
    answer = sec.post(f"/api/competition-entries/{bye.winner_id}/withdraw/")
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"
    answer = sec.post(
        f"/api/ties/{played.pk}/result/",
        {"frames": [{"home": 300, "away": 100}, {"home": 250, "away": 200}]},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.json()
    final = Tie.objects.get(competition_id=comp["id"], round__number=2)
    answer = sec.get(f"/api/ties/{final.pk}/").json()
    assert answer["status"] == "withdrawn"
    assert answer["winner"] == played.home_id and bye.winner_id in (answer["home"], answer["away"])
    assert "withdrew" in answer["award_reason"]
    bracket = sec.get(f"/api/competitions/{comp['id']}/bracket/").json()
    assert bracket["winner"]["id"] == played.home_id


def test_a_team_event_asked_not_to_be_cup_tied_is_refused_by_its_own_code(league):
    """Rule 8 binds a player to one team a season, cups included: a team event cannot be
    anything but cup-tied, and saying otherwise is refused naming that rule."""
    sec = client_for(league.secretary)
    url = f"/api/seasons/{league.season.pk}/competitions/"
    answer = sec.post(
        url,
        {"name": "Open Cup", "kind": "team_knockout", "cup_tied": False},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert (answer.json()["error"], answer.json()["field"]) == ("cup_tied", "cup_tied")
    assert not Competition.objects.filter(season=league.season, name="Open Cup").exists()
    tied = sec.post(url, {"name": "Cup", "kind": "team_knockout"}, content_type="application/json")
    assert tied.status_code == 201 and tied.json()["cup_tied"] is True
    # an individual event has no teams to be tied to
    singles = sec.post(
        url,
        {"name": "Singles", "kind": "singles", "cup_tied": False},
        content_type="application/json",
    )
    assert singles.status_code == 201
