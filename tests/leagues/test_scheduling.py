"""The round-robin generator: pure, then through the service."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.fixtures import services as fixture_services
from leagues.models import Fixture
from leagues.scheduling import (
    ScheduleError,
    TeamSlot,
    double_round_robin,
    match_nights,
)
from marker.errors import DomainError


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def _check(divisions, tables, matches):
    venue_of = {t.id: t.venue for ts in divisions.values() for t in ts}
    for div, teams in divisions.items():
        ids = [t.id for t in teams]
        pairs = Counter((m.home, m.away) for m in matches if m.division == div)
        for a in ids:
            for b in ids:
                if a != b:
                    assert pairs[(a, b)] == 1, "every team at home to every other exactly once"
        homes = Counter(m.home for m in matches if m.division == div)
        aways = Counter(m.away for m in matches if m.division == div)
        for t in ids:
            assert homes[t] == aways[t] == len(ids) - 1, "home and away balanced"
    nightly = Counter((m.date, m.home) for m in matches) + Counter(
        (m.date, m.away) for m in matches
    )
    assert max(nightly.values()) == 1, "nobody plays twice on one night"
    at_venue = Counter((m.date, venue_of[m.home]) for m in matches)
    for (night, venue), count in at_venue.items():
        assert count <= tables[venue], f"venue {venue} over its tables on {night}"


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=2, max_value=9), min_size=1, max_size=3),
    shared=st.integers(min_value=0, max_value=2),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_round_robin_is_complete_balanced_and_respects_shared_venues(sizes, shared, seed):
    divisions, tables, next_id = {}, {}, 1
    for d, size in enumerate(sizes):
        divisions[d] = []
        for _ in range(size):
            divisions[d].append(TeamSlot(next_id, next_id))
            tables[next_id] = 1
            next_id += 1
    # `shared` pairs of teams (in different divisions where possible) share a one-table pub.
    all_teams = [t for ts in divisions.values() for t in ts]
    for k in range(min(shared, len(all_teams) // 2)):
        a, b = all_teams[k], all_teams[-1 - k]
        for d, ts in divisions.items():
            divisions[d] = [TeamSlot(t.id, a.venue) if t.id == b.id else t for t in ts]
    half = max(s + s % 2 - 1 for s in sizes)
    nights = match_nights(date(2026, 9, 1), 1, 2 * half)
    try:
        matches = double_round_robin(divisions, tables, nights, seed=seed)
    except ScheduleError as exc:  # some random venue layouts are impossible
        assert exc.code == "venue_clash"  # noqa: PT017
        return
    _check(divisions, tables, matches)


def test_odd_division_gets_a_bye_each_round():
    teams = [TeamSlot(i, i) for i in range(1, 6)]
    nights = match_nights(date(2026, 9, 1), 1, 10)
    matches = double_round_robin({1: teams}, {i: 1 for i in range(1, 6)}, nights)
    for night in nights:
        playing = {m.home for m in matches if m.date == night} | {
            m.away for m in matches if m.date == night
        }
        assert len(playing) == 4, "exactly one team rests each night"


def test_two_teams_sharing_a_one_table_pub_are_never_both_at_home():
    divisions = {
        1: [TeamSlot(1, 100), TeamSlot(2, 2), TeamSlot(3, 3), TeamSlot(4, 4)],
        2: [TeamSlot(5, 100), TeamSlot(6, 6), TeamSlot(7, 7), TeamSlot(8, 8)],
    }
    tables = {100: 1, 2: 1, 3: 1, 4: 1, 6: 1, 7: 1, 8: 1}
    matches = double_round_robin(divisions, tables, match_nights(date(2026, 9, 1), 1, 6))
    for night in {m.date for m in matches}:
        homes = {m.home for m in matches if m.date == night}
        assert not {1, 5} <= homes


def test_three_teams_on_one_table_cannot_be_scheduled():
    divisions = {
        1: [
            TeamSlot(1, 9),
            TeamSlot(2, 9),
            TeamSlot(3, 9),
            TeamSlot(4, 4),
            TeamSlot(5, 5),
            TeamSlot(6, 6),
            TeamSlot(7, 7),
            TeamSlot(8, 8),
        ]
    }
    tables = {9: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}
    with pytest.raises(ScheduleError) as err:
        double_round_robin(divisions, tables, match_nights(date(2026, 9, 1), 1, 14), attempts=20)
    assert err.value.code == "venue_clash"


def test_blackout_dates_are_skipped_and_nights_fall_on_the_match_night():
    nights = match_nights(date(2026, 12, 1), 1, 4, [date(2026, 12, 22), date(2026, 12, 29)])
    assert nights == [date(2026, 12, 1), date(2026, 12, 8), date(2026, 12, 15), date(2027, 1, 5)]
    assert all(n.weekday() == 1 for n in nights)


@pytest.mark.django_db
def test_generated_fixtures_obey_the_rules_and_skip_blackouts(league):
    blackout = date(2026, 9, 15)
    fixtures = fixture_services.fixtures_generate(
        season=league.season, start_date=date(2026, 9, 1), blackout_dates=[blackout]
    )
    assert fixtures
    assert all(f.date != blackout and f.date.weekday() == 1 for f in fixtures)
    # 4 teams a division: 6 rounds each, 2 matches a round, 2 divisions.
    assert Fixture.objects.filter(season=league.season).count() == 24
    shared = league.teams[0].venue
    for night in {f.date for f in fixtures}:
        assert Fixture.objects.filter(date=night, venue=shared).count() <= shared.tables


@pytest.mark.django_db
def test_moving_one_fixture_leaves_the_others_alone(league):
    before = {f.pk: (f.date, f.status) for f in Fixture.objects.filter(season=league.season)}
    target = Fixture.objects.filter(season=league.season).order_by("date").first()
    free_night = max(d for d, _ in before.values()) + timedelta(days=7)
    fixture_services.fixture_move(fixture=target, new_date=free_night, reason="Pub closed")
    target.refresh_from_db()
    assert target.date == free_night and target.original_date == before[target.pk][0]
    after = {f.pk: (f.date, f.status) for f in Fixture.objects.filter(season=league.season)}
    changed = [pk for pk in before if before[pk] != after[pk]]
    assert changed == [target.pk]


@pytest.mark.django_db
def test_moving_a_fixture_onto_a_night_a_team_already_plays_is_refused(league):
    fixtures = list(
        Fixture.objects.filter(season=league.season, home=league.teams[0]).order_by("date")
    )
    first, second = fixtures[0], fixtures[1]
    with pytest.raises(DomainError) as err:
        fixture_services.fixture_move(fixture=first, new_date=second.date)
    assert err.value.code == "team_busy"
    first.refresh_from_db()
    assert first.original_date is None


@pytest.mark.django_db
def test_moving_a_fixture_to_a_full_one_table_pub_is_refused(league):
    shared = league.teams[0].venue
    a = Fixture.objects.filter(venue=shared, home=league.teams[0]).order_by("date").first()
    free_night = Fixture.objects.order_by("-date").first().date + timedelta(days=7)
    # Another match already uses the pub's only table that night (a rearranged fixture).
    others = [t for t in league.teams if t.pk not in (a.home_id, a.away_id)]
    home, away = others[-1], others[0]  # a cross-division pair: no league fixture exists
    Fixture.objects.create(
        season=league.season,
        division=home.division,
        round=99,
        home=home,
        away=away,
        venue=shared,
        date=free_night,
    )
    with pytest.raises(DomainError) as err:
        fixture_services.fixture_move(fixture=a, new_date=free_night)
    assert err.value.code == "venue_full"
    a.refresh_from_db()
    assert a.date != free_night


@pytest.mark.django_db
def test_postponed_fixture_keeps_its_original_date(league):
    f = Fixture.objects.filter(season=league.season).first()
    fixture_services.fixture_postpone(fixture=f, reason="Snow")
    f.refresh_from_db()
    assert f.status == "postponed" and f.original_date == f.date and f.note == "Snow"
    with pytest.raises(DomainError):
        fixture_services.fixture_postpone(fixture=f)
