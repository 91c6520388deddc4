"""The league's ledger: append-only, reversed once, rule-raised lines raised once, and
balances that add up."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import IntegrityError, connection, transaction

from leagues.fixtures import services as fixture_services
from leagues.models import Fixture, LeagueRole, Registration
from marker.errors import DomainError
from money import selectors, services
from money.models import FeeSchedule, LedgerEntry, LedgerImmutable
from tests.factories import make_secretary

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
Kind = LedgerEntry.Kind


@pytest.fixture
def treasurer(league):
    return make_secretary(league.season, role=LeagueRole.Role.TREASURER, username="tess")


@pytest.fixture
def fees(league, treasurer):
    return services.schedule_set(
        actor=treasurer,
        season=league.season,
        team_fee=5000,
        player_sub=1000,
        table_money=300,
        postponement_fine=2000,
        fine_after_days=14,
        now=NOW,
    )


def _pay(league, actor, team, amount, method="cash", **kw):
    return services.payment_record(
        actor=actor, season=league.season, team=team, amount=amount, method=method, now=NOW, **kw
    )


def test_a_saved_entry_cannot_be_changed_or_deleted(league, treasurer, fees):
    entry = _pay(league, treasurer, league.teams[0], 2500)
    entry.amount = -1
    with pytest.raises(LedgerImmutable):
        entry.save()
    with pytest.raises(LedgerImmutable):
        entry.delete()
    with pytest.raises(LedgerImmutable):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=-1)
    with pytest.raises(LedgerImmutable):
        LedgerEntry.objects.filter(pk=entry.pk).delete()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == -2500


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_the_database_refuses_an_update_of_a_line(league, treasurer, fees):
    entry = _pay(league, treasurer, league.teams[0], 2500)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE money_ledgerentry SET amount = 1 WHERE id = %s", [entry.pk])
    assert LedgerEntry.objects.get(pk=entry.pk).amount == -2500


def test_the_database_holds_signs_and_one_account(league, fees):
    base = {
        "league_id": league.season.league_id,
        "season": league.season,
        "description": "x",
        "created_at": NOW,
    }
    bad = [
        {"team": league.teams[0], "kind": Kind.FINE, "amount": -100},  # a charge is positive
        {"team": league.teams[0], "kind": Kind.PAYMENT, "amount": -100},  # a payment's method
        {"team": league.teams[0], "kind": Kind.PAYMENT, "amount": 100, "method": "cash"},
        {"kind": Kind.FINE, "amount": 100},  # no account
        {"team": league.teams[0], "kind": Kind.REVERSAL, "amount": 100},  # reverses nothing
    ]
    for fields in bad:
        with pytest.raises(IntegrityError), transaction.atomic():
            LedgerEntry.objects.create(**base, **fields)


def test_an_entry_is_reversed_once(league, treasurer, fees):
    entry = _pay(league, treasurer, league.teams[0], 2500)
    reversal = services.entry_reverse(actor=treasurer, entry=entry, reason="bounced", now=NOW)
    assert reversal.amount == 2500 and reversal.reverses_id == entry.pk
    with pytest.raises(DomainError) as err:
        services.entry_reverse(actor=treasurer, entry=entry, reason="again", now=NOW)
    assert err.value.code == "already_reversed" and err.value.status == 409
    with pytest.raises(DomainError) as err:
        services.entry_reverse(actor=treasurer, entry=reversal, reason="undo", now=NOW)
    assert err.value.code == "is_reversal"
    # the database holds it too: a second line reversing the same entry
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            league_id=entry.league_id,
            season=entry.season,
            team=entry.team,
            kind=Kind.REVERSAL,
            amount=2500,
            description="twice",
            reverses=entry,
            created_at=NOW,
        )
    assert LedgerEntry.objects.filter(season=league.season).count() == 2


def test_raising_the_seasons_fees_twice_charges_once(league, treasurer, fees):
    first = services.season_fees_raise(actor=treasurer, season=league.season, now=NOW)
    players = (
        Registration.objects.filter(season=league.season, status="active")
        .values("player")
        .distinct()
        .count()
    )
    assert first == {"team_fee": 8, "player_sub": players, "cup_entry": 0, "table_money": 0}
    again = services.season_fees_raise(actor=treasurer, season=league.season, now=NOW)
    assert again == {"team_fee": 0, "player_sub": 0, "cup_entry": 0, "table_money": 0}
    teams, _ = selectors.balances(league.season)
    assert {b.balance for b in teams} == {5000}


def _play(fixture: Fixture) -> None:
    fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=5,
        away_frames=4,
        home_score=3000,
        away_score=2800,
        confirmed_at=NOW,
    )


def test_table_money_is_raised_once_per_played_home_match(league, fees):
    home = league.teams[0]
    played = list(Fixture.objects.filter(home=home).order_by("id")[:2])
    for fixture in played:
        _play(fixture)
    league.season.refresh_from_db()
    assert services.table_money_raise(now=NOW) == 2
    assert services.table_money_raise(now=NOW) == 0  # the beat runs again: nothing new
    lines = LedgerEntry.objects.filter(kind=Kind.TABLE_MONEY)
    assert {(line.team_id, line.fixture_id, line.amount) for line in lines} == {
        (home.pk, f.pk, 300) for f in played
    }


def test_a_postponement_without_a_new_date_fines_the_side_that_postponed_once(league, fees):
    fixture = Fixture.objects.filter(home=league.teams[0]).order_by("date").first()
    fixture_services.fixture_postpone(fixture=fixture, reason="no team", by="away")
    due = fixture.date
    # 14 days after the night it was due: not yet on the 13th day
    assert services.postponement_fines_raise(now=_noon(due + timedelta(days=13))) == 0
    assert services.postponement_fines_raise(now=_noon(due + timedelta(days=14))) == 1
    assert services.postponement_fines_raise(now=_noon(due + timedelta(days=20))) == 0
    fine = LedgerEntry.objects.get(kind=Kind.FINE)
    assert (fine.team_id, fine.amount, fine.created_by) == (fixture.away_id, 2000, None)
    assert "postponed" in fine.description


def test_a_postponement_given_a_new_date_or_no_side_is_not_fined(league, fees):
    first, second = Fixture.objects.filter(home=league.teams[0]).order_by("date")[:2]
    fixture_services.fixture_postpone(fixture=first, reason="snow")  # no side said
    fixture_services.fixture_postpone(fixture=second, reason="pub shut", by="home")
    fixture_services.fixture_move(fixture=second, new_date=date(2027, 5, 4))
    assert services.postponement_fines_raise(now=_noon(date(2027, 6, 1))) == 0


def _noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


def test_balances_and_a_statement_add_up_to_the_penny(league, treasurer, fees):
    team = league.teams[0]
    services.season_fees_raise(actor=treasurer, season=league.season, now=NOW)
    services.charge_add(
        actor=treasurer,
        season=league.season,
        team=team,
        kind=Kind.FINE,
        amount=2000,
        description="Late card",
        now=NOW,
    )
    pay = _pay(league, treasurer, team, 3333, "transfer", reference="BACS 1")
    _pay(league, treasurer, team, 1, "cash")
    services.entry_reverse(actor=treasurer, entry=pay, reason="bounced", now=NOW)
    statement = selectors.statement(team)
    assert [line.balance for line in statement.lines] == [5000, 7000, 3667, 3666, 6999]
    assert statement.balance == 6999
    teams, players = selectors.balances(league.season)
    mine = next(b for b in teams if b.account == team)
    assert (mine.charged, mine.paid, mine.balance) == (7000, 1, 6999)
    summary = selectors.agm_summary(league.season)
    assert dict(summary.payments_by_method) == {"Cash": 1, "Bank transfer": 0, "Other": 0}
    assert dict(summary.income_by_kind)["Fine"] == 2000
    assert summary.outstanding == 8 * 5000 + 2000 - 1 + 1000 * len(players)


def test_refusals_say_why_and_write_nothing(league, treasurer, fees):
    team, other = league.teams[0], league.b if hasattr(league, "b") else None
    cases = [
        ({"amount": 0, "method": "cash"}, "bad_amount"),
        ({"amount": 100, "method": "card"}, "bad_method"),
        ({"amount": "100", "method": "cash"}, "bad_amount"),
    ]
    for kwargs, code in cases:
        with pytest.raises(DomainError) as err:
            services.payment_record(
                actor=treasurer, season=league.season, team=team, now=NOW, **kwargs
            )
        assert err.value.code == code
    with pytest.raises(DomainError) as err:
        services.charge_add(
            actor=treasurer,
            season=league.season,
            team=team,
            kind=Kind.FINE,
            amount=500,
            description="  ",
            now=NOW,
        )
    assert err.value.code == "reason_required"
    with pytest.raises(DomainError) as err:
        services.payment_record(
            actor=league.captain,
            season=league.season,
            team=team,
            amount=100,
            method="cash",
            now=NOW,
        )
    assert err.value.status == 403
    assert other is None and not LedgerEntry.objects.exists()


def test_raising_fees_needs_a_schedule(league, treasurer):
    with pytest.raises(DomainError) as err:
        services.season_fees_raise(actor=treasurer, season=league.season, now=NOW)
    assert err.value.code == "no_schedule"
    assert not FeeSchedule.objects.exists() and not LedgerEntry.objects.exists()


def test_an_officer_account_deleted_leaves_its_lines_unchanged_but_for_who(league, treasurer, fees):
    entry = _pay(league, treasurer, league.teams[0], 2500)
    treasurer.delete()
    entry = LedgerEntry.objects.get(pk=entry.pk)
    assert (entry.created_by, entry.amount, entry.kind) == (None, -2500, "payment")


def test_the_api_postpones_a_fixture_naming_the_side(client, league):
    fixture = Fixture.objects.filter(home=league.teams[0]).order_by("date").first()
    client.force_login(league.secretary, backend="django.contrib.auth.backends.ModelBackend")
    url = f"/api/fixtures/{fixture.pk}/postpone/"
    bad = client.post(url, {"by": "both"}, content_type="application/json")
    assert bad.status_code == 400
    assert client.post(url, {"by": "home"}, content_type="application/json").status_code == 200
    fixture.refresh_from_db()
    assert (fixture.status, fixture.postponed_by) == ("postponed", "home")
