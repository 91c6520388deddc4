"""Friendly games: anyone signed in starts a game of any registered game, scores it on the
pad through the same event log and API as a league frame, and shares its live page."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from frames.friendly import services
from frames.models import Frame, FrameEvent, Friendly
from marker.errors import DomainError
from rules import registry
from rules.simulate import simulate_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def send(client, frame, payload, seq):
    return client.post(
        reverse("api-frame-events", args=[frame.pk]),
        {
            "event_id": str(uuid.uuid4()),
            "expected_seq": seq,
            "kind": "event",
            "payload": payload,
            "device_id": "phone",
        },
        content_type="application/json",
    )


def play_to_the_end(client, frame) -> int:
    """Every event of a seeded plausible game, through the API; returns the last seq."""
    events = simulate_game(registry.get(frame.game_id), frame.setup, seed=7)
    for seq, payload in enumerate(events, start=1):
        response = send(client, frame, payload, seq)
        assert response.status_code == 201, response.json()
    return len(events)


@pytest.mark.parametrize("game_id", ["three_cushion_carom", "snooker_pool_hoyle"])
def test_a_friendly_game_is_scored_to_the_end_and_confirmed(game_id):
    owner = UserFactory()
    friendly = services.friendly_start(owner=owner, game_id=game_id, players=["Ann", "Bob"])
    frame = friendly.frame
    assert (frame.game_id, frame.match_id, frame.status) == (game_id, None, "scheduled")
    client = signed_in(owner)
    last = play_to_the_end(client, frame)
    state = client.get(reverse("api-frame-state", args=[frame.pk])).json()
    assert state["view"]["over"] is True and state["last_seq"] == last
    confirmed = client.post(
        reverse("api-frame-confirm", args=[frame.pk]),
        {"seq": last},
        content_type="application/json",
    )
    assert confirmed.status_code == 200, confirmed.json()
    frame.refresh_from_db()
    assert frame.status == Frame.Status.COMPLETE and frame.result_source == "pad"
    page = Client().get(reverse("friendly-detail", args=[friendly.pk])).content.decode()
    winner = state["view"]["winner"]
    assert "Game over · confirmed" in page and (winner is None or f"{winner} <strong>· won" in page)


def test_only_whoever_started_it_may_score_it_and_anyone_may_watch():
    owner, stranger = UserFactory(), UserFactory()
    friendly = services.friendly_start(
        owner=owner, game_id="three_cushion_carom", players=["A", "B"]
    )
    payload = simulate_game(registry.get("three_cushion_carom"), friendly.frame.setup, seed=1)[0]
    assert send(signed_in(stranger), friendly.frame, payload, 1).status_code == 403
    assert send(Client(), friendly.frame, payload, 1).status_code == 403
    assert not FrameEvent.objects.filter(frame=friendly.frame).exists()
    assert Client().get(reverse("friendly-detail", args=[friendly.pk])).status_code == 200
    assert Client().get(reverse("frame-pad", args=[friendly.frame.pk])).status_code == 200


@pytest.mark.parametrize(
    ("players", "options", "code", "field"),
    [
        ([], {}, "bad_players", "players"),
        (["Ann", "ann"], {}, "bad_players", "players"),
        (["Ann", " "], {}, "bad_players", "players"),
        (["x" * 61, "Bob"], {}, "bad_players", "players"),
        ([f"P{i}" for i in range(17)], {}, "bad_players", "players"),
        (["Ann", "Bob"], {"target": -5}, "bad_setup", "options"),
        (["Ann", "Bob"], {"no_such_option": 1}, "bad_setup", "options"),
    ],
)
def test_bad_players_or_options_are_refused_and_nothing_is_created(players, options, code, field):
    with pytest.raises(DomainError) as refused:
        services.friendly_start(
            owner=UserFactory(), game_id="three_cushion_carom", players=players, options=options
        )
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not Friendly.objects.exists() and not Frame.objects.exists()


def test_an_unknown_game_is_refused():
    with pytest.raises(DomainError) as refused:
        services.friendly_start(owner=UserFactory(), game_id="tiddlywinks", players=["A", "B"])
    assert refused.value.code == "unknown_game"


def test_partners_on_one_line_make_a_side_of_a_sides_game():
    friendly = services.friendly_start(
        owner=UserFactory(), game_id="bar_billiards_4pin", players=[["Ann", "Cat"], ["Bob", "Dan"]]
    )
    assert friendly.frame.setup["players"] == {
        "Ann & Cat": ["Ann", "Cat"],
        "Bob & Dan": ["Bob", "Dan"],
    }
    assert friendly.title == "4-pin bar billiards: Ann & Cat v Bob & Dan"


def test_the_pages_start_a_game_with_its_options_and_list_it():
    owner = UserFactory()
    client = signed_in(owner)
    form = client.get(reverse("friendly-new"), {"game": "three_cushion_carom"})
    assert form.status_code == 200 and 'name="opt_target"' in form.content.decode()
    started = client.post(
        reverse("friendly-new"),
        {
            "game": "three_cushion_carom",
            "players": "Ann\nBob\n",
            "opt_target": "15",
            "title": "",
            "more_options": "",
            "start": "1",
        },
    )
    friendly = Friendly.objects.get(owner=owner)
    assert started.status_code == 302 and started["Location"] == reverse(
        "frame-pad", args=[friendly.frame.pk]
    )
    assert friendly.frame.setup["target"] == 15
    listing = client.get(reverse("friendly-list")).content.decode()
    assert friendly.title in listing
    assert (
        signed_in(UserFactory())
        .get(reverse("friendly-list"))
        .content.decode()
        .count(friendly.title)
        == 0
    )


def test_the_page_shows_the_engines_refusal_beside_the_options_and_creates_nothing():
    client = signed_in(UserFactory())
    answer = client.post(
        reverse("friendly-new"),
        {
            "game": "three_cushion_carom",
            "players": "Ann\nBob",
            "more_options": '{"target": 0}',
            "start": "1",
        },
    )
    assert answer.status_code == 200 and "target" in answer.content.decode()
    assert not Friendly.objects.exists()


def test_the_api_starts_a_game_and_lists_only_your_own():
    owner = UserFactory()
    client = signed_in(owner)
    created = client.post(
        reverse("api-friendlies"),
        {"game": "snooker_pool_hoyle", "players": ["Ann", "Bob", "Cat"]},
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["game"] == "snooker_pool_hoyle" and body["pad"].endswith("/pad/")
    assert [g["id"] for g in client.get(reverse("api-friendlies")).json()] == [body["id"]]
    assert signed_in(UserFactory()).get(reverse("api-friendlies")).json() == []
    refused = client.post(
        reverse("api-friendlies"),
        {"game": "nope", "players": ["A", "B"]},
        content_type="application/json",
    )
    assert refused.status_code == 400 and refused.json()["error"] == "unknown_game"
    assert (
        Client().post(reverse("api-friendlies"), {}, content_type="application/json").status_code
        == 403
    )
