"""Marker's rules engine: pure Python, standard library only.

>>> from rules import get, replay
>>> bb = get("bar_billiards_4pin")
>>> state = replay(bb, {}, [{"type": "shot", "pots": [{"ball": "white", "hole": 200}]}])
>>> bb.view(state)["break"]
200
"""

from rules.core import Game, Outcome, RuleChange, Stat, Timeline, aggregate, replay
from rules.registry import GAME_MODULES, UnknownGame, games, get, register
from rules.seating import Participants, Seating, setup_for
from rules.validate import fill_defaults, validate_event, validate_setup
from rules.vocabulary import (
    FOULS,
    JSON_TYPES,
    EventType,
    Field,
    Foul,
    IllegalEvent,
    InvalidEvent,
    Option,
    RuleError,
    field_as_dict,
    jsonable,
    player_field,
)

__all__ = [
    "FOULS",
    "GAME_MODULES",
    "JSON_TYPES",
    "EventType",
    "Field",
    "Foul",
    "Game",
    "IllegalEvent",
    "InvalidEvent",
    "Option",
    "Outcome",
    "Participants",
    "RuleChange",
    "RuleError",
    "Seating",
    "Stat",
    "Timeline",
    "UnknownGame",
    "aggregate",
    "field_as_dict",
    "fill_defaults",
    "games",
    "get",
    "jsonable",
    "player_field",
    "register",
    "replay",
    "setup_for",
    "validate_event",
    "validate_setup",
]
