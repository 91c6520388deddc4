"""The league's money: the ledger, fees, payments, reversals, exports and reminders are
the treasurer's and the secretary's; a team's statement is its captains' too, and a
player's statement that player's."""

from __future__ import annotations

from money import services

from .base import PLAYER, STAFF, TEAM0_CAPTAINS, Rule


def setup(ctx) -> None:
    league = ctx.league
    ctx.money_line = services.payment_record(
        actor=league.secretary,
        season=league.season,
        team=league.teams[0],
        amount=500,
        method="cash",
    )
    ctx.money_player = league.player_user.player


season = lambda c: {"pk": c.league.season.pk}  # noqa: E731
line = lambda c: {"pk": c.money_line.pk}  # noqa: E731
team0 = lambda c: {"pk": c.league.teams[0].pk}  # noqa: E731
player = lambda c: {"season": c.league.season.pk, "pk": c.money_player.pk}  # noqa: E731
THE_PLAYER = STAFF | {PLAYER}

ACCESS = {
    "money-ledger": Rule(kwargs=season, get=STAFF),
    "money-fees": Rule(kwargs=season, get=STAFF, post=STAFF),
    "money-raise": Rule(kwargs=season, get=None, post=STAFF),
    "money-charge": Rule(kwargs=season, get=None, post=STAFF),
    "money-payment": Rule(kwargs=season, get=None, post=STAFF),
    "money-reminders": Rule(kwargs=season, get=None, post=STAFF),
    "money-summary": Rule(kwargs=season, get=STAFF),
    "money-export": Rule(
        kwargs=lambda c: {"pk": c.league.season.pk, "sheet": "ledger", "fmt": "csv"}, get=STAFF
    ),
    "money-reverse": Rule(kwargs=line, get=STAFF, post=STAFF),
    "money-team-statement": Rule(kwargs=team0, get=TEAM0_CAPTAINS),
    "money-player-statement": Rule(kwargs=player, get=THE_PLAYER),
    "api-money-ledger": Rule(kwargs=season, get=STAFF, post=STAFF),
    "api-money-balances": Rule(kwargs=season, get=STAFF),
    "api-money-reverse": Rule(kwargs=line, get=None, post=STAFF),
    "api-money-team-statement": Rule(kwargs=team0, get=TEAM0_CAPTAINS),
    "api-money-player-statement": Rule(kwargs=player, get=THE_PLAYER),
}
