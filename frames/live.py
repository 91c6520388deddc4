"""The live page's and the pad's versions: one token per match and per frame (and one for
everything, bumped when a name they show changes), kept in the shared cache
(`marker.versions`). A poll derives its ETag from them and answers 304 without a query.

Every write that changes what a poll shows bumps, once per transaction, on commit. The
write does it itself, so no service has to remember:

- the match-night models (`Match`, `Presence`, `Frame`, `FramePlayer`, `FrameEvent`) are
  `Tracked` and their managers are `TrackedQuerySet`s: a save or delete of a row, and a
  queryset's update, delete or bulk create, records the match and frames it touched;
- the one write the ORM does not see, the shot's append (SQL in `frames.pad.events`),
  records its frame with `frame_written`;
- a team, player, fixture or account saved (a name, a captain, a staff flag, a password):
  the token for everything (`EVERYTHING`), so every body is built again once. These are
  rows of leagues and of Django's auth, which frames cannot make `Tracked`: their model
  signals bump it (`connect`).

A write to a frame moves its match's version too: the live match poll shows every frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models.signals import post_delete, post_save

from leagues.models import Fixture, Player, Team
from marker import versions

EVERYTHING = "live:all"


def match_key(match_id: int) -> str:
    return f"live:m:{match_id}"


def frame_key(frame_id: int) -> str:
    return f"live:f:{frame_id}"


def frame_written(frame_id: int, match_id: int | None) -> None:
    """A frame's log, state or result written by SQL the ORM does not see: its version
    and its match's move on when the transaction commits."""
    if match_id is None:
        versions.bump(frame_key(frame_id))
    else:
        versions.bump(frame_key(frame_id), match_key(match_id))


# (frame, match) of a tracked model's rows, as columns of a queryset.
_COLUMNS: dict[str, tuple[str | None, str]] = {
    "match": (None, "pk"),
    "presence": (None, "match_id"),
    "frame": ("pk", "match_id"),
    "frameplayer": ("frame_id", "frame__match_id"),
    "frameevent": ("frame_id", "frame__match_id"),
}

_Pair = tuple[int | None, int | None]  # (frame id, match id); None: not a frame's / no match


def _keys(pairs: Iterable[_Pair]) -> list[str]:
    keys: set[str] = set()
    for frame_id, match_id in pairs:
        if frame_id is not None:
            keys.add(frame_key(frame_id))
        if match_id is not None:
            keys.add(match_key(match_id))
    return sorted(keys)


def _frames_of_matches(model: Any, match_ids: list[Any]) -> list[_Pair]:
    """The frames a match's delete takes with it."""
    frame_model = model._meta.get_field("frames").related_model
    return list(
        frame_model._base_manager.filter(match_id__in=match_ids).values_list("pk", "match_id")
    )


def _rows_keys(objs: Iterable[Any]) -> list[str]:
    """The keys of rows in hand (a save, a delete, a bulk create)."""
    pairs: list[_Pair] = []
    unknown: list[int] = []  # frames whose match is not in hand
    for obj in objs:
        name = obj._meta.model_name
        if name == "match":
            pairs.append((None, obj.pk))
        elif name == "presence":
            pairs.append((None, obj.match_id))
        elif name == "frame":
            pairs.append((obj.pk, obj.match_id))
        elif obj._meta.get_field("frame").is_cached(obj):
            pairs.append((obj.frame_id, obj.frame.match_id))
        else:
            unknown.append(obj.frame_id)
    if unknown:
        frame_model = obj._meta.get_field("frame").related_model
        pairs += frame_model._base_manager.filter(pk__in=unknown).values_list("pk", "match_id")
    return _keys(pairs)


def _queryset_keys(queryset: models.QuerySet[Any], *, deleting: bool = False) -> list[str]:
    """The keys of the rows a queryset's update or delete is about to touch (one SELECT)."""
    frame_column, match_column = _COLUMNS[queryset.model._meta.model_name]
    columns = [c for c in (frame_column, match_column) if c is not None]
    rows = queryset.prefetch_related(None).order_by()
    rows.query.select_for_update = False
    pairs: list[_Pair] = [
        (row[0], row[1]) if frame_column else (None, row[0])
        for row in set(rows.values_list(*columns))
    ]
    if deleting and queryset.model._meta.model_name == "match":
        pairs += _frames_of_matches(queryset.model, [m for _, m in pairs])
    return _keys(pairs)


_M = TypeVar("_M", bound=models.Model)


class TrackedQuerySet(models.QuerySet[_M]):
    """A tracked model's queryset: an update, a delete or a bulk create records the
    versions of the rows it touched (`bulk_update` goes through `update`)."""

    def update(self, **kwargs: Any) -> int:
        keys = _queryset_keys(self)
        count = super().update(**kwargs)
        if count:
            versions.bump(*keys)
        return count

    update.alters_data = True  # type: ignore[attr-defined]

    def delete(self) -> tuple[int, dict[str, int]]:
        keys = _queryset_keys(self, deleting=True)
        deleted = super().delete()
        if deleted[0]:
            versions.bump(*keys)
        return deleted

    delete.alters_data = True  # type: ignore[attr-defined]
    delete.queryset_only = True  # type: ignore[attr-defined]

    def bulk_create(self, objs: Iterable[_M], *args: Any, **kwargs: Any) -> list[_M]:
        created = super().bulk_create(objs, *args, **kwargs)
        versions.bump(*_rows_keys(created))
        return created


class Tracked:
    """A match-night model: saving or deleting a row records its versions (and a match's
    delete those of its frames)."""

    _meta: Any
    pk: Any

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)  # type: ignore[misc]
        versions.bump(*_rows_keys([self]))

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        keys = _rows_keys([self])
        if self._meta.model_name == "match":
            keys += _keys(_frames_of_matches(type(self), [self.pk]))
        deleted: tuple[int, dict[str, int]] = super().delete(*args, **kwargs)  # type: ignore[misc]
        versions.bump(*keys)
        return deleted


def _on_name(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # a sign-in changes nothing a poll shows
    versions.bump(EVERYTHING)


def connect() -> None:
    """Wire the names' signals (FramesConfig.ready)."""
    for signal in (post_save, post_delete):
        for model in (Team, Player, Fixture, get_user_model()):
            signal.connect(
                _on_name, sender=model, dispatch_uid=f"live-name-{model.__name__}-{signal}"
            )
