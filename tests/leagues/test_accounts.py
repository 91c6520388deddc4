"""Log in, log out, password reset by email, and throttled failed logins."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings
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


# ------------------------- throttling that holds behind a proxy (issue 11, item 5)
# Tests: AXES_FAILURE_LIMIT 5 (a username at one address), AXES_ADDRESS_FAILURE_LIMIT 15
# (an address across usernames); production 10 and 30.


def login_from(client, username, password, address, *, via=None):
    headers = {"REMOTE_ADDR": via or address}
    if via:
        headers["HTTP_X_FORWARDED_FOR"] = f"6.6.6.6, {address}"  # the left part is forgeable
    return client.post(reverse("login"), {"username": username, "password": password}, **headers)


def test_spraying_many_usernames_from_one_address_is_refused(client):
    """40 wrong passwords over 5 usernames (8 each, under the per-username limit) from one
    address: refused from the address's limit on, even with a right password."""
    users = [UserFactory(username=f"cap{i}") for i in range(5)]
    statuses = [
        login_from(client, users[n % 5].username, "wrong", "198.51.100.9").status_code
        for n in range(40)
    ]
    assert statuses[:14] == [200] * 14  # the form again, "wrong password"
    assert set(statuses[15:]) == {429}
    response = login_from(client, "cap0", "pw-for-tests-1", "198.51.100.9")
    assert response.status_code == 429
    # Another address is not affected.
    assert login_from(client, "cap0", "pw-for-tests-1", "192.0.2.1").status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_each_client_is_throttled_by_its_own_address(client):
    """Every request comes from the TLS proxy (10.0.0.2); the address it forwards is the
    client's. One client hammering a captain's username does not lock the captain out
    from their own phone, and a forged X-Forwarded-For prefix changes nothing."""
    UserFactory(username="captain")
    for _ in range(5):
        login_from(client, "captain", "wrong", "203.0.113.66", via="10.0.0.2")
    assert login_from(client, "captain", "wrong", "203.0.113.66", via="10.0.0.2").status_code == 429
    response = login_from(client, "captain", "pw-for-tests-1", "198.51.100.20", via="10.0.0.2")
    assert response.status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_client_cannot_choose_its_address_by_forging_the_header(client):
    UserFactory(username="ann")
    for n in range(5):
        # Each request claims another address at the left of the chain; the proxy appends
        # the real one, and only that counts.
        client.post(
            reverse("login"),
            {"username": "ann", "password": "wrong"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.5",
        )
    assert (
        login_from(client, "ann", "pw-for-tests-1", "203.0.113.5", via="10.0.0.2").status_code
        == 429
    )


def test_a_locked_account_resets_its_password_and_the_lock_is_lifted(client):
    UserFactory(username="ann", email="ann@example.org")
    for _ in range(5):
        login_from(client, "ann", "wrong", "198.51.100.7")
    assert login_from(client, "ann", "pw-for-tests-1", "198.51.100.7").status_code == 429
    # The reset is not behind the lock.
    assert client.post(reverse("password_reset"), {"email": "ann@example.org"}).status_code == 302
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    form = client.get(link[link.index("/accounts/reset/") :].strip(), follow=True)
    new = "a-brand-new-passphrase-42"
    done = client.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert login_from(client, "ann", new, "198.51.100.7").status_code == 302


def test_a_good_password_does_not_wipe_out_an_addresss_failures(client):
    UserFactory(username="mine")
    for i in range(14):
        UserFactory(username=f"victim{i}")
        login_from(client, f"victim{i}", "wrong", "198.51.100.50")
    assert login_from(client, "mine", "pw-for-tests-1", "198.51.100.50").status_code == 302
    client.post(reverse("logout"))
    login_from(client, "victim0", "wrong", "198.51.100.50")
    assert login_from(client, "victim1", "wrong", "198.51.100.50").status_code == 429
