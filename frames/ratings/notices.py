"""A ratings run moved players' ratings: each of them with a login or an address is told
(RATING_MOVED, off by default), once per run (`rating:{run.pk}`), in the run's
transaction."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse

from frames.models import Rating, RatingRun
from notifications.events import Event
from notifications.services import To, anyone_wants, notify
from rules import registry


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


def rating_moved_notify(*, run: RatingRun, now: datetime) -> int:
    if not run.moved or not anyone_wants(Event.RATING_MOVED):  # off by default: one query
        return 0
    game = _game_name(run.game_id)
    queued = 0
    ratings = (
        Rating.objects.filter(game_id=run.game_id, player_id__in=run.moved)
        .select_related("player")
        .order_by("player_id")
    )
    for rating in ratings:
        player = rating.player
        if player.user_id is None and not player.email:
            continue
        queued += notify(
            event=Event.RATING_MOVED,
            to=[To(user_id=player.user_id, email=player.email)],
            key=f"rating:{run.pk}",
            title=f"Your {game} rating is now {rating.ordinal:.1f}",
            body=(
                f"After {rating.frames} rated frame{'s' if rating.frames != 1 else ''} "
                f"(estimate {rating.mu:.1f} ± {rating.sigma:.1f})."
            ),
            url=reverse("player-ratings", args=[player.pk]),
            now=now,
        )
    return queued
