"""The demo league a newcomer sees after `make run`."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from leagues.models import Fixture, League, Registration, Team
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
