"""The live page's and the pad's versions: one token per match and per frame (and one for
everything, `EVERYTHING`, bumped when a name they show changes), kept in the shared cache
(`marker.versions`). A poll derives its ETag from them and answers 304 without a query.

Every write that changes what a poll shows bumps, once per transaction, on commit. The
write does it itself (`marker.tracked`), so no service has to remember:

- the match-night models (`Match`, `Presence`, `Frame`, `FramePlayer`, `FrameEvent`) are
  `Tracked` by `MATCH_NIGHT`: a save or delete of a row, and a queryset's update, delete
  or bulk create, records the match and frames it touched;
- the one write the ORM does not see, the shot's append (SQL in `frames.pad.events`),
  records its frame with `frame_written`;
- a team, player or fixture written (a name, a side): `leagues.models` tracks them with
  the token for everything, so every body is built again once.

No cascade from an untracked row (a season's delete) can take a row a poll shows: a
fixture's match, a match's players and referees are `PROTECT`ed.

An account's writes bump nothing: no body shows anything of the account (the names are
players' and teams'), and the pad's `can_enter` is worked out per request (a button a 304
leaves stale is refused on write).

A write to a frame moves its match's version too: the live match poll shows every frame.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import models

from marker import versions
from marker.tracked import Tracking

EVERYTHING = versions.EVERYTHING


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


class _MatchNight(Tracking):
    """A match-night row records its frame's and its match's versions (a match's delete
    those of its frames too, which go with it)."""

    def rows(self, objs: Sequence[Any], *, deleting: bool = False) -> Sequence[str]:
        keys = _rows_keys(objs)
        if deleting and objs and objs[0]._meta.model_name == "match":
            keys += _keys(_frames_of_matches(type(objs[0]), [obj.pk for obj in objs]))
        return keys

    def queryset(self, queryset: models.QuerySet[Any], *, deleting: bool = False) -> Sequence[str]:
        return _queryset_keys(queryset, deleting=deleting)


MATCH_NIGHT = _MatchNight()
