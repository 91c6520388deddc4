"""The bagatelle family's quick path for a stroke that moved no other ball (`_single`)
agrees with the general one (`resolve_all`) for every game and every such stroke of
seeded plausible games, Sans Egal's colours and forfeits included."""

from __future__ import annotations

from typing import Any

import pytest

from rules.bagatelle import GAMES, BoardGame
from rules.simulate import simulate_game


def after(state: Any, resolved: tuple[dict[str, Any], int, bool]) -> Any:
    """The state a resolved stroke leaves (its changes applied), the balls used, the end."""
    changes, used, end = resolved
    return state._replace(**changes), used, end


BOARDS = [game for game in GAMES if isinstance(game, BoardGame)]


@pytest.mark.parametrize("game", BOARDS, ids=[game.id for game in BOARDS])
def test_the_single_ball_path_agrees_with_the_general_one(game: BoardGame) -> None:
    compared = 0
    general = game.resolve_all
    for seed in range(40):
        events = simulate_game(game, {}, seed=seed, max_events=300)
        state = game.initial({})
        for event in events:
            if event.get("type") == "ball" and "to" in event and not event.get("others"):
                for met in (True, False):
                    to, first = event["to"], event.get("first_hit")
                    rest = (event.get("nominated"), event.get("pins") or 0)
                    quick = game._single(state, to, first, met, *rest)
                    full = general(state, to, first, [], met, *rest)
                    assert after(state, quick) == after(state, full), (seed, met, event)
                    compared += 1
            state = game.apply(state, event)
    assert compared > 50
