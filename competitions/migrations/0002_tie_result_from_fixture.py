"""A tie's result is no longer copied onto it: a team tie reads its cup fixture's, an
individual tie its frames' (`Tie.result`)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0001_competitions"),
    ]

    operations = [
        migrations.RemoveField(model_name="tie", name="home_frames"),
        migrations.RemoveField(model_name="tie", name="away_frames"),
        migrations.RemoveField(model_name="tie", name="home_score"),
        migrations.RemoveField(model_name="tie", name="away_score"),
    ]
