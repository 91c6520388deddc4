"""Issue 28, items 19, 20 and 22, on a phone (Debian's Chromium): every option a game declares
has a control on the start page (life pool's lives a number box, Bouillotte's hands a card
picker); Mississippi's and the bagatelles' played-ball fields first, with Enter waiting for
a ball; Bouillotte's pad one form a turn with its pot in words; a finished friendly awaiting
its confirmation says so; the pad's top line and the match scorecard fit a 320 px phone."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from frames.friendly import services as friendly
from frames.models import FrameEvent, Friendly
from frames.pad.events import frame_record_event
from rules.ledger import EXAMPLE_DEAL
from tests.e2e.test_pad import open_pad, stored, wait_until
from tests.e2e.test_pad_families import game_frame

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("PAD_SCREENSHOTS", "test-results/pad"))
DEAL = {k: v for k, v in EXAMPLE_DEAL.items() if k != "players"}  # A B C D, dealer D


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def start_page(context, game_id: str):
    page = context.new_page()
    page.goto(reverse("friendly-new"))
    page.select_option("#id_game", game_id)  # htmx brings the game's options in
    page.wait_for_selector("#game-options [name^='opt_']")
    return page


def test_life_pool_lives_is_a_number_box_on_the_start_page(phone, league):
    context = phone(league.player_user)
    page = start_page(context, "two_ball_pool")
    lives = page.locator('input[name="opt_lives__all"]')
    expect(lives).to_be_visible()
    assert lives.get_attribute("type") == "number"
    page.fill("#id_players", "Ann\nBob\nCat")
    lives.fill("5")
    shoot(page, "start-life-pool")
    page.locator('button[name="start"]').tap()
    page.wait_for_selector("#pad[data-ready='1']")
    game = Friendly.objects.get(owner=league.player_user)
    assert game.frame.setup["lives"] == 5


def test_bouillotte_is_started_from_names_with_the_card_picker(phone, league):
    context = phone(league.player_user)
    page = start_page(context, "bouillotte")
    assert page.locator('[name="opt_private"]').count() == 0
    page.fill("#id_players", "A\nB\nC\nD")
    picker = page.locator(".picker")
    expect(picker.locator(".picker-row")).to_have_count(4)
    for name, cards in EXAMPLE_DEAL["hands"].items():
        row = picker.locator(f'.picker-row[data-key="{name}"]')
        for card in cards:
            row.locator(f'button[data-value="{card}"]').tap()
        expect(row.locator("output")).not_to_have_text("–")
    # a card one player holds is off for the others
    expect(picker.locator('.picker-row[data-key="B"] button[data-value="AD"]')).to_be_disabled()
    page.select_option('select[name="opt_turned"]', label="AS")
    shoot(page, "start-bouillotte")
    picker.screenshot(path=str(SHOTS / "start-bouillotte-picker.png"))
    page.locator('button[name="start"]').tap()
    page.wait_for_selector("#pad[data-ready='1']")
    setup = Friendly.objects.get(owner=league.player_user).frame.setup
    assert setup["hands"] == EXAMPLE_DEAL["hands"] and setup["turned"] == "AS"


def test_mississippi_shows_the_played_balls_fields_first_and_waits_for_a_ball(phone, league):
    frame = game_frame(league, "mississippi")
    page = open_pad(phone(league.player_user), frame)
    panel = page.locator('.event-panel[data-type="ball"]')
    fields = panel.locator(":scope > [data-field]")
    names = [fields.nth(i).get_attribute("data-field") for i in range(fields.count())]
    assert names == ["to", "arch", "first_hit", "cushion", "others"]
    for name in ("to", "arch", "first_hit", "cushion"):
        expect(panel.locator(f':scope > [data-field="{name}"]')).to_be_visible()
    enter = panel.locator('button[data-enter="ball"]')
    expect(enter).to_be_disabled()
    expect(enter).to_have_text("Choose to or arch")
    shoot(page, "mississippi-first")
    arch = panel.locator(':scope > [data-field="arch"] button.pick[data-value="1"]')
    arch.tap()
    panel.locator(':scope > [data-field="cushion"] button.pick[data-value="true"]').tap()
    expect(enter).to_be_enabled()
    enter.tap()
    wait_until(page, lambda: len(stored(frame)) == 1)
    assert stored(frame)[0][3] == {"type": "ball", "arch": 1, "cushion": True}


@pytest.mark.parametrize("game_id", ["northern_bagatelle", "english_bagatelle"])
def test_the_bagatelles_first_hit_and_cushion_are_not_folded(phone, league, game_id):
    frame = game_frame(league, game_id)
    page = open_pad(phone(league.player_user), frame)
    panel = page.locator('.event-panel[data-type="ball"]')
    for name in ("to", "first_hit", "cushion", "others"):
        expect(panel.locator(f':scope > [data-field="{name}"]')).to_be_visible()
    expect(panel.locator('button[data-enter="ball"]')).to_be_disabled()  # "to" is required


def play(page, action: str) -> None:
    before = page.evaluate("MarkerPad.entered()")
    page.locator(f'.moves-row button[data-action="{action}"]').tap()
    page.wait_for_function("n => MarkerPad.entered() > n", arg=before)


def test_bouillottes_pad_is_one_form_a_turn_with_the_pot_in_words(phone, league):
    game = friendly.friendly_start(
        owner=league.player_user, game_id="bouillotte", players=["A", "B", "C", "D"], options=DEAL
    )
    frame = game.frame
    page = open_pad(phone(league.player_user), frame)
    controls = page.locator("#controls")
    moves = controls.locator(".moves-row button.move:visible")
    # the straddle offered: two taps on offer, no tabs, no form
    expect(moves).to_have_text(["Straddle", "Decline"])
    expect(controls.locator("#event-tabs")).to_be_hidden()
    expect(controls.locator(".event-panel:visible")).to_have_count(0)
    expect(page.locator("#fact-pots")).to_have_text("5 chips, players A, B, C, D")
    shoot(page, "bouillotte-straddle")
    play(page, "decline")
    wait_until(page, lambda: len(stored(frame)) == 1)
    # the opening: one form (chips, Enter), pass and va tout one tap each
    expect(moves).to_have_text(["Pass", "Va tout"], timeout=15_000)
    panel = controls.locator(".event-panel:visible")
    expect(panel).to_have_count(1)
    assert panel.get_attribute("data-type") == "open"
    expect(panel.locator('[data-field="player"]')).to_be_hidden()  # who acts: behind More
    panel.locator('button.key[data-key="3"]').tap()
    panel.locator('button[data-enter="open"]').tap()
    wait_until(page, lambda: len(stored(frame)) == 2)
    expect(moves).to_have_text(["Call", "Fold", "Va tout"], timeout=15_000)
    expect(controls.locator(".event-panel:visible")).to_have_attribute("data-type", "raise")
    shoot(page, "bouillotte-bet")
    for _ in range(2):
        play(page, "call")
    play(page, "fold")
    wait_until(page, lambda: len(stored(frame)) == 5)
    assert [p for *_, p in stored(frame)] == [
        {"type": "decline"},
        {"type": "open", "chips": 3},
        {"type": "call"},
        {"type": "call"},
        {"type": "fold"},
    ]


def finished_bouillotte(league):
    """A friendly deal thrown in (the straddle declined, everyone passes): over, and not
    yet confirmed on the pad."""
    game = friendly.friendly_start(
        owner=league.player_user,
        game_id="bouillotte",
        players=["A", "B", "C", "D"],
        options=DEAL,
        title="Bouillotte at the Adam and Eve on a wet Tuesday night: A v B v C v D",
    )
    events = [{"type": "decline"}] + [{"type": "pass"}] * 4
    for seq, event in enumerate(events, start=1):
        frame_record_event(
            frame_id=game.frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=league.player_user,
            device_id="test",
            now=timezone.now(),
        )
    game.frame.refresh_from_db()
    assert game.frame.view["over"] and game.frame.status != "complete"
    return game


def test_a_finished_friendly_awaiting_confirmation_says_so(phone, league):
    game = finished_bouillotte(league)
    page = phone(league.player_user).new_page()
    page.goto(reverse("friendly-detail", args=[game.pk]))
    live = page.locator("#friendly-live")
    expect(live).to_contain_text("Game over · awaiting confirmation")
    expect(live).not_to_contain_text("In play")
    page.goto(reverse("friendly-list"))
    expect(page.locator("main")).to_contain_text("Game over · awaiting confirmation")


def test_the_pads_top_line_shows_the_whole_name_on_a_320px_phone(phone, league):
    game = finished_bouillotte(league)
    page = open_pad(phone(league.player_user), game.frame)
    page.set_viewport_size({"width": 320, "height": 640})
    crumb = page.locator("#crumb-home")
    expect(crumb).to_have_text(game.title)
    cut = crumb.evaluate(
        "a => a.scrollWidth > a.clientWidth + 1 || a.parentElement.scrollWidth > a.parentElement.clientWidth + 1"
    )
    assert not cut
    box = crumb.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
    shoot(page, "pad-top-320")


def test_the_match_scorecard_fits_a_320px_phone_with_its_score(phone, league):
    frame = game_frame(league, "bar_billiards_4pin")
    page = phone(league.player_user).new_page()
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(reverse("match-detail", args=[frame.match_id]))
    card = page.locator("table.scorecard")
    expect(card).to_be_visible()
    scroller = page.locator(".table-scroll").first
    assert scroller.evaluate("n => n.scrollWidth <= n.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    score = card.locator("tbody tr").first.locator("td.score")
    box = score.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
    shoot(page, "scorecard-320")
    assert FrameEvent.objects.count() == 0
