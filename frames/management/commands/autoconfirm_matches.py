"""Confirm the results whose confirmation period has passed (what Celery beat does)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from frames.matchnight import signoff


class Command(BaseCommand):
    help = "Confirm complete, undisputed match results older than their league's period."

    def handle(self, *args, **options) -> None:
        confirmed = signoff.match_autoconfirm_due(now=timezone.now())
        for match in confirmed:
            self.stdout.write(f"confirmed {match}: {match.home_frames}-{match.away_frames}")
        self.stdout.write(f"{len(confirmed)} result(s) confirmed.")
