"""`manage.py league_import league.json`: restore a league from its archive (docs/data.md)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from exchange.archive import league_import
from marker.errors import DomainError


class Command(BaseCommand):
    help = "Restore a league from its JSON archive ('-' reads standard input)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="The archive file, or - for standard input.")

    def handle(self, *args, path: str, **options) -> None:
        try:
            if path == "-":
                archive = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as handle:
                    archive = json.load(handle)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        try:
            league = league_import(archive=archive)
        except DomainError as exc:
            raise CommandError(exc.message) from None
        seasons = league.seasons.count()
        self.stdout.write(f"Restored {league.name} ({league.slug}): {seasons} season(s).")
