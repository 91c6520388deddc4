"""A large import runs as a background job with its progress on the page (and in the API);
a small one is imported in the request, as before. Celery runs eagerly in tests: the job
runs when the request's transaction commits."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues import imports
from leagues.imports import job as import_job
from leagues.imports import services as import_services
from leagues.models import ImportJob, Player, Team, Venue
from marker.errors import DomainError

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


@pytest.fixture
def few_rows(settings):
    """Files of more than 3 rows are large here (500 by default)."""
    settings.IMPORT_BACKGROUND_ROWS = 3


#: The preview's column choices, as its form posts them.
COLUMNS = {"map-0": "name", "map-1": "tables"}


def venues_csv(n: int, prefix: str = "Job Pub") -> io.BytesIO:
    text = "Venue,Tables\n" + "".join(f"{prefix} {i},{1 + i % 2}\n" for i in range(n))
    upload = io.BytesIO(text.encode())
    upload.name = "venues.csv"
    return upload


def secretary(league) -> Client:
    client = Client()
    client.force_login(league.secretary)
    return client


def test_a_large_import_runs_as_a_job_and_the_page_shows_its_progress(
    league, few_rows, monkeypatch, django_capture_on_commit_callbacks
):
    client = secretary(league)
    url = reverse("season-import", args=[league.season.pk])
    preview = client.post(url, {"kind": "venues", "file": venues_csv(5)})
    assert preview.status_code == 200
    assert "imported in the background" in preview.content.decode()
    payload = preview.context["payload"]

    # While the rows are written (inside their one transaction), the page shows how far.
    seen: list[str] = []
    monkeypatch.setattr(imports, "PROGRESS_EVERY", 2)
    write = imports.import_apply

    def watched(**kwargs):
        told = kwargs["progress"]

        def progress(done: int, total: int) -> None:
            told(done, total)
            job = ImportJob.objects.get(season=league.season)
            status = client.get(
                reverse("season-import-job", args=[league.season.pk, job.pk]),
                headers={"HX-Request": "true"},
            )
            seen.append(status.content.decode())

        return write(**{**kwargs, "progress": progress})

    monkeypatch.setattr(imports, "import_apply", watched)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"payload": payload, **COLUMNS, "action": "import"})
    job = ImportJob.objects.get(season=league.season)
    assert response.status_code == 302
    assert response["Location"] == reverse("season-import-job", args=[league.season.pk, job.pk])
    assert len(seen) == 3  # after steps 2, 4 and 5
    assert (
        "Running" in seen[0] and "Written 2 of 5" in seen[0] and 'hx-trigger="every 2s"' in seen[0]
    )
    assert "Written 4 of 5" in seen[1]
    job.refresh_from_db()
    assert (job.state, job.progress, job.result["changes"]) == ("done", 100, 5)
    assert job.table == {}  # the upload is not kept once the job has ended
    assert Venue.objects.filter(name__startswith="Job Pub").count() == 5
    page = client.get(response["Location"])
    body = page.content.decode()
    assert "Imported" in body and "100%" in body and "hx-get" not in body
    assert import_job.import_job_run(job_id=job.pk) == "skipped"  # safe to run twice


def test_a_small_import_stays_immediate(league, django_capture_on_commit_callbacks):
    client = secretary(league)
    url = reverse("season-import", args=[league.season.pk])
    preview = client.post(url, {"kind": "venues", "file": venues_csv(5)})
    assert "background" not in preview.content.decode()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(
            url, {"payload": preview.context["payload"], **COLUMNS, "action": "import"}
        )
    assert response.status_code == 302 and response["Location"] == url
    assert callbacks == [] and not ImportJob.objects.exists()
    assert Venue.objects.filter(name__startswith="Job Pub").count() == 5


def test_the_api_queues_a_large_import_and_tells_its_progress(
    league, few_rows, django_capture_on_commit_callbacks
):
    client = secretary(league)
    url = reverse("api-season-import", args=[league.season.pk])
    dry = client.post(url, {"kind": "venues", "file": venues_csv(5)})
    assert dry.status_code == 200 and dry.json()["counts"]["venue"]["create"] == 5
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "venues", "file": venues_csv(5), "dry_run": "false"})
    assert response.status_code == 202
    body = response.json()
    assert (body["state"], body["rows"]) == ("queued", 5)
    done = client.get(body["url"]).json()
    assert (done["state"], done["progress"], done["changes"]) == ("done", 100, 5)
    assert done["counts"] == {"venue": {"create": 5, "change": 0, "same": 0}}
    # A large file with a bad row is refused at once, as a small one is: no job.
    bad = io.BytesIO(b"Venue,Tables\nA,1\nB,2\nC,3\nD,many\n")
    bad.name = "bad.csv"
    refused = client.post(url, {"kind": "venues", "file": bad, "dry_run": "false"})
    assert refused.status_code == 400 and refused.json()["error"] == "import_invalid"
    assert ImportJob.objects.count() == 1
    captain = Client()
    captain.force_login(league.captain)
    assert captain.get(body["url"]).status_code == 403


def test_a_job_refused_by_what_changed_since_is_shown_and_writes_nothing(league, few_rows):
    """The rows are checked again when the job runs: a team deleted in between makes a
    problem, shown on the job's page, and nothing is written."""
    team = Team.objects.filter(season=league.season).first()
    rows = [(n, [f"New Player {n}", team.name]) for n in range(2, 7)]
    table = imports.Table(["Player", "Team"], rows, "players.csv")
    job = import_services.import_queue(
        season=league.season,
        actor=league.secretary,
        kind="players",
        table=table,
        mapping=None,
        now=timezone.now(),
    )
    team.registrations.all().delete()
    team.delete()
    assert import_job.import_job_run(job_id=job.pk) == "refused"
    job.refresh_from_db()
    assert job.state == "failed" and "nothing was imported" in job.error
    assert [p["row"] for p in job.result["problems"]] == [2, 3, 4, 5, 6]
    page = secretary(league).get(reverse("season-import-job", args=[league.season.pk, job.pk]))
    assert "There is no team called" in page.content.decode()
    assert not Team.objects.filter(name=team.name, season=league.season).exists()
    assert not Player.objects.filter(name__startswith="New Player").exists()


def test_one_import_at_a_time_per_season_and_a_dead_job_gives_way(league, few_rows):
    table = imports.Table(["Venue"], [(n, [f"Pub {n}"]) for n in range(2, 7)], "v.csv")
    now = timezone.now()

    def queue(at):
        return import_services.import_queue(
            season=league.season,
            actor=league.secretary,
            kind="venues",
            table=table,
            mapping=None,
            now=at,
        )

    first = queue(now)
    with pytest.raises(DomainError) as info:
        queue(now + timedelta(seconds=5))
    assert (info.value.code, info.value.status) == ("import_running", 409)
    later = now + import_job.IMPORT_STALE_AFTER + timedelta(seconds=1)
    second = queue(later)  # the first one's worker vanished
    first.refresh_from_db()
    assert first.state == "failed" and "stopped" in first.error and first.table == {}
    assert second.state == "queued"
    with pytest.raises(DomainError) as info:
        import_services.import_queue(
            season=league.season,
            actor=league.captain,
            kind="venues",
            table=table,
            mapping=None,
            now=later,
        )
    assert info.value.status == 403
