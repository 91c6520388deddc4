"""The secretary's tables page: each command it posts (`action`) does its one thing; a
refused, invalid or unknown one shows the page again (400) and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from leagues.models import PointDeduction, Publication
from tests.conftest import make_league
from tests.links import league_reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def page():
    league = make_league(teams_per_division=2, players_per_team=1)
    client = Client()
    client.force_login(league.secretary)
    return league, client, league_reverse("season-tables", args=[league.season.pk])


def test_a_failed_publication_is_tried_again_from_the_page(page):
    league, client, url = page
    now = timezone.now()
    failed = Publication.objects.create(
        season=league.season, as_of=now, created_at=now, heartbeat_at=now, state="failed"
    )
    response = client.post(url, {"action": "retry", "publication": failed.pk})
    assert response.status_code == 302
    failed.refresh_from_db()
    assert failed.state != Publication.State.FAILED  # queued, and run in-process
    again = client.post(url, {"action": "retry", "publication": failed.pk})
    assert again.status_code == 400  # only a failed publication is tried again
    assert "Only a failed publication" in again.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "deduct", "team": "", "points": "1", "reason": "late"},
        {"action": "deduct", "team": "1", "points": "0", "reason": "late"},
        {"action": "promote"},
        {},
    ],
)
def test_an_invalid_or_unknown_command_shows_the_page_again(page, data):
    league, client, url = page
    response = client.post(url, data)
    assert response.status_code == 400
    assert "Check the form" in response.content.decode()
    assert not PointDeduction.objects.exists()
    assert not Publication.objects.exists()
