from __future__ import annotations

from decimal import Decimal

from rest_framework import serializers

from marker.api_errors import ErrorSerializer  # noqa: F401  (the API views import it from here)
from marker.api_inputs import StrictPrimaryKeyRelatedField
from marker.formats import PRESET_CHOICES

from .imports import KIND_CHOICES
from .models import (
    MAX_MATCH_SCORE,
    TIE_BREAKERS,
    Division,
    Fixture,
    Honour,
    Invitation,
    League,
    LeagueRole,
    Player,
    PointDeduction,
    Publication,
    Registration,
    Season,
    Team,
    Venue,
    Weekday,
)


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "town", "game_id", "match_night", "confirm_after_hours"]


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "league", "name", "slug", "status", "start_date"]


class DivisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "name", "rank"]


class SeasonCreateSerializer(serializers.Serializer):
    """A new season of a league (its secretary's): checked in full by the service."""

    name = serializers.CharField(max_length=60)
    slug = serializers.CharField(
        max_length=60,
        required=False,
        default="",
        allow_blank=True,
        help_text="Made from the name when empty.",
    )
    game_id = serializers.CharField(max_length=60, help_text="A game's id (GET /api/games/).")
    game_options = serializers.JSONField(
        required=False,
        default=None,
        help_text="The game's setup options (its defaults when left out).",
    )
    start_date = serializers.DateField(required=False, default=None, allow_null=True)
    divisions = serializers.ListField(
        child=serializers.CharField(max_length=60),
        min_length=1,
        max_length=20,
        help_text="1–20 distinct names, the top division first.",
    )
    match_format_preset = serializers.ChoiceField(
        choices=PRESET_CHOICES,
        required=False,
        allow_blank=True,
        default="",
        help_text="A match-format preset; the default format when empty.",
    )


class SeasonCreatedSerializer(serializers.ModelSerializer):
    divisions = DivisionSerializer(many=True, read_only=True)

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "name",
            "slug",
            "status",
            "start_date",
            "game_id",
            "rules_version",
            "game_options",
            "match_format",
            "divisions",
        ]


class VenueSerializer(serializers.ModelSerializer):
    class Meta:
        model = Venue
        fields = ["id", "name", "address", "tables"]


class PlayerSerializer(serializers.ModelSerializer):
    """Public view of a player: no email address, and the public name (initials for a
    player who asked not to be named; "Former player N" for an erased person)."""

    name = serializers.CharField(source="public_name", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name"]


class TeamSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "season", "division", "name", "venue", "captain", "vice_captain"]
        read_only_fields = ["captain", "vice_captain"]


class TeamCreateSerializer(serializers.Serializer):
    season = StrictPrimaryKeyRelatedField(queryset=Season.objects.all())
    name = serializers.CharField(max_length=120)
    venue = StrictPrimaryKeyRelatedField(queryset=Venue.objects.all())
    division = StrictPrimaryKeyRelatedField(
        queryset=Division.objects.all(), required=False, allow_null=True
    )


class TeamUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    venue = StrictPrimaryKeyRelatedField(queryset=Venue.objects.all(), required=False)


class RegistrationSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Registration
        fields = ["id", "player", "kind", "status", "first_played_at", "created_at"]


class RosterAddSerializer(serializers.Serializer):
    player = StrictPrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        help_text="An existing player; or give `name` to create one.",
    )
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True)
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
            "id",
            "season",
            "division",
            "round",
            "date",
            "original_date",
            "status",
            "note",
            "home",
            "home_name",
            "away",
            "away_name",
            "venue",
            "venue_name",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "result_confirmed_at",
            "outcome",
            "outcome_reason",
        ]


class FixturesGenerateSerializer(serializers.Serializer):
    start_date = serializers.DateField()
    blackout_dates = serializers.ListField(
        child=serializers.DateField(), required=False, default=list, max_length=366
    )


class FixtureMoveSerializer(serializers.Serializer):
    date = serializers.DateField()
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class FixturePostponeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    by = serializers.ChoiceField(
        choices=["home", "away", ""],
        required=False,
        default="",
        help_text="The side that asked for the postponement (a league may fine it).",
    )


# ----------------------------------------------------------------------------- tables


class TableRowSerializer(serializers.Serializer):
    """One team's line. Frames and points are decimal strings (a shared frame is ½)."""

    team_id = serializers.IntegerField()
    team = serializers.CharField()
    position = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The position is shared (level on everything).")
    position_display = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    frames_for = serializers.CharField()
    frames_against = serializers.CharField()
    frame_difference = serializers.CharField()
    score_for = serializers.IntegerField()
    score_against = serializers.IntegerField()
    earned = serializers.CharField()
    deducted = serializers.CharField()
    points = serializers.CharField()
    explanation = serializers.CharField()
    notes = serializers.ListField(child=serializers.CharField())


class TableNoteSerializer(serializers.Serializer):
    team = serializers.CharField()
    text = serializers.CharField()


class ProvisionalResultSerializer(serializers.ModelSerializer):
    home_name = serializers.CharField(source="home.name", read_only=True)
    away_name = serializers.CharField(source="away.name", read_only=True)

    class Meta:
        model = Fixture
        fields = [
            "id",
            "date",
            "home",
            "home_name",
            "away",
            "away_name",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "outcome",
            "outcome_reason",
            "result_confirmed_at",
        ]


class PublishedTableSerializer(serializers.Serializer):
    division = serializers.IntegerField()
    published = serializers.BooleanField()
    as_of = serializers.DateTimeField(allow_null=True)
    publication = serializers.IntegerField(allow_null=True)
    rows = TableRowSerializer(many=True)
    notes = TableNoteSerializer(many=True)
    provisional_results = ProvisionalResultSerializer(
        many=True, help_text="Results confirmed since the table was published."
    )


class LiveTableSerializer(serializers.Serializer):
    division = serializers.IntegerField()
    provisional = serializers.BooleanField(default=True)
    rows = TableRowSerializer(many=True)
    notes = TableNoteSerializer(many=True)
    scheme = serializers.ListField(child=serializers.CharField())


class PublicationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Publication
        fields = [
            "id",
            "season",
            "state",
            "as_of",
            "progress",
            "step",
            "created_at",
            "started_at",
            "heartbeat_at",
            "finished_at",
            "attempts",
            "error",
            "emails_sent",
        ]


class FixtureAwardSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(
        choices=Fixture.Outcome.choices, help_text="walkover or conceded ('played' is refused)."
    )
    home_frames = serializers.DecimalField(max_digits=4, decimal_places=1, min_value=0)
    away_frames = serializers.DecimalField(max_digits=4, decimal_places=1, min_value=0)
    home_score = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_SCORE, default=0)
    away_score = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_SCORE, default=0)
    reason = serializers.CharField(max_length=200)


class PointDeductionSerializer(serializers.ModelSerializer):
    team_name = serializers.CharField(source="team.name", read_only=True)

    class Meta:
        model = PointDeduction
        fields = ["id", "team", "team_name", "points", "reason", "at"]


class PointDeductionCreateSerializer(serializers.Serializer):
    points = serializers.DecimalField(max_digits=5, decimal_places=1, min_value=Decimal("0.5"))
    reason = serializers.CharField(max_length=200)


class PointsSchemeSerializer(serializers.ModelSerializer):
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIE_BREAKERS)),
        max_length=len(TIE_BREAKERS),
        help_text="In order; each once.",
    )

    class Meta:
        model = Season
        fields = [
            "points_per_frame",
            "points_per_match_win",
            "points_per_match_draw",
            "bonus_margin",
            "bonus_margin_points",
            "bonus_aggregate_points",
            "tie_breakers",
        ]
        extra_kwargs = {f: {"required": False} for f in fields}


# ----------------------------------------------------------------------------- tenancy


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.CharField(max_length=60, help_text="The league's pages: /<slug>/.")
    game_id = serializers.CharField(max_length=60, help_text="The rules engine's game id.")
    match_night = serializers.ChoiceField(choices=Weekday.choices, default=Weekday.TUESDAY)
    secretary = serializers.CharField(
        max_length=254,
        help_text="The first secretary: an account's username or email, or an email address "
        "to invite.",
    )


class OfficerSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = LeagueRole
        fields = ["id", "league", "user", "username", "role", "created_at"]


class OfficerInvitationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Invitation
        fields = ["id", "league", "email", "role", "created_at", "sent_at"]


class LeagueCreatedSerializer(serializers.Serializer):
    league = LeagueSerializer()
    secretary = OfficerSerializer(allow_null=True)
    invitation = OfficerInvitationSerializer(allow_null=True)


class OfficerAddSerializer(serializers.Serializer):
    who = serializers.CharField(max_length=254, help_text="A username or an email address.")
    role = serializers.ChoiceField(choices=LeagueRole.Role.choices)


class OfficersSerializer(serializers.Serializer):
    officers = OfficerSerializer(many=True)
    invitations = OfficerInvitationSerializer(many=True)


class OfficerAddedSerializer(serializers.Serializer):
    officer = OfficerSerializer(allow_null=True)
    invitation = OfficerInvitationSerializer(allow_null=True)


class MatchFormatSerializer(serializers.Serializer):
    """A match format as the API shows it: its JSON (docs/formats.md), in words, and
    whose it is (the division's own, or its season's)."""

    format = serializers.JSONField(help_text="The format's JSON (marker.formats).")
    description = serializers.ListField(child=serializers.CharField())
    inherited = serializers.BooleanField(
        help_text="A division playing its season's format (always false for a season)."
    )


class MatchFormatInputSerializer(serializers.Serializer):
    preset = serializers.ChoiceField(
        choices=PRESET_CHOICES,
        required=False,
        allow_blank=True,
        default="",
        help_text="Start from a preset (used as it is when no format is given).",
    )
    format = serializers.JSONField(
        required=False, default=None, help_text="The format's JSON (docs/formats.md)."
    )
    inherit = serializers.BooleanField(
        required=False, default=False, help_text="Division only: play the season's format."
    )


# --------------------------------------------------------------------------- rollover

#: The largest id a bigint column holds.
ID_MAX = 2**63 - 1


class BoundarySerializer(serializers.Serializer):
    above = serializers.IntegerField(
        help_text="The id of the division above the boundary.", min_value=1, max_value=ID_MAX
    )
    teams = serializers.IntegerField(
        min_value=0, max_value=50, help_text="Teams up (and as many down) across it."
    )


class PlacementSerializer(serializers.Serializer):
    team = serializers.IntegerField(
        help_text="A team of the season being rolled over.", min_value=1, max_value=ID_MAX
    )
    division = serializers.IntegerField(
        help_text="The division (of the season being rolled over) whose copy it plays in.",
        min_value=1,
        max_value=ID_MAX,
    )


class RolloverTeamSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    position = serializers.CharField()
    points = serializers.CharField()
    to_division_id = serializers.IntegerField()
    move = serializers.ChoiceField(choices=["up", "down", "stays"])


class RolloverDivisionSerializer(serializers.Serializer):
    division_id = serializers.IntegerField()
    division = serializers.CharField()
    rank = serializers.IntegerField()
    down = serializers.IntegerField()
    rows = RolloverTeamSerializer(many=True)


class RolloverProposalSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="False while fixtures have no confirmed result.")
    unconfirmed_fixtures = serializers.IntegerField()
    divisions = RolloverDivisionSerializer(many=True)
    rolled_into = serializers.IntegerField(allow_null=True)


class RolloverSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    slug = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    start_date = serializers.DateField(required=False, allow_null=True, default=None)
    # With many=True, DRF passes max_length to the ListSerializer; the stubs do not know it.
    boundaries = BoundarySerializer(many=True, required=False, default=list, max_length=50)  # type: ignore[call-arg]
    placements = PlacementSerializer(many=True, required=False, default=list, max_length=500)  # type: ignore[call-arg]
    override_unfinished = serializers.BooleanField(
        default=False,
        help_text="Roll over although some fixtures have no confirmed result.",
    )


# ----------------------------------------------------------------------------- import


class ImportInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    file = serializers.FileField(help_text="CSV, or XLSX (its first sheet); at most 512 KB.")
    mapping = serializers.ListField(
        child=serializers.CharField(allow_blank=True, max_length=40),
        max_length=40,
        required=False,
        help_text="The field each column gives, in order ('' to ignore a column); "
        "matched from the headers when left out.",
    )
    dry_run = serializers.BooleanField(
        default=True, help_text="Only say what would happen (the default)."
    )


class ImportColumnSerializer(serializers.Serializer):
    header = serializers.CharField()
    field = serializers.CharField(help_text="The field it gives, or '' (ignored).")


class ImportStepSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["create", "change", "same"])
    what = serializers.CharField()
    text = serializers.CharField()


class ImportProblemSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="The row in the file (0: the file as a whole).")
    column = serializers.CharField()
    message = serializers.CharField()


class ImportPlanSerializer(serializers.Serializer):
    kind = serializers.CharField()
    columns = ImportColumnSerializer(many=True)
    counts = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Per kind of thing: how many rows create, change, or find it already there.",
    )
    changes = serializers.IntegerField()
    steps = ImportStepSerializer(many=True)
    problems = ImportProblemSerializer(many=True)
    imported = serializers.BooleanField()


class ImportJobSerializer(serializers.Serializer):
    """A background import (a file of more rows than the instance imports at once)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    filename = serializers.CharField()
    rows = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    progress = serializers.IntegerField(help_text="Percent done.")
    step = serializers.CharField()
    error = serializers.CharField(help_text="Why nothing was imported ('' unless failed).")
    counts = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Once done: per kind of thing, how many rows created, changed or found.",
    )
    changes = serializers.IntegerField()
    problems = ImportProblemSerializer(many=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="Where to ask for its progress (this answer).")


class HonourSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="division, competition or award.")
    season = serializers.IntegerField(source="season_id", allow_null=True, read_only=True)
    team = serializers.IntegerField(source="team_id", allow_null=True, read_only=True)
    players = serializers.SerializerMethodField()
    team_name_now = serializers.SerializerMethodField(
        help_text="The team's name today, when it differs from the name it won under."
    )

    class Meta:
        model = Honour
        fields = [
            "id",
            "season",
            "season_name",
            "title",
            "kind",
            "position",
            "name",
            "team",
            "team_name_now",
            "players",
            "detail",
            "recorded_at",
        ]

    def get_players(self, honour) -> list[int]:
        return [p.pk for p in honour.players.all()]

    def get_team_name_now(self, honour) -> str | None:
        if honour.team is not None and honour.team.name != honour.name:
            return honour.team.name
        return None


class SeasonFinishSerializer(serializers.Serializer):
    force = serializers.BooleanField(
        default=False,
        help_text="Finish even though some fixtures have no confirmed result (the tables are "
        "final as they stand).",
    )


# ---- registration rules


class RegistrationRulesSerializer(serializers.Serializer):
    """A season's registration rules (docs/eligibility.md): empty dates and numbers are
    no rule. Every field is optional on a write: those not given keep their value."""

    registrations_open = serializers.DateField(required=False, allow_null=True)
    registrations_close = serializers.DateField(required=False, allow_null=True)
    close_at_first_match_after = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="Registrations close at the season's first match on or after this day.",
    )
    min_notice_days = serializers.IntegerField(required=False, min_value=0, max_value=365)
    play_up_allowed = serializers.BooleanField(required=False)
    play_up_cap = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=100
    )
    play_up_divisions = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=20
    )
    transfers_allowed = serializers.BooleanField(required=False)
    transfers_only_while_open = serializers.BooleanField(required=False)
    transfers_need_approval = serializers.BooleanField(required=False)
    penalty = serializers.ChoiceField(
        choices=[("forfeit_frame", "The frame is forfeited to the opponents")], required=False
    )


class RuleLineSerializer(serializers.Serializer):
    rule = serializers.CharField()
    text = serializers.CharField()


class RegistrationRulesOutSerializer(RegistrationRulesSerializer):
    season = serializers.IntegerField()
    in_force = RuleLineSerializer(many=True, help_text="The rules in the handbook's words.")


class RuleRefusalSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="The rule's stable code.")
    rule_name = serializers.CharField(help_text="The rule in the handbook's words.")
    message = serializers.CharField()


class EligibilitySerializer(serializers.Serializer):
    team = serializers.IntegerField()
    player = serializers.IntegerField()
    date = serializers.DateField()
    eligible = serializers.BooleanField()
    play_up = serializers.BooleanField()
    refusals = RuleRefusalSerializer(many=True)


class TransferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.IntegerField(source="season_id")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    from_team = serializers.IntegerField(source="from_team_id")
    to_team = serializers.IntegerField(source="to_team_id")
    reason = serializers.CharField()
    status = serializers.CharField()
    rule = serializers.CharField(help_text="The rule that decided it (its stable code).")
    rule_message = serializers.CharField()
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class TransferRequestSerializer(serializers.Serializer):
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())
    to_team = StrictPrimaryKeyRelatedField(queryset=Team.objects.all())
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class TransferDecideSerializer(serializers.Serializer):
    approve = serializers.BooleanField()
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
