"""The sections beyond frames and competitions: officer roles and invitations, the emails
sent, sign-in records and the admin's log are in the download, and erasure removes or
renames them."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from axes.models import AccessLog
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType

from leagues.models import (
    Fixture,
    Invitation,
    LeagueRole,
    Player,
    Registration,
    SentNotification,
)
from people.erasure import person_erase
from people.export import person_data
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)
OLD = "Zebedee Quux"


@pytest.fixture
def officer(league):
    """A registered player who is also the league's results secretary, with an open
    invitation to another office, a reminder sent, a sign-in and an admin's change."""
    registration = Registration.objects.filter(season=league.season).first()
    player = registration.player
    user = UserFactory(username="zeb", email="zeb@example.org")
    Player.objects.filter(pk=player.pk).update(name=OLD, user=user)
    player.refresh_from_db()
    club = league.season.league
    LeagueRole.objects.create(league=club, user=user, role="results_secretary")
    Invitation.objects.create(
        kind="officer", league=club, role="secretary", email="zeb@example.org"
    )
    fixture = Fixture.objects.filter(season=league.season).first()
    SentNotification.objects.create(
        kind="reminder", fixture=fixture, recipient="zeb@example.org", sent_at=NOW
    )
    AccessLog.objects.create(username="zeb", ip_address="192.0.2.7", user_agent="phone")
    LogEntry.objects.create(
        user=league.secretary,
        content_type=ContentType.objects.get_for_model(Player),
        object_id=str(player.pk),
        object_repr=OLD,
        action_flag=CHANGE,
        change_message="[]",
    )
    league.player, league.user = player, user
    return league


def test_the_download_holds_roles_invitations_emails_and_sign_ins(officer):
    data = person_data(officer.player)
    assert [r["role"] for r in data["league_roles"]] == ["results_secretary"]
    assert [i["role"] for i in data["officer_invitations"]] == ["secretary"]
    assert [e["kind"] for e in data["emails_sent"]] == ["reminder"]
    assert [r["ip_address"] for r in data["login_records"]] == ["192.0.2.7"]


def test_erasure_removes_them_and_renames_the_admin_log(officer):
    person_erase(player=officer.player, actor=officer.secretary, now=NOW)
    assert not LeagueRole.objects.filter(user=officer.user).exists()
    assert not Invitation.objects.filter(email="zeb@example.org").exists()
    assert not SentNotification.objects.filter(recipient="zeb@example.org").exists()
    assert not AccessLog.objects.filter(username="zeb").exists()
    assert OLD not in json.dumps(list(LogEntry.objects.values()), default=str)
    assert LogEntry.objects.get().object_repr.startswith("Former player")
    player = Player.objects.get(pk=officer.player.pk)
    officer.user.refresh_from_db()
    after = json.dumps(person_data(player, officer.user), default=str)
    assert OLD not in after and "zeb@example.org" not in after
