"""Ratings: one rating per person per game, across every league of the instance, from the
confirmed league frames in the order they were played (cup frames are not rated).

**The model.** OpenSkill's Weng-Lin **Plackett-Luce** model (`openskill.models.PlackettLuce`,
its defaults: μ 25, σ 25/3, β 25/6, τ 25/300). It is OpenSkill's recommended model, rates
teams of any size (a doubles frame is two teams of two: each partner moves by their share,
σᵢ² over the team's Σσ²) and takes scores through OpenSkill's `margin` (`MARGIN` points in
a hundred of the frame's points). What that does, exactly (docs/ratings.md): for a win by
d > `MARGIN` points, OpenSkill scales the gap between the sides' μ by 3 − 2·ln(1 + d/MARGIN)
before it rates the frame. Between level sides it changes nothing; beyond d = MARGIN·(e − 1)
(≈ 34 points) the favourite's wide win moves the ratings further and the underdog's less
than a narrow win would; between MARGIN and that, slightly the other way. Scores are given
as each side's share of the frame's points, so one margin suits every game; where a game's
winner is not the side with more points (or the scores are missing) the frame is rated by
its result alone (`ranks`). A shared frame is a draw. The conservative rating shown is
OpenSkill's ordinal, μ − 3σ.

**The order.** Frames of confirmed matches, complete (a conceded frame was not played), by
the day played (the fixture's date, else the day the result was confirmed), then fixture,
then the frame's order of play: `seq` numbers them per game. Nothing else enters, so a
recompute from scratch gives the same numbers, and a recompute from a day on starts from
each player's last `RatingChange` before that day and gives what a recompute from scratch
would.

**Runs.** `ratings_request` records a `RatingRun` (queued; a request while one is queued
widens it), the task claims it with a conditional UPDATE and runs `ratings_recompute` in
one transaction; `ratings_sweep` (beat) re-queues runs whose worker vanished and asks for a
run when a result changed under the ratings (a frame rated but corrected, erased, or not
rated yet).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from statistics import NormalDist
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import (
    DateField,
    Exists,
    F,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from frames.models import (
    Frame,
    FramePlayer,
    Match,
    Rating,
    RatingChange,
    RatingRun,
    Side,
)
from leagues.models import Fixture
from marker.errors import DomainError

from .notices import rating_moved_notify

#: OpenSkill's `margin`, in points in a hundred of the frame's points: wins by more than
#: this rescale the sides' skill gap (the module's docstring says how).
MARGIN = 20.0
#: A run whose heartbeat is older than this is taken to be dead (the sweeper re-queues it).
STALE = timedelta(minutes=10)
#: A queued run no worker has claimed after this long is queued again by the sweeper.
UNCLAIMED = timedelta(minutes=2)
#: How many rated frames make a rating count, where no league says otherwise.
DEFAULT_PROVISIONAL = 10


def model() -> PlackettLuce:
    """The rating model (a new one: `rate` may change its settings)."""
    return PlackettLuce(margin=MARGIN)


# ------------------------------------------------------------------------- the frames


def counted_frames() -> QuerySet[Frame]:
    """League frames whose result counts: complete frames of confirmed league matches.
    Cup frames are not rated (nor in head to head), whatever the cup: a team Cup or Plate
    tie's match night like a Singles or Pairs tie's frames on the pad (docs/ratings.md)."""
    return Frame.objects.filter(
        match__status=Match.Status.CONFIRMED,
        match__fixture__kind=Fixture.Kind.LEAGUE,
        match__fixture__result_confirmed_at__isnull=False,
        status=Frame.Status.COMPLETE,
    )


def played_on_expr() -> Coalesce:
    """The day a frame counts as played: its fixture's date, else the day confirmed."""
    return Coalesce(
        F("match__fixture__date"),
        TruncDate("match__confirmed_at"),
        output_field=DateField(),
    )


@dataclass
class RatedFrame:
    frame_id: int
    fixture_id: int
    league_id: int
    played_on: date
    order: int
    winner: str
    shared: bool
    home_score: int | None
    away_score: int | None
    home: list[int] = field(default_factory=list)
    away: list[int] = field(default_factory=list)

    @property
    def key(self) -> tuple:
        return (self.played_on, self.fixture_id, self.order, self.frame_id)


def rated_frames(game_id: str, since: date | None = None) -> list[RatedFrame]:
    """The game's counted frames (from `since` on), in the order played, with their
    players by side (two queries). Frames without a player on both sides are left out."""
    frames = counted_frames().filter(game_id=game_id).annotate(played=played_on_expr())
    if since is not None:
        frames = frames.filter(played__gte=since)
    by_id: dict[int, RatedFrame] = {}
    for row in frames.values_list(
        "pk",
        "match__fixture_id",
        "match__fixture__season__league_id",
        "played",
        "order",
        "winner",
        "shared",
        "home_score",
        "away_score",
    ):
        by_id[row[0]] = RatedFrame(*row)
    players = FramePlayer.objects.filter(
        frame__game_id=game_id,
        frame__status=Frame.Status.COMPLETE,
        frame__match__status=Match.Status.CONFIRMED,
    )
    if since is not None:
        players = players.filter(frame__pk__in=list(by_id))
    rows = sorted(players.values_list("frame_id", "side", "position", "player_id"))
    for frame_id, side, _position, player_id in rows:
        rated = by_id.get(frame_id)
        if rated is not None:
            (rated.home if side == Side.HOME else rated.away).append(player_id)
    return sorted((f for f in by_id.values() if f.home and f.away), key=lambda f: f.key)


#: Frames a recompute reads, rates and writes at a time: its memory is a chunk's and the
#: players' states, not the game's history.
CHUNK = 5000


def rated_frames_in_chunks(
    game_id: str, since: date | None = None, *, chunk: int | None = None
) -> Iterator[list[RatedFrame]]:
    """`rated_frames`, the same frames in the same order, a chunk at a time: the frames
    read in order from a server-side cursor, each chunk's players in one query."""
    size = chunk or CHUNK
    frames = counted_frames().filter(game_id=game_id).annotate(played=played_on_expr())
    if since is not None:
        frames = frames.filter(played__gte=since)
    rows = frames.order_by("played", "match__fixture_id", "order", "pk").values_list(
        "pk",
        "match__fixture_id",
        "match__fixture__season__league_id",
        "played",
        "order",
        "winner",
        "shared",
        "home_score",
        "away_score",
    )
    batch: list[RatedFrame] = []

    def with_players(batch: list[RatedFrame]) -> list[RatedFrame]:
        by_id = {f.frame_id: f for f in batch}
        players = FramePlayer.objects.filter(frame_id__in=list(by_id)).order_by(
            "frame_id", "side", "position", "player_id"
        )
        for frame_id, side, player_id in players.values_list("frame_id", "side", "player_id"):
            rated = by_id[frame_id]
            (rated.home if side == Side.HOME else rated.away).append(player_id)
        return [f for f in batch if f.home and f.away]

    for row in rows.iterator(chunk_size=size):
        batch.append(RatedFrame(*row))
        if len(batch) == size:
            yield with_players(batch)
            batch = []
    if batch:
        yield with_players(batch)


# ------------------------------------------------------------------------- the replay


@dataclass
class State:
    mu: float
    sigma: float
    frames: int = 0
    last_played_on: date | None = None
    #: OpenSkill's rating object for (mu, sigma), kept between frames (making one costs
    #: a UUID).
    rating: PlackettLuceRating | None = None

    def openskill(self) -> PlackettLuceRating:
        if self.rating is None or self.rating.mu != self.mu or self.rating.sigma != self.sigma:
            self.rating = PlackettLuceRating(self.mu, self.sigma)
        return self.rating


_NORMAL = NormalDist()


def win_chance(
    rater: PlackettLuce, home: list[PlackettLuceRating], away: list[PlackettLuceRating]
) -> float:
    """The home side's chance of winning: OpenSkill's `predict_win` for two teams
    (Φ((μa − μb) / √(2β² + σa² + σb²)), team μ and σ² the sums of their players'),
    without its argument checks (a test holds it to `predict_win`)."""
    mu = sum(r.mu for r in home) - sum(r.mu for r in away)
    var = sum(r.sigma * r.sigma for r in home) + sum(r.sigma * r.sigma for r in away)
    return _NORMAL.cdf(mu / math.sqrt(2 * rater.beta**2 + var))


def _scores(frame: RatedFrame) -> list[float] | None:
    """The sides' shares of the frame's points (0–100), when they agree with the result."""
    home, away = frame.home_score, frame.away_score
    if home is None or away is None or home < 0 or away < 0 or home + away <= 0:
        return None
    if frame.shared:
        agrees = home == away
    elif frame.winner == Side.HOME:
        agrees = home > away
    elif frame.winner == Side.AWAY:
        agrees = away > home
    else:
        agrees = False
    if not agrees:
        return None
    total = float(home + away)
    return [100.0 * home / total, 100.0 * away / total]


def _ranks(frame: RatedFrame) -> list[float] | None:
    if frame.shared:
        return [1.0, 1.0]
    if frame.winner == Side.HOME:
        return [1.0, 2.0]
    if frame.winner == Side.AWAY:
        return [2.0, 1.0]
    return None


def rate_frame(
    rater: PlackettLuce, frame: RatedFrame, states: dict[int, State]
) -> list[tuple[int, str, State, float, float]] | None:
    """Rate one frame: each player's (id, side, new state, change of μ, side's chance of
    winning before), the states updated in place; None for a frame with no result."""
    ranks = _ranks(frame)
    if ranks is None:
        return None
    teams: list[list[PlackettLuceRating]] = []
    for ids in (frame.home, frame.away):
        team = []
        for player_id in ids:
            state = states.get(player_id)
            if state is None:
                state = states[player_id] = State(rater.mu, rater.sigma)
            team.append(state.openskill())
        teams.append(team)
    home_chance = win_chance(rater, teams[0], teams[1])
    chances = (home_chance, 1 - home_chance)
    scores = _scores(frame)
    if scores is not None:
        new = rater.rate(teams, scores=scores)
    else:
        new = rater.rate(teams, ranks=ranks)
    out = []
    for side, ids, team, chance in zip(
        (Side.HOME, Side.AWAY), (frame.home, frame.away), new, chances, strict=True
    ):
        for player_id, rating in zip(ids, team, strict=True):
            state = states[player_id]
            delta = rating.mu - state.mu
            state.mu, state.sigma, state.rating = rating.mu, rating.sigma, rating
            state.frames += 1
            state.last_played_on = frame.played_on
            out.append((player_id, str(side), state, delta, chance))
    return out


def replay(
    frames: Iterable[RatedFrame], states: dict[int, State], game_id: str, first_seq: int
) -> list[tuple]:
    """Rate the frames in order from `states` (updated in place); the changes to store,
    as rows in the order of `CHANGE_COLUMNS` (plain tuples: a recompute makes 100,000)."""
    rater = model()
    rows: list[tuple] = []
    seq = first_seq
    for frame in frames:
        rated = rate_frame(rater, frame, states)
        if rated is None:
            continue
        for player_id, side, state, delta, chance in rated:
            rows.append(
                (
                    player_id,
                    frame.frame_id,
                    frame.fixture_id,
                    frame.league_id,
                    game_id,
                    seq,
                    frame.played_on,
                    side,
                    state.mu,
                    state.sigma,
                    state.mu - 3 * state.sigma,
                    delta,
                    chance,
                    state.frames,
                    frame.winner,
                    frame.shared,
                    frame.home_score,
                    frame.away_score,
                )
            )
        seq += 1
    return rows


_LAST_STATES = """
SELECT c.player_id, c.mu, c.sigma, c.frames, c.played_on, c.seq
  FROM frames_ratingchange c
  JOIN (SELECT player_id, MAX(seq) AS seq
          FROM frames_ratingchange
         WHERE game_id = %s AND played_on < %s{players}
         GROUP BY player_id) m ON m.player_id = c.player_id AND m.seq = c.seq
 WHERE c.game_id = %s
"""


def last_states(
    game_id: str, before: date, player_ids: Iterable[int] | None = None
) -> list[tuple[int, float, float, int, date, int]]:
    """Each player's last change of the game before a day, (player, μ, σ, frames, day,
    seq): one grouped query on the history's index (of some players only, if given)."""
    params: list[Any] = [game_id, before]
    players = ""
    if player_ids is not None:
        ids = sorted(set(player_ids))
        if not ids:
            return []
        players = f" AND player_id IN ({', '.join(['%s'] * len(ids))})"
        params += ids
    params.append(game_id)
    with connection.cursor() as cursor:
        cursor.execute(_LAST_STATES.format(players=players), params)
        rows = cursor.fetchall()
    return [
        (pid, mu, sigma, n, day if isinstance(day, date) else date.fromisoformat(day), seq)
        for pid, mu, sigma, n, day, seq in rows
    ]


def prior_states(game_id: str, since: date | None) -> tuple[dict[int, State], int]:
    """Every player's state before `since`, and the next `seq` to number frames with."""
    if since is None:
        return {}, 1
    states: dict[int, State] = {}
    top = 0
    for player_id, mu, sigma, frames, played_on, seq in last_states(game_id, since):
        states[player_id] = State(mu, sigma, frames, played_on)
        top = max(top, seq)
    return states, top + 1


# ------------------------------------------------------------------------- the writes

CHANGE_COLUMNS = (
    "player_id",
    "frame_id",
    "fixture_id",
    "league_id",
    "game_id",
    "seq",
    "played_on",
    "side",
    "mu",
    "sigma",
    "ordinal",
    "delta",
    "expected",
    "frames",
    "winner",
    "shared",
    "home_score",
    "away_score",
)


def _copy_value(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, float):
        return repr(value)  # every bit: the same numbers a from-scratch run writes
    return str(value)


def _store_changes(rows: list[tuple]) -> None:
    """Insert the changes: PostgreSQL's COPY, one text buffer (a recompute writes
    100,000 rows), else bulk_create. Values are ids, numbers, days and fixed codes:
    nothing to escape."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create(
            [RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows],
            batch_size=2000,
        )
        return
    text = "".join("\t".join(map(_copy_value, row)) + "\n" for row in rows)
    table = RatingChange._meta.db_table
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor, for COPY
        with raw.copy(f"COPY {table} ({', '.join(CHANGE_COLUMNS)}) FROM STDIN") as copy:
            copy.write(text)


@dataclass(frozen=True)
class Recomputed:
    game_id: str
    since: date | None
    frames: int
    #: The players whose rating (μ, σ or rated frames) is not what it was before the run.
    moved: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.moved)


def ratings_recompute(*, game_id: str, since: date | None = None) -> Recomputed:
    """Recompute the game's ratings for frames played from `since` on (None: all of
    them), from each player's state before it. Deterministic; safe to run twice. Call it
    inside a transaction (`ratings_run` does)."""
    states, seq = prior_states(game_id, since)
    stale = RatingChange.objects.filter(game_id=game_id)
    if since is not None:
        stale = stale.filter(played_on__gte=since)
    touched = set(stale.values_list("player_id", flat=True).distinct())
    stale.delete()  # nothing refers to a change: one DELETE
    replayed = 0
    # A chunk of frames at a time, read, rated and written: flat memory however long the
    # game's history (docs/scaling.md, "A thousand leagues").
    for frames in rated_frames_in_chunks(game_id, since):
        changes = replay(frames, states, game_id, seq)
        _store_changes(changes)
        if changes:
            seq = changes[-1][5] + 1
        touched |= {row[0] for row in changes}
        replayed += len({row[1] for row in changes})
    ratings = Rating.objects.filter(game_id=game_id)
    if since is not None:
        ratings = ratings.filter(player_id__in=touched)
        rows = [pid for pid in touched if pid in states]
    else:
        rows = list(states)
    was = {
        pid: (mu, sigma, n)
        for pid, mu, sigma, n in ratings.values_list("player_id", "mu", "sigma", "frames")
    }
    ratings.delete()
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=pid,
                game_id=game_id,
                mu=states[pid].mu,
                sigma=states[pid].sigma,
                ordinal=states[pid].mu - 3 * states[pid].sigma,
                frames=states[pid].frames,
                last_played_on=states[pid].last_played_on,
            )
            for pid in sorted(rows)
        ],
        batch_size=2000,
    )
    stored = {pid: (states[pid].mu, states[pid].sigma, states[pid].frames) for pid in rows}
    # Moved: the rating stored now differs from the one stored before the run (to the last
    # bit), not merely from the player's state before `since`.
    moved = tuple(sorted(pid for pid in set(was) | set(stored) if was.get(pid) != stored.get(pid)))
    return Recomputed(game_id, since, replayed, moved)


# ------------------------------------------------------------------------- the runs


def _widen(current: date | None, new: date | None) -> date | None:
    if current is None or new is None:
        return None
    return min(current, new)


def ratings_request(
    *,
    game_id: str,
    since: date | None,
    reason: str,
    match: Match | None = None,
    now: datetime | None = None,
) -> RatingRun:
    """Ask for the game's ratings to be recomputed from a day on: the queued run (made,
    or widened when one is already waiting). The caller queues the task after commit
    (`frames.ratings.tasks.request_ratings` does both)."""
    if reason not in RatingRun.Reason.values:
        raise DomainError("bad_value", f"Unknown reason {reason!r}.", field="reason")
    now = now or timezone.now()
    for _attempt in range(3):
        try:
            with transaction.atomic():
                run = (
                    RatingRun.objects.select_for_update()
                    .filter(game_id=game_id, state=RatingRun.State.QUEUED)
                    .first()
                )
                if run is not None:
                    widened = _widen(run.since, since)
                    fields = ["heartbeat_at"]
                    run.heartbeat_at = now
                    if widened != run.since:
                        run.since, run.reason, run.match = widened, reason, match
                        fields += ["since", "reason", "match"]
                    run.save(update_fields=fields)
                    return run
                return RatingRun.objects.create(
                    game_id=game_id,
                    since=since,
                    reason=reason,
                    match=match,
                    created_at=now,
                    heartbeat_at=now,
                )
        except IntegrityError:  # another request made the queued row first
            continue
    raise DomainError("busy", "Ratings are being requested too often; try again.", status=409)


def ratings_claim(*, run_id: int, now: datetime | None = None) -> bool:
    """Claim a run: queued → running, or running with a stale heartbeat → running (a
    killed worker's run). One conditional UPDATE: two workers cannot both win."""
    now = now or timezone.now()
    return bool(
        RatingRun.objects.filter(pk=run_id)
        .filter(
            Q(state=RatingRun.State.QUEUED)
            | Q(state=RatingRun.State.RUNNING, heartbeat_at__lt=now - STALE)
        )
        .update(
            state=RatingRun.State.RUNNING,
            started_at=now,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
        )
    )


def ratings_run(*, run_id: int, now: datetime | None = None) -> RatingRun | None:
    """Claim and do one run: the recompute and the run's record in one transaction
    (runs of one game take turns on their rows' locks). None when another has it or it
    is done: safe to run twice."""
    if not ratings_claim(run_id=run_id, now=now):
        return None
    try:
        with transaction.atomic():
            run = RatingRun.objects.select_for_update().get(pk=run_id)
            list(
                RatingRun.objects.select_for_update()
                .filter(game_id=run.game_id, state=RatingRun.State.RUNNING)
                .exclude(pk=run_id)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
            result = ratings_recompute(game_id=run.game_id, since=run.since)
            run.state = RatingRun.State.DONE
            run.frames_replayed = result.frames
            run.players_changed = result.players
            run.moved = list(result.moved)
            run.finished_at = run.heartbeat_at = timezone.now()
            run.error = ""
            run.save(
                update_fields=[
                    "state",
                    "frames_replayed",
                    "players_changed",
                    "moved",
                    "finished_at",
                    "heartbeat_at",
                    "error",
                ]
            )
            rating_moved_notify(run=run, now=now or run.finished_at)
            return run
    except Exception as exc:
        RatingRun.objects.filter(pk=run_id).update(
            state=RatingRun.State.FAILED, error=repr(exc)[:2000], finished_at=timezone.now()
        )
        raise


def dirty_since(frame_ids: Iterable[int] | None = None) -> dict[str, tuple[date, str]]:
    """Per game, the earliest day whose ratings no longer follow the results, and why:
    counted frames not rated yet, rated frames that no longer count (an erasure: reopened,
    conceded, deleted), and rated frames whose result or day changed (a correction).
    Three grouped queries (over the given frames only, with `frame_ids`)."""
    found: dict[str, tuple[date, str]] = {}
    only = Q() if frame_ids is None else Q(pk__in=list(frame_ids))
    only_changes = Q() if frame_ids is None else Q(frame_id__in=list(frame_ids))

    def note(game_id: str, day: date | None, reason: str) -> None:
        if day is not None and (game_id not in found or day < found[game_id][0]):
            found[game_id] = (day, reason)

    rated = RatingChange.objects.filter(frame_id=OuterRef("pk"))
    for game_id, day in (
        counted_frames()
        .filter(only)
        .annotate(played=played_on_expr())
        .filter(
            ~Exists(rated),
            Q(shared=True) | ~Q(winner=""),  # a frame with no result is never rated
            Exists(FramePlayer.objects.filter(frame_id=OuterRef("pk"), side=Side.HOME)),
            Exists(FramePlayer.objects.filter(frame_id=OuterRef("pk"), side=Side.AWAY)),
        )
        .values("game_id")
        .annotate(day=Min("played"))
        .values_list("game_id", "day")
    ):
        note(game_id, day, RatingRun.Reason.HEAL)
    counted = counted_frames().filter(pk=OuterRef("frame_id"))
    for game_id, day in (
        RatingChange.objects.filter(only_changes, ~Exists(counted))
        .values("game_id")
        .annotate(day=Min("played_on"))
        .values_list("game_id", "day")
    ):
        note(game_id, day, RatingRun.Reason.ERASURE)
    frame_day = Coalesce(
        F("frame__match__fixture__date"),
        TruncDate("frame__match__confirmed_at"),
        output_field=DateField(),
    )
    changed = (
        ~Q(winner=F("frame__winner"))
        | ~Q(shared=F("frame__shared"))
        | ~Q(home_score=Coalesce(F("frame__home_score"), Value(-1)))
        | ~Q(away_score=Coalesce(F("frame__away_score"), Value(-1)))
        | ~Q(played_on=frame_day)
    )
    for game_id, day, now_day in (
        RatingChange.objects.filter(only_changes, Exists(counted))
        .annotate(now_day=frame_day)
        .filter(changed)
        .values("game_id")
        .annotate(day=Min("played_on"), now_min=Min("now_day"))
        .values_list("game_id", "day", "now_min")
    ):
        note(game_id, min(day, now_day) if now_day else day, RatingRun.Reason.CORRECTION)
    return found


def ratings_follow(*, frame_ids: Iterable[int], now: datetime | None = None) -> list[int]:
    """The frames' results were written or changed (by any path): the ids of the runs that
    bring their games' ratings back in step, from the earliest day that changed (none when
    the ratings already follow them, or the frames do not count)."""
    return [
        ratings_request(game_id=game_id, since=day, reason=reason, now=now).pk
        for game_id, (day, reason) in sorted(dirty_since(frame_ids).items())
    ]


def ratings_sweep(*, now: datetime | None = None) -> list[int]:
    """The healer: the ids of runs to queue — runs no worker claimed, runs whose worker
    vanished (stale heartbeat), and new runs for results the ratings do not follow."""
    now = now or timezone.now()
    due = set(
        RatingRun.objects.filter(
            Q(state=RatingRun.State.QUEUED, heartbeat_at__lt=now - UNCLAIMED)
            | Q(state=RatingRun.State.RUNNING, heartbeat_at__lt=now - STALE)
        ).values_list("pk", flat=True)
    )
    for game_id, (day, reason) in sorted(dirty_since().items()):
        run = ratings_request(game_id=game_id, since=day, reason=reason, now=now)
        due.add(run.pk)
    return sorted(due)


def reason_for(how: str) -> str:
    """The run's reason from how a result came to count (`results.record_result`)."""
    if "(correct)" in how:
        return RatingRun.Reason.CORRECTION
    if how.startswith("settled"):
        return RatingRun.Reason.SETTLEMENT
    return RatingRun.Reason.CONFIRMATION
