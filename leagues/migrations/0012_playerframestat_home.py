# PlayerFrameStat moves to frames (which computes it): state only, the table
# (leagues_playerframestat) stays where it is and frames' model keeps its name.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0011_one_invitation"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="PlayerFrameStat")],
            database_operations=[],
        ),
    ]
