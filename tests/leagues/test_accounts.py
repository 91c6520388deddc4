"""Log in, log out, password reset by email, and throttled failed logins."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_login_and_logout(client):
    UserFactory(username="ann")
    response = client.post(reverse("login"), {"username": "ann", "password": "pw-for-tests-1"})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].is_authenticated
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_password_reset_sends_an_email_with_a_working_link(client):
    UserFactory(username="ann", email="ann@example.org")
    client.post(reverse("password_reset"), {"email": "ann@example.org"})
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    path = link[link.index("/accounts/reset/") :].strip()
    response = client.get(path, follow=True)
    assert response.status_code == 200 and response.context["validlink"]


def test_repeated_failed_logins_are_locked_out_even_with_the_right_password(client):
    UserFactory(username="ann")
    for _ in range(5):  # AXES_FAILURE_LIMIT is 5 in tests, 10 in production
        client.post(reverse("login"), {"username": "ann", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "ann", "password": "pw-for-tests-1"})
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
