"""`frames_check` (frame_rebuild) finds nothing wrong with a frame the pad wrote, in every
family: the engine's answer is compared as it is stored (JSON), so a tuple in a state is not
a difference."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from frames.friendly.services import friendly_start
from frames.models import Frame
from frames.pad import events
from rules.simulate import simulate_game
from tests.factories import UserFactory

GAMES = [
    "bar_billiards_4pin",
    "northern_bagatelle",
    "english_bagatelle",
    "mississippi",
    "three_cushion_carom",
    "english_billiards",
    "rotation_pool",
    "golf_pool",
    "klondike",
]


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", GAMES)
def test_a_frame_written_by_the_pad_rebuilds_clean(game_id):
    owner = UserFactory(username="referee")
    frame = Frame.objects.get(
        friendly=friendly_start(owner=owner, game_id=game_id, players=["A", "B"])
    )
    clock = datetime(2026, 11, 2, 19, 30, tzinfo=UTC)
    shots = simulate_game(game_id, frame.setup, seed=3)
    for seq, payload in enumerate(shots, start=1):
        events.frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=payload,
            kind="event",
            user=owner,
            device_id="pad",
            now=clock + timedelta(seconds=20 * seq),
        )
    report = events.frame_rebuild(frame_id=frame.pk)
    assert report.events == len(shots) > 5
    assert report.problems == []
