"""Friendly games: anyone signed in may start one and list their own; anyone with the link
may watch one."""

from __future__ import annotations

from frames.friendly.services import friendly_start

from .base import EVERYONE, SIGNED_IN, Rule


def setup(ctx) -> None:
    ctx.friendly = friendly_start(
        owner=ctx.league.player_user, game_id="three_cushion_carom", players=["Ann", "Bob"]
    )


friendly = lambda c: {"pk": c.friendly.pk}  # noqa: E731

ACCESS = {
    "friendly-list": Rule(get=SIGNED_IN),
    "friendly-new": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "friendly-detail": Rule(kwargs=friendly, get=EVERYONE),
    "friendly-live": Rule(kwargs=friendly, get=EVERYONE),
    "api-friendlies": Rule(get=SIGNED_IN, post=SIGNED_IN),
}
