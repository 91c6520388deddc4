"""Background jobs under faults, with real Celery worker processes on a private Redis:

- a worker is SIGKILLed in the middle of a publication (while it emails the captains):
  the sweeper re-queues the job, another worker finishes it, and every recipient has
  exactly one email;
- Redis is stopped in the middle of a publication and while the secretary asks for the
  next one: the running job still finishes, the request still succeeds (the database
  holds the intent), and once Redis is back the sweeper sends the job and it completes,
  each email sent once.

The workers use the production settings against this test run's database (the test is
transactional, so they see its rows); their emails go to a file (tests/faults/slow_mail.py),
each taking a moment, as SMTP does."""

from __future__ import annotations

import subprocess
import threading
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from leagues import publication_job, publishing
from leagues.models import Publication, SentNotification, Subscription
from tests.conftest import _reset_celery_app, make_league
from tests.faults.harness import (
    ROOT,
    PrivateRedis,
    current_database_url,
    server_env,
    stop,
    tool,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    # One at a time (under xdist, all on one worker): each starts servers of its own.
    pytest.mark.xdist_group("faults"),
    pytest.mark.django_db(transaction=True),
]

_CONF = ("broker_url", "task_always_eager", "result_backend", "task_default_queue")


@pytest.fixture
def redis():
    server = PrivateRedis()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def celery(redis, tmp_path, settings):
    """This process sends tasks to the private Redis on a queue of its own; `start()`
    starts a worker process on it (stopped at the end, by its pid)."""
    from config.celery import app

    queue = f"fault-{uuid.uuid4().hex[:10]}"
    saved = {key: app.conf[key] for key in _CONF}
    app.conf.update(
        broker_url=redis.url(0),
        task_always_eager=False,
        result_backend=None,
        task_default_queue=queue,
    )
    settings.CELERY_TASK_ALWAYS_EAGER = False
    _reset_celery_app(app)
    log = tmp_path / "mail.log"
    log.touch()
    workers: list[subprocess.Popen] = []

    def launch(name: str) -> subprocess.Popen:
        env = server_env(
            current_database_url(),
            CELERY_BROKER_URL=redis.url(0),
            EMAIL_BACKEND="tests.faults.slow_mail.EmailBackend",
            FAULT_MAIL_LOG=str(log),
            FAULT_MAIL_DELAY="0.25",
            SITE_URL="https://league.example.org",
            # The printable page names static files: without collectstatic's manifest
            # (production runs it; it takes a while here) they are named as in development.
            DEBUG="1",
        )
        worker = subprocess.Popen(
            [
                tool("celery"), "-A", "config", "worker", "-P", "solo", "-Q", queue,
                "-n", f"{name}-{queue}@%h", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "--loglevel", "WARNING",
            ],
            env=env,
            cwd=ROOT,
            start_new_session=True,
            stdout=open(tmp_path / f"{name}.log", "a"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        workers.append(worker)
        return worker

    def start(name: str, supervised: bool = False) -> subprocess.Popen:
        """A worker process; `supervised`: restarted 2 s after it exits, as systemd's
        Restart=always does in production (deploy/systemd/marker-worker.service)."""
        worker = launch(name)
        if supervised:

            def watch(current: subprocess.Popen) -> None:
                while not stopping.is_set():
                    if current.poll() is not None:
                        restarts.append(current.returncode)
                        if stopping.wait(2):
                            return
                        current = launch(name)
                    stopping.wait(0.2)

            threading.Thread(target=watch, args=(worker,), daemon=True).start()
        return worker

    stopping = threading.Event()
    restarts: list[int] = []
    start.restarts = restarts  # type: ignore[attr-defined]

    try:
        yield start, log
    finally:
        stopping.set()
        time.sleep(0.3)
        for worker in workers:
            stop(worker, timeout=15)
        app.conf.update(saved)
        _reset_celery_app(app)


def league_with_subscribers(count: int):
    league = make_league(teams_per_division=4, players_per_team=1)
    now = timezone.now()
    for n in range(count):
        Subscription.objects.create(
            league=league.season.league, email=f"fan{n}@example.org", created_at=now
        )
    return league


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def sent(publication: Publication) -> int:
    return SentNotification.objects.filter(publication=publication).count()


def assert_each_recipient_once(publication: Publication, log: Path, before: int = 0) -> None:
    publication.refresh_from_db()
    assert publication.state == Publication.State.DONE, (publication.state, publication.error)
    expected = {email for email, _ in publication_job.table_recipients(publication.season)}
    lines = log.read_text().splitlines()[before:]
    counts = Counter(lines)
    assert set(counts) == expected, "someone had no email, or a stranger had one"
    assert max(counts.values()) == 1, [r for r, n in counts.items() if n > 1]
    assert sent(publication) == len(expected) == publication.emails_sent


def mailed(log: Path) -> int:
    return len(log.read_text().splitlines())


def test_worker_killed_mid_publication_the_sweeper_finishes_it(celery):
    start, log = celery
    league = league_with_subscribers(24)
    first = start("first")
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    wait_for(lambda: mailed(log) >= 5, 60, "the first worker to email five people")
    stop(first, sig=9)  # SIGKILL: no goodbye, the message stays unacknowledged
    publication.refresh_from_db()
    assert publication.state == Publication.State.RUNNING
    assert mailed(log) < len(publication_job.table_recipients(league.season))

    # Beat runs the sweeper every minute; the heartbeat is stale two minutes on.
    later = timezone.now() + publication_job.PUBLICATION_STALE_AFTER + timedelta(seconds=1)
    assert publishing.publications_requeue_stale(now=later) == [publication.pk]
    start("second")
    wait_for(
        lambda: Publication.objects.get(pk=publication.pk).state == Publication.State.DONE,
        90,
        "the second worker to finish the publication",
    )
    assert_each_recipient_once(publication, log)
    assert Publication.objects.get(pk=publication.pk).attempts == 2


def test_redis_stopped_during_a_publication_the_job_completes_when_it_returns(celery, redis):
    start, log = celery
    league = league_with_subscribers(12)
    start("worker", supervised=True)
    running = publishing.publication_request(season=league.season, actor=league.secretary)
    wait_for(lambda: mailed(log) >= 3, 60, "the worker to start emailing")
    redis.stop()
    # The job under way needs only the database and the mail server: it finishes.
    wait_for(
        lambda: Publication.objects.get(pk=running.pk).state == Publication.State.DONE,
        60,
        "the running publication to finish without Redis",
    )
    assert_each_recipient_once(running, log)
    lines_before = len(log.read_text().splitlines())

    # Redis is still down: the secretary asks again. The request succeeds (the job could
    # not be sent; the database keeps it queued) ...
    queued = publishing.publication_request(season=league.season, actor=league.secretary)
    queued.refresh_from_db()
    assert queued.state == Publication.State.QUEUED
    time.sleep(2)
    assert Publication.objects.get(pk=queued.pk).state == Publication.State.QUEUED

    # ... and once Redis is back, the sweeper sends it, and the worker (reconnected) runs it.
    redis.start()
    later = timezone.now() + publication_job.PUBLICATION_STALE_AFTER + timedelta(seconds=1)
    assert publishing.publications_requeue_stale(now=later) == [queued.pk]
    wait_for(
        lambda: Publication.objects.get(pk=queued.pk).state == Publication.State.DONE,
        90,
        "the queued publication to complete once Redis is back",
    )
    assert_each_recipient_once(queued, log, before=lines_before)
    # Each publication emailed everyone once, and nothing of the first was sent again.
    assert sent(running) == sent(queued)
    # kombu 5.7's Redis transport may end the worker when the broker vanishes under an
    # unacknowledged message (an "Unrecoverable error" in restore_unacked); the supervisor
    # brought it back. Either way the jobs completed, each email once.
    print(f"\nworker exits while Redis was down: {start.restarts}")
