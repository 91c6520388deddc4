"""Public reads from a streaming replica (marker/replica.py): which requests read from it,
that a writer reads its own writes on the primary, and that reads fall back to the
primary when the replica is down, lagging, or dies during a request.

The `replica` alias here is a second connection to the test database (a real replica is
not needed for the routing: the router and the middleware decide on the alias, and the
queries each connection ran show where a page read). `deploy/rehearse` runs the real
thing: a streaming replica behind PgBouncer, killed mid-run.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from leagues.models import League
from marker import replica, versions
from marker.prepared import prepared_cursor

# The pages' tests commit their rows (a second connection sees only those).
on_both = pytest.mark.django_db(transaction=True, databases=["default", "replica"])
pytestmark = [
    pytest.mark.skipif(
        connections.settings["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="a replica is a PostgreSQL standby",
    ),
]

REPLICA = replica.REPLICA


@pytest.fixture
def replica_db(settings):
    """A `replica` alias (the test database, through its own connection) and the router;
    `replica_db(PORT="1")` makes one that cannot be reached."""
    settings.DATABASE_ROUTERS = ["marker.replica.ReplicaRouter"]
    settings.REPLICA_READS = True
    settings.REPLICA_CHECK_SECONDS = 60  # the state found stays until a test changes it
    kept = dict(connections.settings[REPLICA])

    def make(**overrides: str) -> None:
        connections[REPLICA].close()
        del connections[REPLICA]
        connections.settings[REPLICA] = {**kept, **overrides}
        replica.forget()
        replica.status(force=True)  # as the check's thread would find it

    make()
    yield make
    make()


@pytest.fixture
def usable_replica(settings):
    """The router, and a replica found usable a moment ago (no connection needed)."""
    settings.DATABASE_ROUTERS = ["marker.replica.ReplicaRouter"]
    settings.REPLICA_READS = True
    settings.REPLICA_CHECK_SECONDS = 60
    replica._status = replica.Status(True, 0.0, time.monotonic())
    yield
    replica.forget()


def queries(alias: str) -> CaptureQueriesContext:
    return CaptureQueriesContext(connections[alias])


# ------------------------------------------------------------------------ the router


@pytest.mark.django_db
def test_without_a_replica_everything_reads_the_primary(settings):
    assert not replica.configured()
    settings.DATABASE_ROUTERS = ["marker.replica.ReplicaRouter"]
    with replica.replica_reads():
        assert router.db_for_read(League) == DEFAULT_DB_ALIAS


@pytest.mark.django_db
def test_a_public_read_goes_to_the_replica_and_writes_to_the_primary(usable_replica):
    assert router.db_for_read(League) == DEFAULT_DB_ALIAS  # no request allows it
    with replica.replica_reads() as reads:
        assert router.db_for_read(League) == REPLICA
        assert reads.used
        assert router.db_for_read(Session) == DEFAULT_DB_ALIAS  # sessions: primary only
        assert router.db_for_write(League) == DEFAULT_DB_ALIAS
        # Having written, the request reads its own write.
        assert router.db_for_read(League) == DEFAULT_DB_ALIAS
    assert router.allow_migrate(REPLICA, "leagues") is False
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "leagues") is True


@pytest.mark.django_db
def test_reads_in_a_transaction_go_to_the_primary(usable_replica):
    with replica.replica_reads():
        with transaction.atomic():
            assert router.db_for_read(League) == DEFAULT_DB_ALIAS
        assert router.db_for_read(League) == REPLICA


@pytest.mark.django_db
def test_reads_after_the_live_versions_go_to_the_primary(usable_replica):
    with replica.replica_reads():
        versions.read("live:test")
        assert router.db_for_read(League) == DEFAULT_DB_ALIAS


@on_both
def test_a_lagging_replica_is_not_read(replica_db, settings):
    settings.REPLICA_MAX_LAG_SECONDS = -1  # any lag, even none, is too much
    replica.status(force=True)
    with replica.replica_reads():
        assert router.db_for_read(League) == DEFAULT_DB_ALIAS
    state = replica.status()
    assert state.usable is False
    assert state.lag_seconds == 0  # the alias is no standby: it has replayed everything


@on_both
def test_a_replica_that_cannot_be_reached_is_not_read_nor_asked_again_at_once(replica_db):
    replica_db(PORT="1")  # nothing listens on port 1
    with replica.replica_reads():
        assert router.db_for_read(League) == DEFAULT_DB_ALIAS
    first = replica.status()
    assert first.usable is False and first.error
    assert replica.status() is first  # not asked again within REPLICA_RETRY_SECONDS


@on_both
def test_no_request_waits_for_the_check(replica_db):
    replica.forget()
    assert replica.status() is replica.UNCHECKED  # reads stay on the primary meanwhile
    for _ in range(200):
        if replica._status is not None:
            break
        time.sleep(0.05)
    assert replica.status().usable  # the check's thread found it


# ------------------------------------------------------------------- the middleware


@on_both
def test_a_visitors_page_reads_from_the_replica(replica_db, client):
    League.objects.create(name="Tuesday Bar Billiards", slug="tuesday")
    with queries(DEFAULT_DB_ALIAS) as primary, queries(REPLICA) as standby:
        response = client.get("/")
    assert response.status_code == 200
    assert standby.captured_queries, "the home page read nothing from the replica"
    assert not primary.captured_queries
    assert replica.describe() == {"usable": True, "lag_seconds": 0.0, "max_lag_seconds": 5.0}


@on_both
def test_a_writer_is_pinned_to_the_primary_for_a_while(replica_db, client, settings):
    response = client.post("/api/pad/session/")  # any write, even one refused
    cookie = response.cookies[settings.REPLICA_PIN_COOKIE]
    assert cookie["max-age"] == settings.REPLICA_PIN_SECONDS
    assert cookie["httponly"]
    with queries(REPLICA) as standby:
        assert client.get("/").status_code == 200
    assert not standby.captured_queries


@pytest.mark.django_db
def test_no_pin_without_a_replica(client, settings):
    response = client.post("/api/pad/session/")
    assert settings.REPLICA_PIN_COOKIE not in response.cookies


@on_both
def test_a_signed_in_user_reads_the_primary(replica_db, client, django_user_model):
    client.force_login(django_user_model.objects.create_user("cap", password="x"))
    with queries(REPLICA) as standby:
        assert client.get("/").status_code == 200
    assert not standby.captured_queries


@on_both
def test_a_visitor_reads_the_primary_while_the_replica_is_down(replica_db):
    replica_db(PORT="1")
    League.objects.create(name="Tuesday Bar Billiards", slug="tuesday")
    response = Client().get("/")
    assert response.status_code == 200
    assert b"Tuesday Bar Billiards" in response.content
    assert replica.describe()["usable"] is False


@on_both
def test_a_replica_dying_during_a_request_is_not_seen_by_the_visitor(replica_db, settings):
    League.objects.create(name="Tuesday Bar Billiards", slug="tuesday")
    assert replica.status().usable  # found usable; not asked again for a minute
    # It dies: its connection gone, and nothing answers where it was.
    connections[REPLICA].close()
    connections[REPLICA].settings_dict["PORT"] = "1"
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 200
    assert b"Tuesday Bar Billiards" in response.content
    assert replica.status().usable is False  # marked down: the next requests skip it


@on_both
def test_healthz_shows_the_replicas_state_without_failing_on_it(replica_db, client):
    replica_db(PORT="1")
    response = client.get("/healthz")
    assert response.status_code == 200
    answer = response.json()
    assert answer["ok"] is True
    assert answer["replica"]["usable"] is False
    assert answer["replica"]["lag_seconds"] is None


# ----------------------------------------------------------------- behind PgBouncer


@pytest.mark.django_db
def test_prepared_statements_off_behind_a_pooler_that_cannot_keep_them(settings):
    settings.DATABASE_PREPARED_STATEMENTS = False
    with prepared_cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [1])
        assert cursor.fetchone() == (2,)
        assert type(cursor.cursor).__name__ != "_PreparingCursor"
    settings.DATABASE_PREPARED_STATEMENTS = True
    with prepared_cursor() as cursor:
        assert type(cursor.cursor).__name__ == "_PreparingCursor"
