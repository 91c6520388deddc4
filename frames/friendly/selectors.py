"""Reads of friendly games: a user's games, and a game's live score in its own words."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from frames.engine import game_of, initial_view
from frames.models import Frame, Friendly


def friendlies_of(user: Any) -> QuerySet[Friendly]:
    """The games a user started, newest first, with their frames (one query)."""
    return Friendly.objects.filter(owner=user).select_related("frame").order_by("-created_at")


def _shown(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items()) or "–"
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value) or "–"
    return str(value)


def status_of(frame: Frame, view: dict[str, Any] | None = None) -> str:
    """A game's state in words: "In play"; once the engine says it is over, the game's
    word for it and whether the result still awaits its confirmation on the pad."""
    if view is None:
        view = frame.view or {}
    if frame.status == Frame.Status.CONCEDED:
        return frame.get_status_display()
    if frame.status == Frame.Status.COMPLETE:
        return f"{game_of(frame).over_label} · confirmed"
    if view.get("over"):
        return f"{game_of(frame).over_label} · awaiting confirmation"
    return frame.get_status_display()


def live(frame: Frame) -> dict[str, Any]:
    """What the game's page shows: the scores by party, the game's declared facts with
    their labels, whether it is over and who won."""
    game = game_of(frame)
    view = frame.view if frame.view is not None else initial_view(frame)
    facts = [
        (label, _shown(view.get(key)))
        for key, label in game.display
        if key not in ("scores", "over", "winner") and key in view
    ]
    return {
        "game": game.name,
        "scores": list((view.get("scores") or {}).items()),
        "facts": facts,
        "over": bool(view.get("over")),
        "winner": view.get("winner"),
        "shared": bool(view.get("shared")),
        "events": frame.last_seq,
        "status": status_of(frame, view),
    }
