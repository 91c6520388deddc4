"""Personal data as sections: what each app holds of a person, and how it is erased.

Every app declares, in its `personal_data` module, a tuple `SECTIONS` of `Section`s
(what of a person it holds: `export`, and how that is erased or renamed: `erase`) and a
dict `NOT_PERSONAL` of the fields that look personal but hold no one's data, each with
its reason. `people.registry` collects them and runs the export and the erasure over all
of them (it sits above every app, as `exchange` does); this module holds only what the
apps share: the types, the name a person is erased to and the label rewriting.

Fields are named `"app_label.Model.field"`. A field "can hold a person's name or
contact" (`personal_fields`) when it is:

- an email or IP address field, or a field whose name says so (`email`, `phone`,
  `address`, `recipient`, `username`, `name`, `first_name`, `title`, `object_repr`: any
  text field whose name contains one of `NAME_WORDS`);
- a JSON field (JSON carries labels: a frame's setup and log, the hats, a draw's
  entrants);
- a link to a person: a foreign key, one-to-one or many-to-many to the player or the
  user model.

Each such field of every model must be claimed by a section (`Section.fields`) or
declared in a `NOT_PERSONAL` (`unclaimed` lists the rest; a test keeps it empty).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models

#: A text field whose name contains one of these may hold a name or a contact.
NAME_WORDS = ("name", "title", "email", "phone", "address", "recipient", "repr")
#: The models whose rows are people: a link to one is personal data.
PERSON_MODELS = ("leagues.Player", settings.AUTH_USER_MODEL)


def former_name(number: int) -> str:
    """The name an erased person is shown by, everywhere.

    >>> former_name(3)
    'Former player 3'
    """
    return f"Former player {number}"


@dataclass(frozen=True)
class Person:
    """Whom an export or an erasure is about: their player record and account (either may
    be None) and their email addresses (lower-cased)."""

    player: Any
    user: Any
    emails: frozenset[str]

    @classmethod
    def of(cls, player: Any, user: Any = None) -> Person:
        if user is None and player is not None:
            user = player.user
        found = (getattr(user, "email", "") or "", getattr(player, "email", "") or "")
        return cls(player, user, frozenset(e.strip().lower() for e in found if e.strip()))


@dataclass(frozen=True)
class Erasure:
    """One erasure in progress: whom (as they were before it), their number and new
    name, and the labels of theirs to replace (`labels`: old → new, longest first)."""

    person: Person
    number: int
    new_name: str
    labels: dict[str, str]
    usernames: tuple[str, ...]
    actor: Any
    now: datetime

    @property
    def player(self) -> Any:
        return self.person.player

    def rewriter(self, others: Iterable[str] = ()) -> Callable[[Any], Any]:
        """A rewrite of JSON values replacing this person's labels (see `rewriter`)."""
        return rewriter(self.labels, others)


@dataclass(frozen=True)
class Relabel:
    """A person's public name changed (they chose to be shown by their initials, or no
    longer): the labels stored for them as text are renamed from `old` (the name they were
    stored under, with or without their id) to `new`, each scope (a frame, a competition)
    adding their id where `new` would read as another label of it (`unique_label`)."""

    person: Person
    old: str
    new: str

    @property
    def player(self) -> Any:
        return self.person.player

    def labels_in(self, taken: Iterable[str]) -> dict[str, str]:
        """Old label → new, for a scope whose labels are `taken` (theirs included)."""
        taken = set(taken)
        pk = self.player.pk
        found = [old for old in (f"{self.old} #{pk}", self.old) if old in taken]
        if not found:
            return {}
        others = taken - {found[0]}
        return {found[0]: unique_label(self.new, pk, others)}


def unique_label(name: str, pk: Any, others: Iterable[str]) -> str:
    """`name`, or `name #pk` where it would read as one of the `others` (case and spacing
    aside), as the match hats do.

    >>> unique_label("A. B.", 12, ["a. b."]), unique_label("A. B.", 12, ["Ann Bee"])
    ('A. B. #12', 'A. B.')
    """
    key = " ".join(name.casefold().split())
    if any(" ".join(o.casefold().split()) == key for o in others):
        return f"{name} #{pk}"
    return name


@dataclass(frozen=True)
class Section:
    """What one app holds of a person under one heading.

        `export(person)` is the JSON-able value the download holds under `name` (None: the
        section adds nothing to the download); `erase(erasure)` deletes, scrubs or renames
        the section's rows in the erasure's transaction; `relabel(relabel)` renames the labels
    it stored as text when the person's public name changes (`Relabel`). `fields` are the fields the section
        covers ("leagues.Invitation.email"), for the registry's completeness test."""

    name: str
    fields: tuple[str, ...]
    export: Callable[[Person], Any] | None = None
    erase: Callable[[Erasure], None] | None = None
    relabel: Callable[[Relabel], None] | None = None
    description: str = ""


def field_label(model: type[models.Model], f: Any) -> str:
    return f"{model._meta.app_label}.{model._meta.object_name}.{f.name}"


def _is_person_link(f: Any) -> bool:
    if not (f.is_relation and f.related_model is not None and not f.auto_created):
        return False
    target = f.related_model
    if isinstance(target, str):
        return target in PERSON_MODELS
    return target._meta.label in PERSON_MODELS


def may_hold_personal_data(f: Any) -> bool:
    """Whether a model field can hold a person's name or contact (the module's rule)."""
    if _is_person_link(f):
        return True
    if f.is_relation or not hasattr(f, "get_internal_type"):
        return False
    if isinstance(f, models.EmailField | models.GenericIPAddressField | models.JSONField):
        return True
    if isinstance(f, models.CharField | models.TextField):
        if isinstance(f, models.SlugField | models.URLField) or f.choices:
            return False
        return any(word in f.name.lower() for word in NAME_WORDS)
    return False


def personal_fields(model: type[models.Model]) -> list[str]:
    """The fields of `model` that can hold a person's name or contact."""
    opts = model._meta
    candidates = [*opts.local_fields, *opts.local_many_to_many]
    return [field_label(model, f) for f in candidates if may_hold_personal_data(f)]


def unclaimed(
    model_list: Iterable[type[models.Model]],
    sections: Iterable[Section],
    not_personal: Mapping[str, str],
) -> list[str]:
    """The fields of the models that can hold a name or contact and that no section
    claims and no declaration explains (a declaration needs a reason)."""
    claimed = {f for s in sections for f in s.fields}
    explained = {k for k, why in not_personal.items() if why.strip()}
    return [
        f
        for model in model_list
        if not model._meta.proxy
        for f in personal_fields(model)
        if f not in claimed and f not in explained
    ]


# --------------------------------------------------------------------- renaming labels


def labels_of(name: str, pk: Any, new: str) -> dict[str, str]:
    """The labels the draw and the engine may have stored for a player (their name, and
    their name with their id where two names read the same), each with its replacement.

    >>> labels_of("Al  Smith", 5, "Former player 1")
    {'Al Smith #5': 'Former player 1 #5', 'Al Smith': 'Former player 1', 'Al  Smith': 'Former player 1'}
    """
    clean = " ".join(name.split())
    labels: dict[str, str] = {}
    if clean:
        labels[f"{clean} #{pk}"] = f"{new} #{pk}"
        labels[clean] = new
        if name != clean:
            labels[name] = new
    return labels


def rewriter(labels: Mapping[str, str], others: Iterable[str] = ()) -> Callable[[Any], Any]:
    """A function replacing the labels in a JSON value: exact strings and keys, and whole
    words in free text (a draw note, a log entry). `others` are the labels of the other
    players involved: they are left alone even where they contain one of the labels
    ("Al Smith" when "Al" is erased), because the longer alternative matches first.

    >>> rewriter({"Al": "X"}, ["Al Smith"])({"Al": ["Al Smith", "Al plays"]})
    {'X': ['Al Smith', 'X plays']}
    """
    if not labels:
        return lambda value: value
    keep = [o for o in others if o not in labels and any(old in o for old in labels)]
    alternatives = sorted([*labels, *keep], key=len, reverse=True)
    pattern = re.compile(
        "|".join(rf"(?<!\w){re.escape(alt)}(?!\w)" for alt in alternatives), flags=re.UNICODE
    )

    def text(value: str) -> str:
        if value in labels:
            return labels[value]
        return pattern.sub(lambda m: labels.get(m.group(0), m.group(0)), value)

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return {text(k) if isinstance(k, str) else k: rewrite(v) for k, v in value.items()}
        return value

    return rewrite


def rewrite_rows(rows: Iterable[Any], fields: list[str], rewrite: Callable[[Any], Any]) -> int:
    """Rewrite the fields of each row, saving only the rows (and fields) that changed;
    returns how many rows changed."""
    changed = 0
    for row in rows:
        dirty = []
        for name in fields:
            before = getattr(row, name)
            after = rewrite(before)
            if after != before:
                setattr(row, name, after)
                dirty.append(name)
        if dirty:
            row.save(update_fields=dirty)
            changed += 1
    return changed


def iso(value: Any) -> Any:
    """A date or datetime as ISO 8601 text (anything else as it is)."""
    return value.isoformat() if value is not None and hasattr(value, "isoformat") else value
