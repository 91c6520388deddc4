"""The shared engine properties over every game of the target family, and the family's own
invariants, on seeded plausible random games (:func:`rules.simulate.target.simulate`)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.simulate.target import simulate
from rules.target import GAMES, TargetGame, TargetState
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_replay_deterministic_and_round_trips,
)

BY_ID = {game.id: game for game in GAMES}
IDS = sorted(BY_ID)
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GARBAGE: list[Any] = [
    [],
    {"type": "shot"},
    {"type": "stroke", "spin": True},
    {"type": "stroke", "contacts": ["nobody"]},
    {"type": "stroke", "contacts": 3},
    {"type": "stroke", "player": "Zed"},
    {"type": "stroke", "fouls": ["made_up"]},
    {"type": "stroke", "pins": [{"pin": "nowhere", "by": "red"}]},
    {"type": "stroke", "pots": [{"ball": 99}]},
    {"type": "proclaim", "player": "P1"},
    {"type": "privilege", "player": "P2", "drawn": 1},
    {"type": "retire", "player": "P3"},
    {"type": "time_up"},
    {"type": "prompt", "player": "P1"},
]


@st.composite
def games(draw: st.DrawFn, max_len: int = 120) -> tuple[TargetGame, dict[str, Any], list[Any]]:
    game = BY_ID[draw(st.sampled_from(IDS))]
    seed = draw(st.integers(min_value=0, max_value=10**6))
    length = draw(st.integers(min_value=0, max_value=max_len))
    players = draw(st.integers(min_value=2, max_value=5))
    setup, events = simulate(game, random.Random(seed), length, players=players)
    return game, setup, events


def _tried(game: TargetGame, setup: dict[str, Any], events: list[Any], rng: random.Random):
    """The legal events with garbage between them, each with whether it was accepted."""
    t = Timeline(game, setup)
    tried: list[tuple[Any, bool]] = []
    for ev in events:
        if rng.random() < 0.3:
            bad = rng.choice(GARBAGE)
            try:
                t.push(bad)
            except RuleError:
                tried.append((bad, False))
            else:
                tried.append((bad, True))
                continue  # the game moved on: the simulated events no longer apply
        try:
            t.push(ev)
        except RuleError:
            tried.append((ev, False))
            break
        tried.append((ev, True))
    return tried


@SETTINGS
@given(games(), st.randoms(use_true_random=False))
def test_refusals_change_nothing(case, rng):
    game, setup, events = case
    assert_refusals_change_nothing(game, setup, _tried(game, setup, events, rng))


@SETTINGS
@given(games())
def test_replay_is_deterministic_and_dump_round_trips(case):
    game, setup, events = case
    assert_replay_deterministic_and_round_trips(game, setup, events)


@SETTINGS
@given(games(max_len=60), st.data())
def test_undo_equals_replaying_the_prefix(case, data):
    game, setup, events = case
    t = Timeline(game, setup)
    for ev in events:
        t.push(ev)
    k = data.draw(st.integers(min_value=0, max_value=len(events)))
    for _ in range(len(events) - k):
        t.undo()
    assert t.state == replay(game, setup, events[:k])
    assert t.view() == game.view(replay(game, setup, events[:k]))


def _invariants(game: TargetGame, s: TargetState) -> None:
    v = game.view(s)
    names = list(s.players)
    assert set(v["scores"]) == set(names) and set(v["paid"]) == set(names)
    assert all(p in names for p in v["in_game"])
    assert all(x >= 0 for x in v["paid"].values())
    if v["over"]:
        assert v["at_table"] is None and v["pending"] is None and v["next"] == "none"
        assert not (v["shared"] and v["winner"] is not None)
    else:
        assert v["at_table"] in v["in_game"]
        assert (v["pending"] is not None) == (v["next"] == "decide")
    gid = game.id
    target = s.cfg.target
    if game.rules.private:
        assert ("private" in v) == v["over"]
        for i in range(len(names)):
            assert game.total(s, i) <= target  # a burst always comes off
    if gid in ("forty_one_pool", "kelly_pool"):
        racks = [set(r) for r in v["racks"].values()]
        balls = set(v["on_table"])
        for r in racks:
            assert not r & balls
            balls |= r
        assert sum(len(r) for r in racks) + len(v["on_table"]) == 15 and balls == set(range(1, 16))
    if gid == "forty_one_pool":
        assert all(v["scores"][n] == sum(v["racks"][n]) for n in names)
        assert all(x == 0 or not v["racks"][n] for n, x in v["owed"].items())
    if gid in ("bottle_pool", "parisian_31_pool"):
        assert all(x <= target for x in v["scores"].values())
    if gid == "skittle_pool":
        assert all(0 <= x <= 2 for x in v["misses"].values())
        assert v["over"] or all(x < target for x in v["scores"].values())
    if gid.startswith("red_white_blue"):
        assert all(v["scores"][n] == len(v["pins_held"][n]) for n in names)
        assert v["over"] or all(x < 3 for x in v["scores"].values())
    if gid == "two_pin_pool":
        assert sum(v["scores"].values()) == 0
        assert all(x % s.cfg.unit == 0 for x in v["scores"].values())
    if gid == "bouchon_pool":
        assert sum(v["scores"].values()) + v["pool"] == 0
        assert v["pool"] >= 0
    if gid == "bull_dog_pool":
        assert all(0 <= x <= 50 for x in v["scores"].values())
        assert v["over"] or 0 <= v["scores"][v["at_table"]] + v["run"] <= 50
    if gid == "cowboy_pool":
        assert all(0 <= x <= 101 for x in v["scores"].values())
        assert v["over"] or 0 <= v["scores"][v["at_table"]] + v["run"] <= 100


@SETTINGS
@given(games(max_len=150))
def test_family_invariants_hold_after_every_event(case):
    game, setup, events = case
    s = game.initial(setup)
    _invariants(game, s)
    before_in_game = set(s.players)
    for ev in events:
        s = game.apply(s, ev)
        _invariants(game, s)
        now = set(game.view(s)["in_game"])
        assert now <= before_in_game  # nobody comes back
        before_in_game = now


@pytest.mark.parametrize("gid", IDS)
def test_simulated_games_are_legal_reproducible_and_can_run_long(gid):
    game = BY_ID[gid]
    a = simulate(game, random.Random(7), 400)
    assert a == simulate(game, random.Random(7), 400)
    setup, events = a
    assert 390 <= len(events) <= 400  # steered away from the end until the last ten
    s = replay(game, setup, events)
    assert game.view(s)["events"] == len(events)
    assert json.loads(json.dumps(game.dump(s))) is not None


@pytest.mark.parametrize("gid", IDS)
def test_simulated_games_can_be_played_to_the_end(gid):
    game = BY_ID[gid]
    ended = 0
    length = 400 if gid in ("bull_dog_pool", "cowboy_pool") else 60  # 50 or 101 to make
    for seed in range(40):
        setup, events = simulate(game, random.Random(seed), length, players=2)
        ended += replay(game, setup, events).over
    assert ended > 0, "no simulated game ever ended"


@pytest.mark.parametrize("gid", IDS)
def test_statistics_are_declared_and_counted_from_the_log(gid):
    game = BY_ID[gid]
    setup, events = simulate(game, random.Random(3), 80)
    stats = game.player_statistics(setup, events)
    declared = [s.name for s in game.statistics]
    assert "won" in declared
    for row in stats.values():
        assert list(row) == declared
    s = replay(game, setup, events)
    assert sum(r["won"] for r in stats.values()) == (1 if game.view(s)["winner"] else 0)
    if "balance" in declared:
        assert sum(r["balance"] for r in stats.values()) == sum(game.view(s)["scores"].values())


@pytest.mark.parametrize("gid", IDS)
def test_describe_declares_statistics_display_and_participants(gid):
    d = get(gid).describe()
    assert d["family"] == "target"
    assert d["participants"]["kind"] == "players" and d["participants"]["count"]
    assert d["participants"]["min"] == 2 and d["participants"]["max"] is None
    keys = [x["key"] for x in d["display"]]
    assert "scores" in keys and all(k in d["state"] for k in keys)
    assert {s["name"] for s in d["statistics"]} >= {"won"}
    view = get(gid).view(get(gid).initial(_setup_for(gid)))
    assert all(k in view for k in keys)
    assert set(d["state"]) - {"private", "totals"} <= set(view)


def _setup_for(gid: str) -> dict[str, Any]:
    return simulate(BY_ID[gid], random.Random(0), 0)[0]


def test_outcome_names_the_loser_among_three_where_the_page_does():
    # forty-one and bottle pool name a loser; the others, among three, name none
    s = replay(
        "bottle_pool",
        {"players": 3},
        [
            {"type": "stroke"},
            {"type": "stroke", "contacts": [2, "bottle"], "bottle": {"to": "seated", "by": "cue"}},
        ],
    )
    out = BY_ID["bottle_pool"].outcome(s)
    assert out.winner == "P2" and out.loser == "P1"
    s = replay(
        "two_pin_pool",
        {"players": 3},
        [{"type": "stroke", "contacts": ["red"], "pins": [{"pin": "white"}]}],
    )
    out = BY_ID["two_pin_pool"].outcome(s)
    assert out.winner == "P1" and out.loser is None and out.result("P3") == "loss"


def test_outcome_is_typed_from_the_state():
    game = BY_ID["bottle_pool"]
    s = replay(game, {}, [{"type": "stroke"}, {"type": "stroke", "contacts": [1, 2]}])
    assert game.outcome(s).over is False
    s = replay(game, {}, [{"type": "stroke", "contacts": [1, 2]}])
    s = game.apply(
        s,
        {"type": "stroke", "contacts": [2, "bottle"], "bottle": {"to": "seated", "by": "cue"}},
    )
    out = game.outcome(s)
    assert out.over and out.winner == "P1" and out.loser == "P2"
    assert out.result("P2") == "loss" and dict(out.scores) == {"P1": 1, "P2": 0}


_ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    3,
    5,
    15,
    16,
    -1,
    1.0,
    "1",
    "cue",
    "cushion",
    "red",
    "w1",
    "head",
    "pool",
    "top_left",
    "Zed",
    "P1",
    [],
    [1],
    ["red"],
    {},
    {"ball": 1},
    {"pin": "red"},
]


def _mutate(rng: random.Random, ev: Any) -> Any:
    """A random small change to an event: a value swapped for an odd one, a key added or
    dropped, an element of a list or object changed."""
    if not isinstance(ev, dict):
        return ev
    ev = json.loads(json.dumps(ev))
    roll = rng.random()
    keys = [k for k in ev if k != "type"]
    if roll < 0.2 or not keys:
        ev[
            rng.choice(
                [
                    "player",
                    "contacts",
                    "pots",
                    "pins",
                    "cup",
                    "call",
                    "drawn",
                    "spot",
                    "called",
                    "cushion",
                    "fouls",
                    "bottle",
                    "keep",
                    "x",
                ]
            )
        ] = rng.choice(_ODD_VALUES)
    elif roll < 0.3:
        del ev[rng.choice(keys)]
    else:
        key = rng.choice(keys)
        value = ev[key]
        if isinstance(value, list) and value:
            i = rng.randrange(len(value))
            if isinstance(value[i], dict) and value[i] and rng.random() < 0.7:
                sub = rng.choice(list(value[i]))
                if rng.random() < 0.2:
                    del value[i][sub]
                else:
                    value[i][sub] = rng.choice(_ODD_VALUES)
            else:
                value[i] = rng.choice(_ODD_VALUES)
        elif isinstance(value, dict) and value:
            value[rng.choice(list(value))] = rng.choice(_ODD_VALUES)
        else:
            ev[key] = rng.choice(_ODD_VALUES)
    return ev


@SETTINGS
@given(games(max_len=40), st.randoms(use_true_random=False))
def test_the_quick_check_never_accepts_what_the_core_refuses(case, rng):
    from types import MappingProxyType

    from rules.validate import _index, validate_event
    from rules.vocabulary import InvalidEvent

    # the quick check is the validator's compiled path (the family has none of its own,
    # its choice_set override included); a mapping that is not a dict takes the full checks
    game, setup, events = case
    state = game.initial(setup)
    for ev in events:
        for _ in range(8):
            bad = _mutate(rng, ev)
            kind = bad.get("type")
            quick = _index(game).fast_state.get(kind) if isinstance(kind, str) else None
            if quick is not None and quick(bad, state):
                try:
                    validate_event(game, MappingProxyType(bad), state)
                except InvalidEvent as err:  # pragma: no cover - the failure report
                    raise AssertionError(f"quick check accepted {bad}: {err}") from None
        state = game.apply(state, ev)
