"""Issue 28, item 19: every option a game declares has a control on the start page, built
from its declaration (a number box, a line of numbers, a name, one control per field of an
object, one per variant of a union, `name: value` lines with a card picker for a hand), and
none for what the service draws; item 22: a finished friendly awaiting its confirmation
says so."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from frames.friendly import services
from frames.friendly.forms import SEATING, FriendlyForm, drawn_by_service
from frames.models import Friendly
from frames.pad.events import frame_record_event
from rules import registry
from rules.ledger import EXAMPLE_DEAL
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HANDS = "\n".join(f"{name}: {' '.join(cards)}" for name, cards in EXAMPLE_DEAL["hands"].items())


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def start(client, game_id: str, **fields):
    return client.post(
        reverse("friendly-new"), {"game": game_id, "title": "", "start": "1", **fields}
    )


@pytest.mark.parametrize("game_id", [g for g, _ in registry.game_choices()])
def test_every_declared_option_has_a_control_on_the_start_page(game_id):
    page = signed_in(UserFactory()).get(reverse("friendly-new"), {"game": game_id})
    html = page.content.decode()
    for option in registry.get(game_id).describe()["setup"]:
        name = option["name"]
        if name in SEATING:
            continue
        control = re.compile(rf'name="opt_{name}(__[a-z0-9_]+)?"')
        if drawn_by_service(option):
            assert not control.search(html)  # the service draws it
        else:
            assert control.search(html), f"{game_id}: no control for {name}"


def test_private_balls_are_left_to_the_service_by_the_declarations_flag_else_by_name():
    assert drawn_by_service({"name": "private"})
    assert not drawn_by_service({"name": "private", "drawn_by_service": False})
    assert drawn_by_service({"name": "secret", "drawn_by_service": True})
    assert "opt_private" not in FriendlyForm(game_id="kelly_pool").fields
    assert "opt_private_range" in FriendlyForm(game_id="kelly_pool").fields


def test_life_pools_lives_one_number_for_all_or_each_players():
    client = signed_in(UserFactory())
    assert start(client, "two_ball_pool", players="Ann\nBob", opt_lives__all="5").status_code == 302
    assert Friendly.objects.get().frame.setup["lives"] == 5
    answer = start(client, "two_ball_pool", players="Ann\nBob", opt_lives__each="Ann: 2\nBob: 4")
    assert answer.status_code == 302
    assert Friendly.objects.latest("pk").frame.setup["lives"] == {"Ann": 2, "Bob": 4}


def test_both_variants_of_a_union_are_refused_and_nothing_is_started():
    client = signed_in(UserFactory())
    answer = start(
        client, "two_ball_pool", players="Ann\nBob", opt_lives__all="5", opt_lives__each="Ann: 2"
    )
    assert answer.status_code == 200 and "not both" in answer.content.decode()
    assert not Friendly.objects.exists()


def test_a_list_an_object_and_a_name_from_the_players():
    client = signed_in(UserFactory())
    answer = start(
        client,
        "space_game",
        players="Ann\nBob",
        opt_leads="Bob",
        opt_space_limits__corner="4",
    )
    assert answer.status_code == 302
    setup = Friendly.objects.get().frame.setup
    assert setup["leads"] == "Bob" and setup["space_limits"]["corner"] == 4
    answer = start(client, "mississippi", players="Ann\nBob", opt_arches="8 7 6 5 4 3 2 1")
    assert answer.status_code == 302
    assert Friendly.objects.latest("pk").frame.setup["arches"] == [8, 7, 6, 5, 4, 3, 2, 1]


def test_a_bad_list_is_named_and_nothing_is_started():
    client = signed_in(UserFactory())
    answer = start(client, "mississippi", players="Ann\nBob", opt_arches="6 4 one")
    assert answer.status_code == 200 and "“one” is not a whole number" in answer.content.decode()
    assert not Friendly.objects.exists()


def test_bouillotte_is_started_from_names_with_its_hands_and_turned_card():
    client = signed_in(UserFactory())
    page = client.get(reverse("friendly-new"), {"game": "bouillotte"}).content.decode()
    assert 'name="opt_hands"' in page and "data-picker=" in page and "&quot;AS&quot;" in page
    answer = start(client, "bouillotte", players="A\nB\nC\nD", opt_hands=HANDS, opt_turned='"AS"')
    assert answer.status_code == 302, answer.content.decode()[:2000]
    setup = Friendly.objects.get().frame.setup
    assert setup["hands"] == EXAMPLE_DEAL["hands"] and setup["turned"] == "AS"


def test_a_card_dealt_twice_is_the_engines_refusal_and_nothing_is_started():
    client = signed_in(UserFactory())
    twice = HANDS.replace("B: QS", "B: AD")
    answer = start(client, "bouillotte", players="A\nB\nC\nD", opt_hands=twice, opt_turned='"AS"')
    assert answer.status_code == 200 and "dealt twice" in answer.content.decode()
    assert not Friendly.objects.exists()


def test_a_finished_friendly_awaiting_confirmation_says_so_not_in_play():
    owner = UserFactory()
    options = {k: v for k, v in EXAMPLE_DEAL.items() if k != "players"}
    game = services.friendly_start(
        owner=owner, game_id="bouillotte", players=["A", "B", "C", "D"], options=options
    )
    for seq, event in enumerate([{"type": "decline"}] + [{"type": "pass"}] * 4, start=1):
        frame_record_event(
            frame_id=game.frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=owner,
            device_id="test",
            now=timezone.now(),
        )
    client = signed_in(owner)
    for url in (reverse("friendly-detail", args=[game.pk]), reverse("friendly-list")):
        html = client.get(url).content.decode()
        assert "Game over · awaiting confirmation" in html and "In play" not in html
