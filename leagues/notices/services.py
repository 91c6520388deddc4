"""Site notices: a notice shown on every page of the site (a site administrator's) or of a
league (its secretary's), and on the referee pad when online (docs/paper-card.md)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from leagues.models import League, Notice
from leagues.notices import selectors
from marker import versions
from marker.errors import DomainError
from marker.permissions import require

POST = "leagues.post_notice"


def _require_poster(actor: Any, league: League | None) -> None:
    require(
        actor,
        POST,
        league,
        message=(
            "Only a site administrator can post a notice for the whole site."
            if league is None
            else f"Only a secretary of {league.name} can post its notices."
        ),
    )


@transaction.atomic
def notice_create(
    *,
    league: League | None,
    title: str,
    body: str = "",
    level: str = Notice.Level.INFO,
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
    actor: Any,
    now: datetime | None = None,
) -> Notice:
    """Post a notice: site-wide (`league` None: a site administrator) or for a league (its
    secretary). It shows from `starts_at` (now when empty) until `ends_at` (until ended)."""
    now = now or timezone.now()
    _require_poster(actor, league)
    title = " ".join(title.split())
    if not title:
        raise DomainError("notice_title", "Give the notice a title.", field="title")
    if len(title) > 120:
        raise DomainError("notice_title", "A title has at most 120 characters.", field="title")
    body = body.strip()
    if len(body) > 1000:
        raise DomainError("notice_body", "A notice has at most 1000 characters.", field="body")
    if level not in Notice.Level.values:
        raise DomainError("notice_level", "Choose information or warning.", field="level")
    starts_at = starts_at or now
    if ends_at is not None and ends_at <= starts_at:
        raise DomainError(
            "notice_ends_before_start", "The notice must end after it starts.", field="ends_at"
        )
    if ends_at is not None and ends_at <= now:
        raise DomainError("notice_ended", "That end is in the past.", field="ends_at")
    versions.bump(selectors.VERSION)
    return Notice.objects.create(
        league=league,
        title=title,
        body=body,
        level=level,
        starts_at=starts_at,
        ends_at=ends_at,
        created_by=actor,
        created_at=now,
    )


@transaction.atomic
def notice_end(*, notice: Notice, actor: Any, now: datetime | None = None) -> Notice:
    """End a notice now (it is kept, hidden). Ending an ended one changes nothing."""
    now = now or timezone.now()
    notice = (
        Notice.objects.select_for_update(of=("self",)).select_related("league").get(pk=notice.pk)
    )
    _require_poster(actor, notice.league)
    if notice.ends_at is not None and notice.ends_at <= now:
        return notice
    # A notice not started yet ends before it shows: its end is its start (an instant).
    notice.ends_at = max(now, notice.starts_at + timedelta(microseconds=1))
    notice.save(update_fields=["ends_at"])
    versions.bump(selectors.VERSION)
    return notice
