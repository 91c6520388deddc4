"""The demo league's money (used by `make run`, after the other demo commands): a
treasurer, the season's fees raised, some payments, a fine and a reversal, so the ledger,
the statements and the AGM summary have something to show.

Norwich's fees (the hand-worked statements in tests/money/test_demo.py follow from them):
team fee £50, player sub £5, table money £3 a home match played, £20 for postponing
without a new date (after 14 days). Then:

- The Adam and Eve pay their £50 team fee by bank transfer;
- Rita Rix (`referee`) pays her £5 sub in cash;
- the Wig and Pen pay £30 in cash, and the same £30 is recorded twice by mistake, so the
  second is reversed;
- Fat Cat Cues are fined £20 by hand for postponing without a new date.

Login `treasurer` (password `marker-demo`) is Norwich's treasurer.
"""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from leagues.models import League, LeagueRole, Player, Team

from ...models import FeeSchedule, LedgerEntry
from ...services import (
    charge_add,
    entry_reverse,
    payment_record,
    schedule_set,
    season_fees_raise,
)

DEMO_PASSWORD = "marker-demo"


class Command(BaseCommand):
    help = "Give the demo league a season's fees, some payments, a fine and a reversal."

    def handle(self, *args, **options):
        league = League.objects.filter(slug="norwich").first()
        if league is None:
            raise CommandError("Load the demo league first: manage.py demo_league")
        season = league.seasons.order_by("-start_date").first()
        if FeeSchedule.objects.filter(season=season).exists():
            self.stdout.write("Demo money already loaded.")
            return
        build_demo_money(season)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo money loaded: fees raised, payments, a fine and a reversal "
                f"(log in as treasurer, password {DEMO_PASSWORD})."
            )
        )


@transaction.atomic
def build_demo_money(season, *, now=None) -> None:
    now = now or timezone.now()
    user_model = get_user_model()
    treasurer, created = user_model.objects.get_or_create(
        username="treasurer",
        defaults={"first_name": "Terry", "last_name": "Tanner", "email": "treasurer@example.org"},
    )
    if created:
        treasurer.password = make_password(DEMO_PASSWORD)
        treasurer.save(update_fields=["password"])
    LeagueRole.objects.get_or_create(
        league=season.league, user=treasurer, role=LeagueRole.Role.TREASURER
    )
    schedule_set(
        actor=treasurer,
        season=season,
        team_fee=5000,
        player_sub=500,
        table_money=300,
        postponement_fine=2000,
        fine_after_days=14,
        now=now,
    )
    season_fees_raise(actor=treasurer, season=season, now=now)
    team = {t.name: t for t in Team.objects.filter(season=season)}
    day = timezone.localdate(now)
    payment_record(
        actor=treasurer,
        season=season,
        team=team["The Adam and Eve"],
        amount=5000,
        method=LedgerEntry.Method.TRANSFER,
        paid_on=day,
        reference="ADAM EVE FEES",
        description="Team fee",
        now=now,
    )
    rita = Player.objects.get(user__username="referee")
    payment_record(
        actor=treasurer,
        season=season,
        player=rita,
        amount=500,
        method=LedgerEntry.Method.CASH,
        paid_on=day,
        description="Sub, paid on match night",
        now=now,
    )
    for _ in range(2):
        twice = payment_record(
            actor=treasurer,
            season=season,
            team=team["Wig and Pen"],
            amount=3000,
            method=LedgerEntry.Method.CASH,
            paid_on=day,
            description="Towards the team fee",
            now=now,
        )
    entry_reverse(actor=treasurer, entry=twice, reason="recorded twice", now=now)
    charge_add(
        actor=treasurer,
        season=season,
        team=team["Fat Cat Cues"],
        kind=LedgerEntry.Kind.FINE,
        amount=2000,
        description=f"Postponed the match of {date(2026, 11, 10):%d %b} without a new date",
        now=now,
    )
