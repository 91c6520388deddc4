"""The plausible-frame generator used by the demo league and the benchmarks."""

from __future__ import annotations

from rules import get, replay
from rules.simulate import simulate_frame

BB = get("bar_billiards_4pin")


def test_simulated_frames_are_accepted_and_played_to_the_end():
    for seed in range(30):
        setup = {"players": {"home": ["Ann", "Cat"], "away": ["Bob", "Dan"]}} if seed % 3 else {}
        events = simulate_frame(setup, seed=seed)
        view = BB.view(replay(BB, setup, events))
        assert view["over"] and view["bar_down"]
        assert view["events"] == len(events)
        assert all(score % 10 == 0 for score in view["scores"].values())


def test_simulated_frames_are_reproducible_and_vary_with_the_seed():
    assert simulate_frame(seed=4) == simulate_frame(seed=4)
    assert simulate_frame(seed=4) != simulate_frame(seed=5)


def test_bar_drops_after_the_requested_number_of_shots():
    events = simulate_frame(seed=2, bar_after=30)
    assert events[30] == {"type": "bar_down"}
    assert sum(e["type"] == "bar_down" for e in events) == 1
