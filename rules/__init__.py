"""Marker's rules engine: pure Python, standard library only.

>>> from rules import get, replay
>>> bb = get("bar_billiards_4pin")
>>> state = replay(bb, {}, [{"type": "shot", "pots": [{"ball": "white", "hole": 200}]}])
>>> bb.view(state)["break"]
200
"""

from rules.core import (
    FOULS,
    JSON_TYPES,
    EventType,
    Field,
    Foul,
    Game,
    IllegalEvent,
    InvalidEvent,
    Option,
    Outcome,
    Participants,
    RuleError,
    Seating,
    Stat,
    Timeline,
    aggregate,
    field_as_dict,
    fill_defaults,
    jsonable,
    player_field,
    replay,
    setup_for,
    validate_event,
    validate_setup,
)
from rules.registry import GAME_MODULES, UnknownGame, games, get, register

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
