"""A person's own calendar: one private address per player (page and API, revocable),
and the feed at it: the fixtures of their teams in every league, their cup ties, the
reminders, stable UIDs with SEQUENCE moving on a change, postponed as CANCELLED, nobody
else's events, a query count constant in the number of fixtures; erasure revokes it."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from competitions.models import Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates
from leagues.fixtures import services as fixture_services
from leagues.models import CalendarFeed, Fixture, Player, Season
from leagues.teams import services as team_services
from people import erasure, export
from people.calendar import feed as calendar_feed
from people.calendar import services as calendar_services
from tests.competitions.helpers import NOW, drawn
from tests.conftest import make_league
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def rita(league) -> Player:
    """The registered player with a login, on teams[0] (Premier)."""
    return Player.objects.get(user=league.player_user)


def fetch(client, feed: CalendarFeed) -> Calendar:
    response = client.get(reverse("person-calendar", args=[feed.token]))
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(cal: Calendar) -> dict[str, object]:
    return {str(e["uid"]): e for e in cal.walk("VEVENT")}


def fixtures_of(*teams) -> list[Fixture]:
    ids = [t.pk for t in teams]
    return list(Fixture.objects.filter(Q(home__in=ids) | Q(away__in=ids), kind="league"))


def uid_of(fixture: Fixture, team) -> str:
    side = "home" if fixture.home_id == team.pk else "away"
    return f"fixture-{fixture.pk}-{side}@marker"


@pytest.fixture
def two_leagues(league):
    """Rita plays for teams[0] of `league` and for a Second division team of another
    league (another season: rule 8 holds per season)."""
    other = make_league(teams_per_division=3, players_per_team=5)
    team_services.roster_add_player(team=other.teams[3], player=rita(league))
    return league, other


def singles_cup(league, players, name="Singles Cup"):
    comp = competition_create(
        actor=league.secretary, season=league.season, name=name, kind="singles", now=NOW
    )
    for player in players:
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


# ------------------------------------------------------------------------ content


def test_feed_holds_every_fixture_of_my_teams_in_both_leagues(client, two_leagues):
    league, other = two_leagues
    me = rita(league)
    feed = calendar_services.calendar_feed_ensure(player=me)
    got = events(fetch(client, feed))
    mine = [(f, league.teams[0]) for f in fixtures_of(league.teams[0])] + [
        (f, other.teams[3]) for f in fixtures_of(other.teams[3])
    ]
    assert len(mine) == 6 + 4  # home and away against three others, and two others
    assert set(got) == {uid_of(f, team) for f, team in mine}
    fixture = Fixture.objects.filter(away=other.teams[3]).select_related("home", "venue").first()
    event = got[uid_of(fixture, other.teams[3])]
    assert str(event["summary"]) == f"{fixture.home.name} v {other.teams[3].name} (away)"
    assert str(event["location"]).startswith(fixture.venue.name)
    start = event["dtstart"]
    assert start.params["TZID"] == "Europe/London"
    assert start.dt.date() == fixture.date and start.dt.hour == 20
    assert str(event["status"]) == "CONFIRMED"
    [alarm] = event.walk("VALARM")
    assert alarm["trigger"].dt == -timedelta(hours=3)
    assert str(alarm["action"]) == "DISPLAY"
    body = client.get(reverse("person-calendar", args=[feed.token])).content.decode()
    assert "BEGIN:VTIMEZONE" in body and "TZID:Europe/London" in body


def test_a_cup_tie_by_deadline_reminds_a_day_before_and_a_team_tie_is_not_twice(client, league):
    me = rita(league)
    opponent = league.teams[1].registrations.first().player
    comp = singles_cup(league, [me, opponent])
    tie = Tie.objects.get(competition=comp, status="scheduled")
    deadline = datetime(2026, 11, 20, 22, 0, tzinfo=UTC)
    round_set_dates(actor=league.secretary, round=tie.round, date=None, deadline=deadline, now=NOW)
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:2]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    team_tie = Tie.objects.get(competition=cup, bye=False)
    round_set_dates(
        actor=league.secretary, round=team_tie.round, date=date(2026, 12, 8), deadline=None, now=NOW
    )
    team_tie.refresh_from_db()
    got = events(fetch(client, calendar_services.calendar_feed_ensure(player=me)))

    singles = got[f"cup-tie-{tie.pk}@marker"]
    assert str(singles["summary"]).startswith("Play by: Singles Cup")
    assert singles["dtend"].dt == deadline
    [alarm] = singles.walk("VALARM")
    assert alarm["trigger"].dt == -timedelta(days=1)
    assert alarm["trigger"].params["RELATED"] == "END"

    team = got[f"cup-tie-{team_tie.pk}@marker"]
    assert team["dtstart"].dt.date() == date(2026, 12, 8)
    assert team.walk("VALARM")[0]["trigger"].dt == -timedelta(hours=3)
    # the cup fixture is the tie's: not a second event of its own
    assert not [uid for uid in got if uid.startswith(f"fixture-{team_tie.fixture_id}-")]


def test_postponed_fixture_is_cancelled_same_uid_next_sequence(client, league):
    me = rita(league)
    fixture = Fixture.objects.filter(home=league.teams[0]).order_by("date").first()
    uid = uid_of(fixture, league.teams[0])
    mon, tue, wed = (datetime(2026, 10, d, 9, 0, tzinfo=UTC) for d in (5, 6, 7))

    def at(now):
        return events(Calendar.from_ical(calendar_feed.person_calendar(me, now=now)))[uid]

    first, again = at(mon), at(tue)
    assert (first["sequence"], again["sequence"]) == (0, 0)
    assert first["last-modified"].dt == again["last-modified"].dt == first["dtstamp"].dt == mon

    fixture_services.fixture_postpone(fixture=fixture, reason="Snow")
    postponed = at(tue)
    assert str(postponed["status"]) == "CANCELLED"
    assert (postponed["sequence"], postponed["last-modified"].dt) == (1, tue)
    assert not postponed.walk("VALARM")
    # the address serves the same
    served = events(fetch(client, calendar_services.calendar_feed_ensure(player=me)))[uid]
    assert (served["sequence"], served["dtstamp"].dt) == (1, tue)

    fixture_services.fixture_move(fixture=fixture, new_date=date(2027, 6, 1))
    moved = at(wed)
    assert str(moved["status"]) == "CONFIRMED"
    assert (moved["sequence"], moved["last-modified"].dt) == (2, wed)
    assert moved["dtstart"].dt.date() == date(2027, 6, 1)


def test_a_refresh_with_nothing_changed_is_not_modified(client, league):
    feed = calendar_services.calendar_feed_ensure(player=rita(league))
    url = reverse("person-calendar", args=[feed.token])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, headers={"if-none-match": first["ETag"]}).status_code == 304
    fixture = Fixture.objects.filter(away=league.teams[0]).first()
    fixture_services.fixture_postpone(fixture=fixture, reason="Snow")
    changed = client.get(url, headers={"if-none-match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_another_persons_events_are_never_in_my_feed(client, league):
    me = rita(league)
    others = [r.player for r in league.teams[1].registrations.order_by("id")[:2]]
    theirs = singles_cup(league, others, name="Their Cup")
    round_set_dates(
        actor=league.secretary,
        round=theirs.rounds.first(),
        date=date(2026, 12, 1),
        deadline=None,
        now=NOW,
    )
    mine = events(fetch(client, calendar_services.calendar_feed_ensure(player=me)))
    their_ties = {f"cup-tie-{t.pk}@marker" for t in Tie.objects.filter(competition=theirs)}
    assert not their_ties & set(mine)
    only_theirs = [
        f for f in fixtures_of(league.teams[1]) if league.teams[0].pk not in (f.home_id, f.away_id)
    ]
    assert only_theirs
    assert not {f"fixture-{f.pk}-home@marker" for f in only_theirs} & set(mine)
    assert not {f"fixture-{f.pk}-away@marker" for f in only_theirs} & set(mine)
    # and their own feed holds their tie and their team's fixtures, not mine
    theirs_feed = events(fetch(client, calendar_services.calendar_feed_ensure(player=others[0])))
    assert their_ties <= set(theirs_feed)
    assert {uid_of(f, league.teams[1]) for f in fixtures_of(league.teams[1])} <= set(theirs_feed)
    assert not {uid_of(f, league.teams[0]) for f in fixtures_of(league.teams[0])} & set(theirs_feed)


def test_a_team_left_or_a_finished_season_is_not_in_the_feed(client, two_leagues):
    league, other = two_leagues
    me = rita(league)
    feed = calendar_services.calendar_feed_ensure(player=me)
    team_services.roster_remove_player(
        registration=me.registrations.get(team=league.teams[0]), actor=league.secretary
    )
    got = events(fetch(client, feed))
    assert got and set(got) == {uid_of(f, other.teams[3]) for f in fixtures_of(other.teams[3])}
    other.season.status = Season.Status.FINISHED
    other.season.save(update_fields=["status"])
    assert events(fetch(client, feed)) == {}


def test_feed_query_count_does_not_grow_with_fixtures(client, league, django_assert_num_queries):
    me = rita(league)
    feed = calendar_services.calendar_feed_ensure(player=me)
    url = reverse("person-calendar", args=[feed.token])
    client.get(url)  # the first refresh records every event's version
    # the feed, my teams, the fixtures, the ties, the availability asks, the versions
    with django_assert_num_queries(6):
        small = client.get(url).content
    other = make_league(teams_per_division=4, players_per_team=5)
    team_services.roster_add_player(team=other.teams[2], player=me)
    client.get(url)
    with django_assert_num_queries(6):
        big = client.get(url).content
    assert big.count(b"BEGIN:VEVENT") > small.count(b"BEGIN:VEVENT")


def test_a_new_or_changed_event_costs_one_write(client, league):
    feed = calendar_services.calendar_feed_ensure(player=rita(league))
    url = reverse("person-calendar", args=[feed.token])
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    assert len(first) == 7


def test_an_availability_ask_puts_its_answer_by_deadline_in_my_calendar(client, league):
    from leagues.availability import services as availability

    me = rita(league)
    team = league.teams[0]
    fixture = Fixture.objects.filter(Q(home=team) | Q(away=team), kind="league").earliest("date")
    fixture.date = datetime.now(tz=UTC).date() + timedelta(days=7)  # a fixture next week
    fixture.save(update_fields=["date"])
    deadline = datetime.combine(fixture.date, datetime.min.time(), tzinfo=UTC) - timedelta(hours=6)
    availability.availability_ask(
        fixture=fixture,
        team=team,
        actor=league.captain,
        answer_by=deadline,
        now=deadline - timedelta(days=3),
    )
    feed = calendar_services.calendar_feed_ensure(player=me)
    event = events(fetch(client, feed))[f"availability-{fixture.pk}-{team.pk}@marker"]
    assert "are you playing" in str(event["summary"])
    assert event.decoded("dtend") == deadline
    alarm = event.walk("VALARM")[0]
    assert alarm.decoded("trigger") == -timedelta(days=1)
    assert str(event["url"]).endswith(reverse("my-availability"))


# ------------------------------------------------------------------------ addresses


def test_unknown_and_revoked_addresses_are_not_found(client, league):
    me = rita(league)
    old = calendar_services.calendar_feed_ensure(player=me)
    assert client.get(reverse("person-calendar", args=["no-such-token"])).status_code == 404
    new = calendar_services.calendar_feed_renew(player=me)
    assert new.token != old.token
    assert client.get(reverse("person-calendar", args=[old.token])).status_code == 404
    assert client.get(reverse("person-calendar", args=[new.token])).status_code == 200
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert calendar_services.calendar_feed_ensure(player=me) == new  # asked twice: the same


def test_the_page_shows_the_address_and_revokes_it(client, league):
    me = rita(league)
    client.force_login(league.player_user)
    page = client.get(reverse("my-data")).content.decode()
    feed = CalendarFeed.objects.get(player=me, revoked_at__isnull=True)
    address = f"http://testserver/calendar/{feed.token}.ics"
    assert address in page
    assert f'href="webcal://testserver/calendar/{feed.token}.ics"' in page
    assert "Revoke and make a new address" in page
    assert client.get(reverse("my-calendar-renew")).status_code == 405
    response = client.post(reverse("my-calendar-renew"), follow=True)
    new = CalendarFeed.objects.get(player=me, revoked_at__isnull=True)
    assert new.token != feed.token
    html = response.content.decode()
    assert new.token in html and feed.token not in html
    assert "the old one no longer works" in html
    assert client.get(reverse("person-calendar", args=[feed.token])).status_code == 404


def test_revoking_needs_the_forms_csrf_token(league):
    me = rita(league)
    feed = calendar_services.calendar_feed_ensure(player=me)
    client = Client(enforce_csrf_checks=True)
    client.force_login(league.player_user)
    assert client.post(reverse("my-calendar-renew")).status_code == 403
    assert client.post(reverse("api-my-calendar-revoke")).status_code == 403
    assert calendar_services.live_feed(me) == feed


def test_my_player_page_leads_to_my_calendar(client, league):
    me = rita(league)
    client.force_login(league.player_user)
    mine = client.get(reverse("player-detail", args=[me.pk])).content.decode()
    assert f'href="{reverse("my-data")}#calendar-h"' in mine
    other = league.teams[1].registrations.first().player
    theirs = client.get(reverse("player-detail", args=[other.pk])).content.decode()
    assert "#calendar-h" not in theirs


def test_the_page_of_an_account_without_a_player_explains(client, league):
    client.force_login(league.outsider)
    page = client.get(reverse("my-data")).content.decode()
    assert "has no player record yet" in page
    assert not CalendarFeed.objects.exists()
    response = client.post(reverse("my-calendar-renew"), follow=True)
    assert "no player record" in response.content.decode()
    assert not CalendarFeed.objects.exists()


def test_the_api_gives_and_revokes_the_address(client, league):
    me = rita(league)
    assert client.get(reverse("api-my-calendar")).status_code == 403
    client.force_login(league.player_user)
    first = client.get(reverse("api-my-calendar")).json()
    assert client.get(reverse("api-my-calendar")).json() == first
    feed = CalendarFeed.objects.get(player=me, revoked_at__isnull=True)
    assert first["url"] == f"http://testserver/calendar/{feed.token}.ics"
    assert first["webcal"] == f"webcal://testserver/calendar/{feed.token}.ics"
    response = client.post(reverse("api-my-calendar-revoke"))
    assert response.status_code == 201
    assert response.json()["url"] != first["url"]
    assert client.get(first["url"]).status_code == 404
    assert client.get(response.json()["url"]).status_code == 200
    assert CalendarFeed.objects.filter(player=me).count() == 2


def test_the_api_without_a_player_is_a_clear_404(client, league):
    client.force_login(league.outsider)
    for response in (
        client.get(reverse("api-my-calendar")),
        client.post(reverse("api-my-calendar-revoke")),
    ):
        assert response.status_code == 404
        assert response.json()["error"] == "no_player"
    assert not CalendarFeed.objects.exists()


# ----------------------------------------------------------------- personal data


def test_erasure_revokes_the_address_and_the_export_holds_it(client, league):
    me = rita(league)
    feed = calendar_services.calendar_feed_ensure(player=me)
    data = export.person_data(me, league.player_user)
    assert [f["token"] for f in data["calendar_feeds"]] == [feed.token]
    erasure.person_erase(player=me, actor=league.secretary)
    assert client.get(reverse("person-calendar", args=[feed.token])).status_code == 404
    feed.refresh_from_db()
    assert feed.revoked_at is not None
    me.refresh_from_db()
    with pytest.raises(Exception, match="erased person"):
        calendar_services.calendar_feed_ensure(player=me)


def test_a_player_with_no_login_can_still_have_an_address(client, league):
    """The token is per player: a player without a login (an erased one aside) may be
    handed one by the services, and it holds their team's fixtures."""
    player = PlayerFactory()
    team_services.roster_add_player(team=league.teams[2], player=player)
    got = events(fetch(client, calendar_services.calendar_feed_ensure(player=player)))
    assert set(got) == {uid_of(f, league.teams[2]) for f in fixtures_of(league.teams[2])}


def test_sources_are_a_list_a_new_one_joins(league):
    """A source is a function of the scope: the feed gathers whatever the list holds (as
    the availability answers' deadlines will join it)."""
    answer_by = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def deadlines(scope):
        return [
            calendar_feed.deadline_item(
                uid=f"answer-{scope.player.pk}@marker",
                summary="Answer by: are you playing?",
                deadline=answer_by,
                tz=ZoneInfo("Europe/London"),
            )
        ]

    me = rita(league)
    body = calendar_feed.person_calendar(me, sources=(*calendar_feed.SOURCES, deadlines))
    got = events(Calendar.from_ical(body))
    assert len(got) == 1 + len(fixtures_of(league.teams[0]))
    event = got[f"answer-{me.pk}@marker"]
    assert event["dtend"].dt == answer_by and event["dtend"].params["TZID"] == "Europe/London"
    [alarm] = event.walk("VALARM")
    assert (alarm["trigger"].dt, alarm["trigger"].params["RELATED"]) == (-timedelta(days=1), "END")
