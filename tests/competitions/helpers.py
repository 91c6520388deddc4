"""Shared set-up for the competitions tests."""

from __future__ import annotations

from datetime import UTC, datetime

from competitions import draw as cupdraw
from competitions.models import Competition
from competitions.services.draws import draw_commit, draw_perform, draw_reveal
from leagues.models import Player, Registration

NOW = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)


def registered_players(league, n: int) -> list[Player]:
    """n players registered this season, from the league's rosters."""
    ids = (
        Registration.objects.filter(season=league.season, status="active")
        .order_by("id")
        .values_list("player_id", flat=True)[:n]
    )
    players = list(Player.objects.filter(pk__in=list(ids)).order_by("id"))
    assert len(players) == n
    return players


def drawn(competition: Competition, secretary, secret: str = "secretary secret") -> Competition:
    draw_commit(
        actor=secretary, competition=competition, commitment=cupdraw.commitment(secret), now=NOW
    )
    draw_reveal(actor=secretary, competition=competition, secret=secret, now=NOW)
    return draw_perform(actor=secretary, competition=competition, now=NOW)
