"""The frame log service (frames.events): append, replay, conflicts, refusals, undo,
confirmation, the cache rebuild and its command. Against the real database."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command

from frames import engine
from frames.models import Frame, FrameEvent, Match, MatchLog
from frames.pad import events
from marker.errors import DomainError
from rules import registry, replay
from tests.frames.pad_helpers import make_frame, make_match, referee_player, shot

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


NOW = datetime(2026, 10, 6, 20, 0, tzinfo=UTC)
BB = registry.get("bar_billiards_4pin")


@pytest.fixture
def frame(league):
    return make_frame(make_match(league), referee=referee_player(league))


@pytest.fixture(params=["statement", "orm"])
def append_path(request, monkeypatch):
    """Each database has one append: PostgreSQL's one statement (`events._append`), and the
    ORM's conditional UPDATE and INSERT (`events._append_portable`) everywhere else. Tests
    that take this fixture run through both, against this database."""
    if request.param == "orm":
        monkeypatch.setattr(events, "_append", events._append_portable)
    return request.param


def record(
    frame, payload=None, *, seq, kind="event", event_id=None, user=None, device="d1", now=NOW
):
    return events.frame_record_event(
        frame_id=frame.pk,
        event_id=event_id or uuid.uuid4(),
        expected_seq=seq,
        payload=payload if payload is not None else {},
        kind=kind,
        user=user,
        device_id=device,
        now=now,
    )


def refusal(call) -> DomainError:
    with pytest.raises(DomainError) as info:
        call()
    return info.value


@pytest.mark.usefixtures("append_path")
def test_first_event_starts_the_frame_and_records_who_where_when(frame, league):
    answer = record(frame, shot(("white", 50)), seq=1, user=league.player_user, device="phone-1")
    assert answer.status == 201
    assert answer.body["seq"] == 1 and answer.body["replayed"] is False
    assert answer.body["view"]["break"] == 50
    row = FrameEvent.objects.get(frame=frame)
    assert (row.entered_by, row.device_id, row.created_at) == (league.player_user, "phone-1", NOW)
    assert (row.top_before, row.top_after, row.schema_version) == (0, 1, 1)
    frame.refresh_from_db()
    assert frame.status == Frame.Status.IN_PLAY and frame.started_at == NOW
    assert (frame.last_seq, frame.top_seq) == (1, 1)
    assert frame.setup["sides"] == ["home", "away"]  # the setup used is kept with the log
    assert frame.view == answer.body["view"]
    assert frame.match.status == Match.Status.IN_PLAY  # the match follows its frames


@pytest.mark.usefixtures("append_path")
def test_retry_answers_the_same_and_stores_nothing(frame):
    event_id = uuid.uuid4()
    first = record(frame, shot(("red", 100)), seq=1, event_id=event_id)
    again = record(frame, shot(("red", 100)), seq=1, event_id=event_id, now=NOW + timedelta(1))
    assert again.status == 200 and again.body["replayed"] is True
    assert {**again.body, "replayed": False} == first.body
    assert FrameEvent.objects.filter(frame=frame).count() == 1


@pytest.mark.usefixtures("append_path")
def test_late_retry_after_other_events_still_replays(frame):
    event_id = uuid.uuid4()
    record(frame, shot(("white", 50)), seq=1, event_id=event_id)
    record(frame, shot(), seq=2)
    late = record(frame, shot(("white", 50)), seq=1, event_id=event_id)
    assert late.status == 200 and late.body["seq"] == 1
    # the same id sent with the next free seq is still that stored event, not a new one
    moved = record(frame, shot(("white", 50)), seq=3, event_id=event_id)
    assert moved.status == 200 and moved.body["seq"] == 1
    assert FrameEvent.objects.filter(frame=frame).count() == 2


@pytest.mark.usefixtures("append_path")
def test_event_id_reused_with_another_payload_is_422(frame, league):
    event_id = uuid.uuid4()
    record(frame, shot(("white", 50)), seq=1, event_id=event_id)
    err = refusal(lambda: record(frame, shot(("white", 20)), seq=1, event_id=event_id))
    assert (err.status, err.code) == (422, "event_id_reused")
    err = refusal(lambda: record(frame, shot(("white", 20)), seq=2, event_id=event_id))
    assert (err.status, err.code) == (422, "event_id_reused")
    other = make_frame(frame.match, number=2)
    err = refusal(lambda: record(other, shot(("white", 50)), seq=1, event_id=event_id))
    assert (err.status, err.code, err.extra["frame"]) == (422, "event_id_reused", frame.pk)
    assert FrameEvent.objects.count() == 1


@pytest.mark.usefixtures("append_path")
def test_taken_sequence_number_is_409_with_the_missing_events(frame):
    first = record(frame, shot(("white", 50)), seq=1)
    record(frame, shot(), seq=2)
    err = refusal(lambda: record(frame, shot(("white", 10)), seq=2))
    assert (err.status, err.code) == (409, "seq_conflict")
    assert err.extra["last_seq"] == 2 and err.extra["expected_seq"] == 2
    assert [e["seq"] for e in err.extra["events"]] == [2]
    assert err.extra["view"] == Frame.objects.get(pk=frame.pk).view
    err = refusal(lambda: record(frame, shot(), seq=1))
    assert [e["event_id"] for e in err.extra["events"]][0] == first.body["event_id"]
    ahead = refusal(lambda: record(frame, shot(), seq=5))
    assert ahead.status == 409 and ahead.extra["events"] == []
    assert FrameEvent.objects.filter(frame=frame).count() == 2


def test_impossible_event_is_400_with_the_engine_code_and_stores_nothing(frame):
    record(frame, shot(("white", 50)), seq=1)
    before = Frame.objects.get(pk=frame.pk)
    err = refusal(lambda: record(frame, shot(("white", 50), ("white", 50), ("white", 50)), seq=2))
    assert (err.status, err.code, err.extra["seq"], err.extra["index"]) == (
        400,
        "not_on_table",
        2,
        1,
    )
    err = refusal(lambda: record(frame, {"type": "pot"}, seq=2))
    assert (err.status, err.code) == (400, "unknown_type")
    after = Frame.objects.get(pk=frame.pk)
    assert (after.last_seq, after.state, after.view) == (before.last_seq, before.state, before.view)
    assert FrameEvent.objects.filter(frame=frame).count() == 1


def test_refused_event_id_can_be_used_again(frame):
    event_id = uuid.uuid4()
    refusal(lambda: record(frame, shot(("white", 10), ("white", 20)), seq=1, event_id=event_id))
    assert record(frame, shot(), seq=1, event_id=event_id).status == 201


@pytest.mark.usefixtures("append_path")
def test_undo_walks_back_one_event_at_a_time(frame):
    views = [engine.initial_view(frame)]
    for seq, event in enumerate([shot(("white", 50)), shot(("red", 100)), shot()], start=1):
        views.append(record(frame, event, seq=seq).body["view"])
    undo1 = record(frame, seq=4, kind="undo")
    assert undo1.status == 201 and undo1.body["top_seq"] == 2 and undo1.body["view"] == views[2]
    undo2 = record(frame, seq=5, kind="undo")
    assert undo2.body["top_seq"] == 1 and undo2.body["view"] == views[1]
    redo = record(frame, shot(("white", 200)), seq=6)
    assert redo.body["view"]["break"] == 250
    undo3 = record(frame, seq=7, kind="undo")
    assert undo3.body["top_seq"] == 1 and undo3.body["view"] == views[1]
    undo4 = record(frame, seq=8, kind="undo")
    assert undo4.body["top_seq"] == 0 and undo4.body["view"] == views[0]
    err = refusal(lambda: record(frame, seq=9, kind="undo"))
    assert (err.status, err.code) == (400, "nothing_to_undo")
    rows = list(
        FrameEvent.objects.filter(frame=frame).values_list("kind", "top_before", "top_after")
    )
    assert rows == [
        ("event", 0, 1),
        ("event", 1, 2),
        ("event", 2, 3),
        ("undo", 3, 2),
        ("undo", 2, 1),
        ("event", 1, 6),
        ("undo", 6, 1),
        ("undo", 1, 0),
    ]  # nothing deleted, nothing updated


def test_undo_with_a_payload_is_refused(frame):
    record(frame, shot(), seq=1)
    err = refusal(lambda: record(frame, {"type": "shot"}, seq=2, kind="undo"))
    assert (err.status, err.code) == (400, "bad_payload")


# A short frame: bar down at once, then the whites and the red are potted by home with
# clean misses handing over; it ends when one ball is left with the gap over the cut-off.
def short_frame() -> list[dict]:
    return [
        {"type": "bar_down"},
        shot(("white", 200), ("red", 200)),  # break-off: both balls in, break 600
        shot(("white", 200)),
        shot(("white", 200)),
        shot(("white", 200)),
        shot(("white", 200)),
        shot(("white", 200)),  # one white left; gap 1800 > 200: over
    ]


@pytest.mark.usefixtures("append_path")
def test_frame_over_waits_for_the_referee_and_confirm_completes_it(frame, league):
    for seq, event in enumerate(short_frame(), start=1):
        answer = record(frame, event, seq=seq)
    assert answer.body["view"]["over"] is True
    frame.refresh_from_db()
    assert frame.status == Frame.Status.IN_PLAY and frame.home_score is None
    err = refusal(lambda: events.frame_confirm(frame_id=frame.pk, seq=3, user=None, now=NOW))
    assert (err.status, err.code) == (409, "seq_conflict")
    done = events.frame_confirm(
        frame_id=frame.pk, seq=frame.last_seq, user=league.player_user, now=NOW
    )
    expected = BB.view(replay(BB, frame.setup, short_frame()))
    assert done.status == Frame.Status.COMPLETE
    assert (done.home_score, done.away_score) == (
        expected["scores"]["home"],
        expected["scores"]["away"],
    )
    assert (done.winner, done.shared, done.result_source, done.completed_at) == (
        "home",
        False,
        "pad",
        NOW,
    )
    match = Match.objects.get(pk=frame.match_id)
    assert (match.home_score, match.away_score) == (done.home_score, done.away_score)
    assert match.home_frames == 1
    log = MatchLog.objects.get(match=match, action="frame_confirmed")
    assert log.actor == league.player_user and log.detail["seq"] == frame.last_seq
    # confirming again is a no-op; events after confirmation are refused
    assert (
        events.frame_confirm(frame_id=frame.pk, seq=frame.last_seq, user=None, now=NOW).pk
        == frame.pk
    )
    err = refusal(lambda: record(frame, seq=frame.last_seq + 1, kind="undo"))
    assert (err.status, err.code) == (400, "frame_complete")


def test_confirm_refuses_a_frame_that_is_not_over(frame):
    record(frame, shot(), seq=1)
    err = refusal(lambda: events.frame_confirm(frame_id=frame.pk, seq=1, user=None, now=NOW))
    assert (err.status, err.code) == (400, "not_over")


@pytest.mark.usefixtures("append_path")
def test_undo_and_invoke_endgame_reopen_a_finished_frame(frame):
    for seq, event in enumerate(short_frame(), start=1):
        last = record(frame, event, seq=seq)
    assert last.body["view"]["can_invoke_endgame"] is True
    reopened = record(frame, {"type": "invoke_endgame"}, seq=8)
    assert reopened.body["view"]["over"] is False and reopened.body["view"]["phase"] == "endgame"
    back = record(frame, seq=9, kind="undo")
    assert back.body["view"]["over"] is True
    undone = record(frame, seq=10, kind="undo")
    assert undone.body["view"]["over"] is False
    assert Frame.objects.get(pk=frame.pk).status == Frame.Status.IN_PLAY


@pytest.mark.usefixtures("append_path")
def test_conceded_frame_and_confirmed_match_refuse_events(frame):
    Frame.objects.filter(pk=frame.pk).update(status=Frame.Status.CONCEDED)
    assert refusal(lambda: record(frame, shot(), seq=1)).code == "frame_conceded"
    Frame.objects.filter(pk=frame.pk).update(status=Frame.Status.IN_PLAY)
    Match.objects.filter(pk=frame.match_id).update(status=Match.Status.CONFIRMED)
    assert refusal(lambda: record(frame, shot(), seq=1)).code == "match_confirmed"


@pytest.mark.usefixtures("append_path")
def test_a_frame_read_before_another_write_loses_the_compare_and_set(frame):
    stale = Frame.objects.select_related("match").get(pk=frame.pk)
    stored = record(frame, shot(("white", 50)), seq=1)

    def again(event_id, payload):
        return events.frame_record_event(
            frame=stale,
            frame_id=frame.pk,
            event_id=event_id,
            expected_seq=1,
            payload=payload,
            kind="event",
            user=None,
            device_id="d1",
            now=NOW,
        )

    # The retry of the stored event gets its answer; another event gets the 409.
    assert again(uuid.UUID(stored.body["event_id"]), shot(("white", 50))).status == 200
    err = refusal(lambda: again(uuid.uuid4(), shot()))
    assert (err.status, err.code, err.extra["last_seq"]) == (409, "seq_conflict", 1)
    assert FrameEvent.objects.filter(frame=frame).count() == 1


def test_both_appends_write_every_column_of_the_event_row():
    """A column added to FrameEvent must be written by both appends (the ORM one would
    take the model's default silently; the statement would not)."""
    import inspect

    columns = {f.column for f in FrameEvent._meta.concrete_fields} - {"id"}
    insert = events._APPEND_SQL.split("INSERT INTO frames_frameevent", 1)[1]
    listed = insert.split("(", 1)[1].split(")", 1)[0]
    assert {c.strip() for c in listed.split(",")} == columns
    portable = inspect.getsource(events._append_portable).split("FrameEvent.objects.create(")[1]
    written = set(re.findall(r"^\s+(\w+)=", portable, re.MULTILINE))
    assert {FrameEvent._meta.get_field(name).column for name in written} == columns


def test_unknown_frame_is_404():
    err = refusal(
        lambda: events.frame_record_event(
            frame_id=987654,
            event_id=uuid.uuid4(),
            expected_seq=1,
            payload={},
            kind="event",
            user=None,
            device_id="",
            now=NOW,
        )
    )
    assert (err.status, err.code) == (404, "not_found")


def test_frame_start_is_idempotent_and_uses_the_frame_players(frame):
    started = events.frame_start(frame_id=frame.pk, now=NOW)
    again = events.frame_start(frame_id=frame.pk, now=NOW + timedelta(hours=1))
    assert started.status == again.status == Frame.Status.IN_PLAY
    assert again.started_at == NOW
    names = {slot.side: [slot.player.name] for slot in frame.players.select_related("player")}
    assert started.setup["players"] == names
    assert started.view["player"] == names["home"][0]


def test_a_shot_costs_the_same_queries_at_shot_5_and_shot_50(frame):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def shots_to(n):
        for seq in range(Frame.objects.get(pk=frame.pk).last_seq + 1, n):
            record(frame, shot() if seq % 3 else shot(("white", 10)), seq=seq)

    shots_to(5)
    with CaptureQueriesContext(connection) as at_5:
        record(frame, shot(), seq=5)
    shots_to(50)
    with CaptureQueriesContext(connection) as at_50:
        record(frame, shot(), seq=50)
    assert [q["sql"].split()[0] for q in at_5.captured_queries] == [
        q["sql"].split()[0] for q in at_50.captured_queries
    ]
    if connection.vendor == "postgresql":
        # SELECT the frame, then one statement (UPDATE + INSERT); the SAVEPOINT and its
        # RELEASE are there only because the test runs inside a transaction.
        assert len(at_5.captured_queries) == 4


def test_a_replay_writes_nothing(frame, django_assert_num_queries):
    event_id = uuid.uuid4()
    record(frame, shot(), seq=1, event_id=event_id)
    with django_assert_num_queries(2) as replayed:  # SELECT the frame, SELECT the event
        record(frame, shot(), seq=1, event_id=event_id)
    sql = " ".join(q["sql"] for q in replayed.captured_queries).upper()
    assert "INSERT" not in sql and "UPDATE" not in sql


def play(frame, n=12):
    for seq in range(1, n + 1):
        if seq % 5 == 0:
            record(frame, seq=seq, kind="undo")
        else:
            record(frame, shot(("white", 20)) if seq % 2 else shot(), seq=seq)


def test_rebuild_finds_and_fixes_a_corrupted_cache(frame, capsys):
    play(frame)
    assert events.frame_rebuild(frame_id=frame.pk).ok
    good = Frame.objects.get(pk=frame.pk)
    bad_state = dict(good.state, scores=[9999, 0])
    Frame.objects.filter(pk=frame.pk).update(state=bad_state, top_seq=1)
    row = FrameEvent.objects.get(frame=frame, seq=3)
    FrameEvent.objects.filter(pk=row.pk).update(view_after={"broken": True})
    report = events.frame_rebuild(frame_id=frame.pk)
    assert not report.ok and not report.fixed
    assert any("seq 3" in p for p in report.problems)
    assert any("state" in p and "top_seq" in p for p in report.problems)

    with pytest.raises(CommandError, match="1 frame"):
        call_command("frames_check")
    call_command("frames_check", "--fix")
    assert "fixed" in capsys.readouterr().out
    call_command("frames_check")  # clean now
    fixed = Frame.objects.get(pk=frame.pk)
    assert (fixed.state, fixed.view, fixed.top_seq) == (good.state, good.view, good.top_seq)
    assert FrameEvent.objects.get(pk=row.pk).view_after == row.view_after
    # and the next shot carries on from the rebuilt state
    assert record(frame, shot(), seq=13).status == 201


def test_rebuild_reports_a_log_the_engine_refuses(frame):
    play(frame, 3)
    FrameEvent.objects.filter(frame=frame, seq=2).update(
        payload={"type": "shot", "pots": [{"ball": "red", "hole": 100}] * 2}
    )
    report = events.frame_rebuild(frame_id=frame.pk, fix=True)
    assert not report.ok and not report.fixed
    assert "seq 2" in report.problems[0]
