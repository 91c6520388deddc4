"""Build a believable demo league (used by `make run`).

Two divisions, eleven teams (one division odd, so it has byes), two teams sharing a
one-table pub, 6–9 players a team, and a season of fixtures. Demo accounts (password
`marker-demo`): `secretary` (staff), `captain` (captain of The Adam and Eve), `referee`
(a registered player of The Adam and Eve).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from leagues import honours, services
from leagues.models import Division, League, Player, Season, Team, Venue
from marker.errors import DomainError

DEMO_PASSWORD = "marker-demo"

PUBS = [
    ("The Adam and Eve", "17 Bishopgate, Norwich NR3 1RZ", 1),
    ("The Wig and Pen", "6 St Martin-at-Palace Plain, Norwich NR3 1RN", 1),
    ("The Fat Cat", "49 West End Street, Norwich NR2 4NA", 2),
    ("The Kings Head", "42 Magdalen Street, Norwich NR3 1JE", 1),
    ("The Plasterers Arms", "43 Cowgate, Norwich NR3 1SZ", 1),
    ("The Rosary Tavern", "95 Rosary Road, Norwich NR1 4BX", 1),
    ("The White Lion", "73 Oak Street, Norwich NR3 3AQ", 1),
    ("The Duke of Wellington", "91 Waterloo Road, Norwich NR3 1EG", 2),
    ("The Murderers", "2 Timber Hill, Norwich NR1 3LB", 1),
    ("The Coach and Horses", "82 Thorpe Road, Norwich NR1 1BA", 1),
]

# (team name, pub index, division index). The Kings Head's one table is home to two teams.
TEAMS = [
    ("The Adam and Eve", 0, 0),
    ("Wig and Pen", 1, 0),
    ("Fat Cat Cues", 2, 0),
    ("Kings Head A", 3, 0),
    ("Plasterers", 4, 0),
    ("Rosary Rockets", 5, 0),
    ("Kings Head B", 3, 1),
    ("White Lion", 6, 1),
    ("Duke of Wellington", 7, 1),
    ("Murderers Row", 8, 1),
    ("Coach and Horses", 9, 1),
]

FIRST = (
    "Alan Barry Carol Dave Emma Frank Gail Harry Irene Jack Kate Liam Mandy Nigel Olive Pete "
    "Rita Steve Tina Vince Wendy Colin Dawn Eric Fiona Gary Helen Ian Julie Keith Linda Mark "
    "Nora Oscar Paula Ray Sue Terry Una Wayne Yvonne Brian Cheryl Derek Elaine Graham Hazel"
).split()
LAST = (
    "Adcock Bloomfield Cubitt Dye Eke Fiske Gotts Howlett Ives Jary Kerrison Loades Mayes "
    "Nobbs Oakes Pegg Quantrill Rix Sayer Thirtle Utting Vincent Wegg Youngs Bunn Curson Gedge"
).split()


class Command(BaseCommand):
    help = "Load a believable demo league (skips if it exists; --reset rebuilds it)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete and rebuild the demo.")
        parser.add_argument("--seed", type=int, default=7)

    @transaction.atomic
    def handle(self, *args, reset: bool = False, seed: int = 7, **options):
        if League.objects.filter(slug="norwich").exists():
            if not reset:
                self.stdout.write("Demo league already loaded (use --reset to rebuild).")
                return
            League.objects.filter(slug="norwich").delete()
            Team.objects.filter(season__isnull=True).delete()
        build_demo_league(seed=seed)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo league loaded. Log in as secretary, captain or referee "
                f"(password {DEMO_PASSWORD})."
            )
        )


def _user(username: str, first: str, last: str, *, staff: bool = False):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username,
        defaults={"first_name": first, "last_name": last, "email": f"{username}@example.org"},
    )
    if created or not user.has_usable_password():
        user.set_password(DEMO_PASSWORD)
    user.is_staff = user.is_staff or staff
    user.is_superuser = user.is_superuser or staff
    user.save()
    return user


def build_demo_league(*, seed: int = 7, today: date | None = None) -> League:
    rng = random.Random(seed)
    today = today or timezone.localdate()
    league = League.objects.create(
        name="Norwich 4-Pin Bar Billiards League", slug="norwich", match_night=1
    )
    start = today - timedelta(days=today.weekday()) - timedelta(weeks=3)
    season = Season.objects.create(
        league=league,
        name=f"{start.year}/{(start.year + 1) % 100:02d}",
        slug="current",
        status=Season.Status.REGISTRATION,
        start_date=start,
    )
    divisions = [
        Division.objects.create(season=season, name="Premier Division", rank=1),
        Division.objects.create(season=season, name="Division One", rank=2),
    ]
    venues = []
    for name, address, tables in PUBS:
        venue, _ = Venue.objects.get_or_create(
            name=name, defaults={"address": address, "tables": tables}
        )
        venues.append(venue)
    secretary = _user("secretary", "Sally", "Secretary", staff=True)
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 120)
    for index, (team_name, pub, division) in enumerate(TEAMS):
        if index == 0:
            captain = _user("captain", "Carol", "Cubitt")
        else:
            slug = team_name.lower().replace(" ", "-")
            first, last = names.pop().split(" ", 1)
            captain = _user(f"captain-{slug}", first, last)
        team = services.team_register(
            season=season,
            name=team_name,
            venue=venues[pub],
            captain=captain,
            division=divisions[division],
        )
        for _ in range(rng.randint(5, 7)):  # with the captain: 6–8 a team (9 with the referee)
            services.roster_add_player(team=team, name=names.pop(), someone_else=True)
        if index == 0:
            referee = _user("referee", "Rita", "Rix")
            player = Player.objects.create(user=referee, name="Rita Rix", email=referee.email)
            services.roster_add_player(team=team, player=player)
    services.fixtures_generate(season=season, start_date=start)
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    define_demo_awards(season, secretary)
    return league


def define_demo_awards(season: Season, secretary) -> None:
    """The season's awards, with the eligibility rules a league would set (docs/honours.md);
    those from statistics only when the season's game declares them."""
    half = {"min_fixtures_percent": 50}
    awards = [
        {"name": "Highest break", "measure": "stat", "stat": "high_break", **half},
        {"name": "Most 200s", "measure": "stat", "stat": "pots_200", **half},
        {"name": "Best win rate", "measure": "win_rate", "min_frames": 4, **half},
        {"name": "Best average", "measure": "average", **half},
    ]
    for award in awards:
        try:
            honours.award_define(season=season, actor=secretary, **award)
        except DomainError:
            continue  # a game without that statistic
