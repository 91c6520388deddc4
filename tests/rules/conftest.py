"""Shared helpers and hypothesis strategies for the rules-engine tests."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

# The venv also holds django-rules, whose top-level package is called `rules` too and sits
# in site-packages ahead of our editable install: make sure `import rules` is ours even when
# pytest is not started from the repository root (python -m pytest puts the root first).
ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from rules import RuleError, Timeline, get, replay  # noqa: E402
from rules.bar_billiards import HOLES, BBState  # noqa: E402

BB = get("bar_billiards_4pin")

FOUL_CODES = tuple(f.code for f in BB.fouls)
#: Fouls that can be called on any shot of open play.
PLAY_FOULS = tuple(c for c in FOUL_CODES if c not in ("red_not_played", "endgame_no_cushion"))
ENDGAME_FOULS = PLAY_FOULS


# ------------------------------------------------------------------ event builders


def W(hole: int) -> dict[str, Any]:  # noqa: N802 - reads like the scoresheet
    """A white potted into ``hole``."""
    return {"ball": "white", "hole": hole}


def R(hole: int) -> dict[str, Any]:  # noqa: N802
    """The red potted into ``hole``."""
    return {"ball": "red", "hole": hole}


def shot(
    *pots: Mapping[str, Any],
    fouls: Sequence[str] = (),
    to_trough: Sequence[str] = (),
    cushion: bool | None = None,
) -> dict[str, Any]:
    """A ``shot`` event with only the fields that are set."""
    ev: dict[str, Any] = {"type": "shot"}
    if pots:
        ev["pots"] = [dict(p) for p in pots]
    if fouls:
        ev["fouls"] = list(fouls)
    if to_trough:
        ev["to_trough"] = list(to_trough)
    if cushion is not None:
        ev["cushion"] = cushion
    return ev


MISS = {"type": "shot"}  # a shot that pots nothing, no foul: banks the break
BAR_DOWN = {"type": "bar_down"}
INVOKE = {"type": "invoke_endgame"}


def play(
    events: Iterable[Mapping[str, Any]], setup: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The view after replaying ``events`` from ``setup``."""
    return BB.view(replay(BB, setup or {}, list(events)))


def position(setup: Mapping[str, Any] | None = None, **fields: Any) -> BBState:
    """A state built directly (for endgame positions that take many shots to reach)."""
    state: BBState = BB.initial(setup or {})
    seats = state.seats
    if "at" in fields:
        seats = seats._replace(turn=fields.pop("at"))
    if "visits" in fields:
        seats = seats._replace(visits=tuple(fields.pop("visits")))
    return state._replace(seats=seats, **fields)


def run(state: BBState, *events: Mapping[str, Any]) -> BBState:
    """Apply ``events`` to ``state`` in order."""
    for ev in events:
        state = BB.apply(state, ev)
    return state


def refused(state: BBState, event: Mapping[str, Any]) -> RuleError:
    """Apply an event that must be refused; check the state was not touched."""
    before = BB.dump(state)
    with pytest.raises(RuleError) as info:
        BB.apply(state, event)
    assert BB.dump(state) == before
    return info.value


# ------------------------------------------------------------- random legal play

_HOLE_WEIGHTS = (4, 4, 3, 3, 2, 1)


def random_event(rng: random.Random, s: BBState, garbage: float = 0.0) -> dict[str, Any]:
    """A plausible next event for ``s``, nearly always accepted (``garbage`` is the
    chance of a deliberately malformed or impossible one)."""
    if garbage and rng.random() < garbage:
        return rng.choice(
            [
                {"type": "pot"},
                {"type": "shot", "pots": [{"ball": "blue", "hole": 50}]},
                {"type": "shot", "pots": [{"ball": "white", "hole": 40}]},
                {"type": "shot", "fouls": ["pin_300"]},
                {"type": "shot", "cushion": 1},
                {"type": "shot", "pots": [W(10)] * 9},
                {"type": "shot", "spin": True},
                {"type": "invoke_endgame"},
                [],
            ]
        )
    if s.phase == "over":
        return dict(INVOKE)
    if not s.bar and s.events > 25 and rng.random() < 0.03:
        return dict(BAR_DOWN)
    if s.phase == "endgame":
        ball = "white" if s.red == "out" else "red"
        ev: dict[str, Any] = {"type": "shot", "cushion": rng.random() < 0.9}
        if rng.random() < 0.3:
            ev["pots"] = [{"ball": ball, "hole": rng.choice((100, 200))}]
        if rng.random() < 0.08:
            ev["fouls"] = [rng.choice(ENDGAME_FOULS)]
        return ev
    red, wt, wr = s.red, s.w_table, s.w_trough
    fouls: list[str] = []
    break_off = wt == 0 and red != "table"
    if not break_off and red == "trough" and rng.random() < 0.05:
        fouls.append("red_not_played")
    if rng.random() < 0.08:
        fouls.append(rng.choice(PLAY_FOULS))
    if break_off:
        if red == "trough":
            red, k = "table", min(1, wr)
        else:
            k = min(2, wr)
        wt, wr = wt + k, wr - k
    elif red == "trough" and "red_not_played" not in fouls:
        red = "table"
    elif wr:
        wt, wr = wt + 1, wr - 1
    on = ["red"] * (red == "table") + ["white"] * wt
    rng.shuffle(on)
    roll = rng.random()
    k = 0 if roll < 0.3 else 1 if roll < 0.85 else min(len(on), rng.randint(1, 3))
    k = min(k, len(on))
    pots = [{"ball": b, "hole": rng.choices(HOLES, _HOLE_WEIGHTS)[0]} for b in on[:k]]
    ev = {"type": "shot"}
    if pots:
        ev["pots"] = pots
    if fouls:
        ev["fouls"] = fouls
    rest = on[k:]
    if rest and rng.random() < 0.04:
        ev["to_trough"] = [rest[0]]
    return ev


def random_frame(
    rng: random.Random,
    n: int,
    setup: Mapping[str, Any] | None = None,
    garbage: float = 0.0,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Up to ``n`` plausible events from ``setup``: (accepted events, refused events)."""
    t = Timeline(BB, setup or {})
    accepted: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    for _ in range(n):
        s = t.state
        if s.phase == "over" and not (s.end == "cutoff" and rng.random() < 0.5):
            break
        ev = random_event(rng, s, garbage)
        try:
            t.push(ev)
        except RuleError:
            rejected.append(ev)
        else:
            accepted.append(ev)
    return accepted, rejected


# ------------------------------------------------------------------- strategies


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    """Valid bar billiards setups: singles or doubles, 6 or 7 whites, either side first."""
    setup: dict[str, Any] = {}
    if draw(st.booleans()):
        setup["white_balls"] = draw(st.sampled_from([6, 7]))
    if draw(st.booleans()):
        setup["breaks_first"] = draw(st.sampled_from(["home", "away"]))
    shape = draw(st.sampled_from(["none", "singles", "doubles", "mixed"]))
    if shape == "singles":
        setup["players"] = {"home": ["Ann"], "away": ["Bob"]}
    elif shape == "doubles":
        setup["players"] = {"home": ["Ann", "Cat"], "away": ["Bob", "Dan"]}
    elif shape == "mixed":
        setup["players"] = {"home": ["Ann", None], "away": ["Bob"]}
    return setup


@st.composite
def frames(draw: st.DrawFn, max_events: int = 200, garbage: float = 0.0) -> dict[str, Any]:
    """A mostly-legal random frame: {"setup", "events", "rejected"}."""
    setup = draw(setups())
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(min_value=0, max_value=max_events))
    events, rejected = random_frame(rng, n, setup, garbage)
    return {"setup": setup, "events": events, "rejected": rejected}


@pytest.fixture
def bb() -> Any:
    """The 4-pin bar billiards game."""
    return BB


# ------------------------------------------------------------- canned positions

#: From the start to endgame play with one white left: bar down at once; home banks 150,
#: away banks 120, home pots two whites (break 20) leaving one: gap 170 - 120 = 50 <= 200,
#: so endgame play begins with home at the table continuing its break of 20.
TO_ENDGAME: list[dict[str, Any]] = [
    BAR_DOWN,
    shot(R(50), W(50)),  # home break-off: 100 + 50; both gone, red out
    MISS,  # home break-off with two whites, pots nothing: banks 150
    shot(W(50), W(50)),  # away: 100
    shot(W(20)),  # away: 120
    MISS,  # away banks 120
    shot(W(10), W(10)),  # home: break 20, one white left
]

#: From the start to a frame won on the cut-off: home banks 600, away pots 50 leaving one
#: white in the trough: gap 600 - 50 = 550 > 200, the frame is over and away's 50 banked.
TO_CUTOFF: list[dict[str, Any]] = [
    BAR_DOWN,
    shot(R(200), W(200)),  # home break-off: 400 + 200
    MISS,  # home banks 600
    shot(W(10), W(10), W(10)),  # away: 30, table empty
    shot(W(10), W(10)),  # away break-off with two whites: 50, one white left
]


def try_events(
    game: Any, setup: Mapping[str, Any], make_event: Any, rng: random.Random, n: int
) -> list[tuple[Any, bool]]:
    """Up to ``n`` events from ``make_event(rng, state)`` tried in turn on ``game``: each with
    whether the engine accepted it (a refused event leaves the state as it was)."""
    t = Timeline(game, setup)
    tried: list[tuple[Any, bool]] = []
    for _ in range(n):
        if t.state.over:
            break
        ev = make_event(rng, t.state)
        try:
            t.push(ev)
        except RuleError:
            tried.append((ev, False))
        else:
            tried.append((ev, True))
    return tried


def assert_refusals_change_nothing(
    game: Any, setup: Mapping[str, Any], tried: list[tuple[Any, bool]]
) -> None:
    """Replays ``tried``: every refused event raises and leaves the state as it was."""
    state = game.initial(setup)
    for ev, ok in tried:
        if ok:
            state = game.apply(state, ev)
            continue
        before = game.dump(state)
        with pytest.raises(RuleError):
            game.apply(state, ev)
        assert game.dump(state) == before


def assert_replay_deterministic_and_round_trips(
    game: Any, setup: Mapping[str, Any], events: list[Any]
) -> Any:
    """Replay twice gives the same state; every state survives dump → JSON → load; the
    view counts the events. Returns the final state."""
    import json

    first = replay(game, setup, events)
    assert replay(game, setup, events) == first
    state = game.initial(setup)
    for ev in events:
        state = game.apply(state, ev)
        assert game.load(json.loads(json.dumps(game.dump(state)))) == state
    assert state == first
    assert game.view(first)["events"] == len(events)
    return first


def assert_refused_at(
    game: Any, setup: Mapping[str, Any], before: list[Any], event: Any, code: str
) -> RuleError:
    """After ``before``, ``event`` is refused with ``code`` at its own index, the state and
    view are unchanged, and replay reports the same index."""
    t = Timeline(game, setup)
    for ev in before:
        t.push(ev)
    state, view = t.state, t.view()
    with pytest.raises(RuleError) as info:
        t.push(event)
    assert (info.value.code, info.value.index) == (code, len(before))
    assert t.state is state
    assert t.view() == view
    assert len(t) == len(before)
    with pytest.raises(RuleError) as again:
        replay(game, setup, [*before, event])
    assert again.value.as_dict()["index"] == len(before)
    return info.value
