"""The registry of games: find a game by id or alias, and by rules version.

Game modules are listed in :data:`GAME_MODULES` and imported on first use; each calls
:func:`register` at import time. Every version of a game's rules stays registered
(:attr:`Game.version`): ``get(id)`` is the newest, ``get(id, version)`` the one a stored
frame was played under (docs/rules-governance.md).

>>> from rules.registry import get, games
>>> get("bar_billiards_4pin").id
'bar_billiards_4pin'
>>> get("bar-billiards").id
'bar_billiards_4pin'
>>> "bar_billiards_4pin" in [g.id for g in games()]
True
>>> get("bar-billiards", 1).version
1
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable
from typing import Any, TypeVar

from rules.core import Game, RuleChange, set_lookup

__all__ = [
    "DEFAULT_GAME",
    "GAME_MODULES",
    "UnknownGame",
    "UnknownVersion",
    "changes",
    "default_game_id",
    "game_choices",
    "games",
    "get",
    "register",
    "register_all",
    "unregister",
    "versions",
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

_GAMES: dict[str, Game[Any]] = {}  # id -> the newest version
_VERSIONS: dict[str, dict[int, Game[Any]]] = {}  # id -> version -> the game
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


class UnknownVersion(UnknownGame):
    """The game is known, but not at this rules version."""

    def __init__(self, game_id: str, version: Any, known: list[int]) -> None:
        super().__init__(game_id, [])
        self.version = version
        self.message = (
            f"{game_id} has no rules version {version!r} "
            f"(known: {', '.join(str(v) for v in known)})"
        )


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(game: G) -> G:
    """Register a game (an instance, or a Game subclass, which is instantiated) under its
    id and aliases, at its rules version; returns its argument, so it also works as a class
    decorator.

    The newest version registered is the one ``get(id)`` answers; older ones stay for
    ``get(id, version)``. Registering the same id and version again replaces that version;
    an alias already used by another game raises ValueError.
    """
    instance: Game[Any] = game() if isinstance(game, type) else game
    if not instance.id:
        raise ValueError(f"{instance!r} has no id")
    if not isinstance(instance.version, int) or instance.version < 1:
        raise ValueError(f"{instance!r}: a rules version is a whole number from 1")
    for name in (instance.id, *instance.aliases):
        owner = _NAMES.get(_key(name))
        if owner is not None and owner != instance.id:
            raise ValueError(f"{name!r} already names the game {owner!r}")
    versions = _VERSIONS.setdefault(instance.id, {})
    versions[instance.version] = instance
    _set_current(instance.id)
    return game


def _set_current(game_id: str) -> None:
    """Make the newest registered version of ``game_id`` the one its names find."""
    old = _GAMES.pop(game_id, None)
    if old is not None:
        for name in (old.id, *old.aliases):
            _NAMES.pop(_key(name), None)
    versions = _VERSIONS.get(game_id)
    if not versions:
        _VERSIONS.pop(game_id, None)
        return
    current = versions[max(versions)]
    _GAMES[game_id] = current
    for name in (current.id, *current.aliases):
        _NAMES[_key(name)] = current.id


def register_all(games: Iterable[Game[Any]]) -> None:
    """Register every game of a family: each family module ends with
    ``register_all(GAMES)``, its ``GAMES`` a tuple of instances in its page's order."""
    for game in games:
        register(game)


def unregister(name: str, version: int | None = None) -> Game[Any]:
    """Remove the game with this id or alias, every version of it (or only ``version``:
    the newest left becomes current); returns the game removed (the newest, when all
    go). Raises :class:`UnknownGame` if there is none. For tests that register a game, or
    a version, of their own."""
    game = get(name, version)
    if version is None:
        _VERSIONS.pop(game.id, None)
    else:
        del _VERSIONS[game.id][version]
    _set_current(game.id)
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


def get(name: str, version: int | None = None) -> Game[Any]:
    """The game with this id or alias (case, ``-`` and ``_`` do not matter), at rules
    ``version`` (None: the newest).

    >>> get("snooker")
    Traceback (most recent call last):
    ...
    rules.registry.UnknownGame: unknown game 'snooker' (known: ...)
    >>> get("bar_billiards_4pin", 99)
    Traceback (most recent call last):
    ...
    rules.registry.UnknownVersion: bar_billiards_4pin has no rules version 99 (known: 1)
    """
    _load()
    game_id = _NAMES.get(_key(name)) if isinstance(name, str) else None
    if game_id is None:
        raise UnknownGame(str(name), sorted(_GAMES))
    if version is None:
        return _GAMES[game_id]
    known = _VERSIONS[game_id]
    game = (
        known.get(version) if isinstance(version, int) and not isinstance(version, bool) else None
    )
    if game is None:
        raise UnknownVersion(game_id, version, sorted(known))
    return game


def versions(name: str) -> list[Game[Any]]:
    """Every registered version of a game, oldest first.

    >>> [g.version for g in versions("bar_billiards_4pin")]
    [1]
    """
    game = get(name)
    return [_VERSIONS[game.id][v] for v in sorted(_VERSIONS[game.id])]


def changes(name: str, after: int = 1, upto: int | None = None) -> list[RuleChange]:
    """The changelog lines of a game between two rules versions: those of the versions
    after ``after`` up to ``upto`` (None: the newest), oldest first, each once, gathered
    from every registered version's changelog. What a secretary reads before moving a
    season to a newer version.

    >>> changes("bar_billiards_4pin")
    []
    """
    top = get(name).version if upto is None else upto
    seen: dict[tuple[int, str], RuleChange] = {}
    for game in versions(name):
        for line in game.changelog:
            if after < line.version <= top:
                seen.setdefault((line.version, line.change), line)
    return sorted(seen.values(), key=lambda c: c.version)


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
