"""The bagatelle family: the shared engine properties over every game of the family
(refusals change nothing, replay is deterministic, dump/load round-trips, undo equals
replaying the prefix) and the family's own invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.bagatelle import GAMES, BagatelleState, RoundOfBalls
from rules.simulate.bagatelle import random_event, simulate
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_replay_deterministic_and_round_trips,
    try_events,
)

IDS = [g.id for g in GAMES]
SETTINGS = settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
    derandomize=True,
)

GARBAGE: list[Any] = [
    {"type": "pot"},
    {"type": "ball", "to": 99},
    {"type": "ball", "to": "sky"},
    {"type": "ball", "to": 1, "spin": True},
    {"type": "ball", "to": 1, "first_hit": "blue"},
    {"type": "ball", "to": 1, "first_hit": None, "others": [{"ball": "white", "to": 2}]},
    {"type": "ball", "to": 3, "others": [{"ball": "white", "to": 1}] * 9, "first_hit": "white"},
    {"type": "ball", "to": "table", "others": [{"ball": "red", "to": "table"}]},
    {"type": "ball", "pins": {"10": 99}},
    {"type": "ball", "cue": "white", "to": "table", "first_hit": "white"},
    {"type": "count", "weights": [{"player": "P1", "zone": 1, "level": True}]},
    {"type": "respot_red"},
    {"type": "ball", "to": 2, "cushion": "yes"},
    [],
    "ball",
]


def make_event(game: RoundOfBalls, garbage: float):
    def make(rng: random.Random, state: BagatelleState) -> Any:
        if rng.random() < garbage:
            return rng.choice(GARBAGE)
        return random_event(game, state, rng)

    return make


def _setup(game: RoundOfBalls, rng: random.Random) -> dict[str, Any]:
    setup: dict[str, Any] = {}
    hi = game.rules.max_players or 4
    n = rng.randint(game.rules.min_players, min(hi, 4))
    setup["players"] = n
    if game.rules.sides and rng.random() < 0.5:
        setup = {
            "sides": ["A", "B"],
            "players": {"A": ["Ann", "Al"], "B": ["Bob", None]},
        }
    if "ties" in dict(game.rules.defaults) and rng.random() < 0.3:
        setup["ties"] = "shared"
    return setup


@pytest.mark.parametrize("game_id", IDS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_refusals_change_nothing(game_id, rng):
    game = get(game_id)
    setup = _setup(game, rng)
    tried = try_events(game, setup, make_event(game, 0.3), rng, 80)
    assert_refusals_change_nothing(game, setup, tried)


@pytest.mark.parametrize("game_id", IDS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_replay_deterministic_and_dump_round_trips(game_id, rng):
    game = get(game_id)
    setup = _setup(game, rng)
    events = [ev for ev, ok in try_events(game, setup, make_event(game, 0.1), rng, 80) if ok]
    assert_replay_deterministic_and_round_trips(game, setup, events)


@pytest.mark.parametrize("game_id", IDS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_undo_equals_replaying_the_prefix(game_id, rng):
    game = get(game_id)
    setup = _setup(game, rng)
    events = [ev for ev, ok in try_events(game, setup, make_event(game, 0.0), rng, 60) if ok]
    t = Timeline(game, setup)
    for ev in events:
        t.push(ev)
    k = rng.randint(0, len(events))
    for _ in range(k):
        t.undo()
    assert t.state == replay(game, setup, events[: len(events) - k])
    assert t.view() == game.view(replay(game, setup, events[: len(events) - k]))


def _check_invariants(game: RoundOfBalls, before: BagatelleState, after: BagatelleState) -> None:
    rules, cfg = game.rules, after.cfg
    v = game.view(after)
    n = len(cfg.names)
    assert set(v["scores"]) == set(cfg.names)
    assert after.events == before.events + 1
    if rules.balls is not None:
        assert 0 <= v["balls_left"] <= rules.balls
    assert all(k >= 0 for k in after.table)
    if cfg.capacity is not None:
        assert all(k <= cfg.capacity for k in after.cups)
    if rules.penalty != "foul_points":  # only Sans Egal takes points back
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
    if game.id == "victorian_bagatelle" and cfg.v["black_multiplier"] == 2:
        assert v["turn_score"] <= 54  # the printed maximum
    if game.id == "devil_among_the_tailors":
        assert sum(after.scores) - sum(before.scores) <= 860
    if v["over"]:
        assert v["at_table"] is None and v["next"] == "none" and v["playoff"] == []
        in_play = [cfg.names[i] for i in range(n) if i not in after.out]
        scores = {p: v["scores"][p] for p in in_play}
        if v["shared"]:
            assert v["winner"] is None and v["loser"] is None
        elif rules.lowest_loses:
            assert v["loser"] is not None
            assert all(s > scores[v["loser"]] for p, s in scores.items() if p != v["loser"])
            assert (v["winner"] is not None) == (n == 2)
        else:
            assert v["winner"] is not None
            assert all(s < scores[v["winner"]] for p, s in scores.items() if p != v["winner"])
    else:
        assert v["at_table"] in cfg.names
        if v["playoff"]:
            assert v["at_table"] in v["playoff"]


@pytest.mark.parametrize("game_id", IDS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_family_invariants_hold_after_every_event(game_id, rng):
    game = get(game_id)
    setup = _setup(game, rng)
    state = game.initial(setup)
    for _ in range(150):
        if state.over:
            break
        ev = random_event(game, state, rng)
        after = game.apply(state, ev)  # the random referee only makes legal events
        _check_invariants(game, state, after)
        state = after


@pytest.mark.parametrize("game_id", IDS)
def test_simulate_makes_a_legal_game_of_the_asked_length(game_id):
    game = get(game_id)
    setup, events = simulate(game, random.Random(7), 300)
    state = replay(game, setup, events)
    assert state.events == len(events) <= 300
    assert state.over or len(events) == 300
    assert simulate(game, random.Random(7), 300) == (setup, events)


@pytest.mark.parametrize("game_id", IDS)
def test_default_games_play_to_their_end(game_id):
    game = get(game_id)
    setup = {"target": 60} if game.id in ("parepa", "pigeon_hole_jenny_lind") else {}
    setup, events = simulate(game, random.Random(3), 3000, setup=setup)
    assert replay(game, setup, events).over


@pytest.mark.parametrize("game_id", IDS)
def test_player_statistics_add_up(game_id):
    game = get(game_id)
    setup, events = simulate(game, random.Random(11), 200)
    stats = game.player_statistics(setup, events)
    final = game.view(replay(game, setup, events))
    assert set(stats) == set(final["scores"])  # individual play: every player is named
    for st_ in stats.values():
        assert set(st_) == {s.name for s in game.statistics}
        if st_["turns"]:
            assert st_["best_turn"] >= st_["average_turn"] - 1e-9
            assert st_["average_turn"] * st_["turns"] == pytest.approx(st_["points"])
    assert sum(st_["turns"] for st_ in stats.values()) >= 1
    if game.id not in ("mississippi", "sans_egal", "sans_egal_variant"):
        # a participant's points come from his own turns only (Mississippi gives points
        # to the opponents, Sans Egal to a ball's owner)
        for name, st_ in stats.items():
            assert st_["points"] == final["scores"][name]


def test_refused_events_are_refused_everywhere_with_an_index():
    for game in GAMES:
        t = Timeline(game, {})
        with pytest.raises(RuleError) as info:
            t.push({"type": "pot"})
        assert info.value.index == 0 and info.value.code == "unknown_type"


BOARD_IDS = [g.id for g in GAMES if type(g).__name__ in ("BoardGame", "PigeonHole")]


def _tidy(changes: dict[str, Any], state: BagatelleState) -> dict[str, Any]:
    """The fields a stroke really changes (the full path rewrites some unchanged)."""
    return {k: v for k, v in changes.items() if getattr(state, k) != v}


@pytest.mark.parametrize("game_id", BOARD_IDS)
def test_the_short_path_for_a_single_ball_agrees_with_the_full_one(game_id):
    game = get(game_id)
    checked = 0
    for seed in range(8):
        setup, events = simulate(game, random.Random(seed), 120)
        state = game.initial(setup)
        for ev in events:
            if ev["type"] == "ball" and not ev.get("others") and not game._colours:
                for met in (True, False):
                    args = (ev["to"], ev.get("first_hit"), met, ev.get("nominated"))
                    pins = ev.get("pins", 0)
                    short, used_s, _ = game._single(state, *args, pins)
                    full, used_f, _ = game.resolve_all(state, args[0], args[1], [], *args[2:], pins)
                    assert _tidy(short, state) == _tidy(full, state)
                    assert used_s == used_f
                    checked += 1
            state = game.apply(state, ev)
    assert checked or game._colours
