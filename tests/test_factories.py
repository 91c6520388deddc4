"""The match-night factories build valid rows on their own (every constraint holds)."""

from __future__ import annotations

import pytest

from frames.models import Frame, FramePlayer
from tests.factories import FrameFactory, FramePlayerFactory

pytestmark = pytest.mark.django_db


def test_a_frame_player_brings_its_frame_match_and_fixture():
    slot = FramePlayerFactory()
    fixture = slot.frame.match.fixture
    assert fixture.home != fixture.away
    assert fixture.home.division == fixture.away.division == fixture.division
    assert fixture.season == fixture.division.season and fixture.venue == fixture.home.venue
    assert (slot.frame.kind, slot.frame.order) == ("singles", slot.frame.number)
    assert FramePlayer.objects.get() == slot


def test_frames_of_one_match_get_numbers_of_their_own():
    first = FrameFactory()
    second = FrameFactory(match=first.match)
    assert first.number != second.number and second.order == second.number
    assert Frame.objects.filter(match=first.match).count() == 2
