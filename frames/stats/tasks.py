"""The statistics' background jobs. Every task is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from .record import frame_stats_record, stats_sync


@shared_task(acks_late=True)
def record_frame_stats(frame_id: int) -> int:
    """Queue after a frame's result is written (delay_on_commit)."""
    return frame_stats_record(frame_id=frame_id)


@shared_task
def sync_frame_stats() -> int:
    """Beat: heal frames whose statistics were missed."""
    return stats_sync()
