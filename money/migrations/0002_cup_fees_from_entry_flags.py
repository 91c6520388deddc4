"""A cup entry's fee moves from its `paid` flag into the ledger: each entry of a
competition with a fee is charged it, and an entry marked paid gets a payment of it
(method "other", dated when it was marked). Then competitions drops the flag; and on
PostgreSQL a trigger refuses any UPDATE of a ledger line (but emptying `created_by` when
that account is deleted). A line is deleted only with its whole season or league (the site
administrator removing a tenant); the model, its querysets and the admin refuse it."""

from django.db import migrations

APPEND_ONLY = """
CREATE OR REPLACE FUNCTION money_ledger_append_only() RETURNS trigger AS $$
BEGIN
    -- The one change allowed: who made a line, emptied when that account is deleted.
    IF TG_OP = 'UPDATE' AND NEW.created_by_id IS NULL
       AND (NEW.id, NEW.league_id, NEW.season_id, NEW.team_id, NEW.player_id, NEW.kind,
            NEW.amount, NEW.description, NEW.method, NEW.paid_on, NEW.reference,
            NEW.reverses_id, NEW.fixture_id, NEW.cup_entry_id, NEW.idempotency_key,
            NEW.created_at)
       IS NOT DISTINCT FROM
           (OLD.id, OLD.league_id, OLD.season_id, OLD.team_id, OLD.player_id, OLD.kind,
            OLD.amount, OLD.description, OLD.method, OLD.paid_on, OLD.reference,
            OLD.reverses_id, OLD.fixture_id, OLD.cup_entry_id, OLD.idempotency_key,
            OLD.created_at) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'money_ledgerentry is append-only: reverse an entry instead'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER money_ledger_append_only
    BEFORE UPDATE ON money_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION money_ledger_append_only();
"""
DROP_APPEND_ONLY = """
DROP TRIGGER IF EXISTS money_ledger_append_only ON money_ledgerentry;
DROP FUNCTION IF EXISTS money_ledger_append_only();
"""


def append_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPEND_ONLY)


def drop_append_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_APPEND_ONLY)


def copy_flags(apps, schema_editor):
    Entry = apps.get_model("competitions", "Entry")
    LedgerEntry = apps.get_model("money", "LedgerEntry")
    entries = Entry.objects.filter(competition__fee__gt=0).select_related(
        "competition__season", "team", "player"
    )
    for entry in entries.order_by("id"):
        if entry.status != "entered" and not entry.paid:
            continue
        competition = entry.competition
        pence = int(round(competition.fee * 100))
        account = {"team_id": entry.team_id} if entry.team_id else {"player_id": entry.player_id}
        common = {
            "league_id": competition.season.league_id,
            "season_id": competition.season_id,
            "cup_entry_id": entry.pk,
            **account,
        }
        key = f"cup_entry:entry:{entry.pk}"
        if LedgerEntry.objects.filter(idempotency_key=key).exists():
            continue
        LedgerEntry.objects.create(
            kind="cup_entry",
            amount=pence,
            description=f"Entry to the {competition.name}"[:200],
            idempotency_key=key,
            created_at=entry.entered_at,
            **common,
        )
        if entry.paid:
            at = entry.paid_at or entry.entered_at
            LedgerEntry.objects.create(
                kind="payment",
                amount=-pence,
                method="other",
                paid_on=at.date(),
                description=f"Entry to the {competition.name} marked paid"[:200],
                created_at=at,
                **common,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("money", "0001_ledger"),
        ("competitions", "0003_knockout_commit"),
    ]

    operations = [
        migrations.RunPython(copy_flags, migrations.RunPython.noop),
        migrations.RunPython(append_only, drop_append_only),
    ]
