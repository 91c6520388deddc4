"""A frame's shot log: record an event, confirm the result, rebuild the cache; and the
selectors the referee pad and the live page read.

The write path (`frame_record_event`): the frame's row is read, the rules engine applies
the event to the state cached on it, then ONE statement both advances the frame's sequence
by a conditional UPDATE (`WHERE last_seq = n - 1`) and INSERTs the event row (a
data-modifying CTE: both happen or neither). The database holds the guarantees:
`FrameEvent.event_id` is unique (a retried request can never store a second row) and
`(frame, seq)` is unique (a second line behind the conditional update). Answers:

- 201: appended; the body is the new state.
- 200: this event id is already stored with the same frame, kind and payload; the body is
  the stored answer (`replayed: true`) and nothing is written.
- 422 `event_id_reused`: the id is stored with another frame, kind or payload.
- 409 `seq_conflict`: the sequence number is taken (or not reachable yet); the body holds
  the current state and the events the device is missing.
- 400: the engine's refusal (`{"error": code, "message", "seq", "index"}`), or the frame
  is closed; nothing is stored.

Undo is an event (`kind="undo"`). Each row records `top_before` (the seq whose state was
current before it) and `top_after` (the seq whose state is current after it; 0 is the
initial state). An undo makes `top_before` of the current top event current again, so
repeated undos walk back one event at a time, and each costs two indexed reads.

A frame's result waits for the referee: when the engine says the frame is over the pad
shows the result, and `frame_confirm` (at the sequence number the referee saw) marks the
frame complete, writes its scores and updates the match. Until then an undo or an
`invoke_endgame` simply carries on.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import DateTimeField, Value
from django.db.models.functions import Coalesce

from frames.engine import frame_outcome, frame_parties, frame_setup, game_of, side_result
from frames.live import frame_written
from frames.models import Frame, FrameEvent, Match, MatchLog
from frames.results import frame_result_recorded, match_update_result
from marker.errors import DomainError
from marker.prepared import prepared_cursor
from rules.registry import UnknownGame
from rules.vocabulary import RuleError

from .selectors import (
    events_since,
    frame_head,
)
from .started import frame_started_notify

SCHEMA_VERSION = 1


# The columns of a stored event that make up its answer (one SELECT, no join but the user).
_ANSWER_FIELDS = (
    "frame_id",
    "seq",
    "event_id",
    "kind",
    "payload",
    "top_before",
    "top_after",
    "view_after",
    "device_id",
    "created_at",
    "entered_by__username",
)


@dataclass(frozen=True)
class EventAnswer:
    """What the API sends back: an HTTP status (201 or 200) and a JSON body."""

    status: int
    body: dict[str, Any]


@transaction.atomic
def frame_start(*, frame_id: int, now: datetime) -> Frame:
    """Put a scheduled frame in play: fix its setup and store the engine's initial state.
    Safe to call twice (a frame already started is returned unchanged). The first event
    does the same on its own, so the pad needs no separate start.
    """
    frame = Frame.objects.select_for_update().get(pk=frame_id)
    if frame.state is not None or frame.status != Frame.Status.SCHEDULED:
        return frame
    game = game_of(frame)
    setup = frame_setup(frame)
    try:
        state = game.initial(setup)
    except RuleError as err:
        raise DomainError(err.code, err.message) from None
    frame.setup = setup
    frame.state = game.dump(state)
    frame.view = game.view(state)
    frame.status = Frame.Status.IN_PLAY
    frame.started_at = now
    frame.save(update_fields=["setup", "state", "view", "status", "started_at"])
    frame_started_notify(frame=frame, match=frame.match, now=now)
    return frame


def frame_record_event(
    *,
    frame_id: int,
    event_id: uuid.UUID | str,
    expected_seq: int,
    payload: Mapping[str, Any],
    kind: str,
    user: Any,
    device_id: str,
    now: datetime,
    frame: Frame | None = None,
) -> EventAnswer:
    """Append one event (or an undo) to a frame's log; see the module docstring for the
    answers. Raises DomainError for 400/404/409/422.

    `frame` is the frame row when the caller has just read it (the API reads it once for
    the permission check and the engine). Reading it outside the write is safe: the write
    only happens if the frame's `last_seq` is still the one the state was read at.
    """
    event_id = uuid.UUID(str(event_id))
    payload = dict(payload)
    if kind not in FrameEvent.Kind.values:
        raise DomainError("bad_kind", f"kind must be 'event' or 'undo', not {kind!r}")
    if frame is None:
        frame = _frame_row(frame_id)
    try:
        setup, state, view, top_after = _next_state(frame, kind, payload, expected_seq)
    except (DomainError, _SeqTaken) as refusal:
        # Refused as new; a stored event with this id (a late retry) answers instead.
        answer = _prior_answer(frame.pk, event_id, kind, payload)
        if answer is not None:
            return answer
        if isinstance(refusal, _SeqTaken):
            raise _conflict(frame, expected_seq) from None
        raise
    starting = frame.status == Frame.Status.SCHEDULED
    row = {
        "frame_id": frame.pk,
        "seq": expected_seq,
        "event_id": event_id,
        "kind": kind,
        "payload": payload,
        "top_before": frame.top_seq,
        "top_after": top_after,
        "view_after": view,
        "device_id": device_id[:64],
        "created_at": now,
        "entered_by__username": user.get_username() if _signed_in(user) else None,
    }
    try:
        with transaction.atomic() if starting or connection.in_atomic_block else nullcontext():
            appended = _append(
                frame,
                row,
                state=state,
                setup=setup if frame.state is None else None,
                user_id=user.pk if _signed_in(user) else None,
                starting=starting,
            )
            if appended and starting and frame.match is not None:
                match_update_result(match=frame.match)  # the first event puts the match in play
                frame_started_notify(frame=frame, match=frame.match, now=now)
    except IntegrityError:
        # A unique constraint refused the row and the statement rolled back as a whole:
        # this id is stored (a concurrent retry got there first, or the id was reused),
        # or `(frame, seq)` is taken although the frame's counter said otherwise.
        appended = False
    if not appended:
        # Another request moved the frame on after we read it. A concurrent retry of this
        # very event has committed by now (our UPDATE waited for its row lock).
        answer = _prior_answer(frame.pk, event_id, kind, payload)
        if answer is not None:
            return answer
        fresh = _frame_row(frame.pk)
        raise _closed(fresh) or _conflict(fresh, expected_seq)
    return EventAnswer(201, event_answer(row, replayed=False))


def _signed_in(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


# The compare-and-set and the append in one statement: the frame's sequence moves from
# n - 1 to n and the event row is inserted, or neither happens (no row when the frame
# moved on; a unique violation on event_id or (frame, seq) undoes the UPDATE too). One
# statement needs no BEGIN/COMMIT round trips in autocommit.
_APPEND_SQL = """
WITH moved AS (
    UPDATE frames_frame
       SET last_seq = %(seq)s, top_seq = %(top_after)s, state = %(state)s::jsonb,
           view = %(view)s::jsonb{start}
     WHERE id = %(frame_id)s AND last_seq = %(seq)s - 1 AND status IN ('scheduled', 'in_play')
 RETURNING id
)
INSERT INTO frames_frameevent
       (frame_id, seq, event_id, kind, payload, schema_version, top_before, top_after,
        state_after, view_after, entered_by_id, device_id, created_at)
SELECT id, %(seq)s, %(event_id)s, %(kind)s, %(payload)s::jsonb, %(schema)s, %(top_before)s,
       %(top_after)s, %(state)s::jsonb, %(view)s::jsonb, %(user_id)s, %(device_id)s,
       %(created_at)s
  FROM moved
RETURNING id
"""


_START_SQL = ", status = 'in_play', started_at = COALESCE(started_at, %(created_at)s)"


_SETUP_SQL = ", setup = %(setup)s::jsonb"


def _append(
    frame: Frame,
    row: dict[str, Any],
    *,
    state: Any,
    setup: dict[str, Any] | None,
    user_id: int | None,
    starting: bool,
) -> bool:
    """Advance the frame's sequence and insert the event, atomically; False if the frame
    is no longer at `seq - 1` (or no longer open)."""
    if connection.vendor != "postgresql":
        return _append_portable(
            frame, row, state=state, setup=setup, user_id=user_id, starting=starting
        )
    start = (_START_SQL if starting else "") + (_SETUP_SQL if setup is not None else "")
    params = {
        **row,
        "state": json.dumps(state),
        "view": json.dumps(row["view_after"]),
        "payload": json.dumps(row["payload"]),
        "setup": json.dumps(setup),
        "schema": SCHEMA_VERSION,
        "user_id": user_id,
    }
    with prepared_cursor() as cursor:  # planned once per connection (and variant)
        cursor.execute(_APPEND_SQL.format(start=start), params)
        appended = cursor.fetchone() is not None
    if appended:
        frame_written(frame.pk, frame.match_id)  # SQL the ORM does not see: the polls' versions
    return appended


def _append_portable(
    frame: Frame,
    row: dict[str, Any],
    *,
    state: Any,
    setup: dict[str, Any] | None,
    user_id: int | None,
    starting: bool,
) -> bool:
    """The same compare-and-set and append through the ORM, for databases other than
    PostgreSQL (SQLite, the embedded default of `make run`): a conditional UPDATE and the
    INSERT in one transaction; the unique constraints still refuse a second row."""
    fields: dict[str, Any] = {
        "last_seq": row["seq"],
        "top_seq": row["top_after"],
        "state": state,
        "view": row["view_after"],
    }
    if starting:
        fields["status"] = Frame.Status.IN_PLAY
        fields["started_at"] = Coalesce(
            "started_at", Value(row["created_at"], output_field=DateTimeField())
        )
    if setup is not None:
        fields["setup"] = setup
    with transaction.atomic():
        moved = Frame.objects.filter(
            pk=frame.pk,
            last_seq=row["seq"] - 1,
            status__in=(Frame.Status.SCHEDULED, Frame.Status.IN_PLAY),
        ).update(**fields)
        if not moved:
            return False
        FrameEvent.objects.create(
            frame_id=frame.pk,
            seq=row["seq"],
            event_id=row["event_id"],
            kind=row["kind"],
            payload=row["payload"],
            schema_version=SCHEMA_VERSION,
            top_before=row["top_before"],
            top_after=row["top_after"],
            state_after=state,
            view_after=row["view_after"],
            entered_by_id=user_id,
            device_id=row["device_id"],
            created_at=row["created_at"],
        )
    return True


def _next_state(
    frame: Frame, kind: str, payload: dict[str, Any], expected_seq: int
) -> tuple[dict[str, Any], Any, Any, int]:
    """(setup, state, view, top_after) once the event applies; DomainError if refused,
    _SeqTaken when the sequence number does not follow the frame's."""
    if expected_seq != frame.last_seq + 1:
        raise _SeqTaken
    closed = _closed(frame)
    if closed is not None:
        raise closed
    where = {"seq": expected_seq, "index": expected_seq - 1}
    game = game_of(frame)
    setup = frame_setup(frame) if frame.state is None else frame.setup
    if kind == FrameEvent.Kind.UNDO:
        if payload:
            raise DomainError("bad_payload", "an undo carries no payload", extra=where)
        if frame.top_seq == 0:
            raise DomainError("nothing_to_undo", "there is no event to undo", extra=where)
        top_after = _undo_target(frame.pk, frame.top_seq)
        state, view = _state_at(frame, game, setup, top_after)
        return setup, state, view, top_after
    try:
        before = game.load(frame.state) if frame.state is not None else game.initial(setup)
        after = game.apply(before, payload)
    except RuleError as err:
        raise DomainError(err.code, err.message, extra=where) from None
    return setup, game.dump(after), game.view(after), expected_seq


class _SeqTaken(Exception):
    """The expected seq is not the frame's next one (the 409 body is built only if needed)."""


def _frame_row(frame_id: int) -> Frame:
    try:
        return Frame.objects.select_related("match").get(pk=frame_id)
    except Frame.DoesNotExist:
        raise DomainError("not_found", "no such frame", status=404) from None


def _closed(frame: Frame) -> DomainError | None:
    if frame.match is not None and frame.match.status == Match.Status.CONFIRMED:
        return DomainError("match_confirmed", "the match result is confirmed; the frame is closed")
    if frame.status == Frame.Status.COMPLETE:
        return DomainError("frame_complete", "the referee confirmed this frame's result")
    if frame.status == Frame.Status.CONCEDED:
        return DomainError("frame_conceded", "this frame was conceded")
    return None


def _undo_target(frame_id: int, top: int) -> int:
    """The seq whose state an undo makes current: `top_before` of the current top event."""
    return (
        FrameEvent.objects.filter(frame_id=frame_id, seq=top)
        .values_list("top_before", flat=True)
        .get()
    )


def _state_at(frame: Frame, game: Any, setup: dict[str, Any], seq: int) -> tuple[Any, Any]:
    """(state, view) after event `seq` (0: the initial state), from the stored caches."""
    if seq == 0:
        state = game.initial(setup)
        return game.dump(state), game.view(state)
    return (
        FrameEvent.objects.filter(frame_id=frame.pk, seq=seq)
        .values_list("state_after", "view_after")
        .get()
    )


def _prior_answer(
    frame_id: int, event_id: uuid.UUID, kind: str, payload: dict[str, Any]
) -> EventAnswer | None:
    """The stored answer for this event id (200), None if it is not stored, or raise 422
    when it is stored with another frame, kind or payload."""
    row = FrameEvent.objects.filter(event_id=event_id).values(*_ANSWER_FIELDS).first()
    if row is None:
        return None
    if row["frame_id"] != frame_id or row["kind"] != kind or row["payload"] != payload:
        raise DomainError(
            "event_id_reused",
            "this event id is already stored with a different frame or payload",
            status=422,
            extra={"frame": row["frame_id"], "seq": row["seq"]},
        )
    return EventAnswer(200, event_answer(row, replayed=True))


def _conflict(frame: Frame, expected_seq: int) -> DomainError:
    """409 with what the device needs to catch up: the current state and the events
    from its expected seq on."""
    taken = expected_seq <= frame.last_seq
    message = (
        f"sequence number {expected_seq} is already taken (the frame is at {frame.last_seq})"
        if taken
        else f"sequence number {expected_seq} cannot follow {frame.last_seq}"
    )
    since = max(0, min(expected_seq - 1, frame.last_seq))
    return DomainError(
        "seq_conflict",
        message,
        status=409,
        extra={
            "expected_seq": expected_seq,
            **frame_head(frame),
            "events": events_since(frame.pk, since),
        },
    )


def event_answer(row: Mapping[str, Any], *, replayed: bool) -> dict[str, Any]:
    """The API body for a stored event (201 when new, 200 with `replayed` when retried)."""
    return {
        "frame": row["frame_id"],
        "seq": row["seq"],
        "event_id": str(row["event_id"]),
        "kind": row["kind"],
        "payload": row["payload"],
        "top_seq": row["top_after"],
        "view": row["view_after"],
        "entered_by": row["entered_by__username"],
        "device_id": row["device_id"],
        "created_at": row["created_at"].isoformat(),
        "replayed": replayed,
    }


@transaction.atomic
def frame_confirm(*, frame_id: int, seq: int, user: Any, now: datetime) -> Frame:
    """The referee confirms the result the pad shows at sequence number `seq`: the frame
    becomes complete with the engine's scores, and the match result is brought up to
    date. Confirming the same result again is a no-op that answers the same (also when
    the two confirmations race); a result that moved on since the pad showed it is a 409
    (`seq_conflict`); a frame that is not over is a 400.
    """
    frame = _frame_row(frame_id)
    if frame.status == Frame.Status.COMPLETE and frame.last_seq == seq:
        return frame
    closed = _closed(frame)
    if closed is not None:
        raise closed
    if seq != frame.last_seq:
        raise _conflict(frame, seq + 1)
    outcome = frame_outcome(frame)
    if not outcome.over:
        raise DomainError("not_over", "the frame is not over yet")
    league = frame.match_id is not None
    # A league frame's result by side; a friendly game's stays in the engine's view.
    result = side_result(outcome, frame_parties(frame)) if league else None
    home, away = (result.home, result.away) if result else (None, None)
    winner = result.winner if result else ""
    won = Frame.objects.filter(pk=frame.pk, last_seq=seq, status=Frame.Status.IN_PLAY).update(
        status=Frame.Status.COMPLETE,
        home_score=home,
        away_score=away,
        winner=winner,
        shared=outcome.shared,
        result_source="pad",
        completed_at=now,
    )
    if not won:
        fresh = _frame_row(frame_id)
        if fresh.status == Frame.Status.COMPLETE and fresh.last_seq == seq:
            # A concurrent confirmation of this very result won the race (a retry, or the
            # pad's second tap): the frame is complete as asked, so this one succeeds too.
            return fresh
        raise _closed(fresh) or _conflict(fresh, seq + 1)
    if frame.match is None:
        frame.refresh_from_db()
        return frame
    MatchLog.add(
        frame.match,
        user,
        "frame_confirmed",
        now,
        **{
            "frame": frame.pk,
            "number": frame.number,
            "seq": seq,
            "home": home,
            "away": away,
            "winner": winner,
        },
    )
    frame.refresh_from_db()
    assert frame.match is not None  # a league frame
    match_update_result(match=frame.match)
    frame_result_recorded(frame.pk)  # the players' statistics, after commit
    return frame


@dataclass
class RebuildReport:
    """What `frame_rebuild` found: the frame, its problems, and whether it fixed them."""

    frame_id: int
    events: int
    problems: list[str] = field(default_factory=list)
    fixed: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def _as_stored(value: Any) -> Any:
    """The engine's answer as a JSON column gives it back (tuples as lists, keys as
    strings), so that a cache is compared with what was stored, not with Python's form."""
    return json.loads(json.dumps(value))


def frame_rebuild(*, frame_id: int, fix: bool = False) -> RebuildReport:
    """Replay a frame's log through the engine and compare every cache with the result:
    each event's `top_before`/`top_after`/`state_after`/`view_after`, and the frame's
    `last_seq`, `top_seq`, `state` and `view`. With `fix`, rewrite the caches that differ
    (the log itself — seq, id, kind, payload — is never changed).
    """
    with transaction.atomic():
        frame = Frame.objects.select_for_update().get(pk=frame_id)
        rows = list(
            FrameEvent.objects.filter(frame=frame)
            .order_by("seq")
            .values(
                "id",
                "seq",
                "kind",
                "payload",
                "top_before",
                "top_after",
                "state_after",
                "view_after",
            )
        )
        report = RebuildReport(frame.pk, len(rows))
        if not rows and frame.state is None and frame.last_seq == 0:
            return report
        try:  # the frame's own rules version (Frame.rules_version), for ever
            game = game_of(frame)
        except UnknownGame as err:
            report.problems.append(f"the engine cannot replay it: {err}")
            return report
        setup = frame_setup(frame) if frame.state is None else frame.setup
        try:
            states: dict[int, Any] = {0: game.initial(setup)}
        except RuleError as err:
            report.problems.append(f"setup refused: {err}")
            return report
        top = 0
        top_before_of: dict[int, int] = {}  # seq of a game event -> the top it replaced
        fixes: list[tuple[int, dict[str, Any]]] = []
        for expected, row in enumerate(rows, start=1):
            seq = row["seq"]
            if seq != expected:
                report.problems.append(f"gap in the log: seq {seq} where {expected} was due")
                return report
            top_before = top
            if row["kind"] == FrameEvent.Kind.UNDO:
                if top == 0:
                    report.problems.append(f"seq {seq}: undo with nothing to undo")
                    return report
                top = top_before_of[top]
            else:
                try:
                    states[seq] = game.apply(states[top], row["payload"])
                except RuleError as err:
                    report.problems.append(f"seq {seq}: the engine refuses it: {err}")
                    return report
                top_before_of[seq] = top
                top = seq
            state, view = _as_stored(game.dump(states[top])), _as_stored(game.view(states[top]))
            wrong = {
                name: value
                for name, value in (
                    ("top_before", top_before),
                    ("top_after", top),
                    ("state_after", state),
                    ("view_after", view),
                )
                if row[name] != value  # type: ignore[literal-required]  # names from the tuple above
            }
            if wrong:
                report.problems.append(f"seq {seq}: cached {', '.join(sorted(wrong))} differ")
                fixes.append((row["id"], wrong))
        final = states[top]
        expected_frame = {
            "last_seq": len(rows),
            "top_seq": top,
            "state": _as_stored(game.dump(final)),
            "view": _as_stored(game.view(final)),
        }
        frame_wrong = {
            name: value for name, value in expected_frame.items() if getattr(frame, name) != value
        }
        if frame_wrong:
            report.problems.append(f"frame cache differs: {', '.join(sorted(frame_wrong))}")
        if fix and report.problems:
            for pk, values in fixes:
                FrameEvent.objects.filter(pk=pk).update(**values)
            if frame_wrong:
                Frame.objects.filter(pk=frame.pk).update(**frame_wrong)
            report.fixed = True
        return report
