"""A cup entry's fee lives in the ledger: charged when the entry is made, and the
entry's `paid` (pages, API, the competitions secretary's button) reads it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from competitions.services.entries import entry_create, entry_mark_paid, entry_withdraw
from competitions.services.setup import competition_create
from leagues.models import LeagueRole
from marker.errors import DomainError
from money import selectors, services
from money.models import LedgerEntry
from tests.factories import make_secretary

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)


@pytest.fixture
def singles(league):
    return competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles",
        kind="singles",
        fee="2.00",
        now=NOW,
    )


def _entrant(league):
    return league.teams[0].registrations.filter(status="active").first().player


def test_entering_charges_the_fee_once_and_paying_it_marks_the_entry_paid(league, singles):
    player = _entrant(league)
    entry = entry_create(actor=league.secretary, competition=singles, player=player, now=NOW)
    charge = LedgerEntry.objects.get(cup_entry=entry)
    assert (charge.kind, charge.amount, charge.player_id) == ("cup_entry", 200, player.pk)
    assert not entry.paid and entry.fee_owed == 200
    # withdrawn and entered again: still one charge
    entry_withdraw(actor=league.secretary, entry=entry, now=NOW)
    entry = entry_create(actor=league.secretary, competition=singles, player=player, now=NOW)
    assert LedgerEntry.objects.filter(cup_entry=entry, kind="cup_entry").count() == 1
    # the competitions secretary's "paid" records a payment in the ledger
    entry = entry_mark_paid(actor=league.secretary, entry=entry, paid=True, now=NOW)
    assert entry.paid and entry.paid_at == NOW
    payment = LedgerEntry.objects.get(cup_entry=entry, kind="payment")
    assert (payment.amount, payment.method) == (-200, "other")
    _, players = selectors.balances(league.season)
    assert next(b for b in players if b.account == player).balance == 0
    # and "unpaid" reverses that payment: owed again
    entry = entry_mark_paid(actor=league.secretary, entry=entry, paid=False, now=NOW)
    assert not entry.paid and entry.fee_owed == 200
    assert LedgerEntry.objects.filter(reverses=payment).exists()


def test_a_payment_against_the_entry_by_the_treasurer_settles_it(league, singles):
    player = _entrant(league)
    treasurer = make_secretary(league.season, role=LeagueRole.Role.TREASURER, username="tt")
    entry = entry_create(actor=league.secretary, competition=singles, player=player, now=NOW)
    charge = LedgerEntry.objects.get(cup_entry=entry)
    services.entry_reverse(actor=treasurer, entry=charge, reason="waived", now=NOW)
    entry.refresh_from_db()
    assert entry.paid  # nothing owed on it


def test_the_api_shows_paid_from_the_ledger(league, singles, client, django_assert_max_num_queries):
    players = [r.player for r in league.teams[0].registrations.filter(status="active")[:3]]
    entries = [
        entry_create(actor=league.secretary, competition=singles, player=p, now=NOW)
        for p in players
    ]
    entry_mark_paid(actor=league.secretary, entry=entries[1], paid=True, now=NOW)
    url = reverse("api-competition-entries", args=[singles.pk])
    with django_assert_max_num_queries(6):
        body = client.get(url).json()
    assert [e["paid"] for e in body] == [False, True, False]


def test_a_free_competition_has_nothing_to_mark_paid(league):
    free = competition_create(
        actor=league.secretary, season=league.season, name="Free", kind="singles", now=NOW
    )
    entry = entry_create(actor=league.secretary, competition=free, player=_entrant(league), now=NOW)
    assert not LedgerEntry.objects.exists()
    with pytest.raises(DomainError) as err:
        entry_mark_paid(actor=league.secretary, entry=entry, paid=True, now=NOW)
    assert err.value.code == "no_fee"
