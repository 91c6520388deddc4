"""`manage.py league_export <slug> > league.json`: a league's whole history (docs/data.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from exchange.archive import league_export_text
from leagues.models import League


class Command(BaseCommand):
    help = "Write a league's archive (JSON) to standard output: a full backup by default."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="The league's slug.")
        parser.add_argument(
            "--portable",
            action="store_true",
            help="No accounts, email addresses or subscriptions (what a secretary downloads).",
        )

    def handle(self, *args, slug: str, portable: bool, **options) -> None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"No league with the slug {slug!r}.")
        for piece in league_export_text(league=league, full=not portable):
            self.stdout.write(piece, ending="")
