"""The registry of games: find a game by id or alias.

Game modules are listed in :data:`GAME_MODULES` and imported on first use; each calls
:func:`register` at import time.

>>> from rules.registry import get, games
>>> get("bar_billiards_4pin").id
'bar_billiards_4pin'
>>> get("bar-billiards").id
'bar_billiards_4pin'
>>> "bar_billiards_4pin" in [g.id for g in games()]
True
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable
from typing import Any, TypeVar

from rules.core import Game, set_lookup

__all__ = [
    "DEFAULT_GAME",
    "GAME_MODULES",
    "UnknownGame",
    "default_game_id",
    "game_choices",
    "games",
    "get",
    "register",
    "register_all",
    "unregister",
]

#: The modules that define games, imported the first time the registry is asked.
GAME_MODULES: tuple[str, ...] = (
    "rules.bar_billiards",
    "rules.bagatelle",
    "rules.carom",
    "rules.ledger",
    "rules.pocket",
    "rules.target",
)

_GAMES: dict[str, Game[Any]] = {}
_NAMES: dict[str, str] = {}
_loaded = False
_load_lock = threading.RLock()  # re-entrant: a game module imports this one while loading

G = TypeVar("G", bound="Game[Any] | type[Game[Any]]")


class UnknownGame(KeyError):
    """No game has this id or alias."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.message = f"unknown game {name!r} (known: {', '.join(known) or 'none'})"

    def __str__(self) -> str:
        return self.message


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(game: G) -> G:
    """Register a game (an instance, or a Game subclass, which is instantiated) under its
    id and aliases; returns its argument, so it also works as a class decorator.

    Registering the same id again replaces the game; an alias already used by another
    game raises ValueError.
    """
    instance: Game[Any] = game() if isinstance(game, type) else game
    if not instance.id:
        raise ValueError(f"{instance!r} has no id")
    for name in (instance.id, *instance.aliases):
        owner = _NAMES.get(_key(name))
        if owner is not None and owner != instance.id:
            raise ValueError(f"{name!r} already names the game {owner!r}")
    old = _GAMES.get(instance.id)
    if old is not None:
        for name in (old.id, *old.aliases):
            _NAMES.pop(_key(name), None)
    _GAMES[instance.id] = instance
    for name in (instance.id, *instance.aliases):
        _NAMES[_key(name)] = instance.id
    return game


def register_all(games: Iterable[Game[Any]]) -> None:
    """Register every game of a family: each family module ends with
    ``register_all(GAMES)``, its ``GAMES`` a tuple of instances in its page's order."""
    for game in games:
        register(game)


def unregister(name: str) -> Game[Any]:
    """Remove the game with this id or alias (and its aliases); returns it. Raises
    :class:`UnknownGame` if there is none. For tests that register a game of their own."""
    game = get(name)
    del _GAMES[game.id]
    for alias in (game.id, *game.aliases):
        _NAMES.pop(_key(alias), None)
    return game


def _load() -> None:
    """Import the game modules once. Threads wait until every module is in: the flag is
    set only after the imports, under a lock (a web server's first concurrent requests
    must never see a half-filled registry)."""
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if _loaded:
            return
        for module in GAME_MODULES:
            importlib.import_module(module)
        _loaded = True


def get(name: str) -> Game[Any]:
    """The game with this id or alias (case, ``-`` and ``_`` do not matter).

    >>> get("snooker")
    Traceback (most recent call last):
    ...
    rules.registry.UnknownGame: unknown game 'snooker' (known: ...)
    """
    _load()
    game_id = _NAMES.get(_key(name)) if isinstance(name, str) else None
    if game_id is None:
        raise UnknownGame(str(name), sorted(_GAMES))
    return _GAMES[game_id]


#: The game a new league or season plays unless it names another (Marker's first league).
DEFAULT_GAME = "bar_billiards_4pin"


def default_game_id() -> str:
    """The default game's id (a callable, for a model field's default)."""
    return DEFAULT_GAME


def game_choices() -> list[tuple[str, str]]:
    """(id, name) of every registered game, by name: for a form's choices."""
    return sorted(((g.id, g.name) for g in games()), key=lambda c: c[1].lower())


def games() -> list[Game[Any]]:
    """Every registered game, sorted by id."""
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]


set_lookup(get)  # rules.core.replay("game id", ...) finds games here
