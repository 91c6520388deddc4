"""Who may do what with a league's money: registered into the one predicate table
(marker.permissions) when the app loads.

- `money.manage`: the league's treasurer or secretary (set fees, raise charges and fines,
  record payments, reverse entries, see every account, export, send reminders);
- `money.view_statement`: a team's statement to its captain and vice-captain, a player's
  to that player, and every statement to the treasurer and secretary.
"""

from __future__ import annotations

from typing import Any

from marker.permissions import is_authenticated, is_team_captain, is_treasurer, register


def sees_statement(user: Any, account: Any) -> bool:
    """`account` is a Team or a Player (of the season the statement is of: pass the
    team, or an object with `season` and `player`)."""
    if not is_authenticated(user) or account is None:
        return False
    player = getattr(account, "player", None)
    if player is not None:  # a player's statement: (season, player)
        if player.user_id is not None and player.user_id == user.pk:
            return True
        return is_treasurer(user, account)
    if is_team_captain(user, account):
        return True
    return is_treasurer(user, account)


register("money.manage", is_treasurer)
register("money.view_statement", sees_statement)
