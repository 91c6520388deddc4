"""Issue 31's "done when": the demo league's season ledger balances to the penny against
statements worked out by hand from its fee schedule (team fee £50, player sub £5, table
money £3 a home match played, a £20 fine), its payments and its reversal."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from leagues.fixtures import services as fixture_services
from leagues.models import Fixture, Player, Registration, Season, Team
from money import selectors
from money.models import LedgerEntry

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _play_two_home_matches(team: Team) -> None:
    """Two of The Adam and Eve's home matches played before the money is loaded."""
    for fixture in Fixture.objects.filter(home=team).order_by("date", "id")[:2]:
        fixture_services.fixture_record_result(
            fixture=fixture,
            home_frames=5,
            away_frames=4,
            home_score=3100,
            away_score=2900,
            confirmed_at=datetime(2026, 10, 1, 22, 0, tzinfo=UTC),
        )


def test_the_demo_ledger_balances_against_hand_worked_statements(client):
    call_command("demo_league")
    season = Season.objects.get(league__slug="norwich")
    teams = {t.name: t for t in Team.objects.filter(season=season)}
    _play_two_home_matches(teams["The Adam and Eve"])
    call_command("demo_money")
    call_command("demo_money")  # a second run changes nothing

    def balance(name):
        return selectors.statement(teams[name]).balance

    # The Adam and Eve: £50.00 fee + 2 × £3.00 table money − £50.00 by transfer = £6.00
    adam = selectors.statement(teams["The Adam and Eve"])
    assert [(line.charge, line.credit, line.balance) for line in adam.lines] == [
        (5000, 0, 5000),
        (300, 0, 5300),
        (300, 0, 5600),
        (0, 5000, 600),
    ]
    # Wig and Pen: £50.00 − £30.00 − £30.00 + £30.00 (the second recorded twice) = £20.00
    wig = selectors.statement(teams["Wig and Pen"])
    assert [line.balance for line in wig.lines] == [5000, 2000, -1000, 2000]
    # Fat Cat Cues: £50.00 + a £20.00 fine = £70.00; every other team its £50.00 fee
    assert balance("Fat Cat Cues") == 7000
    others = set(teams) - {"The Adam and Eve", "Wig and Pen", "Fat Cat Cues"}
    assert {balance(name) for name in others} == {5000}
    # Rita Rix (referee) paid her £5.00 sub in cash: £0.00
    rita = Player.objects.get(user__username="referee")
    assert selectors.statement(selectors.player_account(season, rita)).balance == 0

    # The season: 11 teams × £50 + each registered player × £5 + £6 table money + £20 fine
    registered = (
        Registration.objects.filter(season=season, status="active")
        .values("player")
        .distinct()
        .count()
    )
    summary = selectors.agm_summary(season)
    income = dict(summary.income_by_kind)
    assert income == {
        "Team fee": 55000,
        "Player sub": registered * 500,
        "Cup entry fee": 0,
        "Fine": 2000,
        "Table money": 600,
    }
    assert dict(summary.payments_by_method) == {"Cash": 3500, "Bank transfer": 5000, "Other": 0}
    assert summary.outstanding == 55000 + registered * 500 + 600 + 2000 - 8500
    assert summary.in_credit == 0
    # every line adds up: charges less payments is what is outstanding
    assert sum(LedgerEntry.objects.filter(season=season).values_list("amount", flat=True)) == (
        summary.outstanding
    )
    # the treasurer logs in and sees it
    treasurer = get_user_model().objects.get(username="treasurer")
    assert treasurer.check_password("marker-demo")
    client.force_login(treasurer, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("money-summary", args=[season.pk]))
    assert page.status_code == 200 and "£20.00" in page.content.decode()
