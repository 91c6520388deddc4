"""The referee pad's API over HTTP (Django test client), its pages, service worker,
manifest and OpenAPI schema."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from frames.models import Frame, FrameEvent
from frames.pad.serializers import (
    ConflictSerializer,
    EventAnswerSerializer,
    EventListSerializer,
    FrameStateSerializer,
    MatchLiveSerializer,
)
from tests.frames.pad_helpers import body, make_frame, make_match, referee_player, shot

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


@pytest.fixture
def frame(league):
    return make_frame(make_match(league), referee=referee_player(league))


def client_for(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def post_event(client, frame_id, data):
    return client.post(
        reverse("api-frame-events", args=[frame_id]),
        data=json.dumps(data),
        content_type="application/json",
    )


def valid(serializer_class, data) -> bool:
    serializer = serializer_class(data=data)
    return serializer.is_valid() or pytest.fail(str(serializer.errors))


def test_post_answers_201_then_200_on_retry(frame, league):
    referee = client_for(league.player_user)
    data = body(shot(("white", 50)), seq=1, device="phone-a")
    first = post_event(referee, frame.pk, data)
    assert first.status_code == 201
    assert valid(EventAnswerSerializer, first.json())
    assert first.json()["entered_by"] == league.player_user.username
    again = post_event(referee, frame.pk, data)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert {**again.json(), "replayed": False} == first.json()
    assert FrameEvent.objects.filter(frame=frame).count() == 1


def test_every_role_that_may_score_can(frame, league):
    for seq, user in enumerate(
        [
            league.player_user,
            league.captain,
            league.vice_captain,
            league.other_captain,
            league.secretary,
        ],
        start=1,
    ):
        response = post_event(client_for(user), frame.pk, body(shot(), seq=seq))
        assert response.status_code == 201, (user, response.json())


def test_outsiders_and_anonymous_get_403_and_nothing_is_stored(frame, league):
    outsider = post_event(client_for(league.outsider), frame.pk, body(shot(), seq=1))
    assert outsider.status_code == 403 and outsider.json()["error"] == "permission_denied"
    anonymous = post_event(client_for(), frame.pk, body(shot(), seq=1))
    assert anonymous.status_code == 403 and anonymous.json()["error"] == "not_authenticated"
    other_team = make_match(league, home=2, away=3)
    stranger_frame = make_frame(other_team)
    captain = post_event(client_for(league.captain), stranger_frame.pk, body(shot(), seq=1))
    assert captain.status_code == 403
    assert not FrameEvent.objects.exists()


def test_unknown_frame_is_404(league):
    response = post_event(client_for(league.secretary), 999999, body(shot(), seq=1))
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert client_for().get(reverse("api-frame-state", args=[999999])).status_code == 404
    assert client_for().get(reverse("api-frame-events", args=[999999])).status_code == 404
    assert client_for().get(reverse("frame-pad", args=[999999])).status_code == 404


def test_engine_refusal_is_400_with_code_message_and_index(frame, league):
    referee = client_for(league.player_user)
    post_event(referee, frame.pk, body(shot(), seq=1))
    three_whites = shot(("white", 10), ("white", 20), ("white", 30))  # at most 2 on the table
    response = post_event(referee, frame.pk, body(three_whites, seq=2))
    assert response.status_code == 400
    data = response.json()
    assert data["error"] == "not_on_table" and data["index"] == 1 and data["seq"] == 2
    assert "whites" in data["message"]
    assert FrameEvent.objects.filter(frame=frame).count() == 1


def test_malformed_requests_are_400(frame, league):
    referee = client_for(league.player_user)
    for bad in (
        {"event_id": "not-a-uuid", "expected_seq": 1, "payload": {"type": "shot"}},
        {"event_id": str(uuid.uuid4()), "expected_seq": 0, "payload": {"type": "shot"}},
        {"event_id": str(uuid.uuid4()), "expected_seq": 1, "payload": [1]},
        {"event_id": str(uuid.uuid4()), "expected_seq": 1, "kind": "delete"},
        {"expected_seq": 1},
    ):
        response = post_event(referee, frame.pk, bad)
        assert response.status_code == 400, bad
        assert response.json()["error"] == "invalid"
    assert not FrameEvent.objects.exists()


def test_taken_seq_is_409_with_state_and_missing_events(frame, league):
    device_a, device_b = client_for(league.player_user), client_for(league.captain)
    post_event(device_a, frame.pk, body(shot(("white", 50)), seq=1))
    post_event(device_a, frame.pk, body(shot(), seq=2))
    late = post_event(device_b, frame.pk, body(shot(("white", 20)), seq=2))
    assert late.status_code == 409
    data = late.json()
    assert valid(ConflictSerializer, data)
    assert data["error"] == "seq_conflict" and data["last_seq"] == 2
    assert [e["seq"] for e in data["events"]] == [2]
    assert data["view"] == Frame.objects.get(pk=frame.pk).view


def test_event_id_reused_with_other_payload_is_422(frame, league):
    referee = client_for(league.player_user)
    data = body(shot(("white", 50)), seq=1)
    post_event(referee, frame.pk, data)
    reused = post_event(referee, frame.pk, {**data, "payload": shot(("white", 30))})
    assert reused.status_code == 422 and reused.json()["error"] == "event_id_reused"
    undo_with_same_id = post_event(referee, frame.pk, {**data, "kind": "undo", "payload": {}})
    assert undo_with_same_id.status_code == 422


def test_undo_over_the_api(frame, league):
    referee = client_for(league.player_user)
    post_event(referee, frame.pk, body(shot(("white", 50)), seq=1))
    undo = post_event(referee, frame.pk, body(seq=2, kind="undo"))
    assert undo.status_code == 201 and undo.json()["view"]["break"] == 0
    again = post_event(referee, frame.pk, body(seq=3, kind="undo"))
    assert again.status_code == 400 and again.json()["error"] == "nothing_to_undo"
    assert FrameEvent.objects.filter(frame=frame).count() == 2


def test_csrf_token_is_read_at_send_time_and_rotates_at_login(frame, league):
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(league.player_user, backend="django.contrib.auth.backends.ModelBackend")
    session_url = reverse("api-pad-session")
    token = phone.get(session_url).json()["csrf_token"]
    url = reverse("api-frame-events", args=[frame.pk])

    def send(data, csrf):
        return phone.post(
            url,
            data=json.dumps(data),
            content_type="application/json",
            headers={"X-CSRFToken": csrf},
        )

    assert send(body(shot(), seq=1), "").status_code == 403
    assert send(body(shot(), seq=1), token).status_code == 201
    queued = body(shot(("white", 10)), seq=2)  # queued on the phone, then a re-login
    phone.logout()
    signed_out = send(queued, token)
    assert signed_out.status_code == 403 and signed_out.json()["error"] == "not_authenticated"
    login_page = phone.get(reverse("login"))
    assert login_page.status_code == 200
    signed_in = phone.post(
        reverse("login"),
        {
            "username": league.player_user.username,
            "password": "pw-for-tests-1",
            "csrfmiddlewaretoken": phone.cookies["csrftoken"].value,
        },
    )
    assert signed_in.status_code == 302
    fresh = phone.cookies["csrftoken"].value  # rotated at login; the pad reads it at send time
    assert fresh != token
    assert send(queued, token).status_code == 403  # the token captured before login is stale
    assert phone.get(session_url).json()["authenticated"] is True
    assert send(queued, fresh).status_code == 201
    assert FrameEvent.objects.filter(frame=frame).count() == 2


def test_state_and_events_endpoints_with_etag(frame, league):
    referee = client_for(league.player_user)
    watcher = client_for()
    url = reverse("api-frame-state", args=[frame.pk])
    first = watcher.get(url)
    assert first.status_code == 200 and first["ETag"]
    data = first.json()
    assert valid(FrameStateSerializer, data)
    assert (
        data["last_seq"] == 0 and data["can_enter"] is False and data["view"]["next"] == "break_off"
    )
    assert data["sides"]["home"]["team"] == frame.match.fixture.home.name
    assert watcher.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    post_event(referee, frame.pk, body(shot(("white", 50)), seq=1))
    post_event(referee, frame.pk, body(shot(), seq=2))
    changed = watcher.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed.json()["last_seq"] == 2
    assert [e["seq"] for e in changed.json()["recent"]] == [1, 2]
    assert referee.get(url).json()["can_enter"] is True

    since = watcher.get(reverse("api-frame-events", args=[frame.pk]), {"since": 1}).json()
    assert valid(EventListSerializer, since)
    assert [e["seq"] for e in since["events"]] == [2] and since["last_seq"] == 2
    assert (
        watcher.get(reverse("api-frame-events", args=[frame.pk]), {"since": "x"}).status_code == 400
    )


def test_describe_serves_the_game_vocabulary(league):
    response = client_for().get(reverse("api-game-describe", args=["bar-billiards"]))
    assert response.status_code == 200
    assert [e["type"] for e in response.json()["events"]] == ["shot", "bar_down", "invoke_endgame"]
    assert client_for().get(reverse("api-game-describe", args=["snooker"])).status_code == 404


def test_match_live_json_and_page(frame, league):
    referee = client_for(league.player_user)
    url = reverse("api-match-live", args=[frame.match_id])
    first = client_for().get(url)
    assert first.status_code == 200 and valid(MatchLiveSerializer, first.json())
    assert client_for().get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    post_event(referee, frame.pk, body(shot(("red", 100)), seq=1))
    live = client_for().get(url, headers={"If-None-Match": first["ETag"]})
    assert live.status_code == 200
    row = live.json()["frames"][0]
    assert (row["break"], row["at_table"], row["status"]) == (200, "home", "in_play")
    page = client_for().get(reverse("match-live", args=[frame.match_id]))
    assert page.status_code == 200
    assert b'data-url="' + url.encode() in page.content
    assert client_for().get(reverse("match-live", args=[999999])).status_code == 404


def test_match_live_reads_every_frame_in_one_statement_with_public_names(
    league, django_assert_num_queries
):
    """The live read is one SQL statement; it shows the frames in order of play, each
    side's players by position, public names (initials for a player who asked), the
    referee, and the scores and results the frames hold."""
    from frames.models import FramePlayer
    from frames.pad import selectors

    match = make_match(league)
    referee = referee_player(league)
    referee.private_name = True
    referee.save()
    second = make_frame(match, number=2, kind="doubles")
    first = make_frame(match, number=1, referee=referee)
    Frame.objects.filter(pk=first.pk).update(order=3)  # played after the doubles
    Frame.objects.filter(pk=second.pk).update(
        status="complete", home_score=1200, away_score=800, winner="home"
    )
    # Positions decide the order within a side, not the rows' creation.
    home_slots = list(second.players.filter(side="home").order_by("position"))
    FramePlayer.objects.filter(pk=home_slots[0].pk).update(position=3)
    private = home_slots[1].player
    private.private_name = True
    private.save()
    with django_assert_num_queries(1):
        live = selectors.match_live(match.pk)
    assert [row["id"] for row in live["frames"]] == [second.pk, first.pk]
    doubles, singles = live["frames"]
    assert doubles["players"]["home"] == [private.initials, home_slots[0].player.name]
    assert doubles["players"]["away"] == [
        slot.player.name for slot in second.players.filter(side="away").order_by("position")
    ]
    assert (doubles["scores"], doubles["winner"], doubles["over"]) == (
        {"home": 1200, "away": 800},
        "home",
        True,
    )
    assert doubles["referee"] is None and doubles["shared"] is False
    assert singles["referee"] == referee.initials and singles["status"] == "scheduled"
    assert singles["pad"] == reverse("frame-pad", args=[first.pk])
    assert (live["home"]["team"], live["away"]["team"]) == (
        match.fixture.home.name,
        match.fixture.away.name,
    )
    assert live["frames_display"] == "1–0" and live["status_label"] == "In play"


def test_match_live_of_a_match_without_frames_and_of_no_match(league):
    from frames.models import Match
    from frames.pad import selectors

    match = make_match(league)
    live = selectors.match_live(match.pk)
    assert live["frames"] == [] and live["match"] == match.pk
    with pytest.raises(Match.DoesNotExist):
        selectors.match_live(999999)


def test_live_poll_matches_the_etag_a_compressing_proxy_made_weak(frame, league):
    """nginx's gzip turns the app's ETag "x" into W/"x" (deploy/nginx): the browser
    sends that back, and an unchanged match is still a 304; a changed one is not."""
    url = reverse("api-match-live", args=[frame.match_id])
    first = client_for().get(url)
    weak = "W/" + first["ETag"]
    assert client_for().get(url, headers={"If-None-Match": weak}).status_code == 304
    post_event(client_for(league.player_user), frame.pk, body(shot(("red", 100)), seq=1))
    assert client_for().get(url, headers={"If-None-Match": weak}).status_code == 200


def test_confirm_endpoint(frame, league):
    referee = client_for(league.player_user)
    url = reverse("api-frame-confirm", args=[frame.pk])
    post_event(referee, frame.pk, body(shot(), seq=1))
    not_over = referee.post(url, {"seq": 1}, content_type="application/json")
    assert not_over.status_code == 400 and not_over.json()["error"] == "not_over"
    outsider = client_for(league.outsider).post(url, {"seq": 1}, content_type="application/json")
    assert outsider.status_code == 403


def script_tags(html: str) -> list[str]:
    return re.findall(r"<script[^>]*>", html)


def test_pad_page_embeds_the_vocabulary_and_has_no_inline_code(frame, league):
    response = client_for(league.player_user).get(reverse("frame-pad", args=[frame.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="vocab"' in html and 'id="pad-context"' in html and 'id="controls"' in html
    for tag in script_tags(html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert " style=" not in html and " onclick=" not in html
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "csrftoken" in response.cookies  # the pad reads it when it sends
    context = json.loads(
        re.search(r'id="pad-context" type="application/json">(.*?)</script>', html).group(1)
    )
    assert context["can_enter"] is True and context["state"]["last_seq"] == 0
    watcher = (
        client_for(league.outsider).get(reverse("frame-pad", args=[frame.pk])).content.decode()
    )
    assert 'id="controls"' not in watcher and "You are watching" in watcher


def test_other_games_get_a_pad_from_their_vocabulary(league):
    match = make_match(league)
    carom = make_frame(match, number=2, game_id="three_cushion_carom")
    response = client_for(league.secretary).get(reverse("frame-pad", args=[carom.pk]))
    assert response.status_code == 200 and b'"stroke"' in response.content
    stroke = {"type": "stroke", "contacts": ["red", "cushion", "cushion", "cushion", "white"]}
    answer = post_event(client_for(league.secretary), carom.pk, body(stroke, seq=1))
    assert answer.status_code in (201, 400), answer.json()  # the engine is the judge, never a 500


def test_service_worker_and_manifest(league):
    sw = client_for().get(reverse("pad-sw"))
    assert sw.status_code == 200 and sw["Content-Type"].startswith("application/javascript")
    assert sw["Service-Worker-Allowed"] == "/"
    assert reverse("pad-sw") == "/sw.js"
    config = json.loads(re.match(rb"self.MARKER_SW = (\{.*?\});", sw.content).group(1))
    assert "/static/frames/pad.js" in config["precache"] and len(config["version"]) == 16
    manifest = client_for().get(reverse("pad-manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == reverse("pad-home")
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}


def test_pad_home_lists_the_frames_i_may_score(frame, league):
    mine = client_for(league.player_user).get(reverse("pad-home")).content.decode()
    assert reverse("frame-pad", args=[frame.pk]) in mine
    theirs = client_for(league.outsider).get(reverse("pad-home")).content.decode()
    assert reverse("frame-pad", args=[frame.pk]) not in theirs


def test_openapi_schema_documents_every_answer(league):
    schema = client_for().get(reverse("api-schema"), {"format": "json"}).json()
    post = schema["paths"]["/api/frames/{id}/events/"]["post"]
    assert set(post["responses"]) >= {"200", "201", "400", "403", "404", "409", "422"}
    for path in (
        "/api/frames/{id}/state/",
        "/api/games/{game_id}/",
        "/api/matches/{id}/live/",
        "/api/frames/{id}/confirm/",
        "/api/pad/session/",
    ):
        assert path in schema["paths"]
