"""Player statistics from the shot log: breaks, 200s, the red in the 200, black-pin
wipe-outs, doubles attribution, undo, paper frames, leaderboards and the player page."""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from frames.models import Frame, Match, PlayerFrameStat
from frames.pad.events import frame_confirm, frame_record_event
from frames.stats import record
from frames.stats import selectors as stats_selectors
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture
from rules import registry
from tests.factories import FrameFactory, FramePlayerFactory, MatchFactory
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 9, 1, 21, 0, tzinfo=timezone.get_current_timezone())
BAR_DOWN = {"type": "bar_down"}
UNDO = object()


def shot(*pots, fouls=()):
    event = {"type": "shot"}
    if pots:
        event["pots"] = [{"ball": b, "hole": h} for b, h in pots]
    if fouls:
        event["fouls"] = list(fouls)
    return event


# Singles: Home makes 1,050 (three whites and the red in the 200); Away's black pin is
# undone and replaced by a 100; Away banks 100, then 30 as the frame ends on the cut-off.
SINGLES = [
    BAR_DOWN,
    shot(("white", 200), ("red", 200)),
    shot(("white", 200), ("white", 200)),
    shot(("white", 50)),
    shot(),  # Home banks 1,050
    shot(fouls=("pin_200",)),  # undone below: must not count
    UNDO,
    shot(("white", 100)),
    shot(),  # Away banks 100
    shot(fouls=("miss",)),
    shot(("white", 30)),  # the cut-off: Away's 30 is banked as the frame ends
]

# Doubles: partners alternate visits (H1, A1, H2, A2, H1, A1).
DOUBLES = [
    BAR_DOWN,
    shot(("white", 200)),
    shot(),  # H1 banks 200
    shot(("red", 200)),
    shot(),  # A1 banks 400
    shot(("white", 100)),
    shot(fouls=("pin_200",)),  # H2: the black pin, 100 lost and 200 wiped
    shot(("white", 50)),
    shot(),  # A2 banks 50
    shot(("white", 20)),
    shot(("white", 30)),
    shot(),  # H1 banks 50
    shot(("white", 100), ("white", 100)),  # A1: no balls left, 200 banked at the end
]


LEAGUE_SIZE = {"teams_per_division": 4, "players_per_team": 4}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def roster(team):
    return [r.player for r in team.registrations.select_related("player").order_by("id")]


def new_match(league, fixture=None):
    fixture = fixture or Fixture.objects.filter(division=league.premier).order_by("id").first()
    return MatchFactory(fixture=fixture, status=Match.Status.IN_PLAY)


def new_frame(match, number, home_players, away_players, kind="singles"):
    frame = FrameFactory(
        match=match, number=number, order=number, kind=kind, game_id="bar_billiards_4pin"
    )
    for side, players in (("home", home_players), ("away", away_players)):
        for position, player in enumerate(players, start=1):
            FramePlayerFactory(frame=frame, side=side, position=position, player=player)
    return frame


def play(frame, script, *, confirm=True):
    """Record the script through the pad's service (undo included), then confirm."""
    seq = 0
    for item in script:
        seq += 1
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload={} if item is UNDO else item,
            kind="undo" if item is UNDO else "event",
            user=None,
            device_id="test",
            now=NOW,
        )
    if confirm:
        frame_confirm(frame_id=frame.pk, seq=seq, user=None, now=NOW)
    frame.refresh_from_db()
    return frame


def confirm_fixture(fixture):
    fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=Decimal(5),
        away_frames=Decimal(4),
        home_score=1,
        away_score=1,
        confirmed_at=NOW,
    )


def lines(frame):
    """Each player's line, with the statistics the game declared readable as attributes."""
    return {
        line.player_id: SimpleNamespace(
            **{f.attname: getattr(line, f.attname) for f in PlayerFrameStat._meta.concrete_fields},
            **line.values,
        )
        for line in PlayerFrameStat.objects.filter(
            fixture=frame.match.fixture, frame_number=frame.number
        )
    }


# --------------------------------------------------------------------- from the log


def test_shot_counts_follow_each_shots_last_summary():
    counts = {
        name: SimpleNamespace(**values)
        for name, values in registry.get("bar_billiards_4pin")
        .player_statistics(
            {"players": {"home": ["1"], "away": ["2"]}},
            [e for e in SINGLES if e is not UNDO and e.get("fouls") != ["pin_200"]],
        )
        .items()
    }
    home, away = counts["1"], counts["2"]
    assert (home.high_break, home.breaks, home.points_banked) == (1050, 1, 1050)
    assert (home.pots_200, home.reds_200, home.black_pin_wipeouts) == (3, 1, 0)
    assert (away.high_break, away.breaks, away.points_banked) == (100, 2, 130)


def test_singles_frame_lines_leave_out_the_undone_event(league):
    match = new_match(league)
    home, away = roster(match.fixture.home)[0], roster(match.fixture.away)[0]
    frame = play(new_frame(match, 1, [home], [away]), SINGLES)
    assert (frame.status, frame.home_score, frame.away_score, frame.winner) == (
        "complete",
        1050,
        130,
        "home",
    )
    assert record.frame_stats_record(frame_id=frame.pk) == 2
    got = lines(frame)
    h, a = got[home.pk], got[away.pk]
    assert (h.won, h.shared, h.score, h.opponent_score, h.has_shots) == (
        True,
        False,
        1050,
        130,
        True,
    )
    assert (h.high_break, h.breaks, h.points_banked, h.pots_200, h.reds_200) == (
        1050,
        1,
        1050,
        3,
        1,
    )
    assert (a.won, a.high_break, a.breaks, a.points_banked) == (False, 100, 2, 130)
    assert a.black_pin_wipeouts == 0  # the pin_200 shot was undone
    assert h.source_seq == frame.last_seq == len(SINGLES)
    assert h.played_on == match.fixture.date


def test_doubles_visits_count_for_the_player_at_the_table_and_the_black_pin_wipes(league):
    match = new_match(league)
    h1, h2 = roster(match.fixture.home)[:2]
    a1, a2 = roster(match.fixture.away)[:2]
    frame = play(new_frame(match, 7, [h1, h2], [a1, a2], kind="doubles"), DOUBLES)
    assert (frame.home_score, frame.away_score, frame.winner) == (50, 650, "away")
    record.frame_stats_record(frame_id=frame.pk)
    got = lines(frame)
    assert {k: (v.high_break, v.breaks, v.points_banked) for k, v in got.items()} == {
        h1.pk: (200, 2, 250),
        h2.pk: (0, 0, 0),
        a1.pk: (400, 2, 600),
        a2.pk: (50, 1, 50),
    }
    assert (got[h1.pk].pots_200, got[a1.pk].reds_200) == (1, 1)
    assert (got[h2.pk].black_pin_wipeouts, got[h2.pk].points_wiped) == (1, 200)
    assert all(v.doubles for v in got.values())
    assert {v.score for k, v in got.items() if k in (a1.pk, a2.pk)} == {650}  # the side's
    assert all(v.won for k, v in got.items() if k in (a1.pk, a2.pk))


def test_paper_frames_give_results_but_no_shot_statistics(league):
    match = new_match(league)
    home, away = roster(match.fixture.home)[0], roster(match.fixture.away)[0]
    frame = new_frame(match, 2, [home], [away])
    Frame.objects.filter(pk=frame.pk).update(
        status="complete", home_score=800, away_score=800, shared=True, result_source="paper"
    )
    record.frame_stats_record(frame_id=frame.pk)
    got = lines(frame)
    assert got[home.pk].shared and not got[home.pk].won and not got[home.pk].has_shots
    assert got[away.pk].values == {} and got[away.pk].score == 800


def test_recording_is_idempotent_and_the_sync_heals_missing_and_stale_lines(league):
    match = new_match(league)
    home, away = roster(match.fixture.home)[0], roster(match.fixture.away)[0]
    frame = play(new_frame(match, 1, [home], [away]), SINGLES)
    unfinished = play(
        new_frame(match, 2, [roster(match.fixture.home)[1]], [roster(match.fixture.away)[1]]),
        SINGLES[:3],
        confirm=False,
    )
    assert set(record.frames_needing_stats()) == {frame}
    assert record.stats_sync() == 1
    assert record.stats_sync() == 0
    record.frame_stats_record(frame_id=frame.pk)
    record.frame_stats_record(frame_id=unfinished.pk)
    assert PlayerFrameStat.objects.count() == 2
    PlayerFrameStat.objects.update(source_seq=3)  # older than the log: recomputed
    assert list(record.frames_needing_stats()) == [frame]
    assert record.stats_sync() == 1
    assert set(PlayerFrameStat.objects.values_list("source_seq", flat=True)) == {len(SINGLES)}
    assert record.stats_rebuild(season=league.season) == 1
    assert PlayerFrameStat.objects.count() == 2


# ------------------------------------------------------------- leaderboards, pages


@pytest.fixture
def played(league):
    """One confirmed match with a singles and a doubles frame, and an unconfirmed one."""
    match = new_match(league)
    home, away = roster(match.fixture.home), roster(match.fixture.away)
    play(new_frame(match, 1, [home[0]], [away[0]]), SINGLES)
    play(new_frame(match, 7, [home[0], home[1]], [away[0], away[1]], kind="doubles"), DOUBLES)
    confirm_fixture(match.fixture)
    other = Fixture.objects.filter(division=league.premier).exclude(pk=match.fixture_id)
    unconfirmed = new_match(league, other.order_by("id").first())
    h, a = roster(unconfirmed.fixture.home)[0], roster(unconfirmed.fixture.away)[0]
    play(new_frame(unconfirmed, 1, [h], [a]), SINGLES)
    record.stats_sync()
    return {"match": match, "home": home, "away": away, "unconfirmed": (h, a)}


def test_leaderboard_counts_confirmed_matches_per_division_and_season(league, played):
    board = stats_selectors.leaderboard(division=league.premier)
    by_player = {r["player_id"]: r for r in board}
    h, a = played["home"][0], played["away"][0]
    assert set(by_player) == {h.pk, played["home"][1].pk, a.pk, played["away"][1].pk}
    assert (by_player[h.pk]["played"], by_player[h.pk]["frames_won"]) == (2, 1)
    assert by_player[h.pk]["win_rate"] == pytest.approx(50.0)
    assert by_player[h.pk]["average"] == pytest.approx((1050 + 50) / 2)
    assert by_player[h.pk]["s_high_break"] == 1050
    assert (by_player[h.pk]["s_pots_200"], by_player[h.pk]["s_reds_200"]) == (4, 1)
    assert by_player[a.pk]["s_high_break"] == 400
    assert by_player[played["home"][1].pk]["s_black_pin_wipeouts"] == 1
    assert stats_selectors.leaderboard(season=league.season) == board
    assert stats_selectors.leaderboard(division=league.second) == []
    top = stats_selectors.leaderboard(division=league.premier, sort="s_high_break")
    assert top[0]["player_id"] == h.pk
    assert stats_selectors.leaderboard(division=league.premier, min_frames=2)[0]["played"] == 2
    assert len(stats_selectors.leaderboard(division=league.premier, min_frames=2)) == 2


def test_leaderboard_page_renders_and_sorts(league, played):
    response = Client().get(
        league_reverse("division-leaderboard", args=[league.premier.pk]), {"sort": "s_pots_200"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert played["home"][0].name in html and "1050" in html
    assert (
        Client()
        .get(
            league_reverse("season-leaderboard", args=[league.season.pk]),
            {"sort": "nonsense", "min": "x"},
        )
        .status_code
        == 200
    )


def test_player_page_shows_statistics_and_a_server_rendered_form_chart(league, played):
    player = played["home"][0]
    url = reverse("player-stats", args=[player.pk])
    html = Client().get(url).content.decode()
    assert "<svg" in html and "<polyline" in html
    assert len(re.findall(r"<rect ", html)) == 2  # one bar per confirmed frame
    assert 'fill="#0b6e4f"' in html and 'fill="#b3261e"' in html  # won, lost
    assert "style=" not in html  # the CSP forbids style attributes
    assert "<script" not in html.split("<main>")[1].split("</main>")[0]
    assert player.name in html
    fragment = Client().get(url, headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<section class="card player-stats"')
    page = Client().get(reverse("player-detail", args=[player.pk])).content.decode()
    assert f'hx-get="{url}"' in page and f'href="{url}"' in page


def test_player_without_frames_has_no_chart(league):
    player = roster(league.teams[0])[0]
    html = Client().get(reverse("player-stats", args=[player.pk])).content.decode()
    assert "No frames with a confirmed result yet." in html and "<svg" not in html


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_stats_pages_make_the_same_queries_however_many_frames(
    league, played, django_assert_num_queries
):
    player = played["home"][0]
    few = {
        "player": _count(lambda: Client().get(reverse("player-stats", args=[player.pk]))),
        "board": _count(
            lambda: Client().get(league_reverse("division-leaderboard", args=[league.premier.pk]))
        ),
    }
    match = played["match"]
    home, away = played["home"], played["away"]
    for number in range(2, 7):
        play(new_frame(match, number, [home[number % 4]], [away[number % 4]]), SINGLES)
    record.stats_sync()
    assert PlayerFrameStat.objects.filter(player=player).count() > 2
    with django_assert_num_queries(few["player"]):
        Client().get(reverse("player-stats", args=[player.pk]))
    with django_assert_num_queries(few["board"]):
        Client().get(league_reverse("division-leaderboard", args=[league.premier.pk]))
