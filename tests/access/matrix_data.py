"""Who may import a season's data and export it (spreadsheets, the league's archive)."""

from __future__ import annotations

from django.utils import timezone

from leagues import imports
from leagues.imports import job as import_job

from .base import STAFF, Rule


def setup(ctx) -> None:
    league = ctx.league
    table = imports.Table(["Venue"], [(2, ["The Plough"])], "v.csv")
    ctx.import_job = import_job.import_job_create(
        season=league.season,
        actor=league.secretary,
        kind="venues",
        table=table,
        mapping=None,
        now=timezone.now(),
    )


season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
job = lambda c: {"pk": c.league.season.pk, "job": c.import_job.pk}  # noqa: E731

ACCESS = {
    "season-import": Rule(kwargs=season, get=STAFF, post=STAFF),
    "season-data": Rule(kwargs=season, get=STAFF),
    "season-export": Rule(
        kwargs=lambda c: {"pk": c.league.season.pk, "sheet": "fixtures", "fmt": "xlsx"},
        get=STAFF,
    ),
    "api-season-import": Rule(kwargs=season, get=None, post=STAFF),
    "season-import-job": Rule(kwargs=job, get=STAFF),
    "api-season-import-job": Rule(kwargs=job, get=STAFF),
    "league-archive": Rule(kwargs=lambda c: {"slug": c.league.season.league.slug}, get=STAFF),
}
