"""The choices page on a phone: a player opens "Messages" from the menu, turns a league
table on, mutes one league, saves, and sees their recent messages; axe checks the page.
Screenshots go to $SCREENSHOTS (if set)."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from notifications import services, tasks
from notifications.events import Event
from notifications.models import Notification
from notifications.services import To, notify
from tests.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    make_secretary,
)

pytestmark = pytest.mark.django_db(transaction=True)
NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_a_player_chooses_their_messages_on_a_phone(phone):
    me = UserFactory(username="ann", email="ann@example.com")
    player = PlayerFactory(user=me, name="Ann Potter")
    leagues = []
    for name in ("Norwich & District League", "Aylsham Thursday League"):
        league = LeagueFactory(name=name)
        team = TeamFactory(season=SeasonFactory(league=league), division__season__league=league)
        RegistrationFactory(team=team, season=team.season, player=player)
        leagues.append(league)
    make_secretary(LeagueFactory(name="Broadland Cup League"), user=me)
    for i, (event, title) in enumerate(
        [
            (Event.FIXTURE_TOMORROW, "Tomorrow: Kings Head v Red Lion"),
            (Event.RESULT_TO_CONFIRM, "Confirm the result: Kings Head 5-4 Red Lion"),
            (Event.CUP_DRAW, "Singles Cup: the draw is made"),
        ]
    ):
        notify(
            event=event,
            to=[To(user_id=me.pk)],
            key=f"e2e:{i}",
            title=title,
            body="…",
            url="/",
            league_id=leagues[0].pk,
            now=NOON,
        )
    tasks.deliver(list(Notification.objects.values_list("id", flat=True))[:2])

    page = phone(me).new_page()
    page.goto(f"/players/{player.pk}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Messages").click()
    expect(page.get_by_role("heading", name="Your messages", level=1)).to_be_visible()
    expect(page.get_by_text("Times are in")).to_contain_text("Europe/London")
    expect(page.get_by_role("heading", name="Recent messages")).to_be_visible()
    expect(page.get_by_text("Sent: Email").first).to_be_visible()
    shot(page, "notifications-choices.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.get_by_role("checkbox", name="A league table published").check()
    page.locator("summary", has_text="Aylsham Thursday League").click()
    aylsham = page.locator("details", has_text="Aylsham Thursday League")
    aylsham.get_by_label("Mute this league").check()
    shot(page, "notifications-league-open.png")
    page.get_by_role("button", name="Save my choices").click()
    expect(page.get_by_text("Your choices are saved.")).to_be_visible()
    expect(page.locator("summary", has_text="Aylsham Thursday League")).to_contain_text("Muted")

    r = services.recipient_for(To(user_id=me.pk), now=NOON)
    assert services.wants(r, Event.TABLE_PUBLISHED, leagues[0].pk)
    assert not services.wants(r, Event.FIXTURE_TOMORROW, leagues[1].pk)
    assert services.wants(r, Event.FIXTURE_TOMORROW, leagues[0].pk)
