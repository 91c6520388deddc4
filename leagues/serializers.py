from __future__ import annotations

from rest_framework import serializers

from .models import Division, Fixture, League, Player, Registration, Season, Team, Venue


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "game_id", "match_night", "confirm_after_hours"]


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "league", "name", "slug", "status", "start_date"]


class DivisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "name", "rank"]


class VenueSerializer(serializers.ModelSerializer):
    class Meta:
        model = Venue
        fields = ["id", "name", "address", "tables"]


class PlayerSerializer(serializers.ModelSerializer):
    """Public view of a player: no email address."""

    class Meta:
        model = Player
        fields = ["id", "name"]


class TeamSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "season", "division", "name", "venue", "captain", "vice_captain"]
        read_only_fields = ["captain", "vice_captain"]


class TeamCreateSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    name = serializers.CharField(max_length=120)
    venue = serializers.PrimaryKeyRelatedField(queryset=Venue.objects.all())
    division = serializers.PrimaryKeyRelatedField(
        queryset=Division.objects.all(), required=False, allow_null=True
    )


class TeamUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    venue = serializers.PrimaryKeyRelatedField(queryset=Venue.objects.all(), required=False)


class RegistrationSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Registration
        fields = ["id", "player", "kind", "status", "first_played_at", "created_at"]


class RosterAddSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True,
        help_text="An existing player; or give `name` to create one.",
    )
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    kind = serializers.ChoiceField(choices=Registration.Kind.choices, default="registered")

    def validate(self, attrs):
        if not attrs.get("player") and not (attrs.get("name") or "").strip():
            raise serializers.ValidationError({"name": "Give an existing player or a name."})
        return attrs


class FixtureSerializer(serializers.ModelSerializer):
    home_name = serializers.CharField(source="home.name", read_only=True)
    away_name = serializers.CharField(source="away.name", read_only=True)
    venue_name = serializers.CharField(source="venue.name", read_only=True)

    class Meta:
        model = Fixture
        fields = [
            "id", "season", "division", "round", "date", "original_date", "status", "note",
            "home", "home_name", "away", "away_name", "venue", "venue_name",
            "home_frames", "away_frames", "home_score", "away_score", "result_confirmed_at",
        ]


class FixturesGenerateSerializer(serializers.Serializer):
    start_date = serializers.DateField()
    blackout_dates = serializers.ListField(child=serializers.DateField(), required=False, default=list)


class FixtureMoveSerializer(serializers.Serializer):
    date = serializers.DateField()
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class FixturePostponeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="A stable machine code.")
    message = serializers.CharField(help_text="What went wrong, for people.")
