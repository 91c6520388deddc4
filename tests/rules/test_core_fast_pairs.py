"""The compiled check of a ball named by a number or a name (a union of an int and a str
with choices, alone or in a list: the contacts and pots of the pocket, target and carom
games) answers exactly as the generic checks do: never True for a value they refuse, and
True for every value they accept."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import EventType, Field, Game, Seating
from tests.rules.test_core_fast import _Int, _Str, answer, fast_says, generic


def _ball(name: str, **kw: Any) -> Field:
    return Field(
        name,
        "union",
        "a ball: a number or a name",
        variants=(
            Field("number", "int", "a numbered ball", choices=(1, 2, 15, True)),
            Field("name", "str", "a named ball", choices=("cue", "cushion", 3)),
        ),
        **kw,
    )


class Balls(Game[Seating]):
    id = "balls_for_fast_path"
    fouls = ()
    events = (
        EventType(
            "stroke",
            "balls",
            (
                _ball("ball"),
                _ball("maybe", nullable=True),
                Field("contacts", "list", "in order", item=_ball("contact", required=True)),
                Field("gaps", "list", "with holes", item=_ball("gap", nullable=True)),
            ),
        ),
    )

    def initial(self, setup: Any) -> Seating:
        return Seating.of(("Ann", "Bob"))

    def seating(self, state: Seating) -> Seating:
        return state


BALLS = Balls()
ONE = st.sampled_from(
    [1, 2, 15, 3, 0, 16, -1, True, False, 1.0, 2.5, math.nan, None, "cue", "cushion"]
    + ["Cue", "", "1", "red", _Int(1), _Str("cue"), (1,), [1], {}, {"cue": 1}]
)
VALUE = ONE | st.lists(ONE, max_size=4) | st.lists(ONE, max_size=3).map(tuple)


@settings(max_examples=1500, deadline=None)
@given(
    fields=st.dictionaries(st.sampled_from(["ball", "maybe", "contacts", "gaps"]), VALUE),
    with_state=st.booleans(),
)
def test_a_ball_by_number_or_name_is_checked_as_the_generic_checks_do(fields, with_state):
    event = {"type": "stroke", **fields}
    state = BALLS.initial({}) if with_state else None
    refused = generic(BALLS, event, state)
    if fast_says(BALLS, event, state):
        assert refused is None, (event, refused)
    else:  # not vouched for: the generic checks answer, the same either way
        assert answer(BALLS, event, state) == refused
    if refused is None:  # what is valid takes the fast path
        assert fast_says(BALLS, event, state), event


def test_the_pairs_keep_numbers_and_names_apart():
    ok = {"type": "stroke", "ball": 15, "maybe": None, "contacts": [1, "cushion", 2]}
    assert fast_says(BALLS, ok, None) and generic(BALLS, ok, None) is None
    for bad in ("1", 3, 1.0, False, [1, "3"], ["cue", None]):
        field = "contacts" if isinstance(bad, list) else "ball"
        event = {**ok, field: bad}
        assert not fast_says(BALLS, event, None), event
        assert generic(BALLS, event, None) is not None, event
    # a listed ball may be null only where the list's item says so
    assert fast_says(BALLS, {**ok, "gaps": [None, 2]}, None)
