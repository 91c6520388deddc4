"""The choices page: a person's leagues (found by people/, where they play or officiate)
each with a mute and per-event overrides, the events grouped, the time zone shown, and
the last messages with what became of them; reached from the account menu, the player's
page and (without a login) the link in every message."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from django.urls import reverse

from leagues.models import Player
from notifications import services, tasks
from notifications.events import Event
from notifications.models import Choice, Notification, Recipient
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

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
NIGHT = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)
PAGE = "/notifications/"


def _plays_in(user, league_name: str, **player):
    """`user` registered for a team of a new league called `league_name`."""
    league = LeagueFactory(name=league_name)
    team = TeamFactory(season=SeasonFactory(league=league), division__season__league=league)
    found = Player.objects.filter(user=user).first() if user else None
    RegistrationFactory(
        team=team, season=team.season, player=found or PlayerFactory(user=user, **player)
    )
    return league


def _tell(recipient_to, n: int, *, now=NOON, event=Event.RESULT_TO_CONFIRM):
    for i in range(n):
        notify(
            event=event,
            to=[recipient_to],
            key=f"match:{i}",
            title=f"Confirm the result of match {i}",
            body="The away captain asks you to confirm.",
            url=f"/matches/{i}/",
            now=now,
        )


def _form(page_html: str) -> dict:
    """The form's fields as the browser would post them unchanged (checked boxes,
    selected options, text inputs), read from the page."""
    import re

    data: dict = {}
    for m in re.finditer(r"<input[^>]*>", page_html):
        tag = m.group(0)
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        kind = kind.group(1) if kind else "text"
        value = re.search(r'value="([^"]*)"', tag)
        if kind in ("checkbox", "radio"):
            if " checked" in tag:
                data[name.group(1)] = value.group(1) if value else "on"
        else:
            data[name.group(1)] = value.group(1) if value else ""
    for m in re.finditer(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page_html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', m.group(2))
        data[m.group(1)] = chosen.group(1) if chosen else ""
    return data


def test_the_page_lists_the_leagues_i_play_and_officiate_in(client):
    me = UserFactory(email="me@example.com")
    _plays_in(me, "Norwich League")
    officiate = make_secretary(LeagueFactory(name="Aylsham League"), user=me)
    assert officiate == me
    _plays_in(None, "Somebody Else's League")
    client.force_login(me)
    page = client.get(PAGE).content.decode()
    assert "Norwich League" in page and "Aylsham League" in page
    assert "Somebody Else&#x27;s League" not in page and "Somebody Else's" not in page
    assert "Mute this league" in page
    for group in ("Asks of you", "You and your team", "The league"):
        assert group in page
    assert "Europe/London" in page  # the quiet hours' time zone, shown


def test_muting_a_league_and_an_override_there(client):
    me = UserFactory(email="me@example.com")
    norwich = _plays_in(me, "Norwich League")
    other = _plays_in(me, "Aylsham League")
    client.force_login(me)
    data = _form(client.get(PAGE).content.decode())
    data[f"league_{norwich.pk}_mute"] = "on"
    data[f"league_{norwich.pk}_{Event.FIXTURE_TOMORROW}"] = "on"  # still wanted from there
    data[f"league_{other.pk}_{Event.TABLE_PUBLISHED}"] = "on"
    response = client.post(PAGE, data)
    assert response.status_code == 302
    r = Recipient.objects.get(user=me)
    assert not services.wants(r, Event.MATCH_RESULT, norwich.pk)  # muted
    assert services.wants(r, Event.FIXTURE_TOMORROW, norwich.pk)  # its override
    assert services.wants(r, Event.MATCH_RESULT, other.pk)  # the other league as before
    assert services.wants(r, Event.TABLE_PUBLISHED, other.pk)  # on there only
    assert not services.wants(r, Event.TABLE_PUBLISHED, None)
    page = client.get(PAGE).content.decode()
    assert "Muted" in page and "1 changed" in page
    # Unmuted and the override set back to "As everywhere": the rows go, the defaults hold.
    data = _form(page)
    data.pop(f"league_{norwich.pk}_mute")
    data[f"league_{norwich.pk}_{Event.FIXTURE_TOMORROW}"] = ""
    assert client.post(PAGE, data).status_code == 302
    assert not Choice.objects.filter(recipient=r, league=norwich).exists()
    assert services.wants(r, Event.MATCH_RESULT, norwich.pk)


def test_choices_for_a_league_not_mine_are_ignored(client):
    me = UserFactory(email="me@example.com")
    _plays_in(me, "Norwich League")
    theirs = _plays_in(None, "Aylsham League")
    client.force_login(me)
    data = _form(client.get(PAGE).content.decode())
    data[f"league_{theirs.pk}_mute"] = "on"
    assert client.post(PAGE, data).status_code == 302
    assert not Choice.objects.filter(league=theirs).exists()


def test_the_time_zone_is_chosen_and_a_bad_one_refused(client):
    me = UserFactory(email="me@example.com")
    client.force_login(me)
    data = _form(client.get(PAGE).content.decode())
    data["time_zone"] = "Europe/Madrid"
    assert client.post(PAGE, data).status_code == 302
    r = Recipient.objects.get(user=me)
    assert r.time_zone == "Europe/Madrid"
    data["time_zone"] = "Mars/Olympus_Mons"
    response = client.post(PAGE, data)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    r.refresh_from_db()
    assert r.time_zone == "Europe/Madrid"


def test_a_player_without_a_login_sees_their_leagues_from_the_link(client):
    league = _plays_in(None, "Norwich League", email="ann@example.com")
    r = services.recipient_for(To(email="ann@example.com"), now=NOON)
    page = client.get(reverse("notifications-choices-token", args=[r.token])).content.decode()
    assert "Norwich League" in page
    data = _form(page)
    data[f"league_{league.pk}_mute"] = "on"
    response = client.post(reverse("notifications-choices-token", args=[r.token]), data)
    assert response.status_code == 302
    assert not services.wants(r, Event.FIXTURE_TOMORROW, league.pk)


def test_recent_messages_say_what_became_of_each(client):
    me = UserFactory(email="me@example.com")
    to = To(user_id=me.pk)
    _tell(to, 1, now=NOON)
    tasks.deliver(list(Notification.objects.values_list("id", flat=True)))
    notify(
        event=Event.DISPUTE,
        to=[to],
        key="dispute:1",
        title="A dispute on Kings Head v Red Lion",
        body="…",
        url="/matches/1/",
        now=NIGHT,
    )
    client.force_login(me)
    page = client.get(PAGE).content.decode()
    assert "Confirm the result of match 0" in page
    assert "Sent: Email" in page
    assert "A dispute on Kings Head v Red Lion" in page
    assert "Waiting until Sat 28 Nov 08:00" in page  # held by the quiet hours


def test_the_page_makes_the_same_queries_for_one_league_and_many(client, django_assert_num_queries):
    me = UserFactory(email="me@example.com")
    _plays_in(me, "League A")
    _tell(To(user_id=me.pk), 2)
    services.recipient_for(To(user_id=me.pk), now=NOON)
    client.force_login(me)
    client.get(PAGE)  # the session, the recipient: made once
    # session, user, recipient (with its login), leagues, choices, messages, their
    # deliveries; and the base page's own three (the account menu's teams, the officer check), the site's
    # notices and the person's phones (push)
    expected = 11
    with django_assert_num_queries(expected):
        assert client.get(PAGE).status_code == 200
    for name in ("League B", "League C", "League D"):
        _plays_in(me, name)
        make_secretary(LeagueFactory(name=f"{name} officers"), user=me)
    _tell(To(user_id=me.pk), 30, event=Event.MATCH_RESULT)
    with django_assert_num_queries(expected):
        page = client.get(PAGE).content.decode()
    assert page.count('class="league-choices"') == 7
    assert page.count("<li><a href=") == 30  # the last 30 messages


def test_the_account_menu_and_my_player_page_link_the_page(client):
    me = UserFactory(email="me@example.com")
    player = PlayerFactory(user=me)
    client.force_login(me)
    page = client.get(reverse("player-detail", args=[player.pk])).content.decode()
    assert page.count(f'href="{PAGE}"') == 2  # the menu's "Messages", the page's button
    someone = PlayerFactory()
    page = client.get(reverse("player-detail", args=[someone.pk])).content.decode()
    assert page.count(f'href="{PAGE}"') == 1  # the menu only


def test_quiet_hours_still_need_both_ends(client):
    me = UserFactory(email="me@example.com")
    client.force_login(me)
    data = _form(client.get(PAGE).content.decode())
    data["quiet_end"] = ""
    response = client.post(PAGE, data)
    assert "both ends" in response.content.decode()
    assert Recipient.objects.get(user=me).quiet_end == time(8, 0)


def test_every_event_is_in_exactly_one_group_of_the_page():
    from notifications.events import GROUPS

    grouped = [e for _title, events in GROUPS for e in events]
    assert sorted(grouped) == sorted(Event) and len(grouped) == len(set(grouped))


def test_saving_the_defaults_unchanged_stores_no_choice(client):
    """Someone who saves without changing an event keeps following the defaults (a
    better default later reaches them); a change is stored."""
    me = UserFactory(email="me@example.com")
    _plays_in(me, "Norwich League")
    client.force_login(me)
    data = _form(client.get(PAGE).content.decode())
    assert client.post(PAGE, data).status_code == 302
    assert not Choice.objects.exists()
    data.pop(f"event_{Event.DISPUTE}")
    assert client.post(PAGE, data).status_code == 302
    assert list(Choice.objects.values_list("event", "enabled")) == [(Event.DISPUTE, False)]
