"""Public pages render for everyone, mobile-first, with a fixed number of queries."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Fixture, Player
from tests.conftest import built_once, make_league
from tests.factories import PlayerFactory
from tests.links import league_reverse, venue_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def _pages(lg):
    team = lg.teams[0]
    fixture = Fixture.objects.filter(home=team).first()
    return {
        "home": reverse("home"),
        "season": league_reverse("season-detail", args=[lg.season.pk]),
        "division": league_reverse("division-detail", args=[lg.premier.pk]),
        "team": league_reverse("team-detail", args=[team.pk]),
        "venue": venue_url(team),
        "fixture": league_reverse("fixture-detail", args=[fixture.pk]),
        "ical": league_reverse("team-ical", args=[team.pk]),
    }


def _count_queries(client, url):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.fixture(scope="class")
def query_counts(django_db_setup, django_db_blocker):
    """Each page's queries with a small league, then (a big league built beside it) with
    the big one: built and counted once for the class below, not once a page (and rolled
    back when it is done, before the module's other tests)."""

    def count():
        small = make_league(teams_per_division=4, players_per_team=5)
        clients = {page: Client() for page in _pages(small)}  # one visitor a page
        small_counts = {
            page: _count_queries(clients[page], url) for page, url in _pages(small).items()
        }
        big = make_league(teams_per_division=10, players_per_team=9)
        big_counts = {page: _count_queries(clients[page], url) for page, url in _pages(big).items()}
        return small_counts, big_counts

    yield from built_once(django_db_blocker, count)


class TestQueryCounts:
    @pytest.mark.parametrize(
        "page", ["home", "season", "division", "team", "venue", "fixture", "ical"]
    )
    def test_page_query_count_does_not_grow_with_the_league(self, query_counts, page):
        small_count, big_count = query_counts[0][page], query_counts[1][page]
        assert big_count == small_count, f"{page}: {small_count} queries small, {big_count} big"
        assert small_count <= 8


def test_division_page_lists_its_teams_and_fixtures(client, league):
    response = client.get(league_reverse("division-detail", args=[league.premier.pk]))
    html = response.content.decode()
    for team in league.teams[:4]:
        assert team.name in html
    assert "Fixtures and results" in html
    assert 'name="viewport"' in html


def test_team_page_shows_roster_and_calendar_link(client, league):
    team = league.teams[0]
    html = client.get(league_reverse("team-detail", args=[team.pk])).content.decode()
    assert "Rita Referee" in html
    assert league_reverse("team-ical", args=[team.pk]) in html
    assert "Edit roster" not in html  # anonymous


def test_captain_sees_edit_link_only_on_own_team(client, league):
    client.force_login(league.captain)
    own = client.get(league_reverse("team-detail", args=[league.teams[0].pk])).content.decode()
    other = client.get(league_reverse("team-detail", args=[league.teams[1].pk])).content.decode()
    assert "Edit roster" in own and "Edit roster" not in other


def test_ical_feed_lists_every_fixture_with_venue(client, league):
    team = league.teams[0]
    body = client.get(league_reverse("team-ical", args=[team.pk])).content.decode()
    count = Fixture.objects.filter(home=team).count() + Fixture.objects.filter(away=team).count()
    assert body.count("BEGIN:VEVENT") == count
    assert "LOCATION:" in body and "DTSTART;TZID=Europe/London" in body


def test_postponed_fixture_is_marked_in_lists_and_calendar(client, league):
    from leagues.fixtures import services as fixture_services

    fixture = Fixture.objects.filter(home=league.teams[0]).first()
    fixture_services.fixture_postpone(fixture=fixture, reason="Snow")
    html = client.get(league_reverse("team-detail", args=[league.teams[0].pk])).content.decode()
    assert "postponed" in html
    ics = client.get(league_reverse("team-ical", args=[league.teams[0].pk])).content.decode()
    assert "STATUS:CANCELLED" in ics


def test_captain_edits_roster_through_the_page(client, league):
    team = league.teams[0]
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    response = client.post(url, {"action": "add", "add-name": "Nora Nobbs", "add-email": ""})
    assert response.status_code == 302
    assert team.registrations.filter(player__name="Nora Nobbs", status="active").exists()
    reg = team.registrations.get(player__name="Nora Nobbs")
    client.post(url, {"action": "remove", "registration": reg.pk})
    reg.refresh_from_db()
    assert reg.status == "removed"


def test_roster_page_shows_the_drafted_rule_error_beside_the_form(client, league):
    from leagues.teams import services as team_services
    from marker.errors import DomainError

    other_player = league.teams[1].registrations.first().player
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[league.teams[0].pk])
    before = league.teams[0].registrations.count()
    # Adding by name creates a new player; drafting an existing one goes through the API.
    response = client.post(url, {"action": "add", "add-name": "", "add-email": ""})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert league.teams[0].registrations.count() == before
    with pytest.raises(DomainError):
        team_services.roster_add_player(team=league.teams[0], player=other_player)


def test_captain_cannot_edit_another_teams_roster(client, league):
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[league.teams[1].pk])
    before = league.teams[1].registrations.count()
    assert client.post(url, {"action": "add", "add-name": "Sneaky"}).status_code == 403
    assert league.teams[1].registrations.count() == before


# ------------------------------------------- rule 8 from the roster page (issue 11, item 1)


def test_adding_by_the_name_of_someone_drafted_elsewhere_is_that_person_and_refused(client, league):
    """The walk-around: a captain types the name of someone who already plays for another
    team this season. The roster finds that person (one person, one record) and rule 8
    refuses them; no second record is made."""
    theirs = league.teams[1].registrations.select_related("player").first().player
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[league.teams[0].pk])
    # As the captain types, the existing player is suggested, with their team.
    typed = client.get(
        league_reverse("team-roster-suggest", args=[league.teams[0].pk]),
        {"add-name": theirs.name.lower()[:-1]},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert theirs.name in typed and f"plays for {league.teams[1].name}" in html.unescape(typed)
    assert f'value="{theirs.pk}"' not in typed  # nothing to add: rule 8 keeps them there
    # Typing the whole name and pressing Add is refused, naming the team.
    before = Player.objects.count()
    response = client.post(url, {"action": "add", "add-name": f" {theirs.name.upper()} "})
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert f"There is already a player called {theirs.name.upper()}" in page
    assert f"plays for {league.teams[1].name}" in page
    assert "This is someone else with the same name" in page
    assert Player.objects.count() == before
    # Choosing that person (a forged POST) is refused by rule 8 too.
    response = client.post(url, {"action": "add", "existing": theirs.pk})
    assert "plays for" in html.unescape(response.content.decode())
    assert not league.teams[0].registrations.filter(player=theirs).exists()
    # Only when the captain confirms it is someone else is a new record made.
    response = client.post(
        url, {"action": "add", "add-name": theirs.name, "add-someone_else": "on"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(name=theirs.name).count() == 2


def test_a_suggested_free_player_is_added_as_the_same_record(client, league):
    free = PlayerFactory(name="Olive Oldhand")
    client.force_login(league.captain)
    team = league.teams[0]
    typed = client.get(
        league_reverse("team-roster-suggest", args=[team.pk]), {"add-name": "olive"}
    ).content.decode()
    assert "Add Olive Oldhand" in typed and f'value="{free.pk}"' in typed
    response = client.post(
        league_reverse("team-roster", args=[team.pk]), {"action": "add", "existing": free.pk}
    )
    assert response.status_code == 302
    assert team.registrations.get(player=free).status == "active"
    assert Player.objects.filter(name="Olive Oldhand").count() == 1


def test_the_roster_page_suggests_players_with_htmx_and_no_inline_script(client, league):
    client.force_login(league.captain)
    page = client.get(league_reverse("team-roster", args=[league.teams[0].pk])).content.decode()
    assert 'hx-get="' + league_reverse("team-roster-suggest", args=[league.teams[0].pk]) in page
    assert 'hx-target="#add-suggestions"' in page
    assert "<script>" not in page and "onclick" not in page and "style=" not in page


# -------------------------------------- removing a player: Undo, never yourself (item 13)


def test_removing_a_player_can_be_undone(client, league):
    team = league.teams[0]
    reg = team.registrations.filter(player__user__isnull=True).first()
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    response = client.post(url, {"action": "remove", "registration": reg.pk}, follow=True)
    page = response.content.decode()
    assert f"Undo: put {reg.player.name} back" in html.unescape(page)
    reg.refresh_from_db()
    assert reg.status == "removed"
    client.post(url, {"action": "restore", "registration": reg.pk})
    reg.refresh_from_db()
    assert reg.status == "active"


def test_a_captain_cannot_remove_themself(client, league):
    from leagues.teams import services as team_services

    team = league.teams[0]
    me = team_services.players_named("Cap Tain").first() or PlayerFactory(
        name="Cap Tain", user=league.captain
    )
    mine = team_services.roster_add_player(team=team, player=me)
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    page = html.unescape(client.get(url).content.decode())
    assert "Remove Cap Tain" not in page  # no button on your own line
    response = client.post(url, {"action": "remove", "registration": mine.pk})
    assert response.status_code == 400
    assert "cannot take yourself off" in html.unescape(response.content.decode())
    mine.refresh_from_db()
    assert mine.status == "active"
