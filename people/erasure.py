"""Erasing a person (GDPR art. 17), keeping every result, table, statistic and rating.

The player's row stays, because results, frames, statistics lines and ratings hang on
it, but it becomes "Former player N" (N stable: the erasure's number) everywhere: each
section of the registry (`people.registry`) deletes, scrubs or renames what its app
holds, in one transaction. The account is deactivated and scrubbed, contact details
deleted, and the labels stored as text (the hats, each frame's setup, state and shot log,
the match and competition logs, a draw's entrants, a cup frame's title, the roll of
honour) renamed consistently, so replaying a shot log still gives its stored states. The
erasure is logged (`PersonErasure`: who and when, never the old name) and cannot be
undone.

Ratings, tables and statistics do not change: they are keyed by the player's id, and no
frame's result, day or players change (`ratings.services.dirty_since` finds nothing).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from leagues.models import League, PersonErasure, Player
from marker.errors import DomainError
from marker.permissions import require
from marker.personal_data import Erasure, Person, former_name, labels_of

from .registry import sections

__all__ = ["former_name", "person_erase"]


@transaction.atomic
def person_erase(
    *, player: Player, actor: Any, league: League | None = None, now: datetime | None = None
) -> PersonErasure:
    """Erase a person: see the module's docstring. Irreversible; refused for a person
    already erased. `league` is the league whose secretary asks (recorded)."""
    require(
        actor,
        "leagues.erase_person",
        player,
        code="forbidden",
        message="Only a secretary of a league this person played in (or the site "
        "administrator) can erase them.",
    )
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    if player.erased_number is not None:
        raise DomainError("already_erased", f"{player.name} was erased already.", status=409)
    now = now or timezone.now()
    number = (PersonErasure.objects.aggregate(n=Max("number"))["n"] or 0) + 1
    new = former_name(number)
    user = player.user
    erasure = Erasure(
        person=Person.of(player, user),
        number=number,
        new_name=new,
        # Their name, and the initials they were shown by (labels stored since they chose).
        labels={
            **(labels_of(player.initials, player.pk, new) if player.private_name else {}),
            **labels_of(player.name, player.pk, new),
        },
        usernames=(user.get_username(),) if user is not None else (),
        actor=actor,
        now=now,
    )
    for section in sections():
        if section.erase is not None:
            section.erase(erasure)
    return PersonErasure.objects.create(
        player=player,
        number=number,
        league=league,
        by=actor if getattr(actor, "is_authenticated", False) else None,
        at=now,
    )
