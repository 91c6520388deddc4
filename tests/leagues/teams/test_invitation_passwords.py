"""Passwords set through an invitation obey the site's validators (issue 11, item 8):
`12345678` is refused, and nothing is created — no account, no player, no registration,
and the invitation stays open."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from leagues import invitations
from leagues.models import Invitation, Player, Registration
from marker.errors import DomainError
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def invitation() -> Invitation:
    team = TeamFactory()
    return invitations.invitation_create(
        team=team, invited_by=team.captain, name="Ann Example", email="ann@example.org"
    )


def nothing_created(invitation: Invitation, users_before: int) -> None:
    assert User.objects.count() == users_before
    assert not User.objects.filter(username="annex").exists()
    assert not Player.objects.filter(name="Ann Example").exists()
    assert not Registration.objects.filter(team=invitation.team, player__name="Ann Example")
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


@pytest.mark.parametrize(
    "password", ["12345678", "password", "annex123", "ann@example.org"], ids=str
)
def test_a_weak_password_is_refused_by_the_service(invitation, password):
    users = User.objects.count()
    with pytest.raises(DomainError) as refused:
        invitations.invitation_accept(token=invitation.token, username="annex", password=password)
    assert refused.value.code == "weak_password" and refused.value.field == "password"
    nothing_created(invitation, users)


def test_12345678_is_refused_on_the_invitation_page(invitation):
    users = User.objects.count()
    url = reverse("invitation-accept", args=[invitation.token])
    response = Client().post(url, {"username": "annex", "password": "12345678"})
    assert response.status_code == 200  # the form again, with the validators' words
    assert "numeric" in response.content.decode().lower()
    nothing_created(invitation, users)
    assert "_auth_user_id" not in Client().session


def test_a_strong_password_makes_the_account(invitation):
    url = reverse("invitation-accept", args=[invitation.token])
    response = Client().post(url, {"username": "annex", "password": "cue-ball-47-rests"})
    assert response.status_code == 302
    user = User.objects.get(username="annex")
    assert user.check_password("cue-ball-47-rests")
    assert Registration.objects.filter(team=invitation.team, player__user=user).exists()
