# PlayerFrameStat moves from leagues to frames (which computes it): state only, the table
# keeps its name (leagues_playerframestat), so no row moves.

import django.db.models.deletion
import rules.registry
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("frames", "0007_friendly_owner_may_be_empty"),
        ("leagues", "0012_playerframestat_home"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PlayerFrameStat",
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
                        ("frame_number", models.PositiveSmallIntegerField()),
                        ("side", models.CharField(max_length=4)),
                        ("doubles", models.BooleanField(default=False)),
                        ("played_on", models.DateField(blank=True, null=True)),
                        ("won", models.BooleanField(default=False)),
                        ("shared", models.BooleanField(default=False)),
                        (
                            "score",
                            models.IntegerField(
                                default=0, help_text="The side's score in the frame."
                            ),
                        ),
                        ("opponent_score", models.IntegerField(default=0)),
                        (
                            "has_shots",
                            models.BooleanField(
                                default=False, help_text="Scored shot by shot on the pad."
                            ),
                        ),
                        (
                            "game_id",
                            models.CharField(
                                default=rules.registry.default_game_id, max_length=60
                            ),
                        ),
                        (
                            "values",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text="The statistics the game declares (name → number), from the shot log.",
                            ),
                        ),
                        ("source_seq", models.PositiveIntegerField(default=0)),
                        (
                            "division",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="leagues.division",
                            ),
                        ),
                        (
                            "fixture",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="player_stats",
                                to="leagues.fixture",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="frame_stats",
                                to="leagues.player",
                            ),
                        ),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="leagues.season",
                            ),
                        ),
                        (
                            "team",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="leagues.team",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "leagues_playerframestat",
                        "ordering": ["fixture", "frame_number", "side"],
                        "indexes": [
                            models.Index(
                                fields=["division", "player"], name="frame_stat_division"
                            ),
                            models.Index(fields=["season", "player"], name="frame_stat_season"),
                            models.Index(
                                fields=["player", "played_on"], name="frame_stat_player_form"
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("fixture", "frame_number", "player"),
                                name="one_line_per_player_frame",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("won", True), ("shared", True), _negated=True),
                                name="frame_line_won_or_shared",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
