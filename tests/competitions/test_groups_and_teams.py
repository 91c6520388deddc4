"""Group events (a three-way tie settled on the score difference between the tied), team
ties played as real cup matches (the leagues hook sends the winner through, the tables
never see them), the plate, and the selectors' query counts."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions import selectors
from competitions.models import Entry, Tie
from competitions.results import tie_fixture_result
from competitions.services.draws import draw_commit, knockout_draw_from_groups
from competitions.services.entries import entry_create, entry_mark_paid, entry_withdraw
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper
from leagues import standings
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture
from tests.factories import PlayerFactory, RegistrationFactory

from .helpers import NOW, drawn, registered_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def group_event(league, n, *, group_size=3, qualifiers=1, **kwargs):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles",
        kind="group_knockout",
        group_size=group_size,
        group_qualifiers=qualifiers,
        group_race_to=2,
        now=NOW,
        **kwargs,
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def result(tie, secretary, winner_entry, frames):
    """frames as (winner's score, loser's score) in order; the entry named wins each
    frame it has the higher score in."""
    flip = tie.home_id != winner_entry.pk
    rows = [{"home": b, "away": a} if flip else {"home": a, "away": b} for a, b in frames]
    tie_record_paper(actor=secretary, tie=tie, frames=rows, now=NOW)


def test_a_three_way_tie_is_settled_on_the_score_difference_between_them(league):
    comp = group_event(league, 6)
    tables = selectors.group_tables(comp)
    assert [len(t.rows) for t in tables] == [3, 3]
    group = tables[0].group
    a, b, c = (m.entry for m in group.members.order_by("position"))

    def tie_of(x, y):
        return Tie.objects.get(group=group, home__in=[x, y], away__in=[x, y])

    # A beats B, B beats C, C beats A, each 2-1: all level on wins and frame difference
    result(tie_of(a, b), league.secretary, a, [(300, 200), (100, 200), (250, 240)])  # A +110
    result(tie_of(b, c), league.secretary, b, [(300, 100), (100, 150), (250, 200)])  # B +200
    result(tie_of(c, a), league.secretary, c, [(300, 290), (100, 150), (250, 240)])  # C -30
    table = selectors.group_tables(comp)[0]
    assert table.complete
    assert [(r.entry.pk, r.won, r.frame_difference) for r in table.rows] == [
        (b.pk, 1, 0),
        (a.pk, 1, 0),
        (c.pk, 1, 0),
    ]
    # between them: B +200 -(-30)... each counts only the matches among the tied
    diffs = {r.entry.pk: r.h2h_score_difference for r in table.rows}
    assert diffs[b.pk] > diffs[a.pk] > diffs[c.pk]
    assert "score difference between them" in table.rows[0].explanation

    # the other group, then the knock-out: each group's winner, drawn into a final
    other = selectors.group_tables(comp)[1].group
    for tie in Tie.objects.filter(group=other):
        result(tie, league.secretary, tie.home, [(200, 100), (200, 100)])
    draw_commit(actor=league.secretary, competition=comp, now=NOW)  # the knock-out's own
    comp = knockout_draw_from_groups(actor=league.secretary, competition=comp, now=NOW)
    final = Tie.objects.get(round__competition=comp)
    assert {final.home_id, final.away_id} == {
        b.pk,
        selectors.group_tables(comp)[1].rows[0].entry.pk,
    }
    assert comp.knockout_seed is not None and comp.draw_record["knockout"]["qualifiers"]


def test_level_on_everything_is_settled_by_the_lots_drawn_with_the_groups(league):
    comp = group_event(league, 3)
    group = comp.groups.get()
    a, b, c = (m.entry for m in group.members.order_by("position"))
    same = [(200, 100), (100, 200), (200, 100)]
    for winner, loser in ((a, b), (b, c), (c, a)):
        tie = Tie.objects.get(group=group, home__in=[winner, loser], away__in=[winner, loser])
        result(tie, league.secretary, winner, same)
    table = selectors.group_tables(comp)[0]
    assert {r.h2h_score_difference for r in table.rows} == {0}
    lots = {m.entry_id: m.lot for m in group.members.all()}
    assert [r.entry.pk for r in table.rows] == sorted(lots, key=lots.get)
    assert "placed by lot" in table.rows[0].explanation
    # the lots were drawn with the groups, from the seed: the replay gives them
    assert sorted(lots.values()) == [1, 2, 3]
    assert comp.draw_record["lots"][0] == [lots[int(k)] for k in comp.draw_record["groups"][0]]


def test_a_team_tie_is_a_cup_fixture_whose_confirmed_result_sends_the_winner_through(league):
    plate = competition_create(
        actor=league.secretary, season=league.season, name="Plate", kind="team_knockout", now=NOW
    )
    cup = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Cup",
        kind="team_knockout",
        plate_rule="first_round_losers",
        plate=plate,
        now=NOW,
    )
    for team in league.teams[:4]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    table_before = standings.division_table(league.premier)
    ties = list(Tie.objects.filter(round__competition=cup, round__number=1).order_by("slot"))
    assert all(t.fixture is not None for t in ties)
    fixture = ties[0].fixture
    assert fixture.kind == Fixture.Kind.CUP and fixture.division_id is None
    assert (fixture.home_id, fixture.away_id) == (ties[0].home.team_id, ties[0].away.team_id)
    # the match night's sign-off writes the result onto the fixture, then decides the tie
    tie_fixture_result(
        fixture_services.fixture_record_result(
            fixture=fixture,
            home_frames=Decimal(4),
            away_frames=Decimal(5),
            home_score=3000,
            away_score=2900,
            confirmed_at=NOW,
        )
    )
    tie = Tie.objects.get(pk=ties[0].pk)
    assert tie.status == Tie.Status.PLAYED and tie.winner_id == tie.away_id
    final = Tie.objects.get(round__competition=cup, round__number=2)
    assert final.home_id == tie.away_id
    # the loser of round one is in the plate
    assert Entry.objects.filter(competition=plate, team_id=tie.home.team_id).exists()
    # level on frames and score: nobody goes through until the secretary decides
    tie_fixture_result(
        fixture_services.fixture_record_result(
            fixture=ties[1].fixture,
            home_frames=Decimal("4.5"),
            away_frames=Decimal("4.5"),
            home_score=100,
            away_score=100,
            confirmed_at=NOW,
        )
    )
    assert Tie.objects.get(pk=ties[1].pk).status == Tie.Status.SCHEDULED
    if table_before is not None:
        assert standings.division_table(league.premier) == table_before


def test_a_team_tie_reads_its_result_from_its_fixture_after_a_settlement_too(league, client):
    """The result is stored once, on the cup fixture: the tie keeps no copy, so the
    bracket and the tie's API answer follow the fixture when a settlement rewrites it."""
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:2]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    tie = Tie.objects.get(competition=cup)
    assert not {"home_frames", "away_frames", "home_score", "away_score"} & {
        f.name for f in Tie._meta.get_fields()
    }

    def confirm(home_frames, away_frames, home_score, away_score):
        tie_fixture_result(
            fixture_services.fixture_record_result(
                fixture=tie.fixture,
                home_frames=Decimal(home_frames),
                away_frames=Decimal(away_frames),
                home_score=home_score,
                away_score=away_score,
                confirmed_at=NOW,
            )
        )

    def answered():
        body = client.get(f"/api/ties/{tie.pk}/").json()
        return tuple(body[k] for k in ("home_frames", "away_frames", "home_score", "away_score"))

    assert answered() == (None, None, None, None)
    confirm(4, 5, 3000, 2900)
    assert answered() == ("4.0", "5.0", 3000, 2900)
    confirm("3.5", "5.5", 2800, 3100)  # settled again
    assert answered() == ("3.5", "5.5", 2800, 3100)
    (final,) = selectors.bracket(cup).rounds[0].ties
    assert (final.home_frames, final.away_frames) == (Decimal("3.5"), Decimal("5.5"))


def test_cup_tied_and_wrong_season_refusals_name_the_rule(league):
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    entry = entry_create(actor=league.secretary, competition=cup, team=league.teams[0], now=NOW)
    with pytest.raises(Exception) as err:
        entry_create(actor=league.secretary, competition=cup, team=league.teams[0], now=NOW)
    assert err.value.code == "already_entered"
    # a captain may not enter a secretary-only competition
    with pytest.raises(Exception) as err:
        entry_create(actor=league.captain, competition=cup, team=league.teams[1], now=NOW)
    assert err.value.code == "secretary_enters"
    assert entry.status == Entry.Status.ENTERED


def test_open_entries_close_on_their_date(league):
    from datetime import timedelta

    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Open",
        kind="singles",
        entry_mode="open",
        entries_close_at=NOW + timedelta(days=1),
        fee="2.50",
        now=NOW,
    )
    player = PlayerFactory(user=league.outsider)
    RegistrationFactory(player=player, team=league.teams[3], season=league.season)
    entry = entry_create(actor=league.outsider, competition=comp, player=player, now=NOW)
    assert not entry.paid
    entry_mark_paid(actor=league.secretary, entry=entry, paid=True, now=NOW)
    entry.refresh_from_db()
    assert entry.paid and entry.paid_at == NOW
    entry_withdraw(actor=league.outsider, entry=entry, now=NOW)
    with pytest.raises(Exception) as err:
        entry_create(
            actor=league.outsider, competition=comp, player=player, now=NOW + timedelta(days=2)
        )
    assert err.value.code == "entries_closed"


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_bracket_and_group_tables_take_the_same_queries_whatever_the_entrants(league):
    small = drawn_singles(league, 3, "Small")
    large = drawn_singles(league, 20, "Large")
    assert _queries(lambda: selectors.bracket(small)) == _queries(lambda: selectors.bracket(large))
    g_small = group_event(league, 6)
    g_large = group_event(league, 21)
    assert (
        _queries(lambda: selectors.group_tables(g_small))
        == _queries(lambda: selectors.group_tables(g_large))
        <= 3
    )


def drawn_singles(league, n, name):
    comp = competition_create(
        actor=league.secretary, season=league.season, name=name, kind="singles", now=NOW
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def test_the_bracket_and_groups_api_take_the_same_queries_whatever_the_entrants(league, client):
    small = drawn_singles(league, 3, "Small")
    large = drawn_singles(league, 20, "Large")
    counts = [
        _queries(lambda c=c: client.get(f"/api/competitions/{c.pk}/bracket/"))
        for c in (small, large)
    ]
    assert counts[0] == counts[1]
    g_small, g_large = group_event(league, 6), group_event(league, 21)
    counts = [
        _queries(lambda c=c: client.get(f"/api/competitions/{c.pk}/groups/"))
        for c in (g_small, g_large)
    ]
    assert counts[0] == counts[1]
