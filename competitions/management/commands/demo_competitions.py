"""The demo league's competitions (used by `make run`): a team Cup with its Plate, a
Singles in groups of three, and a Pairs event, drawn by commit and reveal and part played,
through the same services the app uses. The same every time (fixed secrets)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from competitions import draw as cupdraw
from competitions import services
from competitions.models import Competition, Tie
from leagues.models import League, Registration


def _drawn(competition: Competition, secretary, secret: str, now) -> Competition:
    services.draw_commit(
        actor=secretary, competition=competition, commitment=cupdraw.commitment(secret), now=now
    )
    services.draw_reveal(actor=secretary, competition=competition, secret=secret, now=now)
    return services.draw_perform(actor=secretary, competition=competition, now=now)


class Command(BaseCommand):
    help = "Create the demo league's Cup, Plate, Singles (groups) and Pairs, drawn and part played."

    def handle(self, *args, **options):
        league = League.objects.filter(slug="norwich").first()
        if league is None:
            raise CommandError("Load the demo league first: manage.py demo_league")
        season = league.seasons.order_by("-start_date").first()
        if Competition.objects.filter(season=season).exists():
            self.stdout.write("Demo competitions already made.")
            return
        secretary = get_user_model().objects.get(username="secretary")
        now = timezone.now()
        plate = services.competition_create(
            actor=secretary, season=season, name="Plate", kind="team_knockout", now=now
        )
        cup = services.competition_create(
            actor=secretary,
            season=season,
            name="Cup",
            kind="team_knockout",
            plate_rule="first_round_losers",
            plate=plate,
            now=now,
        )
        for team in season.teams.order_by("name"):
            services.entry_create(actor=secretary, competition=cup, team=team, now=now)
        cup = _drawn(cup, secretary, "demo cup secret", now)
        for number, rnd in enumerate(cup.rounds.order_by("number"), start=1):
            services.round_set_dates(
                actor=secretary,
                round=rnd,
                date=(now + timedelta(weeks=3 * number)).date(),
                deadline=now + timedelta(weeks=3 * number, days=7),
                now=now,
            )
        players = [
            r.player
            for r in Registration.objects.filter(season=season, status="active")
            .select_related("player")
            .order_by("player__name")
        ]
        singles = services.competition_create(
            actor=secretary,
            season=season,
            name="Singles",
            kind="group_knockout",
            group_size=3,
            group_qualifiers=1,
            group_race_to=2,
            best_of=3,
            final_best_of=5,
            now=now,
        )
        for player in players[:12]:
            services.entry_create(actor=secretary, competition=singles, player=player, now=now)
        singles = _drawn(singles, secretary, "demo singles secret", now)
        for i, tie in enumerate(
            Tie.objects.filter(group__competition=singles).order_by("group__number", "slot")
        ):
            if i % 3 == 2:
                continue  # some group matches still to play
            frames = [
                {"home": 900 + 10 * i, "away": 400},
                {"home": 300, "away": 800},
                {"home": 1000, "away": 650 + i},
            ]
            services.tie_record_paper(actor=secretary, tie=tie, frames=frames, now=now)
        pairs = services.competition_create(
            actor=secretary, season=season, name="Pairs", kind="pairs", best_of=3, now=now
        )
        rest = players[12:]
        for a, b in zip(rest[0::2][:6], rest[1::2][:6], strict=False):
            services.entry_create(actor=secretary, competition=pairs, player=a, partner=b, now=now)
        pairs = _drawn(pairs, secretary, "demo pairs secret", now)
        first = (
            Tie.objects.filter(round__competition=pairs, status="scheduled")
            .order_by("slot")
            .first()
        )
        if first is not None:
            services.tie_record_paper(
                actor=secretary,
                tie=first,
                frames=[
                    {"home": 1200, "away": 700},
                    {"home": 950, "away": 1000},
                    {"home": 1400, "away": 300},
                ],
                now=now,
            )
        self.stdout.write("Demo competitions: Cup, Plate, Singles (groups), Pairs.")
