"""Who may open and post to the tables, publishing and statistics pages and endpoints."""

from __future__ import annotations

from django.utils import timezone

from leagues import publication_job, publishing
from leagues.models import Subscription

from .base import EVERYONE, RESULTS_OFFICERS, SIGNED_IN, STAFF, Rule


def setup(ctx) -> None:
    league = ctx.league
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    publication_job.publication_run(publication_id=publication.pk)  # on_commit does not fire here
    ctx.publication = publication
    ctx.subscription = Subscription.objects.create(
        league=league.season.league, email=f"fan.{ctx.slug}@example.org", created_at=timezone.now()
    )


season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731
division = lambda c: {"league": c.slug, "pk": c.league.premier.pk}  # noqa: E731
publication = lambda c: {"league": c.slug, "pk": c.publication.pk}  # noqa: E731
api_season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
api_division = lambda c: {"pk": c.league.premier.pk}  # noqa: E731
api_publication = lambda c: {"pk": c.publication.pk}  # noqa: E731

ACCESS = {
    "season-tables": Rule(kwargs=season, get=STAFF, post=STAFF),
    "table-subscribe": Rule(kwargs=season, get=SIGNED_IN, post=SIGNED_IN),
    "publication-detail": Rule(kwargs=publication),
    "publication-status": Rule(kwargs=publication, get=STAFF),
    "publication-csv": Rule(kwargs=publication),
    "table-unsubscribe": Rule(
        kwargs=lambda c: {"token": c.subscription.token},
        get=EVERYONE,
        post=EVERYONE,
        note="the token in the email is the credential",
    ),
    "division-leaderboard": Rule(kwargs=division),
    "season-leaderboard": Rule(kwargs=season),
    "player-stats": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].registrations.first().player_id}
    ),
    # API
    "api-division-table": Rule(kwargs=api_division),
    "api-division-table-live": Rule(kwargs=api_division, get=STAFF),
    "api-season-publications": Rule(kwargs=api_season, get=STAFF, post=STAFF),
    "api-season-points-scheme": Rule(kwargs=api_season, get=EVERYONE, post=STAFF),
    "api-publication-detail": Rule(kwargs=api_publication, get=STAFF),
    # Walkovers and concessions: the results secretary too.
    "api-fixture-award": Rule(
        kwargs=lambda c: {"pk": c.fixture.pk}, get=None, post=RESULTS_OFFICERS
    ),
    "api-team-deductions": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].pk}, get=EVERYONE, post=STAFF
    ),
}
