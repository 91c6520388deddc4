"""Paper parity: the printable score sheet, and keying a paper sheet's scores back in."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from frames.matchnight import signoff
from frames.models import Frame, FrameEvent, Match, MatchLog
from tests.frames.matchnight_helpers import (
    NIGHT,
    drawn,
    frames_of,
    later,
    mark,
    open_match,
    refused,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def add_shot(frame: Frame) -> None:
    FrameEvent.objects.create(
        frame=frame, seq=1, event_id=uuid.uuid4(), payload={"type": "shot"}, created_at=NIGHT
    )
    Frame.objects.filter(pk=frame.pk).update(last_seq=1, status=Frame.Status.IN_PLAY)


# --------------------------------------------------------------------------- the service


def test_a_frame_keyed_from_paper_is_complete_without_shots(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    for _ in range(2):  # a retry keys the same scores: nothing new
        frame = signoff.frame_key_in_paper(
            frame=frame, home_score=1250, away_score=980, actor=league.captain, now=later(40)
        )
    assert frame.status == Frame.Status.COMPLETE and frame.result_source == "paper"
    assert (frame.home_score, frame.away_score, frame.winner, frame.shared) == (
        1250,
        980,
        "home",
        False,
    )
    assert frame.completed_at == later(40)
    assert not FrameEvent.objects.filter(frame=frame).exists()
    entries = MatchLog.objects.filter(match=match, action="paper_keyed")
    assert entries.count() == 1 and entries[0].actor == league.captain
    assert entries[0].detail["frames"][0]["home_score"] == 1250


def test_equal_paper_scores_share_the_frame(league):
    match = drawn(league)
    frame = signoff.frame_key_in_paper(
        frame=frames_of(match)[0], home_score=700, away_score=700, actor=league.other_captain
    )
    assert frame.shared and frame.winner == ""


@pytest.mark.parametrize(("home", "away"), [(-10, 500), (505, 500), (500, 1.5), (True, 0)])
def test_paper_scores_are_whole_tens(league, home, away):
    match = drawn(league)
    refused(
        "bad_score",
        signoff.frame_key_in_paper,
        frame=frames_of(match)[0],
        home_score=home,
        away_score=away,
        actor=league.captain,
    )


def test_paper_scores_follow_the_games_declared_step(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    Frame.objects.filter(pk=frame.pk).update(game_id="english_bagatelle")  # scores in ones
    frame.refresh_from_db()
    frame = signoff.frame_key_in_paper(
        frame=frame, home_score=131, away_score=96, actor=league.captain, now=later(40)
    )
    assert (frame.home_score, frame.away_score, frame.winner) == (131, 96, "home")


def test_a_frame_with_shots_is_the_secretarys_to_overwrite(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    add_shot(frame)
    error = refused(
        "frame_has_shots",
        signoff.frame_key_in_paper,
        frame=frame,
        home_score=500,
        away_score=100,
        actor=league.captain,
    )
    assert error.status == 403
    frame = signoff.frame_key_in_paper(
        frame=frame, home_score=500, away_score=100, actor=league.secretary
    )
    assert frame.status == Frame.Status.COMPLETE and frame.result_source == "paper"


def test_paper_scores_need_a_drawn_match_and_a_captain(league):
    match = mark(league, open_match(league))
    refused(
        "not_drawn",
        signoff.match_key_in_paper,
        match=match,
        scores={1: (100, 0)},
        actor=league.captain,
    )
    match = drawn(league)
    refused(
        "not_captain",
        signoff.match_key_in_paper,
        match=match,
        scores={1: (100, 0)},
        actor=league.player_user,
    )


def test_a_conceded_frame_takes_no_scores(league):
    match = drawn(league, home=4, agree=True)
    conceded = Frame.objects.get(match=match, number=9)
    refused(
        "frame_conceded",
        signoff.frame_key_in_paper,
        frame=conceded,
        home_score=0,
        away_score=100,
        actor=league.captain,
    )


def test_a_whole_sheet_is_keyed_all_or_nothing(league):
    match = drawn(league)
    refused(
        "bad_score",
        signoff.match_key_in_paper,
        match=match,
        scores={1: (500, 0), 2: (500, 3)},
        actor=league.captain,
    )
    refused(
        "no_such_frame",
        signoff.match_key_in_paper,
        match=match,
        scores={1: (500, 0), 12: (500, 0)},
        actor=league.captain,
    )


def test_a_confirmed_result_takes_no_more_paper(league):
    match = drawn(league)
    signoff.match_key_in_paper(
        match=match, scores={n: (500, 100) for n in range(1, 10)}, actor=league.captain
    )
    signoff.match_confirm(match=match, side="home", actor=league.captain)
    signoff.match_confirm(match=match, side="away", actor=league.other_captain)
    refused(
        "already_confirmed",
        signoff.match_key_in_paper,
        match=match,
        scores={1: (100, 500)},
        actor=league.secretary,
    )


# --------------------------------------------------------------------------- the pages


def test_the_paper_entry_page_keys_in_a_whole_sheet(league, client):
    match = drawn(league)
    client.force_login(league.vice_captain)
    url = reverse("match-paper", args=[match.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert page.content.decode().count('type="number"') == 18
    data = {f"home_{n}": 600 for n in range(1, 10)} | {f"away_{n}": 400 for n in range(1, 10)}
    data["away_9"] = 600  # frame 9 shared
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert (match.home_frames, match.away_frames) == (8.5, 0.5)
    assert set(Frame.objects.filter(match=match).values_list("result_source", flat=True)) == {
        "paper"
    }


def test_the_paper_entry_page_shows_a_clear_error_and_changes_nothing(league, client):
    match = drawn(league)
    client.force_login(league.captain)
    response = client.post(reverse("match-paper", args=[match.pk]), {"home_1": 505, "away_1": 200})
    assert response.status_code == 400
    assert "in tens" in response.content.decode()
    assert not Frame.objects.filter(match=match, status="complete").exists()
    response = client.post(reverse("match-paper", args=[match.pk]), {"home_1": 500})
    assert response.status_code == 400
    assert "Give both scores" in response.content.decode()


def test_the_score_sheet_prints_the_draw_the_referees_and_a_blank_grid(league, client):
    match = drawn(league)
    response = client.get(reverse("match-sheet", args=[match.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "frames/match.css" in html  # the print stylesheet
    for frame in frames_of(match):
        assert f"Frame {frame.number} (" in html
        assert frame.referee.name in html
        for slot in frame.players.all():
            assert slot.player.name in html
    assert html.count('class="shot-grid"') == 9
    assert str(match.seed) in html
    # strict CSP: nothing inline
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html and " style=" not in html


def test_the_print_stylesheet_fits_a_page_and_hides_the_screen_chrome(client):
    css = open("static/frames/match.css", encoding="utf-8").read()
    print_rules = css[css.index("@media print") :]
    assert "@page" in print_rules and "A4" in print_rules
    assert "break-inside: avoid" in print_rules
    base = open("static/css/marker.css", encoding="utf-8").read()
    assert "header.site, footer.site, .actions, .no-print { display: none" in base


def test_a_blank_sheet_before_the_draw_has_nine_empty_frames(league, client):
    match = mark(league, open_match(league))
    html = client.get(reverse("match-sheet", args=[match.pk])).content.decode()
    assert html.count('class="shot-grid"') == 9
    assert "referee ____________" in html
