# Award moves to frames (whose statistics it ranks): state only, the table
# (leagues_award) stays where it is and frames' model keeps its name.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0013_venue_tables_any_game"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Award")],
            database_operations=[],
        ),
    ]
