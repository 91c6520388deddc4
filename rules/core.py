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

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = [
    "FOULS",
    "JSON_TYPES",
    "EventType",
    "Field",
    "Foul",
    "Game",
    "IllegalEvent",
    "InvalidEvent",
    "Option",
    "RuleError",
    "Timeline",
    "field_as_dict",
    "fill_defaults",
    "jsonable",
    "replay",
    "validate_event",
    "validate_setup",
]

#: The JSON types a :class:`Field` may declare.
JSON_TYPES: tuple[str, ...] = ("int", "bool", "str", "list", "object", "number")

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

    def __post_init__(self) -> None:
        if self.type not in JSON_TYPES:
            raise ValueError(f"field {self.name!r}: unknown type {self.type!r}")
        if isinstance(self.choices, str) and self.choices != FOULS:
            raise ValueError(f"field {self.name!r}: choices must be a tuple or FOULS")

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
) -> Field:
    """A setup option: a :class:`Field` whose default comes before its doc.

    >>> opt = Option("white_balls", "int", 7, "white balls in the set", choices=(6, 7))
    >>> opt.default, opt.choices, opt.required
    (7, (6, 7), False)
    """
    return Field(name, type, doc, required, default, choices, item, fields, nullable)


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
    """A field as JSON with every key present: ``name, type, doc, required, default,
    choices, item, fields``. ``choices=FOULS`` is spelled out as the list of foul codes.

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
        "item": None if f.item is None else field_as_dict(f.item, fouls),
        "fields": [field_as_dict(sub, fouls) for sub in f.fields],
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


def _check_value(f: Field, value: Any, path: str, foul_codes: frozenset[str]) -> None:
    """Check one value against its field; raise InvalidEvent (index None)."""
    if value is None:
        if f.nullable or (not f.required and f.default is None):
            return
        raise InvalidEvent("bad_value", f"{path} must be {_JSON_NAMES[f.type]}, not null")
    if not _type_ok(f.type, value):
        raise InvalidEvent(
            "bad_value", f"{path} must be {_JSON_NAMES[f.type]}, not {_json_repr(value)}"
        )
    if f.choices is not None:
        if f.choices == FOULS:
            if value not in foul_codes:
                raise InvalidEvent("unknown_foul", f"{path}: no foul code {value!r}")
        elif value not in f.choices or not any(
            type(value) is type(c) for c in f.choices if c == value
        ):
            allowed = ", ".join(repr(c) for c in f.choices)
            raise InvalidEvent(
                "bad_value", f"{path} must be one of {allowed}, not {_json_repr(value)}"
            )
    if f.type == "list" and f.item is not None:
        for i, element in enumerate(value):
            _check_value(f.item, element, f"{path}[{i}]", foul_codes)
    elif f.type == "object":
        if f.fields:
            _check_object(f.fields, value, path, foul_codes)
        elif f.item is not None:
            for key, element in value.items():
                if not isinstance(key, str):
                    raise InvalidEvent("bad_value", f"{path}: keys must be strings")
                _check_value(f.item, element, f"{path}.{key}", foul_codes)


def _check_object(
    fields: Sequence[Field], obj: Mapping[str, Any], path: str, foul_codes: frozenset[str]
) -> None:
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
        _check_value(f, obj[f.name], sub, foul_codes)


def _json_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Index:
    """Per-game lookup tables for validation (built once, on first use)."""

    __slots__ = ("events", "fouls", "names")

    def __init__(self, game: Any) -> None:
        self.events: dict[str, EventType] = {e.type: e for e in game.events}
        self.fouls: frozenset[str] = frozenset(f.code for f in game.fouls)
        self.names: dict[str, frozenset[str]] = {
            e.type: frozenset(f.name for f in e.fields) | {"type"} for e in game.events
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


def validate_event(game: Any, event: Any) -> None:
    """Check ``event`` against ``game.events`` and ``game.fouls``; raise
    :class:`InvalidEvent` (index None) if it is malformed.

    Codes: ``unknown_type`` (not an object, no ``type`` or an unknown one),
    ``unknown_field``, ``missing_field``, ``bad_value`` (wrong JSON type, bool given for
    an int, value outside its choices) and ``unknown_foul``.

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
    """
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
    for f in declared.fields:
        if f.name not in event:
            if f.required:
                raise InvalidEvent("missing_field", f"{kind}: {f.name} is required")
            continue
        _check_value(f, event[f.name], f.name, idx.fouls)


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
    try:
        _check_object(game.options, setup, "", _index(game).fouls)
    except InvalidEvent as err:
        raise InvalidEvent("bad_setup", err.message, -1) from None
    return fill_defaults(game.options, setup)


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

    def validate(self, event: Any) -> None:
        """Shorthand for :func:`validate_event` on this game."""
        validate_event(self, event)

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
        >>> sorted(d)
        ['aliases', 'events', 'family', 'fouls', 'id', 'name', 'players', 'setup', 'state']
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


def _resolve(game: Game[Any] | str) -> Game[Any]:
    if isinstance(game, str):
        from rules.registry import get  # late: the registry imports this module

        return get(game)
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

    def __len__(self) -> int:
        return len(self._events)
