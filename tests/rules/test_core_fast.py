"""The validation fast path answers exactly as the generic checks do.

``validate_event`` first asks a predicate compiled per game and event type; True returns
at once, anything else runs the generic checks. So the one thing to prove is that the
predicate never says True for an event the generic checks refuse (or would check against
a choice set). The generic checks run on their own when the event is not a plain dict
(a read-only mapping proxy here), which is how these tests ask them.
"""

from __future__ import annotations

import importlib
import math
import random
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    FOULS,
    EventType,
    Field,
    Foul,
    Game,
    RuleError,
    Seating,
    games,
    validate_event,
)
from rules.simulate import simulate_game
from rules.validate import _index


class _Str(str):
    """A str subclass: the generic checks refuse it where choices apply."""


class _Int(int):
    """An int subclass."""


class Zoo(Game[Seating]):
    """Every kind of field the core knows, to exercise the compiled predicates."""

    id = "zoo_for_fast_path"
    fouls = (Foul("push", "x", "a push"), Foul("miss", "x", "a miss"))
    events = (
        EventType(
            "all",
            "every kind",
            (
                Field("i", "int", "int with choices", choices=(1, 2, 10)),
                Field("n", "number", "number with choices", choices=(1, 2.5)),
                Field("b", "bool", "bool with a choice", choices=(True,)),
                Field("lo", "int", "bounded", minimum=0, maximum=5),
                Field("x", "number", "bounded number", minimum=-1.5),
                Field("s", "str", "free string", nullable=True),
                Field("f", "str", "a foul code", choices=FOULS),
                Field("req", "bool", "required", required=True, default=False),
                Field("l", "list", "strings", item=Field("c", "str", "c", choices=("a", "b"))),
                Field(
                    "lf",
                    "list",
                    "fouls",
                    default=(),
                    item=Field("f", "str", "f", required=True, choices=FOULS),
                ),
                Field("anylist", "list", "any list", default=()),
                Field(
                    "objs",
                    "list",
                    "objects",
                    item=Field(
                        "o",
                        "object",
                        "o",
                        fields=(
                            Field("k", "str", "k", required=True, choices=("a", "b")),
                            Field("v", "int", "v", minimum=1),
                        ),
                    ),
                ),
                Field("free", "object", "free keys", item=Field("v", "int", "v", maximum=3)),
                Field("anyobj", "object", "any object", default={}),
                Field(
                    "u",
                    "union",
                    "a union",
                    variants=(
                        Field("name", "str", "a name", choices=("a",)),
                        Field("num", "int", "a number", minimum=1, maximum=15),
                        Field("many", "list", "several", item=Field("e", "int", "e")),
                    ),
                ),
                Field("who", "str", "a player", choices_from="players"),
                Field(
                    "each",
                    "object",
                    "per player",
                    item=Field("v", "int", "v"),
                    choices_from="players",
                ),
            ),
        ),
        EventType("bare", "no fields"),
    )

    def initial(self, setup: Any) -> Seating:
        return Seating.of(("Ann", "Bob"))

    def seating(self, state: Seating) -> Seating:
        return state


ZOO = Zoo()
ZOO_STATE = ZOO.initial({})

SCALARS = st.sampled_from(
    [None, True, False, 0, 1, 2, 3, 5, 6, 10, -1, -2, 1.0, 2.5, -1.5, 0.5, math.inf, math.nan]
    + ["", "a", "b", "c", "push", "miss", "Ann", "Zed", "type", _Str("a"), _Int(1), _Int(2)]
)
KEYS = st.sampled_from(["a", "b", "k", "v", "Ann", "Zed", "type", "i", "l", "zz"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=2).map(tuple)
        | st.dictionaries(KEYS | st.sampled_from([1]), inner, max_size=3)
    ),
    max_leaves=6,
)


def answer(game: Game[Any], event: Any, state: Any) -> tuple[str, str, str] | None:
    """What validate_event says: None (accepted), or the error's class, code, message."""
    try:
        validate_event(game, event, state)
    except RuleError as err:
        return (type(err).__name__, err.code, err.message)
    return None


def generic(game: Game[Any], event: dict[str, Any], state: Any) -> tuple[str, str, str] | None:
    """What the generic checks alone say (a mapping that is not a dict skips the fast path)."""
    return answer(game, MappingProxyType(event), state)


def fast_says(game: Game[Any], event: dict[str, Any], state: Any) -> bool:
    idx = _index(game)
    pred = (idx.fast if state is None else idx.fast_state)[event["type"]]
    return pred(event, state)


def field_names(game: Game[Any]) -> list[str]:
    return sorted({f.name for e in game.events for f in e.fields} | {"zz"})


#: Values each Zoo field accepts, and some near misses: mixed with the random values so
#: that many generated events are valid, or invalid in one place only.
GOOD: dict[str, list[Any]] = {
    "i": [1, 2, 10, 3, _Int(1), True, 1.0],
    "n": [1, 2.5, 1.0, 2, 2.0, True],
    "b": [True, False, 1],
    "lo": [0, 5, 6, -1, 3, 2.0],
    "x": [-1.5, 0, 7.25, -2, math.inf],
    "s": ["", "any", None, 1],
    "f": ["push", "miss", "Push", _Str("push"), None],
    "req": [True, False, None],
    "l": [[], ["a", "b"], ("a",), ["a", "c"], ["a", None], [_Str("a")], None],
    "lf": [[], ["push"], ["push", None], ["pull"], None],
    "anylist": [[], [1, "x", None], (), None, {}],
    "objs": [[{"k": "a"}], [{"k": "b", "v": 1}], [{"k": "a", "v": 0}], [{"v": 1}], [{}]]
    + [[{"k": "a", "zz": 1}], [None], [{"k": "a", "v": None}], [MappingProxyType({"k": "a"})]],
    "free": [{}, {"a": 3}, {"a": 4}, {"a": None}, {1: 1}, {"a": True}],
    "anyobj": [{}, {"x": [1]}, None, [], MappingProxyType({})],
    "u": ["a", "b", 1, 15, 16, 0, [1, 2], [1, "x"], [], None, True, 2.0, {}],
    "who": ["Ann", "Bob", "Zed", None, 1, _Str("Ann")],
    "each": [{"Ann": 1}, {"Zed": 1}, {}, None, {"Ann": "x"}, {1: 1}],
    "zz": [1],
}


@pytest.mark.parametrize("with_state", [False, True])
@settings(max_examples=1200, deadline=None)
@given(data=st.data())
def test_the_fast_path_never_accepts_what_the_generic_checks_refuse(data, with_state):
    kind = data.draw(st.sampled_from(["all", "all", "all", "bare"]))
    event: dict[str, Any] = {"type": kind}
    if kind == "all" and data.draw(st.integers(0, 9)):
        event["req"] = True
    for name in data.draw(st.lists(st.sampled_from(sorted(GOOD)), max_size=6, unique=True)):
        pool = st.sampled_from(GOOD[name])
        event[name] = data.draw(pool | VALUES if data.draw(st.integers(0, 4)) == 0 else pool)
    state = ZOO_STATE if with_state else None
    expected = generic(ZOO, event, state)
    if fast_says(ZOO, event, state):
        assert expected is None, event
    assert answer(ZOO, event, state) == expected


class ChoiceZoo(Game[Seating]):
    """The shapes that take their choices from a choice set: unions whose variants have
    ``choices_from``, objects keyed by a set, lists of objects with such fields. The
    ``numbers`` set holds look-alikes (True, 3.0) that equal ints of another type."""

    id = "choice_zoo_for_fast_path"
    fouls = (Foul("push", "x", "a push"),)
    choice_set_doc = {"numbers": "n", "words": "w", "nothing": "an empty set"}
    events = (
        EventType(
            "ball",
            "every shape",
            (
                Field(
                    "to",
                    "union",
                    "a number of the board, or a word",
                    variants=(
                        Field("number", "int", "n", choices_from="numbers"),
                        Field("word", "str", "w", choices=("table", "back")),
                    ),
                ),
                Field(
                    "by",
                    "union",
                    "a player, or a count",
                    nullable=True,
                    variants=(
                        Field("name", "str", "n", choices_from="players"),
                        Field("count", "int", "c", minimum=1, maximum=4),
                        Field(
                            "each", "list", "l", item=Field("p", "str", "p", choices_from="players")
                        ),
                    ),
                ),
                Field(
                    "others",
                    "list",
                    "other balls",
                    default=(),
                    item=Field(
                        "other",
                        "object",
                        "o",
                        fields=(
                            Field(
                                "ball",
                                "union",
                                "b",
                                required=True,
                                variants=(
                                    Field("white", "str", "w", choices=("white",)),
                                    Field("number", "int", "n", choices_from="numbers"),
                                ),
                            ),
                            Field("to", "int", "t", required=True, choices_from="numbers"),
                            Field("who", "str", "w", choices_from="players", nullable=True),
                        ),
                    ),
                ),
                Field(
                    "pins",
                    "object",
                    "pins per word",
                    item=Field("n", "int", "n", minimum=0, maximum=3),
                    choices_from="words",
                ),
                Field("anykeys", "object", "any object keyed by a word", choices_from="words"),
                Field(
                    "names",
                    "list",
                    "players",
                    item=Field("p", "str", "p", choices_from="players", choices=("Ann", "Zed")),
                ),
                Field("small", "int", "a low number", choices_from="numbers", maximum=2),
                Field("none", "str", "from an empty set", choices_from="nothing"),
                Field(
                    "weights",
                    "list",
                    "weights",
                    item=Field(
                        "weight",
                        "object",
                        "w",
                        fields=(
                            Field("player", "str", "p", required=True, choices_from="players"),
                            Field(
                                "zone",
                                "union",
                                "z",
                                required=True,
                                variants=(
                                    Field("line", "int", "l", choices=(1, 2, 3)),
                                    Field("hanger", "str", "h", choices=("hanger",)),
                                ),
                            ),
                            Field("f", "str", "f", choices=FOULS),
                        ),
                    ),
                ),
            ),
        ),
        EventType(
            "lost",
            "a player's set",
            (Field("player", "str", "who", required=True, choices_from="unknown_set"),),
        ),
    )

    def initial(self, setup: Any) -> Seating:
        return Seating.of(("Ann", "Bob"))

    def seating(self, state: Seating) -> Seating:
        return state

    def choice_sets(self, state: Seating) -> dict[str, list[Any]]:
        sets = super().choice_sets(state)
        sets.update(numbers=[True, 1, 2, 3.0, 3, 10, 0.5, False], words=["10", "black", "Ann"])
        sets["nothing"] = []
        return sets


CHOICE_ZOO = ChoiceZoo()
CHOICE_ZOO_STATE = CHOICE_ZOO.initial({})

CHOICE_GOOD: dict[str, list[Any]] = {
    "to": [1, 2, 3, 10, 4, 0, True, 3.0, "table", "off", None, _Int(2), _Str("table"), [1]],
    "by": ["Ann", "Bob", "Zed", 1, 5, True, None, ["Ann"], ["Ann", "Zed"], [], (), [None]],
    "others": [
        [],
        [{"ball": "white", "to": 1}],
        [{"ball": 10, "to": 2, "who": "Bob"}],
        [{"ball": 4, "to": 2}],
        [{"ball": 1, "to": 0}],
        [{"ball": True, "to": 1}],
        [{"ball": "white", "to": 3, "who": None}],
        [{"ball": "white", "to": 3, "who": "Zed"}],
        [{"ball": "white"}],
        [{"ball": "white", "to": 1, "zz": 1}],
        [{"ball": "white", "to": 1}, {"ball": 2, "to": 10}],
        [MappingProxyType({"ball": "white", "to": 1})],
        [None],
        None,
    ],
    "pins": [{}, {"10": 1}, {"10": 3, "black": 0}, {"10": 4}, {"20": 1}, {"Ann": None}, {1: 1}],
    "anykeys": [{}, {"black": [1]}, {"white": 1}, {1: 1}, None, []],
    "names": [[], ["Ann"], ["Bob"], ["Zed"], ["Ann", None], None, [_Str("Ann")]],
    "small": [1, 2, 3, 0, True, 10, None, 2.0],
    "none": [None, "Ann", ""],
    "weights": [
        [{"player": "Ann", "zone": 1}],
        [{"player": "Bob", "zone": "hanger", "f": "push"}],
        [{"player": "Bob", "zone": "hanger", "f": "pull"}],
        [{"player": "Zed", "zone": 2}],
        [{"player": "Ann", "zone": 4}],
        [{"player": "Ann"}],
        [{"zone": 1}],
        [],
    ],
}


@pytest.mark.parametrize("with_state", [False, True])
@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_the_fast_path_checks_choice_sets_as_the_generic_checks_do(data, with_state):
    event: dict[str, Any] = {"type": "ball"}
    for name in data.draw(st.lists(st.sampled_from(sorted(CHOICE_GOOD)), max_size=5, unique=True)):
        pool = st.sampled_from(CHOICE_GOOD[name])
        event[name] = data.draw(pool | VALUES if data.draw(st.integers(0, 4)) == 0 else pool)
    state = CHOICE_ZOO_STATE if with_state else None
    expected = generic(CHOICE_ZOO, event, state)
    if fast_says(CHOICE_ZOO, event, state):
        assert expected is None, event
    assert answer(CHOICE_ZOO, event, state) == expected


def test_choice_set_shapes_that_are_valid_take_the_fast_path():
    event = {
        "type": "ball",
        "to": 10,
        "by": ["Ann", "Bob"],
        "others": [{"ball": "white", "to": 2}, {"ball": 2, "to": 10, "who": "Bob"}],
        "pins": {"10": 3, "black": 0},
        "anykeys": {"Ann": None},
        "names": ["Ann"],
        "small": 2,
        "weights": [{"player": "Bob", "zone": "hanger", "f": "push"}, {"player": "Ann", "zone": 2}],
    }
    assert generic(CHOICE_ZOO, event, CHOICE_ZOO_STATE) is None
    assert fast_says(CHOICE_ZOO, event, CHOICE_ZOO_STATE)
    assert fast_says(CHOICE_ZOO, event, None)
    # look-alikes of a choice: the first equal element decides, else the generic checks
    assert not fast_says(CHOICE_ZOO, {"type": "ball", "to": 1}, CHOICE_ZOO_STATE)
    assert generic(CHOICE_ZOO, {"type": "ball", "to": 1}, CHOICE_ZOO_STATE) is None
    assert not fast_says(CHOICE_ZOO, {"type": "ball", "to": 4}, CHOICE_ZOO_STATE)
    assert generic(CHOICE_ZOO, {"type": "ball", "to": 4}, CHOICE_ZOO_STATE) is not None


def test_a_set_the_game_does_not_resolve_raises_as_the_generic_checks_do():
    event = {"type": "lost", "player": "Ann"}
    assert not fast_says(CHOICE_ZOO, event, CHOICE_ZOO_STATE)
    for mapping in (event, MappingProxyType(event)):
        with pytest.raises(KeyError):
            validate_event(CHOICE_ZOO, mapping, CHOICE_ZOO_STATE)
    validate_event(CHOICE_ZOO, event)  # without a state no set is looked at


def a_game(game, seed: int, length: int):
    """(setup, events) of a seeded plausible game: from the default setup, or, for a game
    whose setup needs what only the table can tell (the cards dealt), the family's own."""
    if any(option["required"] for option in game.describe()["setup"]):
        family = importlib.import_module(f"rules.simulate.{game.family}")
        return family.simulate(game, random.Random(seed), length)
    return None, simulate_game(game, None, seed=seed, max_events=length)


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_game_answers_as_the_generic_checks_on_mutated_events(game, data):
    setup, events = a_game(game, data.draw(st.integers(0, 3)), 60)
    event = dict(data.draw(st.sampled_from(events)))
    names = field_names(game)
    for _ in range(data.draw(st.integers(0, 3))):
        key = data.draw(st.sampled_from(names))
        if data.draw(st.booleans()) and key in event:
            del event[key]
        else:
            event[key] = data.draw(VALUES)
    for state in (None, game.initial(setup)):
        expected = generic(game, event, state)
        if fast_says(game, event, state):
            assert expected is None, event
        assert answer(game, event, state) == expected


#: Games some of whose everyday events the compiled check does not cover yet (unions with
#: setup-dependent choices, nested objects of the bagatelle boards): they are checked
#: by the generic validator, correctly but more slowly. Strict: a fix must remove the name.
SLOW_PATH: set[str] = set()


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(g, marks=pytest.mark.xfail(strict=True, reason="generic validation"))
        if g.id in SLOW_PATH
        else g
        for g in games()
    ],
    ids=lambda g: g.id,
)
def test_legal_simulated_events_take_the_fast_path(game):
    """Speed, not answers: the events a game sees every day never need the generic checks
    (bar a named player, which is checked against the state's players)."""
    for seed in range(3):
        setup, events = a_game(game, seed, 3000)
        for event in events:
            assert fast_says(game, event, None), event
            if all(v is None for k, v in event.items() if k == "player"):
                assert fast_says(game, event, game.initial(setup)), event


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_advance_in_seat_order_passes_to_the_next_seat(data):
    """With nobody out or skipping and no play-off, ``Seating.advance`` passes the table to
    the next seat, rotates the partner, counts the visit, renews the allotment and counts
    a round when the seats wrap and the first member is due again."""
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=5))
    n = len(sizes)
    members = tuple(tuple(f"p{i}{j}" for j in range(k)) for i, k in enumerate(sizes))
    seats = Seating.of(
        tuple(f"s{i}" for i in range(n)),
        members,
        sides=True,
        first=data.draw(st.integers(0, n - 1)),
        balls=data.draw(st.integers(0, 2)),
    )
    for _ in range(data.draw(st.integers(0, 12))):
        rotate = data.draw(st.booleans())
        partner = seats.partner
        size = len(seats.members[seats.turn])
        if rotate and size > 1:
            partner = (
                *partner[: seats.turn],
                (partner[seats.turn] + 1) % size,
                *partner[seats.turn + 1 :],
            )
        after = seats.advance(rotate)
        nxt = (seats.turn + 1) % n
        assert after.turn == nxt and after.partner == partner
        assert after.visits == tuple(v + (i == nxt) for i, v in enumerate(seats.visits))
        assert after.balls_left == seats.balls and after.out == seats.out
        wrapped = seats.turn + 1 >= n
        assert after.round == seats.round + (wrapped and partner[nxt] == 0)
        seats = after
