"""House rules: the setup options a league may vary, under names a secretary understands.

A league plays a game "as the book says" except where it has decided otherwise at its AGM
(a target score, the set of balls, a board's values). Those decisions are setup options
the game already declares (its ``options``); this module says which of them are house
rules, what a secretary calls each, and the rule text each comes from. A game with no
declaration here offers every option that is not about who plays (the seating), named by
its own doc.

>>> from rules import get
>>> [(h.option, h.label) for h in house_rules(get("bar_billiards_4pin"))]
[('white_balls', 'White balls in the set')]
>>> [h.option for h in house_rules(get("northern_bagatelle"))]
['target', 'ties', 'cups', 'black_multiplier', 'capacity', 'rounds']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import Game
from rules.vocabulary import Field

__all__ = ["HOUSE_RULES", "SEATING_OPTIONS", "HouseRule", "house_rules", "in_force"]


@dataclass(frozen=True)
class HouseRule:
    """One house rule: the game's setup ``option`` it sets, the ``label`` a secretary
    reads, where it comes from (``source``: the rule book and its words), and the
    option's declaration (``field``: its type, default, choices and bounds)."""

    option: str
    label: str
    source: str = ""
    field: Field | None = None

    def as_dict(self) -> dict[str, Any]:
        """This house rule as JSON (the option's default and choices included)."""
        f = self.field
        return {
            "option": self.option,
            "label": self.label,
            "source": self.source,
            "type": f.type if f else None,
            "default": f.default if f else None,
            "choices": list(f.choices) if f and isinstance(f.choices, tuple) else None,
        }


#: Setup options about who plays and in what order: set by the draw or the pad, never a
#: house rule.
SEATING_OPTIONS = frozenset(
    {
        "players",
        "sides",
        "breaks_first",
        "leads",
        "dealer",
        "partners",
        "hands",
        "private",
        "private_range",
        "starts",
    }
)

_NORWICH = "Norwich 4-pin bar billiards league rules"
_BAGATELLE = "Bagatelle rules (Northern Bagatelle, as played around Chester)"

#: Game id -> its house rules, in the order a secretary reads them, with their sources.
HOUSE_RULES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "bar_billiards_4pin": (
        (
            "white_balls",
            "White balls in the set",
            f"{_NORWICH}, rule 1(a): “One red and seven white balls. Matches can be "
            "played if only six white balls are available.”",
        ),
    ),
    "northern_bagatelle": (
        (
            "target",
            "Points that win a game",
            f"{_BAGATELLE}: “The game is usually played to 120 points.”",
        ),
        (
            "ties",
            "A tie at the end",
            f"{_BAGATELLE}: the player with the highest score wins once both have "
            "completed their turn; a league decides whether a tie is played off or shared.",
        ),
        (
            "cups",
            "The board's cup values",
            f"{_BAGATELLE}: “The central cup is numbered 9, the others are numbered 1 - 8”.",
        ),
        (
            "black_multiplier",
            "What the black scores (times its cup)",
            f"{_BAGATELLE}: “The black scores double points”.",
        ),
        (
            "capacity",
            "Balls one cup holds",
            f"{_BAGATELLE}: “Balls were supposed to be exactly the same diameter as the cups”.",
        ),
        (
            "rounds",
            "Rounds played (empty: no limit)",
            f"{_BAGATELLE}: a game is played to the target; a league may cap the sticks.",
        ),
    ),
}


def _houseable(f: Field) -> bool:
    if f.name in SEATING_OPTIONS:
        return False
    if f.type in ("int", "number", "bool", "str"):
        return True
    return f.type == "list" and f.item is not None and f.item.type == "int"


def house_rules(game: Game[Any]) -> tuple[HouseRule, ...]:
    """The house rules of ``game``: its declared ones (:data:`HOUSE_RULES`) that it still
    has as options, else every option a league could vary (not the seating), named by
    its doc."""
    options = {f.name: f for f in game.options}
    declared = HOUSE_RULES.get(game.id)
    if declared is not None:
        return tuple(
            HouseRule(name, label, source, options[name])
            for name, label, source in declared
            if name in options
        )
    return tuple(
        HouseRule(f.name, f.doc[:1].upper() + f.doc[1:], "", f)
        for f in game.options
        if _houseable(f)
    )


def in_force(game: Game[Any], values: Mapping[str, Any]) -> list[tuple[HouseRule, Any, bool]]:
    """Each house rule of ``game`` with the value a season plays (its own, else the
    game's default) and whether the season changed it from the default.

    >>> from rules import get
    >>> [(h.option, v, changed) for h, v, changed in in_force(get("bar_billiards_4pin"), {})]
    [('white_balls', 7, False)]
    """
    out = []
    for rule in house_rules(game):
        default = rule.field.default if rule.field is not None else None
        value = values.get(rule.option, default)
        out.append((rule, value, rule.option in values and _plain(value) != _plain(default)))
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, (list, tuple)) else value
