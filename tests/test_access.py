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
from leagues.models import LeagueRole
from tests.access.base import (
    ANON,
    CAPTAIN,
    COMPETITIONS,
    OTHER_CAPTAIN,
    OUTSIDER,
    PLAYER,
    RESULTS,
    ROLES,
    SECRETARY,
    SECRETARY_B,
    SITE_ADMIN,
    VICE,
)
from tests.conftest import built_once, make_league
from tests.factories import make_secretary, make_site_admin

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


def _league_context(league, other):
    """One league's objects, every module's setup run on it; `other` is the other league."""
    ctx = SimpleNamespace(league=league, slug=league.season.league.slug)
    ctx.results_secretary = make_secretary(
        league.season, role=LeagueRole.Role.RESULTS_SECRETARY, username=f"results{ctx.slug}"
    )
    ctx.competitions_secretary = make_secretary(
        league.season,
        role=LeagueRole.Role.COMPETITIONS_SECRETARY,
        username=f"competitions{ctx.slug}",
    )
    for module in _modules():
        if hasattr(module, "setup"):
            module.setup(ctx)
    return ctx


def _context():
    """League A (the rules' league) and league B, each with its own season, teams,
    fixtures, match and frame, and the module's objects; `ctx.b` is league B's context (its
    `ctx.b.b` is league A's again, so the walk can be run from either side)."""
    league_a = make_league(teams_per_division=4, players_per_team=5)
    league_b = make_league(teams_per_division=4, players_per_team=5)
    site_admin = make_site_admin(username="siteadmin")
    ctx = _league_context(league_a, league_b)
    ctx_b = _league_context(league_b, league_a)
    ctx.b, ctx_b.b = ctx_b, ctx
    ctx.league_b, ctx_b.league_b = league_b, league_a
    ctx.site_admin = ctx_b.site_admin = site_admin
    return ctx


@pytest.fixture(scope="module")
def ctx(django_db_setup, django_db_blocker):
    """Both leagues and every module's objects, built once: the walk only reads them, and
    what its requests write rolls back with each test."""
    yield from built_once(django_db_blocker, _context)


def _users(ctx) -> dict:
    """Each role's account, for the walk over `ctx`'s league: SECRETARY_B is the other
    league's secretary."""
    return {
        OUTSIDER: ctx.league.outsider,
        PLAYER: ctx.league.player_user,
        CAPTAIN: ctx.league.captain,
        VICE: ctx.league.vice_captain,
        OTHER_CAPTAIN: ctx.league.other_captain,
        SECRETARY: ctx.league.secretary,
        SECRETARY_B: ctx.b.league.secretary,
        RESULTS: ctx.results_secretary,
        COMPETITIONS: ctx.competitions_secretary,
        SITE_ADMIN: ctx.site_admin,
    }


def _client_for(role, ctx) -> Client:
    client = Client()
    if role != ANON:
        client.force_login(_users(ctx)[role], backend="django.contrib.auth.backends.ModelBackend")
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


def _with_admin(allowed):
    """The site administrator holds every permission: allowed wherever anyone is."""
    return allowed | {SITE_ADMIN} if allowed else allowed


def _walk(ctx, roles) -> list[str]:
    rules, method_checks = _rules()
    failures = []
    for name, rule in sorted(rules.items()):
        url = reverse(name, kwargs=rule.kwargs(ctx))
        for method, allowed in (("get", rule.get), ("post", rule.post)):
            allowed = _with_admin(allowed)
            for role in roles:
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
        for role in roles:
            if role in _with_admin(allowed):
                continue  # an allowed DELETE would really remove the player; covered by API tests
            client = _client_for(role, ctx)
            response = getattr(client, method)(url, data={}, content_type="application/json")
            if not _denied(response):
                failures.append(
                    f"{method.upper()} {name} as {role}: allowed ({response.status_code})"
                )
    return failures


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_every_role_gets_exactly_what_the_matrix_allows(ctx, role):
    """One role's walk (a test a role: they spread over the test workers)."""
    failures = _walk(ctx, (role,))
    assert not failures, "\n".join(failures)


@pytest.mark.slow
@pytest.mark.parametrize("role", [SECRETARY_B, SECRETARY, OUTSIDER])
def test_league_a_secretary_is_a_stranger_to_league_b(ctx, role):
    """The same walk over league B's objects: league A's secretary (SECRETARY_B from B's
    side) gets only what a stranger gets, and B's own secretary what a secretary gets."""
    failures = _walk(ctx.b, (role,))
    assert not failures, "\n".join(failures)


def test_an_object_under_another_leagues_address_is_not_found(ctx):
    """Every page under a league, asked for one of its objects under the other league's
    slug: 404, for the public and for both secretaries."""
    rules, _ = _rules()
    failures = []
    for name, rule in sorted(rules.items()):
        kwargs = rule.kwargs(ctx)
        # The league's own pages (no object of it in the address) are another league's there.
        if "league" not in kwargs or name in (
            "league-home",
            "league-honours",
            "league-no-card",
            "league-notices",
            "league-officers",
            "league-posts",
            "league-ratings",
            "league-rules",
            "season-create",
        ):
            continue
        url = reverse(name, kwargs=kwargs | {"league": ctx.b.slug})
        for role in (ANON, SECRETARY, SECRETARY_B):
            method = "get" if rule.get is not None else "post"
            status = getattr(_client_for(role, ctx), method)(url).status_code
            if status != 404 and not (role == ANON and status == 302):
                failures.append(f"{name} as {role} under the other league: {status}")
    assert not failures, "\n".join(failures)


def test_admin_is_for_the_site_administrator_only(ctx):
    """The Django admin spans every league: a league's secretary does not open it."""
    for role in ROLES:
        response = _client_for(role, ctx).get(reverse("admin:index"))
        assert (response.status_code == 200) == (role == SITE_ADMIN), role
