"""A person's phones for Web Push: the API (subscribe, idempotent on the endpoint; list;
remove), its refusals, the choices page's push part, and the VAPID keys."""

from __future__ import annotations

import base64
import os
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from notifications import push, tasks, vapid
from notifications.models import Delivery, Notification, PushSubscription, Recipient
from notifications.services import To, notify
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
API = "/api/notifications/push/"
NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def phone(endpoint="https://fcm.googleapis.com/fcm/send/abc", **over):
    body = {
        "endpoint": endpoint,
        "keys": {"p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))},
        "user_agent": "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36",
    }
    body.update(over)
    return body


def api_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_get_gives_the_public_key_and_my_phones_only():
    me, other = UserFactory(), UserFactory()
    api_for(other).post(API, phone("https://push.example/theirs"), format="json")
    assert api_for(me).post(API, phone(), format="json").status_code == 201
    answer = api_for(me).get(API).json()
    assert answer["public_key"] == vapid.keys().public
    assert len(vapid.b64url_decode(answer["public_key"])) == 65
    assert [d["endpoint"] for d in answer["devices"]] == ["https://fcm.googleapis.com/fcm/send/abc"]
    assert answer["devices"][0]["name"] == "Chrome on Android"


def test_subscribing_again_updates_the_one_phone():
    me = UserFactory()
    first = api_for(me).post(API, phone(), format="json")
    again = phone()
    second = api_for(me).post(API, again, format="json")
    assert (first.status_code, second.status_code) == (201, 200)
    sub = PushSubscription.objects.get()
    assert sub.p256dh == again["keys"]["p256dh"]
    assert sub.recipient.user == me


def test_a_phone_of_another_person_moves_to_me_and_their_waiting_messages_drop(settings):
    them, me = UserFactory(email="them@example.com"), UserFactory()
    api_for(them).post(API, phone(), format="json")
    night = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)  # their quiet hours hold it
    notify(
        event="dispute",
        to=[To(user_id=them.pk)],
        key="d:1",
        title="t",
        body="b",
        url="/",
        now=night,
    )
    waiting = Delivery.objects.get(channel="push")
    assert api_for(me).post(API, phone(), format="json").status_code == 200
    sub = PushSubscription.objects.get()
    assert sub.recipient.user == me
    waiting.refresh_from_db()
    assert waiting.status == "dropped"  # their message never shows on my phone


def test_subscribing_turns_push_on():
    me = UserFactory()
    Recipient.objects.create(user=me, push_on=False, created_at=NOON)
    api_for(me).post(API, phone(), format="json")
    assert Recipient.objects.get(user=me).push_on


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"endpoint": "http://push.example/abc"}, "bad_endpoint", "endpoint"),
        ({"endpoint": "not a url"}, "bad_endpoint", "endpoint"),
        ({"endpoint": "javascript:alert(1)"}, "bad_endpoint", "endpoint"),
        ({"keys": {"p256dh": "short", "auth": b64(os.urandom(16))}}, "bad_key", "keys.p256dh"),
        (
            {"keys": {"p256dh": b64(b"\x04" + os.urandom(64)), "auth": "a+b/c=="}},
            "bad_key",
            "keys.auth",
        ),
        (
            {"keys": {"p256dh": b64(b"\x02" + os.urandom(64)), "auth": b64(os.urandom(16))}},
            "bad_key",
            "keys.p256dh",
        ),
        ({"keys": {"p256dh": b64(b"\x04" + os.urandom(64))}}, "invalid", None),
        ({"endpoint": ""}, "invalid", None),
    ],
)
def test_bad_subscriptions_are_refused_clearly(change, code, field):
    answer = api_for(UserFactory()).post(API, phone(**change), format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == code and body["message"]
    assert body.get("field") == field
    assert not PushSubscription.objects.exists()


def test_http_to_localhost_only_where_allowed(settings):
    me = UserFactory()
    settings.PUSH_ALLOW_LOCAL_HTTP = False
    assert api_for(me).post(API, phone("http://127.0.0.1:9/push"), format="json").status_code == 400
    settings.PUSH_ALLOW_LOCAL_HTTP = True
    assert api_for(me).post(API, phone("http://127.0.0.1:9/push"), format="json").status_code == 201


def test_without_keys_push_is_off_and_says_so(settings, client):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.DEBUG = False
    me = UserFactory()
    answer = api_for(me).post(API, phone(), format="json")
    assert answer.status_code == 409 and answer.json()["error"] == "push_off"
    assert api_for(me).get(API).json()["public_key"] is None
    client.force_login(me)
    page = client.get(reverse("notifications-choices")).content.decode()
    assert "Push messages are not set up on this server" in page
    assert "data-push-key" not in page


def test_delete_removes_my_phone_and_refuses_another_persons():
    me, other = UserFactory(), UserFactory()
    api_for(me).post(API, phone(), format="json")
    answer = api_for(other).delete(API, {"endpoint": phone()["endpoint"]}, format="json")
    assert answer.status_code == 404 and answer.json()["error"] == "no_subscription"
    assert PushSubscription.objects.exists()
    assert (
        api_for(me).delete(API, {"endpoint": phone()["endpoint"]}, format="json").status_code == 204
    )
    assert not PushSubscription.objects.exists()


def test_the_api_needs_a_login():
    for method in ("get", "post", "delete"):
        answer = getattr(APIClient(), method)(API, phone(), format="json")
        assert answer.status_code == 403
        assert answer.json()["error"]


def test_the_api_checks_csrf_for_a_session():
    me = UserFactory()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(me)
    assert client.post(API, phone(), format="json").status_code == 403
    assert not PushSubscription.objects.exists()


def test_choices_page_lists_my_phones_with_remove(client, django_assert_num_queries):
    me, other = UserFactory(), UserFactory()
    for n in range(3):
        api_for(me).post(API, phone(f"https://push.example/{n}"), format="json")
    api_for(other).post(API, phone("https://push.example/theirs"), format="json")
    client.force_login(me)
    # with the choices page's leagues and recent messages, and the site's notices (the
    # recipient read with its login)
    with django_assert_num_queries(10):
        page = client.get(reverse("notifications-choices")).content.decode()
    assert page.count('aria-label="Remove Chrome on Android"') == 3
    assert "Turn on push on this phone" in page
    assert 'data-push-key="' + vapid.keys().public in page
    assert "notifications/push.js" in page
    theirs = PushSubscription.objects.get(endpoint="https://push.example/theirs")
    assert client.post(reverse("notifications-push-remove", args=[theirs.pk])).status_code == 404
    mine = PushSubscription.objects.filter(recipient__user=me).first()
    answer = client.post(reverse("notifications-push-remove", args=[mine.pk]))
    assert answer.status_code == 302
    assert PushSubscription.objects.filter(recipient__user=me).count() == 2
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()


def test_the_page_from_an_emailed_link_asks_for_a_login_for_push(client):
    r = Recipient.objects.create(email="ann@example.com", created_at=NOON)
    page = client.get(reverse("notifications-choices-token", args=[r.token])).content.decode()
    assert "Log in</a> on your phone to turn on push" in page
    assert "data-push-api" not in page


def test_vapid_keys_command_prints_a_working_pair(capsys, settings):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    settings.VAPID_PRIVATE_KEY = lines["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = lines["VAPID_PUBLIC_KEY"]
    assert vapid.keys().public == lines["VAPID_PUBLIC_KEY"]
    settings.VAPID_PUBLIC_KEY = vapid.new_keys().public
    with pytest.raises(ValueError, match="does not belong"):
        vapid.keys()


def test_debug_without_keys_makes_one_pair_into_a_file(settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.DEBUG = True
    settings.VAPID_DEV_KEY_FILE = str(tmp_path / ".vapid.pem")
    first = vapid.keys()
    assert (tmp_path / ".vapid.pem").read_text().startswith("-----BEGIN PRIVATE KEY")
    assert vapid.keys() == first  # kept, not made again
    settings.DEBUG = False
    assert vapid.keys() is None


def test_push_is_queued_only_with_keys(settings):
    me = UserFactory()
    api_for(me).post(API, phone(), format="json")
    r = Recipient.objects.get(user=me)
    r.quiet_start = r.quiet_end = None
    r.save()
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    notify(event="dispute", to=[To(user_id=me.pk)], key="d:1", title="t", body="b", url="/")
    assert not Delivery.objects.filter(channel="push").exists()
    assert Notification.objects.count() == 1


def test_device_label_doctest():
    assert (
        push.device_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Safari/604.1")
        == "Safari on iPhone"
    )


def test_a_push_is_sent_once_however_often_the_tasks_run(monkeypatch):
    me = UserFactory()
    api_for(me).post(API, phone(), format="json")
    api_for(me).post(API, phone("https://push.example/tablet"), format="json")
    r = Recipient.objects.get(user=me)
    r.quiet_start = r.quiet_end = None
    r.save()
    notify(event="dispute", to=[To(user_id=me.pk)], key="d:1", title="t", body="b", url="/m/1/")
    sent = []
    monkeypatch.setattr("pywebpush.webpush", lambda **kw: sent.append(kw["subscription_info"]))
    ids = list(Notification.objects.values_list("id", flat=True))
    assert tasks.deliver(ids) == 3  # the email and both phones
    assert tasks.deliver(ids) == 0
    assert tasks.sweep() == 0
    assert sorted(s["endpoint"] for s in sent) == [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://push.example/tablet",
    ]
    signed_with = sent and PushSubscription.objects.get(endpoint=sent[0]["endpoint"])
    assert signed_with.p256dh == sent[0]["keys"]["p256dh"]
