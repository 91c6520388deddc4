"""The money pages on a phone, walked like every other main page: nothing wider than the
screen, tap targets of 44 × 44 px, no serious axe-core violation; and a payment recorded
through the form on the phone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.models import LeagueRole
from money import services
from money.models import LedgerEntry
from tests.conftest import make_league
from tests.factories import make_secretary

from .test_every_page import look, visit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_money_pages_fit_a_phone_and_a_payment_is_recorded(phone):
    problems: list[str] = []
    league = make_league(teams_per_division=3, players_per_team=3)
    season = league.season
    treasurer = make_secretary(season, role=LeagueRole.Role.TREASURER, username="tess")
    services.schedule_set(
        actor=treasurer,
        season=season,
        team_fee=5000,
        player_sub=1000,
        table_money=300,
        postponement_fine=2000,
    )
    services.season_fees_raise(actor=treasurer, season=season)
    services.charge_add(
        actor=treasurer,
        season=season,
        team=league.teams[1],
        kind="fine",
        amount=2000,
        description="Postponed without a new date",
    )
    page = phone(treasurer).new_page()
    visit(page, reverse("money-ledger", args=[season.pk]), "money-ledger", problems)
    page.select_option("#id_account", f"team:{league.teams[0].pk}")
    page.fill("#id_amount", "12.50")
    page.select_option("#id_method", "transfer")
    page.fill("#id_reference", "BACS 0042")
    page.click("text=Record the payment")
    page.wait_for_url(f"**{reverse('money-ledger', args=[season.pk])}")
    look(page, "after-payment", "money-ledger-paid", problems)
    assert "Recorded £12.50" in page.content()
    paid = LedgerEntry.objects.get(kind="payment")
    assert (paid.amount, paid.reference) == (-1250, "BACS 0042")
    visit(page, reverse("money-fees", args=[season.pk]), "money-fees", problems)
    visit(page, reverse("money-summary", args=[season.pk]), "money-summary", problems)
    visit(page, reverse("money-reverse", args=[paid.pk]), "money-reverse", problems)
    captain = phone(league.captain).new_page()
    visit(
        captain,
        reverse("money-team-statement", args=[league.teams[0].pk]),
        "money-statement",
        problems,
    )
    assert "£37.50" in captain.content()
    assert problems == [], "\n".join(problems)
