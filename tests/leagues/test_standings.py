"""League tables: points schemes, shared frames, deductions, awards, every tie-breaker,
explanations, constant query counts, and agreement with a hand-written SQL aggregate."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leagues import standings
from leagues.fixtures import services as fixture_services
from leagues.models import Division, Fixture, Season, Team
from leagues.standings import Row, rank
from leagues.tables import services as table_services
from marker.errors import DomainError
from tests.factories import (
    DivisionFactory,
    SeasonFactory,
    TeamFactory,
    VenueFactory,
    make_secretary,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 10, 1, 20, 0, tzinfo=timezone.get_current_timezone())
D = Decimal


# ------------------------------------------------------------------------- helpers


def make_division(names, *, season: Season | None = None, rank_: int = 1, **scheme) -> Division:
    """A division of teams with every home-and-away fixture, no results yet."""
    season = season or SeasonFactory(status=Season.Status.RUNNING, **scheme)
    division = DivisionFactory(season=season, name=f"Division {rank_}", rank=rank_)
    venue = VenueFactory()
    teams = [TeamFactory(season=season, division=division, name=n, venue=venue) for n in names]
    Fixture.objects.bulk_create(
        [
            Fixture(
                season=season,
                division=division,
                round=1,
                home=h,
                away=a,
                venue=venue,
                date=date(2026, 9, 1),
            )
            for h in teams
            for a in teams
            if h != a
        ]
    )
    return division


def play(division, home, away, hf, af, hs=0, as_=0, at=NOW):
    fixture = Fixture.objects.get(division=division, home__name=home, away__name=away)
    return fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=D(str(hf)),
        away_frames=D(str(af)),
        home_score=hs,
        away_score=as_,
        confirmed_at=at,
    )


def table(division):
    division = Division.objects.select_related("season").get(pk=division.pk)
    return standings.division_table(division)


def by_name(t):
    return {row.team: row for row in t.rows}


def order(t):
    return [row.team for row in t.rows]


# -------------------------------------------------------------- the hand-written SQL

SQL = """
WITH sides AS (
    SELECT home_id AS team_id, away_id AS opp_id, home_frames AS f, away_frames AS a,
           home_score AS sf, away_score AS sa
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
    UNION ALL
    SELECT away_id, home_id, away_frames, home_frames, away_score, home_score
      FROM leagues_fixture WHERE division_id = %(d)s AND result_confirmed_at IS NOT NULL
),
scored AS (
    SELECT s.*, s.f * %(ppf)s
           + CASE WHEN s.f > s.a THEN %(ppw)s WHEN s.f = s.a THEN %(ppd)s ELSE 0 END
           + CASE WHEN %(margin)s > 0 AND s.f - s.a >= %(margin)s THEN %(mpts)s ELSE 0 END
           + CASE WHEN s.sf > s.sa THEN %(apts)s ELSE 0 END AS pts
      FROM sides s
),
totals AS (
    SELECT t.id AS team_id, t.name,
           COUNT(s.team_id) AS p,
           COUNT(s.team_id) FILTER (WHERE s.f > s.a) AS w,
           COUNT(s.team_id) FILTER (WHERE s.f = s.a) AS d,
           COUNT(s.team_id) FILTER (WHERE s.f < s.a) AS l,
           COALESCE(SUM(s.f), 0) AS ff, COALESCE(SUM(s.a), 0) AS fa,
           COALESCE(SUM(s.sf), 0) AS sf, COALESCE(SUM(s.sa), 0) AS sa,
           COALESCE(SUM(s.pts), 0)
             - COALESCE((SELECT SUM(x.points) FROM leagues_pointdeduction x
                          WHERE x.team_id = t.id), 0) AS pts
      FROM leagues_team t LEFT JOIN scored s ON s.team_id = t.id
     WHERE t.division_id = %(d)s
     GROUP BY t.id, t.name
),
h2h AS (  -- the mini-league of teams level on points, frames won and aggregate
    SELECT s.team_id, SUM(s.pts) AS hp, SUM(s.f) AS hf
      FROM scored s
      JOIN totals me ON me.team_id = s.team_id
      JOIN totals them ON them.team_id = s.opp_id
     WHERE me.pts = them.pts AND me.ff = them.ff AND me.sf = them.sf
     GROUP BY s.team_id
)
SELECT t.team_id, t.name, t.p, t.w, t.d, t.l, t.ff, t.fa, t.sf, t.sa, t.pts
  FROM totals t LEFT JOIN h2h h ON h.team_id = t.team_id
 ORDER BY t.pts DESC, t.ff DESC, t.sf DESC, COALESCE(h.hp, 0) DESC, COALESCE(h.hf, 0) DESC,
          lower(t.name)
"""


def sql_table(division) -> list[tuple]:
    season = division.season
    params = {
        "d": division.pk,
        "ppf": season.points_per_frame,
        "ppw": season.points_per_match_win,
        "ppd": season.points_per_match_draw,
        "margin": season.bonus_margin or 0,
        "mpts": season.bonus_margin_points,
        "apts": season.bonus_aggregate_points,
    }
    with connection.cursor() as cursor:
        cursor.execute(SQL, params)
        return cursor.fetchall()


def as_tuples(t) -> list[tuple]:
    return [
        (
            r.team_id,
            r.team,
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.frames_for,
            r.frames_against,
            r.score_for,
            r.score_against,
            r.points,
        )
        for r in t.rows
    ]


def assert_agrees_with_sql(division):
    division = Division.objects.select_related("season").get(pk=division.pk)
    mine = as_tuples(standings.division_table(division))
    theirs = [tuple(row[:10]) + (Decimal(row[10]),) for row in sql_table(division)]
    assert mine == theirs


# ------------------------------------------------------------------- the default


def test_default_scheme_is_one_point_per_frame_and_the_issue_order():
    season = SeasonFactory()
    assert season.points_per_frame == 1
    assert season.points_per_match_win == season.points_per_match_draw == 0
    assert season.tie_breakers == ["points", "frames_won", "aggregate", "head_to_head"]


def test_columns_count_confirmed_results_only():
    division = make_division(["Anchor", "Bell", "Crown"])
    play(division, "Anchor", "Bell", 6, 3, 2100, 1500)
    play(division, "Bell", "Crown", 4.5, 4.5, 1800, 1800)  # shared frame: half each
    unconfirmed = Fixture.objects.get(division=division, home__name="Crown", away__name="Anchor")
    unconfirmed.home_frames, unconfirmed.away_frames = D(9), D(0)  # no confirmation: ignored
    unconfirmed.save(update_fields=["home_frames", "away_frames"])
    rows = by_name(table(division))
    a, b, c = rows["Anchor"], rows["Bell"], rows["Crown"]
    assert (a.played, a.won, a.drawn, a.lost) == (1, 1, 0, 0)
    assert (b.played, b.won, b.drawn, b.lost) == (2, 0, 1, 1)
    assert (c.played, c.won, c.drawn, c.lost) == (1, 0, 1, 0)
    assert (b.frames_for, b.frames_against) == (D("7.5"), D("10.5"))
    assert (b.score_for, b.score_against) == (3300, 3900)
    assert b.points == D("7.5") and c.points == D("4.5") and a.points == 6
    assert order(table(division)) == ["Bell", "Anchor", "Crown"]
    assert table(division).as_rows()[0]["frames_for_display"] == "7½"


def test_table_before_any_result_has_everyone_sharing_first():
    division = make_division(["Anchor", "Bell"])
    t = table(division)
    assert [r.position for r in t.rows] == [1, 1]
    assert all(r.shared for r in t.rows)
    assert t.rows[0].explanation.startswith("level with Bell on points, frames won")


# ------------------------------------------------------------------ scheme variants


def test_points_for_match_wins_and_draws_and_frames():
    division = make_division(["Anchor", "Bell", "Crown"])
    table_services.season_set_points_scheme(
        season=division.season,
        points_per_frame=1,
        points_per_match_win=3,
        points_per_match_draw=1,
    )
    play(division, "Anchor", "Bell", 9, 0)  # 9 + 3
    play(division, "Bell", "Crown", 4.5, 4.5)  # 4.5 + 1 each
    rows = by_name(table(division))
    assert rows["Anchor"].points == 12
    assert rows["Bell"].points == D("5.5")
    assert rows["Crown"].points == D("5.5")
    assert_agrees_with_sql(division)


def test_bonus_for_winning_margin_and_higher_aggregate():
    division = make_division(["Anchor", "Bell", "Crown"])
    table_services.season_set_points_scheme(
        season=division.season,
        points_per_frame=0,
        points_per_match_win=2,
        bonus_margin=5,
        bonus_margin_points=1,
        bonus_aggregate_points=D("0.5"),
    )
    play(division, "Anchor", "Bell", 7, 2, 1000, 3000)  # win by 5: 2 + 1; Bell aggregate 0.5
    play(division, "Bell", "Crown", 5, 4, 2000, 1000)  # win by 1: 2, plus aggregate 0.5
    rows = by_name(table(division))
    assert rows["Anchor"].points == 3
    assert rows["Bell"].points == D("3")  # 0.5 + 2.5
    assert rows["Crown"].points == 0
    assert_agrees_with_sql(division)


def test_bonus_margin_off_gives_no_bonus():
    division = make_division(["Anchor", "Bell"], points_per_match_win=D(2))
    play(division, "Anchor", "Bell", 9, 0)
    assert by_name(table(division))["Anchor"].points == 11


def test_scheme_service_refuses_unknown_or_repeated_tie_breakers():
    season = SeasonFactory()
    with pytest.raises(DomainError) as err:
        table_services.season_set_points_scheme(season=season, tie_breakers=["points", "luck"])
    assert err.value.code == "bad_tie_breakers"
    with pytest.raises(DomainError):
        table_services.season_set_points_scheme(season=season, tie_breakers=["points", "points"])
    with pytest.raises(DomainError):
        table_services.season_set_points_scheme(season=season, tie_breakers=[])
    with pytest.raises(DomainError):
        table_services.season_set_points_scheme(season=season, points_per_frame="-1")
    table_services.season_set_points_scheme(
        season=season, tie_breakers=["frame_difference", "points"]
    )
    season.refresh_from_db()
    assert season.tie_breakers == ["frame_difference", "points"]


# --------------------------------------------------------------- deductions, awards


def test_deduction_lowers_points_and_is_explained_on_the_table():
    division = make_division(["Anchor", "Bell"])
    play(division, "Anchor", "Bell", 5, 4)
    anchor = Team.objects.get(name="Anchor", division=division)
    secretary = make_secretary(division.season)
    table_services.point_deduction_add(
        team=anchor, points=2, reason="result sheet sent late", by=secretary, now=NOW
    )
    t = table(division)
    rows = by_name(t)
    assert rows["Anchor"].deducted == 2 and rows["Anchor"].points == 3
    assert order(t) == ["Bell", "Anchor"]
    assert rows["Anchor"].notes == ["2 points deducted: result sheet sent late"]
    assert t.notes == [
        {
            "team_id": anchor.pk,
            "team": "Anchor",
            "text": "2 points deducted: result sheet sent late",
        }
    ]
    assert_agrees_with_sql(division)


def test_points_below_zero_print_as_people_write_them():
    """A team deducted more than it has earned reads -1½ on the table, not -1.5."""
    division = make_division(["Anchor", "Bell"])
    anchor = Team.objects.get(name="Anchor", division=division)
    table_services.point_deduction_add(team=anchor, points="1.5", reason="no-show", now=NOW)
    table_services.point_deduction_add(
        team=Team.objects.get(name="Bell", division=division), points="0.5", reason="late", now=NOW
    )
    rows = {row["team"]: row for row in (r.as_dict() for r in table(division).rows)}
    assert rows["Anchor"]["points_display"] == "-1½"
    assert rows["Bell"]["points_display"] == "-½"
    assert rows["Anchor"]["deducted_display"] == "1½"


def test_deduction_needs_a_reason_and_positive_points():
    team = make_division(["Anchor", "Bell"]).teams.first()
    with pytest.raises(DomainError):
        table_services.point_deduction_add(team=team, points=1, reason="  ")
    with pytest.raises(DomainError):
        table_services.point_deduction_add(team=team, points=0, reason="x")
    with pytest.raises(DomainError):
        table_services.point_deduction_add(team=team, points="0.3", reason="x")


def test_walkover_and_conceded_count_with_their_reasons():
    division = make_division(["Anchor", "Bell", "Crown"])
    walkover = Fixture.objects.get(division=division, home__name="Anchor", away__name="Bell")
    table_services.fixture_award(
        fixture=walkover,
        outcome="walkover",
        home_frames=9,
        away_frames=0,
        reason="Bell did not turn up",
        now=NOW,
    )
    conceded = Fixture.objects.get(division=division, home__name="Bell", away__name="Crown")
    table_services.fixture_award(
        fixture=conceded,
        outcome="conceded",
        home_frames=2,
        away_frames=7,
        reason="Bell could field only two players",
        home_score=500,
        away_score=900,
        now=NOW,
    )
    t = table(division)
    rows = by_name(t)
    assert (rows["Anchor"].played, rows["Anchor"].won, rows["Anchor"].points) == (1, 1, 9)
    assert (rows["Bell"].played, rows["Bell"].lost, rows["Bell"].points) == (2, 2, 2)
    assert rows["Crown"].score_for == 900
    assert any(
        "Walkover, Anchor v Bell" in n and "Bell did not turn up" in n for n in rows["Anchor"].notes
    )
    assert len(rows["Bell"].notes) == 2
    assert any("Match conceded" in n and "awarded 2–7" in n for n in rows["Crown"].notes)
    assert_agrees_with_sql(division)


def test_award_needs_a_reason_and_a_winner_and_never_overwrites_a_played_result():
    division = make_division(["Anchor", "Bell"])
    fixture = Fixture.objects.get(division=division, home__name="Anchor")
    with pytest.raises(DomainError) as err:
        table_services.fixture_award(
            fixture=fixture, outcome="walkover", home_frames=9, away_frames=0, reason=""
        )
    assert err.value.code == "required"
    with pytest.raises(DomainError) as err:
        table_services.fixture_award(
            fixture=fixture, outcome="walkover", home_frames=4, away_frames=4, reason="x"
        )
    assert err.value.code == "no_winner"
    with pytest.raises(DomainError):
        table_services.fixture_award(
            fixture=fixture, outcome="played", home_frames=9, away_frames=0, reason="x"
        )
    play(division, "Anchor", "Bell", 5, 4)
    with pytest.raises(DomainError) as err:
        table_services.fixture_award(
            fixture=fixture, outcome="conceded", home_frames=9, away_frames=0, reason="x"
        )
    assert err.value.code == "has_result"


# --------------------------------------------------------------- the tie-breakers


def row(name, *, points=0, frames=0, against=0, aggregate=0):
    return Row(
        team_id=hash(name) % 10_000,
        team=name,
        frames_for=D(frames),
        frames_against=D(against),
        earned=D(points),
        score_for=aggregate,
    )


@pytest.mark.parametrize(
    ("key", "above", "below", "text"),
    [
        ("points", row("Anchor", points=20), row("Bell", points=18), "points (20 to 18)"),
        (
            "frames_won",
            row("Anchor", frames="40.5"),
            row("Bell", frames=38),
            "frames won (40½ to 38)",
        ),
        (
            "frame_difference",
            row("Anchor", frames=30, against=18),
            row("Bell", frames=40, against=32),
            "frame difference (+12 to +8)",
        ),
        (
            "aggregate",
            row("Anchor", aggregate=4310),
            row("Bell", aggregate=3980),
            "aggregate score (4,310 to 3,980)",
        ),
    ],
)
def test_each_tie_breaker_decides_and_explains(key, above, below, text):
    ordered = rank([below, above], [key])
    assert [r.team for r in ordered] == ["Anchor", "Bell"]
    assert ordered[0].explanation == f"above Bell on {text}"
    assert ordered[1].explanation.startswith("below Anchor on ")
    assert [r.position for r in ordered] == [1, 2]


def test_tie_breakers_apply_in_the_seasons_order():
    a = row("Anchor", points=10, frames=10, against=9, aggregate=3000)
    b = row("Bell", points=10, frames=10, against=5, aggregate=2000)
    assert [r.team for r in rank([a, b], ["points", "aggregate", "frame_difference"])] == [
        "Anchor",
        "Bell",
    ]
    assert [r.team for r in rank([a, b], ["points", "frame_difference", "aggregate"])] == [
        "Bell",
        "Anchor",
    ]
    assert rank([a, b], ["points", "frame_difference"])[0].explanation == (
        "above Anchor on frame difference (+5 to +1)"
    )


def test_level_on_everything_shares_the_position():
    a, b, c = row("Anchor", points=5), row("Bell", points=5), row("Crown", points=3)
    ordered = rank([c, b, a], ["points", "frames_won"])
    assert [(r.team, r.position, r.shared) for r in ordered] == [
        ("Anchor", 1, True),
        ("Bell", 1, True),
        ("Crown", 3, False),
    ]
    assert ordered[0].as_dict()["position_display"] == "1="
    assert ordered[0].explanation == "level with Bell on points and frames won (shares 1st)"
    assert ordered[2].explanation == "below Anchor and Bell on points (3 to 5)"


def three_way_tie():
    """Anchor, Bell and Crown level on points, frames won and aggregate; their mutual
    matches make Anchor 10, Bell 9, Crown 8 in the mini-league. Duke is bottom."""
    division = make_division(["Anchor", "Bell", "Crown", "Duke"])
    play(division, "Anchor", "Bell", 6, 3, 3000, 2000)
    play(division, "Bell", "Crown", 6, 3, 3000, 2500)
    play(division, "Crown", "Anchor", 5, 4, 3000, 2500)
    play(division, "Anchor", "Duke", 4, 5, 2000, 2600)
    play(division, "Bell", "Duke", 5, 4, 2500, 2400)
    play(division, "Crown", "Duke", 6, 3, 2000, 1500)
    return division


def test_three_way_tie_is_settled_on_head_to_head():
    division = three_way_tie()
    t = table(division)
    rows = by_name(t)
    assert {rows[n].points for n in ("Anchor", "Bell", "Crown")} == {D(14)}
    assert {rows[n].score_for for n in ("Anchor", "Bell", "Crown")} == {7500}
    assert order(t) == ["Anchor", "Bell", "Crown", "Duke"]
    assert [r.position for r in t.rows] == [1, 2, 3, 4]
    assert rows["Anchor"].explanation == (
        "above Bell on head-to-head (10 to 9 points in matches between Anchor, Bell and Crown)"
    )
    assert rows["Bell"].explanation == (
        "above Crown on head-to-head (9 to 8 points in matches between Anchor, Bell and Crown)"
    )
    assert rows["Crown"].explanation == "above Duke on points (14 to 12)"
    assert rows["Duke"].explanation == "below Crown on points (12 to 14)"
    assert_agrees_with_sql(division)


def test_one_query_and_one_more_only_when_a_tie_reaches_head_to_head(
    django_assert_num_queries,
):
    division = Division.objects.select_related("season").get(pk=three_way_tie().pk)
    with django_assert_num_queries(2):  # the aggregate, and the head-to-head mini-league
        standings.division_table(division)
    # Different aggregates: the tie ends before head-to-head.
    Fixture.objects.filter(division=division, home__name="Bell", away__name="Duke").update(
        home_score=2600
    )
    Fixture.objects.filter(division=division, home__name="Anchor", away__name="Duke").update(
        home_score=2200
    )
    with django_assert_num_queries(1):
        t = standings.division_table(division)
    assert order(t) == ["Anchor", "Bell", "Crown", "Duke"]
    assert t.rows[0].explanation == "above Bell on aggregate score (7,700 to 7,600)"


def test_head_to_head_still_level_falls_through_to_shared_position():
    division = make_division(["Anchor", "Bell", "Crown", "Duke"])
    play(division, "Anchor", "Crown", 5, 4, 2000, 1000)
    play(division, "Bell", "Duke", 5, 4, 2000, 1000)  # the pairs level have not met
    t = table(division)
    assert [(r.team, r.position, r.shared) for r in t.rows] == [
        ("Anchor", 1, True),
        ("Bell", 1, True),
        ("Crown", 3, True),
        ("Duke", 3, True),
    ]
    assert t.rows[0].explanation == (
        "level with Bell on points, frames won, aggregate score and head-to-head (shares 1st)"
    )
    assert t.as_rows()[2]["position_display"] == "3="


def test_as_of_excludes_later_results_and_deductions():
    division = make_division(["Anchor", "Bell"])
    play(division, "Anchor", "Bell", 6, 3, at=NOW)
    play(division, "Bell", "Anchor", 7, 2, at=NOW + timedelta(days=7))
    table_services.point_deduction_add(
        team=Team.objects.get(name="Anchor"), points=1, reason="x", now=NOW + timedelta(days=8)
    )
    division = Division.objects.select_related("season").get(pk=division.pk)
    early = by_name(standings.division_table(division, as_of=NOW + timedelta(hours=1)))
    assert early["Anchor"].played == 1 and early["Anchor"].deducted == 0
    late = by_name(standings.division_table(division))
    assert late["Anchor"].played == 2 and late["Anchor"].deducted == 1


# ------------------------------------------------- agreement with SQL, query counts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_season_agrees_with_hand_written_sql(seed):
    rng = random.Random(seed)
    division = make_division(
        [f"Team {c}" for c in "ABCDEFGH"],
        points_per_match_win=D(rng.choice([0, 2, 3])),
        points_per_match_draw=D(rng.choice([0, 1])),
        bonus_margin=rng.choice([None, 5]),
        bonus_aggregate_points=D(rng.choice(["0", "0.5"])),
    )
    for fixture in Fixture.objects.filter(division=division):
        if rng.random() < 0.8:
            home = D(rng.randrange(0, 19)) / 2
            fixture.home_frames, fixture.away_frames = home, D(9) - home
            fixture.home_score = rng.randrange(500, 4000, 10)
            fixture.away_score = rng.randrange(500, 4000, 10)
            fixture.result_confirmed_at = NOW
            fixture.save()
    team = Team.objects.filter(division=division).first()
    table_services.point_deduction_add(team=team, points="1.5", reason="late")
    assert_agrees_with_sql(division)


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_query_count_is_the_same_for_4_and_12_teams(django_assert_num_queries):
    small = make_division([f"S{i:02}" for i in range(4)])
    large = make_division([f"L{i:02}" for i in range(12)])
    for division, n in ((small, 4), (large, 12)):
        for i, fixture in enumerate(Fixture.objects.filter(division=division)):
            fixture.home_frames, fixture.away_frames = D(i % 9), D(9 - i % 9)
            fixture.home_score, fixture.away_score = 1000 + i * 37, 900 + i * 53
            fixture.result_confirmed_at = NOW
            fixture.save()
        assert Team.objects.filter(division=division).count() == n
    small = Division.objects.select_related("season").get(pk=small.pk)
    large = Division.objects.select_related("season").get(pk=large.pk)
    expected = _count(lambda: standings.division_table(small))
    with django_assert_num_queries(expected):
        standings.division_table(large)


def test_a_whole_season_costs_the_same_queries_as_one_division(django_assert_num_queries):
    season = SeasonFactory(status=Season.Status.RUNNING)
    one = make_division(["A1", "A2", "A3", "A4"], season=season, rank_=1)
    play(one, "A1", "A2", 6, 3)  # A3 and A4 level: head-to-head is reached
    expected = _count(lambda: standings.tables(season))
    for r in (2, 3, 4):
        division = make_division([f"T{r}{i}" for i in range(6)], season=season, rank_=r)
        play(division, f"T{r}0", f"T{r}1", 5, 4)
    with django_assert_num_queries(expected):
        result = standings.tables(season)
    assert [t.division for t in result] == ["Division 1", "Division 2", "Division 3", "Division 4"]
    assert [len(t.rows) for t in result] == [4, 6, 6, 6]
