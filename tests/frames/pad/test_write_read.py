"""The shot's one-statement read (`selectors.frame_and_user_for_write`) gives exactly what
the ORM queryset made from the same declaration gives (`selectors.write_read_queryset`):
the same rows, the same loaded and deferred fields, the same related objects."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from frames.models import Frame, Friendly
from frames.pad import selectors
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = pytest.mark.django_db


def loaded(obj) -> dict | None:
    """The fields a model instance holds (not deferred), with their values."""
    if obj is None:
        return None
    deferred = obj.get_deferred_fields()
    return {
        f.attname: getattr(obj, f.attname)
        for f in obj._meta.concrete_fields
        if f.attname not in deferred
    }


def follow(obj, path: str | None):
    for attr in path.split(".") if path else ():
        if obj is None:
            return None
        obj = getattr(obj, attr)
    return obj


def assert_same_read(frame_id: int, user) -> None:
    fast, fast_user = selectors.frame_and_user_for_write(frame_id, user.pk)
    plain = selectors.write_read_queryset().get(pk=frame_id)
    for path, model, names in selectors._WRITE_READ:
        got, want = follow(fast, path), follow(plain, path)
        assert type(got) is type(want), path
        assert loaded(got) == loaded(want), path
        if want is not None:
            assert set(loaded(want)) == {model._meta.get_field(n).attname for n in names}, path
    assert loaded(fast_user) == loaded(get_user_model().objects.get(pk=user.pk))
    assert loaded(selectors.frame_for_write(frame_id)) == loaded(fast)


def test_a_league_frame_reads_as_the_queryset_does(league):
    frame = make_frame(make_match(league), referee=referee_player(league))
    assert_same_read(frame.pk, league.player_user)


def test_a_friendly_frame_reads_as_the_queryset_does(league):
    friendly = Friendly.objects.create(owner=league.secretary, title="", created_at=timezone.now())
    frame = Frame.objects.create(
        friendly=friendly, number=1, order=1, kind="singles", game_id="bar_billiards_4pin"
    )
    assert_same_read(frame.pk, league.secretary)


def test_no_such_frame_or_user():
    assert selectors.frame_and_user_for_write(987654321, 1) is None
    assert selectors.frame_for_write(987654321) is None
