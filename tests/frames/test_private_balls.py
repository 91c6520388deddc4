"""The private small balls of forty-one, Kelly and pin pool (target.md, *Private numbers*;
issue 29 item 5): the service that starts a game from names draws them once from the
system's cryptographic generator and stores them in the frame's setup; no page, API
answer, live view, export or archive shows them until the game is over; each player sees
only their own ball, on their own phone or by the referee handing the pad round."""

from __future__ import annotations

import json
import random
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from exchange.archive import league_export
from frames.models import Frame, FrameEvent, Friendly
from rules import registry
from rules.simulate import simulate_game
from tests.factories import FrameFactory, FramePlayerFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PRIVATE_GAMES = ("forty_one_pool", "kelly_pool", "pin_pool")
PLAYERS = ["Ann", "Bob", "Cat"]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def start(client: Client, game: str, **extra: Any):
    return client.post(
        reverse("api-friendlies"),
        {"game": game, "players": PLAYERS, **extra},
        content_type="application/json",
    )


def send(client: Client, frame_id: int, payload: dict, seq: int):
    return client.post(
        reverse("api-frame-events", args=[frame_id]),
        {"event_id": str(uuid.uuid4()), "expected_seq": seq, "payload": payload},
        content_type="application/json",
    )


def keys_named(value: Any, key: str) -> list[Any]:
    """Every value found under `key` anywhere in a JSON document."""
    found: list[Any] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                found.append(v)
            found += keys_named(v, key)
    elif isinstance(value, list):
        for v in value:
            found += keys_named(v, key)
    return found


def pad_context(html: str) -> dict:
    found = re.search(r'<script id="pad-context" type="application/json">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


class CountingSystemRandom(random.SystemRandom):
    made = 0

    def __init__(self, *args: Any) -> None:
        type(self).made += 1
        super().__init__(*args)


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_a_friendly_draws_the_balls_once_from_the_system_generator(game, monkeypatch):
    import frames.engine

    monkeypatch.setattr(frames.engine.secrets, "SystemRandom", CountingSystemRandom)
    CountingSystemRandom.made = 0
    owner = UserFactory()
    answer = start(signed_in(owner), game)
    assert answer.status_code == 201, answer.json()
    assert CountingSystemRandom.made == 1
    frame = Frame.objects.get(pk=answer.json()["frame"])
    private = frame.setup["private"]
    low, high = dict(registry.get(game).rules.options)["private_range"]
    assert sorted(private) == sorted(PLAYERS) and len(set(private.values())) == 3
    assert all(low <= ball <= high for ball in private.values())


def test_the_same_names_do_not_give_the_same_balls():
    # The engine dealt from random.Random("<game>|<names>"): every game between the same
    # players had the same balls, and one finished game told every later one.
    client = signed_in(UserFactory())
    deals = set()
    for _ in range(8):
        frame = Frame.objects.get(pk=start(client, "kelly_pool").json()["frame"])
        deals.add(tuple(frame.setup["private"][p] for p in PLAYERS))
    assert len(deals) > 1


def test_private_balls_cannot_be_chosen_by_whoever_starts_the_game():
    client = signed_in(UserFactory())
    answer = start(client, "kelly_pool", options={"private": {"Ann": 1, "Bob": 2, "Cat": 3}})
    assert answer.status_code == 400
    assert answer.json()["error"] == "drawn_by_service" and "private" in answer.json()["message"]
    assert not Friendly.objects.exists()


def test_starting_from_the_page_draws_them_too():
    client = signed_in(UserFactory())
    page = client.post(
        reverse("friendly-new"), {"game": "pin_pool", "players": "Ann\nBob", "start": "1"}
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    frame = Friendly.objects.get().frame
    assert sorted(frame.setup["private"]) == ["Ann", "Bob"]


def test_a_league_frame_drawn_for_a_private_game_gets_its_balls_from_the_draw():
    from frames.engine import service_draws, side_setup

    setup, _ = side_setup(
        "forty_one_pool", {"home": ["Ann"], "away": ["Bob"]}, None, rng=service_draws()
    )
    assert sorted(setup["private"]) == ["Ann", "Bob"]


def _watchers(frame_id: int, friendly_id: int, clients: dict[str, Client]) -> dict[str, Any]:
    """Everything a person can read about the game: the pad page, the pad's API (state,
    events), the friendly's page and live view, the games list."""
    seen: dict[str, Any] = {}
    for who, client in clients.items():
        state = client.get(reverse("api-frame-state", args=[frame_id])).json()
        events = client.get(reverse("api-frame-events", args=[frame_id])).json()
        pad = client.get(reverse("frame-pad", args=[frame_id])).content.decode()
        detail = client.get(reverse("friendly-detail", args=[friendly_id])).content.decode()
        live = client.get(reverse("friendly-live", args=[friendly_id])).content.decode()
        seen[who] = {
            "state": state,
            "events": events,
            "pad": pad_context(pad),
            "pages": detail + live,
            "ball_page": client.get(reverse("frame-private-ball", args=[frame_id])).content,
        }
        if who != "public":
            seen[who]["list"] = client.get(reverse("api-friendlies")).json()
    return seen


@pytest.mark.parametrize("game", PRIVATE_GAMES)
def test_no_view_shows_a_ball_before_the_game_is_over_and_every_one_after(game):
    owner, other = UserFactory(), UserFactory()
    clients = {"owner": signed_in(owner), "other": signed_in(other), "public": Client()}
    answer = start(clients["owner"], game).json()
    frame = Frame.objects.get(pk=answer["frame"])
    private = frame.setup["private"]
    events = simulate_game(registry.get(game), frame.setup, seed=3)
    for seq, payload in enumerate(events[:2], start=1):
        assert send(clients["owner"], frame.pk, payload, seq).status_code == 201
    for who, seen in _watchers(frame.pk, answer["id"], clients).items():
        for what in ("state", "events", "pad", "list"):
            if what in seen:
                assert keys_named(seen[what], "private") == [], (who, what)
        assert seen["state"]["dump"] is None and seen["state"]["sealed"] == ["private"]
        assert seen["pad"]["state"]["dump"] is None
        assert "private" not in seen["pad"]["state"]["setup"]
        assert '"private"' not in seen["pages"] and "totals" not in seen["pages"]
        for ball in private.values():
            assert f">{ball}<" not in seen["ball_page"].decode(), who
    # Played to the end: the state shows every ball, the pad may run its engine again.
    for seq, payload in enumerate(events[2:], start=3):
        assert send(clients["owner"], frame.pk, payload, seq).status_code == 201
    state = clients["public"].get(reverse("api-frame-state", args=[frame.pk])).json()
    assert state["view"]["over"] is True and sorted(state["view"]["private"]) == sorted(PLAYERS)
    assert state["setup"]["private"] == private and state["dump"] is not None
    after = clients["public"].get(reverse("frame-private-ball", args=[frame.pk])).content
    assert all(f"<dd>{ball}</dd>" in after.decode() for ball in private.values())


def test_the_referee_hands_the_pad_round_one_ball_at_a_time():
    owner = UserFactory()
    client = signed_in(owner)
    frame = Frame.objects.get(pk=start(client, "kelly_pool").json()["frame"])
    private = frame.setup["private"]
    url = reverse("frame-private-ball", args=[frame.pk])
    listing = client.get(url)
    assert listing.status_code == 200 and "no-store" in listing["Cache-Control"]
    assert all(f'value="{name}"' in listing.content.decode() for name in PLAYERS)
    confirm = client.post(url, {"player": "Bob", "step": "confirm"}).content.decode()
    assert "Hand the phone to <strong>Bob</strong>" in confirm and 'id="ball"' not in confirm
    shown = client.post(url, {"player": "Bob", "step": "show"}).content.decode()
    assert f'<p class="private-ball-number" id="ball">{private["Bob"]}</p>' in shown
    assert shown.count('id="ball"') == 1 and "Ann" not in shown and "Cat" not in shown
    assert client.post(url, {"player": "Zed", "step": "show"}).status_code == 400


def test_nobody_else_can_ask_for_a_ball():
    owner, stranger = UserFactory(), UserFactory()
    frame = Frame.objects.get(pk=start(signed_in(owner), "pin_pool").json()["frame"])
    private = frame.setup["private"]
    url = reverse("frame-private-ball", args=[frame.pk])
    for client in (signed_in(stranger), Client()):
        refused = client.post(url, {"player": "Ann", "step": "show"})
        assert refused.status_code == 403
        assert 'id="ball"' not in refused.content.decode()
        page = client.get(url).content.decode()
        assert "secret until the game is over" in page and "I am" not in page
    assert frame.setup["private"] == private


def test_a_player_sees_their_own_ball_on_their_own_phone_and_no_one_elses():
    from frames.engine import service_draws, side_setup

    ann_user, bob_user = UserFactory(), UserFactory()
    ann = PlayerFactory(name="Ann", user=ann_user)
    bob = PlayerFactory(name="Bob", user=bob_user)
    setup, parties = side_setup(
        "kelly_pool", {"home": ["Ann"], "away": ["Bob"]}, None, rng=service_draws()
    )
    frame = FrameFactory(game_id="kelly_pool", setup=setup, parties=parties)
    FramePlayerFactory(frame=frame, side="home", player=ann)
    FramePlayerFactory(frame=frame, side="away", player=bob)
    url = reverse("frame-private-ball", args=[frame.pk])
    client = signed_in(ann_user)
    page = client.get(url).content.decode()
    assert "Show my ball (Ann)" in page and 'value="Bob"' not in page
    mine = client.post(url, {"player": "Ann", "step": "show"}).content.decode()
    assert f'id="ball">{setup["private"]["Ann"]}</p>' in mine
    assert client.post(url, {"player": "Bob", "step": "show"}).status_code == 403
    # The pad of the league frame shows neither ball to anyone, Ann included.
    pad = pad_context(client.get(reverse("frame-pad", args=[frame.pk])).content.decode())
    assert "private" not in pad["state"]["setup"] and pad["state"]["dump"] is None
    live = Client().get(reverse("api-match-live", args=[frame.match_id])).json()
    assert keys_named(live, "private") == [] and "setup" not in json.dumps(live)


def test_the_archive_seals_a_game_in_play_and_keeps_a_finished_one():
    from frames.engine import service_draws, side_setup

    referee_user = UserFactory()
    setup, parties = side_setup(
        "forty_one_pool", {"home": ["Ann"], "away": ["Bob"]}, None, rng=service_draws()
    )
    frame = FrameFactory(
        game_id="forty_one_pool",
        setup=setup,
        parties=parties,
        referee=PlayerFactory(name="Ref", user=referee_user),
    )
    FramePlayerFactory(frame=frame, side="home", player=PlayerFactory(name="Ann"))
    FramePlayerFactory(frame=frame, side="away", player=PlayerFactory(name="Bob"))
    league = frame.match.fixture.season.league
    events = simulate_game(registry.get("forty_one_pool"), setup, seed=5)
    client = signed_in(referee_user)
    answer = send(client, frame.pk, events[0], 1)
    assert answer.status_code == 201, answer.json()
    assert FrameEvent.objects.get(frame=frame).state_after["private"]  # kept in the log
    archive = league_export(league=league, full=True)
    assert keys_named(archive, "private") == []
    for seq, payload in enumerate(events[1:], start=2):
        assert send(client, frame.pk, payload, seq).status_code == 201
    archive = league_export(league=league, full=True)
    assert [setup["private"][p] for p in ("Ann", "Bob")] in keys_named(archive, "private")


def test_a_cup_tie_frame_of_a_private_game_is_drawn_and_sealed(league):
    from competitions.models import Tie
    from competitions.services.entries import entry_create
    from competitions.services.pad import tie_frame_open
    from competitions.services.setup import competition_create
    from tests.competitions.helpers import NOW, drawn, registered_players

    league.season.game_id = "kelly_pool"
    league.season.save(update_fields=["game_id"])
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Kelly cup", kind="singles", now=NOW
    )
    a, b = registered_players(league, 2)
    for player in (a, b):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    tie = Tie.objects.get(competition=drawn(comp, league.secretary))
    frame = tie_frame_open(actor=league.secretary, tie=tie, now=NOW).frame
    assert sorted(frame.setup["private"]) == sorted(frame.setup["players"])
    state = Client().get(reverse("api-frame-state", args=[frame.pk])).json()
    assert keys_named(state, "private") == [] and state["dump"] is None
