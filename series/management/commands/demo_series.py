"""The demo league's Grand Prix (used by `make run`, after the other demo commands): six
off-system opens, best four counting, the sixth a major weighted 1.5; four played, so the
standings explain what each player needs in Open 5.

Points by round reached: winner 25, runner-up 18, semi-final 12, quarter-final 8, 2 for
going out earlier. Tie-breakers: most wins, best single result, head-to-head.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from leagues.models import League, Player, Registration

from ... import services
from ... import standings as calc
from ...models import Series

#: Each player's placing in Opens 1 to 4 (None: did not play), by their order on the
#: season's rosters.
PLACINGS = (
    (1, 3, 2, 5),
    (2, 1, 3, 3),
    (3, 2, 1, 1),
    (5, 3, 2, 3),
    (3, 5, 3, 5),
    (5, 5, None, 2),
    (9, None, 5, 9),
    (None, 9, 5, 5),
)


class Command(BaseCommand):
    help = "Give the demo league a Grand Prix: six opens, best four, four played."

    def handle(self, *args, **options):
        league = League.objects.filter(slug="norwich").first()
        if league is None:
            raise CommandError("Load the demo league first: manage.py demo_league")
        if Series.objects.filter(league=league).exists():
            self.stdout.write("Demo ranking series already loaded.")
            return
        series = build_demo_series(league)
        self.stdout.write(self.style.SUCCESS(f"Demo ranking series loaded: {series.name}."))


@transaction.atomic
def build_demo_series(league: League) -> Series:
    secretary = get_user_model().objects.get(username="secretary")
    season = league.seasons.order_by("-start_date").first()
    series = services.series_create(
        actor=secretary,
        owner=league,
        name="Grand Prix",
        season=season.name if season is not None else "",
        best_n=4,
        points_table=[25, 18, 12, 8],
        appearance_points=Decimal(2),
        tie_breakers=[calc.MOST_WINS, calc.BEST_SINGLE, calc.HEAD_TO_HEAD],
    )
    ids = (
        Registration.objects.filter(season=season, status=Registration.Status.ACTIVE)
        .order_by("id")
        .values_list("player_id", flat=True)
    )
    players = list(Player.objects.filter(pk__in=list(ids)).order_by("id")[: len(PLACINGS)])
    for n in range(1, 7):
        event = services.series_event_add(
            actor=secretary,
            series=series,
            name="Masters (major)" if n == 6 else f"Open {n}",
            weight=Decimal("1.5") if n == 6 else Decimal(1),
        )
        if n > 4:
            continue
        for player, row in zip(players, PLACINGS, strict=False):
            placing = row[n - 1]
            if placing is not None:
                services.series_result_set(
                    actor=secretary, event=event, player=player, placing=placing
                )
        services.series_event_update(actor=secretary, event=event, complete=True)
    return series
