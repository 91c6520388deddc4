"""The outbox: a message once per person and subject, held through quiet hours, gathered
into digests, sent once however often the tasks run, and turned off in one tap."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime, time, timedelta
from types import SimpleNamespace

import pytest
from django.core import mail
from django.urls import reverse

from notifications import delivery, services, tasks
from notifications.events import Event
from notifications.models import Choice, Delivery, Notification, PushSubscription, Recipient
from notifications.services import To, notify
from tests.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db
NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)  # a Friday; London is on UTC in November
NIGHT = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


def _tell(to, *, event=Event.RESULT_TO_CONFIRM, key="match:1", now=NOON, league_id=None):
    return notify(
        event=event,
        to=to,
        key=key,
        title="Confirm the result: Kings Head 5-4 Red Lion",
        body="The away captain asks you to confirm.",
        url="/matches/1/",
        league_id=league_id,
        now=now,
    )


def _quiet(address="ann@example.com", **fields):
    r = services.recipient_for(To(email=address), now=NOON)
    for k, v in fields.items():
        setattr(r, k, v)
    r.save()
    return r


def test_a_message_is_sent_once_per_person_and_subject(django_capture_on_commit_callbacks):
    user = UserFactory(email="cap@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        assert _tell([To(user_id=user.pk, email="other@example.com"), To(user_id=user.pk)]) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert _tell([To(user_id=user.pk)]) == 0  # the same subject again: nothing new
    assert [m.to for m in mail.outbox] == [["cap@example.com"]]
    assert Notification.objects.count() == 1


def test_a_retried_delivery_sends_once():
    _tell([To(email="ann@example.com")])
    ids = list(Notification.objects.values_list("id", flat=True))
    assert tasks.deliver(ids) == 1
    assert tasks.deliver(ids) == 0  # the retry finds it sent
    assert tasks.sweep() == 0
    assert len(mail.outbox) == 1


def test_nobody_to_tell_is_skipped():
    assert _tell([To(), To(email="not-an-address")]) == 0
    assert not Recipient.objects.exists()


def test_unknown_event_is_refused():
    from marker.errors import DomainError

    with pytest.raises(DomainError) as refused:
        _tell([To(email="ann@example.com")], event="gossip")
    assert refused.value.code == "unknown_event"


def test_email_has_one_click_unsubscribe_headers():
    _tell([To(email="ann@example.com")])
    tasks.deliver(list(Notification.objects.values_list("id", flat=True)))
    message = mail.outbox[0]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in message.body
    assert "/notifications/unsubscribe/" in link


def test_one_click_unsubscribe_turns_that_event_off(client):
    league = LeagueFactory()
    _tell([To(email="ann@example.com")], league_id=league.pk)
    recipient = Recipient.objects.get()
    path = reverse(
        "notifications-unsubscribe",
        args=[delivery.unsubscribe_token(recipient, Event.RESULT_TO_CONFIRM, league.pk)],
    )
    # A link checker's GET changes nothing.
    assert client.get(path).status_code == 200
    assert not Choice.objects.exists()
    # The mail client's RFC 8058 POST, without cookies or CSRF token.
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert not services.wants(recipient, Event.RESULT_TO_CONFIRM, league.pk)
    assert services.wants(recipient, Event.RESULT_TO_CONFIRM, None)  # other leagues still
    assert services.wants(recipient, Event.DISPUTE, league.pk)
    assert _tell([To(email="ann@example.com")], key="match:2", league_id=league.pk) == 0


def test_a_tampered_unsubscribe_link_changes_nothing(client):
    _tell([To(email="ann@example.com")])
    recipient = Recipient.objects.get()
    token = delivery.unsubscribe_token(recipient, Event.DISPUTE)
    response = client.post(reverse("notifications-unsubscribe", args=[token[:-2] + "xx"]))
    assert response.status_code == 400
    assert not Choice.objects.exists()


def test_the_most_specific_choice_wins():
    league, other = LeagueFactory(), LeagueFactory()
    r = _quiet()
    services.choice_set(recipient=r, enabled=False)  # everything off…
    services.choice_set(recipient=r, enabled=True, event=Event.DISPUTE)  # …but disputes
    services.choice_set(recipient=r, enabled=True, league_id=league.pk)  # …and this league
    services.choice_set(recipient=r, enabled=False, event=Event.NO_CARD, league_id=league.pk)
    assert services.wants(r, Event.DISPUTE, other.pk)
    assert not services.wants(r, Event.CUP_DRAW, other.pk)
    assert services.wants(r, Event.CUP_DRAW, league.pk)
    assert not services.wants(r, Event.NO_CARD, league.pk)


def test_defaults_are_quiet_about_commentary():
    r = _quiet()
    assert services.wants(r, Event.RESULT_TO_CONFIRM, None)
    assert services.wants(r, Event.FIXTURE_TOMORROW, None)
    assert not services.wants(r, Event.FRAME_STARTED, None)
    assert not services.wants(r, Event.RATING_MOVED, None)


def test_quiet_hours_hold_a_message_until_morning():
    _quiet()
    _tell([To(email="ann@example.com")], now=NIGHT)
    d = Delivery.objects.get()
    assert d.due_at == datetime(2026, 11, 28, 8, 0, tzinfo=UTC)
    assert delivery.deliver_one(d.pk, now=NIGHT + timedelta(minutes=5)) == "not due"
    assert mail.outbox == []
    assert delivery.deliver_one(d.pk, now=d.due_at) == "sent"
    assert len(mail.outbox) == 1


def test_no_quiet_hours_sends_at_night():
    _quiet(quiet_start=None, quiet_end=None)
    _tell([To(email="ann@example.com")], now=NIGHT)
    assert Delivery.objects.get().due_at == NIGHT


def test_a_daily_digest_gathers_messages_into_one_email():
    _quiet(cadence="daily")
    for n in range(3):
        _tell([To(email="ann@example.com")], key=f"match:{n}", now=NOON + timedelta(hours=n))
    entries = Delivery.objects.all()
    assert {d.channel for d in entries} == {"digest"}
    assert {d.due_at for d in entries} == {datetime(2026, 11, 28, 8, 0, tzinfo=UTC)}
    morning = datetime(2026, 11, 28, 8, 1, tzinfo=UTC)
    r = Recipient.objects.get()
    assert delivery.send_digest(r.pk, now=NOON) == 0  # not yet
    assert delivery.send_digest(r.pk, now=morning) == 3
    assert delivery.send_digest(r.pk, now=morning) == 0  # a retry sends nothing
    assert len(mail.outbox) == 1
    assert "your day (3 messages)" in mail.outbox[0].subject
    assert mail.outbox[0].body.count("Confirm the result") == 3


def test_a_weekly_digest_goes_on_monday():
    _quiet(cadence="weekly")
    _tell([To(email="ann@example.com")])
    assert Delivery.objects.get().due_at == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_smtp_trouble_backs_off_then_sends_once(monkeypatch):
    _quiet(quiet_start=None, quiet_end=None)
    _tell([To(email="ann@example.com")])
    d = Delivery.objects.get()

    def refuse(self, fail_silently=False):
        raise smtplib.SMTPServerDisconnected("try later")

    with monkeypatch.context() as m:
        m.setattr("django.core.mail.EmailMessage.send", refuse)
        assert delivery.deliver_one(d.pk, now=NOON) == "pending"
    d.refresh_from_db()
    assert d.attempts == 1 and d.due_at == NOON + timedelta(minutes=1)
    assert delivery.deliver_one(d.pk, now=NOON) == "not due"
    assert delivery.deliver_one(d.pk, now=d.due_at) == "sent"
    assert delivery.deliver_one(d.pk, now=d.due_at) == "not due"
    assert len(mail.outbox) == 1


def _subscribe(recipient):
    return PushSubscription.objects.create(
        recipient=recipient,
        endpoint="https://push.example/abc",
        p256dh="BKey",
        auth="secret",
        created_at=NOON,
    )


def _push_refused(status, headers=None):
    from pywebpush import WebPushException

    response = SimpleNamespace(status_code=status, headers=headers or {}, text="")

    def refuse(**kwargs):
        raise WebPushException("refused", response=response)

    return refuse


def test_an_expired_push_subscription_is_dropped(monkeypatch):
    r = _quiet(quiet_start=None, quiet_end=None, email_on=False)
    _subscribe(r)
    _tell([To(email="ann@example.com")])
    monkeypatch.setattr("pywebpush.webpush", _push_refused(410))
    d = Delivery.objects.get(channel="push")
    assert delivery.deliver_one(d.pk, now=NOON) == "dropped"
    assert not PushSubscription.objects.exists()


def test_a_push_service_asking_to_wait_is_respected(monkeypatch):
    r = _quiet(quiet_start=None, quiet_end=None, email_on=False)
    _subscribe(r)
    _tell([To(email="ann@example.com")])
    monkeypatch.setattr("pywebpush.webpush", _push_refused(429, {"Retry-After": "120"}))
    d = Delivery.objects.get(channel="push")
    assert delivery.deliver_one(d.pk, now=NOON) == "pending"
    d.refresh_from_db()
    assert d.due_at == NOON + timedelta(seconds=120)
    sent = []
    monkeypatch.setattr("pywebpush.webpush", lambda **kw: sent.append(kw))
    assert delivery.deliver_one(d.pk, now=d.due_at) == "sent"
    assert delivery.deliver_one(d.pk, now=d.due_at) == "not due"
    assert len(sent) == 1


def test_turning_an_event_off_drops_what_is_waiting():
    r = _quiet()
    _tell([To(email="ann@example.com")], now=NIGHT)
    services.choice_set(recipient=r, enabled=False, event=Event.RESULT_TO_CONFIRM)
    assert Delivery.objects.get().status == "dropped"


def test_choices_page_from_the_link_in_a_message(client):
    r = _quiet()
    page = reverse("notifications-choices-token", args=[r.token])
    assert client.get(page).status_code == 200
    response = client.post(
        page,
        {
            "email_on": "on",
            "cadence": "weekly",
            "quiet_start": "21:00",
            "quiet_end": "09:00",
            "event_dispute": "on",
        },
    )
    assert response.status_code == 302
    r.refresh_from_db()
    assert (r.cadence, r.quiet_start, r.push_on) == ("weekly", time(21, 0), False)
    assert services.wants(r, Event.DISPUTE, None)
    assert not services.wants(r, Event.RESULT_TO_CONFIRM, None)
    assert client.get(reverse("notifications-choices-token", args=["nope"])).status_code == 404


def test_half_a_quiet_hours_range_is_refused(client):
    r = _quiet()
    response = client.post(
        reverse("notifications-choices-token", args=[r.token]),
        {"cadence": "immediate", "quiet_start": "21:00", "quiet_end": ""},
    )
    assert response.status_code == 200
    assert "both ends" in response.content.decode()
    r.refresh_from_db()
    assert r.quiet_start == time(22, 0)


def test_my_choices_needs_a_login(client):
    assert client.get(reverse("notifications-choices")).status_code == 302
    user = UserFactory(email="me@example.com")
    client.force_login(user)
    assert client.get(reverse("notifications-choices")).status_code == 200
    assert Recipient.objects.get().user == user


def test_a_person_reached_by_address_then_by_login_stays_one_person():
    """A roster email told before the player had a login; once told with their login and
    that address, the same person: their choices and their history go with them."""
    ann = _quiet("ann@example.com", quiet_start=None, quiet_end=None)
    assert _tell([To(email="Ann@Example.com")], key="match:1") == 1
    services.choice_set(recipient=ann, event=Event.MATCH_RESULT, enabled=False)
    user = UserFactory(email="ann@example.com")

    me = services.recipient_for(To(user_id=user.pk, email="ann@example.com"), now=NOON)

    assert me.pk == ann.pk and me.user_id == user.pk
    assert Recipient.objects.count() == 1
    assert not services.wants(me, Event.MATCH_RESULT, None)  # the choice went with them
    assert _tell([To(user_id=user.pk)], key="match:1") == 0  # and the history: told once
    # Named by the login alone from now on, still the same person.
    assert services.recipients_for([To(user_id=user.pk)], now=NOON) == [me]


def test_an_address_named_alone_and_with_a_login_in_one_call_is_not_taken_over():
    """The same address named alone (someone without a login) and with a login in one
    call: ambiguous, so the login gets its own recipient and the address keeps its own."""
    user = UserFactory(email="shared@example.com")
    found = services.recipients_for(
        [To(email="shared@example.com"), To(user_id=user.pk, email="shared@example.com")],
        now=NOON,
    )
    assert sorted((r.user_id is None, r.email) for r in found) == [
        (False, "shared@example.com"),
        (True, "shared@example.com"),
    ]
