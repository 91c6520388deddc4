"""What the two busiest requests of league night cost in statements, and that the shortcut
they take keeps every guarantee: a shot reads the frame, its permission facts and the
signed-in user in one statement (then appends in one more), with the session from the
cache; a session that no longer holds, a bad CSRF token or a stranger still gets 403."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from frames.models import FrameEvent
from tests.frames.pad_helpers import body, make_frame, make_match, referee_player, shot

# Autocommit, as in production: no test transaction around the request (whose savepoints
# would be counted as statements).
pytestmark = pytest.mark.django_db(transaction=True)

CACHED_DB = "django.contrib.sessions.backends.cached_db"


@pytest.fixture
def frame(league):
    return make_frame(make_match(league), referee=referee_player(league))


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def post(client, frame_id, data, **extra):
    return client.post(
        reverse("api-frame-events", args=[frame_id]),
        data=json.dumps(data),
        content_type="application/json",
        **extra,
    )


def test_a_shot_is_two_statements_with_the_session_in_the_cache(
    frame, league, settings, django_assert_num_queries
):
    settings.SESSION_ENGINE = CACHED_DB
    referee = signed_in(league.player_user)
    assert post(referee, frame.pk, body(shot(("white", 50)), seq=1)).status_code == 201
    # The frame with its permission facts and the user (one SELECT), then the append
    # (exactly these two: a statement the count missed would hide a cost).
    with django_assert_num_queries(2):
        answer = post(referee, frame.pk, body(shot(), seq=2))
    assert answer.status_code == 201
    assert answer.json()["entered_by"] == league.player_user.username
    assert FrameEvent.objects.filter(frame=frame).count() == 2


def test_with_database_sessions_a_shot_reads_its_session_row_too(
    frame, league, django_assert_max_num_queries
):
    referee = signed_in(league.player_user)
    assert post(referee, frame.pk, body(shot(("white", 50)), seq=1)).status_code == 201
    with django_assert_max_num_queries(3):
        assert post(referee, frame.pk, body(shot(), seq=2)).status_code == 201


def test_the_one_statement_read_still_refuses_what_it_must(frame, league, settings):
    settings.SESSION_ENGINE = CACHED_DB
    # Strangers, and a captain of neither team: 403, nothing stored.
    assert post(signed_in(league.outsider), frame.pk, body(shot(), seq=1)).status_code == 403
    # A missing CSRF token, with a valid session.
    strict = signed_in(league.player_user, enforce_csrf_checks=True)
    refused = post(strict, frame.pk, body(shot(), seq=1))
    assert refused.status_code == 403 and "CSRF" in refused.json()["message"]
    # No such frame: 404 for a signed-in referee too.
    assert post(signed_in(league.player_user), 999999, body(shot(), seq=1)).status_code == 404
    assert not FrameEvent.objects.exists()


def test_a_session_ended_by_a_password_change_is_not_accepted(frame, league, settings):
    settings.SESSION_ENGINE = CACHED_DB
    referee = signed_in(league.player_user)
    assert post(referee, frame.pk, body(shot(("white", 50)), seq=1)).status_code == 201
    user = league.player_user
    user.set_password("a-new-password-for-this-test-9")
    user.save()
    answer = post(referee, frame.pk, body(shot(), seq=2))
    assert answer.status_code == 403 and answer.json()["error"] == "not_authenticated"
    assert FrameEvent.objects.filter(frame=frame).count() == 1


def test_a_deactivated_account_is_not_accepted(frame, league, settings):
    settings.SESSION_ENGINE = CACHED_DB
    referee = signed_in(league.player_user)
    league.player_user.is_active = False
    league.player_user.save()
    answer = post(referee, frame.pk, body(shot(), seq=1))
    assert answer.status_code == 403
    assert not FrameEvent.objects.exists()
