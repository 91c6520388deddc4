"""Models whose writes record their version keys themselves (`marker.versions.bump`, stored
once per transaction on commit): no signal, no call for a service to remember.

A `Tracked` model says what a write of its rows records (`tracking`: a `Tracking`; `Fixed`
when every write records the same keys) and its manager is a `TrackedManager`, whose
querysets are `TrackedQuerySet`s:

- a row's save or delete records the keys of that row (`Tracking.rows`);
- a queryset's update or delete records the keys of the rows it is about to touch, once it
  touched any (`Tracking.queryset`); a bulk create those of the rows it created
  (`bulk_update` goes through `update`).

What is not seen: SQL written by hand (its writer bumps), and rows a delete of another
model takes with it (Django's collector deletes and nulls with SQL of its own): a tracked
model's own delete records what it takes (`Tracking.rows` with `deleting`), and a row
whose keys matter is best protected from an untracked parent's cascade (`PROTECT`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from django.db import models

from marker import versions

_M = TypeVar("_M", bound=models.Model)


class Tracking:
    """What a tracked model's writes record: the keys, answered before the write."""

    def rows(self, objs: Sequence[Any], *, deleting: bool = False) -> Sequence[str]:
        """The keys of rows in hand: saved, created, or (`deleting`) about to be deleted."""
        raise NotImplementedError

    def queryset(self, queryset: models.QuerySet[Any], *, deleting: bool = False) -> Sequence[str]:
        """The keys of the rows an update or (`deleting`) a delete is about to touch."""
        raise NotImplementedError


class Fixed(Tracking):
    """Every write records the same keys (no query)."""

    def __init__(self, *keys: str) -> None:
        if not keys:
            raise ValueError("Fixed tracking needs at least one key.")
        self.keys = keys

    def rows(self, objs: Sequence[Any], *, deleting: bool = False) -> Sequence[str]:
        return self.keys

    def queryset(self, queryset: models.QuerySet[Any], *, deleting: bool = False) -> Sequence[str]:
        return self.keys


def _tracking(model: Any) -> Tracking:
    tracking = getattr(model, "tracking", None)
    if not isinstance(tracking, Tracking):
        raise TypeError(f"{model.__name__} is tracked but declares no `tracking`.")
    return tracking


class TrackedQuerySet(models.QuerySet[_M]):
    """A tracked model's queryset: an update, a delete or a bulk create records the keys of
    the rows it touched."""

    def update(self, **kwargs: Any) -> int:
        keys = _tracking(self.model).queryset(self)
        count = super().update(**kwargs)
        if count:
            versions.bump(*keys)
        return count

    update.alters_data = True  # type: ignore[attr-defined]

    def delete(self) -> tuple[int, dict[str, int]]:
        keys = _tracking(self.model).queryset(self, deleting=True)
        deleted = super().delete()
        if deleted[0]:
            versions.bump(*keys)
        return deleted

    delete.alters_data = True  # type: ignore[attr-defined]
    delete.queryset_only = True  # type: ignore[attr-defined]

    def bulk_create(self, objs: Iterable[_M], *args: Any, **kwargs: Any) -> list[_M]:
        created = super().bulk_create(objs, *args, **kwargs)
        if created:
            versions.bump(*_tracking(self.model).rows(created))
        return created


class Tracked:
    """A model whose row saves and deletes record its keys (before `models.Model` in the
    bases; its manager a `TrackedManager`)."""

    tracking: ClassVar[Tracking]

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)  # type: ignore[misc]
        versions.bump(*self.tracking.rows((self,)))

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        keys = self.tracking.rows((self,), deleting=True)
        deleted: tuple[int, dict[str, int]] = super().delete(*args, **kwargs)  # type: ignore[misc]
        versions.bump(*keys)
        return deleted


class TrackedManager(models.Manager[_M]):
    """A tracked model's manager (its related managers derive from it): its querysets are
    `TrackedQuerySet`s."""

    # What `Manager.from_queryset` sets: Django's own `get_queryset` builds this class.
    _queryset_class = TrackedQuerySet
