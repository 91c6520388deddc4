"""The live match poll answered before the rest of the stack (frames/pad/live_polls.py):
the same status, headers and body as the view behind every middleware, for a body built,
a body kept and a 304; anything else goes through the whole stack."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from frames.pad import api as pad_api
from tests.frames.pad_helpers import body, make_frame, make_match, referee_player, shot

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


def both_ways(settings, url: str, **extra):
    """(answer through the fast path, answer through the whole stack) for one request."""
    settings.LIVE_FAST_POLLS = True
    fast = Client().get(url, **extra)
    settings.LIVE_FAST_POLLS = False
    slow = Client().get(url, **extra)
    settings.LIVE_FAST_POLLS = True
    return fast, slow


def same(fast, slow) -> None:
    assert fast.status_code == slow.status_code
    assert dict(fast.items()) == dict(slow.items())
    assert fast.content == slow.content


def test_built_kept_and_304_answers_match_the_stack_header_for_header(settings, frame, league):
    url = reverse("api-match-live", args=[frame.match_id])
    settings.LIVE_FAST_POLLS = False
    built_slow = Client().get(url)
    cache.clear()
    settings.LIVE_FAST_POLLS = True
    built_fast = Client().get(url)
    assert built_fast["Server-Timing"] == "live;desc=built"
    # The tokens were cleared, so the ETags differ; everything else is the same.
    assert {k: v for k, v in built_fast.items() if k != "ETag"} == {
        k: v for k, v in built_slow.items() if k != "ETag"
    }
    assert built_fast.content == built_slow.content
    for header in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert built_fast[header]
    assert "Content-Security-Policy" in built_fast

    kept_fast, kept_slow = both_ways(settings, url)
    same(kept_fast, kept_slow)
    assert kept_fast["Server-Timing"] == "live;desc=kept"
    unchanged = both_ways(settings, url, headers={"If-None-Match": kept_fast["ETag"]})
    same(*unchanged)
    assert unchanged[0].status_code == 304

    referee = Client()
    referee.force_login(league.player_user, backend="django.contrib.auth.backends.ModelBackend")
    shot_answer = referee.post(
        reverse("api-frame-events", args=[frame.pk]),
        data=json.dumps(body(shot(("red", 100)), seq=1)),
        content_type="application/json",
    )
    assert shot_answer.status_code == 201
    changed = Client().get(url, headers={"If-None-Match": kept_fast["ETag"]})
    assert changed.status_code == 200 and changed.json()["frames"][0]["break"] == 200


def test_over_https_with_hsts_the_headers_match_too(settings, frame):
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_SSL_REDIRECT = True
    url = reverse("api-match-live", args=[frame.match_id])
    Client().get(url, secure=True)  # built once
    fast, slow = both_ways(settings, url, secure=True)
    same(fast, slow)
    assert fast.status_code == 200 and fast["Strict-Transport-Security"].startswith("max-age=3600")
    # Plain HTTP is redirected by the stack, as every other page is.
    plain = Client().get(url)
    assert plain.status_code == 301 and plain["Location"].startswith("https://")


def test_the_fast_path_runs_no_view_and_steps_aside_for_everything_else(
    settings, frame, monkeypatch
):
    url = reverse("api-match-live", args=[frame.match_id])
    assert Client().get(url).status_code == 200

    def no_view(*args, **kwargs):
        raise AssertionError("the view ran")

    monkeypatch.setattr(pad_api.MatchLiveView, "dispatch", no_view)
    assert Client().get(url).status_code == 200  # answered before the view
    settings.LIVE_FAST_POLLS = False
    with pytest.raises(AssertionError, match="the view ran"):
        Client().get(url)


def test_html_bad_hosts_missing_matches_and_lost_versions_go_through_the_stack(settings, frame):
    url = reverse("api-match-live", args=[frame.match_id])
    page = Client().get(url, headers={"Accept": "text/html"})
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert Client().get(url, HTTP_HOST="evil.example").status_code == 400
    for missing in (999999, 10**17, 10**30):
        answer = Client().get(f"/api/matches/{missing}/live/")
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    settings.LIVE_VERSIONS = False  # tokens not trusted: the view builds and hashes
    built = Client().get(url)
    assert built.status_code == 200 and "Server-Timing" not in built
    assert Client().get(url, headers={"If-None-Match": built["ETag"]}).status_code == 304


def test_a_poll_the_fast_path_could_not_answer_is_not_tried_again_by_the_view(
    settings, frame, monkeypatch
):
    """A missing match or untrusted versions: the view answers without repeating the
    fast path's reads."""
    calls = []
    real = pad_api.live_match_answer

    def counted(request, pk):
        calls.append(pk)
        return real(request, pk)

    monkeypatch.setattr(pad_api, "live_match_answer", counted)
    import frames.pad.live_polls as live_polls

    monkeypatch.setattr(live_polls, "live_match_answer", counted)
    assert Client().get("/api/matches/999999/live/").status_code == 404
    assert calls == [999999]
    settings.LIVE_FAST_POLLS = False  # without the middleware, the view tries once itself
    assert Client().get("/api/matches/999999/live/").status_code == 404
    assert calls == [999999, 999999]
