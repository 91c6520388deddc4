"""Ratings pages, pictures and API: what a player, a secretary and a newcomer see; each
picture's SVG parses, has its text alternative and a table, and is the same for the same
data; the pages' query counts do not grow with the league."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frames.models import Frame, Match, RatingRun
from frames.ratings import pictures, selectors, services
from frames.stats import record
from tests.conftest import built_once, make_league
from tests.frames.ratings_support import BB, confirmed_match, fixtures_of, roster
from tests.frames.stats.test_stats import SINGLES, new_frame, play
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

SVG = re.compile(r"<svg\b.*?</svg>", re.S)
NS = "{http://www.w3.org/2000/svg}"


def rebuild():
    run = services.ratings_request(game_id=BB, since=None, reason="rebuild")
    return services.ratings_run(run_id=run.pk)


def svgs(html: str) -> list[ET.Element]:
    found = SVG.findall(html)
    return [ET.fromstring(s) for s in found]


def assert_pictures_are_accessible(html: str, count: int) -> None:
    trees = svgs(html)
    assert len(trees) == count
    for tree in trees:
        assert tree.get("role") == "img" and tree.get("aria-label")
        title = tree.find(f"{NS}title")
        assert title is not None and title.text and title.text == tree.get("aria-label")
    assert html.count("<table") >= count  # each picture has its table
    assert "style=" not in html


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The league and its night, built once for the module: the tests only read them, and
    their writes roll back."""

    def build():
        league = make_league(teams_per_division=4, players_per_team=4)
        return league, make_night(league)

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def league_and_night(built, db):
    """A deep copy of the module's objects for each test (as Django's setUpTestData does)."""
    return copy.deepcopy(built)


@pytest.fixture
def league(league_and_night):
    return league_and_night[0]


@pytest.fixture
def night(league_and_night):
    return league_and_night[1]


def make_night(league):
    """One match scored on the pad (the stats tests' singles frame: Home 1,050 – Away
    130, an undone black pin), confirmed, with two weeks of paper results before it."""
    fixtures = fixtures_of(league)
    for week, fixture in enumerate(fixtures[1:3]):
        h, a = roster(fixture.home), roster(fixture.away)
        confirmed_match(
            fixture,
            date(2026, 9, 1) + timedelta(weeks=week),
            [([h[0]], [a[0]], 900, 300), ([h[1], h[2]], [a[1], a[2]], 200, 600)],
        )
    fixture = fixtures[5]
    match = Match.objects.create(fixture=fixture, status=Match.Status.IN_PLAY, game_id=BB)
    home, away = roster(fixture.home), roster(fixture.away)
    frame = play(new_frame(match, 1, [home[0]], [away[0]]), SINGLES)
    fixture.date = date(2026, 9, 22)
    fixture.save(update_fields=["date"])
    from frames.results import record_result

    match.refresh_from_db()
    record_result(match, None, fixture_time(), "both captains confirmed")
    record.stats_sync()
    rebuild()
    return {"match": match, "frame": frame, "home": home[0], "away": away[0]}


def fixture_time():
    from tests.frames.ratings_support import CONFIRMED_AT

    return CONFIRMED_AT + timedelta(days=21)


# ------------------------------------------------------------------------ pictures


def test_the_worm_follows_each_sides_score_shot_by_shot(night):
    points = selectors.frame_worm(night["frame"])
    assert len(points) == 1 + 9  # the start, and the 9 shots still in the history
    assert (points[-1]["home"], points[-1]["away"]) == (1050, 130)
    assert points[5]["home"] == 1050  # banked after the 4th shot's visit
    html = Client().get(reverse("frame-worm", args=[night["frame"].pk])).content.decode()
    assert_pictures_are_accessible(html, 1)
    assert "ending 1050–130" in html
    again = Client().get(reverse("frame-worm", args=[night["frame"].pk])).content.decode()
    assert SVG.findall(html) == SVG.findall(again)


def test_the_hole_map_counts_the_players_own_pots_by_hole(night):
    home = selectors.hole_map(night["home"], BB)
    assert home is not None and home["place"] == "hole"
    assert {p["place"]: p["pots"] for p in home["places"]} == {
        10: 0,
        20: 0,
        30: 0,
        50: 1,
        100: 0,
        200: 4,
    }
    away = selectors.hole_map(night["away"], BB)
    assert {p["place"]: p["pots"] for p in away["places"] if p["pots"]} == {100: 1, 30: 1}


def test_games_declare_what_can_be_drawn():
    bar = selectors.drawable(BB)
    assert bar is not None and (bar.place, bar.choices) == ("hole", (10, 20, 30, 50, 100, 200))
    pool = selectors.drawable("bbc_co_pool")
    assert pool is not None and pool.place == "pocket" and len(pool.choices) == 6
    assert selectors.drawable("parisian_31_pool") is None  # cups only from the setup
    chart = pictures.hole_map_chart(
        {
            "place": "pocket",
            "shape": pool.shape,
            "places": [
                {"place": p.name, "pots": i, "x": p.x, "y": p.y} for i, p in enumerate(pool.spots)
            ],
        }
    )
    xs = {c["label"]: (c["cx"], c["cy"]) for c in chart["circles"]}
    assert len(set(xs.values())) == 6  # six pockets in six places
    assert chart["shape"] == "pockets"
    assert xs["head left"][1] < xs["side left"][1] < xs["foot left"][1]  # back to front


def test_player_page_shows_ratings_ranks_history_hole_map_and_breaks(night):
    player = night["home"]
    html = Client().get(reverse("player-ratings", args=[player.pk])).content.decode()
    assert player.name in html and "Ratings" in html
    assert "provisional" in html  # 2 frames < 10
    assert "Across Marker" in html and f"{night['match'].fixture.season.league.name}" in html
    assert_pictures_are_accessible(html, 3)  # history, hole map, breaks
    assert "High break" in html  # the declared statistic the breaks chart bins
    assert reverse("frame-worm", args=[night["frame"].pk]) in html
    assert reverse("head-to-head-players", args=[player.pk, night["away"].pk]) in html
    again = Client().get(reverse("player-ratings", args=[player.pk])).content.decode()
    assert SVG.findall(html) == SVG.findall(again)  # byte-identical for the same data
    fragment = (
        Client()
        .get(reverse("player-ratings", args=[player.pk]), headers={"HX-Request": "true"})
        .content.decode()
    )
    assert fragment.lstrip().startswith('<section class="card player-ratings"')
    page = Client().get(reverse("player-detail", args=[player.pk])).content.decode()
    assert f'hx-get="{reverse("player-ratings", args=[player.pk])}"' in page


def test_a_player_without_frames_has_no_pictures(db):
    league = make_league(teams_per_division=4, players_per_team=4)  # one with no night
    player = roster(league.teams[0])[0]
    html = Client().get(reverse("player-ratings", args=[player.pk])).content.decode()
    assert "No rated frames yet" in html and "<svg" not in html


def test_the_page_says_ratings_were_updated_after_a_correction(night):
    frame = Frame.objects.get(match__fixture=fixtures_of_night(night)[0], number=1)
    day = frame.match.fixture.date
    Frame.objects.filter(pk=frame.pk).update(home_score=100, away_score=900, winner="away")
    for run_id in services.ratings_sweep():
        services.ratings_run(run_id=run_id)
    assert RatingRun.objects.filter(reason="correction", state="done", since=day).exists()
    player = frame.players.get(side="home").player
    html = Client().get(reverse("player-ratings", args=[player.pk])).content.decode()
    assert f"Ratings updated after a correction on {day:%-d %b %Y}" in html


def fixtures_of_night(night):
    from leagues.models import Fixture

    return list(Fixture.objects.filter(match__isnull=False).order_by("date"))


def test_division_positions_week_by_week(league, night):
    data = selectors.division_positions(league.premier)
    assert data["rounds"] and all(len(t["positions"]) == len(data["rounds"]) for t in data["teams"])
    assert sorted(t["positions"][-1] for t in data["teams"]) == [1, 2, 3, 4]
    html = (
        Client()
        .get(league_reverse("division-positions", args=[league.premier.pk]))
        .content.decode()
    )
    assert_pictures_are_accessible(html, 1)


def test_each_picture_is_the_same_for_the_same_data():
    history = [
        {"played_on": date(2026, 9, d), "mu": 25 + d / 3, "sigma": 8 - d / 10, "result": "won"}
        for d in range(1, 9)
    ]
    assert pictures.history_chart(history) == pictures.history_chart(list(history))
    worm = [{"shot": i, "home": 10.0 * i, "away": 5.0 * i} for i in range(6)]
    assert pictures.worm_chart(worm, "A", "B") == pictures.worm_chart(worm, "A", "B")
    assert pictures.histogram([1, 5, 9, 200], "x") == pictures.histogram([1, 5, 9, 200], "x")
    assert pictures.worm_chart(worm[:1], "A", "B") is None and pictures.histogram([], "x") is None


# ------------------------------------------------------------------------ league, match


def test_league_ratings_table_filters_by_frames_and_provisional(league, night):
    url = league_reverse("league-ratings", args=[league.season.league_id])
    html = Client().get(url).content.decode()
    assert night["home"].name in html and "provisional" in html
    rows = selectors.league_table(league.season.league, BB)
    # 1 + the players above: equal ratings share a rank (the paper frames here make ties).
    assert [r["rank"] for r in rows] == [
        1 + sum(o["ordinal"] > r["ordinal"] for o in rows) for r in rows
    ]
    assert any(r["tied"] for r in rows)
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    assert selectors.league_table(league.season.league, BB, provisional=False) == []
    two = selectors.league_table(league.season.league, BB, min_frames=2)
    assert two and all(r["frames"] >= 2 for r in two)
    league.season.league.provisional_frames = 2
    league.season.league.save()
    assert len(selectors.league_table(league.season.league, BB, provisional=False)) == len(two)
    assert Client().get(url, {"min": "x", "game": "nope", "provisional": "hide"}).status_code == 200


def test_match_expectation_before_and_how_the_night_went(night):
    match = night["match"]
    expect = selectors.match_expectation(match)
    assert expect["basis"] == "the draw" and len(expect["rows"]) == 1
    assert expect["home"] + expect["away"] == pytest.approx(1)
    assert expect["after"]["difference"] == pytest.approx(1 - expect["home"])
    page = Client().get(reverse("match-detail", args=[match.pk])).content.decode()
    assert f'hx-get="{reverse("match-expectation", args=[match.pk])}"' in page
    html = (
        Client()
        .get(reverse("match-expectation", args=[match.pk]), headers={"HX-Request": "true"})
        .content.decode()
    )
    assert "What the ratings expect" in html and "better than expected" in html
    assert reverse("frame-worm", args=[night["frame"].pk]) in html


def test_expectation_from_the_squads_before_the_draw(league, night):
    fixture = fixtures_of(league)[7]
    match = Match.objects.create(fixture=fixture, status=Match.Status.SETUP, game_id=BB)
    expect = selectors.match_expectation(match)
    assert expect["basis"] == "the squads" and len(expect["rows"]) == 9
    assert expect["after"] is None
    assert expect["home"] + expect["away"] == pytest.approx(9)


def test_head_to_head_players_and_teams(night):
    h, a = night["home"], night["away"]
    data = selectors.head_to_head_players(h, a)
    assert data["record"] == {"won": 1, "lost": 0, "shared": 0, "played": 1}
    assert data["chances"] and data["chances"][0]["chance"] > 0.5
    html = Client().get(reverse("head-to-head-players", args=[h.pk, a.pk])).content.decode()
    assert "won 1, lost 0" in html
    fixture = night["match"].fixture
    teams = selectors.head_to_head_teams(fixture.home, fixture.away)
    assert teams["matches"]["won"] + teams["matches"]["lost"] + teams["matches"]["drawn"] == 1
    assert (
        Client()
        .get(reverse("head-to-head-teams", args=[fixture.home_id, fixture.away_id]))
        .status_code
        == 200
    )


# ------------------------------------------------------------------------ API


def test_api_answers_and_errors(night, league):
    client = Client()
    h = night["home"]
    body = client.get(reverse("api-player-ratings", args=[h.pk])).json()
    assert body[0]["game_id"] == BB and {"mu", "sigma", "ordinal", "provisional"} <= set(body[0])
    assert body[0]["history"][-1]["mu"] == pytest.approx(body[0]["mu"])
    table = client.get(reverse("api-league-ratings", args=[league.season.league_id])).json()
    assert table[0]["rank"] == 1
    for raw in ("x", "²", "1" * 40):  # "²" is a digit to str.isdigit, not to int()
        bad = client.get(
            reverse("api-league-ratings", args=[league.season.league_id]), {"min_frames": raw}
        )
        assert bad.status_code == 400 and bad.json()["error"] == "bad_value", raw
        assert bad.json()["message"]
    assert client.get(reverse("api-player-ratings", args=[999999])).status_code == 404
    holes = client.get(reverse("api-player-hole-map", args=[h.pk])).json()
    assert holes["drawable"] and holes["total"] == 5
    assert client.get(reverse("api-player-breaks", args=[h.pk])).json()["label"] == "High break"
    worm = client.get(reverse("api-frame-worm", args=[night["frame"].pk])).json()
    assert worm[-1] == {"shot": 9, "home": 1050.0, "away": 130.0}
    assert client.get(reverse("api-match-expectation", args=[night["match"].pk])).json()["basis"]
    assert client.get(reverse("api-division-positions", args=[league.premier.pk])).json()["rounds"]
    same = client.get(reverse("api-head-to-head-players", args=[h.pk, h.pk]))
    assert same.status_code == 400 and same.json()["error"] == "same_player"
    runs = client.get(reverse("api-rating-runs")).json()
    assert runs[0]["state"] == "done" and runs[0]["frames_replayed"] > 0
    schema = client.get(reverse("api-schema")).content.decode()
    assert "/api/players/{id}/ratings/" in schema and "/api/frames/{id}/worm/" in schema


# ------------------------------------------------------------------------ queries


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_ratings_pages_keep_their_query_count_as_the_league_grows(
    league, night, django_assert_num_queries
):
    h = night["home"]
    pages = {
        "player": reverse("player-ratings", args=[h.pk]),
        "league": league_reverse("league-ratings", args=[league.season.league_id]),
        "expectation": reverse("match-expectation", args=[night["match"].pk]),
        "positions": league_reverse("division-positions", args=[league.premier.pk]),
        "h2h": reverse("head-to-head-players", args=[h.pk, night["away"].pk]),
        "worm": reverse("frame-worm", args=[night["frame"].pk]),
    }
    few = {name: _count(lambda url=url: Client().get(url)) for name, url in pages.items()}
    # The league grows: six more weeks for everyone, h playing every week.
    fixtures = fixtures_of(league) + fixtures_of(league, league.second)
    used = set(Match.objects.values_list("fixture_id", flat=True))
    week = 0
    for fixture in fixtures:
        if fixture.pk in used:
            continue
        hs, as_ = roster(fixture.home), roster(fixture.away)
        home = [h] if h.pk not in {p.pk for p in as_} else [hs[0]]
        confirmed_match(
            fixture,
            date(2026, 10, 1) + timedelta(days=week),
            [(home, [as_[0]], 500 + week, 400), ([hs[1], hs[2]], [as_[1], as_[2]], 300, 700)],
        )
        week += 1
    rebuild()
    assert selectors.player_ratings(h)[0].frames > 6
    for name, url in pages.items():
        with django_assert_num_queries(few[name]):
            Client().get(url)
