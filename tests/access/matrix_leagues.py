"""Who may open and post to each league page and endpoint."""

from __future__ import annotations

from leagues.models import Fixture, Invitation

from .base import EVERYONE, SIGNED_IN, STAFF, TEAM0_CAPTAINS, Rule


def setup(ctx) -> None:
    ctx.fixture = Fixture.objects.filter(home=ctx.league.teams[0]).first()
    ctx.invitation = Invitation.objects.create(
        team=ctx.league.teams[0], name="Ivy", email="ivy@example.org"
    )
    ctx.registration = ctx.league.teams[0].registrations.first()


season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
team0 = lambda c: {"pk": c.league.teams[0].pk}  # noqa: E731
fixture = lambda c: {"pk": c.fixture.pk}  # noqa: E731

ACCESS = {
    "home": Rule(),
    "season-detail": Rule(kwargs=season),
    "team-register": Rule(kwargs=season, get=SIGNED_IN, post=SIGNED_IN),
    "fixtures-generate": Rule(kwargs=season, get=STAFF, post=STAFF),
    "season-rollover": Rule(kwargs=season, get=STAFF, post=STAFF),
    "division-detail": Rule(kwargs=lambda c: {"pk": c.league.premier.pk}),
    "team-detail": Rule(kwargs=team0),
    "team-roster": Rule(kwargs=team0, get=TEAM0_CAPTAINS, post=TEAM0_CAPTAINS),
    "team-roster-suggest": Rule(kwargs=team0, get=TEAM0_CAPTAINS, post=None),
    "team-ical": Rule(kwargs=team0),
    "venue-detail": Rule(kwargs=lambda c: {"pk": c.league.teams[0].venue_id}),
    "fixture-detail": Rule(kwargs=fixture),
    "fixture-edit": Rule(kwargs=fixture, get=STAFF, post=STAFF),
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
    "api-league-list": Rule(),
    "api-league-detail": Rule(kwargs=lambda c: {"pk": c.league.season.league_id}),
    "api-season-list": Rule(),
    "api-season-detail": Rule(kwargs=season),
    "api-division-list": Rule(),
    "api-division-detail": Rule(kwargs=lambda c: {"pk": c.league.premier.pk}),
    "api-venue-list": Rule(),
    "api-venue-detail": Rule(kwargs=lambda c: {"pk": c.league.teams[0].venue_id}),
    "api-player-list": Rule(),
    "api-player-detail": Rule(kwargs=lambda c: {"pk": c.registration.player_id}),
    "api-fixture-list": Rule(),
    "api-fixture-detail": Rule(kwargs=fixture),
    "api-team-list": Rule(get=EVERYONE, post=SIGNED_IN),
    "api-team-detail": Rule(kwargs=team0, get=EVERYONE, post=None),
    "api-team-roster": Rule(kwargs=team0, get=EVERYONE, post=TEAM0_CAPTAINS),
    "api-team-roster-entry": Rule(
        kwargs=lambda c: {"pk": c.league.teams[0].pk, "registration_id": c.registration.pk},
        get=None,
        post=None,
    ),
    "api-fixtures-generate": Rule(kwargs=season, get=None, post=STAFF),
    "api-season-rollover": Rule(kwargs=season, get=STAFF, post=STAFF),
    "api-fixture-move": Rule(kwargs=fixture, get=None, post=STAFF),
    "api-fixture-postpone": Rule(kwargs=fixture, get=None, post=STAFF),
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
}
