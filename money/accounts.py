"""An account of a season's ledger: a team, or a player in a season (a player's account
spans the leagues they play in, so it is always read with its season)."""

from __future__ import annotations

from dataclasses import dataclass

from leagues.models import Player, Season, Team


@dataclass(frozen=True)
class PlayerAccount:
    """A player's account in one season (the permission predicate reads `player`, and
    the league from `season`)."""

    season: Season
    player: Player

    @property
    def name(self) -> str:
        return self.player.name


Account = Team | PlayerAccount


def account_filter(account: Account) -> dict:
    """The ledger's filter for an account's lines."""
    if isinstance(account, Team):
        return {"season_id": account.season_id, "team": account}
    return {"season": account.season, "player": account.player}


def account_key(account: Account) -> str:
    if isinstance(account, Team):
        return f"team:{account.pk}"
    return f"player:{account.player.pk}"
