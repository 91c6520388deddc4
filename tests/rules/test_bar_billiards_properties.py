"""Hypothesis properties of the engine, on mostly-legal random bar billiards frames."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, replay

try:  # the tests directory may or may not be a package
    from .conftest import BB, frames, random_event, random_frame
except ImportError:
    from conftest import BB, frames, random_event, random_frame  # type: ignore[no-redef]

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BAD_EVENTS = [
    {"type": "pot"},
    {"type": "shot", "pots": [{"ball": "blue", "hole": 50}]},
    {"type": "shot", "pots": [{"ball": "white", "hole": 40}]},
    {"type": "shot", "fouls": ["pin_300"]},
    {"type": "shot", "cushion": 1},
    {"type": "shot", "pots": [{"ball": "white", "hole": 10}] * 9},
    {"type": "shot", "to_trough": ["white"] * 9},
    {"type": "shot", "pots": [{"ball": "red", "hole": 10}] * 2},
    {"type": "shot", "spin": True},
    {"type": "bar_down", "when": 3},
    "shot",
]


@PROPS
@given(frames(max_events=150), st.sampled_from(BAD_EVENTS), st.data())
def test_a_refused_event_changes_nothing(frame, bad, data):
    t = Timeline(BB, frame["setup"])
    for ev in frame["events"]:
        t.push(ev)
    k = data.draw(st.integers(0, len(frame["events"])))
    for _ in range(len(frame["events"]) - k):
        t.undo()
    before_state, before_view = t.state, json.dumps(t.view())
    with pytest.raises(RuleError) as info:
        t.push(bad)
    assert info.value.index == k
    assert t.state is before_state
    assert json.dumps(t.view()) == before_view
    assert len(t) == k


@PROPS
@given(frames(max_events=150, garbage=0.1))
def test_refused_random_events_leave_the_timeline_as_it_was(frame):
    t = Timeline(BB, frame["setup"])
    rng = random.Random(len(frame["events"]))
    for ev in frame["events"]:
        t.push(ev)
        if rng.random() < 0.2 and frame["rejected"]:
            before = BB.dump(t.state)
            try:
                t.push(rng.choice(frame["rejected"]))
            except RuleError:
                assert BB.dump(t.state) == before
            else:
                t.undo()
    assert BB.view(t.state) == BB.view(replay(BB, frame["setup"], frame["events"]))


@PROPS
@given(frames(max_events=120))
def test_undo_gives_the_replay_of_the_prefix(frame):
    events = frame["events"]
    t = Timeline(BB, frame["setup"])
    for ev in events:
        t.push(ev)
    for n in range(len(events), 0, -1):
        before = t.undo()
        assert before == replay(BB, frame["setup"], events[: n - 1])
    assert len(t) == 0


@PROPS
@given(frames(max_events=200))
def test_replay_is_deterministic(frame):
    a = replay(BB, frame["setup"], frame["events"])
    b = replay(BB, frame["setup"], json.loads(json.dumps(frame["events"])))
    assert a == b
    assert BB.view(a) == BB.view(b)


@PROPS
@given(frames(max_events=200))
def test_load_dump_round_trips_every_state(frame):
    t = Timeline(BB, frame["setup"])
    states = [t.state]
    for ev in frame["events"]:
        states.append(t.push(ev))
    for s in states:
        data = json.loads(json.dumps(BB.dump(s)))
        assert BB.load(data) == s
    # the web app's path: apply the next event to load(dump(previous))
    s = BB.load(BB.dump(states[0]))
    for ev in frame["events"]:
        s = BB.load(json.loads(json.dumps(BB.dump(BB.apply(s, ev)))))
    assert s == states[-1]


@PROPS
@given(frames(max_events=200))
def test_scores_are_multiples_of_ten_and_balls_never_come_back_after_the_bar(frame):
    t = Timeline(BB, frame["setup"])
    total = t.view()["balls_in_play"]
    seen_bar_at = None
    for ev in frame["events"]:
        prev = t.view()
        t.push(ev)
        v = t.view()
        assert all(score % 10 == 0 and score >= 0 for score in v["scores"].values())
        assert v["break"] % 10 == 0
        assert v["on_table"] + v["trough"] == v["balls_in_play"] <= total
        assert min(v["whites"].values()) >= 0
        if prev["bar_down"]:
            assert v["balls_in_play"] <= prev["balls_in_play"]
        else:
            assert prev["balls_in_play"] == total
        if v["bar_down"] and seen_bar_at is None:
            seen_bar_at = v["events"]
        if v["over"]:
            assert v["bar_down"]
            assert v["balls_in_play"] <= 1
            assert v["at_table"] is None
            assert v["break"] == 0
            assert (v["winner"] is None) == v["shared"]
        assert v["events"] == len(t)


@PROPS
@given(frames(max_events=200))
def test_banked_scores_add_up_from_the_last_summaries(frame):
    # an independent tally from `last`: banked minus wiped, per side
    t = Timeline(BB, frame["setup"])
    tally = dict.fromkeys(t.view()["scores"], 0)
    for ev in frame["events"]:
        t.push(ev)
        last = t.view()["last"]
        if last["wiped"]:
            tally[last["side"]] = 0
        tally[last["side"]] += last["banked"]
    assert tally == t.view()["scores"]


def test_random_frames_usually_finish():
    finished = 0
    for seed in range(30):
        rng = random.Random(seed)
        events, _ = random_frame(rng, 400)
        finished += BB.view(replay(BB, {}, events))["over"]
    assert finished >= 25


def test_random_event_is_accepted_from_the_start():
    ev = random_event(random.Random(1), BB.initial({}))
    BB.apply(BB.initial({}), ev)
