"""A live poll that has not changed answers 304 from the versions in the cache without a
query; every write that changes what it shows gives it a new ETag; a changed body is built
once and shared; a cache that fails makes polls build from the database, never answer
from a stale version."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from frames import live
from frames.models import Match
from marker import versions
from tests.frames.pad_helpers import body, make_frame, make_match, referee_player, shot

# Autocommit, as in production: the versions are bumped when a write commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def versions_on(settings):
    settings.LIVE_VERSIONS = True  # local memory is one process here: it may be trusted
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def frame(league):
    return make_frame(make_match(league), referee=referee_player(league))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def record(client, frame, seq, event):
    answer = client.post(
        reverse("api-frame-events", args=[frame.pk]),
        data=json.dumps(body(event, seq=seq)),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content


def test_an_unchanged_live_poll_is_a_304_without_a_query(frame, django_assert_num_queries):
    url = reverse("api-match-live", args=[frame.match_id])
    first = Client().get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_a_shot_a_confirmation_and_a_rename_each_give_a_new_etag(frame, league):
    url = reverse("api-match-live", args=[frame.match_id])
    watcher = Client()
    etag = watcher.get(url)["ETag"]
    record(signed_in(league.player_user), frame, 1, shot(("red", 100)))
    changed = watcher.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.json()["frames"][0]["break"] == 200  # the shot's break: the new state
    etag = changed["ETag"]
    assert watcher.get(url, headers={"If-None-Match": etag}).status_code == 304

    match = Match.objects.get(pk=frame.match_id)
    match.status = Match.Status.DISPUTED
    match.save()  # a save of a match-night row bumps its versions on commit
    changed = watcher.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["status"] == "disputed"
    etag = changed["ETag"]

    home = match.fixture.home
    home.name = "The Renamed Arms"
    home.save()  # a name the page shows: every version moves on
    changed = watcher.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["home"]["team"] == "The Renamed Arms"


def test_a_changed_body_is_built_once_and_shared(frame, league):
    url = reverse("api-match-live", args=[frame.match_id])
    first = Client().get(url)
    record(signed_in(league.player_user), frame, 1, shot(("white", 50)))
    answers = [Client().get(url, headers={"If-None-Match": first["ETag"]}) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5
    assert [a["Server-Timing"] for a in answers] == ["live;desc=built"] + ["live;desc=kept"] * 4
    assert len({a.content for a in answers}) == 1


def test_the_live_page_carries_the_etag_its_first_poll_will_match(frame):
    page = Client().get(reverse("match-live", args=[frame.match_id]))
    etag = page.content.decode().split('data-etag="', 1)[1].split('"', 1)[0]
    poll = Client().get(
        reverse("api-match-live", args=[frame.match_id]),
        headers={"If-None-Match": etag.replace("&quot;", '"')},
    )
    assert poll.status_code == 304


def test_with_the_cache_down_polls_build_from_the_database(frame, league, monkeypatch):
    url = reverse("api-match-live", args=[frame.match_id])
    etag = Client().get(url)["ETag"]

    def down(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    monkeypatch.setattr(cache, "get_many", down)
    monkeypatch.setattr(cache, "set_many", down)
    record(signed_in(league.player_user), frame, 1, shot(("red", 100)))  # its bump fails
    assert versions.bumps_pending()  # kept for later
    answer = Client().get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.json()["frames"][0]["break"] == 200
    assert answer["ETag"] != etag  # a hash of the body, not a version

    monkeypatch.undo()  # the cache is back, holding the version from before the shot
    # This process stores its pending bump before it trusts the cache again: no stale 304.
    again = Client().get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.json()["frames"][0]["break"] == 200
    assert not versions.bumps_pending()


def test_an_expired_version_is_never_a_304(frame):
    url = reverse("api-match-live", args=[frame.match_id])
    etag = Client().get(url)["ETag"]
    cache.clear()  # evicted, or expired: a fresh random token, which no client holds
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 200


def test_a_process_keeps_the_tokens_it_read_for_the_memo_window_only(frame, settings, monkeypatch):
    """With LIVE_VERSION_MEMO, an unchanged poll makes no trip to the cache; another
    process's change (here: the token replaced behind this process's back) is seen once
    the window has passed, and this process's own bump at once."""
    settings.LIVE_VERSION_MEMO = 0.25
    versions._memo.clear()
    url = reverse("api-match-live", args=[frame.match_id])
    etag = Client().get(url)["ETag"]
    clock = [1000.0]
    monkeypatch.setattr(versions.time, "monotonic", lambda: clock[0])
    versions._memo.clear()
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 304  # reads
    cache.clear()  # another process's change, as this process cannot see it
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 304  # kept
    clock[0] += 0.3
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 200  # seen
    fresh = Client().get(url)["ETag"]
    versions._store({live.match_key(frame.match_id)})  # this process's bump, committed
    assert Client().get(url, headers={"If-None-Match": fresh}).status_code == 200  # own bump


def test_the_pad_poll_is_a_304_without_a_query_and_can_enter_is_per_viewer(
    frame, league, django_assert_num_queries
):
    url = reverse("api-frame-state", args=[frame.pk])
    watcher, referee = Client(), signed_in(league.player_user)
    seen = watcher.get(url)
    assert seen.status_code == 200 and seen.json()["can_enter"] is False
    with django_assert_num_queries(0):
        assert watcher.get(url, headers={"If-None-Match": seen["ETag"]}).status_code == 304
    mine = referee.get(url)
    assert mine.json()["can_enter"] is True and mine["ETag"] != seen["ETag"]
    record(referee, frame, 1, shot(("white", 50)))
    changed = watcher.get(url, headers={"If-None-Match": seen["ETag"]})
    assert changed.status_code == 200 and changed.json()["last_seq"] == 1
    assert changed.json()["can_enter"] is False


def test_a_bump_forgets_only_the_tokens_it_changed(settings, monkeypatch):
    """Every shot bumps its frame and match: the other matches' kept tokens stay, so
    their unchanged polls still make no trip to the cache."""
    settings.LIVE_VERSION_MEMO = 0.25
    versions._memo.clear()
    first = versions.read(live.EVERYTHING, live.match_key(1))
    other = versions.read(live.EVERYTHING, live.match_key(2))
    trips = []
    real = cache.get_many
    monkeypatch.setattr(cache, "get_many", lambda keys: trips.append(keys) or real(keys))
    versions.bump(live.frame_key(10), live.match_key(1))  # outside a transaction: at once
    assert versions.read(live.EVERYTHING, live.match_key(2)) == other
    assert trips == []
    changed = versions.read(live.EVERYTHING, live.match_key(1))
    assert len(trips) == 1 and changed[0] == first[0] and changed[1] != first[1]
    versions.bump(live.EVERYTHING)  # a name changed: every body again
    assert versions.read(live.EVERYTHING, live.match_key(2)) != other
