"""Who may open and post to the personal data pages and endpoints. Erasing needs an
explicit confirmation, so the walk's empty POST as the secretary erases nobody."""

from __future__ import annotations

from .base import SIGNED_IN, STAFF, Rule

player = lambda c: {"pk": c.league.teams[0].registrations.first().player_id}  # noqa: E731

ACCESS = {
    "my-data": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "my-data-download": Rule(get=SIGNED_IN, post=None),
    "person-erase": Rule(kwargs=player, get=STAFF, post=STAFF),
    "api-my-data": Rule(get=SIGNED_IN, post=None),
    "api-my-privacy": Rule(get=None, post=SIGNED_IN),
    "api-person-erase": Rule(kwargs=player, get=None, post=STAFF),
}
