"""No card received: both captains of an overdue fixture are reminded once, however often
the beat task runs; a fixture with a card photo, or long past, is not."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings as django_settings
from django.core import mail

from frames.matchnight import card_photos, nocard, tasks
from leagues.models import Fixture
from notifications.events import Event
from notifications.models import Notification
from tests.frames.card_helpers import phone_jpeg
from tests.frames.matchnight_helpers import fixture_of, open_match

pytestmark = pytest.mark.django_db
NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


def dated(fixture: Fixture, days_ago: int) -> Fixture:
    fixture.date = NOON.date() - timedelta(days=days_ago)
    fixture.save(update_fields=["date"])
    return fixture


def test_both_captains_are_reminded_once(league, django_capture_on_commit_callbacks):
    fixture = dated(fixture_of(league), 3)
    with django_capture_on_commit_callbacks(execute=True):
        assert nocard.no_card_remind(now=NOON) == [fixture.pk]
    # The beat runs again (and a retry): nothing new is queued or sent.
    with django_capture_on_commit_callbacks(execute=True):
        assert nocard.no_card_remind(now=NOON + timedelta(hours=1)) == []
        assert tasks.remind_no_card() == []

    queued = Notification.objects.filter(event=Event.NO_CARD).select_related("recipient")
    assert sorted(n.recipient.user_id for n in queued) == sorted(
        [league.captain.pk, league.other_captain.pk]
    )
    assert {n.key for n in queued} == {f"no-card:{fixture.pk}"}
    assert {n.league_id for n in queued} == {league.season.league_id}
    sent = sorted(m.to[0] for m in mail.outbox)
    assert sent == sorted([league.captain.email, league.other_captain.email])
    assert all("No card received" in m.subject for m in mail.outbox)
    assert all(fixture.home.name in m.body for m in mail.outbox)


def test_the_reminder_opens_the_match_page_once_there_is_one(league):
    fixture = dated(fixture_of(league), 3)
    match = open_match(league)
    nocard.no_card_remind(now=NOON)
    assert set(Notification.objects.filter(event=Event.NO_CARD).values_list("url", flat=True)) == {
        match.get_absolute_url()
    }
    assert fixture.match == match


def test_not_reminded_with_a_card_within_the_deadline_or_long_past(league, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    fixture = dated(fixture_of(league), 1)  # 48 hours not passed
    assert nocard.no_card_remind(now=NOON) == []
    dated(fixture, 30)  # overdue for weeks: listed for the secretary, nobody reminded
    assert nocard.no_card_remind(now=NOON) == []
    dated(fixture, 3)
    match = open_match(league)
    card_photos.card_photo_add(
        match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
    )
    assert nocard.no_card_remind(now=NOON) == []
    assert not Notification.objects.filter(event=Event.NO_CARD).exists()


def test_the_beat_runs_the_reminders():
    entry = django_settings.CELERY_BEAT_SCHEDULE["match-no-card-reminders"]
    assert entry["task"] == tasks.remind_no_card.name
