"""What the ratings pages and API say about a rating is what OpenSkill did (issue 35): the
expectation before the draw averages every pair of pairs, the correction note goes to the
players it moved, the margin does what the docs say, the hole map counts frames scored shot
by shot, an edited result is re-rated on the edit, cup frames follow one rule, tied ratings
share a rank, and "1 frame" is singular."""

from __future__ import annotations

import itertools
import re
from datetime import date, timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from openskill.models import PlackettLuce

from frames.matchnight.squads import match_mark_present
from frames.models import Match, Presence, Rating
from frames.ratings import services
from tests.conftest import make_league
from tests.frames.ratings_support import BB, confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db


def rebuild():
    run = services.ratings_request(game_id=BB, since=None, reason="rebuild")
    return services.ratings_run(run_id=run.pk)


# ------------------------------------------------------------ 1. before the draw


@pytest.fixture
def eight_a_side(db):
    """Two teams of eight whose players all have different ratings, and their next match,
    not drawn yet."""
    league = make_league(teams_per_division=4, players_per_team=8)
    fixtures = fixtures_of(league)
    target = next(f for f in fixtures if league.teams[0].pk not in (f.home_id, f.away_id))
    others = [f for f in fixtures if f.pk != target.pk]
    for week, fixture in enumerate(others[:4]):
        h, a = roster(fixture.home), roster(fixture.away)
        confirmed_match(
            fixture,
            date(2026, 9, 1) + timedelta(weeks=week),
            [([h[i]], [a[i]], 100 * (i + 1) + 50 * week, 450) for i in range(8)],
        )
    rebuild()
    target.date = date(2026, 11, 1)
    target.save(update_fields=["date"])
    match = Match.objects.create(fixture=target, status=Match.Status.SETUP, game_id=BB)
    return league, match


def _expectation(match) -> dict:
    return Client().get(reverse("api-match-expectation", args=[match.pk])).json()


def test_doubles_before_the_draw_average_every_pair_of_pairs_whatever_the_order_present(
    eight_a_side,
):
    league, match = eight_a_side
    home, away = roster(match.fixture.home), roster(match.fixture.away)
    assert len(home) == len(away) == 8
    for side, players in (("home", home), ("away", away)):
        match_mark_present(match=match, side=side, players=players, actor=league.secretary)
    first = _expectation(match)
    Presence.objects.filter(match=match).delete()
    for side, players in (("home", home[::-1]), ("away", away[3:] + away[:3])):
        match_mark_present(match=match, side=side, players=players, actor=league.secretary)
    again = _expectation(match)
    assert again == first  # to the last bit, whoever was marked present first

    # The oracle: openskill's own predict_win over every pair of pairs, from the ratings
    # as they stand (every rated frame was played before the match's day).
    rated = {r.player_id: r for r in Rating.objects.filter(game_id=BB)}
    assert len({rated[p.pk].mu for p in home + away}) >= 12  # mostly different ratings
    oracle = PlackettLuce(margin=services.MARGIN)

    def team(players) -> list:
        return [oracle.rating(mu=rated[p.pk].mu, sigma=rated[p.pk].sigma) for p in players]

    pairs = [
        oracle.predict_win([team(h), team(a)])[0]
        for h in itertools.combinations(home, 2)
        for a in itertools.combinations(away, 2)
    ]
    assert len(pairs) == 28 * 28
    doubles = [r["home"] for r in first["rows"] if r["kind"] == "doubles"]
    assert len(doubles) == 3
    assert doubles[0] == pytest.approx(sum(pairs) / len(pairs), abs=1e-12)
    singles = [oracle.predict_win([team([h]), team([a])])[0] for h in home for a in away]
    row = next(r for r in first["rows"] if r["kind"] == "singles")
    assert row["home"] == pytest.approx(sum(singles) / len(singles), abs=1e-12)


# ------------------------------------------------------------ 2. the correction note


def _ratings() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.frames) for r in Rating.objects.filter(game_id=BB)}


def test_only_players_a_settlement_moved_get_the_note_and_are_counted(
    db, django_capture_on_commit_callbacks
):
    league = make_league(teams_per_division=4, players_per_team=4)
    f1, f2, f3 = fixtures_of(league)[:3]
    days = date(2026, 9, 1), date(2026, 9, 8), date(2026, 9, 15)
    for fixture, day, i in ((f1, days[0], 1), (f3, days[2], 2)):
        h, a = roster(fixture.home), roster(fixture.away)
        confirmed_match(fixture, day, [([h[i]], [a[i]], 900, 300), ([h[3]], [a[3]], 400, 800)])
    rebuild()
    h2, a2 = roster(f2.home), roster(f2.away)
    match = confirmed_match(f2, days[1], [([h2[0]], [a2[0]], 700, 500)])
    Match.objects.filter(pk=match.pk).update(status=Match.Status.COMPLETE, confirmed_at=None)
    before = _ratings()
    client = Client()
    client.force_login(league.secretary)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("api-match-settle", args=[match.pk]),
            {
                "decision": "correct",
                "frames": [{"number": 1, "home_score": 100, "away_score": 900}],
            },
            content_type="application/json",
        )
    assert answer.status_code == 200, answer.content
    after = _ratings()
    moved = {pid for pid in set(before) | set(after) if before.get(pid) != after.get(pid)}
    replayed_unmoved = {p.pk for p in roster(f3.home) + roster(f3.away)} & set(after)
    replayed_unmoved -= moved
    assert replayed_unmoved  # f3's players were replayed, and did not move
    run = client.get(reverse("api-rating-runs"), {"game": BB}).json()[0]
    assert (run["reason"], run["state"]) == ("correction", "done")
    assert run["players_changed"] == len(moved)
    note = f"Ratings updated after a correction on {days[1]:%-d %b %Y}"
    for pid in moved:
        assert note in client.get(reverse("player-ratings", args=[pid])).content.decode()
    for pid in replayed_unmoved:
        page = client.get(reverse("player-ratings", args=[pid])).content.decode()
        assert "Ratings updated after" not in page


# ------------------------------------------------------------ 3. the margin


def _winner_gain(winner_mu: float, loser_mu: float, winner_share: int) -> float:
    """The winner's change of μ in a singles frame won by `winner_share` points in a
    hundred, rated as the ratings rate it (`rate_frame`)."""
    states = {1: services.State(winner_mu, 4.0), 2: services.State(loser_mu, 4.0)}
    frame = services.RatedFrame(
        1, 1, 1, date(2026, 9, 1), 1, "home", False, winner_share, 100 - winner_share, [1], [2]
    )
    out = services.rate_frame(services.model(), frame, states)
    assert out is not None
    return next(delta for pid, _side, _s, delta, _c in out if pid == 1)


def test_the_margin_does_what_the_docs_say():
    """docs/ratings.md: up to 20 points in a hundred only the result counts; between level
    sides the score never matters; beyond about 34 points a wide win moves the ratings
    further when the favourite wins and less when the underdog wins (and between 20 and 34
    points slightly the other way)."""
    narrow, wide, middling = 55, 80, 65  # shares: a 10-, 60- and 30-point win
    assert _winner_gain(25, 25, wide) == _winner_gain(25, 25, narrow)  # level: no matter
    assert _winner_gain(30, 20, 60) == _winner_gain(30, 20, narrow)  # 20 points: result only
    assert _winner_gain(30, 20, wide) > _winner_gain(30, 20, narrow)  # the favourite
    assert _winner_gain(20, 30, wide) < _winner_gain(20, 30, narrow)  # the underdog
    assert _winner_gain(30, 20, middling) < _winner_gain(30, 20, narrow)
    assert _winner_gain(20, 30, middling) > _winner_gain(20, 30, narrow)
    # The turn: a win by d = 20 · (e − 1) ≈ 34.4 points, where OpenSkill's factor
    # ln(1 + d / 20) is 1 (67–33 is a 34-point win, 68–32 a 36-point one).
    assert _winner_gain(30, 20, 67) < _winner_gain(30, 20, narrow) < _winner_gain(30, 20, 68)


def test_the_player_page_describes_the_margin_as_the_model_uses_it(db):
    league = make_league(teams_per_division=4, players_per_team=4)
    fixture = fixtures_of(league)[0]
    h, a = roster(fixture.home), roster(fixture.away)
    confirmed_match(fixture, date(2026, 9, 1), [([h[0]], [a[0]], 900, 100)])
    rebuild()
    html = Client().get(reverse("player-ratings", args=[h[0].pk])).content.decode()
    assert "a win by a wide margin counts for more" not in html
    assert "the favourite" in html and "the underdog" in html


# ------------------------------------------------------------ 4. the hole map


def test_the_hole_map_counts_only_frames_scored_shot_by_shot(db):
    from frames.results import record_result
    from frames.stats import record
    from tests.frames.ratings.test_pages import fixture_time
    from tests.frames.stats.test_stats import SINGLES, new_frame, play

    league = make_league(teams_per_division=4, players_per_team=4)
    fixtures = fixtures_of(league)
    pad_fixture = fixtures[0]
    home = roster(pad_fixture.home)
    match = Match.objects.create(fixture=pad_fixture, status=Match.Status.IN_PLAY, game_id=BB)
    play(new_frame(match, 1, [home[0]], [roster(pad_fixture.away)[0]]), SINGLES)
    pad_fixture.date = date(2026, 9, 1)
    pad_fixture.save(update_fields=["date"])
    match.refresh_from_db()
    record_result(match, None, fixture_time(), "both captains confirmed")
    # Two later paper frames for the same player, in fixtures of the same team.
    for week, fixture in enumerate(
        [f for f in fixtures[1:] if pad_fixture.home_id in (f.home_id, f.away_id)][:2], start=1
    ):
        mine, theirs = (
            (roster(fixture.home), roster(fixture.away))
            if fixture.home_id == pad_fixture.home_id
            else (roster(fixture.away), roster(fixture.home))
        )
        frame = [([mine[0]], [theirs[0]], 500, 300)]
        if fixture.home_id != pad_fixture.home_id:
            frame = [([theirs[0]], [mine[0]], 300, 500)]
        confirmed_match(fixture, date(2026, 9, 1) + timedelta(weeks=week), frame)
    record.stats_sync()
    rebuild()
    player = home[0]
    assert Rating.objects.get(player=player, game_id=BB).frames == 3  # 1 pad, 2 paper

    body = Client().get(reverse("api-player-hole-map", args=[player.pk]), {"game": BB}).json()
    assert (body["frames"], body["total"]) == (1, 5)
    html = Client().get(reverse("player-ratings", args=[player.pk])).content.decode()
    assert "over their last 1 frame scored shot by shot" in html
    # The last frame scored shot by shot, not the last frame: the newer paper ones are skipped.
    from frames.ratings import selectors

    last = selectors.hole_map(player, BB, frames=1)
    assert last is not None and (last["frames"], last["total"]) == (1, 5)


# ------------------------------------------------------------ 6. cups, ties, "1 frame"


def test_cup_frames_are_neither_rated_nor_in_head_to_head_whatever_the_cup(db):
    """A team Cup tie's match night follows the rule of a Singles or Pairs tie scored on
    the pad (friendly frames, never rated): cup frames are not rated, and head to head
    shows league frames only."""
    from leagues.models import Fixture

    league = make_league(teams_per_division=4, players_per_team=4)
    league_fixture = fixtures_of(league)[0]
    home_team, away_team = league_fixture.home, league_fixture.away
    h, a = roster(home_team), roster(away_team)
    confirmed_match(league_fixture, date(2026, 9, 1), [([h[0]], [a[0]], 900, 300)])
    cup = Fixture.objects.create(
        season=league.season,
        kind=Fixture.Kind.CUP,
        round=1,
        home=away_team,
        away=home_team,
        venue=away_team.venue,
    )
    confirmed_match(cup, date(2026, 9, 8), [([a[0]], [h[0]], 800, 100), ([a[1]], [h[1]], 700, 50)])
    rebuild()
    client = Client()
    mine = client.get(reverse("api-player-ratings", args=[h[0].pk])).json()
    assert [g["frames"] for g in mine] == [1]  # the league frame only
    assert not client.get(reverse("api-player-ratings", args=[h[1].pk])).json()  # cup only
    players = client.get(reverse("api-head-to-head-players", args=[h[0].pk, a[0].pk])).json()
    assert players["record"] == {"won": 1, "lost": 0, "shared": 0, "played": 1}
    teams = client.get(reverse("api-head-to-head-teams", args=[home_team.pk, away_team.pk]))
    assert sum(teams.json()["matches"].values()) == 1  # the league fixture only
    assert teams.json()["record"] == {"won": 1, "lost": 0, "shared": 0, "played": 1}
    assert services.dirty_since() == {}  # nothing left for the sweeper either


def test_equal_ratings_share_a_rank_in_the_league_table_as_in_the_api(db):
    from tests.links import league_reverse

    league = make_league(teams_per_division=4, players_per_team=4)
    f1, f2 = fixtures_of(league)[:2]
    for fixture in (f1, f2):  # two identical frames between four new players
        h, a = roster(fixture.home), roster(fixture.away)
        confirmed_match(fixture, date(2026, 9, 1), [([h[2]], [a[2]], 900, 300)])
    rebuild()
    client = Client()
    rows = client.get(reverse("api-league-ratings", args=[league.season.league_id])).json()
    assert [(r["rank"], r["tied"]) for r in rows] == [(1, True), (1, True), (3, True), (3, True)]
    loser = rows[-1]["player_id"]
    mine = client.get(reverse("api-player-ratings", args=[loser])).json()[0]
    assert mine["leagues"][0]["rank"] == 3 and mine["rank"] == 3
    html = client.get(league_reverse("league-ratings", args=[league.season.league_id]))
    cells = re.findall(r'<tr><td class="num">([^<]*)</td>', html.content.decode())
    assert cells == ["1=", "1=", "3=", "3="]


def test_one_frame_is_one_frame_in_every_picture_title(db):
    league = make_league(teams_per_division=4, players_per_team=4)
    fixture = fixtures_of(league)[0]
    h, a = roster(fixture.home), roster(fixture.away)
    confirmed_match(fixture, date(2026, 9, 1), [([h[0]], [a[0]], 900, 300)])
    from frames.stats import record

    record.stats_sync()
    rebuild()
    client = Client()
    pages = (
        client.get(reverse("player-ratings", args=[h[0].pk])).content.decode()
        + client.get(reverse("player-stats", args=[h[0].pk])).content.decode()
    )
    assert "Rating over 1 rated frame:" in pages
    assert "Frame score: 1 frame," in pages
    assert "Form over the last 1 frame:" in pages and "Last 1 frame, oldest first" in pages
    assert "Last 1 rated frame, newest first" in pages
    assert not re.search(r"\b1 (rated )?frames\b", pages)


# ------------------------------------------------------------ 5. an edited result


class _FormValues(HTMLParser):
    """The values a browser would submit from a page's forms (enough for the admin's)."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.data[name] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += (
                data.lstrip("\n") if not self.data[self._textarea] else data
            )


@pytest.mark.parametrize("path", ["admin", "paper_then_confirm"])
def test_an_edited_result_is_rerated_on_the_edit_itself(
    db, admin_client, django_capture_on_commit_callbacks, path
):
    """A confirmed result corrected by the site administrator is re-rated when the edit
    commits (Celery runs in process, as under `make run`), not at the beat's next sweep;
    a result keyed in from paper and then confirmed is rated on the confirmation."""
    from frames.engine import side_setup
    from frames.matchnight import signoff
    from frames.models import Frame, RatingChange, RatingRun

    league = make_league(teams_per_division=4, players_per_team=4)
    f1, f2 = fixtures_of(league)[:2]
    h, a = roster(f1.home), roster(f1.away)
    confirmed_match(f1, date(2026, 9, 1), [([h[0]], [a[0]], 900, 300)])
    h2, a2 = roster(f2.home), roster(f2.away)
    later = confirmed_match(f2, date(2026, 9, 8), [([h2[0]], [a2[0]], 500, 400)])
    rebuild()
    frame = Frame.objects.get(match__fixture=f1)
    if path == "admin":
        # The engine's setup, as a frame scored on the night has (the admin requires one).
        names = {"home": [h[0].name], "away": [a[0].name]}
        Frame.objects.filter(pk=frame.pk).update(setup=side_setup(BB, names, None)[0])
        url = reverse("admin:frames_frame_change", args=[frame.pk])
        form = _FormValues()
        form.feed(admin_client.get(url).content.decode())
        data = form.data | {"home_score": "100", "away_score": "900", "winner": "away"}
        with django_capture_on_commit_callbacks(execute=True):
            answer = admin_client.post(url, data | {"_save": "Save"})
        assert answer.status_code == 302, (
            answer.context["adminform"].form.errors,
            [f.errors for f in answer.context["inline_admin_formsets"][0].formset],
        )
        day = date(2026, 9, 1)
    else:
        Match.objects.filter(pk=later.pk).update(status=Match.Status.COMPLETE, confirmed_at=None)
        later.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            signoff.match_key_in_paper(match=later, scores={1: (200, 700)}, actor=league.secretary)
        for side in ("home", "away"):
            captain = later.fixture.home.captain if side == "home" else later.fixture.away.captain
            with django_capture_on_commit_callbacks(execute=True):
                signoff.match_confirm(match=later, side=side, actor=captain)
        frame = Frame.objects.get(match=later)
        day = date(2026, 9, 8)
    frame.refresh_from_db()
    changes = RatingChange.objects.filter(frame=frame)
    assert {(c.winner, c.home_score, c.away_score) for c in changes} == {
        (frame.winner, frame.home_score, frame.away_score)
    }
    assert frame.winner == "away"
    run = RatingRun.objects.order_by("-pk").first()
    assert run is not None and (run.state, run.since) == ("done", day)
    assert services.dirty_since() == {}
