"""Export and erasure reach competitions and the roll of honour: a player who played a
singles cup, its final scored on the pad, and won an honour, is exported whole and, once
erased, named nowhere (the cup's API, the honours, the cup frame's state and shot log,
the export), while tables and results stay as they were."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from competitions.models import Competition, CompetitionLog, Entry, Tie, TieFrame
from competitions.services.entries import entry_create
from competitions.services.pad import tie_confirm, tie_frame_open
from competitions.services.setup import competition_create
from frames.models import Frame, FrameEvent, Friendly
from frames.pad.events import frame_confirm, frame_rebuild, frame_record_event
from leagues import standings
from leagues.models import Honour, Player
from people.erasure import person_erase
from people.export import person_data
from tests.competitions.helpers import NOW, drawn, registered_players
from tests.competitions.test_cup_api import SHORT_FRAME
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OLD = "Zebedee Quux"


def play_on_pad(tie: Tie, actor) -> TieFrame:
    tie_frame = tie_frame_open(actor=actor, tie=tie, now=NOW)
    for seq, event in enumerate(SHORT_FRAME, start=1):
        frame_record_event(
            frame_id=tie_frame.frame_id,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=actor,
            device_id="t",
            now=NOW,
        )
    frame_confirm(frame_id=tie_frame.frame_id, seq=len(SHORT_FRAME), user=actor, now=NOW)
    return tie_frame


@pytest.fixture
def cup(league):
    """A singles cup of two players, Zebedee Quux one of them, its final (two frames)
    scored on the pad and confirmed: both finalists are on the roll of honour."""
    secretary = league.secretary
    victim, rival = registered_players(league, 2)
    user = UserFactory(username="zeb", email="zeb@example.org")
    Player.objects.filter(pk=victim.pk).update(name=OLD, user=user)
    victim.refresh_from_db()
    singles = competition_create(
        actor=secretary, season=league.season, name="Singles", kind="singles", now=NOW
    )
    for player in (victim, rival):
        entry_create(actor=secretary, competition=singles, player=player, now=NOW)
    drawn(singles, secretary)
    final = Tie.objects.get(competition=singles)
    frames = [play_on_pad(final, secretary).frame_id for _ in range(2)]
    tie_confirm(actor=secretary, tie=final, now=NOW)
    league.victim, league.user, league.rival = victim, user, rival
    league.competition, league.final, league.frame_ids = singles, final, frames
    return league


def api_answers(w) -> dict[str, str]:
    """What the API answers about the cup, the honours and the cup's frames."""
    c = w.competition.pk
    urls = [
        f"/api/competitions/{c}/",
        f"/api/competitions/{c}/entries/",
        f"/api/competitions/{c}/draw/",
        f"/api/competitions/{c}/bracket/",
        f"/api/ties/{w.final.pk}/",
        reverse("api-league-honours", args=[w.season.league_id]),
        *(f"/api/frames/{pk}/state/" for pk in w.frame_ids),
        *(f"/api/frames/{pk}/events/?since=0" for pk in w.frame_ids),
        *(reverse("friendly-detail", args=[f.pk]) for f in Friendly.objects.all()),
    ]
    client = Client()
    client.force_login(w.secretary)  # an officer sees full names
    answers = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        answers[url] = response.content.decode()
    return answers


def stored(*models) -> str:
    return json.dumps([list(m.objects.values()) for m in models], default=str)


def results(w) -> dict:
    return {
        "tables": [t.as_rows() for t in standings.tables(w.season)],
        "ties": [
            (t.status, t.winner_id, t.home_frames, t.away_frames)
            for t in Tie.objects.order_by("pk")
        ],
        "tie_frames": list(TieFrame.objects.values("home_score", "away_score", "winner")),
        "frames": list(Frame.objects.values("home_score", "away_score", "winner", "status")),
        "honours": [
            (h.position, h.title, sorted(p.pk for p in h.players.all()))
            for h in Honour.objects.order_by("position")
        ],
        "winner": Competition.objects.values_list("winner_id", "runner_up_id").get(),
    }


def test_the_export_holds_the_cup_and_the_honour(cup):
    data = person_data(cup.victim)
    assert [e["competition"] for e in data["competition_entries"]] == ["Singles"]
    assert sorted(f["frame_id"] for f in data["cup_frames"]) == sorted(cup.frame_ids)
    assert [h["name"] for h in data["honours"]] == [OLD]
    assert data["account"]["username"] == "zeb"


def test_after_erasure_the_cup_and_the_honours_name_the_player_nowhere(cup):
    before = api_answers(cup)
    # Not a test that cannot fail: the old name is there before.
    for url in (
        f"/api/competitions/{cup.competition.pk}/bracket/",
        f"/api/competitions/{cup.competition.pk}/draw/",
        reverse("api-league-honours", args=[cup.season.league_id]),
        f"/api/frames/{cup.frame_ids[0]}/state/",
    ):
        assert OLD in before[url], url
    cup_models = (Competition, CompetitionLog, Entry, Tie, TieFrame, Honour)
    frame_models = (Frame, FrameEvent, Friendly)
    assert OLD in stored(*cup_models) and OLD in stored(*frame_models)
    held = results(cup)

    done = person_erase(player=cup.victim, actor=cup.secretary, now=NOW)

    new = f"Former player {done.number}"
    for url, body in api_answers(cup).items():
        assert OLD not in body, url
    assert new in api_answers(cup)[reverse("api-league-honours", args=[cup.season.league_id])]
    assert OLD not in stored(*cup_models) and OLD not in stored(*frame_models)
    assert OLD not in json.dumps(person_data(Player.objects.get(pk=cup.victim.pk)), default=str)
    assert Honour.objects.filter(name=new).exists()
    assert results(cup) == held
    # The rival is named as before, and each frame's log still replays to its states.
    assert cup.rival.name in api_answers(cup)[f"/api/competitions/{cup.competition.pk}/draw/"]
    for pk in cup.frame_ids:
        report = frame_rebuild(frame_id=pk)
        assert report.ok, report.problems
