"""Each command the roster page posts (`action`) does its one thing, and a refused or
unknown one shows the page again with its reason (400)."""

from __future__ import annotations

import html

import pytest
from django.core import mail

from leagues.models import Invitation, Registration
from tests.links import league_reverse

pytestmark = pytest.mark.django_db


def pending(team) -> Registration:
    """A registration awaiting the captain's answer (as a rollover leaves them)."""
    reg = team.registrations.filter(status=Registration.Status.ACTIVE).first()
    Registration.objects.filter(pk=reg.pk).update(status=Registration.Status.PENDING)
    return reg


@pytest.mark.parametrize(("action", "status"), [("confirm", "active"), ("decline", "removed")])
def test_a_captain_answers_a_pending_registration(client, league, action, status):
    team = league.teams[0]
    reg = pending(team)
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    response = client.post(url, {"action": action, "registration": reg.pk})
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.status == status
    again = client.post(url, {"action": action, "registration": reg.pk})
    assert again.status_code == 404  # no longer pending: not among the pending ones


def test_a_captain_invites_by_email_from_the_page(
    client, league, django_capture_on_commit_callbacks
):
    team = league.teams[0]
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {"action": "invite", "invite-name": "Ona Newby", "invite-email": "ona@example.org"},
        )
    assert response.status_code == 302
    invitation = Invitation.objects.get(team=team, email="ona@example.org")
    assert invitation.kind == Invitation.Kind.ROSTER
    assert len(mail.outbox) == 1 and invitation.get_absolute_url() in mail.outbox[0].body
    again = client.post(
        url, {"action": "invite", "invite-name": "Ona Newby", "invite-email": "ona@example.org"}
    )
    assert again.status_code == 400
    assert "has already been invited" in html.unescape(again.content.decode())


def test_an_invitation_in_the_name_of_a_known_player_offers_them(client, league):
    team = league.teams[0]
    known = league.teams[1].registrations.first().player
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    response = client.post(
        url, {"action": "invite", "invite-name": known.name, "invite-email": "x@example.org"}
    )
    assert response.status_code == 400
    assert response.context["same_name_for"] == "invite"
    assert [s["player"].pk for s in response.context["same_name"]] == [known.pk]
    assert not Invitation.objects.filter(email="x@example.org").exists()


def test_an_unknown_command_is_refused_with_the_page(client, league):
    team = league.teams[0]
    client.force_login(league.captain)
    url = league_reverse("team-roster", args=[team.pk])
    before = list(team.registrations.values_list("pk", "status"))
    response = client.post(url, {"action": "promote"})
    assert response.status_code == 400
    assert "Unknown action." in response.content.decode()
    assert list(team.registrations.values_list("pk", "status")) == before
