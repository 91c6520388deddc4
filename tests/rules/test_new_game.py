"""A new game of a family is a parameter set plus, where its rules differ, a hook: the
worked example of `rules/README.md`, registered, played, described and simulated."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import get, register, replay
from rules.carom import THREE_CUSHION, CaromGame, CaromRules, CaromState, CaromStroke, Score
from rules.registry import UnknownGame, unregister
from rules.simulate import simulate_game

#: The parameter set: three-cushion carom with two cushions and a shorter game.
TWO_CUSHION = replace(
    THREE_CUSHION,
    id="two_cushion_carom",
    name="Two-cushion carom",
    aliases=("two_cushion",),
    source="a house rule of the example",
    summary="a carom counts only if the cue ball met cushions at least twice before completing it",
    cushions=2,
    target=30,
)


class DoubleCarom(CaromGame):
    """A hook: the family's rule, then every count doubled."""

    def score_stroke(self, state: CaromState, st: CaromStroke) -> Score:
        score = super().score_stroke(state, st)
        return score._replace(striker=2 * score.striker)


DOUBLE = CaromRules(
    id="double_carom",
    name="Double carom",
    aliases=(),
    source="a house rule of the example",
    summary="three-ball carom, each carom counting 2",
    target=20,
)


@pytest.fixture
def new_games():
    games = (register(CaromGame(TWO_CUSHION)), register(DoubleCarom(DOUBLE)))
    yield games
    for game in games:
        unregister(game.id)


TWO_CUSHIONS = {"type": "stroke", "contacts": ["cushion", "cushion", "red", "white"]}


def test_a_parameter_set_registers_a_playable_game(new_games):
    game = get("two-cushion")
    assert game is new_games[0] and game.family == "carom"
    assert game.view(replay(game, {}, [TWO_CUSHIONS]))["scores"] == {"P1": 1, "P2": 0}
    three = get("three_cushion_carom")  # the same stroke does not count at three cushions
    assert three.view(replay(three, {}, [TWO_CUSHIONS]))["scores"] == {"P1": 0, "P2": 0}
    described = game.describe()
    assert described["id"] == "two_cushion_carom" and described["aliases"] == ["two_cushion"]
    assert [o["default"] for o in described["setup"] if o["name"] == "target"] == [30]


def test_a_hook_changes_one_rule_and_keeps_the_rest(new_games):
    game = get("double_carom")
    carom = {"type": "stroke", "contacts": ["red", "white"]}
    miss = {"type": "stroke", "contacts": []}
    view = game.view(replay(game, {"players": ["Ann", "Bob"]}, [carom, carom, miss]))
    # two caroms doubled; the miss still gives the opponent 1 (the family's rule, not doubled)
    assert view["scores"] == {"Ann": 4, "Bob": 1} and view["at_table"] == "Bob"


def test_new_games_are_simulated_and_replayed_like_the_familys(new_games):
    for game in new_games:
        events = simulate_game(game, seed=1, max_events=200)
        assert events and game.view(replay(game, {}, events))["events"] == len(events)


def test_unregistering_forgets_the_id_and_aliases():
    game = register(CaromGame(replace(TWO_CUSHION, id="one_off", aliases=("one-off-alias",))))
    assert unregister("one-off-alias") is game
    for name in ("one_off", "one-off-alias"):
        with pytest.raises(UnknownGame):
            get(name)
