"""The directory's background job. Safe to run twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="leagues.directory.tasks.expire_posts", acks_late=True)
def expire_posts() -> int:
    """Daily (beat): name the posts past their time expired. The public lists hide them by
    their `expires_at` already, so a day this does not run shows nothing stale."""
    return services.posts_expire()
