"""The generic pad in a real browser (Debian's Chromium, phone-sized), for one game of
each family in the registry: a whole game tapped out through the controls built from
`describe()` (the events chosen by `rules.simulate.simulate_game`), with an offline spell
of several shots and a reload while offline; the pad's offline display (the rules engine
running in the browser on Pyodide) must equal the server's state once synced, and the log
must hold every event once, in order. Also: the pad is usable before Pyodide has loaded,
and an event the offline engine refuses is shown as refused and not sent."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from frames.models import Frame, FrameEvent
from frames.pad.views import pyodide_available
from rules import registry
from rules.core import replay
from rules.seating import setup_for
from rules.simulate import simulate_game
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("PAD_SCREENSHOTS", "test-results/pad"))
OFFLINE_SHOTS = 5


def one_game_per_family() -> list[str]:
    """The first game of each family that can be set up from players' names alone (not one
    whose setup needs the cards dealt); every such game with PAD_ALL_GAMES=1 (slow)."""
    playable = [
        game
        for game in registry.games()
        if not any(option["required"] for option in game.describe()["setup"])
    ]
    if os.environ.get("PAD_ALL_GAMES"):
        return sorted(game.id for game in playable)
    seen: dict[str, str] = {}
    for game in playable:
        seen.setdefault(game.family, game.id)
    return sorted(seen.values())


# Options that keep a browser game short (what a family author would call a short game).
SHORT = {"carom": {"target": 3}}


def short_events(game, setup: dict[str, Any], *, at_least: int):
    """The shortest simulated game (over seeds 0-39) with at least `at_least` events, or
    the longest of a game whose games are all shorter."""
    games = [simulate_game(game, setup, seed=seed) for seed in range(40)]
    long_enough = [events for events in games if len(events) >= at_least]
    if long_enough:
        return min(long_enough, key=len)
    return max(games, key=len)


# ----------------------------------------------------------------- event -> taps


def _key(value: Any) -> str:
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _is_fouls(field: dict, fouls: set[str]) -> bool:
    item = field.get("item") or {}
    return (
        field["type"] == "list"
        and bool(item.get("choices"))
        and all(c in fouls for c in item["choices"])
        and bool(fouls)
    )


def _is_who(field: dict) -> bool:
    """Who acts, by the vocabulary's convention: an optional `player` or `by` from the
    seating (the pad leaves it to the player at the table)."""
    return (
        not field["required"]
        and field["type"] == "str"
        and field.get("choices_from") in ("players", "parties", "sides")
        and field["name"] in ("player", "by")
    )


def _visible(locator) -> bool:
    return locator.count() > 0 and locator.first.is_visible()


def _pick(scope, value: Any):
    """Tap the chip for `value` in `scope` (a control's node), unless it is pressed."""
    button = scope.locator(
        'button.pick[data-null="1"]'
        if value is None
        else f'button.pick[data-value="{_key(value)}"]'
    ).first
    if button.get_attribute("aria-pressed") != "true":
        button.tap()


def _number(scope, value: float):
    text = str(value)
    for char in text.lstrip("-"):
        scope.locator(f'button.key[data-key="{char}"]').tap()
    if text.startswith("-"):
        scope.locator('button.key[data-key="-"]').tap()


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "str"
    return "list" if isinstance(value, list) else "object"


def _chips(field: dict) -> bool:
    """The pad shows a row of chips: choices, a bool, a whole number in a short range."""
    lo, hi = field.get("minimum"), field.get("maximum")
    short = field["type"] == "int" and lo is not None and hi is not None and hi - lo < 16
    return bool(field.get("choices") or field["type"] == "bool" or short)


def _all_choices(field: dict) -> bool:
    """A union whose variants are all choice scalars is shown as one row of chips."""
    return field["type"] == "union" and all(
        (_chips(v) or v.get("choices_from")) and v["type"] not in ("list", "object")
        for v in field["variants"]
    )


def _set(scope, field: dict, value: Any, fouls: set[str]):
    """Enter `value` for `field` in the control `scope`."""
    kind = field["type"]
    item = field.get("item") or {}
    if kind == "object" and not field.get("fields") and item and field.get("choices_from"):
        for key, count in value.items():  # one stepper a key, from nothing: + gives 1
            row = scope.locator(f'.keyed-row[data-key="{key}"]')
            for _ in range(max(count, 1)):
                row.locator('button[data-step="+"]').tap()
            if count == 0:
                row.locator('button[data-step="-"]').tap()
        return
    if _is_fouls(field, fouls):
        for code in value:
            button = scope.locator(f'button.foul[data-foul="{code}"]')
            if not button.is_visible():
                scope.locator("details.more-fouls > summary").tap()
            button.tap()
        return
    if kind == "list" and item and (_chips(item) or item.get("choices_from") or _all_choices(item)):
        for v in value:
            scope.locator(f'button.pick[data-value="{_key(v)}"]').first.tap()
        return
    if kind == "list" and item.get("type") == "object" and item.get("fields"):
        subfields = item["fields"]
        # the pad's commit field: the last required choice field, else the last required
        # union of choices (a tap on one of its values adds the item)
        commit = next(
            (
                f
                for f in reversed(subfields)
                if f["required"] and f["type"] != "union" and (_chips(f) or f.get("choices_from"))
            ),
            None,
        ) or next((f for f in reversed(subfields) if f["required"] and _all_choices(f)), None)
        for obj in value:
            for sub in subfields:
                if sub is commit or sub["name"] not in obj:
                    continue
                _set(
                    scope.locator(f'[data-sub="{sub["name"]}"]').first, sub, obj[sub["name"]], fouls
                )
            if commit is not None:
                commit_scope = scope.locator(f'.commit[data-sub="{commit["name"]}"]')
                commit_scope.locator(f'button.pick[data-value="{_key(obj[commit["name"]])}"]').tap()
            else:
                scope.locator('button[data-act="add"]').tap()
        return
    if _chips(field) or field.get("choices_from") or _all_choices(field):
        _pick(scope, value)
        return
    if kind == "union":
        names = [v["name"] for v in field["variants"]]
        index = next(i for i, v in enumerate(field["variants"]) if v["type"] == _json_type(value))
        scope.locator(f'button.variant[data-variant="{names[index]}"]').tap()
        part = scope.locator(".union > :not(.variants)").nth(index)
        _set(part, field["variants"][index], value, fouls)
        return
    if kind in ("int", "number"):
        _number(scope, value)
        return
    if kind == "object" and field.get("fields"):
        for sub in field["fields"]:
            if sub["name"] in value:
                _set(
                    scope.locator(f'[data-sub="{sub["name"]}"]').first,
                    sub,
                    value[sub["name"]],
                    fouls,
                )
        return
    scope.locator("input, textarea").first.fill(value if kind == "str" else json.dumps(value))


def tap_event(page: Page, describe: dict, event: dict):
    """Tap the controls that make `event` (a dict the engine accepts), then send it."""
    spec = next(e for e in describe["events"] if e["type"] == event["type"])
    fouls = {f["code"] for f in describe["fouls"]}
    controls = page.locator("#controls")
    if all(_is_who(f) for f in spec["fields"]):  # a move: one tap (who acts: the one at the table)
        controls.locator(f'button[data-action="{event["type"]}"]').tap()
        return
    panel = controls.locator(f'.event-panel[data-type="{event["type"]}"]')
    if not panel.is_visible():
        controls.locator(f'#event-tabs button[data-type="{event["type"]}"]').tap()
    for field in spec["fields"]:
        if field["name"] not in event:
            continue
        scope = panel.locator(f'[data-field="{field["name"]}"]').first
        if not scope.is_visible():
            panel.locator("details.more > summary").tap()
        _set(scope, field, event[field["name"]], fouls)
    enter = panel.locator(f'button[data-enter="{event["type"]}"]')
    expect(enter).to_be_enabled()
    before = page.evaluate("MarkerPad.entered()")
    enter.tap()
    # A tap's click reaches the page after tap() returns: wait until the panel has taken
    # it (and reset its choices), or the next event's chips would still show this one's.
    page.wait_for_function("n => MarkerPad.entered() > n", arg=before)


# ------------------------------------------------------------------- helpers


def without_empty_lists(event: dict, describe: dict) -> dict:
    """The event as the pad sends it: a list field left empty is left out (its default)."""
    spec = next(e for e in describe["events"] if e["type"] == event["type"])
    defaults = {f["name"]: f["default"] for f in spec["fields"]}
    return {k: v for k, v in event.items() if not (v == [] and defaults.get(k) == [])}


def open_pad(context, frame) -> Page:
    page = context.new_page()
    page.goto(f"/frames/{frame.pk}/pad/")
    page.wait_for_selector("#pad[data-ready='1']")
    return page


def stored(frame) -> list[tuple[int, str, str, dict]]:
    return [
        (seq, str(event_id), kind, payload)
        for seq, event_id, kind, payload in FrameEvent.objects.filter(frame=frame)
        .order_by("seq")
        .values_list("seq", "event_id", "kind", "payload")
    ]


def wait_until(page: Page, condition, timeout_ms: int = 20_000):
    for _ in range(timeout_ms // 100):
        if condition():
            return
        page.wait_for_timeout(100)
    assert condition()


def server_state(page: Page, frame) -> dict:
    return page.evaluate(
        "url => fetch(url, {cache: 'no-store'}).then(r => r.json())",
        f"/api/frames/{frame.pk}/state/",
    )


def snap(page: Page, name: str):
    """A full-page screenshot from the top (the sticky header stays where it belongs)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def shown(page: Page) -> dict:
    return page.evaluate("MarkerPad.shownView()")


def expected_display(view: dict, describe: dict) -> dict:
    """What the pad's facts hold for a view: each display key (but scores), as JSON."""
    facts = {}
    for d in describe["display"]:
        key = d["key"]
        if key == "scores" or view.get(key) is None:
            continue
        facts[key] = view[key]
    return facts


def game_frame(league, game_id: str, number: int = 1) -> Frame:
    match = make_match(league)
    frame = make_frame(match, number=number, game_id=game_id, referee=referee_player(league))
    game = registry.get(game_id)
    names = {
        side: [slot.player.name for slot in frame.players.filter(side=side).order_by("position")]
        for side in ("home", "away")
    }
    frame.setup = setup_for(game, names, SHORT.get(game.family))
    frame.save(update_fields=["setup"])
    return frame


# Locally the offline tests are skipped without Pyodide; in CI a missing Pyodide is an
# error (the tests run and fail), never a skip.
needs_pyodide = pytest.mark.skipif(
    not pyodide_available() and os.environ.get("CI", "").lower() not in {"1", "true", "yes"},
    reason="Pyodide is not installed (scripts/fetch-pyodide)",
)


# --------------------------------------------------------------------- tests


@needs_pyodide
@pytest.mark.parametrize("game_id", one_game_per_family())
def test_a_whole_game_of_each_family_with_an_offline_spell(phone, league, game_id):
    game = registry.get(game_id)
    describe = game.describe()
    frame = game_frame(league, game_id)
    events = short_events(game, frame.setup, at_least=OFFLINE_SHOTS + 6)
    first = min(3, max(1, len(events) // 4))  # online, then offline, then online to the end
    spell_length = min(OFFLINE_SHOTS, max(1, len(events) - first - 1))
    context = phone(league.player_user)
    page = open_pad(context, frame)
    status = page.locator("#sync-status")
    tag = game.id if os.environ.get("PAD_ALL_GAMES") else game.family
    snap(page, f"{tag}-start")

    for event in events[:first]:
        tap_event(page, describe, event)
    wait_until(page, lambda: len(stored(frame)) == first)
    expect(status).to_have_text("online")
    page.wait_for_function(
        "async () => !!navigator.serviceWorker.controller && !!(await caches.match(location.pathname))"
    )
    page.wait_for_function("() => MarkerPad.engine() === 'ready'", timeout=90_000)
    page.wait_for_function("() => MarkerPad.engineCached()", timeout=90_000, polling=250)

    context.set_offline(True)
    spell = events[first : first + spell_length]
    for n, event in enumerate(spell, start=1):
        tap_event(page, describe, event)
        expect(status).to_have_text(f"saved on phone ({n} waiting)")
    expect(page.locator("#estimate")).to_have_attribute("data-source", "engine", timeout=20_000)
    snap(page, f"{tag}-offline")
    queued = page.evaluate("MarkerPad.outbox().then(items => items.map(i => i.event_id))")
    assert len(queued) == spell_length and len(stored(frame)) == first

    page.reload()  # offline: the service worker serves the page, Pyodide and the engine
    page.wait_for_selector("#pad[data-ready='1']")
    expect(status).to_have_text(f"saved on phone ({spell_length} waiting)")
    page.wait_for_function("() => MarkerPad.engine() === 'ready'", timeout=90_000)
    expect(page.locator("#estimate")).to_have_attribute("data-source", "engine", timeout=20_000)
    offline_display = shown(page)

    context.set_offline(False)
    page.evaluate("MarkerPad.drain()")
    expect(status).to_have_text("online", timeout=30_000)
    state = server_state(page, frame)
    assert offline_display["facts"] == expected_display(state["view"], describe)
    assert offline_display["scores"] == {
        party: page.evaluate("v => String(v)", score) if not isinstance(score, str) else score
        for party, score in (state["view"].get("scores") or {}).items()
    }
    assert shown(page)["facts"] == offline_display["facts"]  # the server agrees

    for event in events[first + spell_length :]:
        tap_event(page, describe, event)
    expect(status).to_have_text("online", timeout=30_000)
    expect(page.locator("#result")).to_be_visible()
    snap(page, f"{tag}-over")
    # The frame is over: the shot controls are off (Undo stays).
    expect(page.locator(".event-panel button.enter").first).to_be_disabled()

    log = stored(frame)
    assert [seq for seq, *_ in log] == list(range(1, len(events) + 1))
    # nothing lost, nothing doubled (an empty list is what the pad leaves out: the default)
    assert [payload for *_, payload in log] == [without_empty_lists(e, describe) for e in events]
    assert [event_id for _, event_id, _, _ in log[first : first + spell_length]] == queued
    done = Frame.objects.get(pk=frame.pk)
    assert game.outcome(game.load(done.state)).over
    assert done.view["over"] is True
    # the whole game: the stored view is the log replayed, and what the pad showed at the end
    final = server_state(page, frame)
    assert final["last_seq"] == len(events) and final["view"] == done.view
    assert done.view == game.view(replay(game, done.setup, [p for *_, p in log]))
    assert shown(page)["facts"] == expected_display(done.view, describe)


def test_the_pad_is_usable_before_pyodide_has_loaded(phone, league):
    frame = game_frame(league, "three_cushion_carom")
    context = phone(league.player_user, service_workers="block")
    context.route("**/vendor/pyodide/**", lambda route: route.abort())
    page = open_pad(context, frame)
    describe = registry.get("three_cushion_carom").describe()
    event = {"type": "stroke", "contacts": ["red", "cushion", "cushion", "cushion", "white"]}
    tap_event(page, describe, event)
    wait_until(page, lambda: len(stored(frame)) == 1)
    expect(page.locator("#sync-status")).to_have_text("online")
    expect(page.locator("#board .side.at-table")).to_have_count(1)
    assert [p for *_, p in stored(frame)] == [event]
    assert page.evaluate("MarkerPad.engine()") in ("off", "loading", "failed")


@needs_pyodide
def test_an_event_the_offline_engine_refuses_is_shown_and_not_sent(phone, league):
    frame = game_frame(league, "three_cushion_carom")
    describe = registry.get("three_cushion_carom").describe()
    context = phone(league.player_user)
    page = open_pad(context, frame)
    page.evaluate("MarkerPad.startEngine()")
    page.wait_for_function("() => MarkerPad.engine() === 'ready'", timeout=90_000)
    context.set_offline(True)
    tap_event(page, describe, {"type": "stroke", "contacts": ["red"]})  # a miss: Bob's turn
    # "returned": the balls were driven out of a space they were never reported in
    tap_event(page, describe, {"type": "stroke", "returned": True})
    expect(page.locator("#rejected")).to_be_visible(timeout=20_000)
    expect(page.locator("#rejected-title")).to_have_text("Refused")
    expect(page.locator("#rejected-message")).to_contain_text("not in that space")
    expect(page.locator("#sync-status")).to_have_text("refused")
    expect(page.locator("#shots li.refused")).to_have_count(1)
    snap(page, "refused")
    page.locator("#rejected-discard").tap()
    context.set_offline(False)
    page.evaluate("MarkerPad.drain()")
    expect(page.locator("#sync-status")).to_have_text("online", timeout=20_000)
    assert [p for *_, p in stored(frame)] == [{"type": "stroke", "contacts": ["red"]}]


@pytest.mark.parametrize("game_id", one_game_per_family())
def test_a_small_phone_shows_the_whole_top_line_and_big_tap_targets(phone, league, game_id):
    frame = game_frame(league, game_id)
    page = phone(league.player_user).new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"/frames/{frame.pk}/pad/")
    page.wait_for_selector("#pad[data-ready='1']")
    line = page.locator("#frame-line")
    expect(line).to_contain_text(f"referee {frame.referee.name}")
    assert page.evaluate(
        "() => { const e = document.getElementById('frame-line');"
        " return e.scrollWidth <= e.clientWidth && document.body.scrollWidth <= 360; }"
    )
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll('#controls button'))
            .filter((b) => b.offsetParent !== null)
            .map((b) => [b.textContent.trim(), b.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert small == []
    snap(page, f"{registry.get(game_id).family}-360")
