"""The personal data registry: every app's sections, in the order the export lists them
and the erasure runs them (`marker.personal_data` says what a section is).

An app holding personal data has a `personal_data` module with `SECTIONS` and
`NOT_PERSONAL`, listed in `APPS` below. This package sits above every app (nothing of
theirs imports it), as `exchange` does, so it may read all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from django.apps import apps
from django.db.models import Model

from competitions import personal_data as competitions_data
from frames import personal_data as frames_data
from leagues import personal_data as leagues_data
from marker.personal_data import Section, unclaimed
from money import personal_data as money_data
from notifications import personal_data as notifications_data
from series import personal_data as series_data

from . import accounts

#: The modules contributing sections, in order: the account, then each app's.
APPS: tuple[ModuleType, ...] = (
    accounts,
    leagues_data,
    frames_data,
    competitions_data,
    money_data,
    series_data,
    notifications_data,
)


def sections() -> tuple[Section, ...]:
    return tuple(section for module in APPS for section in module.SECTIONS)


def not_personal() -> dict[str, str]:
    """Every field declared to hold no personal data, with why."""
    return {k: why for module in APPS for k, why in module.NOT_PERSONAL.items()}


def unclaimed_fields(model_list: Iterable[type[Model]] | None = None) -> list[str]:
    """The fields (of every installed model, unless given) that can hold a person's name
    or contact and that no section claims and no declaration explains."""
    models = apps.get_models() if model_list is None else model_list
    return unclaimed(models, sections(), not_personal())


def unknown_fields() -> list[str]:
    """Claims and declarations naming no field of an installed model (a typo, or a field
    removed since)."""
    known = {
        f"{m._meta.app_label}.{m._meta.object_name}.{f.name}"
        for m in apps.get_models()
        for f in (*m._meta.local_fields, *m._meta.local_many_to_many)
    }
    named = [f for s in sections() for f in s.fields] + list(not_personal())
    return [f for f in named if f not in known]
