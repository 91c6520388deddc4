"""A new game of a family is a parameter set plus, where its rules differ, a hook: the
worked example of `rules/README.md`, registered, played, described and simulated."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import is_dataclass, replace
from typing import Any

import pytest

from rules import games, get, register, replay
from rules.bagatelle import VICTORIAN, BagatelleState, BoardGame, ReceptacleGame
from rules.bar_billiards import FOUR_PIN, BarBilliards
from rules.carom import THREE_CUSHION, CaromGame, CaromRules, CaromState, CaromStroke, Score
from rules.ledger import HOYLE, LedgerStroke, PoolState, SnookerPool, Verdict
from rules.pocket import FIFTEEN_BALL, NumberedPool, NumberedState
from rules.registry import UnknownGame, unregister
from rules.simulate import simulate_game
from rules.target import FORTY_ONE, FortyOnePool, RedWhiteBlue, TargetState, TargetStroke

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


# ------------------------------------------------ the other families, the same way


class SingleRed(BarBilliards):
    """Bar billiards hook :meth:`~rules.bar_billiards.BarBilliards.pot_points`: the red
    scores the hole, like a white."""

    def pot_points(self, ball: str, hole: int) -> int:
        return hole


class HardPenalty(NumberedPool):
    """Pocket hook :meth:`~rules.pocket.NumberedPool.penalty`: every forfeit costs double."""

    def penalty(self, state: NumberedState, who: int, points: int) -> NumberedState:
        return super().penalty(state, who, 2 * points)


class FreeMiss(FortyOnePool):
    """Target hook :meth:`~rules.target.TargetGame.judge`: a miss owes no ball."""

    def judge(self, s: TargetState, st: TargetStroke) -> TargetState:
        return self.pass_table(s) if st.miss else super().judge(s, st)


class OneBallTurn(BoardGame):
    """Bagatelle hook :meth:`~rules.bagatelle.RoundOfBalls.play`: a turn is one ball."""

    def play(
        self, state: BagatelleState, event: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int, bool]:
        changes, used, _ends = super().play(state, event)
        return changes, used, True


class DoublePot(SnookerPool):
    """Ledger hook :meth:`~rules.ledger.SnookerPool.judge`: every pot is worth double."""

    def judge(self, state: PoolState, stroke: LedgerStroke, ball_on: str | None = None) -> Verdict:
        verdict = super().judge(state, stroke, ball_on)
        return verdict._replace(score=2 * verdict.score)


BLACK_TO_9 = {"type": "ball", "to": 1, "first_hit": "black", "others": [{"ball": "black", "to": 9}]}
RED = {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]}
FO = {"players": ["Ann", "Bob"], "private": {"Ann": 18, "Bob": 6}}

#: family -> (a parameter set game, a hook game, setup, events, what each view shows, keys)
FAMILIES = {
    "carom": (
        CaromGame(replace(TWO_CUSHION, id="two_cushion_short", aliases=("two_short",), target=10)),
        DoubleCarom(replace(DOUBLE, id="double_carom_short", target=10)),
        {},
        [TWO_CUSHIONS],
        {"scores": {"P1": 1, "P2": 0}, "at_table": "P1"},
        {"scores": {"P1": 2, "P2": 0}, "at_table": "P1"},
    ),
    "bar_billiards": (
        BarBilliards(
            replace(
                FOUR_PIN,
                id="treble_red_bar_billiards",
                name="Bar billiards, the red treble",
                aliases=("treble_red",),
                red_multiplier=3,
                white_balls=6,
                white_ball_choices=(5, 6),
                pin_penalties=(("pin_200", "break"), ("pin_100", "break"), ("pin_50", "break")),
            )
        ),
        SingleRed(replace(FOUR_PIN, id="single_red_bar_billiards", aliases=())),
        {},
        # home: the red in the 100 and a white in the 50, then a shot that banks it; away
        # misses; home's black pin falls: a break penalty here, the entire score at 4-pin
        [
            {"type": "shot", "pots": [{"ball": "red", "hole": 100}, {"ball": "white", "hole": 50}]},
            {"type": "shot"},
            {"type": "shot", "fouls": ["miss"]},
            {"type": "shot", "fouls": ["pin_200"]},
        ],
        {"scores": {"home": 350, "away": 0}, "high_break": {"home": 350, "away": 0}},
        {"scores": {"home": 0, "away": 0}, "high_break": {"home": 150, "away": 0}},
    ),
    "pocket": (
        NumberedPool(
            replace(FIFTEEN_BALL, id="gentle_fifteen", aliases=("gentle",), failed_opening=1)
        ),
        HardPenalty(replace(FIFTEEN_BALL, id="hard_fifteen", aliases=())),
        {},
        [{"type": "stroke", "cushion": False}],  # a failed opening
        {"scores": {"P1": -1, "P2": 0}},
        {"scores": {"P1": -6, "P2": 0}},
    ),
    "target": (
        FortyOnePool(
            replace(
                FORTY_ONE,
                id="thirty_one_pool",
                aliases=("31_pool",),
                options=(("private", None), ("private_range", (6, 18)), ("target", 31)),
            )
        ),
        FreeMiss(replace(FORTY_ONE, id="free_miss_forty_one", aliases=())),
        FO,
        [{"type": "stroke"}, {"type": "stroke", "contacts": [13], "pots": [{"ball": 13}]}],
        # 31: Ann's miss owes a ball, Bob 6 + 13 = 19; the hook: Ann owes nothing
        {"owed": {"Ann": 1, "Bob": 0}, "scores": {"Ann": 0, "Bob": 13}, "over": False},
        {"owed": {"Ann": 0, "Bob": 0}, "scores": {"Ann": 0, "Bob": 13}},
    ),
    "bagatelle": (
        BoardGame(
            replace(
                VICTORIAN,
                id="treble_black_bagatelle",
                aliases=("treble_black",),
                defaults=tuple(
                    (k, 3 if k == "black_multiplier" else v) for k, v in VICTORIAN.defaults
                ),
            )
        ),
        OneBallTurn(replace(VICTORIAN, id="one_ball_bagatelle", aliases=())),
        {},
        [BLACK_TO_9],  # the black in the 9 (and the white in the 1)
        {"scores": {"P1": 28, "P2": 0}, "at_table": "P1"},
        {"scores": {"P1": 19, "P2": 0}, "at_table": "P2"},
    ),
    "ledger": (
        SnookerPool(replace(HOYLE, id="six_red_snooker_pool", aliases=("six_red",), reds=6)),
        DoublePot(replace(HOYLE, id="double_snooker_pool", aliases=())),
        {"players": ["A", "B"]},
        [RED],
        {"reds": 5, "scores": {"A": 1, "B": -1}},
        {"reds": 14, "scores": {"A": 2, "B": -2}},
    ),
}


@pytest.fixture(params=sorted(FAMILIES))
def family_games(request):
    family = request.param
    by_params, by_hook, setup, events, expected, expected_hook = FAMILIES[family]
    games = (register(by_params), register(by_hook))
    yield family, games, setup, events, (expected, expected_hook)
    for game in games:
        unregister(game.id)
    for game in games:
        with pytest.raises(UnknownGame):
            get(game.id)


def test_every_family_adds_a_game_by_parameters_and_by_a_hook(family_games):
    family, games, setup, events, expected = family_games
    for game, want in zip(games, expected, strict=True):
        assert get(game.id) is game and game.family == family
        for alias in game.aliases:
            assert get(alias) is game
        view = game.view(replay(game, setup, events))
        assert {k: view[k] for k in want} == want, game.id
        described = game.describe()
        assert described["id"] == game.id and described["family"] == family
        start = _drawn_setup(game)
        simulated = simulate_game(game, start, seed=3, max_events=200)
        assert simulated and game.view(replay(game, start, simulated))["events"] == len(simulated)


def test_a_bar_billiards_parameter_set_refuses_an_unknown_pin_or_penalty():
    for pins in ((("pin_300", "break"),), (("pin_200", "lose_frame"),)):
        with pytest.raises(ValueError, match="pin_penalties"):
            BarBilliards(replace(FOUR_PIN, id="bad_pins", pin_penalties=pins))


def _renamed(game: Any) -> Any:
    """``game`` built again from its parameter set under a new id (None: it has none)."""
    rules = getattr(game, "rules", None)
    if not is_dataclass(rules) or isinstance(rules, type):
        return None
    renamed = replace(rules, id=f"copy_of_{game.id}", aliases=())
    if isinstance(game, RedWhiteBlue):
        return RedWhiteBlue(renamed, game.order, chicago=game.chicago)
    if isinstance(game, ReceptacleGame):
        return ReceptacleGame(renamed, game.places)
    return type(game)(renamed)


def _drawn_setup(game: Any) -> dict[str, Any]:
    """The default setup with what a service would draw (the private small balls),
    drawn here from a seeded generator."""
    setup: dict[str, Any] = {}
    for option in game.options:
        if option.drawn_by_service:
            setup[option.name] = game.draw_option(option.name, setup, random.Random(0))
    return setup


def _without_ids(game: Any, value: Any) -> Any:
    return json.loads(json.dumps(value, default=str).replace(game.id, "ID"))


@pytest.mark.parametrize("game_id", [g.id for g in games()])
def test_a_game_rebuilt_under_a_new_id_is_the_same_game(game_id):
    # nothing of a family's rules hangs on a game's id: the same parameter set under
    # another id describes, plays and simulates the same
    game = get(game_id)
    copy = _renamed(game)
    if copy is None:
        pytest.skip("a game class without a parameter set")
    described, copied = game.describe(), copy.describe()
    for key in ("id", "aliases", "summary"):
        described.pop(key, None), copied.pop(key, None)
    assert _without_ids(copy, copied) == _without_ids(game, described)
    # a game's draws are seeded by its id, so the copy's own simulated game is checked
    start = _drawn_setup(copy)
    events = simulate_game(copy, start, seed=5, max_events=150)
    assert events and copy.view(replay(copy, start, events))["events"] == len(events)
