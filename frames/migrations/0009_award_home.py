# Award moves from leagues to frames (whose statistics it ranks): state only, the table
# keeps its name (leagues_award), so no row moves.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("frames", "0008_playerframestat_home"),
        ("leagues", "0014_award_home"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Award",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=80)),
                        (
                            "measure",
                            models.CharField(
                                choices=[
                                    (
                                        "stat",
                                        "A statistic the game declares (the best, or the most)",
                                    ),
                                    (
                                        "at_least",
                                        "Frames in which a statistic reached a threshold",
                                    ),
                                    ("win_rate", "Win rate"),
                                    ("average", "Average score a frame"),
                                ],
                                max_length=10,
                            ),
                        ),
                        (
                            "stat",
                            models.CharField(
                                blank=True,
                                help_text="The game's statistic (for 'stat' and 'at_least').",
                                max_length=60,
                            ),
                        ),
                        (
                            "threshold",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text="For 'at_least': the value a frame's statistic reaches.",
                                null=True,
                            ),
                        ),
                        (
                            "min_fixtures_percent",
                            models.PositiveSmallIntegerField(
                                default=0,
                                help_text="Eligible after playing in at least this share of the team's fixtures.",
                            ),
                        ),
                        (
                            "min_frames",
                            models.PositiveSmallIntegerField(
                                default=0, help_text="Eligible after at least this many frames."
                            ),
                        ),
                        ("order", models.PositiveSmallIntegerField(default=0)),
                        ("created_at", models.DateTimeField()),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="awards",
                                to="leagues.season",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "leagues_award",
                        "ordering": ["season", "order", "id"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("season", "name"), name="award_name_unique_in_season"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("min_fixtures_percent__lte", 100)),
                                name="award_percent_at_most_100",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("measure__in", ["stat", "at_least"]), _negated=True),
                                    models.Q(("stat", ""), _negated=True),
                                    _connector="OR",
                                ),
                                name="award_stat_named",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("measure", "at_least"), _negated=True),
                                    ("threshold__isnull", False),
                                    _connector="OR",
                                ),
                                name="award_threshold_set",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
