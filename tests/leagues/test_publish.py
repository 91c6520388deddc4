"""Publishing the tables: the job (in-process here; tests/leagues/test_celery_tables.py
runs it on a real worker), idempotency, crash recovery by the sweeper, emails once, the
CSV and printable page, the public page and the secretary's progress page."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues import publication_job, publishing
from leagues.fixtures import services as fixture_services
from leagues.models import (
    Fixture,
    Publication,
    SentNotification,
    Subscription,
    TableSnapshot,
)
from marker.errors import DomainError
from tests.conftest import make_league
from tests.factories import UserFactory, make_secretary
from tests.leagues.mail_backends import Counting
from tests.leagues.test_standings import make_division, play
from tests.links import league_reverse

pytestmark = pytest.mark.django_db


def result(fixture, hf, af, hs=1000, as_=900, at=None):
    return fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=Decimal(hf),
        away_frames=Decimal(af),
        home_score=hs,
        away_score=as_,
        confirmed_at=at or timezone.now(),
    )


def publish(season, actor, capture):
    """Ask for a publication; the job runs on commit, in-process (no broker)."""
    with capture(execute=True):
        publication = publishing.publication_request(season=season, actor=actor)
    publication.refresh_from_db()
    return publication


def recipients(league):
    emails = {t.captain.email for t in league.teams} | {league.vice_captain.email}
    return {e.lower() for e in emails if e}


@pytest.fixture
def small(db):
    league = make_league(teams_per_division=4, players_per_team=1)
    fixtures = list(Fixture.objects.filter(division=league.premier).order_by("id"))
    result(fixtures[0], "6", "3", 2400, 1800)
    result(fixtures[1], "4.5", "4.5", 1500, 1500)
    return league


# ----------------------------------------------------------------------- the job


def test_publishing_snapshots_every_division_renders_and_emails(
    small, django_capture_on_commit_callbacks
):
    Subscription.objects.create(
        league=small.season.league, email="Fan@Example.org", created_at=timezone.now()
    )
    publication = publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    assert publication.state == Publication.State.DONE
    assert publication.progress == 100 and publication.attempts == 1
    snapshots = list(publication.snapshots.order_by("division__rank"))
    assert [s.division for s in snapshots] == [small.premier, small.second]
    assert len(snapshots[0].rows) == 4 and snapshots[0].rows[0]["position"] == 1
    assert "league-table" in snapshots[0].html and small.teams[0].name in snapshots[0].html
    assert small.premier.name in publication.printable_html
    assert small.second.name in publication.printable_html
    expected = recipients(small) | {"fan@example.org"}
    assert sorted(m.to[0] for m in mail.outbox) == sorted(expected)
    assert publication.emails_sent == len(expected)
    fan = next(m for m in mail.outbox if m.to == ["fan@example.org"])
    token = Subscription.objects.get().token
    assert reverse("table-unsubscribe", args=[token]) in fan.body
    captain = next(m for m in mail.outbox if m.to == [small.teams[0].captain.email])
    assert "because you captain" in captain.body
    assert small.premier.name in captain.body and small.teams[0].name in captain.body


def test_every_email_goes_over_one_connection(small, django_capture_on_commit_callbacks, settings):
    settings.EMAIL_BACKEND = "tests.leagues.mail_backends.Counting"
    Counting.reset()
    for i in range(60):  # more than one batch
        Subscription.objects.create(
            league=small.season.league, email=f"fan{i}@example.org", created_at=timezone.now()
        )
    publication = publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    assert publication.state == Publication.State.DONE
    expected = len(recipients(small)) + 60
    assert (Counting.opened, Counting.sent, publication.emails_sent) == (1, expected, expected)


def test_a_captain_gets_the_tables_of_their_division_a_subscriber_every_table(
    small, django_capture_on_commit_callbacks
):
    Subscription.objects.create(
        league=small.season.league, email="fan@example.org", created_at=timezone.now()
    )
    publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    premier_captain = next(t for t in small.teams if t.division_id == small.premier.pk).captain
    second_captain = next(t for t in small.teams if t.division_id == small.second.pk).captain
    mine = next(m for m in mail.outbox if m.to == [premier_captain.email]).body
    theirs = next(m for m in mail.outbox if m.to == [second_captain.email]).body
    fan = next(m for m in mail.outbox if m.to == ["fan@example.org"]).body
    premier = league_reverse("division-detail", args=[small.premier.pk])
    second = league_reverse("division-detail", args=[small.second.pk])
    assert premier in mine and second not in mine
    assert second in theirs and premier not in theirs
    assert premier in fan and second in fan
    assert all(
        league_reverse("publication-csv", args=[p]) in fan
        for p in [small.season.publications.get().pk]
    )


def test_the_job_run_twice_has_one_effect(small, django_capture_on_commit_callbacks):
    publication = publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    sent = len(mail.outbox)
    assert publication_job.publication_run(publication_id=publication.pk) == "skipped"
    assert TableSnapshot.objects.filter(publication=publication).count() == 2
    assert len(mail.outbox) == sent
    # Asking again while one is running returns the running one.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = publishing.publication_request(season=small.season, actor=small.secretary)
        again = publishing.publication_request(season=small.season, actor=small.secretary)
    assert first == again and len(callbacks) == 1


def test_claim_is_exclusive_unless_the_heartbeat_is_stale(small):
    now = timezone.now()
    publication = Publication.objects.create(
        season=small.season, as_of=now, created_at=now, heartbeat_at=now
    )
    assert publication_job.publication_claim(publication_id=publication.pk, now=now)
    assert not publication_job.publication_claim(publication_id=publication.pk, now=now)
    later = now + publication_job.PUBLICATION_STALE_AFTER + timedelta(seconds=1)
    assert publication_job.publication_claim(publication_id=publication.pk, now=later)
    publication.refresh_from_db()
    assert publication.attempts == 2 and publication.state == Publication.State.RUNNING


def test_sweeper_heals_a_publication_whose_worker_died_mid_job(
    small, django_capture_on_commit_callbacks
):
    """A worker took the job, wrote one division's snapshot and two emails, then was
    killed: the row is left running with an old heartbeat."""
    then = timezone.now() - timedelta(minutes=10)
    publication = Publication.objects.create(
        season=small.season, as_of=then, created_at=then, heartbeat_at=then
    )
    assert publication_job.publication_claim(publication_id=publication.pk, now=then)
    from leagues.standings import tables

    first = tables(small.season, as_of=then)[0]
    kept = publication_job._snapshot(publication, first, then)
    done_already = sorted(recipients(small))[:2]
    for email in done_already:
        SentNotification.objects.create(
            kind="tables", publication=publication, recipient=email, sent_at=then
        )
    # A fresh running job is left alone; a stale one is re-queued and completed.
    with django_capture_on_commit_callbacks(execute=True):
        healed = publishing.publications_requeue_stale()
    assert healed == [publication.pk]
    publication.refresh_from_db()
    assert publication.state == Publication.State.DONE
    assert publication.attempts == 2
    snapshots = TableSnapshot.objects.filter(publication=publication)
    assert snapshots.count() == 2
    assert snapshots.get(division=small.premier).pk == kept.pk  # not rebuilt
    mailed = sorted(m.to[0] for m in mail.outbox)
    assert mailed == sorted(recipients(small) - set(done_already))
    assert publication.emails_sent == len(recipients(small))
    with django_capture_on_commit_callbacks(execute=True):
        assert publishing.publications_requeue_stale() == []


def test_sweeper_leaves_fresh_and_finished_work_alone(small):
    now = timezone.now()
    fresh = Publication.objects.create(
        season=small.season, as_of=now, created_at=now, heartbeat_at=now, state="running"
    )
    old = now - timedelta(hours=1)
    Publication.objects.create(
        season=small.season, as_of=old, created_at=old, heartbeat_at=old, state="done"
    )
    Publication.objects.create(
        season=small.season, as_of=old, created_at=old, heartbeat_at=old, state="failed"
    )
    assert publishing.publications_requeue_stale(now=now) == []
    fresh.refresh_from_db()
    assert fresh.state == "running"


def test_a_failure_is_recorded_and_a_retry_finishes_without_repeating(
    small, django_capture_on_commit_callbacks, settings
):
    settings.EMAIL_BACKEND = "tests.leagues.mail_backends.Counting"
    Counting.reset(fail_at=4)  # the server goes away at the fourth message
    publication = publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    assert publication.state == Publication.State.FAILED
    assert "SMTP server went away" in publication.error
    assert TableSnapshot.objects.filter(publication=publication).count() == 2
    assert len(mail.outbox) == 3
    with django_capture_on_commit_callbacks(execute=True):
        publishing.publication_retry(publication=publication)
    publication.refresh_from_db()
    assert publication.state == Publication.State.DONE
    sends = [m.to[0] for m in mail.outbox]
    assert sorted(sends) == sorted(recipients(small))  # each exactly once
    with pytest.raises(DomainError):
        publishing.publication_retry(publication=publication)


# --------------------------------------------------------------------- the outputs


def test_csv_has_every_division_and_exact_values(small, django_capture_on_commit_callbacks):
    publication = publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    rows = list(csv.reader(io.StringIO(publication.csv)))
    assert rows[0] == publication_job.CSV_HEADER
    assert len(rows) == 1 + 8
    premier = [r for r in rows[1:] if r[0] == small.premier.name]
    assert len(premier) == 4
    by_team = {r[2]: r for r in premier}
    fixtures = list(Fixture.objects.filter(division=small.premier).order_by("id"))
    winner = by_team[fixtures[0].home.name]
    assert winner[3:8] == ["1", "1", "0", "0", "6.0"]
    assert winner[10] == "2400" and winner[13] == "6.0"
    drawn = by_team[fixtures[1].home.name]
    assert drawn[5] == "1" and drawn[7] == "4.5"
    client = Client()
    response = client.get(league_reverse("publication-csv", args=[publication.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert response.content.decode() == publication.csv
    printable = client.get(league_reverse("publication-detail", args=[publication.pk]))
    assert printable.status_code == 200
    assert printable.content.decode() == publication.printable_html


def test_unfinished_publications_are_not_public(small):
    now = timezone.now()
    queued = Publication.objects.create(
        season=small.season, as_of=now, created_at=now, heartbeat_at=now
    )
    client = Client()
    assert client.get(league_reverse("publication-detail", args=[queued.pk])).status_code == 404
    assert client.get(league_reverse("publication-csv", args=[queued.pk])).status_code == 404


def test_public_page_shows_the_latest_published_table_and_later_results_as_provisional(
    small, django_capture_on_commit_callbacks
):
    url = league_reverse("division-detail", args=[small.premier.pk])
    page = Client().get(url).content.decode()
    assert "No table has been published yet." in page
    assert page.count('<span class="tag">provisional</span> <a') == 2  # every result so far

    publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    fixtures = list(Fixture.objects.filter(division=small.premier).order_by("id"))
    later = result(fixtures[2], "9", "0", 3000, 100)
    page = Client().get(url).content.decode()
    snapshot = TableSnapshot.objects.get(division=small.premier)
    assert snapshot.html in page
    assert "No table has been published yet." not in page
    assert page.count('<span class="tag">provisional</span> <a') == 1
    assert f"{later.home.name} 9–0 {later.away.name}" in page
    # The published table does not move with the later result...
    assert all(r["played"] <= 1 for r in snapshot.rows)
    # ...until the next publication, which the page then shows.
    publish(small.season, small.secretary, django_capture_on_commit_callbacks)
    page = Client().get(url).content.decode()
    newest = TableSnapshot.objects.filter(division=small.premier).order_by("-as_of").first()
    assert newest.pk != snapshot.pk and newest.html in page
    assert '<span class="tag">provisional</span> <a' not in page
    snapshot.refresh_from_db()
    assert all(r["played"] <= 1 for r in snapshot.rows)  # the old snapshot never changed


# ------------------------------------------------------------------- the pages


def test_secretary_publishes_from_the_tables_page_and_sees_the_result(
    small, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(small.secretary)
    url = league_reverse("season-tables", args=[small.season.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert page.content.decode().count("provisional</span>") >= 2  # one per division
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "publish"})
    assert response.status_code == 302
    publication = Publication.objects.get()
    assert publication.state == "done"
    status = client.get(
        league_reverse("publication-status", args=[publication.pk])
    ).content.decode()
    assert "Published" in status and "hx-trigger" not in status
    assert league_reverse("publication-csv", args=[publication.pk]) in status


def test_progress_fragment_polls_while_the_job_is_queued_or_running(small):
    now = timezone.now()
    publication = Publication.objects.create(
        season=small.season,
        as_of=now,
        created_at=now,
        heartbeat_at=now,
        state="running",
        progress=40,
        step="Table 1 of 2: Premier",
    )
    client = Client()
    client.force_login(small.secretary)
    html = client.get(league_reverse("publication-status", args=[publication.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in html
    assert 'value="40"' in html and "Table 1 of 2: Premier" in html


def test_secretary_records_deductions_and_walkovers_from_the_tables_page(small):
    client = Client()
    client.force_login(small.secretary)
    url = league_reverse("season-tables", args=[small.season.pk])
    team = small.teams[1]
    response = client.post(
        url, {"action": "deduct", "team": team.pk, "points": "1.5", "reason": "late sheet"}
    )
    assert response.status_code == 302
    assert team.deductions.get().points == Decimal("1.5")
    fixture = Fixture.objects.filter(
        division=small.premier, result_confirmed_at__isnull=True
    ).first()
    response = client.post(
        url,
        {
            "action": "award",
            "fixture": fixture.pk,
            "outcome": "walkover",
            "home_frames": "9",
            "away_frames": "0",
            "reason": "away team did not turn up",
        },
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.outcome == "walkover" and fixture.home_frames == 9
    page = client.get(url).content.decode()
    assert "late sheet" in page and "away team did not turn up" in page
    bad = client.post(
        url,
        {
            "action": "award",
            "fixture": fixture.pk,
            "outcome": "walkover",
            "home_frames": "4",
            "away_frames": "4",
            "reason": "x",
        },
    )
    assert bad.status_code == 400


def test_subscribe_and_unsubscribe(small):
    user = UserFactory(username="fan", email="fan@example.org")
    client = Client()
    client.force_login(user)
    url = league_reverse("table-subscribe", args=[small.season.pk])
    assert client.post(url, {}).status_code == 400
    assert client.post(url, {"confirm": "on"}).status_code == 302
    subscription = Subscription.objects.get(email="fan@example.org")
    assert subscription.active
    assert client.post(url, {"confirm": "on"}).status_code == 302  # again: still one
    assert Subscription.objects.count() == 1
    anon = Client()
    off = reverse("table-unsubscribe", args=[subscription.token])
    assert anon.post(off, {"confirm": "on"}).status_code == 200
    subscription.refresh_from_db()
    assert not subscription.active
    assert publication_job.table_recipients(small.season) == [
        (e, "") for e in sorted(recipients(small))
    ]


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("role", ["anonymous", "secretary"])
def test_table_pages_make_the_same_queries_for_4_and_12_teams(
    role, django_assert_num_queries, django_capture_on_commit_callbacks
):
    pages = {}
    secretary = UserFactory(username="sec")
    for n in (4, 12):
        division = make_division([f"T{n}-{i:02}" for i in range(n)])
        make_secretary(division.season, user=secretary)
        fixtures = list(Fixture.objects.filter(division=division))
        for i, f in enumerate(fixtures[: n * 2]):
            play(division, f.home.name, f.away.name, i % 9, 9 - i % 9, 1000 + i, 1000 - i)
        publish(division.season, secretary, django_capture_on_commit_callbacks)
        play(
            division,
            fixtures[-1].home.name,
            fixtures[-1].away.name,
            5,
            4,
            at=timezone.now() + timedelta(seconds=1),
        )
        pages[n] = [
            league_reverse("division-detail", args=[division.pk]),
            league_reverse("division-leaderboard", args=[division.pk]),
            reverse("api-division-table", args=[division.pk]),
        ]
        if role == "secretary":
            pages[n] += [league_reverse("season-tables", args=[division.season_id])]
    client = Client()
    if role == "secretary":
        client.force_login(secretary)
    for small_url, large_url in zip(pages[4], pages[12], strict=True):
        expected = _count(lambda url=small_url: client.get(url))
        with django_assert_num_queries(expected):
            response = client.get(large_url)
        assert response.status_code == 200, large_url
