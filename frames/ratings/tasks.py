"""The ratings' background jobs. Every task is safe to run twice."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from frames.models import Match

from .services import ratings_follow, ratings_request, ratings_run, ratings_sweep, reason_for


@shared_task(acks_late=True)
def recompute_ratings(run_id: int) -> int:
    """Claim and do one recompute (nothing when another worker has it or it is done)."""
    run = ratings_run(run_id=run_id)
    return run.frames_replayed if run is not None else 0


@shared_task
def sweep_ratings() -> int:
    """Beat: queue runs no worker claimed or whose worker vanished, and runs for results
    the ratings do not follow yet."""
    due = ratings_sweep()
    for run_id in due:
        recompute_ratings.delay_on_commit(run_id)
    return len(due)


@shared_task
def follow_results(frame_ids: list[int]) -> int:
    """Frames' results were written or changed (the pad, a paper sheet, a settlement, the
    admin…): where the ratings no longer follow them, recompute now rather than at the next
    sweep. Nothing when they already do (a frame of a match not confirmed yet, say)."""
    due = ratings_follow(frame_ids=frame_ids)
    for run_id in due:
        recompute_ratings.delay_on_commit(run_id)
    return len(due)


def frames_changed(frame_ids: list[int]) -> None:
    """After this transaction commits, the ratings follow these frames' results (in
    process under `make run`, whose Celery is eager; on a worker otherwise)."""
    follow_results.delay_on_commit(sorted(set(frame_ids)))


def request_ratings(
    *, game_id: str, since: date | None, reason: str, match: Match | None = None
) -> None:
    """Record a recompute of the game's ratings from `since` on and queue it once the
    transaction commits."""
    run = ratings_request(game_id=game_id, since=since, reason=reason, match=match)
    recompute_ratings.delay_on_commit(run.pk)


def match_result_counted(match: Match, how: str) -> None:
    """A match's result now counts (confirmed, settled, corrected): the ratings of its
    game from its day on follow, after commit."""
    fixture = match.fixture
    day = fixture.date or (match.confirmed_at.date() if match.confirmed_at else None)
    request_ratings(game_id=match.game_id, since=day, reason=reason_for(how), match=match)
