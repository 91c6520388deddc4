"""Three-cushion carom (``three_cushion_carom``): rules, refusals and scoring properties.

The "derived" scenarios are the examples of the games survey §4.10; the three-ball ones (§4.1,
§4.9) are replayed with three cushions where the rule is inherited.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, get, replay
from rules.carom import CaromState
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_refused_at,
    assert_replay_deterministic_and_round_trips,
    try_events,
)

G = get("three_cushion_carom")
C = "cushion"
AB = {"players": ["Ann", "Bob"]}


def s(*contacts: str, **fields: Any) -> dict[str, Any]:
    """A ``stroke`` event: what the cue ball touched, in order, and other fields."""
    ev: dict[str, Any] = {"type": "stroke", "contacts": list(contacts)}
    ev.update(fields)
    return ev


COUNT = s(C, C, C, "red", "white")  # a valid three-cushion carom, red first
NO_COUNT = s("red", "white")  # a carom without cushions: no count, not a miss
MISS = s(C, C, C)
SPOT = {"type": "spot_balls"}
TIME_UP = {"type": "time_up"}


def crotched(**kw: Any) -> dict[str, Any]:
    """A count that leaves both object balls in the first corner's crotch."""
    return s(C, C, C, "red", "white", space="crotch_1", **kw)


def play(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return G.view(replay(G, setup, list(events)))


SCENARIOS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], dict[str, Any]]] = [
    # the games survey §4.10 (derived)
    (
        "derived_three_cushions_around_the_first_ball_count",
        AB,
        [s(C, C, "red", C, "white")],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Ann", "run": 1, "next": "stroke"},
    ),
    (
        "derived_two_cushions_before_completion_do_not_count",
        AB,
        [s("red", C, C, "white")],
        {
            "scores": {"Ann": 0, "Bob": 0},
            "at_table": "Bob",
            "run": 0,
            "innings": {"Ann": 1, "Bob": 1},
        },
    ),
    (
        "derived_the_same_rail_twice_counts_as_two_contacts",
        AB,
        [s(C, C, C, "red", "white")],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Ann"},
    ),
    # the cushion rule
    (
        "cushions_between_the_two_balls_count",
        AB,
        [s("red", C, C, C, "white")],
        {"scores": {"Ann": 1, "Bob": 0}},
    ),
    (
        "cushions_after_completion_do_not_count",
        AB,
        [s("red", "white", C, C, C)],
        {"scores": {"Ann": 0, "Bob": 0}, "at_table": "Bob"},
    ),
    (
        "the_carom_completes_at_the_second_different_ball",
        AB,
        [s("red", C, "red", C, C, "white")],
        {"scores": {"Ann": 1, "Bob": 0}},
    ),
    (
        "more_than_three_cushions_still_count_one",
        AB,
        [s(C, C, C, C, C, "red", "white", C)],
        {"scores": {"Ann": 1, "Bob": 0}, "run": 1},
    ),
    (
        "one_object_ball_only_is_no_count_and_no_penalty",
        AB,
        [s(C, C, C, "red", C)],
        {"scores": {"Ann": 0, "Bob": 0}, "at_table": "Bob"},
    ),
    # the opening stroke (three-ball r3, the games survey §4.1 derived)
    (
        "opening_stroke_must_hit_the_red_first",
        AB,
        [s(C, C, C, "white", "red")],
        {"scores": {"Ann": 0, "Bob": 0}, "at_table": "Bob", "next": "stroke"},
    ),
    (
        "after_the_opening_either_ball_may_be_hit_first",
        AB,
        [COUNT, s(C, C, C, "white", "red")],
        {"scores": {"Ann": 2, "Bob": 0}, "run": 2},
    ),
    (
        "spot_balls_keeps_the_striker_and_reopens",
        AB,
        [COUNT, SPOT],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Ann", "run": 1, "next": "opening"},
    ),
    (
        "after_spot_balls_the_white_first_is_no_count",
        AB,
        [COUNT, SPOT, s(C, C, C, "white", "red")],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Bob", "next": "stroke"},
    ),
    # misses and fouls (rule 2; three-ball r4, r6; general rules)
    (
        "a_miss_counts_one_for_the_opponent",
        AB,
        [MISS],
        {"scores": {"Ann": 0, "Bob": 1}, "at_table": "Bob", "run": 0},
    ),
    (
        "a_miss_on_the_opening_stroke_counts_one_for_the_opponent",
        AB,
        [s()],
        {"scores": {"Ann": 0, "Bob": 1}},
    ),
    (
        "touched_own_ball_gives_the_opponent_one_and_no_count",
        AB,
        [s(C, C, C, "red", "white", fouls=["touched_own_ball"])],
        {"scores": {"Ann": 0, "Bob": 1}, "at_table": "Bob"},
    ),
    (
        "touched_own_ball_on_a_miss_still_gives_only_one",
        AB,
        [s(C, fouls=["touched_own_ball"])],
        {"scores": {"Ann": 0, "Bob": 1}},
    ),
    (
        "a_foul_is_no_count_and_ends_the_inning_with_no_point",
        AB,
        [COUNT, s(C, C, C, "red", "white", fouls=["push", "push"])],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Bob", "run": 0},
    ),
    (
        "a_count_stands_when_the_cue_ball_leaves_the_table",
        AB,
        [s(C, C, C, "red", "white", off_table=["cue"])],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Ann"},
    ),
    (
        "an_object_ball_forced_off_changes_nothing",
        AB,
        [s(C, "red", C, C, "white", off_table=["red", "white"])],
        {"scores": {"Ann": 1, "Bob": 0}, "at_table": "Ann"},
    ),
    # innings and runs
    (
        "innings_and_runs_follow_the_table",
        AB,
        [COUNT, COUNT, NO_COUNT, COUNT, MISS],
        {
            "scores": {"Ann": 3, "Bob": 1},
            "at_table": "Ann",
            "run": 0,
            "innings": {"Ann": 2, "Bob": 1},
        },
    ),
    (
        "leads_opens_the_game",
        {"players": ["Ann", "Bob"], "leads": "Bob"},
        [],
        {"at_table": "Bob", "innings": {"Ann": 0, "Bob": 1}, "next": "opening"},
    ),
    # the end
    (
        "the_first_to_the_target_wins",
        {"players": ["Ann", "Bob"], "target": 2},
        [COUNT, COUNT],
        {
            "over": True,
            "winner": "Ann",
            "shared": False,
            "at_table": None,
            "run": 0,
            "next": "none",
            "scores": {"Ann": 2, "Bob": 0},
        },
    ),
    (
        "a_miss_can_give_the_opponent_the_game",
        {"players": ["Ann", "Bob"], "target": 1},
        [MISS],
        {"over": True, "winner": "Bob", "at_table": None, "innings": {"Ann": 1, "Bob": 0}},
    ),
    (
        "the_default_target_is_50",
        AB,
        [COUNT] * 50,
        {"over": True, "winner": "Ann", "target": 50, "scores": {"Ann": 50, "Bob": 0}},
    ),
    (
        "one_short_of_the_target_plays_on",
        AB,
        [COUNT] * 49,
        {"over": False, "winner": None, "run": 49},
    ),
    (
        "no_target_plays_on_past_50",
        {"players": ["Ann", "Bob"], "target": None},
        [COUNT] * 60,
        {"over": False, "target": None, "scores": {"Ann": 60, "Bob": 0}},
    ),
    (
        "time_up_gives_the_game_to_the_higher_score",
        AB,
        [COUNT, TIME_UP],
        {"over": True, "winner": "Ann", "shared": False, "next": "none"},
    ),
    (
        "time_up_on_level_scores_is_shared",
        AB,
        [COUNT, MISS, TIME_UP],
        {"over": True, "winner": None, "shared": True, "at_table": None},
    ),
    (
        "concede_gives_the_game_to_the_other_player",
        AB,
        [COUNT, {"type": "concede", "player": "Ann"}],
        {"over": True, "winner": "Bob", "scores": {"Ann": 1, "Bob": 0}},
    ),
    # the crotch (three-ball r11, inherited)
    (
        "balls_coming_to_rest_in_a_crotch_start_no_count",
        AB,
        [crotched()],
        {"space": "crotch_1", "space_counts": 0, "run": 1},
    ),
    (
        "crotch_third_count_stands_and_ends_the_inning",
        AB,
        [crotched(), crotched(), crotched(), crotched()],
        {
            "scores": {"Ann": 4, "Bob": 0},
            "at_table": "Bob",
            "space": "crotch_1",
            "space_counts": 0,
            "run": 0,
        },
    ),
    (
        "crotch_counts_in_succession_are_shown",
        AB,
        [crotched(), crotched(), crotched()],
        {"at_table": "Ann", "space_counts": 2},
    ),
    (
        "driving_a_ball_out_of_the_crotch_starts_again",
        AB,
        [crotched(), crotched(), crotched(), COUNT, COUNT],
        {"scores": {"Ann": 5, "Bob": 0}, "at_table": "Ann", "space": None, "space_counts": 0},
    ),
    (
        "a_ball_driven_out_and_back_counts_as_driven_out",
        AB,
        [crotched(), crotched(), crotched(), crotched(returned=True)],
        {"scores": {"Ann": 4, "Bob": 0}, "at_table": "Ann", "space_counts": 0},
    ),
    (
        "the_incoming_striker_has_a_fresh_allowance",
        AB,
        [crotched(), NO_COUNT | {"space": "crotch_1"}, crotched()],
        {"scores": {"Ann": 1, "Bob": 1}, "at_table": "Bob", "space_counts": 1},
    ),
    (
        "space_limits_sets_the_crotch_allowance",
        {"players": ["Ann", "Bob"], "space_limits": {"crotch": 1}},
        [crotched(), crotched()],
        {"scores": {"Ann": 2, "Bob": 0}, "at_table": "Bob"},
    ),
    (
        "spot_balls_clears_the_space",
        AB,
        [crotched(), crotched(), SPOT],
        {"space": None, "space_counts": 0, "next": "opening", "at_table": "Ann"},
    ),
    (
        "a_foul_in_the_crotch_ends_the_inning_and_the_counts",
        AB,
        [crotched(), crotched(fouls=["push"])],
        {"scores": {"Ann": 1, "Bob": 0}, "space_counts": 0, "at_table": "Bob"},
    ),
]


@pytest.mark.parametrize(
    ("setup", "events", "expected"),
    [pytest.param(st_, e, x, id=name) for name, st_, e, x in SCENARIOS],
)
def test_scenario(setup, events, expected):
    view = play(setup, events)
    assert {k: view[k] for k in expected} == expected


def test_new_game_state_has_every_key():
    assert play({}, []) == {
        "game": "three_cushion_carom",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"P1": 0, "P2": 0},
        "at_table": "P1",
        "run": 0,
        "innings": {"P1": 1, "P2": 0},
        "next": "opening",
        "space": None,
        "space_counts": 0,
        "events": 0,
        "target": 50,
    }


def test_alias_finds_the_game():
    assert get("three_cushion") is G
    assert get("Three-Cushion-Carom") is G


def test_describe_documents_every_field_value_and_foul():
    d = G.describe()
    assert (d["family"], d["players"], d["aliases"]) == ("carom", "2", ["three_cushion"])
    assert [e["type"] for e in d["events"]] == ["stroke", "spot_balls", "time_up", "concede"]
    stroke = {f["name"]: f for f in d["events"][0]["fields"]}
    assert list(stroke) == ["contacts", "fouls", "off_table", "space", "returned"]
    assert stroke["contacts"]["item"]["choices"] == ["white", "red", "cushion"]
    assert stroke["off_table"]["item"]["choices"] == ["white", "red", "cue"]
    assert stroke["space"]["choices"] == ["crotch_1", "crotch_2", "crotch_3", "crotch_4"]
    codes = [f["code"] for f in d["fouls"]]
    assert stroke["fouls"]["item"]["choices"] == codes
    assert "touched_own_ball" in codes
    assert len(codes) == 12
    setup = {o["name"]: o for o in d["setup"]}
    assert setup["target"]["default"] == 50
    assert setup["space_limits"]["fields"][0]["default"] == 3
    assert set(d["state"]) >= {"run", "innings", "next", "space", "space_counts"}


# ------------------------------------------------------------------------ refused

OVER = [{"type": "concede", "player": "Bob"}]

REFUSALS: list[tuple[str, Mapping[str, Any], list[dict[str, Any]], Any, str]] = [
    ("stroke_after_the_end", AB, OVER, COUNT, "game_over"),
    ("game_over_is_checked_first", AB, OVER, {"type": "lay_off"}, "game_over"),
    ("time_up_after_the_end", AB, [TIME_UP], TIME_UP, "game_over"),
    ("not_an_object", AB, [], "stroke", "unknown_type"),
    ("no_type", AB, [], {"contacts": []}, "unknown_type"),
    ("lay_off_is_four_ball_only", AB, [], {"type": "lay_off"}, "unknown_type"),
    ("pots_in_a_carom_game", AB, [], s("red", pots=[{"ball": "red"}]), "unknown_field"),
    ("nominate_is_russian_pool_only", AB, [], s("red", nominate="red"), "unknown_field"),
    ("stroke_has_no_player", AB, [], s("red", player="Ann"), "unknown_field"),
    ("spot_balls_has_no_fields", AB, [], {"type": "spot_balls", "player": "Ann"}, "unknown_field"),
    ("concede_without_player", AB, [], {"type": "concede"}, "missing_field"),
    ("unknown_ball", AB, [], s("red", "blue"), "bad_value"),
    ("cue_in_contacts", AB, [], s("cue"), "bad_value"),
    ("contacts_not_a_list", AB, [], s(contacts="red"), "bad_value"),
    ("unknown_foul_code", AB, [], s("red", fouls=["pin_200"]), "bad_value"),
    ("unknown_ball_off_the_table", AB, [], s("red", off_table=["pink"]), "bad_value"),
    ("balk_space_in_three_cushion", AB, [], s("red", space="corner_1"), "bad_value"),
    ("returned_not_a_bool", AB, [], s("red", returned="yes"), "bad_value"),
    ("concede_by_a_stranger", AB, [], {"type": "concede", "player": "Zed"}, "bad_value"),
    ("ball_twice_off_the_table", AB, [], s("red", off_table=["red", "red"]), "impossible"),
    ("object_ball_off_on_a_miss", AB, [], s(C, off_table=["red"]), "impossible"),
    ("returned_without_a_space_before", AB, [], crotched(returned=True), "impossible"),
    (
        "returned_to_another_space",
        AB,
        [crotched()],
        s(C, C, C, "red", "white", space="crotch_2", returned=True),
        "impossible",
    ),
]


@pytest.mark.parametrize(
    ("setup", "before", "event", "code"),
    [pytest.param(st_, b, e, c, id=name) for name, st_, b, e, c in REFUSALS],
)
def test_refused_event_names_code_and_index_and_changes_nothing(setup, before, event, code):
    assert_refused_at(G, setup, before, event, code)


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param({"players": ["Ann"]}, id="one_player"),
        pytest.param({"players": ["Ann", "Bob", "Cat"]}, id="three_players"),
        pytest.param({"players": ["Ann", "Ann"]}, id="repeated_name"),
        pytest.param({"players": ["Ann", ""]}, id="empty_name"),
        pytest.param({"leads": "Zed"}, id="leads_not_a_player"),
        pytest.param({"target": 0}, id="target_zero"),
        pytest.param({"target": "50"}, id="target_a_string"),
        pytest.param({"target": 12.5}, id="target_not_whole"),
        pytest.param({"space_limits": {"balk": 2}}, id="space_kind_not_in_the_game"),
        pytest.param({"space_limits": {"crotch": 0}}, id="crotch_limit_zero"),
        pytest.param({"reds": 1}, id="unknown_key"),
        pytest.param("Ann v Bob", id="setup_not_an_object"),
    ],
)
def test_bad_setup_is_refused_with_index_minus_one(setup):
    with pytest.raises(RuleError) as info:
        G.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


# ---------------------------------------------------------------------- properties

_FOUL_CODES = [f.code for f in G.fouls]


def random_event(rng: random.Random, state: CaromState) -> Any:
    """A plausible event (now and then a malformed or impossible one)."""
    roll = rng.random()
    if roll < 0.03:
        garbage = [
            {"type": "lay_off"},
            s("blue"),
            s(C, off_table=["red"]),
            s(fouls=["x"]),
            s(returned=True),
            {"type": "concede"},
        ]
        return rng.choice(garbage)
    if roll < 0.05:
        return SPOT
    if roll < 0.055:
        return rng.choice([TIME_UP, {"type": "concede", "player": rng.choice(state.players)}])
    contacts = [rng.choice([C, C, "red", "white"]) for _ in range(rng.randint(0, 7))]
    ev = s(*contacts)
    if rng.random() < 0.08:
        ev["fouls"] = [rng.choice(_FOUL_CODES)]
    if rng.random() < 0.05:
        ev["off_table"] = [rng.choice(["cue", "red", "white"])]
    if rng.random() < 0.3:
        ev["space"] = rng.choice(["crotch_1", "crotch_2"])
        if rng.random() < 0.2:
            ev["returned"] = True
    return ev


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A setup and a random game from it: every event tried, accepted or refused."""
    setup: dict[str, Any] = {"players": ["Ann", "Bob"]}
    setup["target"] = draw(st.sampled_from([None, 5, 50]))
    if draw(st.booleans()):
        setup["leads"] = "Bob"
    if draw(st.booleans()):
        setup["space_limits"] = {"crotch": draw(st.integers(1, 4))}
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(min_value=0, max_value=150))
    return {"setup": setup, "tried": try_events(G, setup, random_event, rng, n)}


_PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_PROPS
@given(games())
def test_scores_never_fall_and_only_the_striker_or_on_a_miss_the_opponent_scores(game):
    state = G.initial(game["setup"])
    for ev, ok in game["tried"]:
        if not ok:
            continue
        after = G.apply(state, ev)
        gains = [b - a for a, b in zip(state.scores, after.scores, strict=True)]
        assert min(gains) >= 0
        assert sum(gains) <= 1
        striker, opponent = state.turn, 1 - state.turn
        if gains[opponent]:
            contacts = ev.get("contacts") or []
            missed = not [c for c in contacts if c != C]
            assert missed or "touched_own_ball" in (ev.get("fouls") or [])
        if gains[striker]:
            assert ev["type"] == "stroke"
            assert not ev.get("fouls")
        if not after.over and after.turn == striker and ev["type"] == "stroke":
            assert after.run == state.run + gains[striker] > state.run
        state = after


@_PROPS
@given(games())
def test_refused_event_changes_nothing(game):
    assert_refusals_change_nothing(G, game["setup"], game["tried"])


@_PROPS
@given(games())
def test_replay_is_deterministic_and_dump_round_trips(game):
    events = [ev for ev, ok in game["tried"] if ok]
    first = assert_replay_deterministic_and_round_trips(G, game["setup"], events)
    view = G.view(first)
    assert view["events"] == len(events)
    assert sum(view["innings"].values()) >= 1
