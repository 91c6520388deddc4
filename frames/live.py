"""The live page's and the pad's versions: one token per match and per frame (and one for
everything, bumped when a name they show changes), kept in the shared cache
(`marker.versions`). A poll derives its ETag from them and answers 304 without a query.

Every write that changes what a poll shows bumps, on commit:

- a shot, an undo, a confirmation, a rebuild's fix: `frame_changed` (the pad's events
  module calls it; its writes are SQL the model signals do not see);
- any save or delete of a match, a frame or a frame's players (match night, paper scores,
  the result kept in step, a re-draw): the model signals below;
- a team, player, fixture or account saved (a name, a captain, a staff flag, a password):
  the token for everything (`EVERYTHING`), so every body is built again once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from frames.models import Frame, FramePlayer, Match
from leagues.models import Fixture, Player, Team
from marker import versions

EVERYTHING = "live:all"


def match_key(match_id: int) -> str:
    return f"live:m:{match_id}"


def frame_key(frame_id: int) -> str:
    return f"live:f:{frame_id}"


def frame_changed(frame_id: int, match_id: int | None) -> None:
    """A frame's log, state or result changed (after commit)."""
    keys = [frame_key(frame_id)]
    if match_id is not None:
        keys.append(match_key(match_id))
    versions.bump(*keys)


def match_changed(match_id: int) -> None:
    versions.bump(match_key(match_id))


def _on_match(sender: Any, instance: Match, **kwargs: Any) -> None:
    match_changed(instance.pk)


def _on_frame(sender: Any, instance: Frame, **kwargs: Any) -> None:
    frame_changed(instance.pk, instance.match_id)


def _on_frame_player(sender: Any, instance: FramePlayer, **kwargs: Any) -> None:
    if FramePlayer._meta.get_field("frame").is_cached(instance):
        match_id = instance.frame.match_id
    else:
        match_id = (
            Frame.objects.filter(pk=instance.frame_id).values_list("match_id", flat=True).first()
        )
    frame_changed(instance.frame_id, match_id)


def _on_name(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # a sign-in changes nothing a poll shows
    versions.bump(EVERYTHING)


def connect() -> None:
    """Wire the signals (FramesConfig.ready)."""
    for signal in (post_save, post_delete):
        signal.connect(_on_match, sender=Match, dispatch_uid=f"live-match-{signal}")
        signal.connect(_on_frame, sender=Frame, dispatch_uid=f"live-frame-{signal}")
        signal.connect(
            _on_frame_player, sender=FramePlayer, dispatch_uid=f"live-frameplayer-{signal}"
        )
        for model in (Team, Player, Fixture, get_user_model()):
            signal.connect(
                _on_name, sender=model, dispatch_uid=f"live-name-{model.__name__}-{signal}"
            )
