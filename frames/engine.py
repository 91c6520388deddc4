"""The bridge between a frame and the rules engine: the engine setup of a frame, its state
before any event, and its result read from the engine's typed outcome.

The web app knows no game by name. A league frame is played between two sides, home and
away; the engine decides how their players are seated (`rules.setup_for`) and who won
(`Game.outcome`). For a game played between individuals, the home side's players are
seated first, and a side's score is the sum of its players' scores.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from frames.models import SIDES, Frame, FramePlayer, Side
from rules import registry
from rules.core import Game, Outcome
from rules.seating import setup_for
from rules.validate import STARTS


def game_of(frame: Frame) -> Game[Any]:
    """The frame's game at the rules version it is played under (`Frame.rules_version`):
    a stored frame replays under its own version for ever. Raises `UnknownGame` for an id
    (or `UnknownVersion` for a version) the engine does not know."""
    return registry.get(frame.game_id, frame.rules_version)


def service_draws() -> Random:
    """The generator a service draws a game's hidden options from (the options a game
    declares `drawn_by_service`: the private small balls of forty-one, Kelly and pin
    pool): the operating system's cryptographic one, never anything a player can see or
    compute."""
    return secrets.SystemRandom()


def drawn_options(game_id: str) -> tuple[str, ...]:
    """The setup options of the game that a service draws and every view hides until the
    game is over (none for an unknown game)."""
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        return ()
    return tuple(option.name for option in game.options if option.drawn_by_service)


def frame_over(frame: Frame) -> bool:
    """The frame's game is over (its state says so, or the frame is complete or
    conceded)."""
    if frame.status in (Frame.Status.COMPLETE, Frame.Status.CONCEDED):
        return True
    return bool((frame.view or {}).get("over"))


def frame_sealed(frame: Frame) -> tuple[str, ...]:
    """The options of the frame's setup that no view may show now: those the service
    drew, until the game is over. While any is sealed, the engine's own state (which
    holds them) is not shown either."""
    if frame_over(frame):
        return ()
    return tuple(name for name in drawn_options(frame.game_id) if name in (frame.setup or {}))


def public_setup(frame: Frame) -> dict[str, Any]:
    """The frame's setup as a view may show it: without its sealed options."""
    sealed = frame_sealed(frame)
    return {k: v for k, v in (frame.setup or {}).items() if k not in sealed}


def side_setup(
    game_id: str,
    names: Mapping[str, Iterable[str | None]],
    options: Mapping[str, Any] | None,
    version: int | None = None,
    *,
    rng: Random | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The engine setup of a league frame, from its sides' players by name (home first)
    and the season's options for the game, and which side each party of it plays for
    (`Frame.parties`), under rules `version` (None: the newest). A handicap is `options["starts"] = {"home": n, "away": m}`: the
    points each side starts on (refused, `no_start`, by a game whose result is not a
    total of points). A service starting the frame passes `rng=service_draws()`: the
    options the game draws are drawn once, here. Raises the engine's `RuleError` if it
    cannot be played."""
    players: dict[str, list[str | None]] = {
        side: [n for n in names.get(side, ()) if n] or [None] for side in SIDES
    }
    parties = {side: side for side in SIDES}
    for side, side_names in players.items():
        parties.update({name: side for name in side_names if name})
    opts = dict(options or {})
    starts = opts.get(STARTS)
    if isinstance(starts, Mapping):
        # A handicap start per side (home/away): each party of the side starts on it,
        # whether the game seats sides or players.
        opts[STARTS] = {party: starts[side] for party, side in parties.items() if side in starts}
    return setup_for(registry.get(game_id, version), players, opts, rng=rng), parties


def frame_setup(frame: Frame) -> dict[str, Any]:
    """The engine setup of a frame: `frame.setup` when one was written (the draw, a
    friendly game), else one built from the frame's players."""
    if frame.setup:
        return dict(frame.setup)
    names: dict[str, list[str | None]] = {side: [] for side in SIDES}
    for side, name in (
        FramePlayer.objects.filter(frame=frame)
        .order_by("side", "position")
        .values_list("side", "player__name")
    ):
        names[side].append(name)
    return side_setup(frame.game_id, names, None, frame.rules_version)[0]


def initial_view(frame: Frame) -> dict[str, Any]:
    """The public state of a frame that has no event yet (nothing written)."""
    game = game_of(frame)
    return game.view(game.initial(frame_setup(frame)))


def frame_outcome(frame: Frame) -> Outcome:
    """The engine's outcome at the frame's current event."""
    game = game_of(frame)
    state = game.initial(frame_setup(frame)) if frame.state is None else game.load(frame.state)
    return game.outcome(state)


@dataclass(frozen=True)
class SideResult:
    """A frame's result by side: scores (None where the game gives none) and the winner
    ("" for none: shared, or no single winner)."""

    home: int | None
    away: int | None
    winner: str
    shared: bool


def side_result(outcome: Outcome, sides: Mapping[str, str]) -> SideResult:
    """Read the engine's outcome as home and away. A side's score is the sum of its
    parties' (rounded to a whole number: the scorecard keeps whole points)."""
    totals: dict[str, float] = {}
    for party, score in outcome.scores.items():
        side = sides.get(party)
        if side is not None:
            totals[side] = totals.get(side, 0) + score
    home, away = (round(totals[s]) if s in totals else None for s in (Side.HOME, Side.AWAY))
    winner = sides.get(outcome.winner or "", "") if not outcome.shared else ""
    return SideResult(home, away, winner, outcome.shared)


def frame_parties(frame: Frame) -> dict[str, str]:
    """Party → side for a league frame: what the draw stored, else the sides and the
    frame's players by name."""
    if frame.parties:
        return dict(frame.parties)
    parties = {side: side for side in SIDES}
    for side, name in FramePlayer.objects.filter(frame=frame).values_list("side", "player__name"):
        parties[name] = side
    return parties
