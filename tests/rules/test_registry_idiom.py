"""Every game module registers its games one way: a `GAMES` tuple of instances, in the
page's order, handed to `register_all`."""

from __future__ import annotations

import importlib

from rules.registry import GAME_MODULES, games, get, register_all


def test_every_game_module_lists_its_games_in_a_games_tuple_and_registers_them():
    listed = []
    for name in GAME_MODULES:
        module = importlib.import_module(name)
        assert isinstance(module.GAMES, tuple) and module.GAMES, name
        for game in module.GAMES:
            assert get(game.id) is game, (name, game.id)
        listed.extend(game.id for game in module.GAMES)
    assert sorted(listed) == [game.id for game in games()]  # each game once, none missing


def test_register_all_registers_each_game_again_unchanged():
    module = importlib.import_module(GAME_MODULES[0])
    register_all(module.GAMES)
    assert all(get(game.id) is game for game in module.GAMES)
