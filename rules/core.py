"""The core of the rules engine: errors, vocabulary declarations, the Game base class.

Everything here is pure standard-library Python. A game module declares its setup
options, its event vocabulary and its fouls with :class:`Field`, :class:`EventType` and
:class:`Foul`, subclasses :class:`Game`, and registers an instance with
:func:`rules.registry.register`. :func:`replay` folds a list of events over a game's
initial state; :class:`Timeline` does the same one event at a time with O(1) undo.

Two kinds of refusal, both :class:`RuleError`:

* :class:`InvalidEvent`: the input is malformed (unknown type, field or foul code, a
  value of the wrong JSON type or outside its choices, a bad setup);
* :class:`IllegalEvent`: the input is well formed but cannot have happened (potting a
  ball that is not on the table, playing after the end of the frame, ...).

>>> from rules.core import RuleError, InvalidEvent
>>> err = InvalidEvent("unknown_type", "no event type 'pot'")
>>> err.at(3).as_dict()
{'error': 'unknown_type', 'message': "no event type 'pot'", 'index': 3}
>>> err.index is None
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, TypeVar, cast

from rules.layout import TableMap, pocket_map

__all__ = [
    "FOULS",
    "JSON_TYPES",
    "SEATING_CHOICES",
    "STAT_AGGS",
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
    "aggregate",
    "field_as_dict",
    "fill_defaults",
    "jsonable",
    "player_field",
    "replay",
    "set_lookup",
    "setup_for",
    "validate_event",
    "validate_setup",
]

#: The JSON types a :class:`Field` may declare (``union``: one of its ``variants``).
JSON_TYPES: tuple[str, ...] = ("int", "bool", "str", "list", "object", "number", "union")

#: The choice sets every game resolves from its seating (see :meth:`Game.choice_sets`).
SEATING_CHOICES: dict[str, str] = {
    "players": "the named players of the setup, in seating order (sides' members included)",
    "parties": "the parties scores belong to: the players, or the sides in play between sides",
    "sides": "the sides (empty in individual play)",
}

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
    and for an optional field whose default is ``None``.

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
    default, choices, choices_from, minimum, maximum, item, fields, variants``.
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
    }


# ----------------------------------------------------------------------- validation


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "number":
        return (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
    if kind == "list":
        return isinstance(value, (list, tuple))
    if kind == "object":
        return isinstance(value, Mapping)
    return False  # pragma: no cover - Field.__post_init__ forbids other types


_JSON_NAMES = {
    "int": "an integer",
    "bool": "true or false",
    "str": "a string",
    "number": "a number",
    "list": "a list",
    "object": "an object",
}


class _Ctx:
    """What a check needs beyond the field: the game's foul codes and, lazily, the
    resolved choice sets (``resolve`` is called at most once, on the first field that
    declares ``choices_from``)."""

    __slots__ = ("codes", "fouls", "resolve", "sets")

    def __init__(
        self,
        fouls: frozenset[str],
        resolve: Callable[[], Mapping[str, Sequence[Any]]] | None = None,
        codes: Mapping[str, str] | None = None,
    ) -> None:
        self.fouls = fouls
        self.resolve = resolve
        self.sets: Mapping[str, Sequence[Any]] | None = None
        self.codes: Mapping[str, str] = codes or {}

    def choice_set(self, name: str) -> Sequence[Any] | None:
        if self.resolve is None:
            return None
        if self.sets is None:
            self.sets = self.resolve()
        found = self.sets.get(name)
        if found is None:
            raise KeyError(f"the game resolves no choice set {name!r}")
        return found


def _type_name(f: Field) -> str:
    if f.type == "union":
        return " or ".join(_type_name(v) for v in f.variants)
    return _JSON_NAMES[f.type]


def _in_set(value: Any, allowed: Sequence[Any]) -> bool:
    if type(value) is str:  # a string equals only a string: no type check needed
        return value in allowed
    return value in allowed and any(type(value) is type(c) for c in allowed if c == value)


def _check_value(f: Field, value: Any, path: str, ctx: _Ctx) -> None:
    """Check one value against its field; raise InvalidEvent (index None)."""
    if value is None:
        if f.nullable or (not f.required and f.default is None):
            return
        raise InvalidEvent("bad_value", f"{path} must be {_type_name(f)}, not null")
    if f.type == "union":
        for variant in f.variants:
            if _type_ok(variant.type, value):
                _check_value(variant, value, path, ctx)
                break
        else:
            raise InvalidEvent(
                "bad_value", f"{path} must be {_type_name(f)}, not {_json_repr(value)}"
            )
    elif not _type_ok(f.type, value):
        raise InvalidEvent(
            "bad_value", f"{path} must be {_JSON_NAMES[f.type]}, not {_json_repr(value)}"
        )
    if f.choices is not None:
        if f.choices == FOULS:
            if value not in ctx.fouls:
                raise InvalidEvent("unknown_foul", f"{path}: no foul code {value!r}")
        elif not _in_set(value, f.choices):
            allowed = ", ".join(repr(c) for c in f.choices)
            raise InvalidEvent(
                "bad_value", f"{path} must be one of {allowed}, not {_json_repr(value)}"
            )
    if f.minimum is not None and value < f.minimum:
        raise InvalidEvent("bad_value", f"{path} must be at least {f.minimum:g}, not {value}")
    if f.maximum is not None and value > f.maximum:
        raise InvalidEvent("bad_value", f"{path} must be at most {f.maximum:g}, not {value}")
    if f.choices_from is not None:
        allowed_set = ctx.choice_set(f.choices_from)
        if allowed_set is not None:
            keys = list(value) if isinstance(value, Mapping) else [value]
            for key in keys:
                if not _in_set(key, allowed_set):
                    listed = ", ".join(repr(c) for c in allowed_set) or "none"
                    what = f"{path}: key {key!r}" if isinstance(value, Mapping) else path
                    raise InvalidEvent(
                        ctx.codes.get(f.choices_from, "bad_value"),
                        f"{what} must be one of the {f.choices_from} ({listed}), "
                        f"not {_json_repr(key)}",
                    )
    if f.type == "list" and f.item is not None:
        for i, element in enumerate(value):
            _check_value(f.item, element, f"{path}[{i}]", ctx)
    elif f.type == "object":
        if f.fields:
            _check_object(f.fields, value, path, ctx)
        elif f.item is not None:
            for key, element in value.items():
                if not isinstance(key, str):
                    raise InvalidEvent("bad_value", f"{path}: keys must be strings")
                _check_value(f.item, element, f"{path}.{key}", ctx)


def _check_object(fields: Sequence[Field], obj: Mapping[str, Any], path: str, ctx: _Ctx) -> None:
    names = {f.name for f in fields}
    for key in obj:
        if key not in names:
            where = f"{path}: " if path else ""
            raise InvalidEvent("unknown_field", f"{where}unknown field {key!r}")
    for f in fields:
        sub = f"{path}.{f.name}" if path else f.name
        if f.name not in obj:
            if f.required:
                raise InvalidEvent("missing_field", f"{sub} is required")
            continue
        _check_value(f, obj[f.name], sub, ctx)


def _json_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _uses_choices_from(f: Field) -> bool:
    return (
        f.choices_from is not None
        or (f.item is not None and _uses_choices_from(f.item))
        or any(_uses_choices_from(sub) for sub in (*f.fields, *f.variants))
    )


# Fast path. ``validate_event`` first asks a predicate compiled once per game and event
# type: True means the generic checks below would accept the event (no error, no choice
# set to resolve), so it returns at once. Anything else (False) runs the generic checks,
# which give every answer: codes, messages and order are theirs alone. A predicate may
# therefore be stricter than the generic checks (it only costs time), never looser.

_Pred = Callable[[Any], bool]


def _never(value: Any) -> bool:
    return False


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_bool(value: Any) -> bool:
    return value is True or value is False


def _is_str(value: Any) -> bool:
    return type(value) is str


def _is_number(value: Any) -> bool:
    t = type(value)
    return t is int or (t is float and math.isfinite(value))


def _is_list(value: Any) -> bool:
    return type(value) is list or type(value) is tuple


def _is_object(value: Any) -> bool:
    return type(value) is dict


_FAST_TYPES: dict[str, _Pred] = {
    "int": _is_int,
    "bool": _is_bool,
    "str": _is_str,
    "number": _is_number,
    "list": _is_list,
    "object": _is_object,
}


#: The exact Python types the fast path admits for each JSON type (a value of any other
#: type, a subclass included, is left to the generic checks).
_EXACT_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "bool": (bool,),
    "str": (str,),
    "number": (int, float),
    "list": (list, tuple),
    "object": (dict,),
}


def _by_type(variant: Field, check: Any) -> list[tuple[type, Any]]:
    """A union's variant as (exact type, its predicate) pairs: the variant a value of that
    type goes to (the variants' JSON types are distinct, so no two claim one type)."""
    return [(t, check) for t in _EXACT_TYPES[variant.type]]


def _null_ok(f: Field) -> bool:
    return f.nullable or (not f.required and f.default is None)


def _fast_field(f: Field, fouls: frozenset[str]) -> _Pred:
    """A predicate for one field's (present) value: True only if ``_check_value`` would
    accept it when no choice set is checked (an event validated without a state, or a
    field that declares no ``choices_from``: its ``choices_from`` is not looked at)."""
    null_ok = _null_ok(f)
    bounded = f.minimum is not None or f.maximum is not None
    if f.type == "union":
        if f.choices is not None or bounded:
            return _never
        by_type = {t: check for v in f.variants for t, check in _by_type(v, _fast_field(v, fouls))}

        def union(v: Any) -> bool:
            check = by_type.get(type(v))
            if check is None:
                return v is None and null_ok
            ok: bool = check(v)
            return ok

        return union
    if f.type in ("list", "object"):
        if f.choices is not None or bounded:
            return _never
        if f.type == "list":
            return _fast_list(f, null_ok, fouls)
        return _fast_object(f, null_ok, fouls)
    return _fast_scalar(f, null_ok, fouls)


def _fast_scalar(f: Field, null_ok: bool, fouls: frozenset[str]) -> _Pred:
    kind = f.type
    is_type = _FAST_TYPES[kind]
    if (f.minimum is not None or f.maximum is not None) and kind not in ("int", "number"):
        return _never
    lo, hi = f.minimum, f.maximum
    allowed: frozenset[Any] | None = None
    pairs = False
    if f.choices == FOULS:
        allowed = fouls  # the generic check is a plain membership test too
    elif f.choices is not None:
        if kind == "number":  # an int choice admits only an int, a float only a float
            allowed = frozenset((type(c), c) for c in f.choices if type(c) in (int, float))
            pairs = True
        else:
            exact = {"int": int, "bool": bool, "str": str}[kind]
            allowed = frozenset(c for c in f.choices if type(c) is exact)
    if allowed is not None and lo is None and hi is None and not pairs:
        if kind == "str":
            choices = allowed

            def str_in(v: Any) -> bool:
                if type(v) is str:
                    return v in choices
                return v is None and null_ok

            return str_in

        def typed_in(v: Any) -> bool:
            if v is None:
                return null_ok
            return is_type(v) and v in allowed

        return typed_in
    if allowed is None and lo is None and hi is None:
        if null_ok:
            return lambda v: v is None or is_type(v)
        return is_type

    def scalar(v: Any) -> bool:
        if v is None:
            return null_ok
        if not is_type(v):
            return False
        if allowed is not None and ((type(v), v) if pairs else v) not in allowed:
            return False
        if lo is not None and v < lo:
            return False
        return hi is None or v <= hi

    return scalar


def _fast_list(f: Field, null_ok: bool, fouls: frozenset[str]) -> _Pred:
    if f.item is None:
        return lambda v: (v is None and null_ok) or _is_list(v)
    item = f.item
    plain_str = (
        item.type == "str"
        and item.choices is not None
        and item.minimum is None
        and item.maximum is None
    )
    if plain_str:  # the usual list: foul codes, balls, contacts
        if item.choices == FOULS:
            choices: frozenset[Any] = fouls
        else:
            assert isinstance(item.choices, tuple)
            choices = frozenset(c for c in item.choices if type(c) is str)
        item_null = _null_ok(item)

        def str_list(v: Any) -> bool:
            t = type(v)
            if t is not list and t is not tuple:
                return v is None and null_ok
            for el in v:
                if type(el) is str and el in choices:
                    continue
                if el is None and item_null:
                    continue
                return False
            return True

        return str_list
    check = _fast_field(item, fouls)

    def items(v: Any) -> bool:
        t = type(v)
        if t is not list and t is not tuple:
            return v is None and null_ok
        for el in v:
            if not check(el):
                return False
        return True

    return items


def _fast_object(f: Field, null_ok: bool, fouls: frozenset[str]) -> _Pred:
    if f.fields:
        names = frozenset(sub.name for sub in f.fields)
        plan = tuple((sub.name, sub.required, _fast_field(sub, fouls)) for sub in f.fields)

        def fixed(v: Any) -> bool:
            if type(v) is not dict:
                return v is None and null_ok
            if not names.issuperset(v):
                return False
            for name, required, check in plan:
                if name in v:
                    if not check(v[name]):
                        return False
                elif required:
                    return False
            return True

        return fixed
    if f.item is not None:
        check = _fast_field(f.item, fouls)

        def free(v: Any) -> bool:
            if type(v) is not dict:
                return v is None and null_ok
            for key, element in v.items():
                if type(key) is not str or not check(element):
                    return False
            return True

        return free
    return lambda v: (v is None and null_ok) or type(v) is dict


# With a state, a field that takes its choices from a choice set (``choices_from``, on
# the field or anywhere inside it) is compiled to a predicate of two arguments: the value
# and a ``_Sets``, which resolves ``game.choice_sets(state)`` at most once an event, when
# the first value that needs it is met (as the generic checks do). Every other field
# keeps its one-argument predicate. A set the game does not resolve, or any exception
# while resolving or looking a value up, answers False: the generic checks then give
# the answer (or raise) themselves.

_DPred = Callable[[Any, "_Sets"], bool]


class _Sets:
    """The choice sets of one event's state, resolved on first use."""

    __slots__ = ("game", "sets", "state")

    def __init__(self, game: Any, state: Any) -> None:
        self.game = game
        self.state = state
        self.sets: Mapping[str, Sequence[Any]] | None = None

    def get(self, name: str) -> Sequence[Any]:
        sets = self.sets
        if sets is None:
            sets = self.sets = self.game.choice_sets(self.state)
        found = sets.get(name)
        if found is None:
            raise KeyError(name)
        return found


def _member(value: Any, allowed: Sequence[Any]) -> bool:
    """True only if ``_in_set(value, allowed)`` is (a str or an int value; else False)."""
    t = type(value)
    if t is str:
        return value in allowed
    if t is int:  # the first element equal to it must be an int too
        return type(allowed[allowed.index(value)]) is int
    return False


def _dnever(value: Any, sets: _Sets) -> bool:
    return False


def _fast_any(f: Field, fouls: frozenset[str]) -> tuple[Any, bool]:
    """The predicate for ``f`` with choice sets checked, and whether it takes the
    ``_Sets`` (two arguments) or the value alone."""
    if _uses_choices_from(f):
        return _fast_dyn(f, fouls), True
    return _fast_field(f, fouls), False


def _fast_dyn(f: Field, fouls: frozenset[str]) -> _DPred:
    """A two-argument predicate for a field using ``choices_from`` (on itself or inside):
    True only if ``_check_value`` would accept the value, checking choice sets."""
    null_ok = _null_ok(f)
    bounded = f.minimum is not None or f.maximum is not None
    if f.choices_from is not None:
        name = f.choices_from
        base, base_dyn = _fast_any(replace(f, choices_from=None), fouls)
        keyed = f.type == "object"

        def from_set(v: Any, sets: _Sets) -> bool:
            if v is None:
                return null_ok
            if not (base(v, sets) if base_dyn else base(v)):
                return False
            try:
                allowed = sets.get(name)
                if keyed:  # every key must be in the set
                    for key in v:
                        if not _member(key, allowed):
                            return False
                    return True
                return _member(v, allowed)
            except Exception:  # noqa: BLE001 - the generic checks answer (or raise)
                return False

        return from_set
    if f.choices is not None or bounded:
        return _dnever
    if f.type == "union":
        by_type: dict[type, tuple[Any, bool]] = {}
        for variant in f.variants:
            check, dyn = _fast_any(variant, fouls)
            for t, _ in _by_type(variant, check):
                by_type[t] = (check, dyn)

        def union(v: Any, sets: _Sets) -> bool:
            found = by_type.get(type(v))
            if found is None:
                return v is None and null_ok
            check, dyn = found
            return bool(check(v, sets) if dyn else check(v))

        return union
    if f.type == "list":
        assert f.item is not None  # it uses choices_from
        check_item = _fast_dyn(f.item, fouls)

        def items(v: Any, sets: _Sets) -> bool:
            t = type(v)
            if t is not list and t is not tuple:
                return v is None and null_ok
            for el in v:
                if not check_item(el, sets):
                    return False
            return True

        return items
    if f.type != "object":  # pragma: no cover - scalars use choices_from on themselves
        return _dnever
    if f.fields:
        names = frozenset(sub.name for sub in f.fields)
        plan = tuple((sub.name, sub.required, *_fast_any(sub, fouls)) for sub in f.fields)

        def fixed(v: Any, sets: _Sets) -> bool:
            if type(v) is not dict:
                return v is None and null_ok
            if not names.issuperset(v):
                return False
            for key, required, check, dyn in plan:
                if key in v:
                    if not (check(v[key], sets) if dyn else check(v[key])):
                        return False
                elif required:
                    return False
            return True

        return fixed
    assert f.item is not None  # it uses choices_from
    check_value = _fast_dyn(f.item, fouls)

    def free(v: Any, sets: _Sets) -> bool:
        if type(v) is not dict:
            return v is None and null_ok
        for key, element in v.items():
            if type(key) is not str or not check_value(element, sets):
                return False
        return True

    return free


#: An event predicate: ``(event, state)``; the state matters only to an event type
#: compiled with its choice sets.
_EventPred = Callable[[Any, Any], bool]


def _fast_event(e: EventType, fouls: frozenset[str], game: Any = None) -> _EventPred:
    """A predicate for a whole event of type ``e`` (a dict whose ``type`` is ``e.type``).
    With ``game``, fields under ``choices_from`` are checked against
    ``game.choice_sets(state)``; without, they are checked as if no state were given."""
    names = frozenset(f.name for f in e.fields) | {"type"}
    if game is None or not any(_uses_choices_from(f) for f in e.fields):
        plan = tuple((f.name, f.required, _fast_field(f, fouls)) for f in e.fields)
        if not plan:
            superset = names.issuperset

            def bare(event: Any, state: Any = None) -> bool:
                return superset(event)

            return bare

        def event_ok(event: Any, state: Any = None) -> bool:
            if not names.issuperset(event):
                return False
            for name, required, check in plan:
                if name in event:
                    if not check(event[name]):
                        return False
                elif required:
                    return False
            return True

        return event_ok
    dplan = tuple((f.name, f.required, *_fast_any(f, fouls)) for f in e.fields)

    def event_with_sets(event: Any, state: Any = None) -> bool:
        if not names.issuperset(event):
            return False
        sets = None
        for name, required, check, dyn in dplan:
            if name in event:
                if dyn:
                    if sets is None:
                        sets = _Sets(game, state)
                    if not check(event[name], sets):
                        return False
                elif not check(event[name]):
                    return False
            elif required:
                return False
        return True

    return event_with_sets


class _Index:
    """Per-game lookup tables for validation (built once, on first use)."""

    __slots__ = (
        "dynamic",
        "events",
        "fast",
        "fast_state",
        "fouls",
        "names",
        "setup_dynamic",
        "setups",
    )

    def __init__(self, game: Any) -> None:
        self.events: dict[str, EventType] = {e.type: e for e in game.events}
        self.fouls: frozenset[str] = frozenset(f.code for f in game.fouls)
        self.names: dict[str, frozenset[str]] = {
            e.type: frozenset(f.name for f in e.fields) | {"type"} for e in game.events
        }
        #: event types with a field that takes its choices from the setup or state
        self.dynamic: frozenset[str] = frozenset(
            e.type for e in game.events if any(_uses_choices_from(f) for f in e.fields)
        )
        self.setup_dynamic: bool = any(_uses_choices_from(f) for f in game.options)
        #: the JSON text of plain setups validate_setup has accepted
        self.setups: set[str] = set()
        #: event type -> its fast-path predicate ``(event, state)``, without a state
        #: (choice sets not checked) and with one (checked against the state's sets)
        self.fast: dict[str, _EventPred] = {
            e.type: _fast_event(e, self.fouls) for e in self.events.values()
        }
        self.fast_state: dict[str, _EventPred] = {
            kind: _fast_event(self.events[kind], self.fouls, game) if kind in self.dynamic else p
            for kind, p in self.fast.items()
        }


def _index(game: Any) -> _Index:
    idx = game.__dict__.get("_rules_index") if hasattr(game, "__dict__") else None
    if idx is None:
        idx = _Index(game)
        try:
            game.__dict__["_rules_index"] = idx
        except (AttributeError, TypeError):  # pragma: no cover - exotic game objects
            pass
    return idx


def validate_event(game: Any, event: Any, state: Any = None) -> None:
    """Check ``event`` against ``game.events`` and ``game.fouls``; raise
    :class:`InvalidEvent` (index None) if it is malformed.

    Codes: ``unknown_type`` (not an object, no ``type`` or an unknown one),
    ``unknown_field``, ``missing_field``, ``bad_value`` (wrong JSON type, bool given for
    an int, value outside its choices or range) and ``unknown_foul``. With ``state``,
    fields declaring ``choices_from`` are checked against ``game.choice_sets(state)``
    (``bad_value``, or the code ``game.choice_errors`` gives for that set); without it
    they are not checked.

    >>> from rules import get
    >>> bb = get("bar_billiards_4pin")
    >>> validate_event(bb, {"type": "shot", "pots": [{"ball": "white", "hole": 50}]})
    >>> validate_event(bb, {"type": "shot", "fouls": ["pin_300"]})
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: unknown_foul: fouls[0]: no foul code 'pin_300'
    >>> validate_event(bb, {"type": "shot", "cushion": 1})
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: bad_value: cushion must be true or false, not 1
    >>> cc = get("three_cushion_carom")
    >>> validate_event(cc, {"type": "concede", "player": "Cat"}, cc.initial({}))
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: bad_value: player must be one of the players ('P1', 'P2'), not 'Cat'
    """
    if type(event) is dict:  # the fast path (see _fast_event); False: check in full
        kind = event.get("type")
        if type(kind) is str:
            idx = _index(game)
            fast = (idx.fast if state is None else idx.fast_state).get(kind)
            if fast is not None and fast(event, state):
                return
    if not isinstance(event, Mapping):
        raise InvalidEvent(
            "unknown_type", f"an event must be a JSON object, not {_json_repr(event)}"
        )
    kind = event.get("type")
    if not isinstance(kind, str):
        raise InvalidEvent("unknown_type", "an event needs a string 'type'")
    idx = _index(game)
    declared = idx.events.get(kind)
    if declared is None:
        known = ", ".join(sorted(idx.events))
        raise InvalidEvent("unknown_type", f"no event type {kind!r} (known: {known})")
    names = idx.names[kind]
    for key in event:
        if key not in names:
            raise InvalidEvent("unknown_field", f"{kind}: unknown field {key!r}")
    resolve = None
    if state is not None and kind in idx.dynamic:

        def resolve() -> Mapping[str, Sequence[Any]]:
            sets: Mapping[str, Sequence[Any]] = game.choice_sets(state)
            return sets

    ctx = _Ctx(idx.fouls, resolve, getattr(game, "choice_errors", None))
    for f in declared.fields:
        if f.name not in event:
            if f.required:
                raise InvalidEvent("missing_field", f"{kind}: {f.name} is required")
            continue
        _check_value(f, event[f.name], f.name, ctx)


def fill_defaults(fields: Iterable[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` (already validated) with every absent or null optional field set to
    its default.

    >>> fill_defaults((Field("a", "int", "", default=1), Field("b", "list", "", default=())),
    ...               {"a": 5})
    {'a': 5, 'b': ()}
    """
    out = dict(values)
    for f in fields:
        if out.get(f.name) is None:
            out[f.name] = f.default
    return out


def validate_setup(game: Any, setup: Mapping[str, Any] | None) -> dict[str, Any]:
    """Check ``setup`` against ``game.options`` and return it with defaults filled in.

    Any problem (not an object, an unknown key, a wrong type, a value outside its
    choices, a missing required key) raises ``InvalidEvent("bad_setup", ..., -1)``.
    Options declaring ``choices_from`` are checked against
    ``game.setup_choice_sets(values)`` (the players and sides the setup names).
    Games check impossible combinations themselves after this.

    >>> from rules import get
    >>> validate_setup(get("bar_billiards_4pin"), {"white_balls": 6})["white_balls"]
    6
    >>> validate_setup(get("bar_billiards_4pin"), {"white_balls": 5})
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: bad_setup: white_balls must be one of 6, 7, not 5 (event -1)
    """
    if setup is None:
        setup = {}
    if not isinstance(setup, Mapping):
        raise InvalidEvent("bad_setup", "the setup must be a JSON object", -1)
    if STARTS in setup:
        starts = check_starts(game, setup[STARTS])
        values = validate_setup(game, {k: v for k, v in setup.items() if k != STARTS})
        values[STARTS] = starts
        return values
    idx = _index(game)
    # the checks are a pure function of the setup: a setup of plain JSON values accepted
    # once (keyed by its JSON text, which tells such values apart) is accepted again
    key = json.dumps(setup, sort_keys=True) if plain_json(setup) else None
    if key is not None and key in idx.setups:
        return fill_defaults(game.options, setup)
    try:
        _check_object(game.options, setup, "", _Ctx(idx.fouls))
    except InvalidEvent as err:
        raise InvalidEvent("bad_setup", err.message, -1) from None
    values = fill_defaults(game.options, setup)
    if idx.setup_dynamic:
        ctx = _Ctx(idx.fouls, lambda: game.setup_choice_sets(values))
        try:
            for f in game.options:
                if setup.get(f.name) is not None:
                    _check_value(f, setup[f.name], f.name, ctx)
        except InvalidEvent as err:
            raise InvalidEvent("bad_setup", err.message, -1) from None
    if key is not None:
        if len(idx.setups) > 256:
            idx.setups.clear()
        idx.setups.add(key)
    return values


#: The setup key of a handicap: party -> the points that party starts each frame on.
STARTS = "starts"
#: The largest start (either way) a setup may give.
MAX_START = 100_000


def check_starts(game: Any, starts: Any) -> dict[str, int]:
    """A handicap's starts, checked: an object party -> whole number of points. Only a
    game whose result is a total of points added up shot by shot (it declares
    ``additive_score``) can give a start; any other refuses it (``no_start``).

    >>> from rules import get
    >>> check_starts(get("bar_billiards_4pin"), {"home": 50})
    {'home': 50}
    >>> try:
    ...     check_starts(get("three_cushion_carom"), {"home": 5})
    ... except InvalidEvent as err:
    ...     print(err.code)
    no_start
    """
    if not getattr(game, "additive_score", False):
        raise InvalidEvent(
            "no_start",
            f"{game.name} cannot give a start: its result is not a total of points",
            -1,
        )
    if not isinstance(starts, Mapping) or not all(
        isinstance(k, str) and type(v) is int and -MAX_START <= v <= MAX_START
        for k, v in starts.items()
    ):
        raise InvalidEvent(
            "bad_setup", f"starts are an object: party -> whole points (±{MAX_START})", -1
        )
    return dict(starts)


def start_scores(setup: Mapping[str, Any] | None, parties: Sequence[str]) -> tuple[int, ...]:
    """Each party's start, in seating order (0 where the setup gives none): the scores a
    handicapped frame begins with.

    >>> start_scores({"starts": {"away": 25}}, ["home", "away"])
    (0, 25)
    """
    starts = (setup or {}).get(STARTS) or {}
    return tuple(int(starts.get(p, 0)) for p in parties)


_T = TypeVar("_T")


def kept_by_setup(game: Any, setup: Any, make: Callable[[Any], _T], store: str = "_initials") -> _T:
    """``make(setup)``, kept on ``game`` (in ``game.__dict__[store]``) for a setup of plain
    JSON values, keyed by its JSON text: for what is a pure function of the setup and
    immutable (an initial state). A refusal is raised and not kept.

    >>> calls = []
    >>> class G: pass
    >>> g = G()
    >>> kept_by_setup(g, {"a": 1}, lambda s: calls.append(s) or len(calls))
    1
    >>> kept_by_setup(g, {"a": 1}, lambda s: calls.append(s) or len(calls)), len(calls)
    (1, 1)
    """
    if not plain_json(setup):
        return make(setup)
    key = json.dumps(setup, sort_keys=True)
    known: dict[str, Any] = game.__dict__.setdefault(store, {})
    found = known.get(key, _MISSING)
    if found is not _MISSING:
        return cast(_T, found)
    made = make(setup)
    if len(known) > 256:
        known.clear()
    known[key] = made
    return made


_MISSING = object()


def plain_json(value: Any) -> bool:
    """``value`` is made of exact JSON types only (dict with str keys, list, str, int,
    bool, finite float, None): its JSON text (``sort_keys``) then tells it apart from
    any other such value, so it can key what is computed from it.

    >>> plain_json({"players": ["Ann", "Bob"], "target": 1.5}), plain_json({"p": ("Ann",)})
    (True, False)
    """
    t = type(value)
    if t is dict:
        for k, v in value.items():
            if type(k) is not str:
                return False
            tv = type(v)
            if not (tv is str or tv is int or tv is bool or v is None or plain_json(v)):
                return False
        return True
    if t is list:
        for v in value:
            tv = type(v)
            if not (tv is str or tv is int or tv is bool or v is None or plain_json(v)):
                return False
        return True
    if value is None or t is str or t is int or t is bool:
        return True
    if t is float:
        return math.isfinite(value)
    return False


# -------------------------------------------------------------------------- seating


class Seating(NamedTuple):
    """Who plays, in what order, and whose turn it is: one immutable value, cheap to copy.

    ``parties`` are whoever scores belong to: the players in individual play, the sides in
    play between sides. ``members[i]`` are party i's players in the order they take its
    visits (in individual play, the player alone; ``None`` for an unnamed member).
    ``turn`` indexes the party at the table, ``partner[i]`` the member of party i who takes
    its current (for the party at the table) or next visit, ``visits[i]`` the visits
    (innings, turns) party i has begun. ``out[i]``: knocked out (passed over until
    revived). ``skips[i]``: turns party i will be passed over. ``playoff``: the parties
    (indices, rotation order) of a play-off among a subset; empty when everyone plays.
    ``round`` counts rounds (from 1): a new one begins when the rotation comes back round
    to a party whose first member is due. ``balls`` is the allotment of balls a turn (0:
    no allotment, the game ends visits itself) and ``balls_left`` what the seat at the
    table has still to play.

    The order between sides is the canonical one: sides play in the listed order, and a
    side's members take that side's visits in turn (Ann, Bob, Al, Bea for sides A = Ann,
    Al and B = Bob, Bea); a member may keep his side's visits (``advance(rotate=False)``).

    >>> s = Seating.of(("A", "B"), (("Ann", "Al"), ("Bob", "Bea")), sides=True)
    >>> order = []
    >>> for _ in range(5):
    ...     order.append(s.player)
    ...     s = s.advance()
    >>> order, s.round
    (['Ann', 'Bob', 'Al', 'Bea', 'Ann'], 2)
    >>> s = Seating.of(("Ann", "Bob", "Cat")).knock_out(1)
    >>> s.advance().at_table
    'Cat'
    """

    parties: tuple[str, ...]
    members: tuple[tuple[str | None, ...], ...]
    sides: bool = False
    turn: int = 0
    partner: tuple[int, ...] = ()
    visits: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    skips: tuple[int, ...] = ()
    playoff: tuple[int, ...] = ()
    round: int = 1
    balls: int = 0
    balls_left: int = 0

    @classmethod
    def of(
        cls,
        parties: Sequence[str],
        members: Sequence[Sequence[str | None]] | None = None,
        *,
        sides: bool = False,
        first: int = 0,
        balls: int = 0,
    ) -> Seating:
        """A new seating: ``first`` (an index) begins the first visit.

        >>> s = Seating.of(("Ann", "Bob"), first=1)
        >>> s.at_table, s.visits, s.player
        ('Bob', (0, 1), 'Bob')
        """
        n = len(parties)
        mem = tuple((p,) for p in parties) if members is None else tuple(tuple(m) for m in members)
        return cls(
            tuple(parties),
            mem,
            sides,
            first,
            (0,) * n,
            tuple(1 if i == first else 0 for i in range(n)),
            (False,) * n,
            (0,) * n,
            (),
            1,
            balls,
            balls,
        )

    # -- reading ------------------------------------------------------------------

    @property
    def at_table(self) -> str:
        """The party at the table (a player, or a side)."""
        return self.parties[self.turn]

    @property
    def player(self) -> str | None:
        """The player at the table (a side's member due; None when unnamed)."""
        return self.members[self.turn][self.partner[self.turn]]

    def player_of(self, party: int) -> str | None:
        """The member of ``party`` who takes (or is taking) its visit."""
        return self.members[party][self.partner[party]]

    @property
    def players(self) -> tuple[str, ...]:
        """Every named player, in seating order (parties in order, members in order)."""
        return tuple(name for names in self.members for name in names if name is not None)

    def index_of(self, party: str) -> int:
        """The index of a party by name (ValueError if none)."""
        return self.parties.index(party)

    def party_of(self, player: str) -> int | None:
        """The index of the party ``player`` plays for, or None."""
        for i, names in enumerate(self.members):
            if player in names:
                return i
        return None

    def in_play(self, party: int) -> bool:
        """The party takes turns now: not knocked out, and in the play-off if one runs."""
        return not self.out[party] and (not self.playoff or party in self.playoff)

    @property
    def remaining(self) -> tuple[int, ...]:
        """The parties in play, in rotation order."""
        order = self.playoff or range(len(self.parties))
        return tuple(i for i in order if not self.out[i])

    def choice_sets(self) -> dict[str, list[Any]]:
        """The choice sets a seating resolves (:data:`SEATING_CHOICES`)."""
        return {
            "players": list(self.players),
            "parties": list(self.parties),
            "sides": list(self.parties) if self.sides else [],
        }

    # -- changing -----------------------------------------------------------------

    def advance(self, rotate: bool = True) -> Seating:
        """The next visit: the party at the table passes to the next party in play
        (passing over knocked-out parties and those with skips, whose count drops by one);
        with ``rotate`` its next visit goes to its next member. The new party's visit
        count goes up, and the allotment of balls is renewed. With nobody else in play, the
        same party plays on.

        >>> s = Seating.of(("A", "B", "C")).skip(1)
        >>> s = s.advance()
        >>> s.at_table, s.skips
        ('C', (0, 0, 0))
        """
        n = len(self.parties)
        turn = self.turn
        partner = self.partner
        if rotate:
            size = len(self.members[turn])
            if size > 1:
                partner = _set(partner, turn, (partner[turn] + 1) % size)
        skips = self.skips
        if not self.playoff and not any(self.out) and not any(skips) and 0 <= turn < n:
            # the usual case: everyone plays in seat order, so the next seat is next
            nxt = turn + 1
            wrapped = nxt >= n
            if wrapped:
                nxt = 0
            return Seating(
                self.parties,
                self.members,
                self.sides,
                nxt,
                partner,
                _set(self.visits, nxt, self.visits[nxt] + 1),
                self.out,
                skips,
                self.playoff,
                self.round + 1 if (wrapped or nxt == turn) and partner[nxt] == 0 else self.round,
                self.balls,
                self.balls,
            )
        return self._advance_in_order(partner)

    def _advance_in_order(self, partner: tuple[int, ...]) -> Seating:
        """:meth:`advance` in every case (play-offs, knocked-out parties, skips), once
        ``partner`` has been rotated."""
        n = len(self.parties)
        turn = self.turn
        skips = self.skips
        order = self.playoff or tuple(range(n))
        pos = order.index(turn) if turn in order else -1
        nxt = turn
        wrapped = False
        for _ in range(2 * len(order) + sum(skips) + 1):
            pos += 1
            if pos >= len(order):
                pos = 0
                wrapped = True
            cand = order[pos]
            if self.out[cand]:
                continue
            if skips[cand] > 0 and cand != turn:
                skips = _set(skips, cand, skips[cand] - 1)
                continue
            nxt = cand
            break
        rnd = self.round + 1 if (wrapped or nxt == turn) and partner[nxt] == 0 else self.round
        return Seating(
            self.parties,
            self.members,
            self.sides,
            nxt,
            partner,
            _set(self.visits, nxt, self.visits[nxt] + 1),
            self.out,
            skips,
            self.playoff,
            rnd,
            self.balls,
            self.balls,
        )

    def ball(self) -> Seating:
        """One ball of the allotment played: ``balls_left`` drops, and the visit passes
        when it is used up.

        >>> s = Seating.of(("A", "B"), balls=2).ball()
        >>> s.at_table, s.balls_left, s.ball().at_table
        ('A', 1, 'B')
        """
        if self.balls_left > 1:
            return self._replace(balls_left=self.balls_left - 1)
        return self.advance()

    def pass_to(self, party: int) -> Seating:
        """A new visit for ``party`` now (e.g. the player named to break), whatever the
        rotation says."""
        return self._replace(
            turn=party,
            visits=_set(self.visits, party, self.visits[party] + 1),
            balls_left=self.balls,
        )

    def knock_out(self, party: int) -> Seating:
        """``party`` is out: passed over until revived (the turn does not move)."""
        return self._replace(out=_set(self.out, party, True))

    def revive(self, party: int) -> Seating:
        """``party`` is back in the rotation, in its own seat."""
        return self._replace(out=_set(self.out, party, False))

    def skip(self, party: int, turns: int = 1) -> Seating:
        """``party`` will be passed over ``turns`` more times."""
        return self._replace(skips=_set(self.skips, party, self.skips[party] + turns))

    def start_playoff(self, parties: Sequence[int]) -> Seating:
        """Only ``parties`` play on (in seat order), beginning with the first of them: a
        new round."""
        order = tuple(sorted(parties))
        first = order[0]
        return self._replace(
            playoff=order,
            turn=first,
            visits=_set(self.visits, first, self.visits[first] + 1),
            round=self.round + 1,
            balls_left=self.balls,
        )

    def dump(self) -> list[Any]:
        """The seating as JSON (a list); :meth:`load` reads it back."""
        return [
            list(self.parties),
            [list(m) for m in self.members],
            self.sides,
            self.turn,
            list(self.partner),
            list(self.visits),
            list(self.out),
            list(self.skips),
            list(self.playoff),
            self.round,
            self.balls,
            self.balls_left,
        ]

    @classmethod
    def load(cls, data: Sequence[Any]) -> Seating:
        """A seating back from :meth:`dump`.

        >>> s = Seating.of(("A", "B"), ((None,), ("Bob",)), sides=True).advance()
        >>> Seating.load(s.dump()) == s
        True
        """
        p, m, sides, turn, partner, visits, out, skips, playoff, rnd, balls, left = data
        return cls(
            tuple(p),
            tuple(tuple(x) for x in m),
            sides,
            turn,
            tuple(partner),
            tuple(visits),
            tuple(out),
            tuple(skips),
            tuple(playoff),
            rnd,
            balls,
            left,
        )


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*t[:i], value, *t[i + 1 :])


@dataclass(frozen=True)
class Participants:
    """How a game is seated, declared once: ``describe()["participants"]``, the setup
    parsing of :meth:`seat` and :func:`setup_for` all read it.

    ``forms``: ``"players"`` (individuals in rotation: ``"players": [names]``, or a whole
    number n for P1..Pn when ``count``) and/or ``"sides"`` (``"sides": [names]`` with
    ``"players": {side: [names]}``); the first form is the game's ``kind``. ``min`` /
    ``max`` bound the number of parties (players, or sides; ``max`` None: no bound).
    ``per_side``: the allowed numbers of members a side (empty: any number from 1; a
    side's list may not be empty, null or left out: one unnamed member); ``equal_sides``: every side the
    same size. ``default_sides``: the sides when the setup names none (a sides-only game).
    """

    forms: tuple[str, ...] = ("players",)
    min: int = 2
    max: int | None = 2
    per_side: tuple[int, ...] = (1, 2)
    equal_sides: bool = False
    count: bool = False
    default_sides: tuple[str, ...] = ("home", "away")

    @property
    def kind(self) -> str:
        """``"players"`` or ``"sides"``: the game's first (usual) form."""
        return self.forms[0]

    def as_dict(self) -> dict[str, Any]:
        """The declaration as JSON (``describe()["participants"]``).

        >>> Participants(("sides",), per_side=(1, 2)).as_dict()["per_side"]
        [1, 2]
        """
        return {
            "kind": self.kind,
            "forms": list(self.forms),
            "min": self.min,
            "max": self.max,
            "per_side": list(self.per_side) if "sides" in self.forms else None,
            "equal_sides": self.equal_sides,
            "count": self.count,
        }

    def seat(self, values: Mapping[str, Any], first: str | None = None) -> Seating:
        """The seating a validated setup describes (``players`` / ``sides``); impossible
        combinations raise ``bad_setup`` (index -1). ``first`` names the party that
        begins (default: the first).

        >>> p = Participants(("players",), max=None, count=True)
        >>> p.seat({"players": 3}).parties
        ('P1', 'P2', 'P3')
        >>> p.seat({"players": ["Ann", "Ann"]})
        Traceback (most recent call last):
        ...
        rules.core.InvalidEvent: bad_setup: player names must be distinct (event -1)
        """
        raw_sides = values.get("sides")
        players = values.get("players")
        if "sides" in self.forms and (raw_sides is not None or self.kind == "sides"):
            sides = tuple(raw_sides if raw_sides is not None else self.default_sides)
            self._bounds(len(sides), "sides")
            _distinct(sides, "side")
            if players is not None and not isinstance(players, Mapping):
                raise InvalidEvent(
                    "bad_setup", "players must be an object (side -> names) with sides", -1
                )
            given = players or {}
            for side in given:
                if side not in sides:
                    raise InvalidEvent("bad_setup", f"players: {side!r} is not a side", -1)
            members = tuple(
                (None,) if given.get(side) is None else tuple(given[side]) for side in sides
            )
            for side, side_names in zip(sides, members, strict=True):
                if not side_names:
                    raise InvalidEvent("bad_setup", f"players: side {side!r} has nobody", -1)
                if self.per_side and len(side_names) not in self.per_side:
                    allowed = " or ".join(str(k) for k in self.per_side)
                    raise InvalidEvent(
                        "bad_setup",
                        f"players: {side} has {len(side_names)} players ({allowed})",
                        -1,
                    )
            if self.equal_sides and len({len(m) for m in members}) > 1:
                raise InvalidEvent("bad_setup", "every side needs the same number of players", -1)
            _distinct(tuple(n for m in members for n in m if n is not None), "player")
            seats = Seating.of(sides, members, sides=True)
        else:
            if players is None:
                players = ("P1", "P2")
            if isinstance(players, Mapping):
                raise InvalidEvent("bad_setup", "players must be a list of names", -1)
            if isinstance(players, int) and not isinstance(players, bool):
                if not self.count:
                    raise InvalidEvent("bad_setup", "players must be a list of names", -1)
                players = tuple(f"P{i}" for i in range(1, players + 1))
            names = tuple(cast(Sequence[str], players))
            self._bounds(len(names), "players")
            _distinct(names, "player")
            seats = Seating.of(names)
        if first is not None:
            if first not in seats.parties:
                raise InvalidEvent("bad_setup", f"{first!r} is not a party of the game", -1)
            seats = Seating.of(
                seats.parties, seats.members, sides=seats.sides, first=seats.index_of(first)
            )
        return seats

    def _bounds(self, n: int, what: str) -> None:
        if n < self.min or (self.max is not None and n > self.max):
            if self.max == self.min:
                need = f"exactly {self.min}"
            elif self.max is None:
                need = f"at least {self.min}"
            else:
                need = f"{self.min} to {self.max}"
            raise InvalidEvent("bad_setup", f"{need} {what} are needed, not {n}", -1)


def _distinct(names: Sequence[Any], what: str) -> None:
    for name in names:
        if not isinstance(name, str) or not name:
            raise InvalidEvent("bad_setup", f"a {what} needs a non-empty name", -1)
    if len(set(names)) != len(names):
        raise InvalidEvent("bad_setup", f"{what} names must be distinct", -1)


def setup_for(
    game: Game[Any],
    participants: Sequence[str] | Mapping[str, Sequence[str | None]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A valid setup for ``game`` from names, whatever the game: ``participants`` is a
    list of player names (a friendly game) or a mapping side -> its players' names (a
    league frame: ``{"home": [...], "away": [...]}``). ``options`` are merged in. The
    setup is checked with ``game.initial`` (a :class:`RuleError` if it cannot be used).

    * a sides game given a mapping: ``sides`` and ``players`` as given (a side with no
      names gets one unnamed player; with no names at all, only ``sides``);
    * a players-only game given a mapping: the sides' players in order, home first (no
      names at all: the game's default players);
    * a sides game given a list: each player is a side of one.

    >>> from rules import get
    >>> setup_for(get("bar_billiards_4pin"), {"home": ["Ann"], "away": ["Bob", "Cy"]})
    {'sides': ['home', 'away'], 'players': {'home': ['Ann'], 'away': ['Bob', 'Cy']}}
    >>> setup_for(get("three_cushion_carom"), {"home": ["Ann"], "away": ["Bob"]})
    {'players': ['Ann', 'Bob']}
    >>> setup_for(get("bar_billiards_4pin"), ["Ann", "Bob"])["players"]
    {'Ann': ['Ann'], 'Bob': ['Bob']}
    """
    decl = game.participants
    setup: dict[str, Any] = {}
    if isinstance(participants, Mapping):
        names = {str(side): list(ps) for side, ps in participants.items()}
        named = any(n for ps in names.values() for n in ps)
        if "sides" in decl.forms:
            setup["sides"] = list(names)
            if named:
                setup["players"] = {side: ps or [None] for side, ps in names.items()}
        elif named:
            setup["players"] = [n for ps in names.values() for n in ps if n is not None]
    else:
        players = list(participants)
        if "players" in decl.forms:
            setup["players"] = players
        else:
            setup["sides"] = players
            setup["players"] = {name: [name] for name in players}
    setup.update(options or {})
    game.initial(setup)
    return setup


# -------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """The result of a game, typed (modelled on python-chess's ``Outcome``): the only
    thing a caller needs to read a result.

    ``over``: the game has ended. ``winner``: the winning party, or None (not over, shared,
    or no single winner). ``loser``: the losing party where the game names one (two-party
    games: the other party; games where the lowest loses), else None. ``shared``: the game
    ended level. ``scores``: party -> number (may be negative or fractional).

    >>> o = Outcome(True, "home", "away", False, {"home": 320, "away": 150})
    >>> o.result("home"), o.result("away"), o.as_dict()["scores"]
    ('win', 'loss', {'home': 320, 'away': 150})
    """

    over: bool
    winner: str | None = None
    loser: str | None = None
    shared: bool = False
    scores: Mapping[str, float] = dataclass_field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))

    def __hash__(self) -> int:
        return hash((self.over, self.winner, self.loser, self.shared, tuple(self.scores.items())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.over, self.winner, self.loser, self.shared, dict(self.scores)) == (
            other.over,
            other.winner,
            other.loser,
            other.shared,
            dict(other.scores),
        )

    def result(self, party: str) -> str | None:
        """``"win"``, ``"loss"``, ``"shared"`` or ``"none"`` (over, neither won nor lost)
        for ``party``; None while the game runs."""
        if not self.over:
            return None
        if self.shared:
            return "shared"
        if party == self.winner:
            return "win"
        if party == self.loser or (self.winner is not None and self.loser is None):
            return "loss"
        return "none"

    def as_dict(self) -> dict[str, Any]:
        """The outcome as JSON."""
        return {
            "over": self.over,
            "winner": self.winner,
            "loser": self.loser,
            "shared": self.shared,
            "scores": dict(self.scores),
        }


# ----------------------------------------------------------------------- statistics

#: The aggregations a :class:`Stat` may declare.
STAT_AGGS: tuple[str, ...] = ("sum", "max", "min", "count", "ratio")


@dataclass(frozen=True)
class Stat:
    """A player statistic a game computes from the event log
    (:meth:`Game.player_statistics`), with how a league aggregates it over games:

    * ``sum``: the total of the per-game values;
    * ``max`` / ``min``: the highest / lowest per-game value;
    * ``count``: the number of games in which the value was non-zero;
    * ``ratio``: the sum of the ``numerator`` stat over the games divided by the sum of
      the ``denominator`` stat (both named stats of the same game); never the mean of
      per-game ratios. Its per-game value is that game's ratio (0 when the denominator
      is 0).

    >>> Stat("average", "Average", "ratio", "points an inning", "points", "innings").as_dict()["agg"]
    'ratio'
    """

    name: str
    label: str
    agg: str
    doc: str
    numerator: str | None = None
    denominator: str | None = None

    def __post_init__(self) -> None:
        if self.agg not in STAT_AGGS:
            raise ValueError(f"stat {self.name!r}: unknown agg {self.agg!r}")
        if (self.agg == "ratio") != (self.numerator is not None and self.denominator is not None):
            raise ValueError(f"stat {self.name!r}: a ratio names its numerator and denominator")

    def as_dict(self) -> dict[str, Any]:
        """This stat as JSON."""
        return {
            "name": self.name,
            "label": self.label,
            "agg": self.agg,
            "doc": self.doc,
            "numerator": self.numerator,
            "denominator": self.denominator,
        }


def aggregate(stats: Sequence[Stat], lines: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """One player's per-game stat lines aggregated as each :class:`Stat` declares.

    >>> stats = (Stat("pts", "Points", "sum", ""), Stat("inn", "Innings", "sum", ""),
    ...          Stat("avg", "Average", "ratio", "", "pts", "inn"),
    ...          Stat("hi", "High run", "max", ""), Stat("won", "Games with a run", "count", ""))
    >>> aggregate(stats, [{"pts": 10, "inn": 4, "hi": 3, "won": 1},
    ...                   {"pts": 5, "inn": 6, "hi": 5, "won": 0}])
    {'pts': 15, 'inn': 10, 'avg': 1.5, 'hi': 5, 'won': 1}
    """
    rows = list(lines)
    out: dict[str, float] = {}
    for st in stats:
        values = [row.get(st.name, 0) for row in rows]
        if st.agg == "sum":
            out[st.name] = sum(values)
        elif st.agg == "max":
            out[st.name] = max(values, default=0)
        elif st.agg == "min":
            out[st.name] = min(values, default=0)
        elif st.agg == "count":
            out[st.name] = sum(1 for v in values if v)
    for st in stats:
        if st.agg == "ratio":
            assert st.numerator is not None and st.denominator is not None
            num = sum(row.get(st.numerator, 0) for row in rows)
            den = sum(row.get(st.denominator, 0) for row in rows)
            out[st.name] = num / den if den else 0
    return {st.name: out[st.name] for st in stats}


# ----------------------------------------------------------------------------- game

S = TypeVar("S")


class Game(Generic[S]):
    """Base class of a game. Subclasses set the class attributes and implement
    :meth:`initial`, :meth:`apply`, :meth:`view`, :meth:`dump` and :meth:`load`.

    ``apply`` is pure: it returns a new state and never mutates the one it is given.
    It raises :class:`RuleError` with index None; :func:`replay` and :class:`Timeline`
    fill the index in.
    """

    id: str = ""
    name: str = ""
    aliases: tuple[str, ...] = ()
    family: str = ""
    players: str = ""
    options: tuple[Field, ...] = ()
    events: tuple[EventType, ...] = ()
    fouls: tuple[Foul, ...] = ()
    state_doc: dict[str, str] = {}  # read-only by convention
    #: how the game is seated (describe()["participants"], setup_for, the seating)
    participants: Participants = Participants()
    #: the player statistics player_statistics computes
    statistics: tuple[Stat, ...] = ()
    #: (state key, label): what a scoring pad shows, in order
    display: tuple[tuple[str, str], ...] = ()
    #: what a scoring pad calls the game once it is over (describe()["pad"]["over"])
    over_label: str = "Game over"
    #: a scoring pad's words and layout, never rules (describe()["pad"]; rules/README.md)
    pad_hints: Mapping[str, Any] = {}
    #: choice set -> its doc, for the sets beyond SEATING_CHOICES the game resolves
    choice_set_doc: dict[str, str] = {}
    #: choice set -> the code a value outside it answers (default bad_value)
    choice_errors: dict[str, str] = {}
    #: the result is a total of points added shot by shot, so a handicap start (the setup's
    #: ``starts``) can be given: the game's initial scores are the starts
    additive_score: bool = False
    #: what a score is on a paper score sheet: a whole number of points, a multiple of this
    #: (bar billiards' holes all score tens)
    score_step: int = 1
    #: the ``max`` statistic the breaks chart bins (a break, a run, a turn); empty: none
    best_stat: str = ""

    def initial(self, setup: Mapping[str, Any] | None) -> S:
        """The state before the first event; a bad setup raises ``bad_setup`` (index -1)."""
        raise NotImplementedError

    def apply(self, state: S, event: Mapping[str, Any]) -> S:
        """The state after ``event``; raises :class:`RuleError` (index None) if refused."""
        raise NotImplementedError

    def view(self, state: S) -> dict[str, Any]:
        """The public JSON state the game's page fixes."""
        raise NotImplementedError

    def dump(self, state: S) -> dict[str, Any]:
        """The full internal state as compact JSON; ``load(dump(s)) == s``."""
        raise NotImplementedError

    def load(self, data: Mapping[str, Any]) -> S:
        """The internal state back from :meth:`dump`'s output."""
        raise NotImplementedError

    def validate(self, event: Any, state: S | None = None) -> None:
        """Shorthand for :func:`validate_event` on this game."""
        validate_event(self, event, state)

    # -- seating, choices --------------------------------------------------------

    def seating(self, state: S) -> Seating | None:
        """The state's :class:`Seating` (None for a game that keeps none)."""
        return None

    def choice_sets(self, state: S) -> dict[str, list[Any]]:
        """The resolved choice sets for ``state``: every name a field's ``choices_from``
        may use, mapped to the allowed values (what a UI offers). The default gives the
        seating's ``players``, ``parties`` and ``sides``; games add their own sets
        (``balls``, ``cups``) by overriding and extending this.

        >>> from rules import get
        >>> g = get("three_cushion_carom")
        >>> g.choice_sets(g.initial({"players": ["Ann", "Bob"]}))["players"]
        ['Ann', 'Bob']
        """
        seats = self.seating(state)
        if seats is None:
            return {name: [] for name in SEATING_CHOICES}
        return seats.choice_sets()

    def setup_choice_sets(self, values: Mapping[str, Any]) -> dict[str, list[Any]]:
        """The choice sets setup options may use (``choices_from``), from the setup's
        values (defaults filled in): by default the seating
        ``self.participants.seat(values)`` describes."""
        return self.participants.seat(values).choice_sets()

    # -- results -----------------------------------------------------------------

    def outcome(self, state: S) -> Outcome:
        """The result as a typed :class:`Outcome`: the only way a caller should read a
        result. The default reads the view's ``over``, ``winner``, ``shared``, ``scores``
        and ``loser`` (when the view has it; else, in a two-party game with a winner,
        the other party); games override it to read their state directly."""
        v = self.view(state)
        scores = dict(v.get("scores") or {})
        winner = v.get("winner")
        loser = v.get("loser")
        if loser is None and winner is not None and len(scores) == 2:
            loser = next(p for p in scores if p != winner)
        return Outcome(bool(v.get("over")), winner, loser, bool(v.get("shared")), scores)

    def table_map(self) -> TableMap | None:
        """What a drawing of the table shows (:class:`rules.layout.TableMap`): by default
        the pockets a ``pots`` list names, when they are a known table's; None: nothing
        to draw."""
        return pocket_map(self.events)

    def player_statistics(
        self, setup: Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
    ) -> dict[str, dict[str, float]]:
        """Each named player's statistics (:attr:`statistics`) for one game, computed
        from its event log: player name (as named in the setup) -> stat name -> number.
        Unnamed players are left out; every declared stat is present for each player
        named. A refused event raises its :class:`RuleError` with its index."""
        return {}

    def setup_for(
        self,
        participants: Sequence[str] | Mapping[str, Sequence[str | None]],
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Shorthand for :func:`setup_for` on this game."""
        return setup_for(self, participants, options)

    def foul(self, code: str) -> Foul:
        """The declared foul with this code (KeyError if none)."""
        for f in self.fouls:
            if f.code == code:
                return f
        raise KeyError(code)

    def describe(self) -> dict[str, Any]:
        """The game's identity, setup options, event vocabulary, fouls and state keys as
        JSON: what the referee pad is generated from.

        >>> from rules import get
        >>> d = get("bar_billiards_4pin").describe()
        >>> sorted(d)  # doctest: +NORMALIZE_WHITESPACE
        ['aliases', 'choice_sets', 'display', 'events', 'family', 'fouls', 'id', 'name',
         'pad', 'participants', 'players', 'setup', 'state', 'statistics']
        >>> [e["type"] for e in d["events"]]
        ['shot', 'bar_down', 'invoke_endgame']
        """
        return {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "family": self.family,
            "players": self.players,
            "setup": [field_as_dict(f, self.fouls) for f in self.options],
            "events": [e.as_dict(self.fouls) for e in self.events],
            "fouls": [f.as_dict() for f in self.fouls],
            "state": dict(self.state_doc),
            "participants": self.participants.as_dict(),
            "choice_sets": {**SEATING_CHOICES, **self.choice_set_doc},
            "statistics": [st.as_dict() for st in self.statistics],
            "display": [{"key": key, "label": label} for key, label in self.display],
            "pad": {"over": self.over_label, **self.pad_hints},
        }

    def summary(self) -> dict[str, Any]:
        """The game as one entry of ``python -m rules list``."""
        return {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "players": self.players,
            "family": self.family,
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


#: How a game named by a string is found: the registry installs its ``get`` here when it
#: is imported (``import rules`` does), so this module needs no import of the registry.
_lookup: Callable[[str], Game[Any]] | None = None


def set_lookup(lookup: Callable[[str], Game[Any]]) -> None:
    """Install the function :func:`replay` and :class:`Timeline` use to find a game named
    by a string (the registry's ``get``; it calls this when imported)."""
    global _lookup
    _lookup = lookup


def _resolve(game: Game[Any] | str) -> Game[Any]:
    if isinstance(game, str):
        if _lookup is None:  # pragma: no cover - importing rules installs the registry
            raise LookupError("no game registry: import rules first")
        return _lookup(game)
    return game


def replay(game: Game[Any] | str, setup: Mapping[str, Any] | None, events: Iterable[Any]) -> Any:
    """Fold ``events`` over ``game.initial(setup)`` and return the final state.

    A refused event re-raises its :class:`RuleError` with ``index`` set to the event's
    position; a refused setup keeps index -1.

    >>> from rules import get
    >>> bb = get("bar_billiards_4pin")
    >>> s = replay(bb, {}, [{"type": "shot", "pots": [{"ball": "red", "hole": 100}]}])
    >>> bb.view(s)["break"]
    200
    >>> replay("bar_billiards_4pin", {}, [{"type": "shot"}, {"type": "pot"}])
    Traceback (most recent call last):
    ...
    rules.core.InvalidEvent: unknown_type: no event type 'pot' (known: bar_down, invoke_endgame, shot) (event 1)
    """
    g = _resolve(game)
    state = g.initial(setup)
    if isinstance(events, (str, bytes, Mapping)):
        raise InvalidEvent("bad_value", "events must be a list", None)
    apply = g.apply
    for i, event in enumerate(events):
        try:
            state = apply(state, event)
        except RuleError as err:
            raise err.at(i) from None
    return state


class Timeline:
    """A frame being played: the setup, the accepted events and every state so far.

    ``push`` applies one event (a refused event raises with its index and changes
    nothing); ``undo`` drops the last event in O(1).

    >>> t = Timeline("bar_billiards_4pin", {"players": {"home": ["Ann"], "away": ["Bob"]}})
    >>> _ = t.push({"type": "shot", "pots": [{"ball": "white", "hole": 50}]})
    >>> len(t), t.view()["break"]
    (1, 50)
    >>> _ = t.undo()
    >>> len(t), t.view()["break"]
    (0, 0)
    """

    def __init__(self, game: Game[Any] | str, setup: Mapping[str, Any] | None = None) -> None:
        self.game: Game[Any] = _resolve(game)
        self.setup: Mapping[str, Any] | None = setup
        self._states: list[Any] = [self.game.initial(setup)]
        self._events: list[Any] = []

    @property
    def state(self) -> Any:
        """The current internal state."""
        return self._states[-1]

    @property
    def events(self) -> tuple[Any, ...]:
        """The accepted events, in order."""
        return tuple(self._events)

    def view(self) -> dict[str, Any]:
        """The public JSON state now."""
        return self.game.view(self._states[-1])

    def push(self, event: Mapping[str, Any]) -> Any:
        """Apply ``event`` and return the new state; a refusal raises and changes nothing."""
        try:
            state = self.game.apply(self._states[-1], event)
        except RuleError as err:
            raise err.at(len(self._events)) from None
        self._states.append(state)
        self._events.append(event)
        return state

    def undo(self) -> Any:
        """Forget the last event and return the state before it (IndexError if none)."""
        if not self._events:
            raise IndexError("nothing to undo")
        self._events.pop()
        self._states.pop()
        return self._states[-1]

    def choices(self) -> dict[str, list[Any]]:
        """The resolved choice sets now (:meth:`Game.choice_sets`): what a UI offers for
        fields with ``choices_from``."""
        return self.game.choice_sets(self._states[-1])

    def outcome(self) -> Outcome:
        """The result now (:meth:`Game.outcome`)."""
        return self.game.outcome(self._states[-1])

    def __len__(self) -> int:
        return len(self._events)
