"""Login throttling that holds behind a proxy (django-axes, configured in config/settings.py).

* **The client's address** comes from the `X-Forwarded-For` chain only as far as the
  proxies we trust: with `TRUSTED_PROXY_COUNT = n`, the last n hops (the one that
  connected, `REMOTE_ADDR`, included) are our proxies, and the address before them is the
  client's. Anything a client writes further left is ignored, so it cannot pick an
  address to throttle; with no trusted proxy (the default) it is `REMOTE_ADDR`.
* **Each lock-out parameter has its own limit.** axes compares one number with one limit;
  `Handler` scales each parameter's count so that a username at one address locks after
  `AXES_FAILURE_LIMIT` failures, while an address alone, across every username it tries
  (spraying), locks after `AXES_ADDRESS_FAILURE_LIMIT`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse


def _address(text: str) -> str | None:
    text = (text or "").strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, as the trusted proxies saw it (AXES_CLIENT_IP_CALLABLE).

    >>> from django.test import RequestFactory
    >>> from django.test.utils import override_settings
    >>> request = RequestFactory().get(
    ...     "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
    ... )
    >>> with override_settings(TRUSTED_PROXY_COUNT=0):
    ...     client_ip(request)
    '10.0.0.2'
    >>> with override_settings(TRUSTED_PROXY_COUNT=1):
    ...     client_ip(request)
    '203.0.113.7'
    """
    remote = _address(request.META.get("REMOTE_ADDR", ""))
    trusted = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if trusted <= 0:
        return remote
    forwarded = [
        part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()
    ]
    chain = [*forwarded, request.META.get("REMOTE_ADDR", "")]
    if len(chain) <= trusted:
        # Fewer hops than proxies: the request did not come through them all; the
        # leftmost address is the best we have.
        return _address(chain[0]) or remote
    return _address(chain[-(trusted + 1)]) or remote


class Handler(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """axes' database handler, with a limit per lock-out parameter: the address on its own
    (`"ip_address"`) has AXES_ADDRESS_FAILURE_LIMIT, every other parameter (username and
    address together) AXES_FAILURE_LIMIT. Counts are scaled to AXES_FAILURE_LIMIT, which
    axes compares them with: count × limit ÷ own limit reaches the limit exactly when the
    count reaches its own."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        limit = int(settings.AXES_FAILURE_LIMIT)
        address_limit = int(getattr(settings, "AXES_ADDRESS_FAILURE_LIMIT", limit))
        parameters = get_lockout_parameters(request, credentials)
        worst = 0
        for parameter, attempts in zip(
            parameters, self.get_user_attempts(request, credentials), strict=True
        ):
            count = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            own = address_limit if parameter in ("ip_address", ["ip_address"]) else limit
            worst = max(worst, count * limit // max(own, 1))
        return worst

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """A successful login forgets that username's failures at this address, never the
        address's count across usernames: one good password must not wipe out a spray."""
        parameters = get_lockout_parameters(request, credentials)
        count = 0
        for parameter, attempts in zip(
            parameters, self.filter_user_attempts(request, credentials), strict=True
        ):
            if isinstance(parameter, list) and "username" in parameter:
                count += attempts.delete()[0]
        return count


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's last step of a password reset, which also lifts the username's lock-outs:
    a locked account is never a denial of service for its owner, who proves themself with
    the emailed link."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response
