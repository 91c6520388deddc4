"""The pad under the referee's thumb, on a phone: a refused shot is shown where the thumb
is (at the send button, not above the board) and later taps do not queue silently behind
it; the note about shots still on the phone moves no button when it comes and goes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules import registry
from tests.e2e.test_pad import board, open_pad, stored, tap_shot, wait_until
from tests.e2e.test_pad_families import game_frame, tap_event
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = pytest.mark.django_db(transaction=True)

# Where every visible control is on the screen (what the thumb aims at).
CONTROLS_ON_SCREEN = """() => Array.from(document.querySelectorAll('#controls button'))
    .filter((b) => b.offsetParent !== null)
    .map((b) => { const r = b.getBoundingClientRect();
                  return [b.textContent.trim(), Math.round(r.left), Math.round(r.top)]; })"""


def test_a_refused_shot_is_shown_at_the_thumb_and_holds_later_taps(phone, league):
    frame = game_frame(league, "three_cushion_carom")
    describe = registry.get("three_cushion_carom").describe()
    context = phone(league.player_user, service_workers="block")
    context.route("**/vendor/pyodide/**", lambda route: route.abort())  # the server judges
    page = open_pad(context, frame)
    page.set_viewport_size({"width": 360, "height": 640})  # a small phone
    tap_event(page, describe, {"type": "stroke", "contacts": ["red"]})  # a miss
    wait_until(page, lambda: len(stored(frame)) == 1)
    # the balls "returned" from a space they were never reported in: the server refuses
    tap_event(page, describe, {"type": "stroke", "returned": True})
    refused = page.locator("#rejected")
    expect(refused).to_be_visible(timeout=20_000)
    expect(refused).to_be_in_viewport()
    expect(page.locator("#rejected-discard")).to_be_in_viewport()
    # No later shot queues behind it unseen: the controls wait for the referee's choice.
    panel = page.locator('.event-panel[data-type="stroke"]')
    panel.locator('[data-field="contacts"] button.pick[data-value="red"]').first.tap()
    expect(panel.locator('button[data-enter="stroke"]')).to_be_disabled()
    expect(panel.locator('button[data-enter="stroke"]')).to_contain_text("Refused")
    expect(page.locator("#undo")).to_be_disabled()
    assert len(page.evaluate("MarkerPad.outbox()")) == 1
    page.locator("#rejected-discard").tap()
    expect(refused).to_be_hidden()
    expect(panel.locator('button[data-enter="stroke"]')).to_be_enabled()
    assert [p for *_, p in stored(frame)] == [{"type": "stroke", "contacts": ["red"]}]


def test_the_note_about_shots_on_the_phone_moves_no_control(phone, league):
    frame = make_frame(make_match(league), referee=referee_player(league))
    context = phone(league.player_user)
    page = open_pad(context, frame)

    def on_screen():
        page.evaluate("() => window.scrollTo(0, 0)")
        return page.evaluate(CONTROLS_ON_SCREEN)

    before = on_screen()
    context.set_offline(True)
    tap_shot(page, ("white", 50))
    note = page.locator("#estimate")
    expect(note).to_contain_text("1 shot not yet stored")
    assert on_screen() == before
    context.set_offline(False)
    page.evaluate("MarkerPad.drain()")
    expect(page.locator("#sync-status")).to_have_text("online", timeout=20_000)
    expect(note).to_have_text("")
    expect(board(page, "home").locator(".banked")).to_have_text("0")
    assert on_screen() == before
