"""Who may open and post to each league page and endpoint."""

from __future__ import annotations

from leagues.models import Fixture, Invitation, LeagueRole, Organisation

from .base import (
    EVERYONE,
    RESULTS_OFFICERS,
    SIGNED_IN,
    SITE_ADMIN_ONLY,
    STAFF,
    TEAM0_CAPTAINS,
    Rule,
)


def setup(ctx) -> None:
    ctx.fixture = Fixture.objects.filter(home=ctx.league.teams[0]).first()
    ctx.invitation = Invitation.objects.create(
        team=ctx.league.teams[0], name="Ivy", email=f"ivy.{ctx.slug}@example.org"
    )
    ctx.registration = ctx.league.teams[0].registrations.first()
    ctx.organisation = Organisation.objects.create(
        name=f"County {ctx.slug}", slug=f"county-{ctx.slug}"
    )
    ctx.league_obj = ctx.league.season.league
    ctx.secretary_role = LeagueRole.objects.get(
        league=ctx.league_obj, user=ctx.league.secretary, role=LeagueRole.Role.SECRETARY
    )
    ctx.officer_invitation = Invitation.objects.create(
        kind=Invitation.Kind.OFFICER,
        league=ctx.league_obj,
        role=LeagueRole.Role.RESULTS_SECRETARY,
        email=f"new.officer.{ctx.slug}@example.org",
    )


league = lambda c: {"league": c.slug}  # noqa: E731
season = lambda c: {"league": c.slug, "pk": c.league.season.pk}  # noqa: E731
team0 = lambda c: {"league": c.slug, "pk": c.league.teams[0].pk}  # noqa: E731
fixture = lambda c: {"league": c.slug, "pk": c.fixture.pk}  # noqa: E731
api_season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
api_team0 = lambda c: {"pk": c.league.teams[0].pk}  # noqa: E731
api_fixture = lambda c: {"pk": c.fixture.pk}  # noqa: E731
officer = lambda c: {"pk": c.league_obj.pk, "role_id": c.secretary_role.pk}  # noqa: E731

ACCESS = {
    "home": Rule(),
    # Leagues as tenants: the site administrator's page, a league's home and officers.
    "site-leagues": Rule(get=SITE_ADMIN_ONLY, post=SITE_ADMIN_ONLY),
    "league-home": Rule(kwargs=league),
    # Counties and associations above leagues: public pages.
    "organisation-list": Rule(),
    "organisation-home": Rule(kwargs=lambda c: {"slug": c.organisation.slug}),
    # Its ranking rules: its officers only (no league role is one: the officers' own
    # test is tests/frames/ratings/test_rankings.py).
    "organisation-ranking-rules": Rule(
        kwargs=lambda c: {"slug": c.organisation.slug},
        get=SITE_ADMIN_ONLY,
        post=SITE_ADMIN_ONLY,
    ),
    # Its competitions (the competitions app's): anyone reads; only its officers create
    # one (no league role does: tests/competitions/test_across_leagues.py has the officer).
    "organisation-competitions": Rule(kwargs=lambda c: {"slug": c.organisation.slug}),
    "api-organisation-competitions": Rule(
        kwargs=lambda c: {"slug": c.organisation.slug}, post=SITE_ADMIN_ONLY
    ),
    "league-officers": Rule(kwargs=league, get=STAFF, post=STAFF),
    "season-create": Rule(kwargs=league, get=STAFF, post=STAFF),
    "officer-invitation-accept": Rule(
        kwargs=lambda c: {"token": c.officer_invitation.token},
        get=EVERYONE,
        post=EVERYONE,
        note="the token is the credential",
    ),
    # The addresses before leagues were tenants redirect (301) to the league's.
    "legacy-season": Rule(kwargs=lambda c: {"pk": c.league.season.pk}),
    "legacy-division": Rule(kwargs=lambda c: {"pk": c.league.premier.pk}),
    "legacy-team": Rule(kwargs=lambda c: {"pk": c.league.teams[0].pk}),
    "legacy-fixture": Rule(kwargs=lambda c: {"pk": c.fixture.pk}),
    "legacy-publication": Rule(kwargs=lambda c: {"pk": c.publication.pk}),
    "season-detail": Rule(kwargs=season),
    "team-register": Rule(kwargs=season, get=SIGNED_IN, post=SIGNED_IN),
    "fixtures-generate": Rule(kwargs=season, get=STAFF, post=STAFF),
    "division-detail": Rule(kwargs=lambda c: {"league": c.slug, "pk": c.league.premier.pk}),
    "season-rollover": Rule(
        kwargs=lambda c: {"league": c.slug, "pk": c.league.season.pk}, get=STAFF, post=STAFF
    ),
    "team-detail": Rule(kwargs=team0),
    "team-roster": Rule(kwargs=team0, get=TEAM0_CAPTAINS, post=TEAM0_CAPTAINS),
    "team-roster-suggest": Rule(kwargs=team0, get=TEAM0_CAPTAINS, post=None),
    "team-ical": Rule(kwargs=team0),
    "venue-detail": Rule(kwargs=lambda c: {"league": c.slug, "pk": c.league.teams[0].venue_id}),
    "fixture-detail": Rule(kwargs=fixture),
    "fixture-edit": Rule(kwargs=fixture, get=RESULTS_OFFICERS, post=RESULTS_OFFICERS),
    "player-detail": Rule(kwargs=lambda c: {"pk": c.registration.player_id}),
    "invitation-accept": Rule(
        kwargs=lambda c: {"token": c.invitation.token},
        get=EVERYONE,
        post=EVERYONE,
        note="the token is the credential",
    ),
    # API
    "api-schema": Rule(),
    "api-docs": Rule(),
    "api-root": Rule(),
    "api-league-list": Rule(get=EVERYONE, post=SITE_ADMIN_ONLY),
    "api-league-detail": Rule(kwargs=lambda c: {"pk": c.league.season.league_id}),
    "api-league-officers": Rule(kwargs=lambda c: {"pk": c.league_obj.pk}, get=STAFF, post=STAFF),
    "api-league-officer": Rule(kwargs=officer, get=None, post=None),
    "api-league-seasons": Rule(kwargs=lambda c: {"pk": c.league_obj.pk}, get=None, post=STAFF),
    "api-season-list": Rule(),
    "api-season-detail": Rule(kwargs=api_season),
    "api-division-list": Rule(),
    "api-division-detail": Rule(kwargs=lambda c: {"pk": c.league.premier.pk}),
    "api-venue-list": Rule(),
    "api-venue-detail": Rule(kwargs=lambda c: {"pk": c.league.teams[0].venue_id}),
    "api-player-list": Rule(),
    "api-player-detail": Rule(kwargs=lambda c: {"pk": c.registration.player_id}),
    "api-fixture-list": Rule(),
    "api-fixture-detail": Rule(kwargs=api_fixture),
    "api-team-list": Rule(get=EVERYONE, post=SIGNED_IN),
    "api-team-detail": Rule(kwargs=api_team0, get=EVERYONE, post=None),
    "api-team-roster": Rule(kwargs=api_team0, get=EVERYONE, post=TEAM0_CAPTAINS),
    "api-team-roster-entry": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].pk, "registration_id": c.registration.pk},
        get=None,
        post=None,
    ),
    "api-fixtures-generate": Rule(kwargs=api_season, get=None, post=STAFF),
    "api-fixture-move": Rule(kwargs=api_fixture, get=None, post=RESULTS_OFFICERS),
    "api-fixture-postpone": Rule(kwargs=api_fixture, get=None, post=RESULTS_OFFICERS),
    "api-season-rollover": Rule(kwargs=api_season, get=STAFF, post=STAFF),
    # Accounts
    "login": Rule(get=EVERYONE, post=EVERYONE),
    "logout": Rule(get=None, post=EVERYONE),
    "password_reset": Rule(get=EVERYONE, post=EVERYONE),
    "password_reset_done": Rule(),
    "password_reset_confirm": Rule(
        kwargs=lambda c: {"uidb64": "x", "token": "y"}, get=EVERYONE, post=EVERYONE
    ),
    "password_reset_complete": Rule(),
    "password_change": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "password_change_done": Rule(get=SIGNED_IN),
}

# Writes on the team API go through PATCH; the roster entry through DELETE.
METHOD_CHECKS = {
    ("api-team-detail", "patch"): (lambda c: {"pk": c.league.teams[0].pk}, TEAM0_CAPTAINS),
    ("api-team-roster-entry", "delete"): (
        lambda c: {"pk": c.league.teams[0].pk, "registration_id": c.registration.pk},
        TEAM0_CAPTAINS,
    ),
    # A league's secretary removes its officers (the last secretary stays: 409).
    ("api-league-officer", "delete"): (officer, STAFF),
}
