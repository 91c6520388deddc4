"""Build two believable demo leagues (used by `make run`).

One function per league (`DEMO_LEAGUES`: its slug and its builder); each is built once.
Norwich's 4-pin bar billiards league: two divisions, eleven teams (one division odd, so it
has byes), two teams sharing a one-table pub, 6–9 players a team, and a season of
fixtures, in the Norwich format (the hat). And a small second league in another game and
format, so a newcomer sees both: the Chester & District Bagatelle League, Northern
(Chester) bagatelle, one division of four teams, six singles a match in a fixed order from
the captains' numbered lineups. Demo accounts (password `marker-demo`): `admin` (the site
administrator), `secretary` (secretary of both leagues), `captain` (captain of The Adam and
Eve), `referee` (a registered player of The Adam and Eve), `bagatelle` (captain of The
Boathouse, Chester), and every other team's captain: `captain-<team>` in Norwich
(`captain-wig-and-pen`), `captain-chester-<n>` in Chester; README.md lists them all.

A third, small 4-pin league, the Great Yarmouth & District 4-Pin League (four teams, its
Red Lion fielding A and B teams), and the Norfolk County Bar Billiards Association above
it and Norwich, whose competitions officer is `county`: the county championship across
the two leagues is `demo_competitions`'.

Where to play (docs/directory.md): every demo pub gets its town, coordinates, tables and
league night, and The Adam and Eve's captain has a published "Join a team" post.
"""

from __future__ import annotations

import random
from datetime import date, time, timedelta
from decimal import Decimal
from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from leagues.directory import services as directory
from leagues.fixtures import services as fixture_services
from leagues.models import (
    DirectoryPost,
    Division,
    League,
    LeagueRole,
    Organisation,
    OrganisationRole,
    Player,
    Season,
    Team,
    Venue,
)
from leagues.teams import services as team_services
from marker.formats import PRESETS

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
    help = "Load believable demo leagues (skips those loaded; --reset rebuilds them)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete and rebuild the demo.")
        parser.add_argument("--seed", type=int, default=7)

    @transaction.atomic
    def handle(self, *args, reset: bool = False, seed: int = 7, **options):
        _user("admin", "Ada", "Admin", site_admin=True)
        for slug, build in DEMO_LEAGUES:
            if League.objects.filter(slug=slug).exists():
                if not reset:
                    self.stdout.write(f"Demo league {slug} already loaded (--reset rebuilds it).")
                    continue
                League.objects.filter(slug=slug).delete()
            build(seed=seed)
        build_demo_organisation()
        build_demo_directory()
        self.stdout.write(
            self.style.SUCCESS(
                "Demo leagues loaded. Log in as admin, secretary, captain, referee, "
                "bagatelle or any team's captain (README lists them; "
                f"password {DEMO_PASSWORD})."
            )
        )


@cache
def _demo_password_hash() -> str:
    """The demo password hashed once: every demo account shares it, and hashing it for
    each of some twenty accounts (PBKDF2, a second each) was most of this command's time."""
    return make_password(DEMO_PASSWORD)


def _user(username: str, first: str, last: str, *, site_admin: bool = False):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username,
        defaults={"first_name": first, "last_name": last, "email": f"{username}@example.org"},
    )
    if created or not user.has_usable_password():
        user.password = _demo_password_hash()
    user.is_staff = user.is_staff or site_admin
    user.is_superuser = user.is_superuser or site_admin
    user.save()
    return user


def _officer(league: League, user, role: str = LeagueRole.Role.SECRETARY) -> None:
    LeagueRole.objects.get_or_create(league=league, user=user, role=role)


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
    secretary = _user("secretary", "Sally", "Secretary")
    _officer(league, secretary)
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 120)
    for index, (team_name, pub, division) in enumerate(TEAMS):
        if index == 0:
            captain = _user("captain", "Carol", "Cubitt")
        else:
            slug = team_name.lower().replace(" ", "-")
            first, last = names.pop().split(" ", 1)
            captain = _user(f"captain-{slug}", first, last)
        team = team_services.team_register(
            season=season,
            name=team_name,
            venue=venues[pub],
            captain=captain,
            division=divisions[division],
        )
        for _ in range(rng.randint(5, 7)):  # with the captain: 6–8 a team (9 with the referee)
            team_services.roster_add_player(team=team, name=names.pop(), someone_else=True)
        if index == 0:
            referee = _user("referee", "Rita", "Rix")
            player = Player.objects.create(user=referee, name="Rita Rix", email=referee.email)
            team_services.roster_add_player(team=team, player=player)
    fixture_services.fixtures_generate(season=season, start_date=start)
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    return league


# ------------------------------------------------------------- the second league: Chester

CHESTER_SLUG = "chester"
CHESTER_PUBS = [
    ("The Boathouse", "The Groves, Chester CH1 1SD"),
    ("The Albion Inn", "4 Park Street, Chester CH1 1RN"),
    ("The Pied Bull", "57 Northgate Street, Chester CH1 2HQ"),
    ("The Old Harkers Arms", "1 Russell Street, Chester CH3 5AL"),
]


def build_demo_bagatelle_league(*, seed: int = 7, today: date | None = None) -> League:
    """A small second league in another game and format: Northern (Chester) bagatelle,
    one division of four teams, six singles a match in a fixed order from the captains'
    numbered lineups (the "Bagatelle: 6 singles, fixed order" preset)."""
    rng = random.Random(seed + 1)
    today = today or timezone.localdate()
    league = League.objects.create(
        name="Chester & District Bagatelle League",
        slug=CHESTER_SLUG,
        match_night=3,
        game_id="northern_bagatelle",
    )
    start = today - timedelta(days=today.weekday()) - timedelta(weeks=2) + timedelta(days=3)
    season = Season.objects.create(
        league=league,
        name=f"{start.year}/{(start.year + 1) % 100:02d}",
        slug="current",
        status=Season.Status.REGISTRATION,
        start_date=start,
        game_id="northern_bagatelle",
        match_format=PRESETS["bagatelle_fixed"],
    )
    division = Division.objects.create(season=season, name="Division One", rank=1)
    _officer(league, _user("secretary", "Sally", "Secretary"))
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 40)
    for index, (pub, address) in enumerate(CHESTER_PUBS):
        venue, _ = Venue.objects.get_or_create(name=pub, defaults={"address": address, "tables": 1})
        if index == 0:
            captain = _user("bagatelle", "Bella", "Bagnall")
        else:
            first, last = names.pop().split(" ", 1)
            captain = _user(f"captain-chester-{index}", first, last)
        team = team_services.team_register(
            season=season, name=pub, venue=venue, captain=captain, division=division
        )
        for _ in range(rng.randint(3, 4)):  # with the captain: 4–5 a team
            team_services.roster_add_player(team=team, name=names.pop(), someone_else=True)
    fixture_services.fixtures_generate(season=season, start_date=start)
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    return league


# ------------------------------------------------- the third league, and the county above

YARMOUTH_SLUG = "great-yarmouth"
YARMOUTH_TEAMS = [
    ("Red Lion A", "The Red Lion", "Southtown Road, Great Yarmouth NR31 0JB"),
    ("Red Lion B", "The Red Lion", "Southtown Road, Great Yarmouth NR31 0JB"),
    ("Feathers", "The Feathers", "Market Gates, Great Yarmouth NR30 2AX"),
    ("Mariners", "The Mariners Tavern", "69 Howard Street South, Great Yarmouth NR30 1LN"),
]
COUNTY_SLUG = "norfolk"
#: The demo county's ranking minimum: two nights played give each player a few frames.
DEMO_RANKING_MIN_FRAMES = 2


def build_demo_yarmouth_league(*, seed: int = 7, today: date | None = None) -> League:
    """A small second 4-pin league (the county championship draws on both): one division
    of four teams, the Red Lion's A and B sharing its table."""
    rng = random.Random(seed + 2)
    today = today or timezone.localdate()
    league = League.objects.create(
        name="Great Yarmouth & District 4-Pin League", slug=YARMOUTH_SLUG, match_night=2
    )
    start = today - timedelta(days=today.weekday()) - timedelta(weeks=3) + timedelta(days=1)
    season = Season.objects.create(
        league=league,
        name=f"{start.year}/{(start.year + 1) % 100:02d}",
        slug="current",
        status=Season.Status.REGISTRATION,
        start_date=start,
    )
    division = Division.objects.create(season=season, name="Division One", rank=1)
    _officer(league, _user("secretary", "Sally", "Secretary"))
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 40)
    for index, (team_name, pub, address) in enumerate(YARMOUTH_TEAMS, start=1):
        venue, _ = Venue.objects.get_or_create(name=pub, defaults={"address": address, "tables": 1})
        first, last = names.pop().split(" ", 1)
        captain = _user(f"captain-yarmouth-{index}", first, last)
        team = team_services.team_register(
            season=season, name=team_name, venue=venue, captain=captain, division=division
        )
        for _ in range(5):  # with the captain: six a team, a full side for a 4-pin night
            team_services.roster_add_player(team=team, name=names.pop(), someone_else=True)
    fixture_services.fixtures_generate(season=season, start_date=start)
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    return league


def build_demo_organisation() -> Organisation:
    """The Norfolk County Bar Billiards Association, Norwich's and Great Yarmouth's
    leagues its members, `county` its competitions officer (built again if missing)."""
    organisation, _ = Organisation.objects.get_or_create(
        slug=COUNTY_SLUG,
        defaults={
            "name": "Norfolk County Bar Billiards Association",
            "about": "The county's 4-pin leagues: the County Championship for A and B teams, "
            "settled on total scores made.",
            # Its bar billiards ranking (demo_match_nights plays two nights: a few frames each).
            "ranked_games": ["bar_billiards_4pin"],
            "ranking_min_frames": DEMO_RANKING_MIN_FRAMES,
        },
    )
    organisation.leagues.add(*League.objects.filter(slug__in=["norwich", YARMOUTH_SLUG]))
    OrganisationRole.objects.get_or_create(
        organisation=organisation,
        user=_user("county", "Connie", "Curson"),
        role=OrganisationRole.Role.COMPETITIONS_OFFICER,
    )
    return organisation


#: The demo's leagues: (slug, builder). Another league joins with its own builder.
DEMO_LEAGUES = [
    ("norwich", build_demo_league),
    (CHESTER_SLUG, build_demo_bagatelle_league),
    (YARMOUTH_SLUG, build_demo_yarmouth_league),
]


# --------------------------------------------------------------- where to play (directory)

#: The demo pubs' towns and (approximate) coordinates, and notes on their tables.
DIRECTORY: dict[str, tuple[str, str, str, str]] = {
    "The Adam and Eve": ("Norwich", "52.63380", "1.30170", ""),
    "The Wig and Pen": ("Norwich", "52.63350", "1.29950", ""),
    "The Fat Cat": ("Norwich", "52.62920", "1.27950", "one in the back room"),
    "The Kings Head": ("Norwich", "52.63650", "1.29750", "shared by the A and B teams"),
    "The Plasterers Arms": ("Norwich", "52.63600", "1.30050", ""),
    "The Rosary Tavern": ("Norwich", "52.62900", "1.31400", ""),
    "The White Lion": ("Norwich", "52.63700", "1.29000", ""),
    "The Duke of Wellington": ("Norwich", "52.64450", "1.29350", "one upstairs"),
    "The Murderers": ("Norwich", "52.62650", "1.29450", ""),
    "The Coach and Horses": ("Norwich", "52.62750", "1.31250", ""),
    "The Boathouse": ("Chester", "53.18750", "-2.88250", "by the river window"),
    "The Albion Inn": ("Chester", "53.18850", "-2.88650", ""),
    "The Pied Bull": ("Chester", "53.19350", "-2.89250", ""),
    "The Old Harkers Arms": ("Chester", "53.18800", "-2.88500", ""),
    "The Red Lion": ("Great Yarmouth", "52.60300", "1.72200", "shared by the A and B teams"),
    "The Feathers": ("Great Yarmouth", "52.60850", "1.72650", ""),
    "The Mariners Tavern": ("Great Yarmouth", "52.60400", "1.72900", ""),
}


def build_demo_directory(*, now=None) -> None:
    """Each demo pub's town, coordinates, tables (the game of the league playing there)
    and league night; and one published "Join a team" post (kept if there is one)."""
    now = now or timezone.now()
    admin = _user("admin", "Ada", "Admin", site_admin=True)
    teams = (
        Team.objects.filter(season__league__slug__in=[slug for slug, _ in DEMO_LEAGUES])
        .select_related("venue", "season__league")
        .order_by("season__league_id", "name")
    )
    for team in teams:
        venue, league = team.venue, team.season.league
        town, lat, lon, notes = DIRECTORY.get(venue.name, ("", "", "", ""))
        if town and not venue.town:
            directory.venue_details_set(
                venue=venue,
                actor=admin,
                town=town,
                address=venue.address,
                notes="Visiting teams welcome; ask at the bar for the balls.",
                latitude=Decimal(lat),
                longitude=Decimal(lon),
            )
        directory.venue_table_set(
            venue=venue, actor=admin, game_id=team.season.game_id, count=venue.tables, notes=notes
        )
        directory.venue_night_set(
            venue=venue,
            actor=admin,
            weekday=league.match_night,
            starts_at=time(19, 30),
            note=f"{league.name}: league night",
        )
    wanted = (
        Team.objects.filter(season__league__slug="norwich", captain__username="captain")
        .select_related("season__league")
        .first()
    )
    if wanted is None or DirectoryPost.objects.filter(team=wanted).exists():
        return
    team = wanted
    post = directory.post_create(
        league=team.season.league,
        kind=DirectoryPost.Kind.JOIN_TEAM,
        team=team,
        actor=team.captain,
        title="Two players wanted for Tuesday nights",
        body="The Adam and Eve plays 4-pin bar billiards on Tuesdays from 7.30pm. Beginners "
        "welcome: we will show you the rules and lend you a cue.",
        now=now,
    )
    secretary = get_user_model().objects.get(username="secretary")
    directory.post_publish(post=post, actor=secretary, now=now)
