"""The bridge between a frame and the rules engine: the engine setup of a frame, its
state before any event, and its result read from the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frames.models import Frame, FramePlayer, Side
from rules import registry


def frame_setup(frame: Frame) -> dict[str, Any]:
    """The engine setup of a frame: `frame.setup` when the draw wrote one, else one built
    from the frame's players (sides home/away for games that have sides, else the players
    in order, home first).
    """
    if frame.setup:
        return dict(frame.setup)
    game = registry.get(frame.game_id)
    options = {f.name: f for f in game.options}
    names: dict[str, list[str]] = {Side.HOME: [], Side.AWAY: []}
    for side, name in (
        FramePlayer.objects.filter(frame=frame)
        .order_by("side", "position")
        .values_list("side", "player__name")
    ):
        names[side].append(name)
    setup: dict[str, Any] = {}
    if "sides" in options:
        setup["sides"] = [Side.HOME, Side.AWAY]
        if any(names.values()) and "players" in options:
            setup["players"] = {side: names[side] or [None] for side in (Side.HOME, Side.AWAY)}
    elif "players" in options and options["players"].type == "list":
        if names[Side.HOME] and names[Side.AWAY]:
            setup["players"] = names[Side.HOME] + names[Side.AWAY]
    return setup


def initial_view(frame: Frame) -> dict[str, Any]:
    """The public state of a frame that has no event yet (nothing written)."""
    game = registry.get(frame.game_id)
    return game.view(game.initial(frame_setup(frame)))


def frame_result(view: Mapping[str, Any]) -> tuple[int | None, int | None, str]:
    """(home score, away score, winner side) from the engine's view. Games whose parties
    are not named home/away map the first party to home and the second to away."""
    scores = view.get("scores") or {}
    if Side.HOME in scores:
        parties = [Side.HOME.value, Side.AWAY.value]
    else:
        parties = list(scores)[:2]
    values = [scores.get(p) for p in parties] + [None, None]
    home, away = (v if isinstance(v, int) and v >= 0 else None for v in values[:2])
    winner = view.get("winner")
    side = ""
    if winner in parties:
        side = (Side.HOME, Side.AWAY)[parties.index(winner)].value
    return home, away, side
