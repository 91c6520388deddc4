"""The scorecard: frame results add up to the match result, and the result counts only
once confirmed (by both captains, by the secretary settling a dispute, or automatically
after the league's period)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import strategies as st

from frames import results
from frames.matchnight import signoff
from frames.matchnight import tasks as mn_tasks
from frames.models import Frame, Match, MatchLog
from frames.results import tally
from leagues.models import Fixture

from .matchnight_helpers import (
    drawn,
    fixture_of,
    frames_of,
    key_all,
    later,
    refused,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def finish(league, match, scores=None, when=None) -> Match:
    return key_all(league, match, scores, now=when or later(120))


# --------------------------------------------------------------------------- adding up


def test_a_shared_frame_is_half_a_frame_each_and_points_add_up(league):
    match = drawn(league)
    scores = {n: (1000, 600) for n in range(1, 10)}
    scores[2] = (800, 800)  # shared
    scores[3] = (400, 900)
    match = finish(league, match, scores)
    assert match.status == Match.Status.COMPLETE
    assert (match.home_frames, match.away_frames) == (Decimal("7.5"), Decimal("1.5"))
    assert match.home_score == sum(h for h, _ in scores.values())
    assert match.away_score == sum(a for _, a in scores.values())
    frame2 = Frame.objects.get(match=match, number=2)
    assert frame2.shared and frame2.winner == ""


def test_conceded_frames_count_for_the_side_that_could_play(league):
    match = drawn(league, home=4, away=6, agree=True)
    match = finish(league, match, {n: (0, 500) for n in (1, 2, 3, 4, 7, 8)})
    assert (match.home_frames, match.away_frames) == (0, 9)
    assert (match.home_score, match.away_score) == (0, 3000)


def test_the_tally_is_a_pure_sum_of_the_frames():
    frames = [
        Frame(status="complete", home_score=1200, away_score=300, winner="home"),
        Frame(status="complete", home_score=500, away_score=500, shared=True),
        Frame(status="conceded", conceded_by="home"),
        Frame(status="conceded", conceded_by="both"),
        Frame(status="in_play"),
    ]
    result = tally(frames)
    assert (result.home_frames, result.away_frames) == (Decimal("1.5"), Decimal("1.5"))
    assert (result.home_score, result.away_score) == (1700, 800)
    assert not result.finished and result.started
    assert result.frames_display == "1½–1½"


def test_the_match_follows_its_frames_from_drawn_to_complete(league):
    match = drawn(league)
    first = frames_of(match)[0]
    # what the pad does when a frame ends: engine scores on the frame, then recompute
    Frame.objects.filter(pk=first.pk).update(
        status="complete",
        home_score=1500,
        away_score=700,
        winner="home",
        result_source="pad",
        completed_at=later(30),
    )
    match = results.match_update_result(match=match)
    assert match.status == Match.Status.IN_PLAY
    assert (match.home_frames, match.home_score, match.away_score) == (1, 1500, 700)
    match = results.match_update_result(match=match)  # again: nothing new
    assert match.status == Match.Status.IN_PLAY
    match = finish(league, match, {n: (300, 600) for n in range(2, 10)}, when=later(200))
    assert match.status == Match.Status.COMPLETE and match.completed_at == later(200)
    assert (match.home_frames, match.away_frames) == (1, 8)
    assert MatchLog.objects.filter(match=match, action="completed").count() == 1


# --------------------------------------------------------------------------- confirming


def test_both_captains_confirm_and_the_result_lands_on_the_fixture_once(league):
    match = finish(league, drawn(league))
    for _ in range(2):
        match = signoff.match_confirm(
            match=match, side="home", actor=league.vice_captain, now=later(130)
        )
    assert match.status == Match.Status.COMPLETE
    assert Fixture.objects.get(pk=match.fixture_id).result_confirmed_at is None
    match = signoff.match_confirm(
        match=match, side="away", actor=league.other_captain, now=later(140)
    )
    assert match.status == Match.Status.CONFIRMED and match.confirmed_at == later(140)
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (9, 0)
    assert (fixture.home_score, fixture.away_score) == (9000, 4500)
    assert fixture.result_confirmed_at == later(140) and fixture.status == "played"
    # confirming again, or the auto-confirm sweep, changes nothing
    signoff.match_confirm(match=match, side="away", actor=league.other_captain, now=later(300))
    signoff.match_autoconfirm_due(now=later(hours=100))
    assert Fixture.objects.get(pk=match.fixture_id).result_confirmed_at == later(140)
    assert MatchLog.objects.filter(match=match, action="result_recorded").count() == 1
    assert list(
        MatchLog.objects.filter(match=match, action="confirmed").values_list("actor", "detail")
    ) == [(league.vice_captain.pk, {"side": "home"}), (league.other_captain.pk, {"side": "away"})]


@pytest.mark.parametrize("who", ["player_user", "outsider", "secretary", "other_captain"])
def test_only_the_sides_captain_confirms_it(league, who):
    match = finish(league, drawn(league))
    error = refused(
        "not_captain", signoff.match_confirm, match=match, side="home", actor=getattr(league, who)
    )
    assert error.status == 403


def test_a_result_cannot_be_confirmed_before_every_frame_is_finished(league):
    match = drawn(league)
    key_all(league, match, {1: (500, 200)})
    error = refused(
        "not_complete", signoff.match_confirm, match=match, side="home", actor=league.captain
    )
    assert "2, 3, 4" in error.message


def test_a_dispute_needs_a_reason(league):
    match = finish(league, drawn(league))
    refused(
        "reason_required",
        signoff.match_dispute,
        match=match,
        side="away",
        actor=league.other_captain,
        reason="   ",
    )


def test_a_disputed_result_waits_for_the_secretary(league):
    match = finish(league, drawn(league))
    signoff.match_confirm(match=match, side="home", actor=league.captain, now=later(130))
    for _ in range(2):
        match = signoff.match_dispute(
            match=match,
            side="away",
            actor=league.other_captain,
            reason="Frame 3 was 600-500 to us",
            now=later(131),
        )
    assert match.status == Match.Status.DISPUTED
    assert MatchLog.objects.filter(match=match, action="disputed").count() == 1
    refused(
        "match_disputed",
        signoff.match_confirm,
        match=match,
        side="away",
        actor=league.other_captain,
    )
    assert signoff.match_autoconfirm_due(now=later(hours=200)) == []
    refused(
        "not_secretary", signoff.match_settle, match=match, actor=league.captain, decision="accept"
    )
    assert Fixture.objects.get(pk=match.fixture_id).result_confirmed_at is None


def test_the_secretary_settles_by_accepting_the_result(league):
    match = finish(league, drawn(league))
    signoff.match_dispute(
        match=match, side="away", actor=league.other_captain, reason="Wrong", now=later(131)
    )
    match = signoff.match_settle(
        match=match,
        actor=league.secretary,
        decision="accept",
        note="The sheet agrees",
        now=later(hours=30),
    )
    assert match.status == Match.Status.CONFIRMED
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert fixture.home_frames == 9 and fixture.result_confirmed_at == later(hours=30)
    settled = MatchLog.objects.get(match=match, action="settled")
    assert settled.actor == league.secretary
    assert settled.detail["note"] == "The sheet agrees"
    assert settled.detail["dispute"] == {"side": "away", "reason": "Wrong"}


def test_the_secretary_settles_by_correcting_frame_scores(league):
    match = finish(league, drawn(league))
    signoff.match_dispute(
        match=match,
        side="away",
        actor=league.other_captain,
        reason="Frames 3 and 4 went our way",
        now=later(131),
    )
    match = signoff.match_settle(
        match=match,
        actor=league.secretary,
        decision="correct",
        scores={3: (500, 600), 4: (700, 700)},
        now=later(hours=30),
    )
    assert (match.home_frames, match.away_frames) == (Decimal("7.5"), Decimal("1.5"))
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (Decimal("7.5"), Decimal("1.5"))
    assert fixture.home_score == 7 * 1000 + 500 + 700
    corrections = MatchLog.objects.get(match=match, action="settled").detail["corrections"]
    assert [c["frame"] for c in corrections] == [3, 4]
    assert corrections[0]["previous"]["home_score"] == 1000


def test_a_correction_must_be_in_tens(league):
    match = finish(league, drawn(league))
    signoff.match_dispute(match=match, side="home", actor=league.captain, reason="x")
    refused(
        "bad_score",
        signoff.match_settle,
        match=match,
        actor=league.secretary,
        decision="correct",
        scores={1: (505, 0)},
    )


# --------------------------------------------------------------------------- automatically


def test_a_result_is_confirmed_automatically_after_48_hours(league):
    match = finish(league, drawn(league), when=later(150))
    just_before = later(150, hours=48) - timedelta(seconds=1)
    assert signoff.match_autoconfirm_due(now=just_before) == []
    confirmed = signoff.match_autoconfirm_due(now=later(150, hours=48))
    assert [m.pk for m in confirmed] == [match.pk]
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert Fixture.objects.get(pk=match.fixture_id).result_confirmed_at == later(150, hours=48)
    entry = MatchLog.objects.get(match=match, action="auto_confirmed")
    assert entry.actor is None and entry.detail["after_hours"] == 48
    assert signoff.match_autoconfirm_due(now=later(hours=100)) == []  # twice: nothing


def test_the_leagues_own_period_applies(league):
    season_league = league.season.league
    season_league.confirm_after_hours = 24
    season_league.save(update_fields=["confirm_after_hours"])
    match = finish(league, drawn(league), when=later(150))
    assert signoff.match_autoconfirm_due(now=later(149, hours=24)) == []
    assert [m.pk for m in signoff.match_autoconfirm_due(now=later(150, hours=24))] == [match.pk]


def test_the_beat_task_confirms_due_results(league):
    match = finish(league, drawn(league), when=later(150))
    Match.objects.filter(pk=match.pk).update(completed_at=later(-60 * 24 * 30))
    assert mn_tasks.autoconfirm_matches.delay().get() == [match.pk]
    assert mn_tasks.autoconfirm_matches.delay().get() == []
    entry = settings.CELERY_BEAT_SCHEDULE["match-autoconfirm"]
    assert entry["task"] == "frames.matchnight.tasks.autoconfirm_matches"


def test_a_result_changed_after_one_confirmation_needs_confirming_again(league):
    match = finish(league, drawn(league))
    signoff.match_confirm(match=match, side="home", actor=league.captain, now=later(130))
    match = key_all(league, match, {5: (200, 900)}, actor=league.other_captain, now=later(135))
    assert match.home_confirmed_at is None
    assert match.away_frames == 1
    assert MatchLog.objects.filter(match=match, action="confirmations_cleared").exists()


def test_fixture_shows_no_result_until_confirmed(league, client):
    match = finish(league, drawn(league))
    page = client.get(fixture_of(league).get_absolute_url())
    assert b"Result:" not in page.content
    signoff.match_confirm(match=match, side="home", actor=league.captain)
    signoff.match_confirm(match=match, side="away", actor=league.other_captain)
    page = client.get(fixture_of(league).get_absolute_url())
    assert "Result: 9–0 frames (9000–4500 points)" in page.content.decode()


_frame = st.one_of(
    st.builds(
        lambda h, a: Frame(
            status="complete",
            home_score=h * 10,
            away_score=a * 10,
            shared=h == a,
            winner="" if h == a else ("home" if h > a else "away"),
        ),
        st.integers(0, 300),
        st.integers(0, 300),
    ),
    st.builds(
        lambda by: Frame(status="conceded", conceded_by=by),
        st.sampled_from(["home", "away", "both"]),
    ),
    st.sampled_from(["scheduled", "in_play"]).map(lambda s: Frame(status=s)),
)


@given(st.lists(_frame, min_size=1, max_size=9))
def test_the_tally_shares_out_every_decided_frame_and_every_point(frames):
    result = tally(frames)
    decided = sum(
        1
        for f in frames
        if f.status == "complete" or (f.status == "conceded" and f.conceded_by != "both")
    )
    assert result.home_frames + result.away_frames == decided
    played = [f for f in frames if f.status == "complete"]
    assert result.home_score == sum(f.home_score for f in played)
    assert result.away_score == sum(f.away_score for f in played)
    assert result.finished == all(f.status in ("complete", "conceded") for f in frames)
    swapped = [
        Frame(
            status=f.status,
            home_score=f.away_score,
            away_score=f.home_score,
            shared=f.shared,
            winner={"home": "away", "away": "home"}.get(f.winner, ""),
            conceded_by={"home": "away", "away": "home"}.get(f.conceded_by, f.conceded_by),
        )
        for f in frames
    ]
    mirror = tally(swapped)
    assert (mirror.home_frames, mirror.away_frames) == (result.away_frames, result.home_frames)
