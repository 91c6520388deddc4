"""Input and output shapes of the referee pad's API.

The write path builds its answers as plain dicts (frames.events.event_answer), so a shot
does not pay for serializer machinery twice; the output serializers here describe those
bodies in the OpenAPI schema and are checked against real answers in the tests.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from frames.models import FrameEvent


# A pattern, not an enum: drf-spectacular names every enum after its field, and "kind" is
# already the registrations' enum (an ENUM_NAME_OVERRIDES entry in settings would allow one).
@extend_schema_field(
    {
        "type": "string",
        "pattern": "^(" + "|".join(FrameEvent.Kind.values) + ")$",
        "description": "'event' (a game event) or 'undo'",
    }
)
class EventKindField(serializers.ChoiceField):
    """'event' or 'undo'."""

    def __init__(self, **kwargs):
        super().__init__(choices=FrameEvent.Kind.choices, **kwargs)


class EventInSerializer(serializers.Serializer):
    event_id = serializers.UUIDField(help_text="Made by the device, once per event (UUID).")
    expected_seq = serializers.IntegerField(
        min_value=1, help_text="The sequence number this event expects to take (last_seq + 1)."
    )
    kind = EventKindField(
        default=FrameEvent.Kind.EVENT,
        help_text="'event' (a game event, in `payload`) or 'undo' (no payload).",
    )
    payload = serializers.JSONField(
        default=dict, help_text='The game event, e.g. {"type": "shot", "pots": [...]}.'
    )
    device_id = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="Which device entered it (the pad's own id).",
    )

    def validate_payload(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("The payload must be a JSON object.")
        return value


class ConfirmInSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        min_value=0, help_text="The sequence number of the result the referee saw."
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    event_id = serializers.UUIDField()
    kind = EventKindField()
    payload = serializers.JSONField()
    top_before = serializers.IntegerField()
    top_after = serializers.IntegerField()
    last = serializers.JSONField(
        allow_null=True, help_text="What the event did, when the game says."
    )
    entered_by = serializers.CharField(allow_null=True)
    device_id = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class EventAnswerSerializer(serializers.Serializer):
    frame = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The sequence number the event took.")
    event_id = serializers.UUIDField()
    kind = EventKindField()
    payload = serializers.JSONField()
    top_seq = serializers.IntegerField(help_text="The event whose state is current (0: initial).")
    view = serializers.JSONField(help_text="The game's public state after this event.")
    entered_by = serializers.CharField(allow_null=True)
    device_id = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    replayed = serializers.BooleanField(help_text="true: already stored; nothing new was written.")


class HeadSerializer(serializers.Serializer):
    frame = serializers.IntegerField()
    status = serializers.CharField()
    last_seq = serializers.IntegerField()
    top_seq = serializers.IntegerField()
    view = serializers.JSONField()


class ConflictSerializer(HeadSerializer):
    error = serializers.CharField(help_text="seq_conflict")
    message = serializers.CharField()
    expected_seq = serializers.IntegerField()
    events = EventSerializer(many=True, help_text="The events the device is missing.")


class RefusalSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="The rules engine's code, or a request error.")
    message = serializers.CharField()
    seq = serializers.IntegerField(required=False)
    index = serializers.IntegerField(required=False)


class ReusedSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="event_id_reused")
    message = serializers.CharField()
    frame = serializers.IntegerField()
    seq = serializers.IntegerField()


class SideSerializer(serializers.Serializer):
    team = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())


class FrameStateSerializer(HeadSerializer):
    match = serializers.IntegerField(allow_null=True, help_text="None for a friendly game.")
    number = serializers.IntegerField()
    kind = serializers.CharField()
    game_id = serializers.CharField()
    referee = serializers.CharField(allow_null=True)
    sides = serializers.DictField(child=SideSerializer())
    recent = EventSerializer(many=True)
    confirmed = serializers.BooleanField()
    result = serializers.JSONField()
    can_enter = serializers.BooleanField()
    sealed = serializers.ListField(
        child=serializers.CharField(),
        help_text="Setup options drawn by the service (the private small balls) that no one "
        "is shown until the game is over; while any is sealed the answer's setup leaves "
        "them out and carries no engine dump.",
    )


class EventListSerializer(HeadSerializer):
    events = EventSerializer(many=True)


class LiveFrameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    order = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    players = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    referee = serializers.CharField(allow_null=True)
    scores = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    at_table = serializers.CharField(allow_null=True)
    player = serializers.CharField(allow_null=True)
    next = serializers.CharField(allow_null=True)
    over = serializers.BooleanField()
    winner = serializers.CharField(allow_blank=True)
    shared = serializers.BooleanField()
    last_seq = serializers.IntegerField()
    pad = serializers.CharField(help_text="The frame's pad (to watch it shot by shot).")

    def get_fields(self):
        fields = super().get_fields()
        fields["break"] = serializers.IntegerField(help_text="The running break.")  # a keyword
        return fields


class LiveSideSerializer(serializers.Serializer):
    team = serializers.CharField()
    score = serializers.IntegerField()


class MatchLiveSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    frames_display = serializers.CharField(help_text="Frames won, e.g. 4½–3½.")
    home = LiveSideSerializer()
    away = LiveSideSerializer()
    frames = LiveFrameSerializer(many=True)


class PadSessionSerializer(serializers.Serializer):
    authenticated = serializers.BooleanField()
    username = serializers.CharField(allow_null=True)
    csrf_token = serializers.CharField(help_text="Send it as X-CSRFToken on the next POST.")
