"""Match-night API shapes: one read shape for a match (from selectors.match_detail), and
one input serializer per command. No logic: the services decide."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from frames.models import SIDES, Side
from leagues.models import MAX_FRAME_SCORE, Player
from marker.api_inputs import StrictPrimaryKeyRelatedField, id_list_field
from marker.formats import MAX_FRAMES

from .common import public_hats
from .squads import MAX_NAME, MAX_PRESENT


def side_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Side.choices, help_text="The side acted for.")


# --------------------------------------------------------------------------- output


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(
        source="public_name", help_text="The public name (initials if they asked)."
    )


class PresenceSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    drafted = serializers.BooleanField()
    marked_at = serializers.DateTimeField()


class SidesPresenceSerializer(serializers.Serializer):
    home = PresenceSerializer(many=True)
    away = PresenceSerializer(many=True)


class SeedPartsSerializer(serializers.Serializer):
    home = serializers.CharField()
    away = serializers.CharField()
    server = serializers.CharField()


class SidesFlagSerializer(serializers.Serializer):
    home = serializers.BooleanField()
    away = serializers.BooleanField()


def public_user(user, otherwise: str) -> str:
    """An account as the public sees it: its player's public name (never the login)."""
    player = getattr(user, "player", None) if user is not None else None
    return player.public_name if player is not None else otherwise


class ConfirmationSerializer(serializers.Serializer):
    by = serializers.CharField(
        allow_null=True, help_text="The confirming captain's public name (never the login)."
    )
    at = serializers.DateTimeField(allow_null=True)


class SidesConfirmationSerializer(serializers.Serializer):
    home = ConfirmationSerializer()
    away = ConfirmationSerializer()


class ReorderProposalSerializer(serializers.Serializer):
    order = serializers.ListField(child=serializers.IntegerField())
    proposed_by = serializers.CharField()


class DisputeSerializer(serializers.Serializer):
    side = serializers.CharField()
    reason = serializers.CharField()
    at = serializers.DateTimeField(allow_null=True)


class ResultSerializer(serializers.Serializer):
    home_frames = serializers.DecimalField(max_digits=4, decimal_places=1)
    away_frames = serializers.DecimalField(max_digits=4, decimal_places=1)
    home_score = serializers.IntegerField()
    away_score = serializers.IntegerField()
    frames_display = serializers.CharField()
    finished = serializers.BooleanField()


class FixtureBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    home = serializers.IntegerField(source="home_id")
    home_name = serializers.CharField(source="home.name")
    away = serializers.IntegerField(source="away_id")
    away_name = serializers.CharField(source="away.name")
    venue_name = serializers.CharField(source="venue.name")


class FrameRowSerializer(serializers.Serializer):
    """One frame of the scorecard."""

    id = serializers.IntegerField(source="frame.pk")
    number = serializers.IntegerField(source="frame.number")
    order = serializers.IntegerField(source="frame.order")
    kind = serializers.CharField(source="frame.kind")
    game_id = serializers.CharField(source="frame.game_id")
    status = serializers.CharField(source="frame.status")
    conceded_by = serializers.CharField(
        source="frame.conceded_by", help_text="home, away, both, or blank."
    )
    home_players = PlayerRefSerializer(source="home", many=True)
    away_players = PlayerRefSerializer(source="away", many=True)
    referee = PlayerRefSerializer(source="frame.referee", allow_null=True)
    referee_side = serializers.CharField(source="frame.referee_side")
    referee_note = serializers.CharField(source="frame.referee_note")
    home_score = serializers.IntegerField(source="frame.home_score", allow_null=True)
    away_score = serializers.IntegerField(source="frame.away_score", allow_null=True)
    winner = serializers.CharField(help_text="The side that takes the frame (conceded included).")
    shared = serializers.BooleanField(source="frame.shared")
    result_source = serializers.CharField(source="frame.result_source")
    completed_at = serializers.DateTimeField(source="frame.completed_at", allow_null=True)


class MatchLogSerializer(serializers.Serializer):
    action = serializers.CharField()
    # DRF's serializer metaclass takes declared fields off the class, so this does not
    # shadow `Field.label` (the stubs cannot say so).
    label = serializers.CharField()  # type: ignore[assignment]
    actor = serializers.SerializerMethodField(
        help_text="Who acted, by their public name (null: Marker itself)."
    )
    detail = serializers.JSONField()

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_actor(self, entry) -> str | None:
        return None if entry.actor is None else public_user(entry.actor, "a league official")

    at = serializers.DateTimeField()


class NominationStateSerializer(serializers.Serializer):
    submitted = serializers.BooleanField()
    commitment = serializers.CharField(help_text="SHA-256 of `salt:canonical JSON`.")
    nomination = serializers.JSONField(
        allow_null=True, help_text="Player ids; null until both captains' are in."
    )
    salt = serializers.CharField(help_text="Blank until both captains' are in.")


class SidesNominationSerializer(serializers.Serializer):
    home = NominationStateSerializer()
    away = NominationStateSerializer()


class MatchSerializer(serializers.Serializer):
    """A match night: squads, the seed's commit–reveal, the draw, the scorecard, the
    result and its confirmations, and the log. Secrets appear only once drawn."""

    id = serializers.IntegerField(source="match.pk")
    fixture = FixtureBriefSerializer(source="match.fixture")
    status = serializers.CharField(source="match.status")
    game_id = serializers.CharField(source="match.game_id")
    presences = serializers.SerializerMethodField()
    commitments = serializers.SerializerMethodField()
    secrets = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    algorithm = serializers.CharField(source="match.algorithm")
    home_hat = serializers.SerializerMethodField()
    away_hat = serializers.SerializerMethodField()
    draw_notes = serializers.SerializerMethodField()
    drawn_at = serializers.DateTimeField(source="match.drawn_at", allow_null=True)
    short_agreed = serializers.SerializerMethodField()
    redraw_requested = serializers.SerializerMethodField()
    reorder_proposal = serializers.SerializerMethodField()
    frames = FrameRowSerializer(source="rows", many=True)
    result = ResultSerializer(source="tally")
    completed_at = serializers.DateTimeField(source="match.completed_at", allow_null=True)
    confirmations = serializers.SerializerMethodField()
    dispute = serializers.SerializerMethodField()
    confirmed_at = serializers.DateTimeField(source="match.confirmed_at", allow_null=True)
    log = serializers.SerializerMethodField()
    format = serializers.SerializerMethodField()
    nominations = serializers.SerializerMethodField()

    def _public(self, detail):
        """The hats and the rewrite of the stored texts by public names, once a detail."""
        cached = getattr(self, "_public_cache", None)
        if cached is None or cached[0] is not detail:
            cached = (detail, *public_hats(detail))
            self._public_cache = cached
        return cached[1], cached[2]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_home_hat(self, detail) -> list[str]:
        """The home hat in its drawn order, each player by their public name (initials
        if they asked): `python -m frames.draw --as-listed` replays it (docs/draw.md)."""
        return self._public(detail)[0]["home"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_away_hat(self, detail) -> list[str]:
        """The away hat, as the home hat."""
        return self._public(detail)[0]["away"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_draw_notes(self, detail) -> list[str]:
        return self._public(detail)[1](list(detail.match.draw_notes))

    @extend_schema_field(MatchLogSerializer(many=True))
    def get_log(self, detail) -> list:
        rewrite = self._public(detail)[1]
        rows = MatchLogSerializer(detail.log, many=True).data
        return [{**row, "detail": rewrite(row["detail"])} for row in rows]

    @extend_schema_field(serializers.JSONField())
    def get_format(self, detail) -> dict:
        """The match format fixed when the match opened (docs/formats.md), and in words."""
        fmt = detail.match.format
        return {**fmt.to_json(), "description": fmt.describe()}

    @extend_schema_field(SidesNominationSerializer)
    def get_nominations(self, detail) -> dict:
        """Captains' nominations (blind or fixed formats): whether each is in and its
        commitment; the nominations themselves and their salts only once both are in."""
        m = detail.match
        both = m.home_nomination is not None and m.away_nomination is not None
        return {
            side: {
                "submitted": getattr(m, f"{side}_nomination") is not None,
                "commitment": getattr(m, f"{side}_nomination_commitment"),
                "nomination": getattr(m, f"{side}_nomination") if both else None,
                "salt": getattr(m, f"{side}_nomination_salt") if both else "",
            }
            for side in SIDES
        }

    @extend_schema_field(SidesPresenceSerializer)
    def get_presences(self, detail) -> dict:
        return {
            side: PresenceSerializer(detail.squads[side].present, many=True).data for side in SIDES
        }

    @extend_schema_field(SeedPartsSerializer)
    def get_commitments(self, detail) -> dict:
        m = detail.match
        return {"home": m.home_commitment, "away": m.away_commitment, "server": m.server_commitment}

    @extend_schema_field(SeedPartsSerializer(allow_null=True))
    def get_secrets(self, detail) -> dict | None:
        m = detail.match
        if m.seed is None:
            return None  # sealed until the draw
        return {"home": m.home_secret, "away": m.away_secret, "server": m.server_secret}

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed(self, detail) -> str | None:
        # A 63-bit integer: a string, so JavaScript reads it exactly.
        return None if detail.match.seed is None else str(detail.match.seed)

    @extend_schema_field(SidesFlagSerializer)
    def get_short_agreed(self, detail) -> dict:
        m = detail.match
        return {"home": m.short_agreed_home, "away": m.short_agreed_away}

    @extend_schema_field(SidesFlagSerializer)
    def get_redraw_requested(self, detail) -> dict:
        m = detail.match
        return {"home": m.redraw_home_agreed, "away": m.redraw_away_agreed}

    @extend_schema_field(ReorderProposalSerializer(allow_null=True))
    def get_reorder_proposal(self, detail) -> dict | None:
        m = detail.match
        if not m.reorder_proposal:
            return None
        return {"order": m.reorder_proposal, "proposed_by": m.reorder_proposed_by}

    @extend_schema_field(SidesConfirmationSerializer)
    def get_confirmations(self, detail) -> dict:
        m = detail.match
        result = {}
        for side in SIDES:
            user = getattr(m, f"{side}_confirmed_by")
            result[side] = {
                "by": public_user(user, "a captain") if user else None,
                "at": serializers.DateTimeField().to_representation(
                    getattr(m, f"{side}_confirmed_at")
                )
                if getattr(m, f"{side}_confirmed_at")
                else None,
            }
        return result

    @extend_schema_field(DisputeSerializer(allow_null=True))
    def get_dispute(self, detail) -> dict | None:
        m = detail.match
        if not m.disputed_by:
            return None
        return DisputeSerializer(
            {"side": m.disputed_by, "reason": m.dispute_reason, "at": m.disputed_at}
        ).data


# --------------------------------------------------------------------------- input


class PresenceInputSerializer(serializers.Serializer):
    side = side_field()
    players = id_list_field(
        Player.objects.all(),
        max_length=MAX_PRESENT,
        help_text="Everyone present for the side (the whole list): roster or drafted players.",
    )
    new_players = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NAME),
        required=False,
        default=list,
        max_length=MAX_PRESENT,
        help_text="Names of newcomers to draft (put on the roster as drafted players). "
        f"At most {MAX_PRESENT} present for a side, newcomers included.",
    )


class NominationInputSerializer(serializers.Serializer):
    side = side_field()
    sections = serializers.ListField(
        child=serializers.ListField(
            child=serializers.ListField(child=serializers.IntegerField(), max_length=3),
            max_length=30,
        ),
        max_length=10,
        required=False,
        help_text="Blind nomination: per section, per frame, the player ids (an empty "
        "frame concedes it, for a side short by agreement).",
    )
    lineup = serializers.ListField(
        child=serializers.IntegerField(),
        max_length=40,
        required=False,
        help_text="Fixed order: the player ids numbered 1, 2, 3 …",
    )


class CommitInputSerializer(serializers.Serializer):
    side = side_field()
    commitment = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="SHA-256 (hex) of a secret the captain's device keeps until every "
        "commitment is in. Leave it out to let the server make the secret.",
    )


class RevealInputSerializer(serializers.Serializer):
    side = side_field()
    secret = serializers.CharField(max_length=128, help_text="The secret committed to.")


class SideInputSerializer(serializers.Serializer):
    side = side_field()


class ReorderInputSerializer(serializers.Serializer):
    side = side_field()
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_FRAMES),
        min_length=1,
        max_length=MAX_FRAMES,
        help_text="Frame numbers, first to last to be played (every frame of the match "
        "once: nine in Norwich's format).",
    )


class RefereeInputSerializer(serializers.Serializer):
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())


def score_input(side: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        max_value=MAX_FRAME_SCORE,
        help_text=f"The {side} side's points: a multiple of the game's declared score step "
        "(ones in most games; tens where every hole scores tens).",
    )


class FrameScoreInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_FRAMES)
    home_score = score_input("home")
    away_score = score_input("away")


class PaperInputSerializer(serializers.Serializer):
    # many=True makes a ListSerializer, which takes max_length; the stubs check the child's
    # __init__ instead.
    frames = FrameScoreInputSerializer(  # type: ignore[call-arg]
        many=True, allow_empty=False, max_length=MAX_FRAMES
    )

    def scores(self) -> dict[int, tuple[int, int]]:
        return {
            f["number"]: (f["home_score"], f["away_score"]) for f in self.validated_data["frames"]
        }


class DisputeInputSerializer(serializers.Serializer):
    side = side_field()
    reason = serializers.CharField(max_length=2000)


class SettleInputSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(
        choices=[("accept", "Accept the result as it stands"), ("correct", "Correct frame scores")]
    )
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    frames = FrameScoreInputSerializer(  # type: ignore[call-arg]  # max_length: as above
        many=True, required=False, default=list, max_length=MAX_FRAMES
    )

    def scores(self) -> dict[int, tuple[int, int]]:
        return {
            f["number"]: (f["home_score"], f["away_score"]) for f in self.validated_data["frames"]
        }


class IneligibleDecisionSerializer(serializers.Serializer):
    action = serializers.CharField(help_text="forfeit_applied or forfeit_waived")
    note = serializers.CharField()
    at = serializers.DateTimeField()


class IneligibleFrameSerializer(serializers.Serializer):
    """A frame played by an ineligible player, flagged at sign-off."""

    frame = serializers.IntegerField()
    side = serializers.CharField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    rule = serializers.CharField(help_text="The rule's stable code (leagues.eligibility.RULES).")
    rule_name = serializers.CharField(help_text="The rule in the handbook's words.")
    message = serializers.CharField()
    penalty = serializers.CharField()
    decision = IneligibleDecisionSerializer(allow_null=True)


class IneligibleDecideInputSerializer(serializers.Serializer):
    frame = serializers.IntegerField(min_value=1, max_value=99)
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())
    decision = serializers.ChoiceField(
        choices=[("forfeit", "Apply the forfeit"), ("waive", "Waive it")]
    )
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
