"""What the referee pad and the live page read: a frame's position and events, the
frames a user referees, and the live match."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import Q
from django.urls import reverse

from frames import live
from frames.engine import frame_sealed, frame_setup, game_of, initial_view
from frames.models import Frame, FrameEvent, FramePlayer, Friendly, Match, Side
from frames.results import tally
from leagues.models import Fixture, Player, Season, Team, public_name_of
from marker import versions
from marker.permissions import RESULTS_SECRETARY, league_ids_where
from marker.prepared import prepared_cursor

# What a write reads: the frame's position and cached state, and what `frames.enter_event`
# looks at (the referee's account, both teams' captains, a friendly game's owner), the
# match's status; not the (larger) public view, which only a 409 answer needs. Each model
# with the columns read from it, along the join path from the frame.
_WRITE_READ: tuple[tuple[str | None, Any, tuple[str, ...]], ...] = (
    (
        None,
        Frame,
        (
            "id",
            "match_id",
            "friendly_id",
            "game_id",
            "rules_version",
            "referee_id",
            "status",
            "setup",
            "state",
            "last_seq",
            "top_seq",
            "started_at",
        ),
    ),
    ("match", Match, ("id", "status", "fixture_id")),
    # The league, for its results secretaries.
    ("match.fixture", Fixture, ("id", "home_id", "away_id", "season_id")),
    ("match.fixture.season", Season, ("id", "league_id")),
    ("match.fixture.home", Team, ("id", "captain_id", "vice_captain_id")),
    ("match.fixture.away", Team, ("id", "captain_id", "vice_captain_id")),
    ("friendly", Friendly, ("id", "owner_id")),
    ("referee", Player, ("id", "user_id")),
)

OPEN_STATUSES = (Frame.Status.SCHEDULED, Frame.Status.IN_PLAY)
RECENT_EVENTS = 8


class _WriteRead:
    """The write path's one SELECT, written once from the models' metadata: the frame and
    its related rows as `write_read_queryset()` reads them (compiling that queryset cost
    more than running it), optionally with the signed-in user's row."""

    def __init__(self) -> None:
        self._sql: dict[bool, str] = {}
        self._plan: list[tuple[str | None, Any, list[str], list[Any]]] | None = None

    def plan(self, with_user: bool) -> list[tuple[str | None, Any, list[str], list[Any]]]:
        """(path, model, attnames in the model's field order, [(column, converters)])."""
        if self._plan is None:
            plan = []
            for path, model, names in _WRITE_READ:
                wanted = {model._meta.get_field(name).attname for name in names}
                fields = [f for f in model._meta.concrete_fields if f.attname in wanted]
                plan.append((path, model, [f.attname for f in fields], _converters(fields)))
            user_model = get_user_model()
            fields = list(user_model._meta.concrete_fields)
            plan.append(("@user", user_model, [f.attname for f in fields], _converters(fields)))
            self._plan = plan
        return self._plan if with_user else self._plan[:-1]

    def sql(self, with_user: bool) -> str:
        if with_user not in self._sql:
            quote = connection.ops.quote_name
            columns, joins = [], []
            paths = [path or "" for path, _, _, _ in self.plan(False)]
            for n, (path, model, _, converters) in enumerate(self.plan(with_user)):
                alias = f"t{n}"
                columns += [f"{alias}.{quote(column.target.column)}" for column, _ in converters]
                table = quote(model._meta.db_table)
                pk = quote(model._meta.pk.column)
                if path == "@user":
                    joins.append(f"LEFT JOIN {table} {alias} ON {alias}.{pk} = %s")
                elif path is not None:
                    parent_path, _, attr = path.rpartition(".")
                    parent = paths.index(parent_path)
                    field = self.plan(False)[parent][1]._meta.get_field(attr)
                    joins.append(
                        f"LEFT JOIN {table} {alias} ON {alias}.{pk} = t{parent}.{quote(field.column)}"
                    )
            self._sql[with_user] = (
                f"SELECT {', '.join(columns)} FROM {quote(Frame._meta.db_table)} t0 "
                f"{' '.join(joins)} WHERE t0.{quote(Frame._meta.pk.column)} = %s"
            )
        return self._sql[with_user]

    def read(self, frame_id: int, user_id: Any = None, *, with_user: bool = False):
        sql = self.sql(with_user)
        with prepared_cursor() as cursor:  # planned once per connection
            cursor.execute(sql, [user_id, frame_id] if with_user else [frame_id])
            row = cursor.fetchone()
        if row is None:
            return None
        objects: dict[str, Any] = {}
        at = 0
        for path, model, attnames, converters in self.plan(with_user):
            chunk = []
            for value, (column, funcs) in zip(
                row[at : at + len(attnames)], converters, strict=True
            ):
                if value is not None:
                    for func in funcs:
                        value = func(value, column, connection)
                chunk.append(value)
            at += len(attnames)
            obj = None if chunk[0] is None else model.from_db(connection.alias, attnames, chunk)
            objects[path or ""] = obj
            if path is not None and path != "@user":
                parent_path, _, attr = path.rpartition(".")
                parent = objects[parent_path]
                if parent is not None:
                    parent._meta.get_field(attr).set_cached_value(parent, obj)
        return objects[""], objects.get("@user")


def _converters(fields) -> list[tuple[Any, list[Any]]]:
    """Each field's column and the converters the ORM would run on its value (JSON, time
    zones, SQLite's booleans)."""
    out = []
    for field in fields:
        column = field.get_col(field.model._meta.db_table)
        out.append(
            (
                column,
                connection.ops.get_db_converters(column) + column.get_db_converters(connection),
            )
        )
    return out


_write_read = _WriteRead()


def write_read_queryset():
    """The ORM queryset `_WriteRead` stands for, from the same declaration (`_WRITE_READ`):
    `tests/frames/pad/test_write_read.py` checks that the two read the same."""
    related, only = [], []
    for path, model, names in _WRITE_READ:
        prefix = path.replace(".", "__") + "__" if path else ""
        if path:
            related.append(prefix[:-2])
        only += [prefix + model._meta.get_field(name).name for name in names]
    return Frame.objects.select_related(*related).only(*only)


def frame_for_write(frame_id: int) -> Frame | None:
    """The frame row with what `frames.enter_event` looks at (referee, captains): one read
    serves both the permission check and the write."""
    found = _write_read.read(frame_id)
    return None if found is None else found[0]


def frame_and_user_for_write(frame_id: int, user_id: Any) -> tuple[Frame, Any] | None:
    """`frame_for_write` with the signed-in user's row in the same statement (the shot's
    whole read is one query: `marker.session_user`). None when there is no such frame;
    the user is None when there is no such user."""
    return _write_read.read(frame_id, user_id, with_user=True)


def frame_head(frame: Frame) -> dict[str, Any]:
    """The frame's current position: sequence numbers, status and public state."""
    return {
        "frame": frame.pk,
        "status": frame.status,
        "last_seq": frame.last_seq,
        "top_seq": frame.top_seq,
        "view": frame.view if frame.view is not None else initial_view(frame),
    }


def _event_rows(qs) -> list[dict[str, Any]]:
    return [
        {
            "seq": r["seq"],
            "event_id": str(r["event_id"]),
            "kind": r["kind"],
            "payload": r["payload"],
            "top_before": r["top_before"],
            "top_after": r["top_after"],
            "last": (r["view_after"] or {}).get("last"),
            "entered_by": r["entered_by__username"],
            "device_id": r["device_id"],
            "created_at": r["created_at"].isoformat(),
        }
        for r in qs.values(
            "seq",
            "event_id",
            "kind",
            "payload",
            "top_before",
            "top_after",
            "view_after",
            "entered_by__username",
            "device_id",
            "created_at",
        )
    ]


def events_since(frame_id: int, since: int, limit: int | None = None) -> list[dict[str, Any]]:
    """The frame's events after sequence number `since`, in order."""
    qs = FrameEvent.objects.filter(frame_id=frame_id, seq__gt=since).order_by("seq")
    if limit is not None:
        qs = qs[:limit]
    return _event_rows(qs)


def recent_events(frame_id: int, count: int = RECENT_EVENTS) -> list[dict[str, Any]]:
    """The frame's last `count` events, oldest first."""
    rows = _event_rows(FrameEvent.objects.filter(frame_id=frame_id).order_by("-seq")[:count])
    return rows[::-1]


def frame_players(frame: Frame, *, public: bool = False) -> dict[str, list[str]]:
    """side -> its players' names in order (from prefetched `players__player`): the
    names the engine's parties carry, or (`public`) their public names, for the live page."""
    players: dict[str, list[str]] = {Side.HOME: [], Side.AWAY: []}
    for slot in frame.players.all():
        players[slot.side].append(slot.player.public_name if public else slot.player.name)
    return players


def frame_sides(frame: Frame) -> dict[str, dict[str, Any]]:
    """side -> {team, players} for display, players by their public names, as the engine's
    labels name them (none for a friendly game: its parties are the engine's)."""
    if frame.match is None:
        return {}
    fixture = frame.match.fixture
    players = frame_players(frame, public=True)
    return {
        Side.HOME: {"team": fixture.home.name, "players": players[Side.HOME]},
        Side.AWAY: {"team": fixture.away.name, "players": players[Side.AWAY]},
    }


def frame_for_pad(frame_id: int) -> Frame:
    """The frame with its match, teams, referee and players (raises Frame.DoesNotExist)."""
    return (
        Frame.objects.select_related(
            "match__fixture__home", "match__fixture__away", "referee", "friendly"
        )
        .prefetch_related("players__player")
        .get(pk=frame_id)
    )


def frame_state(frame: Frame) -> dict[str, Any]:
    """What the pad shows: the head, the sides, the recent events and the confirmation."""
    return {
        **frame_head(frame),
        "match": frame.match_id,
        "friendly": frame.friendly_id,
        "number": frame.number,
        "kind": frame.kind,
        "game_id": frame.game_id,
        "referee": frame.referee.public_name if frame.referee else None,
        "sides": frame_sides(frame),
        **frame_engine(frame),
        "recent": recent_events(frame.pk),
        "confirmed": frame.status == Frame.Status.COMPLETE,
        "result": {
            "home": frame.home_score,
            "away": frame.away_score,
            "winner": frame.winner,
            "shared": frame.shared,
        },
    }


def frame_engine(frame: Frame) -> dict[str, Any]:
    """What a pad needs to run the engine itself (offline): the frame's setup, the engine's
    own state at the current event (`dump`, null before the first event) and the values
    the event fields may take now (`choices`, for `choices_from` fields)."""
    game = game_of(frame)
    setup = frame_setup(frame) if frame.state is None else dict(frame.setup)
    state = game.initial(setup) if frame.state is None else game.load(frame.state)
    choices = game.choice_sets(state)
    sealed = frame_sealed(frame)
    if sealed:
        # The options the service drew (the private small balls) are shown to no one
        # until the game is over, and the engine's state holds them: the phone gets
        # neither, so its offline engine cannot work shots out (they wait for the server).
        public = {k: v for k, v in setup.items() if k not in sealed}
        return {"setup": public, "dump": None, "choices": choices, "sealed": list(sealed)}
    return {"setup": setup, "dump": frame.state, "choices": choices, "sealed": []}


def frame_etag(frame: Frame, *extra: Any) -> str:
    """A strong ETag for a frame's state: it changes with every event and status change."""
    return (
        f'"f{frame.pk}-{frame.last_seq}-{frame.top_seq}-{frame.status}-{"-".join(map(str, extra))}"'
    )


# The live match's one read: the match, its teams' names, and every frame with its
# referee and players (a row per frame and player). Written once from the models' metadata
# and prepared: compiling the equivalent querysets cost several times running them.
_LIVE_FRAME = (
    "id",
    "number",
    "order",
    "kind",
    "status",
    "view",
    "home_score",
    "away_score",
    "winner",
    "shared",
    "conceded_by",
    "last_seq",
)
_live_sql: str | None = None


def _live_read_sql() -> str:
    global _live_sql
    if _live_sql is None:
        q = connection.ops.quote_name

        def col(model: Any, name: str) -> str:
            return q(model._meta.get_field(name).column)

        def table(model: Any) -> str:
            return q(model._meta.db_table)

        frame_cols = ", ".join(f"fr.{col(Frame, name)}" for name in _LIVE_FRAME)
        _live_sql = (
            f"SELECT m.{col(Match, 'id')}, m.{col(Match, 'status')}, "
            f"m.{col(Match, 'home_score')}, m.{col(Match, 'away_score')}, "
            f"h.{col(Team, 'name')}, a.{col(Team, 'name')}, {frame_cols}, "
            f"ref.{col(Player, 'name')}, ref.{col(Player, 'private_name')}, "
            f"fp.{col(FramePlayer, 'side')}, p.{col(Player, 'name')}, "
            f"p.{col(Player, 'private_name')} "
            f"FROM {table(Match)} m "
            f"JOIN {table(Fixture)} fx ON fx.{col(Fixture, 'id')} = m.{col(Match, 'fixture')} "
            f"JOIN {table(Team)} h ON h.{col(Team, 'id')} = fx.{col(Fixture, 'home')} "
            f"JOIN {table(Team)} a ON a.{col(Team, 'id')} = fx.{col(Fixture, 'away')} "
            f"LEFT JOIN {table(Frame)} fr ON fr.{col(Frame, 'match')} = m.{col(Match, 'id')} "
            f"LEFT JOIN {table(Player)} ref ON ref.{col(Player, 'id')} = fr.{col(Frame, 'referee')} "
            f"LEFT JOIN {table(FramePlayer)} fp ON fp.{col(FramePlayer, 'frame')} = fr.{col(Frame, 'id')} "
            f"LEFT JOIN {table(Player)} p ON p.{col(Player, 'id')} = fp.{col(FramePlayer, 'player')} "
            f"WHERE m.{col(Match, 'id')} = %s "
            f"ORDER BY fr.{col(Frame, 'order')}, fr.{col(Frame, 'id')}, "
            f"fp.{col(FramePlayer, 'side')}, fp.{col(FramePlayer, 'position')}, "
            f"fp.{col(FramePlayer, 'id')}"
        )
    return _live_sql


def _json_value(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def match_live(match_id: int) -> dict[str, Any]:
    """Every frame of a match with its players, scores and break (raises Match.DoesNotExist).
    One prepared statement."""
    if not 0 < match_id < 2**63:
        raise Match.DoesNotExist(f"No match {match_id}.")
    with prepared_cursor() as cursor:
        cursor.execute(_live_read_sql(), [match_id])
        rows = cursor.fetchall()
    if not rows:
        raise Match.DoesNotExist(f"No match {match_id}.")
    head = rows[0]
    frames: list[Frame] = []
    players: dict[int, dict[str, list[str]]] = {}
    referees: dict[int, str | None] = {}
    width = len(_LIVE_FRAME)
    for row in rows:
        values = row[6 : 6 + width]
        frame_id = values[0]
        if frame_id is None:
            continue  # a match without frames yet
        if frame_id not in players:
            frame = Frame(**dict(zip(_LIVE_FRAME, values, strict=True)))
            frame.view = _json_value(frame.view)
            frame.shared = bool(frame.shared)  # SQLite answers 0 or 1
            frames.append(frame)
            players[frame_id] = {Side.HOME: [], Side.AWAY: []}
            ref_name, ref_private = row[6 + width], row[7 + width]
            referees[frame_id] = (
                None if ref_name is None else public_name_of(ref_name, bool(ref_private))
            )
        side, name, private = row[8 + width : 11 + width]
        if side is not None:
            players[frame_id][side].append(public_name_of(name, bool(private)))
    pad = reverse("frame-pad", args=[0])
    prefix, _, suffix = pad.rpartition("/0/")
    out = []
    for frame in frames:
        view = frame.view or {}
        scores = view.get("scores") or {}
        out.append(
            {
                "id": frame.pk,
                "number": frame.number,
                "order": frame.order,
                "kind": frame.kind,
                "status": frame.status,
                "players": players[frame.pk],
                "referee": referees[frame.pk],
                "scores": {
                    Side.HOME.value: scores.get(Side.HOME, frame.home_score),
                    Side.AWAY.value: scores.get(Side.AWAY, frame.away_score),
                },
                "break": view.get("break", 0),
                "at_table": view.get("at_table"),
                "player": view.get("player"),
                "next": view.get("next"),
                "over": bool(view.get("over")) or frame.status == Frame.Status.COMPLETE,
                "winner": frame.winner or view.get("winner") or "",
                "shared": frame.shared or bool(view.get("shared")),
                "last_seq": frame.last_seq,
                "pad": f"{prefix}/{frame.pk}/{suffix}",
            }
        )
    status = head[1]
    return {
        "match": head[0],
        "status": status,
        "status_label": str(Match.Status(status).label),
        "frames_display": tally(frames).frames_display,
        "home": {"team": head[4], "score": head[2]},
        "away": {"team": head[5], "score": head[3]},
        "frames": out,
    }


def live_tokens(*keys: str) -> str | None:
    """The versions of what a poll shows ("token.token"), or None when the cache cannot be
    trusted (then the poll builds its body and hashes it: `body_etag`)."""
    tokens = versions.read(live.EVERYTHING, *keys)
    return None if tokens is None else ".".join(tokens)


def match_live_etag(match_id: int, tag: str) -> str:
    return f'"m{match_id}.{tag}"'


def match_live_json(match_id: int, tag: str) -> tuple[bytes, bool]:
    """The live match as JSON for versions `tag`: built once per change and kept in the
    cache under it, shared by every spectator; (body, built here?). Raises
    Match.DoesNotExist."""
    return versions.build_once(
        f"live:mb:{match_id}:{tag}",
        lambda: json.dumps(
            match_live(match_id), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")
        ).encode(),
    )


def frame_state_etag(frame_id: int, tag: str, who: str) -> str:
    return f'"f{frame_id}.{tag}.{who}"'


def frame_state_shared(frame_id: int, tag: str) -> tuple[dict[str, Any], bool]:
    """What every viewer of the pad sees (all but `can_enter`) for versions `tag`, built
    once per change and kept; raises Frame.DoesNotExist."""
    return versions.build_once(
        f"live:fb:{frame_id}:{tag}", lambda: frame_state(frame_for_pad(frame_id))
    )


def body_etag(body: Any) -> str:
    """A strong ETag for a JSON body."""
    digest = hashlib.blake2b(
        json.dumps(body, sort_keys=True, default=str).encode(), digest_size=12
    ).hexdigest()
    return f'"{digest}"'


def frames_for_user(user: Any) -> list[Frame]:
    """Open frames this user may score: as referee, as a captain of either team, or all
    frames of matches in play in the leagues where the user is a results secretary (every
    league for the site administrator)."""
    if not getattr(user, "is_authenticated", False):
        return []
    qs = Frame.objects.filter(status__in=OPEN_STATUSES).exclude(
        match__status__in=[Match.Status.CONFIRMED, Match.Status.SETUP]
    )
    officer_of = league_ids_where(user, RESULTS_SECRETARY)
    if officer_of is not None:
        mine = (
            Q(referee__user=user)
            | Q(match__fixture__home__captain=user)
            | Q(match__fixture__home__vice_captain=user)
            | Q(match__fixture__away__captain=user)
            | Q(match__fixture__away__vice_captain=user)
        )
        if officer_of:
            mine |= Q(match__fixture__season__league_id__in=officer_of)
        qs = qs.filter(mine)
    return list(
        qs.select_related("match__fixture__home", "match__fixture__away", "referee").order_by(
            "-match__fixture__date", "match_id", "order"
        )[:40]
    )
