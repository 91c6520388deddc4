"""Starting a friendly game of anything: the game, the players and the game's own options;
its one frame is then scored on the pad like a league frame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from frames.engine import drawn_options, service_draws
from frames.models import Frame, Friendly
from marker.errors import DomainError
from rules import registry
from rules.seating import setup_for
from rules.vocabulary import RuleError

MAX_PARTIES = 16
MAX_NAME = 60


def _names(players: Sequence[Any]) -> list[str] | dict[str, list[str]]:
    """Players as the engine takes them: a list of names, or, where an entry is a list of
    partners, sides named after their players ("Ann & Cat")."""
    if not isinstance(players, list | tuple) or not players:
        raise DomainError("bad_players", "Name the players, one entry each.", field="players")
    if len(players) > MAX_PARTIES:
        raise DomainError(
            "bad_players", f"At most {MAX_PARTIES} players or sides.", field="players"
        )
    parties: list[list[str]] = []
    for entry in players:
        group = entry if isinstance(entry, list | tuple) else [entry]
        names = []
        for name in group:
            if not isinstance(name, str) or not " ".join(name.split()):
                raise DomainError("bad_players", "Every player needs a name.", field="players")
            name = " ".join(name.split())
            if len(name) > MAX_NAME:
                raise DomainError(
                    "bad_players", f"Keep names under {MAX_NAME} characters.", field="players"
                )
            names.append(name)
        if not names or len(names) > 4:
            raise DomainError("bad_players", "A side has one to four players.", field="players")
        parties.append(names)
    flat = [n for group in parties for n in group]
    if len({n.casefold() for n in flat}) != len(flat):
        raise DomainError("bad_players", "Give every player a different name.", field="players")
    if all(len(group) == 1 for group in parties):
        return flat
    return {" & ".join(group): group for group in parties}


@transaction.atomic
def friendly_start(
    *,
    owner: Any,
    game_id: str,
    players: Sequence[Any],
    options: Mapping[str, Any] | None = None,
    title: str = "",
    now: datetime | None = None,
) -> Friendly:
    """Start a friendly game: checks the game, the players and the options with the
    engine (its refusal is answered with its code, on the `options` or `players` field),
    and creates the game and its one frame, ready for the pad. The options the game
    draws (`drawn_by_service`: the private small balls) are drawn here, from the
    cryptographic generator, and may not be given."""
    if owner is None or not owner.is_authenticated:
        raise DomainError("not_signed_in", "Sign in to start a game.", status=403)
    try:
        game = registry.get(str(game_id))
    except registry.UnknownGame as exc:
        raise DomainError("unknown_game", exc.message, field="game") from None
    if options is not None and not isinstance(options, Mapping):
        raise DomainError("bad_options", "Options are an object: name → value.", field="options")
    participants = _names(players)
    given = [name for name in drawn_options(game.id) if name in (options or {})]
    if given:
        raise DomainError(
            "drawn_by_service",
            f"{', '.join(given)}: Marker draws it when the game starts and shows each player "
            "only their own; it cannot be given.",
            field="options",
        )
    try:
        # the options the game draws (the private small balls) are drawn here, once
        setup = setup_for(game, participants, dict(options or {}), rng=service_draws())
    except RuleError as exc:
        raise DomainError(exc.code, exc.message, field="options") from None
    title = " ".join((title or "").split())[:120]
    if not title:
        names = participants if isinstance(participants, list) else list(participants)
        title = f"{game.name}: {' v '.join(names)}"[:120]
    friendly = Friendly.objects.create(owner=owner, title=title, created_at=now or timezone.now())
    Frame.objects.create(
        friendly=friendly,
        number=1,
        order=1,
        kind=Frame.Kind.SINGLES,
        game_id=game.id,
        rules_version=game.version,  # a friendly plays the newest rules
        setup=setup,
    )
    return friendly
