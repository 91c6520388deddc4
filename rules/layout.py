"""Where a game's balls go, for a drawing of the table seen from above.

A game answers :meth:`rules.core.Game.table_map` with a :class:`TableMap`: the event and
list field whose items name a place (a pocket or a hole), and where each place sits
(0-1 across, 0-1 from the back of the table to the player). The web app draws from it
and guesses nothing from names.

>>> from rules import get
>>> m = get("bbc_co_pool").table_map()
>>> (m.event, m.field, m.place, m.shape), m.spot("foot_right")
(('stroke', 'pots', 'pocket', 'pockets'), (1.0, 1.0))
>>> get("parisian_31_pool").table_map() is None  # cups named by the setup: nothing fixed
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["POCKET_SPOTS", "PlaceSpot", "TableMap", "bed_spots", "pocket_map"]


@dataclass(frozen=True)
class PlaceSpot:
    """One place a ball can go (``name``: the value an event gives, a pocket's name or a
    hole's value) and where it sits: ``x`` 0 left .. 1 right, ``y`` 0 back .. 1 front."""

    name: Any
    x: float
    y: float


@dataclass(frozen=True)
class TableMap:
    """What a game lets the web app draw: the ``event`` type, its list ``field`` whose
    items name a place in their ``place`` field, the ``shape`` of the table (``pockets``
    round a pocket table, or the ``bed`` of numbered holes) and its ``spots``."""

    event: str
    field: str
    place: str
    shape: str
    spots: tuple[PlaceSpot, ...]

    @property
    def choices(self) -> tuple[Any, ...]:
        """The places, in declaration order."""
        return tuple(s.name for s in self.spots)

    def spot(self, name: Any) -> tuple[float, float]:
        """(x, y) of the place ``name`` (KeyError if the game has no such place)."""
        for s in self.spots:
            if s.name == name:
                return s.x, s.y
        raise KeyError(name)


#: The pockets of the tables the engine knows, by name: the English table (top, middle,
#: baulk) and the American one (head, side, foot), seen from above with the head or top
#: cushion at the back.
POCKET_SPOTS: Mapping[str, tuple[float, float]] = {
    "top_left": (0.0, 0.0),
    "top_right": (1.0, 0.0),
    "middle_left": (0.0, 0.5),
    "middle_right": (1.0, 0.5),
    "baulk_left": (0.0, 1.0),
    "baulk_right": (1.0, 1.0),
    "head_left": (0.0, 0.0),
    "head_right": (1.0, 0.0),
    "side_left": (0.0, 0.5),
    "side_right": (1.0, 0.5),
    "foot_left": (0.0, 1.0),
    "foot_right": (1.0, 1.0),
}


def bed_spots(holes: Sequence[int]) -> tuple[PlaceSpot, ...]:
    """Numbered holes across a bed, the highest at the back, the lowest nearest the
    player, alternating left and right of the middle as they come forward."""
    ordered = sorted(holes)
    n = len(ordered)
    spots = []
    for i, hole in enumerate(ordered):
        depth = (i + 1) / n  # 0 near the player .. 1 at the back
        offset = (1 - depth) * 0.42 * (1 if i % 2 else -1)
        spots.append(PlaceSpot(hole, 0.5 + offset, 1 - depth * 0.85 - 0.05))
    return tuple(spots)


def pocket_map(events: Iterable[Any]) -> TableMap | None:
    """The map of a game whose ``pots`` list names pockets of a known table (a field
    ``pocket`` with fixed choices, all in :data:`POCKET_SPOTS`), else None."""
    for event in events:
        for f in event.fields:
            item = f.item
            if f.name != "pots" or f.type != "list" or item is None or item.type != "object":
                continue
            for sub in item.fields:
                choices = sub.choices if isinstance(sub.choices, tuple) else ()
                if sub.name == "pocket" and choices and all(c in POCKET_SPOTS for c in choices):
                    spots = tuple(PlaceSpot(c, *POCKET_SPOTS[c]) for c in choices)
                    return TableMap(event.type, f.name, sub.name, "pockets", spots)
    return None
