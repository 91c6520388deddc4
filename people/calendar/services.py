"""A person's calendar address: made when first asked for, renewed (the old one revoked)
on request, revoked by an erasure (`leagues.personal_data`). Every write is one
transaction and raises DomainError."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues.models import CalendarFeed, Player
from marker.errors import DomainError


def _refuse_erased(player: Player) -> None:
    if player.is_erased:
        raise DomainError("player_erased", "An erased person has no calendar address.", status=409)


def live_feed(player: Player) -> CalendarFeed | None:
    """The player's live calendar address, if they have one."""
    return CalendarFeed.objects.filter(player=player, revoked_at__isnull=True).first()


@transaction.atomic
def calendar_feed_ensure(*, player: Player, now: datetime | None = None) -> CalendarFeed:
    """The player's live calendar address, made now if they have none. Safe to call
    twice, and from two requests at once (the database allows one live address)."""
    feed = live_feed(player)
    if feed is not None:
        return feed
    _refuse_erased(player)
    try:
        with transaction.atomic():
            return CalendarFeed.objects.create(player=player, created_at=now or timezone.now())
    except IntegrityError:  # another request made it first
        return CalendarFeed.objects.get(player=player, revoked_at__isnull=True)


@transaction.atomic
def calendar_feed_renew(*, player: Player, now: datetime | None = None) -> CalendarFeed:
    """Revoke the player's live address (it answers 404 from now on) and make a new
    one: for an address that was shared by mistake."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_erased(player)
    now = now or timezone.now()
    CalendarFeed.objects.filter(player=player, revoked_at__isnull=True).update(revoked_at=now)
    return CalendarFeed.objects.create(player=player, created_at=now)
