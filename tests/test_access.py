"""Walk every URL pattern × every role and prove who may read and write what.

A URL pattern with no rule in tests/access/matrix_*.py fails this test: a new page cannot
ship unprotected. Allowed means the answer is not a denial (403, 401, or a redirect to the
login page); denied means it is. Posts carry no data, so an allowed post is refused as
invalid and changes nothing.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

import tests.access as access_pkg
from tests.access.base import (
    ANON,
    CAPTAIN,
    OTHER_CAPTAIN,
    OUTSIDER,
    PLAYER,
    ROLES,
    SECRETARY,
    VICE,
)
from tests.conftest import built_once, make_league

pytestmark = pytest.mark.django_db


def _modules():
    for info in pkgutil.iter_modules(access_pkg.__path__):
        if info.name.startswith("matrix_"):
            yield importlib.import_module(f"tests.access.{info.name}")


def _all_url_names(resolver=None, namespace=""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            yield from _all_url_names(p, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield f"{namespace}{p.name}"


def _rules():
    merged, method_checks = {}, {}
    for module in _modules():
        merged.update(module.ACCESS)
        method_checks.update(getattr(module, "METHOD_CHECKS", {}))
    return merged, method_checks


def _context():
    ctx = SimpleNamespace(league=make_league(teams_per_division=4, players_per_team=5))
    for module in _modules():
        if hasattr(module, "setup"):
            module.setup(ctx)
    return ctx


@pytest.fixture(scope="module")
def ctx(django_db_setup, django_db_blocker):
    """The league and every module's objects, built once: the walk only reads them, and
    what its requests write rolls back with each test."""
    yield from built_once(django_db_blocker, _context)


def _client_for(role, ctx) -> Client:
    client = Client()
    users = {
        OUTSIDER: ctx.league.outsider,
        PLAYER: ctx.league.player_user,
        CAPTAIN: ctx.league.captain,
        VICE: ctx.league.vice_captain,
        OTHER_CAPTAIN: ctx.league.other_captain,
        SECRETARY: ctx.league.secretary,
    }
    if role != ANON:
        client.force_login(users[role], backend="django.contrib.auth.backends.ModelBackend")
    return client


def _denied(response) -> bool:
    if response.status_code in (401, 403):
        return True
    if response.status_code in (301, 302):
        return "/accounts/login/" in response.get(
            "Location", ""
        ) or "/admin/login/" in response.get("Location", "")
    return False


def test_every_url_pattern_has_an_access_rule():
    rules, _ = _rules()
    names = {n for n in _all_url_names() if not n.startswith("admin:")}
    missing = sorted(names - set(rules))
    assert not missing, f"URL patterns with no access rule: {missing}"
    stale = sorted(set(rules) - names)
    assert not stale, f"access rules for URLs that no longer exist: {stale}"


@pytest.mark.slow
def test_every_role_gets_exactly_what_the_matrix_allows(ctx):
    rules, method_checks = _rules()
    failures = []
    for name, rule in sorted(rules.items()):
        url = reverse(name, kwargs=rule.kwargs(ctx))
        for method, allowed in (("get", rule.get), ("post", rule.post)):
            for role in ROLES:
                # A fresh session each time: a POST to logout must not sign out the rest.
                response = getattr(_client_for(role, ctx), method)(url)
                if allowed is None:
                    if response.status_code not in (405, 403, 401) and not _denied(response):
                        failures.append(
                            f"{method.upper()} {name} as {role}: {response.status_code}, expected 405"
                        )
                    continue
                if response.status_code >= 500:
                    failures.append(f"{method.upper()} {name} as {role}: server error")
                elif role in allowed and _denied(response):
                    failures.append(
                        f"{method.upper()} {name} as {role}: denied ({response.status_code})"
                    )
                elif role not in allowed and not _denied(response):
                    failures.append(
                        f"{method.upper()} {name} as {role}: allowed ({response.status_code})"
                    )
    for (name, method), (kwargs, allowed) in method_checks.items():
        url = reverse(name, kwargs=kwargs(ctx))
        for role in ROLES:
            if role in allowed:
                continue  # an allowed DELETE would really remove the player; covered by API tests
            client = _client_for(role, ctx)
            response = getattr(client, method)(url, data={}, content_type="application/json")
            if not _denied(response):
                failures.append(
                    f"{method.upper()} {name} as {role}: allowed ({response.status_code})"
                )
    assert not failures, "\n".join(failures)


def test_admin_is_for_the_secretary_only(ctx):
    for role in ROLES:
        response = _client_for(role, ctx).get(reverse("admin:index"))
        assert (response.status_code == 200) == (role == SECRETARY), role
