"""Ratings (OpenSkill Plackett-Luce): OpenSkill's own numbers reproduced, the order of
play, doubles shares, a correction changing exactly the ratings after it, and the runs
(claim, twice, the sweeper)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from frames.models import Frame, Match, Rating, RatingChange, RatingRun
from frames.ratings import services
from frames.ratings.services import MARGIN, RatedFrame, State, rate_frame
from tests.frames.ratings_support import BB, confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db


LEAGUE_SIZE = {"teams_per_division": 4, "players_per_team": 4}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def run_all(game_id=BB, since=None):
    run = services.ratings_request(game_id=game_id, since=since, reason="rebuild")
    return services.ratings_run(run_id=run.pk)


def ratings(game_id=BB) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.frames) for r in Rating.objects.filter(game_id=game_id)}


# ----------------------------------------------------------- OpenSkill's own numbers


def test_a_2v2_win_reproduces_openskills_published_numbers():
    """openskill.py's README: two new teams of two, the first wins: 26.964294621803063 and
    23.035705378196937, σ 8.177962604389991 (a frame with no scores is rated by result)."""
    states: dict[int, State] = {}
    frame = RatedFrame(1, 1, 1, date(2026, 9, 1), 1, "home", False, None, None, [1, 2], [3, 4])
    rate_frame(services.model(), frame, states)
    assert states[1].mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert states[2].mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert states[3].mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert states[1].sigma == pytest.approx(8.177962604389991, abs=1e-12)


def test_1v1_and_2v2_frames_match_openskill_computed_directly(league):
    """The oracle is openskill itself, with the same model and the frame's score shares."""
    f1, f2 = fixtures_of(league)[:2]
    h, a = roster(f1.home), roster(f1.away)
    confirmed_match(f1, date(2026, 9, 1), [([h[0]], [a[0]], 1800, 200)])
    h2, a2 = roster(f2.home), roster(f2.away)
    confirmed_match(f2, date(2026, 9, 8), [([h[0], h2[0]], [a[0], a2[0]], 300, 700)])
    run_all()
    oracle = PlackettLuce(margin=MARGIN)
    p, q = oracle.rating(), oracle.rating()
    [[p], [q]] = oracle.rate([[p], [q]], scores=[90.0, 10.0])
    r, s = oracle.rating(), oracle.rating()
    [[p, r], [q, s]] = oracle.rate([[p, r], [q, s]], scores=[30.0, 70.0])
    got = ratings()
    for player, expected in ((h[0], p), (h2[0], r), (a[0], q), (a2[0], s)):
        mu, sigma, _ = got[player.pk]
        assert (mu, sigma) == pytest.approx((expected.mu, expected.sigma), abs=1e-12)
    assert got[h[0].pk][2] == 2
    first = RatingChange.objects.get(player=h[0], frame__match__fixture=f1)
    assert first.expected == pytest.approx(0.5)
    assert first.ordinal == pytest.approx(first.mu - 3 * first.sigma)


def test_doubles_partners_move_by_their_share_of_the_sides_uncertainty():
    states = {1: State(30.0, 3.0), 2: State(25.0, 8.0), 3: State(25.0, 5.0), 4: State(25.0, 5.0)}
    frame = RatedFrame(1, 1, 1, date(2026, 9, 1), 1, "home", False, None, None, [1, 2], [3, 4])
    out = {pid: delta for pid, _side, _s, delta, _c in rate_frame(services.model(), frame, states)}
    tau = services.model().tau
    share = (3.0**2 + tau**2) / (8.0**2 + tau**2)
    assert out[1] > 0 and out[2] > 0
    assert out[1] / out[2] == pytest.approx(share, rel=1e-9)
    assert out[3] == pytest.approx(out[4])  # equal partners move alike


def test_a_shared_frame_is_a_draw_and_a_winner_without_more_points_is_rated_by_result():
    states: dict[int, State] = {}
    draw = RatedFrame(1, 1, 1, date(2026, 9, 1), 1, "", True, 500, 500, [1], [2])
    rate_frame(services.model(), draw, states)
    assert states[1].mu == pytest.approx(25.0) and states[2].mu == pytest.approx(25.0)
    odd = RatedFrame(2, 1, 1, date(2026, 9, 1), 2, "away", False, 900, 100, [1], [2])
    rate_frame(services.model(), odd, states)
    assert states[2].mu > states[1].mu


# ------------------------------------------------------------------- order, replay


@pytest.fixture
def season(league):
    """Four confirmed weeks in the Premier division."""
    fixtures = fixtures_of(league)
    day = date(2026, 9, 1)
    for week, fixture in enumerate(fixtures[:4]):
        h, a = roster(fixture.home), roster(fixture.away)
        confirmed_match(
            fixture,
            day + timedelta(weeks=week),
            [
                ([h[0]], [a[0]], 1000 + 100 * week, 600),
                ([h[1]], [a[1]], 400, 900),
                ([h[2], h[3]], [a[2], a[3]], 700, 700),
            ],
        )
    return fixtures[:4]


def test_recompute_is_deterministic_and_in_the_order_played(league, season):
    run = run_all()
    assert run.state == "done" and run.frames_replayed == 12
    first = ratings()
    history = list(RatingChange.objects.values_list("frame_id", "player_id", "mu", "seq"))
    run_all()
    assert ratings() == first
    assert sorted(RatingChange.objects.values_list("frame_id", "player_id", "mu", "seq")) == sorted(
        history
    )
    seqs = list(
        RatingChange.objects.order_by("seq").values_list("played_on", "frame__order", "seq")
    )
    assert seqs == sorted(seqs)


def test_recompute_from_a_day_gives_what_a_recompute_from_scratch_gives(league, season):
    run_all()
    whole = ratings()
    services.ratings_recompute(game_id=BB, since=date(2026, 9, 15))
    assert ratings() == whole  # to the last bit


def test_a_recompute_in_small_chunks_reads_rates_and_writes_what_one_chunk_does(
    league, season, monkeypatch
):
    """The recompute reads, rates and writes a chunk of frames at a time (flat memory at a
    thousand leagues): the same frames in the order played, the same ratings and history,
    whatever the chunk."""
    whole = services.rated_frames(BB)
    for size in (1, 5, 1000):
        chunks = list(services.rated_frames_in_chunks(BB, chunk=size))
        assert [f for chunk in chunks for f in chunk] == whole
        assert all(len(chunk) <= size for chunk in chunks)
    assert [f.key for f in services.rated_frames_in_chunks(BB, date(2026, 9, 15)).__next__()] == [
        f.key for f in services.rated_frames(BB, date(2026, 9, 15))
    ]
    run_all()
    first = ratings()
    history = sorted(RatingChange.objects.values_list("frame_id", "player_id", "mu", "seq"))
    monkeypatch.setattr(services, "CHUNK", 2)
    assert services.ratings_recompute(game_id=BB).frames == 12
    assert ratings() == first
    assert sorted(RatingChange.objects.values_list("frame_id", "player_id", "mu", "seq")) == history


def test_a_correction_changes_exactly_the_ratings_after_it(league, season):
    run_all()
    before = {(c.frame_id, c.player_id): (c.mu, c.sigma) for c in RatingChange.objects.all()}
    days = dict(RatingChange.objects.values_list("frame_id", "played_on"))
    corrected = Frame.objects.get(match__fixture=season[2], number=1)  # the third week
    day = days[corrected.pk]
    Frame.objects.filter(pk=corrected.pk).update(home_score=100, away_score=900, winner="away")
    assert services.dirty_since() == {BB: (day, "correction")}
    run = services.ratings_request(game_id=BB, since=day, reason="correction")
    assert services.ratings_run(run_id=run.pk).frames_replayed == 6
    after = {(c.frame_id, c.player_id): (c.mu, c.sigma) for c in RatingChange.objects.all()}
    assert set(after) == set(before)
    earlier = {k for k in before if days[k[0]] < day}
    later = set(before) - earlier
    assert earlier and all(after[k] == before[k] for k in earlier)  # to the last bit
    moved = {k for k in later if after[k] != before[k]}
    assert {k for k in later if k[0] == corrected.pk} <= moved
    assert services.dirty_since() == {}
    run_all()  # from scratch: the same numbers
    assert {(c.frame_id, c.player_id): (c.mu, c.sigma) for c in RatingChange.objects.all()} == after


def test_the_sweeper_rates_new_results_and_heals_an_erasure(league, season):
    assert services.dirty_since() == {BB: (date(2026, 9, 1), "heal")}
    for run_id in services.ratings_sweep():
        services.ratings_run(run_id=run_id)
    assert services.dirty_since() == {}
    assert RatingChange.objects.count() == 4 * (2 + 2 + 4)
    # The last week's match is reopened (no longer confirmed): an erasure.
    Match.objects.filter(fixture=season[3]).update(status=Match.Status.COMPLETE)
    day = season[3].__class__.objects.get(pk=season[3].pk).date
    assert services.dirty_since() == {BB: (day, "erasure")}
    for run_id in services.ratings_sweep():
        services.ratings_run(run_id=run_id)
    assert RatingChange.objects.count() == 3 * (2 + 2 + 4)
    assert RatingRun.objects.filter(reason="erasure", state="done").count() == 1


def test_a_run_is_claimed_once_and_a_killed_run_is_healed(league, season):
    run = services.ratings_request(game_id=BB, since=None, reason="rebuild")
    again = services.ratings_request(game_id=BB, since=date(2026, 9, 8), reason="correction")
    assert again.pk == run.pk and again.since is None  # one queued run, widened
    now = timezone.now()
    assert services.ratings_claim(run_id=run.pk, now=now)
    assert not services.ratings_claim(run_id=run.pk, now=now)  # a second worker
    assert services.ratings_run(run_id=run.pk, now=now) is None
    later = now + services.STALE + timedelta(seconds=1)
    assert run.pk in services.ratings_sweep(now=later)  # its worker vanished
    done = services.ratings_run(run_id=run.pk, now=later)
    assert done is not None and done.state == "done" and done.attempts == 2
    assert services.ratings_run(run_id=run.pk) is None  # done: nothing twice


def test_the_chance_before_a_frame_is_openskills_predict_win():
    rater = services.model()
    home = [rater.rating(31.0, 4.0), rater.rating(22.0, 7.5)]
    away = [rater.rating(27.0, 2.0), rater.rating(25.0, 8.3)]
    assert services.win_chance(rater, home, away) == pytest.approx(
        rater.predict_win([home, away])[0], abs=1e-12
    )
    assert services.win_chance(rater, home[:1], away[:1]) == pytest.approx(
        rater.predict_win([home[:1], away[:1]])[0], abs=1e-12
    )


# ------------------------------------------------------------------- the triggers


def test_a_settlement_that_corrects_a_frame_recomputes_after_commit(
    league, season, django_capture_on_commit_callbacks
):
    from frames.matchnight import signoff

    run_all()
    fixture = fixtures_of(league)[4]
    h, a = roster(fixture.home), roster(fixture.away)
    match = confirmed_match(fixture, date(2026, 9, 29), [([h[0]], [a[0]], 800, 200)])
    Match.objects.filter(pk=match.pk).update(status=Match.Status.COMPLETE, confirmed_at=None)
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        signoff.match_settle(
            match=match, actor=league.secretary, decision="correct", scores={1: (200, 900)}
        )
    run = RatingRun.objects.get(match=match)
    assert (run.reason, run.state, run.since) == ("correction", "done", date(2026, 9, 29))
    assert run.frames_replayed == 1 and run.players_changed == 2
    change = RatingChange.objects.get(frame__match=match, player=h[0])
    assert (change.winner, change.home_score, change.delta < 0) == ("away", 200, True)
    assert services.dirty_since() == {}


def test_a_confirmation_without_a_correction_is_a_confirmation_run(
    league, django_capture_on_commit_callbacks
):
    from frames.matchnight import signoff

    fixture = fixtures_of(league)[0]
    h, a = roster(fixture.home), roster(fixture.away)
    match = confirmed_match(fixture, date(2026, 9, 1), [([h[0]], [a[0]], 800, 200)])
    Match.objects.filter(pk=match.pk).update(status=Match.Status.COMPLETE, confirmed_at=None)
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        signoff.match_settle(match=match, actor=league.secretary, decision="accept")
    assert RatingRun.objects.get(match=match).reason == "settlement"
    assert Rating.objects.count() == 2


def test_frames_that_cannot_be_rated_do_not_keep_the_sweeper_busy(league):
    fixture = fixtures_of(league)[0]
    h, a = roster(fixture.home), roster(fixture.away)
    match = confirmed_match(fixture, date(2026, 9, 1), [([h[0]], [a[0]], 800, 200)])
    Frame.objects.filter(match=match).update(winner="")  # no result
    one_sided = Frame.objects.create(
        match=match,
        number=2,
        order=2,
        kind="singles",
        game_id=BB,
        status="complete",
        home_score=10,
        away_score=0,
        winner="home",
    )
    one_sided.players.create(side="home", position=1, player=h[1])
    assert services.dirty_since() == {}
    assert run_all().frames_replayed == 0
