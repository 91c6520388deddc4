"""The vocabulary a game declares, and the errors it answers with.

:class:`Field`, :class:`EventType` and :class:`Foul` (frozen dataclasses) declare a
game's setup options, events and fouls; the referee pad, ``describe()`` and the
validator (:mod:`rules.validate`) are built from them. Two kinds of refusal, both
:class:`RuleError`:

* :class:`InvalidEvent`: the input is malformed (unknown type, field or foul code, a
  value of the wrong JSON type or outside its choices, a bad setup);
* :class:`IllegalEvent`: the input is well formed but cannot have happened (potting a
  ball that is not on the table, playing after the end of the frame, ...).

>>> from rules.vocabulary import RuleError, InvalidEvent
>>> err = InvalidEvent("unknown_type", "no event type 'pot'")
>>> err.at(3).as_dict()
{'error': 'unknown_type', 'message': "no event type 'pot'", 'index': 3}
>>> err.index is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FOULS",
    "JSON_TYPES",
    "EventType",
    "Field",
    "Foul",
    "IllegalEvent",
    "InvalidEvent",
    "Option",
    "RuleError",
    "field_as_dict",
    "jsonable",
    "player_field",
]

#: The JSON types a :class:`Field` may declare (``union``: one of its ``variants``).
JSON_TYPES: tuple[str, ...] = ("int", "bool", "str", "list", "object", "number", "union")

#: Marker for ``Field.choices``: the value must be one of the game's foul codes.
#: A str field with ``choices=FOULS`` (usually the ``item`` of a ``fouls`` list) is
#: checked against ``game.fouls`` and answers ``unknown_foul``.
FOULS = "fouls"


# --------------------------------------------------------------------------- errors


class RuleError(Exception):
    """A refused setup or event: a machine-readable ``code``, a human ``message`` and the
    ``index`` of the event in the list (``-1`` for the setup, ``None`` when not yet known).

    >>> e = RuleError("game_over", "the frame is over")
    >>> str(e)
    'game_over: the frame is over'
    >>> str(e.at(7))
    'game_over: the frame is over (event 7)'
    """

    def __init__(self, code: str, message: str, index: int | None = None) -> None:
        super().__init__(code, message, index)
        self.code = code
        self.message = message
        self.index = index

    def __str__(self) -> str:
        where = "" if self.index is None else f" (event {self.index})"
        return f"{self.code}: {self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, index={self.index!r})"

    def as_dict(self) -> dict[str, Any]:
        """The JSON answer for a refusal: ``{"error", "message", "index"}``.

        >>> IllegalEvent("not_on_table", "the red is not on the table", 2).as_dict()
        {'error': 'not_on_table', 'message': 'the red is not on the table', 'index': 2}
        """
        return {"error": self.code, "message": self.message, "index": self.index}

    def at(self, index: int | None) -> RuleError:
        """A copy of this error (same class, code and message) with ``index`` set.

        >>> e = IllegalEvent("game_over", "the frame is over")
        >>> moved = e.at(4)
        >>> type(moved).__name__, moved.index, e.index
        ('IllegalEvent', 4, None)
        """
        cls = type(self)
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        Exception.__init__(new, self.code, self.message, index)
        new.index = index
        return new


class InvalidEvent(RuleError):
    """Malformed input. Codes used by the core: ``unknown_type``, ``unknown_field``,
    ``missing_field``, ``bad_value``, ``unknown_foul`` and ``bad_setup`` (index -1)."""


class IllegalEvent(RuleError):
    """Well-formed input describing play that cannot have happened: ``game_over``,
    ``not_on_table``, ``impossible``, ``not_now``, or a game's own codes."""


# ----------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Field:
    """One field of an event (or one setup option).

    ``type`` is one of :data:`JSON_TYPES`. A ``list``'s elements are described by
    ``item``. An ``object`` either has fixed keys, described by ``fields``, or (when
    ``fields`` is empty and ``item`` is set) free keys whose values are described by
    ``item`` (a map such as ``{"home": ["Ann"], "away": ["Bob"]}``); with neither it
    accepts any object. ``choices`` is a tuple of allowed values, or :data:`FOULS` for
    the game's foul codes. ``None`` (JSON null) is accepted for a ``nullable`` field,
    and for an optional field whose default is ``None``. A setup option with
    ``drawn_by_service`` is required by the engine but never asked of a person: the
    service that starts a game from names draws it (``Game.draw_option``, from a
    cryptographic generator) and keeps it from every view until the game is over (the
    private small balls of forty-one, Kelly and pin pool); a form built from the
    declaration leaves it out.

    >>> Field("cushion", "bool", "the ball struck a cushion first").as_dict()["type"]
    'bool'
    """

    name: str
    type: str
    doc: str
    required: bool = False
    default: Any = None
    choices: tuple[Any, ...] | str | None = None
    item: Field | None = None
    fields: tuple[Field, ...] = ()
    nullable: bool = False
    choices_from: str | None = None
    variants: tuple[Field, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    drawn_by_service: bool = False

    def __post_init__(self) -> None:
        if self.type not in JSON_TYPES:
            raise ValueError(f"field {self.name!r}: unknown type {self.type!r}")
        if isinstance(self.choices, str) and self.choices != FOULS:
            raise ValueError(f"field {self.name!r}: choices must be a tuple or FOULS")
        if (self.type == "union") != bool(self.variants):
            raise ValueError(f"field {self.name!r}: a union needs variants, only a union has them")
        kinds = [v.type for v in self.variants]
        if len(set(kinds)) != len(kinds) or {"int", "number"} <= set(kinds) or "union" in kinds:
            raise ValueError(f"field {self.name!r}: variants need distinct JSON types")

    def as_dict(self, fouls: Sequence[Foul] = ()) -> dict[str, Any]:
        """This field as JSON (see :func:`field_as_dict`)."""
        return field_as_dict(self, fouls)


def Option(  # noqa: N802 - a constructor by contract
    name: str,
    type: str,
    default: Any,
    doc: str,
    choices: tuple[Any, ...] | str | None = None,
    item: Field | None = None,
    fields: tuple[Field, ...] = (),
    required: bool = False,
    nullable: bool = False,
    choices_from: str | None = None,
    variants: tuple[Field, ...] = (),
    minimum: float | None = None,
    maximum: float | None = None,
    drawn_by_service: bool = False,
) -> Field:
    """A setup option: a :class:`Field` whose default comes before its doc.

    >>> opt = Option("white_balls", "int", 7, "white balls in the set", choices=(6, 7))
    >>> opt.default, opt.choices, opt.required
    (7, (6, 7), False)
    """
    return Field(
        name,
        type,
        doc,
        required,
        default,
        choices,
        item,
        fields,
        nullable,
        choices_from,
        variants,
        minimum,
        maximum,
        drawn_by_service,
    )


def player_field(
    doc: str, *, name: str = "player", required: bool = True, choices_from: str = "players"
) -> Field:
    """The field naming who made an event other than the player at the table (a
    ``concede``, a ``proclaim``, a ``foul`` by a named player, a bet): by convention
    ``player``, a player's name from the setup (``choices_from="players"``). Name a
    *party* (a side's name in play between sides) with ``name="by"`` and
    ``choices_from="parties"``, as the 1908 snooker's ``obstruction`` does.

    >>> f = player_field("the player who concedes")
    >>> f.name, f.type, f.required, f.choices_from
    ('player', 'str', True, 'players')
    """
    return Field(name, "str", doc, required=required, choices_from=choices_from)


@dataclass(frozen=True)
class EventType:
    """One event type of a game's vocabulary: its ``type`` string, a doc, its fields."""

    type: str
    doc: str
    fields: tuple[Field, ...] = ()

    def as_dict(self, fouls: Sequence[Foul] = ()) -> dict[str, Any]:
        """This event type as JSON.

        >>> EventType("bar_down", "the bar dropped").as_dict()
        {'type': 'bar_down', 'doc': 'the bar dropped', 'fields': []}
        """
        return {
            "type": self.type,
            "doc": self.doc,
            "fields": [field_as_dict(f, fouls) for f in self.fields],
        }


@dataclass(frozen=True)
class Foul:
    """A foul code with its ``penalty`` (a game-defined word, e.g. ``"break"`` or
    ``"entire_score"``), a doc, and whether the referee pad shows it one tap away."""

    code: str
    penalty: str
    doc: str
    common: bool = False

    def as_dict(self) -> dict[str, Any]:
        """This foul as JSON.

        >>> Foul("miss", "break", "the cue ball hit no ball", True).as_dict()
        {'code': 'miss', 'penalty': 'break', 'doc': 'the cue ball hit no ball', 'common': True}
        """
        return {"code": self.code, "penalty": self.penalty, "doc": self.doc, "common": self.common}


def jsonable(value: Any) -> Any:
    """``value`` with tuples turned into lists and mappings into dicts, recursively.

    >>> jsonable({"a": (1, (2, 3)), "b": frozenset()})
    {'a': [1, [2, 3]], 'b': []}
    """
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        return [jsonable(v) for v in value]
    return value


def field_as_dict(f: Field, fouls: Sequence[Foul] = ()) -> dict[str, Any]:
    """A field as JSON with every key present: ``name, type, doc, required, nullable,
    default, choices, choices_from, minimum, maximum, item, fields, variants,
    drawn_by_service``.
    ``choices=FOULS`` is spelled out as the list of foul codes.

    >>> d = field_as_dict(Field("pots", "list", "balls potted", default=(),
    ...                         item=Field("ball", "str", "a ball", choices=("white", "red"))))
    >>> d["default"], d["item"]["choices"], d["fields"]
    ([], ['white', 'red'], [])
    """
    if f.choices == FOULS:
        choices: Any = [foul.code for foul in fouls]
    else:
        choices = jsonable(f.choices)
    return {
        "name": f.name,
        "type": f.type,
        "doc": f.doc,
        "required": f.required,
        "nullable": f.nullable or (not f.required and f.default is None),
        "default": jsonable(f.default),
        "choices": choices,
        "choices_from": f.choices_from,
        "minimum": f.minimum,
        "maximum": f.maximum,
        "item": None if f.item is None else field_as_dict(f.item, fouls),
        "fields": [field_as_dict(sub, fouls) for sub in f.fields],
        "variants": [field_as_dict(v, fouls) for v in f.variants],
        "drawn_by_service": f.drawn_by_service,
    }
