"""Writes of organisations: their ranking rules (docs/ratings.md, *Rankings*)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from marker.errors import DomainError
from marker.permissions import require
from rules import registry

from ..models import MAX_RANKING_MIN_FRAMES, Organisation


@transaction.atomic
def organisation_set_ranking_rules(
    *, organisation: Organisation, actor, min_frames: int, games: Iterable[str]
) -> Organisation:
    """Set who the organisation's rankings rank (at least `min_frames` rated frames in its
    member leagues in the last twelve months) and in which games (none: every game its
    member leagues play). Only its officers (or the site administrator) may."""
    require(
        actor,
        "leagues.set_organisation_rankings",
        organisation,
        message="Only the organisation's officers set its ranking rules.",
    )
    if isinstance(min_frames, bool) or not 1 <= min_frames <= MAX_RANKING_MIN_FRAMES:
        raise DomainError(
            "bad_value",
            f"The minimum is a whole number of frames from 1 to {MAX_RANKING_MIN_FRAMES}.",
            field="min_frames",
        )
    chosen: list[str] = []
    for game_id in games:
        try:
            registry.get(game_id)
        except registry.UnknownGame:
            raise DomainError("unknown_game", f"No game {game_id!r}.", field="games") from None
        if game_id not in chosen:
            chosen.append(game_id)
    organisation = Organisation.objects.select_for_update().get(pk=organisation.pk)
    organisation.ranking_min_frames = min_frames
    organisation.ranked_games = sorted(chosen)
    organisation.save(update_fields=["ranking_min_frames", "ranked_games"])
    return organisation
