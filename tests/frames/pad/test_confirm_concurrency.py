"""A retry of a successful frame confirmation answers success (issue 11, item 7): twenty
identical confirmations sent at once, as a phone on a bad connection does, all answer
200 with the same body, and the frame is confirmed once (PostgreSQL, real transactions,
real threads, through the API)."""

from __future__ import annotations

import json
import threading
import uuid
from datetime import UTC, datetime

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from frames.engine import frame_setup
from frames.models import Frame, MatchLog
from frames.pad.events import frame_record_event
from rules import registry
from rules.simulate import simulate_game
from tests.conftest import make_league
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NOW = datetime(2026, 9, 1, 20, 0, tzinfo=UTC)
PARALLEL = 20


def frame_over(league) -> Frame:
    """A league frame played to its end on the pad, not yet confirmed."""
    frame = make_frame(make_match(league), referee=referee_player(league))
    events = simulate_game(registry.get(frame.game_id), frame_setup(frame), seed=3)
    for seq, payload in enumerate(events, start=1):
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=payload,
            kind="event",
            user=None,
            device_id="test",
            now=NOW,
        )
    frame.refresh_from_db()
    assert frame.view["over"] is True and frame.status == Frame.Status.IN_PLAY
    return frame


def test_twenty_identical_confirmations_at_once_all_succeed_with_one_result():
    league = make_league()
    frame = frame_over(league)
    url = reverse("api-frame-confirm", args=[frame.pk])
    body = json.dumps({"seq": frame.last_seq})
    clients = []
    for _ in range(PARALLEL):
        client = Client()
        client.force_login(league.player_user, backend="django.contrib.auth.backends.ModelBackend")
        clients.append(client)
    barrier = threading.Barrier(PARALLEL)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def confirm(client: Client) -> None:
        try:
            barrier.wait()
            response = client.post(url, body, content_type="application/json")
            with lock:
                answers.append((response.status_code, response.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert len(answers) == PARALLEL
    assert [status for status, _ in answers] == [200] * PARALLEL, answers
    bodies = {json.dumps(answer, sort_keys=True) for _, answer in answers}
    assert len(bodies) == 1, bodies
    (answer,) = [json.loads(b) for b in bodies]
    frame.refresh_from_db()
    assert answer["status"] == "complete" == frame.status
    assert (answer["home_score"], answer["away_score"]) == (frame.home_score, frame.away_score)
    assert MatchLog.objects.filter(match=frame.match, action="frame_confirmed").count() == 1


def test_a_confirmation_at_another_seq_after_the_frame_is_complete_is_still_refused():
    league = make_league()
    frame = frame_over(league)
    client = Client()
    client.force_login(league.player_user, backend="django.contrib.auth.backends.ModelBackend")
    url = reverse("api-frame-confirm", args=[frame.pk])
    first = client.post(url, {"seq": frame.last_seq}, content_type="application/json")
    assert first.status_code == 200
    again = client.post(url, {"seq": frame.last_seq}, content_type="application/json")
    assert again.status_code == 200 and again.json() == first.json()
    stale = client.post(url, {"seq": frame.last_seq - 1}, content_type="application/json")
    assert stale.status_code == 400 and stale.json()["error"] == "frame_complete"
