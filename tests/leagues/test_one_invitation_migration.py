"""The migration to one invitation model keeps every invitation: an officer's becomes an
invitation of kind "officer" with its token (a link already emailed still works), dates
and inviter; a roster invitation is untouched; and it runs backwards."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("leagues", "0010_honours_and_awards")]
AFTER = [("leagues", "0011_one_invitation")]
THEN = datetime(2026, 3, 1, 19, 30, tzinfo=UTC)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_officer_and_roster_invitations_survive_the_move_into_one_model():
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    League = apps.get_model("leagues", "League")
    OfficerInvitation = apps.get_model("leagues", "OfficerInvitation")
    inviter = User.objects.create(username="migration-admin")
    league = League.objects.create(name="Old League", slug="old-league")
    old = OfficerInvitation.objects.create(
        league=league, role="secretary", email="sec@example.org", invited_by=inviter,
        token="officer-token", sent_at=THEN,
    )  # fmt: skip
    OfficerInvitation.objects.filter(pk=old.pk).update(created_at=THEN)
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="2026", slug="2026"
    )
    venue = apps.get_model("leagues", "Venue").objects.create(name="The Old Bell")
    team = apps.get_model("leagues", "Team").objects.create(
        season=season, name="Bell A", venue=venue
    )
    apps.get_model("leagues", "Invitation").objects.create(
        team=team, name="Ivy", email="ivy@example.org", token="roster-token"
    )

    apps = migrate(AFTER)
    Invitation = apps.get_model("leagues", "Invitation")
    moved = Invitation.objects.get(token="officer-token")
    assert (moved.kind, moved.league_id, moved.role, moved.team_id) == (
        "officer", league.pk, "secretary", None,
    )  # fmt: skip
    assert (moved.email, moved.invited_by_id, moved.sent_at, moved.created_at) == (
        "sec@example.org", inviter.pk, THEN, THEN,
    )  # fmt: skip
    assert moved.accepted_at is None
    roster = Invitation.objects.get(token="roster-token")
    assert (roster.kind, roster.team_id, roster.name, roster.league_id, roster.role) == (
        "roster", team.pk, "Ivy", None, "",
    )  # fmt: skip

    apps = migrate(BEFORE)
    back = apps.get_model("leagues", "OfficerInvitation").objects.get(token="officer-token")
    assert (back.league_id, back.role, back.email, back.created_at) == (
        league.pk, "secretary", "sec@example.org", THEN,
    )  # fmt: skip
    assert not apps.get_model("leagues", "Invitation").objects.filter(token="officer-token")
    assert apps.get_model("leagues", "Invitation").objects.get(token="roster-token").name == "Ivy"
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
