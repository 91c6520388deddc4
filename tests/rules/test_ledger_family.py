"""The ledger family as a whole (the ledger scoring language): the shared engine properties over every
game of the family, the family's own invariants, its declarations (statistics, display,
outcome, participants), its random games, and the command line."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.__main__ import main
from rules.simulate import simulate_game
from rules.simulate.ledger import random_event, simulate
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_replay_deterministic_and_round_trips,
)

IDS = ("snookers_pool_1908", "snooker_pool_hoyle", "english_pyramids", "bouillotte")
GAMES = [get(i) for i in IDS]

#: Events every game of the family must refuse (malformed or impossible), mixed into
#: random play.
GARBAGE: list[Any] = [
    [],
    "stroke",
    {"type": "shot"},
    {"type": "stroke"},
    {"type": "stroke", "first_hit": "purple"},
    {"type": "stroke", "first_hit": "red", "pots": ["red"]},
    {"type": "stroke", "first_hit": "red", "fouls": ["scratch"]},
    {"type": "stroke", "first_hit": "red", "player": "Zed"},
    {"type": "open", "chips": 0},
    {"type": "raise", "chips": -3},
    {"type": "fold", "player": "Zed"},
    {"type": "straddle", "chips": 1},
]


def _tried(game: Any, seed: int, n: int, garbage: float = 0.1) -> tuple[dict[str, Any], list]:
    """A random game of ``game``: its setup, and every event tried with whether it was
    accepted (about ``garbage`` of them deliberately bad)."""
    rng = random.Random(seed)
    setup, _ = simulate(game, random.Random(seed), 0)
    t = Timeline(game, setup)
    tried: list[tuple[Any, bool]] = []
    for k in range(n):
        if t.state.over:
            if rng.random() < 0.5:
                tried.append(({"type": "stroke", "first_hit": None}, False))
            break
        if rng.random() < garbage:
            ev = rng.choice(GARBAGE)
        else:
            ev = random_event(game, t.state, rng, k)
        try:
            t.push(ev)
        except RuleError:
            tried.append((ev, False))
        else:
            tried.append((ev, True))
    return setup, tried


CASES = st.tuples(
    st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.integers(min_value=0, max_value=120)
)
PROPS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------- the shared engine properties


@PROPS
@given(CASES)
def test_refused_events_change_nothing(case):
    game, seed, n = case
    setup, tried = _tried(game, seed, n)
    assert_refusals_change_nothing(game, setup, tried)


@PROPS
@given(CASES)
def test_replay_is_deterministic_and_dump_load_round_trips(case):
    game, seed, n = case
    setup, tried = _tried(game, seed, n)
    assert_replay_deterministic_and_round_trips(game, setup, [e for e, ok in tried if ok])


@PROPS
@given(CASES, st.data())
def test_undo_equals_replaying_the_prefix(case, data):
    game, seed, n = case
    setup, tried = _tried(game, seed, n, garbage=0)
    events = [e for e, ok in tried if ok]
    t = Timeline(game, setup)
    for ev in events:
        t.push(ev)
    k = data.draw(st.integers(0, len(events)))
    for _ in range(k):
        t.undo()
    assert t.state == replay(game, setup, events[: len(events) - k])
    assert t.view() == game.view(replay(game, setup, events[: len(events) - k]))


# ------------------------------------------------------------ family invariants


@PROPS
@given(CASES)
def test_balances_always_sum_to_zero_and_the_outcome_agrees_with_the_view(case):
    game, seed, n = case
    setup, tried = _tried(game, seed, n, garbage=0)
    state = game.initial(setup)
    for ev, ok in tried:
        if not ok:
            continue
        state = game.apply(state, ev)
        view = game.view(state)
        assert sum(view["scores"].values()) == 0
        out = game.outcome(state)
        assert (out.over, out.winner, out.shared, dict(out.scores)) == (
            view["over"],
            view["winner"],
            view["shared"],
            view["scores"],
        )
        assert (view["at_table"] is None) == view["over"]


@PROPS
@given(st.sampled_from(GAMES[:2]), st.integers(0, 2**32 - 1))
def test_snooker_reds_never_come_back_and_colours_leave_in_order(game, seed):
    setup, events = simulate(game, random.Random(seed), 400)
    state = game.initial(setup)
    order = ["yellow", "green", "brown", "blue", "pink", "black"]
    reds = 15
    for ev in events:
        state = game.apply(state, ev)
        view = game.view(state)
        assert view["reds"] <= reds
        reds = view["reds"]
        assert view["colours"] == order[len(order) - len(view["colours"]) :]
        assert view["break"] >= 0
        if view["colours"] != order:  # the sequence has begun: no red is left
            assert view["reds"] == 0


@PROPS
@given(st.integers(0, 2**32 - 1))
def test_pyramids_every_red_is_on_the_table_or_held(seed):
    game = get("english_pyramids")
    setup, events = simulate(game, random.Random(seed), 300)
    total = setup.get("reds", 15)
    state = game.initial(setup)
    for ev in events:
        state = game.apply(state, ev)
        view = game.view(state)
        if not view["over"]:
            assert view["reds"] + sum(view["balls"].values()) == total
        assert all(v >= 0 for v in (*view["balls"].values(), *view["owed"].values()))


@PROPS
@given(st.integers(0, 2**32 - 1), st.integers(5, 80))
def test_bouillotte_chips_are_kept_and_stakes_only_grow(seed, n):
    game = get("bouillotte")
    setup, events = simulate(game, random.Random(seed), n)
    state = game.initial(setup)
    view = game.view(state)
    total = sum(view["chips"].values()) + sum(view["stakes"].values())
    carried = view["pot"] - sum(view["stakes"].values())
    for ev in events:
        before = view
        state = game.apply(state, ev)
        view = game.view(state)
        assert all(view["stakes"][p] >= before["stakes"][p] for p in view["stakes"])
        assert view["pot"] == sum(view["stakes"].values()) + carried
        if view["over"] and not view["carried"]:
            assert sum(view["chips"].values()) == total + carried
            assert sum(p["chips"] for p in view["pots"]) == view["pot"]
        else:
            assert sum(view["chips"].values()) + sum(view["stakes"].values()) == total


# ------------------------------------------------------------- declarations


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_games_are_legal_reproducible_and_mostly_finish(game):
    finished = 0
    length = 150 if game.id == "bouillotte" else 2000  # a long deal is a raising war
    for seed in range(20):
        setup, events = simulate(game, random.Random(seed), length)
        assert simulate(game, random.Random(seed), length) == (setup, events)
        finished += game.view(replay(game, setup, events))["over"]
    assert finished >= 18


@pytest.mark.parametrize("game", GAMES[:3], ids=IDS[:3])
def test_the_core_simulator_plays_the_family(game):
    events = simulate_game(game, {"players": ["Ann", "Bob"]}, seed=4)
    assert game.outcome(replay(game, {"players": ["Ann", "Bob"]}, events)).over


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_statistics_display_and_participants_are_declared(game):
    setup, events = simulate(game, random.Random(5), 500)
    d = game.describe()
    names = {s["name"] for s in d["statistics"]}
    view = game.view(replay(game, setup, events))
    assert all(entry["key"] in view and entry["label"] for entry in d["display"])
    lines = game.player_statistics(setup, events)
    assert set(lines) == set(game.choice_sets(game.initial(setup))["players"])
    assert all(set(line) == names for line in lines.values())
    json.dumps(d)


def test_statistics_count_what_each_player_did():
    hoyle = get("snooker_pool_hoyle")
    red = {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]}
    lines = hoyle.player_statistics(
        {"players": ["Ann", "Bob"]},
        [red, {"type": "stroke", "first_hit": "pink", "aim": "black", "misplaced_balls": 1}],
    )
    assert lines["Ann"] == {"balls_potted": 1, "penalties_paid": 8, "net": -7}
    pyr = get("english_pyramids")
    lines = pyr.player_statistics(
        {"players": ["Ann", "Bob"]}, [red, {"type": "stroke", "first_hit": None}]
    )
    assert lines["Ann"] == {"balls_potted": 1, "penalties_paid": 1, "net": 0}
    bou = get("bouillotte")
    from tests.rules.test_ledger_bouillotte import BRELANS, THREE_WAY

    lines = bou.player_statistics(BRELANS, THREE_WAY)
    assert lines["B"] == {"hands_won": 1, "biggest_pot": 8, "net": 11}
    assert lines["A"] == {"hands_won": 0, "biggest_pot": 0, "net": -5}


# --------------------------------------------------------------- command line


def _cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(stdin or ""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_list_shows_every_game_of_the_page():
    code, out, _ = _cli("list")
    listed = {g["id"]: g for g in json.loads(out)}
    assert code == 0
    for game_id in IDS:
        assert listed[game_id]["family"] == "ledger"


@pytest.mark.parametrize("game_id", IDS)
def test_describe_answers_for_every_game(game_id):
    code, out, _ = _cli("describe", game_id)
    assert code == 0 and json.loads(out)["id"] == game_id


def test_replay_refusal_exits_2_with_code_message_and_index():
    doc = {
        "game": "english_pyramids",
        "events": [{"type": "stroke", "first_hit": "red", "player": "P2"}],
    }
    code, out, err = _cli("replay", "-", stdin=json.dumps(doc))
    assert (code, out) == (2, "")
    answer = json.loads(err)
    assert (answer["error"], answer["index"]) == ("not_your_turn", 0)
    assert "player" in answer["message"]


# ---------------------------------------------------------- the validation fast path

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 25),
    st.sampled_from(["red", "white", "pink", "black", "purple", "top_left", "push", "Ann", "Zed"]),
    st.lists(st.sampled_from(["red", "white", "blue", "x"]), max_size=3),
    st.lists(
        st.dictionaries(
            st.sampled_from(["ball", "pocket", "hole"]),
            st.sampled_from(["red", "white", "yellow", "top_left", "corner", None, 3]),
            max_size=3,
        ),
        max_size=3,
    ),
)
_KEYS = st.sampled_from(
    [
        "first_hit",
        "simultaneous",
        "pots",
        "off_table",
        "fouls",
        "aim",
        "player",
        "misplaced_balls",
        "chips",
        "cushion",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.dictionaries(_KEYS, _VALUES, max_size=5), st.data())
def test_the_fast_path_never_accepts_what_the_core_validator_refuses(game, fields, data):
    from types import MappingProxyType

    from rules.validate import _index, validate_event
    from rules.vocabulary import InvalidEvent

    setup = {"players": ["Ann", "Bob"]}
    if game.id == "bouillotte":
        from tests.rules.test_ledger_bouillotte import BOOK as setup  # noqa: N811
    state = game.initial(setup)
    kind = data.draw(st.sampled_from([e.type for e in game.events]))
    event = {"type": kind, **fields}
    # the family's games have no fast path of their own: the validator's compiled one
    fast = _index(game).fast_state[kind](event, state)
    if fast:
        try:  # a mapping that is not a dict takes the full checks
            validate_event(game, MappingProxyType(event), state)
        except InvalidEvent as err:  # pragma: no cover - the property
            raise AssertionError(f"fast path accepted {event}: {err}") from None
