"""Who may open and post to the personal data pages and endpoints. Erasing needs an
explicit confirmation, so the walk's empty POST as the secretary erases nobody."""

from __future__ import annotations

from django.utils import timezone

from leagues.models import CalendarFeed, Player

from .base import EVERYONE, SIGNED_IN, STAFF, Rule

player = lambda c: {"pk": c.league.teams[0].registrations.first().player_id}  # noqa: E731


def setup(ctx):
    """The registered player's calendar address (its token is the key)."""
    player = Player.objects.get(user=ctx.league.player_user)
    ctx.calendar_token = CalendarFeed.objects.create(player=player, created_at=timezone.now()).token


ACCESS = {
    "my-data": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "my-data-download": Rule(get=SIGNED_IN, post=None),
    # Without a player record the page says so and goes back (a redirect, not a denial).
    "my-categories": Rule(get=None, post=SIGNED_IN),
    "person-erase": Rule(kwargs=player, get=STAFF, post=STAFF),
    "api-my-data": Rule(get=SIGNED_IN, post=None),
    "api-my-privacy": Rule(get=None, post=SIGNED_IN),
    "api-person-erase": Rule(kwargs=player, get=None, post=STAFF),
    # Without a player record the answer is 404 (not a denial); the page redirects back.
    "my-calendar-renew": Rule(get=None, post=SIGNED_IN),
    "api-my-calendar": Rule(get=SIGNED_IN, post=None),
    "api-my-calendar-revoke": Rule(get=None, post=SIGNED_IN),
    "person-calendar": Rule(
        kwargs=lambda c: {"token": c.calendar_token},
        get=EVERYONE,
        post=None,
        note="the token is the credential",
    ),
}
