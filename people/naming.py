"""Choosing to be shown by initials (or no longer), everywhere a name was stored as text.

`leagues` records the choice (`player_set_private_name`: pages, the API and the roll of
honour read it); the labels the rules engine and the cup draw stored for the person (each
frame's setup, state and shot log, a cup tie frame's title, a draw record's entrants, the
competition log) are then renamed by every section of the registry that stored some
(`Section.relabel`), in the same transaction: the rename is reversible (choosing again
renames them back), and a replay of a renamed shot log gives its renamed states.
"""

from __future__ import annotations

from django.db import transaction

from leagues import honours
from leagues.models import Player
from leagues.teams import services as team_services
from marker.personal_data import Person, Relabel

from .registry import sections

__all__ = ["person_set_private_name", "relabel_private_names"]


@transaction.atomic
def person_set_private_name(*, player: Player, private: bool) -> Player:
    """The person asks (or stops asking) not to be named publicly: record it (on `player`
    too), and rename the labels stored for them from the public name they had to the one
    they now have."""
    Player.objects.select_for_update(of=("self",)).filter(pk=player.pk).exists()
    player.refresh_from_db(fields=["name", "private_name", "erased_number"])  # as locked
    full = " ".join(player.name.split())
    before = player.initials if player.private_name else full
    player = team_services.player_set_private_name(player=player, private=private)
    after = player.initials if player.private_name else full
    if after != before and full:
        _relabel(player, before, after)
    return player


def _relabel(player: Player, old: str, new: str) -> None:
    relabel = Relabel(person=Person.of(player), old=old, new=new)
    for section in sections():
        if section.relabel is not None:
            section.relabel(relabel)


@transaction.atomic
def relabel_private_names() -> int:
    """The labels stored under the full name of everyone shown by their initials (those
    who chose before choosing renamed them; their lines on the roll of honour too)
    renamed to their initials; labels already
    renamed are left alone, so running it again changes nothing. Returns how many people
    it looked at."""
    players = list(
        Player.objects.select_for_update()
        .filter(private_name=True, erased_number__isnull=True)
        .order_by("pk")
    )
    for player in players:
        full = " ".join(player.name.split())
        if full:
            honours.honours_rename_player(player=player, old=full, new=player.public_name)
            _relabel(player, full, player.initials)
    return len(players)
