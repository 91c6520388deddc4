"""The ranking series API's shapes. Names are public names (initials for a player who
asked not to be named, 'Former player N' for an erased one); no date of birth, ever."""

from __future__ import annotations

from rest_framework import serializers

from .models import Series, SeriesEvent


class SeriesEventSerializer(serializers.ModelSerializer):
    played = serializers.BooleanField(read_only=True)
    weight = serializers.DecimalField(max_digits=4, decimal_places=2, read_only=True)

    class Meta:
        model = SeriesEvent
        fields = ["id", "number", "name", "date", "weight", "competition", "played"]


class SeriesSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.name", read_only=True)
    category_name = serializers.CharField(read_only=True)
    points_table = serializers.ListField(child=serializers.CharField(), read_only=True)
    tie_breakers = serializers.ListField(child=serializers.CharField(), read_only=True)
    appearance_points = serializers.DecimalField(max_digits=6, decimal_places=2, read_only=True)

    class Meta:
        model = Series
        fields = [
            "id",
            "name",
            "league",
            "organisation",
            "owner",
            "game_id",
            "season",
            "best_n",
            "basis",
            "points_table",
            "appearance_points",
            "category",
            "category_age",
            "category_name",
            "age_on",
            "tie_breakers",
        ]


class SeriesDetailSerializer(SeriesSerializer):
    events = SeriesEventSerializer(many=True, read_only=True)

    class Meta(SeriesSerializer.Meta):
        fields = [*SeriesSerializer.Meta.fields, "events"]


class SeriesResultRowSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    placing = serializers.IntegerField()
    result = serializers.CharField(help_text="The round reached or the placing.")
    points = serializers.CharField()
    counted = serializers.BooleanField()


class SeriesStandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.CharField()
    results = SeriesResultRowSerializer(many=True)
    tie_break = serializers.CharField()
    needs_above = serializers.CharField()
    needs_leader = serializers.CharField()


class SeriesStandingsSerializer(serializers.Serializer):
    series = serializers.IntegerField()
    played = serializers.IntegerField()
    events = serializers.IntegerField()
    next_event = serializers.CharField(allow_null=True)
    rows = SeriesStandingRowSerializer(many=True)
