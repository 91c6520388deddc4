"""The pocket family: the shared engine properties over every game of the family (refusals
change nothing, replay is deterministic, dump/load round-trips, undo equals replaying the
prefix), the family's own invariants, and the declared API (outcome, statistics,
display, participants) on random games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.pocket import (
    GAMES,
    BBCPool,
    ColourBallPool,
    GolfPool,
    LifePool,
    NumberedPool,
    PyramidPool,
)
from rules.simulate import simulate_game
from rules.simulate.pocket import is_over, plausible_event, random_setup, simulate
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_replay_deterministic_and_round_trips,
)

IDS = [g.id for g in GAMES]

#: Events that are malformed or cannot have happened in some game of the family.
GARBAGE: list[Any] = [
    [],
    {"type": "pot"},
    {"type": "stroke", "spin": True},
    {"type": "stroke", "cushion": 1},
    {"type": "stroke", "fouls": ["push"]},
    {"type": "stroke", "pots": [{"ball": 16}]},
    {"type": "stroke", "pots": [{"ball": "cue"}, {"ball": "cue"}]},
    {"type": "stroke", "pots": [{"ball": "red", "pocket": "corner"}]},
    {"type": "stroke", "pots": [{"ball": 3}], "fouls": ["miss"]},
    {"type": "stroke", "call": [{"ball": 3}, {"ball": 3}]},
    {"type": "stroke", "on": "pink"},
    {"type": "stroke", "group": "blue"},
    {"type": "lead"},
    {"type": "star", "player": "Ann"},
    {"type": "privilege", "player": "Zed"},
    {"type": "foul", "player": "Ann", "code": "out_of_turn"},
    {"type": "foul", "player": "Zed", "code": "out_of_turn"},
    {"type": "choose_break", "player": "Bob"},
]


def random_game(
    game: Any, rng: random.Random, n: int, garbage: float
) -> tuple[dict[str, Any], list[tuple[Any, bool]]]:
    """A setup and up to ``n`` events tried on it: plausible ones, and now and then a
    malformed or impossible one; each with whether the engine accepted it."""
    setup = random_setup(game, rng, n)
    t = Timeline(game, setup)
    tried: list[tuple[Any, bool]] = []
    for _ in range(n):
        if is_over(game, t.state) and rng.random() < 0.8:
            break
        if rng.random() < garbage:
            ev = rng.choice(GARBAGE)
        elif is_over(game, t.state):
            ev = {"type": "stroke"}
        else:
            ev = plausible_event(game, t.state, rng, skill=rng.choice((0.2, 0.45, 0.7)))
        try:
            t.push(ev)
        except RuleError:
            tried.append((ev, False))
        else:
            tried.append((ev, True))
    return setup, tried


@st.composite
def games(draw: st.DrawFn, game: Any) -> dict[str, Any]:
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(min_value=0, max_value=160))
    setup, tried = random_game(game, rng, n, garbage=0.15)
    return {"setup": setup, "tried": tried}


_PROPS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_refused_events_change_nothing(game):
    @_PROPS
    @given(games(game))
    def check(g: dict[str, Any]) -> None:
        assert_refusals_change_nothing(game, g["setup"], g["tried"])

    check()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_replay_is_deterministic_and_dump_round_trips(game):
    @_PROPS
    @given(games(game))
    def check(g: dict[str, Any]) -> None:
        events = [ev for ev, ok in g["tried"] if ok]
        assert_replay_deterministic_and_round_trips(game, g["setup"], events)

    check()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_undo_equals_replaying_the_prefix(game):
    @_PROPS
    @given(games(game), st.integers(min_value=0, max_value=40))
    def check(g: dict[str, Any], back: int) -> None:
        events = [ev for ev, ok in g["tried"] if ok]
        t = Timeline(game, g["setup"])
        for ev in events:
            t.push(ev)
        back = min(back, len(events))
        for _ in range(back):
            t.undo()
        prefix = events[: len(events) - back]
        assert t.state == replay(game, g["setup"], prefix)
        assert t.view() == game.view(replay(game, g["setup"], prefix))

    check()


def _invariants(game: Any, state: Any) -> None:
    view = game.view(state)
    assert json.loads(json.dumps(view)) == view
    assert (view["at_table"] is None) == view["over"]
    assert not (view["winner"] is not None and view["shared"])
    if isinstance(game, LifePool):
        # the ledger: balances and pool sum to 0; the pool is paid out at the end
        total = sum(view["scores"].values()) + view["pool"]
        assert total == 0
        if view["over"]:
            assert view["pool"] == 0
        assert all(n >= 0 for n in view["lives"].values())
        assert [p for p, n in view["lives"].items() if n == 0] == [
            state.players[i] for i in range(len(state.players)) if state.seats.out[i]
        ]
    if isinstance(game, NumberedPool):
        assert view["on_table"] == sorted(set(view["on_table"]))
        assert all(1 <= b <= 15 for b in view["on_table"])
        assert all(s >= 0 for s in view["scratches"].values())
        if isinstance(game, PyramidPool):
            # every ball is on the table or in one rack; a score is its rack's size
            in_racks = sum(len(r) for r in state.racks)
            assert len(view["on_table"]) + in_racks == 15
            assert list(state.scores) == [len(r) for r in state.racks]
    if isinstance(game, BBCPool):
        # every red and yellow is on the table or credited to the side that owns it
        counts = view["on_table"]
        owners = {c: s for s, c in view["groups"].items() if c}
        for colour in ("red", "yellow"):
            credited = view["scores"][owners[colour]] if colour in owners else 0
            assert counts[colour] + credited == 7
    if isinstance(game, GolfPool):
        assert all(cost >= 1 for card in view["card"].values() for cost in card)
        assert sum(len(c) for c in view["card"].values()) <= 6 * len(view["card"])
    if isinstance(game, ColourBallPool) and not view["over"]:
        # whoever is at the table has something to play on
        on_table = set(view["on_table"])
        assert view["on"] is None or view["on"] in on_table
        own = state.turn
        assert any(b != own for b in range(len(state.players)) if state.table >> b & 1)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_family_invariants_hold_after_every_event(game):
    @_PROPS
    @given(games(game))
    def check(g: dict[str, Any]) -> None:
        state = game.initial(g["setup"])
        _invariants(game, state)
        last_scores = None
        for ev, ok in g["tried"]:
            if not ok:
                continue
            state = game.apply(state, ev)
            _invariants(game, state)
            if isinstance(game, GolfPool):
                scores = game.view(state)["scores"]
                if last_scores is not None:
                    assert all(scores[p] >= last_scores[p] for p in scores)
                last_scores = scores

    check()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_simulated_games_are_legal_and_reach_the_end(game):
    finished = 0
    given = {"target": 40} if game.id == "continuous_pool" else None
    for seed in range(10):
        setup, events = simulate(game, random.Random(seed), 3000, setup=given)
        state = replay(game, setup, events)
        finished += game.view(state)["over"]
        assert simulate(game, random.Random(seed), 3000, setup=given) == (setup, events)
    assert finished >= 8


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_core_generator_plays_every_game_and_outcome_matches_the_view(game):
    setup = game.setup_for(["Ann", "Bob"])
    for seed in range(3):
        events = simulate_game(game, setup, seed=seed)
        state = replay(game, setup, events)
        out, view = game.outcome(state), game.view(state)
        assert (out.over, out.winner, out.shared) == (view["over"], view["winner"], view["shared"])
        stats = game.player_statistics(setup, events)
        assert set(stats) == {"Ann", "Bob"}


def test_statistics_of_a_fifteen_ball_game_are_counted_from_the_log():
    g = get("fifteen_ball_pool")
    events = [
        {"type": "stroke", "pots": [{"ball": 15}, {"ball": 14}]},  # Ann: 2 balls
        {"type": "stroke", "pots": [{"ball": 1}], "call": [{"ball": 1}]},  # run of 3
        {"type": "stroke", "fouls": ["miss"]},  # Ann scratches
        {"type": "stroke", "pots": [{"ball": 2}], "call": [{"ball": 2}]},  # Bob 1
        {"type": "foul", "player": "Ann", "code": "out_of_turn"},  # Ann scratches again
    ]
    stats = g.player_statistics({"players": ["Ann", "Bob"]}, events)
    assert stats["Ann"] == {"balls_potted": 3, "high_run": 3, "scratches": 2, "points": 24}
    assert stats["Bob"] == {"balls_potted": 1, "high_run": 1, "scratches": 0, "points": 2}


def test_statistics_of_a_life_game_count_lives_and_the_net():
    g = get("two_ball_pool")
    setup = {"players": ["Ann", "Bob"], "lives": 1}
    events = [{"type": "lead"}, {"type": "stroke", "pots": [{"ball": "red"}]}]
    stats = g.player_statistics(setup, events)
    assert stats["Bob"] == {
        "lives_lost": 0,
        "lives_taken": 1,
        "balls_potted": 1,
        "revivals": 0,
        "net": 2,
    }
    assert stats["Ann"]["lives_lost"] == 1 and stats["Ann"]["net"] == -2


def test_statistics_of_golf_partners_are_each_players_own():
    g = get("golf_pool")
    setup = {"sides": ["X", "Y"], "players": {"X": ["Ann", "Cat"], "Y": ["Bob", "Dan"]}}
    made = {"type": "stroke", "pots": [{"ball": "red", "pocket": "side_left", "bank": True}]}
    events = [{"type": "stroke", "cushion": False}, made, made]
    stats = g.player_statistics(setup, events)
    assert stats["Ann"] == {"strokes": 1, "penalties": 1, "holes_made": 0, "total": 5}
    assert stats["Cat"] == {"strokes": 1, "penalties": 0, "holes_made": 1, "total": 5}
    assert stats["Bob"] == {"strokes": 1, "penalties": 0, "holes_made": 1, "total": 1}
    assert stats["Dan"]["strokes"] == 0


def test_statistics_refuse_a_bad_log_with_its_index():
    g = get("rotation_pool")
    with pytest.raises(RuleError) as info:
        g.player_statistics({}, [{"type": "stroke"}, {"type": "stroke", "pots": [{"ball": 0}]}])
    assert (info.value.code, info.value.index) == ("bad_value", 1)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_describe_declares_the_pads_needs(game):
    d = game.describe()
    assert d["family"] == "pocket"
    assert d["participants"]["kind"] in ("players", "sides")
    assert d["statistics"] and d["display"]
    view = game.view(game.initial({}))
    assert all(entry["key"] in view for entry in d["display"])
    assert set(d["state"]) == set(view)
