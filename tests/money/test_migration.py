"""The move of a cup entry's paid flag into the ledger: every entry of a competition with a
fee is charged it, a paid one gets its payment (dated when it was marked), a free one
nothing; and it runs backwards."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("competitions", "0003_knockout_commit"), ("money", "0001_ledger")]
AFTER = [("competitions", "0004_entry_paid_read_from_ledger")]
THEN = datetime(2026, 3, 1, 19, 30, tzinfo=UTC)
PAID = datetime(2026, 3, 8, 20, 0, tzinfo=UTC)


def migrate(target):
    """Migrate to `target` with the leagues app at its latest (its tables stay as they are,
    whatever leagues migrations come after money's: the historical League, Venue and Team
    must have every column the database has)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    target = target + [n for n in executor.loader.graph.leaf_nodes() if n[0] == "leagues"]
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_paid_flags_become_ledger_lines():
    apps = migrate(BEFORE)
    league = apps.get_model("leagues", "League").objects.create(name="Old", slug="old-money")
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="2026", slug="2026"
    )
    venue = apps.get_model("leagues", "Venue").objects.create(name="The Old Bell")
    Team = apps.get_model("leagues", "Team")
    bell, crown, swan = (
        Team.objects.create(season=season, name=name, venue=venue)
        for name in ("Bell", "Crown", "Swan")
    )
    Competition = apps.get_model("competitions", "Competition")
    cup = Competition.objects.create(
        season=season, name="Cup", slug="cup", kind="team_knockout", fee=Decimal("5.50"),
        created_at=THEN,
    )  # fmt: skip
    free = Competition.objects.create(
        season=season, name="Free", slug="free", kind="team_knockout", created_at=THEN
    )
    Entry = apps.get_model("competitions", "Entry")
    paid = Entry.objects.create(
        competition=cup, team=bell, paid=True, paid_at=PAID, entered_at=THEN
    )
    owed = Entry.objects.create(competition=cup, team=crown, entered_at=THEN)
    Entry.objects.create(competition=cup, team=swan, status="withdrawn", entered_at=THEN)
    Entry.objects.create(competition=free, team=bell, paid=True, paid_at=PAID, entered_at=THEN)

    apps = migrate(AFTER)
    Line = apps.get_model("money", "LedgerEntry")
    got = sorted(
        (line.cup_entry_id, line.team_id, line.kind, line.amount, line.created_at)
        for line in Line.objects.all()
    )
    assert got == sorted(
        [
            (paid.pk, bell.pk, "cup_entry", 550, THEN),
            (paid.pk, bell.pk, "payment", -550, PAID),
            (owed.pk, crown.pk, "cup_entry", 550, THEN),
        ]
    )
    assert Line.objects.get(kind="payment").method == "other"

    migrate(BEFORE)  # backwards: the flag column is back (the lines stay in the ledger)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
