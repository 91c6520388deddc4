"""What the competitions API reads and answers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from frames.models import Side
from leagues.models import MAX_FRAME_SCORE, Player, Team
from marker import commit_reveal
from marker.api_inputs import StrictPrimaryKeyRelatedField

from .models import Competition, Entry, Group, Round, Tie, TieFrame
from .standings import GroupRow

MAX_POINTS = 100_000


class CompetitionSerializer(serializers.ModelSerializer):
    entries = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        fields = [
            "id",
            "season",
            "organisation",
            "game_id",
            "settle_by",
            "name",
            "slug",
            "kind",
            "entrant",
            "best_of",
            "final_best_of",
            "group_size",
            "group_qualifiers",
            "group_race_to",
            "group_others",
            "plate_rule",
            "plate",
            "entry_mode",
            "entries_close_at",
            "fee",
            "require_registered",
            "eligibility_label",
            "cup_tied",
            "handicap_rule",
            "handicap_step",
            "handicap_min",
            "handicap_max",
            "stage",
            "secretary_commitment",
            "server_commitment",
            "seed",
            "algorithm",
            "drawn_at",
            "winner",
            "runner_up",
            "finished_at",
            "entries",
        ]
        read_only_fields = fields

    def get_entries(self, obj: Competition) -> int:
        return getattr(obj, "entry_count", None) or obj.entries.filter(status="entered").count()


class CompetitionCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    entrant = serializers.ChoiceField(
        choices=Competition.Entrant.choices, required=False, default=""
    )
    best_of = serializers.IntegerField(min_value=1, max_value=99, default=3)
    final_best_of = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True, default=None
    )
    group_size = serializers.IntegerField(
        min_value=2, max_value=32, required=False, allow_null=True, default=None
    )
    group_qualifiers = serializers.IntegerField(
        min_value=1, max_value=31, required=False, allow_null=True, default=None
    )
    group_race_to = serializers.IntegerField(min_value=1, max_value=50, default=2)
    group_others = serializers.ChoiceField(choices=Competition.GroupOthers.choices, default="out")
    plate_rule = serializers.ChoiceField(choices=Competition.PlateRule.choices, default="none")
    plate = StrictPrimaryKeyRelatedField(
        queryset=Competition.objects.all(), required=False, allow_null=True, default=None
    )
    entry_mode = serializers.ChoiceField(choices=Competition.EntryMode.choices, default="secretary")
    entries_close_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    fee = serializers.DecimalField(
        max_digits=6, decimal_places=2, min_value=Decimal(0), default=Decimal(0)
    )
    require_registered = serializers.BooleanField(default=True)
    eligibility_label = serializers.CharField(
        max_length=60, required=False, allow_blank=True, default=""
    )
    eligible_players = serializers.ListField(
        child=StrictPrimaryKeyRelatedField(queryset=Player.objects.all()),
        max_length=1000,
        default=list,
    )
    cup_tied = serializers.BooleanField(default=True)
    handicap_rule = serializers.ChoiceField(
        choices=Competition.HandicapRule.choices, default="none"
    )
    handicap_step = serializers.IntegerField(min_value=0, max_value=1000, default=5)
    handicap_min = serializers.IntegerField(
        min_value=-MAX_POINTS, max_value=MAX_POINTS, default=-100
    )
    handicap_max = serializers.IntegerField(
        min_value=-MAX_POINTS, max_value=MAX_POINTS, default=100
    )
    settle_by = serializers.ChoiceField(choices=Competition.SettleBy.choices, default="frames")


class OrganisationCompetitionCreateSerializer(CompetitionCreateSerializer):
    """An organisation's competition names the game it plays (its member leagues' teams
    and players of that game enter)."""

    game_id = serializers.CharField(max_length=40)


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    paid = serializers.BooleanField(
        read_only=True, help_text="The entry fee was charged and is settled (the ledger)."
    )
    paid_at = serializers.DateTimeField(read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "competition",
            "name",
            "team",
            "player",
            "partner",
            "status",
            "paid",
            "paid_at",
            "start",
            "entered_at",
            "withdrawn_at",
            "source",
        ]
        read_only_fields = fields


class EntryCreatedSerializer(EntrySerializer):
    """An entry just made, with a warning when the secretary entered it late."""

    warning = serializers.SerializerMethodField()

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.fields, "warning"]
        read_only_fields = fields

    def get_warning(self, entry: Entry) -> str:
        return self.context.get("warning", "")


class EntryCreateSerializer(serializers.Serializer):
    team = StrictPrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True, default=None
    )
    player = StrictPrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    partner = StrictPrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    start = serializers.IntegerField(
        min_value=-MAX_POINTS, max_value=MAX_POINTS, required=False, allow_null=True, default=None
    )
    late = serializers.BooleanField(
        default=False,
        help_text="The secretary enters after the closing date on purpose (marked as late).",
    )


class PaidSerializer(serializers.Serializer):
    paid = serializers.BooleanField()


class StartSerializer(serializers.Serializer):
    start = serializers.IntegerField(min_value=-MAX_POINTS, max_value=MAX_POINTS)


class CommitSerializer(serializers.Serializer):
    commitment = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="SHA-256 (hex) of the secretary's secret; blank: the server makes one.",
    )


class RevealSerializer(serializers.Serializer):
    secret = serializers.CharField(max_length=128)


class DrawSerializer(serializers.ModelSerializer):
    replay = serializers.SerializerMethodField()
    knockout_replay = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        fields = [
            "id",
            "stage",
            "secretary_commitment",
            "server_commitment",
            "secretary_secret",
            "server_secret",
            "seed",
            "knockout_secretary_commitment",
            "knockout_server_commitment",
            "knockout_secretary_secret",
            "knockout_server_secret",
            "knockout_seed",
            "algorithm",
            "drawn_at",
            "draw_record",
            "replay",
            "knockout_replay",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Competition) -> dict[str, Any]:
        data = super().to_representation(instance)
        # No secret is shown before its draw, to anyone (marker/commit_reveal.py).
        for prefix, seed in (("", instance.seed), ("knockout_", instance.knockout_seed)):
            for who in ("secretary", "server"):
                key = f"{prefix}{who}_secret"
                data[key] = commit_reveal.shown(data[key], drawn=seed is not None)
        return data

    def get_replay(self, obj: Competition) -> str:
        """The command that replays the draw by hand."""
        if obj.seed is None:
            return ""
        keys = ",".join(sorted((obj.draw_record or {}).get("entrants", {})))
        groups = f" --groups {obj.group_size}" if obj.has_groups else ""
        return f"python -m competitions.draw --entrants {keys} --seed {obj.seed}{groups}"

    def get_knockout_replay(self, obj: Competition) -> str:
        """The command that replays a group event's knock-out by hand, once drawn."""
        if obj.knockout_seed is None:
            return ""
        qualifiers = (obj.draw_record or {}).get("knockout", {}).get("qualifiers", [])
        keys = ",".join(sorted(qualifiers))
        return f"python -m competitions.draw --entrants {keys} --seed {obj.knockout_seed}"


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "competition", "number", "name", "date", "deadline", "best_of"]
        read_only_fields = fields


class GroupSerializer(serializers.ModelSerializer):
    class Meta:
        model = Group
        fields = ["id", "competition", "number", "name", "deadline"]
        read_only_fields = fields


class GroupDeadlineSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField(allow_null=True)


class RoundDatesSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, allow_null=True, default=None)
    deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)


class TieFrameSerializer(serializers.ModelSerializer):
    class Meta:
        model = TieFrame
        fields = ["number", "frame", "home_score", "away_score", "winner", "source"]
        read_only_fields = fields


def _frames() -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=4, decimal_places=1, read_only=True, allow_null=True)


def _score() -> serializers.IntegerField:
    return serializers.IntegerField(read_only=True, allow_null=True)


class TieSerializer(serializers.ModelSerializer):
    home_name = serializers.SerializerMethodField()
    away_name = serializers.SerializerMethodField()
    round_number = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    # the result, read from where it is stored (`Tie.result`): the fixture, or the frames
    home_frames = _frames()
    away_frames = _frames()
    home_score = _score()
    away_score = _score()

    class Meta:
        model = Tie
        fields = [
            "id",
            "competition",
            "round",
            "round_number",
            "group",
            "slot",
            "home",
            "away",
            "home_name",
            "away_name",
            "bye",
            "status",
            "winner",
            "award_reason",
            "best_of",
            "race_to",
            "home_start",
            "away_start",
            "fixture",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "decided_at",
        ]
        read_only_fields = fields

    def get_home_name(self, obj: Tie) -> str | None:
        return obj.home.name if obj.home is not None else None

    def get_away_name(self, obj: Tie) -> str | None:
        return obj.away.name if obj.away is not None else None


class TieDetailSerializer(TieSerializer):
    frames = TieFrameSerializer(many=True, read_only=True)

    class Meta(TieSerializer.Meta):
        fields = [*TieSerializer.Meta.fields, "frames"]
        read_only_fields = fields


class PaperFrameSerializer(serializers.Serializer):
    home = serializers.IntegerField(min_value=0, max_value=1_000_000)
    away = serializers.IntegerField(min_value=0, max_value=1_000_000)
    winner = serializers.ChoiceField(
        choices=Side.choices, required=False, help_text="For a level frame."
    )


class PaperResultSerializer(serializers.Serializer):
    frames = PaperFrameSerializer(many=True, max_length=99)  # type: ignore[call-arg]  # (stubs)


class AwardSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=Side.choices)
    reason = serializers.CharField(max_length=200)


class MatchFrameScoreSerializer(serializers.Serializer):
    """One frame of a cup match, corrected: its number and both scores."""

    number = serializers.IntegerField(min_value=1, max_value=99)
    home_score = serializers.IntegerField(min_value=0, max_value=MAX_FRAME_SCORE)
    away_score = serializers.IntegerField(min_value=0, max_value=MAX_FRAME_SCORE)


class CorrectionSerializer(serializers.Serializer):
    """A decided tie corrected: the reason, and one of the winner (a tie decided without
    being played), its frames (an individual tie) or its match's frame scores (a team
    tie: the confirmed match is settled again)."""

    reason = serializers.CharField(max_length=200)
    winner = serializers.ChoiceField(choices=Side.choices, required=False)
    frames = PaperFrameSerializer(many=True, max_length=99, required=False)  # type: ignore[call-arg]  # (stubs)
    match_frames = MatchFrameScoreSerializer(many=True, max_length=99, required=False)  # type: ignore[call-arg]  # (stubs)

    def match_scores(self) -> dict[int, tuple[int, int]] | None:
        frames = self.validated_data.get("match_frames")
        if not frames:
            return None
        return {f["number"]: (f["home_score"], f["away_score"]) for f in frames}


class WithdrawSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=Side.choices)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class BracketRoundSerializer(serializers.Serializer):
    round = RoundSerializer()
    ties = TieSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    competition = serializers.IntegerField(source="competition.pk")
    rounds = BracketRoundSerializer(many=True)
    winner = EntrySerializer(allow_null=True)
    runner_up = EntrySerializer(allow_null=True)


class GroupRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField(source="entry.name")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    frames_for = serializers.IntegerField()
    frames_against = serializers.IntegerField()
    frame_difference = serializers.IntegerField()
    score_for = serializers.IntegerField()
    score_against = serializers.IntegerField()
    h2h_score_difference = serializers.IntegerField(allow_null=True)
    lot = serializers.IntegerField()
    explanation = serializers.CharField()

    def to_representation(self, instance: GroupRow) -> dict[str, Any]:
        return super().to_representation(instance)


class GroupTableSerializer(serializers.Serializer):
    group = serializers.IntegerField(source="group.pk")
    name = serializers.CharField(source="group.name")
    deadline = serializers.DateTimeField(source="group.deadline", allow_null=True)
    complete = serializers.BooleanField()
    tie_breakers = serializers.ListField(child=serializers.CharField())
    rows = GroupRowSerializer(many=True)
    ties = serializers.SerializerMethodField()

    def get_ties(self, obj: Any) -> list[dict[str, Any]]:
        return list(TieSerializer(list(obj.group.ties.all()), many=True).data)  # prefetched
