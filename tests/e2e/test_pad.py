"""The referee pad in a real browser (Debian's Chromium, phone-sized): a whole frame by
tapping, ten shots offline across a reload, two devices in conflict, lost responses, and a
forced re-login with shots waiting."""

from __future__ import annotations

import random

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from frames.models import Frame, FrameEvent
from rules import Timeline, registry
from tests.e2e.test_pad_families import tap_event
from tests.frames.pad_helpers import make_frame, make_match, referee_player, shot

pytestmark = pytest.mark.django_db(transaction=True)

BB = registry.get("bar_billiards_4pin")


@pytest.fixture
def frame(league):
    return make_frame(make_match(league), referee=referee_player(league))


def names(frame) -> dict[str, str]:
    return {slot.side: slot.player.name for slot in frame.players.select_related("player")}


def open_pad(context, frame):
    page = context.new_page()
    page.goto(f"/frames/{frame.pk}/pad/")
    page.wait_for_selector("#pad[data-ready='1']")
    return page


def tap_shot(page, *pots, fouls=()):
    """Tap a shot: for each pot pick the ball (white is the default) and tap the hole; tap
    the fouls; then the big button."""
    pots_control = page.locator('#controls [data-field="pots"]')
    for ball, hole in pots:
        pick = pots_control.locator(f'[data-sub="ball"] button.pick[data-value="{ball}"]').first
        if pick.get_attribute("aria-pressed") != "true":
            pick.tap()
        pots_control.locator(f'.commit[data-sub="hole"] button.pick[data-value="{hole}"]').tap()
    for foul in fouls:
        page.locator(f'#controls .foul-group .fouls.common button[data-foul="{foul}"]').tap()
    page.locator('#controls button[data-enter="shot"]').tap()


def stored(frame):
    return list(
        FrameEvent.objects.filter(frame=frame)
        .order_by("seq")
        .values_list("seq", "event_id", "kind", "payload")
    )


def wait_until(page, condition, timeout_ms=15_000):
    for _ in range(timeout_ms // 100):
        if condition():
            return
        page.wait_for_timeout(100)
    assert condition()


def outbox_ids(page) -> list[str]:
    return page.evaluate("MarkerPad.outbox().then(items => items.map(i => i.event_id))")


def board(page, side):
    return page.locator(f'#board .side[data-side="{side}"]')


def test_score_a_whole_frame_by_tapping_then_the_scorecard(phone, league, frame):
    who = names(frame)
    page = open_pad(phone(league.player_user), frame)
    status = page.locator("#sync-status")
    expect(page.locator("#fact-next")).to_have_text("Break-off")
    expect(board(page, "home").locator(".who")).to_have_text(who["home"])

    tap_shot(page, ("white", 50))
    expect(page.locator("#fact-break")).to_have_text("50")
    expect(board(page, "home")).to_have_class("side at-table")
    tap_shot(page)  # no score: the break is banked, the other side plays
    expect(board(page, "home").locator(".banked")).to_have_text("50")
    expect(board(page, "away")).to_have_class("side at-table")
    expect(board(page, "away").locator(".who")).to_have_text(who["away"])
    tap_shot(page, fouls=["pin_100"])
    expect(board(page, "home")).to_have_class("side at-table")
    page.locator("#undo").tap()
    expect(board(page, "away")).to_have_class("side at-table")
    tap_shot(page, ("red", 100))
    expect(page.locator("#fact-break")).to_have_text("200")
    expect(page.locator("#fact-next")).to_have_text("Play the red")
    tap_shot(page)
    page.locator("#bar-down").tap()
    expect(page.locator("#fact-balls_in_play")).to_have_text("8")
    for hole in (200, 100, 200, 200, 200, 200):
        tap_shot(page, ("white", hole))
    expect(page.locator("#fact-balls_in_play")).to_have_text("2")
    expect(page.locator("#shots li").first).to_contain_text("White 200")
    tap_shot(page, ("red", 200))

    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#result-line")).to_contain_text("1550")
    expect(status).to_have_text("online")
    page.locator("#confirm-result").tap()
    page.wait_for_url(f"**/matches/{frame.match_id}/")
    row = page.locator("table.scorecard tr.frame-complete")
    expect(row.locator("td.score")).to_have_text("1550–200")

    done = Frame.objects.get(pk=frame.pk)
    assert (done.status, done.home_score, done.away_score, done.winner) == (
        "complete",
        1550,
        200,
        "home",
    )
    log = stored(frame)
    assert [kind for _, _, kind, _ in log].count("undo") == 1 and len(log) == 14
    assert all(
        e.device_id and e.entered_by_id == league.player_user.pk
        for e in FrameEvent.objects.filter(frame=frame)
    )


def test_offline_ten_shots_survive_a_reload_and_sync_once_in_order(phone, league, frame):
    context = phone(league.player_user)
    page = open_pad(context, frame)
    status = page.locator("#sync-status")
    tap_shot(page, ("white", 50))  # online: the break-off
    expect(status).to_have_text("online")
    wait_until(page, lambda: len(stored(frame)) == 1)
    page.wait_for_function(
        "async () => !!navigator.serviceWorker.controller && !!(await caches.match(location.pathname))"
    )

    context.set_offline(True)
    offline = [
        shot(),
        shot(("white", 20)),
        shot(),
        shot(("white", 10)),
        shot(("red", 50)),
        shot(),
        shot(("white", 30)),
        shot(),
        shot(fouls=["miss"]),
        shot(),
    ]
    for n, event in enumerate(offline, start=1):
        tap_shot(
            page,
            *[(p["ball"], p["hole"]) for p in event.get("pots", [])],
            fouls=event.get("fouls", ()),
        )
        expect(status).to_have_text(f"saved on phone ({n} waiting)")
    expect(page.locator("#estimate")).to_contain_text("10 shots not yet stored")
    queued = outbox_ids(page)
    assert len(queued) == 10 and len(stored(frame)) == 1

    page.reload()  # offline: the service worker serves the pad, the outbox is still there
    page.wait_for_selector("#pad[data-ready='1']")
    expect(status).to_have_text("saved on phone (10 waiting)")
    expect(page.locator("#shots li.pending")).to_have_count(10)
    assert outbox_ids(page) == queued and len(stored(frame)) == 1

    context.set_offline(False)
    expect(status).to_have_text("online", timeout=30_000)
    log = stored(frame)
    assert [seq for seq, *_ in log] == list(range(1, 12))
    assert [str(event_id) for _, event_id, _, _ in log[1:]] == queued  # once each, in order
    assert [payload for *_, payload in log[1:]] == offline
    timeline = Timeline(BB, Frame.objects.get(pk=frame.pk).setup)
    for event in [shot(("white", 50)), *offline]:
        timeline.push(event)
    assert Frame.objects.get(pk=frame.pk).view == timeline.view()
    expect(page.locator("#fact-break")).to_have_text(str(timeline.view()["break"]))
    assert outbox_ids(page) == []


def test_two_devices_on_one_frame_show_the_conflict_and_lose_nothing(phone, league, frame):
    referee = open_pad(phone(league.player_user), frame)
    captain_context = phone(league.captain)
    captain = open_pad(captain_context, frame)
    tap_shot(referee, ("white", 50))
    wait_until(referee, lambda: len(stored(frame)) == 1)
    expect(captain.locator("#fact-break")).to_have_text("50", timeout=10_000)  # it polls

    captain_context.set_offline(True)
    tap_shot(captain)  # no score
    tap_shot(captain, fouls=["miss"])
    expect(captain.locator("#sync-status")).to_have_text("saved on phone (2 waiting)")
    tap_shot(referee, ("white", 10))  # meanwhile, on the referee's phone
    wait_until(referee, lambda: len(stored(frame)) == 2)

    captain_context.set_offline(False)
    captain.evaluate("MarkerPad.drain()")
    expect(captain.locator("#sync-status")).to_have_text("conflict")
    conflict = captain.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict.locator("#conflict-server li")).to_have_count(1)
    expect(conflict.locator("#conflict-server")).to_contain_text("White 10")
    expect(conflict.locator("#conflict-local li")).to_have_count(2)
    expect(conflict.locator("#conflict-local")).to_contain_text("foul: miss")
    assert len(stored(frame)) == 2 and len(outbox_ids(captain)) == 2

    captain.locator("#conflict-keep").tap()  # re-apply this phone's shots after theirs
    expect(captain.locator("#sync-status")).to_have_text("online")
    log = stored(frame)
    assert [p for *_, p in log] == [
        shot(("white", 50)),
        shot(("white", 10)),
        shot(),
        shot(fouls=["miss"]),
    ]
    expect(referee.locator("#shots li[data-seq='4']")).to_have_count(1, timeout=10_000)

    # A second clash, this time discarded — explicitly, and kept on the phone for the record.
    captain_context.set_offline(True)
    tap_shot(captain, ("white", 20))
    tap_shot(referee)
    wait_until(referee, lambda: len(stored(frame)) == 5)
    captain_context.set_offline(False)
    captain.evaluate("MarkerPad.drain()")
    expect(captain.locator("#conflict")).to_be_visible()
    captain.locator("#conflict-discard").tap()
    expect(captain.locator("#conflict-discard")).to_contain_text("Really discard")
    captain.locator("#conflict-discard").tap()
    expect(captain.locator("#sync-status")).to_have_text("online")
    assert len(stored(frame)) == 5
    discarded = captain.evaluate("MarkerPad.discarded()")
    assert [d["payload"] for d in discarded] == [shot(("white", 20))]


def test_lost_responses_are_retried_and_never_doubled(phone, league, frame):
    context = phone(league.player_user, service_workers="block")
    page = open_pad(context, frame)
    rng = random.Random(3)
    lost = []

    def flaky(route):
        if route.request.method == "POST" and rng.random() < 0.3:
            route.fetch()  # the server commits...
            lost.append(route.request.post_data_json["event_id"])
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.continue_()

    page.route("**/api/frames/*/events/", flaky)
    taps = [
        ("white", 50),
        None,
        ("white", 20),
        None,
        ("red", 100),
        None,
        None,
        ("white", 10),
        None,
        ("white", 30),
        None,
        None,
    ]
    for pot in taps:
        tap_shot(page, *([pot] if pot else []))
    expect(page.locator("#sync-status")).to_have_text("online", timeout=60_000)
    log = stored(frame)
    assert len(log) == len(taps) and len({event_id for _, event_id, _, _ in log}) == len(taps)
    assert [seq for seq, *_ in log] == list(range(1, len(taps) + 1))
    assert lost, "the route never dropped an answer"


def test_a_forced_re_login_keeps_the_outbox(phone, league, frame):
    context = phone()
    page = context.new_page()
    page.goto(f"/accounts/login/?next=/frames/{frame.pk}/pad/")
    page.fill("input[name=username]", league.player_user.username)
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("form.card button").click()
    page.wait_for_selector("#pad[data-ready='1']")
    token_before = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")

    context.set_offline(True)
    for pot in (("white", 50), None, None):
        tap_shot(page, *([pot] if pot else []))
    Session.objects.all().delete()  # the session ends while the shots wait on the phone
    context.set_offline(False)
    page.evaluate("MarkerPad.drain()")
    expect(page.locator("#login-needed")).to_be_visible()
    expect(page.locator("#sync-status")).to_have_text("saved on phone (3 waiting)")
    assert len(outbox_ids(page)) == 3 and stored(frame) == []

    page.locator("#login-link").tap()
    page.fill("input[name=username]", league.player_user.username)
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("form.card button").click()
    page.wait_for_selector("#pad[data-ready='1']")
    expect(page.locator("#sync-status")).to_have_text("online")
    token_after = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    assert token_after != token_before  # it rotated at login, and the queued shots used the new one
    assert [p for *_, p in stored(frame)] == [shot(("white", 50)), shot(), shot()]


def test_another_game_gets_a_working_pad_from_its_vocabulary(phone, league):
    match = make_match(league)
    carom = make_frame(
        match, number=2, game_id="three_cushion_carom", referee=referee_player(league)
    )
    who = names(carom)
    page = open_pad(phone(league.player_user), carom)
    describe = registry.get("three_cushion_carom").describe()
    tap_event(
        page,
        describe,
        {"type": "stroke", "contacts": ["red", "cushion", "cushion", "cushion", "white"]},
    )
    expect(page.locator(f'#board .side[data-side="{who["home"]}"] .banked')).to_have_text("1")
    expect(page.locator("#fact-run")).to_have_text("1")
    tap_event(
        page, describe, {"type": "stroke", "contacts": ["red"]}
    )  # a miss: the other player's inning
    expect(page.locator(f'#board .side[data-side="{who["away"]}"]')).to_have_class("side at-table")
    expect(page.locator("#sync-status")).to_have_text("online")
    assert [p for *_, p in stored(carom)] == [
        {"type": "stroke", "contacts": ["red", "cushion", "cushion", "cushion", "white"]},
        {"type": "stroke", "contacts": ["red"]},
    ]


def test_the_live_page_follows_the_frame_within_seconds(phone, league, frame):
    import time
    import uuid

    from django.utils import timezone

    from frames.pad.events import frame_record_event

    page = phone().new_page()  # anyone may watch
    page.goto(f"/matches/{frame.match_id}/live/")
    row = page.locator(f'#live-rows tr[data-frame="{frame.pk}"]')
    expect(row.locator("td.score")).to_have_text("–")  # not started
    for seq, event in enumerate([shot(("white", 50)), shot(), shot(("red", 100))], start=1):
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=league.player_user,
            device_id="api",
            now=timezone.now(),
        )
    started = time.monotonic()
    expect(row.locator("td.score")).to_have_text("50–0", timeout=5_000)
    expect(row.locator("td").last).to_have_text("200")  # the away player's running break
    assert time.monotonic() - started < 4.5
