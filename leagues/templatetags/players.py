"""`{% player_name player %}`: the one way a page shows a player's name.

A player who asked not to be named publicly is shown by their initials, except to
themself and to the league's officers (`leagues.see_full_name`); an erased person's name
is already "Former player N". Lists built by selectors use `Player.public_name`.
"""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def player_name(context, player) -> str:
    if player is None:
        return ""
    if not getattr(player, "private_name", False):
        return player.name
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is not None and user.has_perm("leagues.see_full_name", player):
        return player.name
    return player.public_name
