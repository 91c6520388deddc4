"""The shared core pieces: unions, choices_from, Seating, Participants/setup_for,
Outcome, Stat/aggregate, display, and each game's outcome and statistics."""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from rules import (
    EventType,
    Field,
    Game,
    InvalidEvent,
    Option,
    Outcome,
    Participants,
    RuleError,
    Seating,
    Stat,
    aggregate,
    games,
    get,
    player_field,
    replay,
    setup_for,
    validate_event,
    validate_setup,
)
from rules.simulate import simulate_frame

BB = get("bar_billiards_4pin")
CAROM = get("three_cushion_carom")
POOL = get("snooker_pool_hoyle")

# ---------------------------------------------------------------- a toy family game

BALL = Field(
    "ball",
    "union",
    "the cue ball, or a numbered ball",
    required=True,
    variants=(
        Field("cue", "str", "the cue ball", choices=("cue",)),
        Field("number", "int", "a numbered ball", minimum=1, maximum=15),
    ),
)


class Toy(Game[Seating]):
    """Players in rotation; the balls on the table come from the state."""

    id = "toy_pieces"
    name = "toy"
    family = "toy"
    players = "2-4"
    participants = Participants(("players",), min=2, max=4, count=True)
    options = (
        Option(
            "players",
            "union",
            None,
            "names, or a number of players",
            variants=(
                Field("names", "list", "names", item=Field("name", "str", "a name")),
                Field("count", "int", "how many", minimum=2, maximum=4),
            ),
        ),
        Option("leads", "str", None, "who leads", choices_from="players"),
        Option(
            "lives",
            "union",
            3,
            "lives: one number for all, or name -> number",
            variants=(
                Field("all", "int", "for everyone", minimum=1),
                Field(
                    "each",
                    "object",
                    "per player",
                    item=Field("n", "int", "lives", minimum=1),
                    choices_from="players",
                ),
            ),
        ),
    )
    events = (
        EventType("pot", "a ball potted", (BALL, Field("cup", "int", "cup", choices_from="cups"))),
        EventType("concede", "someone gives up", (player_field("who concedes"),)),
    )
    choice_set_doc = {"cups": "the cups of this board"}

    def initial(self, setup: Any) -> Seating:
        values = validate_setup(self, setup)
        return self.participants.seat(values, values["leads"])

    def apply(self, state: Seating, event: Any) -> Seating:
        validate_event(self, event, state)
        return state.advance()

    def view(self, state: Seating) -> dict[str, Any]:
        return {"at_table": state.at_table}

    def seating(self, state: Seating) -> Seating:
        return state

    def choice_sets(self, state: Seating) -> dict[str, list[Any]]:
        return {**super().choice_sets(state), "cups": [1, 2, 3]}


TOY = Toy()


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"type": "pot", "ball": "cue"}, None),
        ({"type": "pot", "ball": 15, "cup": 3}, None),
        ({"type": "pot", "ball": 16}, "bad_value"),
        ({"type": "pot", "ball": "red"}, "bad_value"),
        ({"type": "pot", "ball": 2.5}, "bad_value"),
        ({"type": "pot", "ball": True}, "bad_value"),
        ({"type": "pot", "ball": 1, "cup": 4}, "bad_value"),
        ({"type": "concede", "player": "Ann"}, None),
        ({"type": "concede", "player": "Zed"}, "bad_value"),
        ({"type": "concede"}, "missing_field"),
    ],
)
def test_union_and_choices_from_are_checked_centrally(event, code):
    state = TOY.initial({"players": ["Ann", "Bob"]})
    if code is None:
        TOY.apply(state, event)
        return
    with pytest.raises(InvalidEvent) as info:
        replay(TOY, {"players": ["Ann", "Bob"]}, [{"type": "pot", "ball": 1}, event])
    assert (info.value.code, info.value.index) == (code, 1)


def test_a_refused_choice_names_the_field_and_the_allowed_values():
    with pytest.raises(InvalidEvent) as info:
        TOY.apply(TOY.initial({"players": ["Ann", "Bob"]}), {"type": "concede", "player": "Zed"})
    assert "player" in info.value.message
    assert "'Ann', 'Bob'" in info.value.message


def test_union_message_lists_every_variant():
    with pytest.raises(InvalidEvent, match="a string or an integer"):
        validate_event(TOY, {"type": "pot", "ball": [1]})


@pytest.mark.parametrize(
    ("setup", "ok"),
    [
        ({"players": 3}, True),
        ({"players": 5}, False),
        ({"players": ["Ann", "Bob"], "leads": "Bob"}, True),
        ({"players": ["Ann", "Bob"], "leads": "Cat"}, False),
        ({"players": ["Ann", "Bob"], "lives": {"Ann": 2, "Bob": 4}}, True),
        ({"players": ["Ann", "Bob"], "lives": {"Ann": 2, "Zed": 4}}, False),
        ({"players": ["Ann", "Bob"], "lives": 0}, False),
        ({"players": "Ann"}, False),
    ],
)
def test_setup_unions_and_choices_from(setup, ok):
    if ok:
        TOY.initial(setup)
    else:
        with pytest.raises(RuleError) as info:
            TOY.initial(setup)
        assert (info.value.code, info.value.index) == ("bad_setup", -1)


def test_describe_shows_union_variants_and_choices_from():
    d = TOY.describe()
    assert json.loads(json.dumps(d)) == d
    ball = d["events"][0]["fields"][0]
    assert ball["type"] == "union"
    assert [v["type"] for v in ball["variants"]] == ["str", "int"]
    assert ball["variants"][1]["minimum"] == 1 and ball["variants"][1]["maximum"] == 15
    assert d["events"][1]["fields"][0]["choices_from"] == "players"
    assert d["choice_sets"]["cups"] == "the cups of this board"
    assert d["participants"] == {
        "kind": "players",
        "forms": ["players"],
        "min": 2,
        "max": 4,
        "per_side": None,
        "equal_sides": False,
        "count": True,
    }


def test_choice_sets_resolve_the_setup_players():
    sets = TOY.choice_sets(TOY.initial({"players": 3}))
    assert sets == {
        "players": ["P1", "P2", "P3"],
        "parties": ["P1", "P2", "P3"],
        "sides": [],
        "cups": [1, 2, 3],
    }


def test_field_refuses_a_union_without_distinct_variants():
    with pytest.raises(ValueError, match="distinct"):
        Field("x", "union", "", variants=(Field("a", "int", ""), Field("b", "number", "")))
    with pytest.raises(ValueError, match="variants"):
        Field("x", "union", "")


# --------------------------------------------------------------------------- seating


def test_sides_rotate_partners_in_the_canonical_order():
    s = Seating.of(("A", "B"), (("Ann", "Al"), ("Bob", "Bea")), sides=True)
    seen = []
    for _ in range(8):
        seen.append(s.player)
        s = s.advance()
    assert seen == ["Ann", "Bob", "Al", "Bea"] * 2
    assert s.round == 3


def test_unequal_sides_each_rotate_their_own_partners():
    s = Seating.of(("A", "B"), (("Ann",), ("Bob", "Bea", "Bo")), sides=True)
    seen = []
    for _ in range(6):
        seen.append(s.player)
        s = s.advance()
    assert seen == ["Ann", "Bob", "Ann", "Bea", "Ann", "Bo"]


def test_a_partner_may_keep_the_sides_visits():
    s = Seating.of(("A", "B"), (("Ann", "Al"), ("Bob", "Bea")), sides=True)
    s = s.advance(rotate=False).advance()
    assert s.player == "Ann"


def test_knocked_out_parties_are_passed_over_until_revived():
    s = Seating.of(("A", "B", "C")).knock_out(1)
    assert [s.advance().at_table, s.advance().advance().at_table] == ["C", "A"]
    assert s.remaining == (0, 2)
    assert s.revive(1).advance().at_table == "B"


def test_skipped_turns_are_passed_over_once_each():
    s = Seating.of(("A", "B", "C")).skip(1, 2)
    order = []
    for _ in range(6):
        s = s.advance()
        order.append(s.at_table)
    assert order == ["C", "A", "C", "A", "B", "C"]


def test_a_playoff_rotates_among_its_parties_only():
    s = Seating.of(("A", "B", "C", "D")).start_playoff([3, 1])
    assert s.at_table == "B"
    assert [s.advance().at_table, s.advance().advance().at_table] == ["D", "B"]


def test_balls_a_turn_pass_the_visit_when_used_up():
    s = Seating.of(("A", "B"), balls=3)
    seen = []
    for _ in range(7):
        seen.append(s.at_table)
        s = s.ball()
    assert seen == ["A", "A", "A", "B", "B", "B", "A"]


def test_seating_dump_round_trips():
    s = Seating.of(("A", "B"), (("Ann", None), ("Bob",)), sides=True, balls=2).skip(1).advance()
    assert Seating.load(json.loads(json.dumps(s.dump()))) == s


# ----------------------------------------------------------------- setup_for


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_setup_for_builds_a_valid_setup_for_every_game(game):
    if needs_table(game):  # e.g. the cards dealt: names alone are refused, clearly
        with pytest.raises(RuleError) as refused:
            setup_for(game, {"home": ["Ann"], "away": ["Bob"]})
        assert refused.value.code == "bad_setup" and refused.value.index == -1
        return
    league = setup_for(game, {"home": ["Ann"], "away": ["Bob"]})
    state = game.initial(league)
    assert set(game.choice_sets(state)["players"]) == {"Ann", "Bob"}
    friendly = game.setup_for(["Cat", "Dan"])
    assert set(game.choice_sets(game.initial(friendly))["players"]) == {"Cat", "Dan"}
    unnamed = setup_for(game, {"home": [], "away": []})
    game.initial(unnamed)


def test_setup_for_keeps_doubles_and_merges_options():
    setup = setup_for(BB, {"home": ["Ann", "Al"], "away": ["Bob", "Bea"]}, {"white_balls": 6})
    assert setup["players"] == {"home": ["Ann", "Al"], "away": ["Bob", "Bea"]}
    assert setup["white_balls"] == 6


def test_setup_for_refuses_what_the_game_cannot_seat():
    with pytest.raises(RuleError) as info:
        setup_for(CAROM, ["Ann", "Bob", "Cat"])
    assert info.value.code == "bad_setup"


# ------------------------------------------------------------------ outcome


def test_outcome_is_frozen_hashable_and_compares_by_value():
    a = Outcome(True, "home", "away", False, {"home": 2, "away": 1})
    b = Outcome(True, "home", "away", False, {"home": 2, "away": 1})
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.winner = "away"  # type: ignore[misc]
    with pytest.raises(TypeError):
        a.scores["home"] = 5  # type: ignore[index]
    assert Outcome(False).result("home") is None
    assert Outcome(True, shared=True).result("x") == "shared"


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_outcome_agrees_with_the_view_for_random_games(game):
    for seed in range(5):
        setup, events = plausible_game(game, seed)
        state = replay(game, setup, events)
        view, out = game.view(state), game.outcome(state)
        assert out.over == view["over"]
        assert out.winner == view["winner"]
        assert out.shared == view["shared"]
        assert dict(out.scores) == view["scores"]
        if out.winner is not None and len(out.scores) == 2:
            assert out.loser == next(p for p in out.scores if p != out.winner)


def needs_table(game: Game[Any]) -> bool:
    """The game's setup has options only the table can tell (no default): the cards dealt."""
    return any(option["required"] for option in game.describe()["setup"])


def plausible_game(game: Game[Any], seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from rules.simulate import simulate_game

    if needs_table(game):  # the family's own generator deals the table as well
        family = importlib.import_module(f"rules.simulate.{game.family}")
        return family.simulate(game, random.Random(seed), 300)
    setup = setup_for(game, ["Ann", "Bob"])
    return setup, simulate_game(game, setup, seed=seed)


# --------------------------------------------------------------- statistics


def test_stat_declares_only_known_aggregations_and_ratios_name_both_stats():
    with pytest.raises(ValueError, match="agg"):
        Stat("x", "X", "mean", "")
    with pytest.raises(ValueError, match="numerator"):
        Stat("x", "X", "ratio", "")


def test_aggregate_count_is_games_with_a_non_zero_value_and_ratio_is_sum_over_sum():
    stats = (
        Stat("p", "P", "sum", ""),
        Stat("i", "I", "sum", ""),
        Stat("avg", "Avg", "ratio", "", "p", "i"),
        Stat("w", "W", "count", ""),
        Stat("lo", "Lo", "min", ""),
    )
    lines = [{"p": 9, "i": 1, "w": -2, "lo": 3}, {"p": 1, "i": 9, "w": 0, "lo": -1}]
    assert aggregate(stats, lines) == {"p": 10, "i": 10, "avg": 1.0, "w": 1, "lo": -1}


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_game_declares_statistics_display_and_participants(game):
    d = game.describe()
    assert d["statistics"], game.id
    names = {s["name"] for s in d["statistics"]}
    for s in d["statistics"]:
        if s["agg"] == "ratio":
            assert {s["numerator"], s["denominator"]} <= names
    assert d["display"]
    setup, events = plausible_game(game, 1)
    view = game.view(game.initial({} if not needs_table(game) else setup))
    for entry in d["display"]:
        assert entry["key"] in view and entry["label"]
    assert d["participants"]["kind"] in ("players", "sides")
    lines = game.player_statistics(setup, events)
    assert set(lines) == set(game.choice_sets(game.initial(setup))["players"])
    for line in lines.values():
        assert set(line) == names


@dataclass
class _Counts:
    """frames/stats.py::shot_counts's tally, copied as the oracle."""

    high_break: int = 0
    breaks: int = 0
    points_banked: int = 0
    pots_200: int = 0
    reds_200: int = 0
    black_pin_wipeouts: int = 0
    points_wiped: int = 0


def oracle_shot_counts(setup: dict[str, Any], payloads: list[dict[str, Any]]) -> dict[str, _Counts]:
    """The web app's figures, read from the view's ``last`` (frames/stats.py)."""
    game = BB
    counts: dict[str, _Counts] = {}
    state = game.initial(setup)
    for payload in payloads:
        state = game.apply(state, payload)
        last = game.view(state).get("last") or {}
        player = last.get("player")
        if last.get("type") != "shot" or player is None:
            continue
        c = counts.setdefault(player, _Counts())
        banked = last.get("banked") or 0
        if banked > 0:
            c.breaks += 1
            c.points_banked += banked
            c.high_break = max(c.high_break, banked)
        for pot in last.get("pots") or ():
            if pot.get("hole") == 200 and pot.get("points", 0) > 0:
                if pot.get("ball") == "red":
                    c.reds_200 += 1
                else:
                    c.pots_200 += 1
        if last.get("foul") == "pin_200":
            c.black_pin_wipeouts += 1
            c.points_wiped += last.get("wiped") or 0
    return counts


@pytest.mark.parametrize("seed", range(25))
def test_bar_billiards_statistics_equal_the_web_apps_figures(seed):
    rng = random.Random(seed)
    doubles = rng.random() < 0.5
    players = (
        {"home": ["Ann", "Al"], "away": ["Bob", "Bea"]}
        if doubles
        else {"home": ["Ann"], "away": ["Bob"]}
    )
    setup = {"players": players}
    events = simulate_frame(setup, seed=seed)
    ours = BB.player_statistics(setup, events)
    theirs = oracle_shot_counts(setup, events)
    for name, line in ours.items():
        assert line == (theirs.get(name) or _Counts()).__dict__, name
    # every pin_200 foul called is one wipe-out of its player's (or partner's) score
    called = sum("pin_200" in (e.get("fouls") or ()) for e in events)
    assert sum(line["black_pin_wipeouts"] for line in ours.values()) == called


def test_bar_billiards_statistics_leave_unnamed_players_out():
    lines = BB.player_statistics({"players": {"home": ["Ann"]}}, simulate_frame(seed=3))
    assert set(lines) == {"Ann"}


def test_carom_statistics_count_runs_innings_and_misses():
    three = {"type": "stroke", "contacts": ["cushion"] * 3 + ["red", "white"]}
    miss = {"type": "stroke", "contacts": ["cushion"]}
    lines = CAROM.player_statistics({"players": ["Ann", "Bob"]}, [three, three, miss, three, miss])
    assert lines["Ann"] == {"points": 3, "innings": 2, "average": 1.5, "high_run": 2, "misses": 1}
    assert lines["Bob"] == {"points": 2, "innings": 1, "average": 2.0, "high_run": 1, "misses": 1}


def test_ledger_statistics_credit_the_striker_and_net_balances_sum_to_zero():
    sides = {"sides": ["A", "B"], "players": {"A": ["Ann", "Al"], "B": ["Bob", "Bea"]}}
    events = [
        {"type": "stroke", "first_hit": "red", "pots": [{"ball": "red"}]},
        {"type": "stroke", "first_hit": "black", "pots": [{"ball": "black"}]},
        {"type": "stroke", "first_hit": None},
        {"type": "stroke", "first_hit": "pink"},
        {"type": "stroke", "first_hit": "red", "player": "Bea"},
    ]
    lines = POOL.player_statistics(sides, events)
    assert lines["Ann"]["balls_potted"] == 2
    # Ann's miss on a red pays 1; Bob's pink first on a red pays 6; Bea out of turn
    # (r20) pays the fine of 1 on a stroke that was otherwise clean
    assert [lines[p]["penalties_paid"] for p in ("Ann", "Bob", "Al", "Bea")] == [1, 6, 0, 1]
    assert lines["Ann"]["net"] == lines["Al"]["net"] == -lines["Bob"]["net"]


def test_a_refused_event_in_a_log_raises_with_its_index():
    with pytest.raises(RuleError) as info:
        CAROM.player_statistics({}, [{"type": "stroke"}, {"type": "pot"}])
    assert info.value.index == 1
