"""A hypothesis state machine over random sequences of calls to the events API (through
the Django test client): new events (possible or not), retries, stale and early sequence
numbers, reused ids, undos and confirmation. After every step the frame's stored state
must equal the rules engine's replay of the accepted log, and no answer is ever a 5xx."""

from __future__ import annotations

import json
import os
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from frames import engine
from frames.models import Frame, FrameEvent
from frames.pad import events
from rules import RuleError, Timeline, registry
from tests.frames.pad_helpers import make_frame, make_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

BB = registry.get("bar_billiards_4pin")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# 40 runs of 30 steps take ~30 s on the 2-core box; CI does more, PAD_MACHINE_EXAMPLES overrides.
EXAMPLES = int(os.environ.get("PAD_MACHINE_EXAMPLES", "100" if IN_CI else "40"))

pots = st.lists(
    st.fixed_dictionaries(
        {
            "ball": st.sampled_from(["white", "white", "red"]),
            "hole": st.sampled_from([10, 20, 30, 50, 100, 200]),
        }
    ),
    max_size=3,
)
shots = st.fixed_dictionaries(
    {"type": st.just("shot")},
    optional={
        "pots": pots,
        "fouls": st.lists(
            st.sampled_from(["miss", "pin_50", "pin_200", "red_not_played"]), max_size=2
        ),
        "cushion": st.booleans(),
    },
)
game_events = st.one_of(
    shots, shots, shots, st.just({"type": "bar_down"}), st.just({"type": "invoke_endgame"})
)
impossible = st.sampled_from(
    [
        {"type": "shot", "pots": [{"ball": "white", "hole": 10}] * 8},  # more whites than exist
        {"type": "pot"},  # no such event
        {"type": "shot", "fouls": ["pin_300"]},  # no such foul
        {"type": "shot", "pots": [{"ball": "white", "hole": 40}]},  # no such hole
    ]
)


class PadAPI(RuleBasedStateMachine):
    """The model: a Timeline of the accepted game events, and the log of stored entries."""

    match = None
    client: Client | None = None
    numbers = iter(range(1, 30000))

    def __init__(self) -> None:
        super().__init__()
        self.frame = make_frame(type(self).match, number=next(type(self).numbers))
        self.timeline = Timeline(BB, engine.frame_setup(self.frame))
        self.log: list[dict] = []  # stored entries: event_id, seq, kind, payload
        self.confirmed = False
        self.url = reverse("api-frame-events", args=[self.frame.pk])

    # ------------------------------------------------------------------ helpers
    def post(self, *, event_id, seq, kind="event", payload=None):
        response = self.client.post(
            self.url,
            data=json.dumps(
                {
                    "event_id": event_id,
                    "expected_seq": seq,
                    "kind": kind,
                    "payload": payload if payload is not None else {},
                }
            ),
            content_type="application/json",
        )
        assert response.status_code < 500, response.content
        return response.status_code, response.json()

    def next_seq(self) -> int:
        return len(self.log) + 1

    def store(self, event_id, kind, payload, answer):
        assert answer["seq"] == self.next_seq() and answer["replayed"] is False
        self.log.append(
            {"event_id": event_id, "seq": answer["seq"], "kind": kind, "payload": payload}
        )

    # -------------------------------------------------------------------- rules
    @rule(event=game_events)
    def new_event(self, event):
        event_id = str(uuid.uuid4())
        status, answer = self.post(event_id=event_id, seq=self.next_seq(), payload=event)
        if self.confirmed:
            assert (status, answer["error"]) == (400, "frame_complete")
            return
        refused = None
        try:
            self.timeline.push(event)
        except RuleError as err:
            refused = err.code
        if refused is not None:
            assert status == 400 and answer["error"] == refused, answer
            return
        assert status == 201, answer
        assert answer["view"] == self.timeline.view()
        self.store(event_id, "event", event, answer)

    @rule(event=impossible)
    def impossible_event(self, event):
        status, answer = self.post(event_id=str(uuid.uuid4()), seq=self.next_seq(), payload=event)
        assert status == 400, answer

    @rule()
    def undo(self):
        event_id = str(uuid.uuid4())
        status, answer = self.post(event_id=event_id, seq=self.next_seq(), kind="undo")
        if self.confirmed:
            assert (status, answer["error"]) == (400, "frame_complete")
        elif len(self.timeline) == 0:
            assert (status, answer["error"]) == (400, "nothing_to_undo")
        else:
            self.timeline.undo()
            assert status == 201 and answer["view"] == self.timeline.view()
            self.store(event_id, "undo", {}, answer)

    @precondition(lambda self: self.log)
    @rule(data=st.data())
    def retry(self, data):
        entry = data.draw(st.sampled_from(self.log))
        status, answer = self.post(
            event_id=entry["event_id"],
            seq=entry["seq"],
            kind=entry["kind"],
            payload=entry["payload"],
        )
        assert status == 200 and answer["replayed"] is True and answer["seq"] == entry["seq"]

    @precondition(lambda self: self.log)
    @rule(data=st.data())
    def retry_with_the_next_seq(self, data):
        entry = data.draw(st.sampled_from(self.log))
        status, answer = self.post(
            event_id=entry["event_id"],
            seq=self.next_seq(),
            kind=entry["kind"],
            payload=entry["payload"],
        )
        assert status == 200 and answer["seq"] == entry["seq"]

    @precondition(lambda self: self.log)
    @rule(data=st.data(), event=shots)
    def stale_seq(self, data, event):
        seq = data.draw(st.integers(1, len(self.log)))
        status, answer = self.post(event_id=str(uuid.uuid4()), seq=seq, payload=event)
        assert status == 409 and answer["last_seq"] == len(self.log)
        assert [e["seq"] for e in answer["events"]] == list(range(seq, len(self.log) + 1))
        assert [e["event_id"] for e in answer["events"]] == [
            e["event_id"] for e in self.log[seq - 1 :]
        ]

    @rule(ahead=st.integers(2, 5), event=shots)
    def early_seq(self, ahead, event):
        status, answer = self.post(
            event_id=str(uuid.uuid4()), seq=len(self.log) + ahead, payload=event
        )
        assert status == 409 and answer["events"] == []

    @precondition(lambda self: self.log)
    @rule(data=st.data(), event=game_events, seq_offset=st.integers(0, 1))
    def reused_id(self, data, event, seq_offset):
        entry = data.draw(st.sampled_from(self.log))
        if entry["kind"] == "event" and entry["payload"] == event:
            event = {**event, "fouls": ["double_hit"]}
        seq = entry["seq"] if seq_offset == 0 else self.next_seq()
        status, answer = self.post(event_id=entry["event_id"], seq=seq, payload=event)
        assert status == 422 and answer["error"] == "event_id_reused", answer

    @precondition(lambda self: self.timeline.view()["over"] and not self.confirmed)
    @rule()
    def confirm(self):
        response = self.client.post(
            reverse("api-frame-confirm", args=[self.frame.pk]),
            data={"seq": len(self.log)},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        self.confirmed = True

    # --------------------------------------------------------------- invariant
    @invariant()
    def stored_state_is_the_replay(self):
        frame = Frame.objects.get(pk=self.frame.pk)
        assert frame.last_seq == len(self.log)
        assert FrameEvent.objects.filter(frame=frame).count() == len(self.log)
        if self.log:
            assert frame.state == BB.dump(self.timeline.state)
            assert frame.view == self.timeline.view()
        assert frame.status == (
            Frame.Status.COMPLETE
            if self.confirmed
            else Frame.Status.IN_PLAY
            if self.log
            else Frame.Status.SCHEDULED
        )

    def teardown(self):
        if self.log:
            assert events.frame_rebuild(frame_id=self.frame.pk).ok


def test_events_api_state_machine(league):
    PadAPI.match = make_match(league)
    PadAPI.client = Client()
    PadAPI.client.force_login(
        league.captain,  # a captain of the away team may score
        backend="django.contrib.auth.backends.ModelBackend",
    )
    run_state_machine_as_test(
        PadAPI,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            database=None,
        ),
    )
