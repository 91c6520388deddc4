"""Shared fixtures: a small league with one user per role."""

from __future__ import annotations

import copy
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import TypeVar
from urllib.parse import urlparse

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection, transaction
from kombu import pools

from leagues.fixtures import services as fixture_services
from leagues.models import Season
from leagues.teams import services as team_services
from tests.factories import (
    DivisionFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
    make_secretary,
)

# Helper modules (not test files, imported by the tests after this conftest) whose asserts
# still deserve pytest's detailed messages.
pytest.register_assert_rewrite(
    "tests.frames.matchnight_helpers", "tests.frames.pad_helpers", "tests.frames.card_helpers"
)

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _skip_postgres_only(request):
    """Tests marked `postgres` need real concurrency; on SQLite they are skipped (not in CI)."""
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")


@dataclass
class SmallLeague:
    season: Season
    premier: object
    second: object
    teams: list
    captain: object  # captain of teams[0]
    vice_captain: object  # vice-captain of teams[0]
    other_captain: object  # captain of teams[1]
    player_user: object  # a registered player of teams[0] (the referee role)
    secretary: object
    outsider: object  # signed in, no team


def make_league(teams_per_division: int = 4, players_per_team: int = 6) -> SmallLeague:
    season = SeasonFactory(status=Season.Status.REGISTRATION, start_date=date(2026, 9, 1))
    premier = DivisionFactory(season=season, name="Premier", rank=1)
    second = DivisionFactory(season=season, name="Second", rank=2)
    shared_pub = VenueFactory(name=f"Shared Pub {season.pk}", tables=1)
    teams = []
    for division in (premier, second):
        for i in range(teams_per_division):
            venue = shared_pub if i == 0 else VenueFactory()
            team = TeamFactory(
                division=division, season=season, venue=venue, name=f"{division.name} Team {i + 1}"
            )
            for _ in range(players_per_team):
                team_services.roster_add_player(team=team, player=PlayerFactory())
            teams.append(team)
    first = teams[0]
    vice = UserFactory(username=f"vice{season.pk}")
    first.vice_captain = vice
    first.save(update_fields=["vice_captain"])
    player_user = UserFactory(username=f"player{season.pk}")
    team_services.roster_add_player(
        team=first, player=PlayerFactory(user=player_user, name="Rita Referee")
    )
    secretary = make_secretary(season.league, username=f"secretary{season.pk}")
    outsider = UserFactory(username=f"outsider{season.pk}")
    fixture_services.fixtures_generate(season=season, start_date=date(2026, 9, 1))
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    return SmallLeague(
        season,
        premier,
        second,
        teams,
        first.captain,
        vice,
        teams[1].captain,
        player_user,
        secretary,
        outsider,
    )


@pytest.fixture
def league(db) -> SmallLeague:
    return make_league()


# A module whose tests only read the league (any write of theirs rolls back with the test)
# builds it once instead of once a test: it overrides `league` with
#
#     @pytest.fixture
#     def league(league_of_the_module):
#         return league_of_the_module
#
# and may set LEAGUE_SIZE = {"teams_per_division": ..., "players_per_team": ...}.
# Not for tests on `transactional_db` or `live_server` (their flush would empty the
# module's transaction), nor threads or real workers (other connections cannot see it).


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture (`yield from built_once(django_db_blocker, build)`):
    `build()` runs in a transaction of the module's own, rolled back when the module's last
    test is done; each test's `db` transaction is a savepoint inside it."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(scope="module")
def league_built_once(request, django_db_setup, django_db_blocker) -> Iterator[SmallLeague]:
    """The small league built once for the module (sizes from its LEAGUE_SIZE)."""
    sizes = getattr(request.module, "LEAGUE_SIZE", {})
    yield from built_once(django_db_blocker, lambda: make_league(**sizes))


@pytest.fixture
def league_of_the_module(league_built_once, db) -> SmallLeague:
    """The module's league, its rows as built; a deep copy of its objects for each test
    (as Django does for setUpTestData), so a test changing one in memory changes it for
    itself only."""
    return copy.deepcopy(league_built_once)


# ------------------------------------------------------------ a real worker on Redis


def worker_index() -> int:
    """This process's number under pytest-xdist (gw0 -> 0, gw1 -> 1), 0 without it."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw") or 0)


def worker_redis_url(base: str, index: int) -> str:
    """`base` with its database number moved up by `index`: each xdist worker has a Redis
    database of its own (TEST_REDIS_URL names the first; a run of -n N uses N of them)."""
    url = urlparse(base)
    path = url.path.strip("/")
    if path and not path.isdigit():
        raise ValueError(f"TEST_REDIS_URL must name a database by number, not {path!r}")
    return url._replace(path=f"/{int(path or 0) + index}").geturl()


REDIS_URL = worker_redis_url(
    os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14"), worker_index()
)
_CONF_KEYS = ("broker_url", "task_always_eager", "result_backend", "task_default_queue")
# Cached on the app's AMQP helper from the configuration at first use.
_AMQP_CACHES = ("queues", "default_queue", "router", "default_exchange")


def _redis_up() -> bool:
    url = urlparse(REDIS_URL)
    try:
        with socket.create_connection((url.hostname, url.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def _reset_celery_app(app) -> None:
    """Forget connections and routing built from the previous configuration."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    amqp = app.amqp
    if getattr(amqp, "_producer_pool", None) is not None:
        amqp._producer_pool = None
    for name in _AMQP_CACHES:
        amqp.__dict__.pop(name, None)
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)
    pools.reset()  # kombu's global producer pools, keyed by connection


@pytest.fixture
def redis_worker():
    """A real Celery worker (solo pool, in a thread) consuming from Redis on a queue of its
    own. Skipped when Redis is not running locally; a failure in CI, never a skip."""
    from config.celery import app

    if not _redis_up():
        if IN_CI:
            pytest.fail(f"Redis is required in CI at {REDIS_URL}")
        pytest.skip("Redis is not running")
    saved = {key: app.conf[key] for key in _CONF_KEYS}
    app.conf.update(
        broker_url=REDIS_URL,
        task_always_eager=False,
        result_backend=REDIS_URL,
        task_default_queue=f"marker-test-{uuid.uuid4().hex[:12]}",
    )
    _reset_celery_app(app)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield app
    finally:
        app.conf.update(saved)
        _reset_celery_app(app)


# ------------------------------------------------------------------ the browser
# Playwright's sync API runs an event loop in the main thread for as long as the browser is
# open (one browser for the whole session), and the tests use the ORM beside it: Django's
# guard against the ORM inside an event loop must stand down in tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is required in CI (Debian's chromium package)")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser, live_server):
    """`phone(user=None, **options)`: a new phone-sized browser context, signed in as
    `user` (a session cookie made on the server) when given."""
    from django.test import Client

    contexts = []

    def make(user=None, **options):
        context = browser.new_context(base_url=live_server.url, **PHONE, **options)
        context.set_default_timeout(15_000)
        if user is not None:
            client = Client()
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
            context.add_cookies(
                [
                    {
                        "name": "sessionid",
                        "value": client.cookies["sessionid"].value,
                        "url": live_server.url,
                    }
                ]
            )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
