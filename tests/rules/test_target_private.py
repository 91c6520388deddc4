"""The private small balls of forty-one, Kelly and pin pool (target.md, *Private
numbers*): required in a replay, never drawn by the engine itself; a service that starts
a game from names draws them with the generator it is given."""

from __future__ import annotations

import io
import json
import random

import pytest

from rules import RuleError, get, registry, setup_for
from rules.__main__ import main

PRIVATE_GAMES = ("forty_one_pool", "kelly_pool", "pin_pool")


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_a_setup_without_private_is_refused(game):
    with pytest.raises(RuleError) as info:
        get(game).initial({"players": ["Ann", "Bob"]})
    assert (info.value.code, info.value.index) == ("bad_setup", -1)
    assert "private" in info.value.message


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_the_command_line_refuses_a_replay_without_private(game):
    doc = {"game": game, "setup": {"players": ["Ann", "Bob"]}, "events": []}
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", "-"], stdin=io.StringIO(json.dumps(doc)), stdout=out, stderr=err) == 2
    answer = json.loads(err.getvalue())
    assert (answer["error"], answer["index"]) == ("bad_setup", -1)
    assert out.getvalue() == ""


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_names_alone_never_give_the_balls(game):
    # The engine used to deal from random.Random("<game>|<names>"): anyone knowing the
    # names could compute every ball. Now setup_for without a generator refuses.
    with pytest.raises(RuleError) as info:
        setup_for(get(game), ["Ann", "Bob", "Cat"])
    assert info.value.code == "bad_setup"


class Spy(random.Random):
    """A generator that counts its draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.samples = 0

    def sample(self, population, k, **kw):  # type: ignore[override]
        self.samples += 1
        return super().sample(population, k, **kw)


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_setup_for_draws_the_balls_with_the_generator_it_is_given(game):
    g = get(game)
    seen = set()
    for seed in range(12):
        rng = Spy(seed)
        setup = setup_for(g, ["Ann", "Bob", "Cat"], rng=rng)
        assert rng.samples == 1
        private = setup["private"]
        assert sorted(private) == ["Ann", "Bob", "Cat"] and len(set(private.values())) == 3
        low, high = dict(g.rules.options)["private_range"]
        assert all(low <= x <= high for x in private.values())
        g.initial(setup)  # a setup the engine takes
        seen.add(tuple(private.values()))
    assert len(seen) > 1  # the generator decides, not the names


def test_the_drawn_range_follows_the_setup():
    setup = setup_for(get("kelly_pool"), ["A", "B"], {"private_range": [3, 4]}, rng=Spy(1))
    assert sorted(setup["private"].values()) == [3, 4]
    with pytest.raises(RuleError) as info:
        setup_for(get("kelly_pool"), ["A", "B", "C"], {"private_range": [3, 4]}, rng=Spy(1))
    assert info.value.code == "bad_setup"


def test_given_private_balls_are_kept_and_not_drawn():
    rng = Spy(1)
    setup = setup_for(get("pin_pool"), ["A", "B"], {"private": {"A": 5, "B": 9}}, rng=rng)
    assert setup["private"] == {"A": 5, "B": 9} and rng.samples == 0


def test_only_the_private_balls_are_declared_drawn_by_a_service():
    drawn = {
        (game.id, option["name"])
        for game in registry.games()
        for option in game.describe()["setup"]
        if option["drawn_by_service"]
    }
    assert drawn == {(game, "private") for game in PRIVATE_GAMES}
    for game in PRIVATE_GAMES:
        (private,) = [o for o in get(game).describe()["setup"] if o["name"] == "private"]
        assert private["required"] is True


def test_a_game_without_drawn_options_draws_nothing():
    rng = Spy(1)
    assert setup_for(get("bottle_pool"), ["A", "B"], rng=rng) == {"players": ["A", "B"]}
    assert rng.samples == 0
    with pytest.raises(KeyError):
        get("bottle_pool").draw_option("private", {"players": ["A", "B"]}, rng)
