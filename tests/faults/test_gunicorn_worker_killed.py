"""A gunicorn worker dies (SIGKILL) after it stored a shot and before it answered: the
phone sees the connection drop, sends the same event again, and gets the stored answer
(200, replayed, the same sequence number), with one row in the database; gunicorn has
replaced the worker, and the frame goes on from there."""

from __future__ import annotations

import http.client
import json
import uuid
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client

from frames.models import Frame, FrameEvent
from tests.faults.harness import current_database_url, server_env, start_gunicorn, stop
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    # One at a time (under xdist, all on one worker): each starts servers of its own.
    pytest.mark.xdist_group("faults"),
    pytest.mark.django_db(transaction=True),
]


class Phone:
    def __init__(self, base: str, user) -> None:
        parts = urlsplit(base)
        self.host, self.port, self.origin = parts.hostname, parts.port, base
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        status, body = self.send("GET", "/api/pad/session/")
        assert status == 200 and body["authenticated"]
        self.token = body["csrf_token"]

    def send(self, method: str, path: str, data=None, headers=None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(
                method,
                path,
                body=None if data is None else json.dumps(data),
                headers={
                    "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                    "Content-Type": "application/json",
                    "X-CSRFToken": getattr(self, "token", ""),
                    "Origin": self.origin,
                    **(headers or {}),
                },
            )
            response = conn.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
        finally:
            conn.close()


def test_worker_killed_after_commit_the_retry_gets_the_stored_answer(league):
    frame = make_frame(make_match(league), referee=referee_player(league))
    env = server_env(
        current_database_url(),
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="2",
        SECRET_KEY=settings.SECRET_KEY,  # the session was signed by this process
    )
    server, base = start_gunicorn(env, "tests/faults/gunicorn_die_after_commit.py")
    try:
        phone = Phone(base, league.player_user)
        path = f"/api/frames/{frame.pk}/events/"
        first = {
            "event_id": str(uuid.uuid4()),
            "expected_seq": 1,
            "payload": {"type": "shot", "pots": [{"ball": "red", "hole": 100}]},
        }
        with pytest.raises((http.client.HTTPException, ConnectionError)):
            phone.send("POST", path, first, {"X-Fault": "die-after-commit"})
        assert FrameEvent.objects.filter(event_id=first["event_id"]).count() == 1  # stored

        status, answer = phone.send("POST", path, first)  # the pad's retry, a new worker
        assert status == 200
        assert answer["replayed"] is True
        assert answer["seq"] == 1
        assert FrameEvent.objects.filter(frame=frame).count() == 1

        # The frame goes on from there: the next shot is 2, stored once.
        second = {**first, "event_id": str(uuid.uuid4()), "expected_seq": 2}
        status, answer = phone.send("POST", path, second)
        assert (status, answer["seq"], answer["replayed"]) == (201, 2, False)
        stored = Frame.objects.get(pk=frame.pk)
        assert stored.last_seq == 2
        assert list(
            FrameEvent.objects.filter(frame=frame)
            .order_by("seq")
            .values_list("event_id", flat=True)
        ) == [uuid.UUID(first["event_id"]), uuid.UUID(second["event_id"])]
    finally:
        stop(server)
