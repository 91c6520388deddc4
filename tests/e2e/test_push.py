"""Web Push end to end in Chromium (phone-sized): a player turns push on from the
choices page, a match result is confirmed through the real service, and the message
reaches the service worker, which shows it.

No real push service is reachable here, so a stub stands in for it: a small HTTP server
in the test. An init script makes the page's `pushManager.subscribe()` answer a
subscription whose endpoint is the stub and whose keys are a P-256 pair and auth secret
the test made; the page posts it through the real UI. pywebpush signs (VAPID, ES256 JWT)
and encrypts (RFC 8291, aes128gcm) the message to the stub, which checks the JWT against
the server's public key and decrypts the body with the test's private key. The decrypted
payload goes to the service worker through the Chrome DevTools Protocol
(`ServiceWorker.deliverPushMessage`), and the page reads back what it showed
(`registration.getNotifications()`).

Then: quiet hours covering now hold the message (nothing reaches the stub) until the
sweep runs after they end; a daily digest sends no push, and its email holds the result.
"""

from __future__ import annotations

import json
import os
import re
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core import mail

from frames.matchnight import signoff
from notifications import delivery, tasks
from notifications.models import Delivery, PushSubscription, Recipient
from notifications.vapid import b64url, b64url_decode, new_keys
from tests.frames.matchnight_helpers import drawn, key_all

pytestmark = pytest.mark.django_db(transaction=True)
DAY = datetime(2026, 9, 2, 12, 0, tzinfo=UTC)
SERVER_KEYS = new_keys()


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


class PushStub:
    """A push service on 127.0.0.1: checks each request's VAPID signature and decrypts
    its body, as a browser's push service and the browser itself would."""

    def __init__(self, vapid_public: str):
        self.vapid_public = vapid_public
        self.browser_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.received: list[dict] = []
        self.problems: list[str] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    stub.received.append(stub.check(self.path, self.headers, body))
                    self.send_response(201)
                except Exception as exc:  # the test asserts on problems
                    stub.problems.append(repr(exc))
                    self.send_response(400)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.endpoint = f"{self.origin}/push/phone-1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self) -> dict:
        point = self.browser_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def check(self, path: str, headers, body: bytes) -> dict:
        assert path == "/push/phone-1"
        assert headers.get("Content-Encoding") == "aes128gcm"
        assert int(headers["TTL"]) > 0
        found = re.fullmatch(r"vapid t=([^,\s]+),\s*k=([^,\s]+)", headers["Authorization"])
        assert found, headers["Authorization"]
        token, key = found.groups()
        assert key == self.vapid_public, "signed with another key"
        signed, signature = token.rsplit(".", 1)
        raw = b64url_decode(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
        try:
            public.verify(
                encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
                signed.encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            raise AssertionError("the VAPID JWT's signature does not verify") from None
        claims = json.loads(b64url_decode(signed.split(".")[1]))
        assert claims["aud"] == self.origin
        assert claims["exp"] > datetime.now(UTC).timestamp()
        assert claims["sub"].startswith("mailto:")
        plain = http_ece.decrypt(
            body, private_key=self.browser_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub(settings):
    settings.VAPID_PRIVATE_KEY = SERVER_KEYS.private
    settings.VAPID_PUBLIC_KEY = SERVER_KEYS.public
    found = PushStub(SERVER_KEYS.public)
    yield found
    found.close()


FAKE_PUSH = """
(() => {
  if (typeof PushManager === "undefined" || typeof localStorage === "undefined") return;
  const FAKE = %s;
  const make = () => ({
    endpoint: FAKE.endpoint, expirationTime: null, options: { userVisibleOnly: true },
    toJSON() { return { endpoint: FAKE.endpoint, expirationTime: null, keys: FAKE.keys }; },
    unsubscribe() { localStorage.removeItem("fake-push"); return Promise.resolve(true); },
  });
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    localStorage.setItem("fake-push", JSON.stringify({
      userVisibleOnly: options.userVisibleOnly,
      key: btoa(String.fromCharCode(...key)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, ""),
    }));
    return Promise.resolve(make());
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem("fake-push") ? make() : null);
  };
})();
"""


def turn_push_on(phone, user, stub):
    """The player opens their choices on the phone and taps "Turn on push"."""
    context = phone(user, permissions=["notifications"])
    context.add_init_script(FAKE_PUSH % json.dumps(stub.subscription()))
    page = context.new_page()
    page.goto("/notifications/")
    status = page.locator("[data-push-status]")
    page.get_by_text("Push is off for this phone.").wait_for()
    assert not page.get_by_role("button", name="Turn off").is_visible()
    shot(page, "push-off.png")
    page.get_by_role("button", name="Turn on push on this phone").tap()
    page.get_by_text("Push is on for this phone.").wait_for()
    assert status.inner_text() == "Push is on for this phone."
    asked = json.loads(page.evaluate("localStorage.getItem('fake-push')"))
    assert asked == {"userVisibleOnly": True, "key": SERVER_KEYS.public}
    assert page.get_by_role("button", name="Turn off").is_visible()
    assert not page.get_by_role("button", name="Turn on push on this phone").is_visible()
    assert page.locator("ul.push-devices li").count() == 1
    shot(page, "push-on.png")
    sub = PushSubscription.objects.get()
    assert (sub.endpoint, sub.recipient.user_id) == (stub.endpoint, user.pk)
    return page


def confirmed(league, now=None):
    """Both captains confirm the paper result (home wins): it counts."""
    match = key_all(league, drawn(league), now=DAY)
    signoff.match_confirm(match=match, side="home", actor=league.captain, now=now)
    signoff.match_confirm(match=match, side="away", actor=league.other_captain, now=now)
    return match


def shown(page) -> list[dict]:
    return page.evaluate(
        """() => navigator.serviceWorker.ready
             .then(reg => reg.getNotifications())
             .then(list => list.map(n => ({title: n.title, body: n.body, tag: n.tag,
                                           url: n.data && n.data.url})))"""
    )


def test_a_confirmed_result_reaches_the_service_worker(phone, league, stub, live_server):
    page = turn_push_on(phone, league.player_user, stub)
    match = confirmed(league, now=DAY)
    assert not stub.problems, stub.problems
    assert len(stub.received) == 1, Delivery.objects.values("channel", "status", "last_error")
    payload = stub.received[0]
    assert payload["title"].startswith("Result: Premier Team 1 ")
    assert payload["url"].endswith(f"/matches/{match.pk}/")
    assert payload["tag"] == f"match_result:result:{match.pk}"
    assert Delivery.objects.get(channel="push").status == "sent"

    # The push service hands the message to the browser's service worker.
    cdp = page.context.new_cdp_session(page)
    registrations: dict[str, str] = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.update(
            {
                r["scopeURL"]: r["registrationId"]
                for r in event["registrations"]
                if not r["isDeleted"]
            }
        ),
    )
    cdp.send("ServiceWorker.enable")
    scope = live_server.url + "/"
    for _ in range(50):
        if scope in registrations:
            break
        page.wait_for_timeout(100)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registrations[scope],
            "data": json.dumps(payload),
        },
    )
    for _ in range(50):
        notes = shown(page)
        if notes:
            break
        page.wait_for_timeout(100)
    assert notes == [
        {
            "title": payload["title"],
            "body": payload["body"],
            "tag": payload["tag"],
            "url": payload["url"],
        }
    ]


def _quiet_around(recipient: Recipient, now: datetime) -> datetime:
    """Quiet hours from an hour ago to an hour from now (UTC); when they end."""
    recipient.time_zone = "UTC"
    recipient.quiet_start = (now - timedelta(hours=1)).time().replace(second=0, microsecond=0)
    end = (now + timedelta(hours=1)).replace(second=0, microsecond=0)
    recipient.quiet_end = end.time()
    recipient.save(update_fields=["time_zone", "quiet_start", "quiet_end"])
    return end


def test_quiet_hours_hold_the_push_until_they_end(phone, league, stub):
    turn_push_on(phone, league.player_user, stub)
    now = datetime.now(UTC)
    end = _quiet_around(Recipient.objects.get(user=league.player_user), now)
    confirmed(league)  # the service's clock: now, inside the quiet hours
    assert stub.received == [] and not stub.problems
    assert tasks.sweep() == 0
    assert tasks.sweep(now=(end - timedelta(minutes=1)).isoformat()) == 0
    assert stub.received == []
    assert tasks.sweep(now=(end + timedelta(minutes=1)).isoformat()) >= 1
    assert not stub.problems, stub.problems
    assert [p["title"][:8] for p in stub.received] == ["Result: "]
    tasks.sweep(now=(end + timedelta(minutes=2)).isoformat())  # a retry: nothing again
    assert len(stub.received) == 1


def test_a_daily_digest_holds_the_result_instead_of_a_push(phone, league, stub):
    turn_push_on(phone, league.player_user, stub)
    recipient = Recipient.objects.get(user=league.player_user)
    recipient.cadence = "daily"
    recipient.save(update_fields=["cadence"])
    match = confirmed(league, now=DAY)
    assert stub.received == [] and not stub.problems
    assert not Delivery.objects.filter(channel="push").exists()
    morning = datetime(2026, 9, 3, 8, 1, tzinfo=UTC)
    assert delivery.send_digest(recipient.pk, now=morning) == 1
    assert delivery.send_digest(recipient.pk, now=morning) == 0  # a retry sends nothing
    [digest] = [m for m in mail.outbox if m.to == [league.player_user.email]]
    assert "your day (1 message)" in digest.subject
    assert "Result: Premier Team 1 " in digest.body
    assert f"/matches/{match.pk}/" in digest.body
    assert stub.received == []


IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def test_an_iphone_is_told_to_add_marker_to_the_home_screen_first(phone, league, stub):
    # Safari outside a home-screen app has no PushManager.
    context = phone(league.player_user, user_agent=IPHONE_SAFARI)
    context.add_init_script("delete window.PushManager;")
    page = context.new_page()
    page.goto("/notifications/")
    hint = page.locator("[data-push-ios]")
    hint.wait_for()
    assert "Add to Home Screen" in hint.inner_text()
    assert "home screen" in page.locator("[data-push-status]").inner_text()
    assert not page.get_by_role("button", name="Turn on push on this phone").is_visible()
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    assert page.request.get(manifest).json()["display"] == "standalone"
    shot(page, "push-iphone.png")
