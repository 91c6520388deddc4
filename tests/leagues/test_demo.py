"""The demo league a newcomer sees after `make run`."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from leagues.models import DirectoryPost, Fixture, League, Registration, Team, Venue
from marker.permissions import allowed, is_secretary

pytestmark = pytest.mark.django_db


def test_demo_league_is_believable_and_loads_once():
    call_command("demo_league")
    call_command("demo_league")  # a second run changes nothing
    league = League.objects.get(slug="norwich")
    season = league.seasons.get()
    assert season.divisions.count() == 2
    teams = Team.objects.filter(season=season)
    assert 10 <= teams.count() <= 12
    sizes = Counter(
        Registration.objects.filter(season=season, status="active").values_list("team", flat=True)
    )
    assert all(6 <= n <= 9 for n in sizes.values()), sizes
    shared = [v for v, n in Counter(t.venue_id for t in teams).items() if n == 2]
    assert shared and teams.filter(venue_id=shared[0]).first().venue.tables == 1
    fixtures = Fixture.objects.filter(season=season)
    assert fixtures.count() == sum(
        d.teams.count() * (d.teams.count() - 1) for d in season.divisions.all()
    )
    for night in set(fixtures.values_list("date", flat=True)):
        assert fixtures.filter(date=night, venue_id=shared[0]).count() <= 1


def test_demo_accounts_can_log_in_with_their_roles(client):
    call_command("demo_league")
    for username in ("admin", "secretary", "captain", "referee"):
        response = client.post(
            "/accounts/login/", {"username": username, "password": "marker-demo"}
        )
        assert response.status_code == 302, username
        client.post("/accounts/logout/")
    captain_team = Team.objects.get(captain__username="captain")
    assert captain_team.registrations.filter(player__user__username="referee").exists()


def test_the_demo_secretary_runs_norwich_and_the_admin_runs_the_site():
    call_command("demo_league")
    norwich = League.objects.get(slug="norwich")
    secretary = get_user_model().objects.get(username="secretary")
    admin = get_user_model().objects.get(username="admin")
    assert is_secretary(secretary, norwich) and not secretary.is_staff
    assert admin.is_superuser and allowed(admin, "leagues.create_league")
    assert not allowed(secretary, "leagues.create_league")


def test_demo_has_a_second_league_in_another_game_and_format():
    call_command("demo_league")
    call_command("demo_league")  # a second run changes nothing
    norwich = League.objects.get(slug="norwich").seasons.get()
    chester = League.objects.get(slug="chester").seasons.get()
    assert chester.game_id == "northern_bagatelle" != norwich.game_id
    division = chester.divisions.get()
    assert division.format.selection == "fixed" and not division.format.rule_draw
    assert norwich.divisions.first().format.rule_draw
    assert Team.objects.filter(season=chester).count() == 4
    assert Fixture.objects.filter(season=chester).count() == 4 * 3


@pytest.mark.slow
def test_demo_match_nights_leave_a_bagatelle_match_in_play():
    from frames.models import Frame, Match

    call_command("demo_league")
    call_command("demo_match_nights", weeks=1)
    match = Match.objects.filter(fixture__season__league__slug="chester").exclude(
        status="confirmed"
    )
    assert match.count() == 1
    match = match.get()
    assert match.status == "in_play" and match.game_id == "northern_bagatelle"
    assert match.home_nomination and match.away_nomination  # the captains' lineups
    assert Frame.objects.filter(match=match).count() == 6
    played = Fixture.objects.filter(
        season__league__slug="chester", result_confirmed_at__isnull=False
    )
    assert all(f.home_sections is not None for f in played)


def test_the_demo_venues_are_in_the_directory_with_a_join_a_team_post(client):
    """Where to play: every demo pub with its town, tables, league night and map link, and
    one published "Join a team" post (docs/directory.md)."""
    call_command("demo_league")
    call_command("demo_league")  # a second run adds nothing
    venues = Venue.objects.filter(teams__season__league__slug__in=["norwich", "chester"])
    assert venues.exists()
    for venue in venues.distinct():
        assert venue.town and venue.latitude is not None, venue.name
        assert venue.game_tables.exists() and venue.nights.exists(), venue.name
    html = client.get("/where-to-play/", {"q": "Fat Cat"}).content.decode()
    assert "The Fat Cat" in html and "one in the back room" in html
    assert "https://www.openstreetmap.org/?mlat=" in html
    post = DirectoryPost.objects.get()
    assert (post.kind, post.status) == ("join_team", "published")
    assert post.title in client.get("/where-to-play/posts/").content.decode()
