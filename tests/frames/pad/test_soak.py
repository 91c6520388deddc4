"""Through the real HTTP stack (live server, PostgreSQL): two devices interleave 500 events
on one frame over a flaky link — a quarter of the responses are lost (the device hangs up
before reading the answer and sends the same event id again later) and a tenth of the
requests are sent twice at once. Nothing may be lost or doubled, and the stored state must
equal a replay of the log. Then 20 simultaneous POSTs of one event id store one row."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.test import Client

from frames.models import Frame, FrameEvent
from frames.pad.events import frame_rebuild
from rules import Timeline, registry
from rules.simulate import plausible_event
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BB = registry.get("bar_billiards_4pin")
SETUP = {"sides": ["home", "away"]}


class Device:
    """A phone talking HTTP/1.1 to the live server: its own session and CSRF token."""

    def __init__(self, base_url: str, user) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        status, data = self.request("GET", "/api/pad/session/")
        assert status == 200 and data["authenticated"]
        self.cookies["csrftoken"] = data["csrf_token"]

    def request(self, method: str, path: str, data=None, *, hang_up: bool = False):
        """(status, JSON body), or None when the device hangs up without reading the answer
        (the request has been sent in full: the server may or may not commit it)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Content-Type": "application/json",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Referer": f"http://{self.host}:{self.port}/",
        }
        try:
            conn.request(
                method, path, body=None if data is None else json.dumps(data), headers=headers
            )
            if hang_up:
                return None
            response = conn.getresponse()
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
        finally:
            conn.close()


def planned_events(count: int, seed: int = 7) -> list[tuple[str, dict]]:
    """`count` entries (kind, payload) that the engine accepts in this order: plausible
    shots (rules.simulate: pots of balls really on the table, fouls now and then) and
    undos; the bar stays up, so the frame never ends."""
    rng = random.Random(seed)
    timeline = Timeline(BB, SETUP)
    plan: list[tuple[str, dict]] = []
    while len(plan) < count:
        if len(timeline) and rng.random() < 0.08:
            timeline.undo()
            plan.append(("undo", {}))
        else:
            event = plausible_event(rng, timeline.state)
            timeline.push(event)
            plan.append(("event", event))
    return plan


def replayed_view(plan):
    timeline = Timeline(BB, SETUP)
    for kind, payload in plan:
        if kind == "undo":
            timeline.undo()
        else:
            timeline.push(payload)
    return timeline


@pytest.fixture
def soak_frame(league):
    frame = make_frame(make_match(league), referee=referee_player(league), setup=SETUP)
    return frame


@pytest.mark.slow
def test_two_flaky_devices_interleave_500_events_nothing_lost_nothing_doubled(
    live_server, league, soak_frame
):
    plan = planned_events(500)
    ids = [str(uuid.uuid4()) for _ in plan]
    path = f"/api/frames/{soak_frame.pk}/events/"
    devices = [Device(live_server.url, league.player_user), Device(live_server.url, league.captain)]
    statuses: Counter = Counter()
    created: Counter = Counter()  # 201 answers per event id: must never exceed 1
    failures: list[str] = []
    lock = threading.Lock()

    def note(event_id, result):
        if result is None:
            return
        with lock:
            statuses[result[0]] += 1
            if result[0] == 201:
                created[event_id] += 1
            if result[0] >= 500 or result[0] in (400, 401, 403, 422):
                failures.append(f"{event_id}: {result}")

    def run(index: int) -> None:
        device, rng = devices[index], random.Random(100 + index)
        doubles = []
        for i in range(index, len(plan), 2):  # device 0: events 0, 2, 4...; device 1: 1, 3, 5...
            kind, payload = plan[i]
            data = {
                "event_id": ids[i],
                "expected_seq": i + 1,
                "kind": kind,
                "payload": payload,
                "device_id": f"device-{index}",
            }
            while True:
                if rng.random() < 0.10:  # the same request again, at the same time
                    twin = threading.Thread(
                        target=lambda d=data: note(d["event_id"], device.request("POST", path, d))
                    )
                    twin.start()
                    doubles.append(twin)
                if rng.random() < 0.25:  # the answer is lost on the way back
                    device.request("POST", path, data, hang_up=True)
                    with lock:
                        statuses["lost"] += 1
                    time.sleep(rng.random() * 0.01)
                    continue
                result = device.request("POST", path, data)
                note(ids[i], result)
                if result[0] in (200, 201):
                    break
                if result[0] != 409:  # 409: the other device's event is not in yet
                    return
                time.sleep(0.002)
        for twin in doubles:
            twin.join()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(2)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    elapsed = time.monotonic() - started

    assert not failures, failures[:5]
    rows = list(
        FrameEvent.objects.filter(frame=soak_frame)
        .order_by("seq")
        .values_list("seq", "event_id", "kind", "payload")
    )
    assert [r[0] for r in rows] == list(range(1, 501)), "gaps or missing events"
    assert [str(r[1]) for r in rows] == ids, "an event is missing, doubled or out of order"
    assert [(r[2], r[3]) for r in rows] == plan
    assert max(created.values()) == 1, "an event id was created twice"
    assert statuses["lost"] > 50 and statuses[200] > 0, statuses
    frame = Frame.objects.get(pk=soak_frame.pk)
    timeline = replayed_view(plan)
    assert frame.last_seq == 500
    assert frame.state == BB.dump(timeline.state)
    assert frame.view == timeline.view()
    assert frame_rebuild(frame_id=frame.pk).ok
    call_command("frames_check")
    print(f"\nsoak: {dict(statuses)} in {elapsed:.1f}s")


def test_twenty_simultaneous_posts_of_one_event_store_one_row(live_server, league, soak_frame):
    device = Device(live_server.url, league.player_user)
    path = f"/api/frames/{soak_frame.pk}/events/"
    data = {
        "event_id": str(uuid.uuid4()),
        "expected_seq": 1,
        "kind": "event",
        "payload": {"type": "shot", "pots": [{"ball": "red", "hole": 200}]},
    }
    barrier = threading.Barrier(20)
    results: list = []

    def fire():
        barrier.wait()
        results.append(device.request("POST", path, data))

    threads = [threading.Thread(target=fire) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    counts = Counter(status for status, _ in results)
    assert counts == {201: 1, 200: 19}, counts
    assert {body["seq"] for _, body in results} == {1}
    assert all(body["replayed"] for status, body in results if status == 200)
    assert FrameEvent.objects.filter(event_id=data["event_id"]).count() == 1
    assert Frame.objects.get(pk=soak_frame.pk).last_seq == 1
