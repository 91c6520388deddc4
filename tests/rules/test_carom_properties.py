"""The carom family: the shared engine properties over every game of the carom scoring language, and the
family's own invariants, on random games (mostly legal, with malformed and impossible events
mixed in).

Shared: a refused event changes nothing; replay is deterministic; every state survives
dump → JSON → load; undo equals replaying the prefix. The family's: no stroke moves more
than two scores, and only the striker's and (two players) his opponent's; in the carom
games scores never fall and the opponent gets at most 1; a player's innings only grow, by
one each time the table passes to him; the run is what the player at the table has scored
in this inning; counts in succession in a restricted space stay below its allowance; a game
over has no one at the table; the dump does not grow with the game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError, Timeline, get, replay
from rules.simulate.carom import plausible_event
from tests.rules.conftest import (
    assert_refusals_change_nothing,
    assert_replay_deterministic_and_round_trips,
)

#: Every game of the carom scoring language.
FAMILY = (
    "three_ball_carom",
    "balkline_14in",
    "balkline_18in_1shot",
    "balkline_18in_2shot",
    "space_game",
    "progressive_carom",
    "four_ball_carom",
    "cushion_carom",
    "three_cushion_carom",
    "bank_shot_carom",
    "little_corporal",
    "american_four_ball_pocket",
    "english_billiards",
    "spanish_billiards",
    "russian_pool",
)
CAROM_GAMES = FAMILY[:11]
#: Games where only the striker's own score moves.
STRIKER_ONLY = ("spanish_billiards", "russian_pool")


GARBAGE: list[Any] = [
    {"type": "pot"},
    {"type": "stroke", "contacts": ["blue"]},
    {"type": "stroke", "contacts": "red"},
    {"type": "stroke", "spin": True},
    {"type": "stroke", "fouls": ["x"]},
    {"type": "stroke", "contacts": ["cushion"], "off_table": ["cue", "cue"]},
    {"type": "stroke", "returned": True, "space": "corner_1"},
    {"type": "stroke", "pots": [{"ball": "red", "pocket": "top_left"}]},
    {"type": "stroke", "nominate": "cannon"},
    {"type": "stroke", "choice": "foul"},
    {"type": "lay_off"},
    {"type": "spot_balls", "now": 1},
    {"type": "concede"},
    {"type": "concede", "player": "Zed"},
    [],
    None,
]


def _events(game: Any, rng: random.Random, n: int, setup: dict[str, Any]) -> list[Any]:
    """Up to ``n`` events tried on ``game``: each with whether it was accepted."""
    t = Timeline(game, setup)
    tried: list[tuple[Any, bool]] = []
    for _ in range(n):
        if t.state.over:
            if rng.random() < 0.5:
                tried.append(({"type": "time_up"}, False))
            break
        roll = rng.random()
        if roll < 0.06:
            ev = rng.choice(GARBAGE)
        elif roll < 0.065:
            ev = rng.choice(
                [{"type": "time_up"}, {"type": "concede", "player": rng.choice(setup["players"])}]
            )
        else:
            ev = plausible_event(game, rng, t.state)
        try:
            t.push(ev)
        except RuleError:
            tried.append((ev, False))
        else:
            tried.append((ev, True))
    return tried


@st.composite
def random_games(draw: st.DrawFn, game_id: str) -> dict[str, Any]:
    game = get(game_id)
    many = game_id == "russian_pool" and draw(st.booleans())
    players = ["Ann", "Bob", "Cat"] if many else ["Ann", "Bob"]
    setup: dict[str, Any] = {"players": players}
    setup["target"] = draw(st.sampled_from([None, 10, 40]))
    if draw(st.booleans()):
        setup["leads"] = draw(st.sampled_from(players))
    if game_id == "american_four_ball_pocket":
        setup["carom_values"] = draw(st.sampled_from(["historic", "uniform"]))
        setup["penalty_to"] = draw(st.sampled_from(["opponent", "self"]))
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(min_value=0, max_value=100))
    return {"game": game, "setup": setup, "tried": _events(game, rng, n, setup)}


_PROPS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_GAMES = [pytest.param(g) for g in FAMILY]


@pytest.mark.parametrize("game_id", _GAMES)
def test_refused_events_change_nothing(game_id):
    @_PROPS
    @given(random_games(game_id))
    def check(g: dict[str, Any]) -> None:
        assert_refusals_change_nothing(g["game"], g["setup"], g["tried"])

    check()


@pytest.mark.parametrize("game_id", _GAMES)
def test_replay_is_deterministic_and_dump_round_trips(game_id):
    @_PROPS
    @given(random_games(game_id))
    def check(g: dict[str, Any]) -> None:
        events = [ev for ev, ok in g["tried"] if ok]
        assert_replay_deterministic_and_round_trips(g["game"], g["setup"], events)

    check()


@pytest.mark.parametrize("game_id", _GAMES)
def test_undo_equals_replaying_the_prefix(game_id):
    @_PROPS
    @given(random_games(game_id), st.integers(min_value=0, max_value=30))
    def check(g: dict[str, Any], back: int) -> None:
        game, setup = g["game"], g["setup"]
        events = [ev for ev, ok in g["tried"] if ok]
        t = Timeline(game, setup)
        for ev in events:
            t.push(ev)
        back = min(back, len(events))
        for _ in range(back):
            t.undo()
        prefix = events[: len(events) - back]
        assert t.state == replay(game, setup, prefix)
        assert t.view() == game.view(replay(game, setup, prefix))

    check()


def _limits(game: Any) -> dict[str, int]:
    """The space name -> its default allowance, from describe()."""
    d = game.describe()
    stroke = next(e for e in d["events"] if e["type"] == "stroke")
    spaces = {f["name"]: f for f in stroke["fields"]}.get("space")
    setup = {o["name"]: o for o in d["setup"]}
    if spaces is None:
        return {}
    kinds = {f["name"]: f["default"] for f in setup["space_limits"]["fields"]}
    out = {}
    for name in spaces["choices"]:
        prefix = name.rsplit("_", 1)[0]
        kind = {
            "crotch": "crotch",
            "anchor": "anchor",
            "corner": "balk" if "balk" in kinds else "corner",
            "side": "balk" if "balk" in kinds else "side",
            "end": "balk",
        }[prefix]
        out[name] = kinds[kind]
    return out


@pytest.mark.parametrize("game_id", _GAMES)
def test_family_invariants(game_id):
    game = get(game_id)
    limits = _limits(game)

    @_PROPS
    @given(random_games(game_id))
    def check(g: dict[str, Any]) -> None:
        setup = g["setup"]
        t = Timeline(game, setup)
        before = t.view()
        size = len(json.dumps(game.dump(t.state)))
        for ev, ok in g["tried"]:
            if not ok:
                continue
            t.push(ev)
            after = t.view()
            players = list(after["scores"])
            striker = before["at_table"]
            moved = [p for p in players if after["scores"][p] != before["scores"][p]]
            # no event moves more than two scores; only a stroke moves any
            assert len(moved) <= (1 if game_id in STRIKER_ONLY else 2)
            if moved:
                assert ev["type"] == "stroke"
                if game_id in STRIKER_ONLY:
                    assert moved == [striker]
            # no stroke raises two scores (carom.md "End": so no tie at the target)
            assert len([p for p in moved if after["scores"][p] > before["scores"][p]]) <= 1
            never_fall = game_id in ("english_billiards",) or (
                game_id == "american_four_ball_pocket" and setup.get("penalty_to") != "self"
            )
            if never_fall:
                assert all(after["scores"][p] >= before["scores"][p] for p in players)
            if game_id in CAROM_GAMES and ev["type"] == "stroke":
                gains = {p: after["scores"][p] - before["scores"][p] for p in players}
                assert min(gains.values()) >= 0
                assert sum(v for p, v in gains.items() if p != striker) <= 1
            # innings only grow, by one, for the player the table passed to
            grew = [p for p in players if after["innings"][p] != before["innings"][p]]
            for p in grew:
                assert after["innings"][p] == before["innings"][p] + 1
                assert after["at_table"] == p != striker
            if not after["over"] and after["at_table"] != striker:
                assert grew == [after["at_table"]] and after["run"] == 0
            # the run: what the player at the table has scored in this inning
            if not after["over"] and after["at_table"] == striker and ev["type"] == "stroke":
                gain = after["scores"][striker] - before["scores"][striker]
                assert gain > 0 and after["run"] == before["run"] + gain
            assert after["run"] >= 0
            # restricted spaces: counts in succession stay below the allowance
            if after["space"] is None:
                assert after["space_counts"] == 0
            if not limits:
                assert after["space"] is None and after["space_counts"] == 0
            elif after["space"] is not None and "space_limits" not in setup:
                assert 0 <= after["space_counts"] < limits[after["space"]]
            # the end
            if after["over"]:
                assert after["at_table"] is None and after["next"] == "none"
                assert after["run"] == 0 and after["space_counts"] == 0
                if after["winner"] is not None and ev["type"] == "stroke" and setup["target"]:
                    assert after["scores"][after["winner"]] >= setup["target"]
                    assert after["innings"] == before["innings"]
            else:
                assert after["winner"] is None and not after["shared"]
            assert sum(after["innings"].values()) >= 1
            # counters, not histories: the dump does not grow with the game
            grown = len(json.dumps(game.dump(t.state)))
            assert grown <= size + 16 * len(players) + 64
            before = after

    check()
