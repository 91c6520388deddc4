"""Rebuild every frame's state from its shot log and compare it with the caches.

manage.py frames_check            # report; exit status 1 if any frame differs
manage.py frames_check --fix      # rewrite the caches that differ from the log
manage.py frames_check --frame 12 --frame 13
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from frames.models import Frame
from frames.pad.events import frame_rebuild


class Command(BaseCommand):
    help = "Replay every frame's event log through the rules engine and check (or --fix) its cached state."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="rewrite caches that differ")
        parser.add_argument(
            "--frame", type=int, action="append", help="only this frame (repeatable)"
        )

    def handle(self, *args, fix: bool = False, frame: list[int] | None = None, **options):
        ids = frame or list(
            Frame.objects.filter(
                Q(state__isnull=False) | Q(last_seq__gt=0) | Q(events__isnull=False)
            )
            .distinct()
            .values_list("pk", flat=True)
        )
        checked = bad = unfixed = events = 0
        for frame_id in sorted(set(ids)):
            report = frame_rebuild(frame_id=frame_id, fix=fix)
            checked += 1
            events += report.events
            if report.ok:
                continue
            bad += 1
            unfixed += not report.fixed
            verdict = "fixed" if report.fixed else "DIFFERS"
            self.stdout.write(f"frame {frame_id}: {verdict}")
            for problem in report.problems:
                self.stdout.write(f"  - {problem}")
        self.stdout.write(
            f"{checked} frame(s), {events} event(s) replayed; {bad} with problems"
            + (" (fixed)" if fix and bad else "")
        )
        if unfixed:
            hint = "" if fix else "; run with --fix to rebuild the caches"
            raise CommandError(f"{unfixed} frame(s) differ from their log{hint}")
