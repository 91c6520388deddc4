"""The validator: events and setups checked against a game's declared vocabulary.

:func:`validate_event` answers at once for a well-formed event through a predicate
compiled once per event type from the declaration (the fast path), and otherwise walks
the declaration to say what is wrong (the refusal path). :func:`validate_setup` does the
same for a setup, defaults filled in.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar, cast

from rules.vocabulary import FOULS, EventType, Field, InvalidEvent

__all__ = [
    "MAX_START",
    "STARTS",
    "check_starts",
    "fill_defaults",
    "kept_by_setup",
    "plain_json",
    "start_scores",
    "validate_event",
    "validate_setup",
]

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
        pairs = _scalar_choices(f)
        if pairs is not None:  # a ball: a number or a name

            def pair_in(v: Any) -> bool:
                t = type(v)
                if t is int or t is str:
                    return (t, v) in pairs
                return v is None and null_ok

            return pair_in
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


def _scalar_choices(f: Field) -> frozenset[tuple[type, Any]] | None:
    """A union of int and str variants with choices (of distinct types, no range, no foul
    codes) as the (type, value) pairs it accepts: a value is accepted exactly if its pair is
    one of them, None aside (as the union's predicate answers). Else None."""
    if f.type != "union" or f.choices is not None or f.minimum is not None:
        return None
    if f.maximum is not None or len({v.type for v in f.variants}) != len(f.variants):
        return None
    pairs: set[tuple[type, Any]] = set()
    for v in f.variants:
        if v.type not in ("int", "str") or v.choices is None or v.choices == FOULS:
            return None
        if v.minimum is not None or v.maximum is not None:
            return None
        exact = int if v.type == "int" else str
        pairs.update((exact, c) for c in v.choices if type(c) is exact)
    return frozenset(pairs)


def _fast_list(f: Field, null_ok: bool, fouls: frozenset[str]) -> _Pred:
    if f.item is None:
        return lambda v: (v is None and null_ok) or _is_list(v)
    item = f.item
    pairs = _scalar_choices(item)
    if pairs is not None:  # balls and cushions: numbers and names in one list
        union_null = _null_ok(item)

        def pair_list(v: Any) -> bool:
            t = type(v)
            if t is not list and t is not tuple:
                return v is None and null_ok
            for el in v:
                te = type(el)
                if (te is int or te is str) and (te, el) in pairs:
                    continue
                if el is None and union_null:
                    continue
                return False
            return True

        return pair_list
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
# and a ``_Sets``, which resolves each choice set an event uses at most once (by the
# game's ``choice_set``), when the first value that needs it is met (as the generic checks do). Every other field
# keeps its one-argument predicate. A set the game does not resolve, or any exception
# while resolving or looking a value up, answers False: the generic checks then give
# the answer (or raise) themselves.

_DPred = Callable[[Any, "_Sets"], bool]


class _Sets:
    """The choice sets of one event's state, each resolved on first use (by the game's
    ``choice_set`` when it has one: one set without building the others)."""

    __slots__ = ("game", "sets", "state")

    def __init__(self, game: Any, state: Any) -> None:
        self.game = game
        self.state = state
        self.sets: dict[str, Sequence[Any]] = {}

    def get(self, name: str) -> Sequence[Any]:
        found = self.sets.get(name)
        if found is None:
            one = getattr(self.game, "choice_set", None)
            if one is not None:
                found = one(self.state, name)
            else:
                found = self.game.choice_sets(self.state).get(name)
            if found is None:
                raise KeyError(name)
            self.sets[name] = found
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
    rules.vocabulary.InvalidEvent: unknown_foul: fouls[0]: no foul code 'pin_300'
    >>> validate_event(bb, {"type": "shot", "cushion": 1})
    Traceback (most recent call last):
    ...
    rules.vocabulary.InvalidEvent: bad_value: cushion must be true or false, not 1
    >>> cc = get("three_cushion_carom")
    >>> validate_event(cc, {"type": "concede", "player": "Cat"}, cc.initial({}))
    Traceback (most recent call last):
    ...
    rules.vocabulary.InvalidEvent: bad_value: player must be one of the players ('P1', 'P2'), not 'Cat'
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
    rules.vocabulary.InvalidEvent: bad_setup: white_balls must be one of 6, 7, not 5 (event -1)
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
