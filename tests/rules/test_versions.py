"""Rule versions: a game's rules carry a version and a changelog; every version stays
registered, and every stored frame replays under the version it was played under, for
ever, while new frames use the version their season pins (docs/rules-governance.md)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command

from frames.friendly.services import friendly_start
from frames.models import Frame
from frames.pad import events
from leagues.models import Season
from rules import RuleChange, registry, replay
from rules.bar_billiards import FOUR_PIN, BarBilliards
from tests.frames.matchnight_helpers import drawn, frames_of
from tests.frames.pad_helpers import make_frame, make_match, referee_player

BB = "bar_billiards_4pin"
NOW = datetime(2026, 10, 6, 20, 0, tzinfo=UTC)
RED_IN_THE_100 = {"type": "shot", "pots": [{"ball": "red", "hole": 100}]}
TRIPLE_RED = RuleChange(
    2, "the red scores three times the hole", "a test league's AGM, rule 4 (scoring)"
)


@pytest.fixture
def v2():
    """Bar billiards version 2, where the red scores treble: registered for the test only."""
    game = BarBilliards(replace(FOUR_PIN, red_multiplier=3)).as_version(2, TRIPLE_RED)
    registry.register(game)
    yield game
    registry.unregister(BB, version=2)
    assert registry.get(BB).version == 1


def _break(game, events_):
    return game.view(replay(game, {}, events_))["break"]


# ------------------------------------------------------------------------- the engine


def test_every_game_declares_version_1_and_a_changelog():
    for game in registry.games():
        assert game.version >= 1
        assert all(c.version <= game.version for c in game.changelog)
        assert registry.get(game.id, game.version) is game


def test_a_new_version_is_current_and_the_old_one_stays(v2):
    assert registry.get(BB) is v2
    assert registry.get("bar-billiards").version == 2  # the aliases follow the newest
    v1 = registry.get(BB, 1)
    assert v1.version == 1 and v1 is not v2
    assert _break(v1, [RED_IN_THE_100]) == 200
    assert _break(v2, [RED_IN_THE_100]) == 300
    assert [g.version for g in registry.versions(BB)] == [1, 2]


def test_the_changelog_between_two_versions(v2):
    assert registry.changes(BB, 1, 2) == [TRIPLE_RED]
    assert registry.changes(BB, 2, 2) == []
    assert registry.changes(BB) == [TRIPLE_RED]


def test_an_unknown_version_is_refused():
    with pytest.raises(registry.UnknownVersion, match="no rules version 7"):
        registry.get(BB, 7)
    with pytest.raises(registry.UnknownVersion):
        registry.get(BB, True)  # type: ignore[arg-type]


def test_a_change_must_start_a_later_version():
    with pytest.raises(ValueError, match="after the first"):
        RuleChange(1, "nothing")
    with pytest.raises(ValueError, match="after version 1"):
        BarBilliards(FOUR_PIN).as_version(1, TRIPLE_RED)


# ---------------------------------------------------------------- stored frames (done-when)


def _record(frame, seq, payload=RED_IN_THE_100):
    return events.frame_record_event(
        frame_id=frame.pk,
        event_id=uuid.uuid4(),
        expected_seq=seq,
        payload=payload,
        kind="event",
        user=None,
        device_id="d1",
        now=NOW,
    )


@pytest.mark.django_db
def test_a_rule_change_leaves_old_frames_replaying_to_their_stored_state(league, capsys):
    """Done when: a test changes a rule and replays the old frames."""
    old = make_frame(make_match(league), referee=referee_player(league))
    _record(old, 1)
    _record(old, 2, {"type": "shot"})  # nothing potted: the break of 200 is banked
    old.refresh_from_db()
    assert old.rules_version == 1 and old.view["scores"] == {"home": 200, "away": 0}
    stored = (old.state, old.view)

    # The rule changes: version 2 is registered, the red now scores treble.
    game = BarBilliards(replace(FOUR_PIN, red_multiplier=3)).as_version(2, TRIPLE_RED)
    registry.register(game)
    try:
        call_command("frames_check", "--frame", str(old.pk))  # no difference: no error
        assert "0 with problems" in capsys.readouterr().out
        assert events.frame_rebuild(frame_id=old.pk).ok
        # A shot after the change, on the old frame, still scores under version 1.
        _record(old, 3)
        old.refresh_from_db()
        assert old.view["break"] == 200
        assert (old.rules_version, stored[1]["scores"]) == (1, {"home": 200, "away": 0})

        # New frames of a season that plays version 2 use it.
        Season.objects.filter(pk=league.season.pk).update(rules_version=2)
        match = drawn(league)
        new = frames_of(match)
        assert {f.rules_version for f in new} == {2}
        played = next(f for f in new if f.status == Frame.Status.SCHEDULED)
        _record(played, 1)
        played.refresh_from_db()
        assert played.view["break"] == 300
        call_command("frames_check")  # every frame replays to its stored state
    finally:
        registry.unregister(BB, version=2)


@pytest.mark.django_db
def test_frames_check_reports_a_frame_whose_replay_under_its_version_differs(league, v2, capsys):
    frame = make_frame(make_match(league), referee=referee_player(league))
    _record(frame, 1)  # played under version 1 (the factory's): the red in the 100 is 200
    frame.refresh_from_db()
    assert (frame.rules_version, frame.view["break"]) == (1, 200)
    # Its version is rewritten to 2: the stored log no longer replays to the stored state.
    Frame.objects.filter(pk=frame.pk).update(rules_version=2)
    with pytest.raises(CommandError, match="1 frame"):
        call_command("frames_check", "--frame", str(frame.pk))
    out = capsys.readouterr().out
    assert f"frame {frame.pk}: DIFFERS" in out and "seq 1" in out


@pytest.mark.django_db
def test_a_friendly_game_plays_the_newest_version(league, v2):
    friendly = friendly_start(
        owner=league.player_user, game_id=BB, players=["Ann", "Bob"], options={}
    )
    frame = Frame.objects.get(friendly=friendly)
    assert frame.rules_version == 2
    _record(frame, 1)
    frame.refresh_from_db()
    assert frame.view["break"] == 300


@pytest.mark.django_db
def test_a_frame_of_an_unknown_version_is_reported_not_crashed(league, capsys):
    frame = make_frame(make_match(league), referee=referee_player(league))
    _record(frame, 1)
    Frame.objects.filter(pk=frame.pk).update(rules_version=9)
    with pytest.raises(CommandError, match="1 frame"):
        call_command("frames_check", "--frame", str(frame.pk))
    assert "no rules version 9" in capsys.readouterr().out
