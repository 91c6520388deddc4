"""The shot's input read without building the serializer (`serializers.event_input`)
gives exactly what `EventInSerializer` gives, or steps aside (None) and lets the
serializer decide and word the error."""

from __future__ import annotations

import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from frames.pad.serializers import EventInSerializer, event_input

VALID_ID = "0b7e7c2e-3c1a-4f43-9f2e-5d1b7f0a9c11"

INTERESTING = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2**63,
    1.0,
    VALID_ID,
    VALID_ID.replace("-", ""),
    "{" + VALID_ID + "}",
    "urn:uuid:" + VALID_ID,
    "event",
    "undo",
    "EVENT",
    "",
    " pad-1 ",
    "pad\x00",
    "\ud800",
    "x" * 64,
    "x" * 65,
    "1",
    "5.0",
    [],
    {},
    {"type": "shot"},
]

values = st.one_of(
    st.sampled_from(INTERESTING),
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=2**40),
    st.floats(allow_nan=False),
    st.text(max_size=70),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
# A well-formed event with up to three of its fields replaced, removed or added.
BASE = {"event_id": VALID_ID, "expected_seq": 4, "payload": {"type": "shot"}}
FIELDS = ["event_id", "expected_seq", "kind", "payload", "device_id", "extra"]
events = st.builds(
    lambda changes, removed: {
        **{k: v for k, v in BASE.items() if k not in removed},
        **changes,
    },
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=3),
    st.sets(st.sampled_from(FIELDS), max_size=2),
)


def serializer_says(data):
    serializer = EventInSerializer(data=data)
    return dict(serializer.validated_data) if serializer.is_valid() else None


@settings(max_examples=1500, deadline=None)
@given(events)
def test_the_quick_read_agrees_with_the_serializer_or_steps_aside(data):
    quick = event_input(data)
    if quick is not None:
        assert serializer_says(data) == quick


def test_each_field_at_its_edges_agrees_with_the_serializer():
    for field in FIELDS:
        for value in INTERESTING:
            data = {**BASE, field: value}
            quick = event_input(data)
            if quick is not None:
                assert serializer_says(data) == quick, data
        without = {k: v for k, v in BASE.items() if k != field}
        if event_input(without) is not None:
            assert serializer_says(without) == event_input(without)


@given(
    seq=st.integers(min_value=1, max_value=10**9),
    kind=st.sampled_from([None, "event", "undo"]),
    device=st.one_of(st.none(), st.text(alphabet="abcdef-0123456789", max_size=64)),
    payload=st.one_of(st.none(), st.dictionaries(st.text(max_size=8), st.integers(), max_size=3)),
)
def test_every_well_formed_shot_takes_the_quick_read(seq, kind, device, payload):
    data = {"event_id": str(uuid.uuid4()), "expected_seq": seq}
    for key, value in (("kind", kind), ("device_id", device), ("payload", payload)):
        if value is not None:
            data[key] = value
    quick = event_input(data)
    assert quick is not None
    assert quick == serializer_says(data)


def test_what_it_steps_aside_for():
    good = {"event_id": VALID_ID, "expected_seq": 3, "payload": {"type": "shot"}}
    assert event_input(good) == {
        "event_id": uuid.UUID(VALID_ID),
        "expected_seq": 3,
        "kind": "event",
        "payload": {"type": "shot"},
        "device_id": "",
    }
    for change in (
        {"expected_seq": "3"},  # the serializer accepts it: let it
        {"expected_seq": 0},
        {"expected_seq": True},
        {"event_id": 12},
        {"event_id": "not-a-uuid"},
        {"kind": "redo"},
        {"kind": ["event"]},
        {"payload": [1]},
        {"payload": None},
        {"device_id": " padded "},
        {"device_id": "x" * 65},
        {"device_id": None},
    ):
        assert event_input({**good, **change}) is None, change
    assert event_input([good]) is None
