from django.contrib import admin

from frames.engine import frame_sealed
from leagues.admin import ReadOnlyAdmin
from marker.commit_reveal import sealed_label

from .models import CardPhoto, Frame, FramePlayer, Match, MatchLog, PlayerFrameStat, Presence
from .results import frame_result_recorded


class PresenceInline(admin.TabularInline):
    model = Presence
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["marked_by", "marked_at"]


class MatchLogInline(admin.TabularInline):
    """The night's log is a record: read it here, change it never."""

    model = MatchLog
    extra = 0
    can_delete = False
    readonly_fields = ["at", "actor", "action", "detail"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["fixture", "status", "home_frames", "away_frames", "drawn_at", "confirmed_at"]
    list_filter = ["status"]
    search_fields = ["fixture__home__name", "fixture__away__name"]
    raw_id_fields = ["fixture"]
    # Results change through the match-night services (settle, paper scores), never here.
    readonly_fields = [
        "fixture",
        "status",
        "game_id",
        "seed",
        "algorithm",
        "home_hat",
        "away_hat",
        "draw_notes",
        "home_commitment",
        "away_commitment",
        "server_commitment",
        "home_secret_sealed",
        "away_secret_sealed",
        "server_secret_sealed",
        "drawn_at",
        "home_frames",
        "away_frames",
        "home_score",
        "away_score",
        "completed_at",
        "home_confirmed_by",
        "home_confirmed_at",
        "away_confirmed_by",
        "away_confirmed_at",
        "confirmed_at",
        "disputed_by",
        "dispute_reason",
        "disputed_at",
    ]
    # The secrets behind the draw's seed are shown to nobody, staff included, before the
    # draw (docs/draw.md): with them a helper could grind a captain's secret to a chosen
    # seed. After the draw they are public, on the match page too.
    exclude = ["home_secret", "away_secret", "server_secret"]
    inlines = [PresenceInline, MatchLogInline]

    @staticmethod
    def _sealed(match: Match, side: str) -> str:
        return sealed_label(getattr(match, f"{side}_secret"), drawn=match.seed is not None)

    @admin.display(description="home secret")
    def home_secret_sealed(self, match: Match) -> str:
        return self._sealed(match, "home")

    @admin.display(description="away secret")
    def away_secret_sealed(self, match: Match) -> str:
        return self._sealed(match, "away")

    @admin.display(description="server secret")
    def server_secret_sealed(self, match: Match) -> str:
        return self._sealed(match, "server")


class FramePlayerInline(admin.TabularInline):
    model = FramePlayer
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Frame)
class FrameAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "order", "kind", "status", "home_score", "away_score"]
    list_filter = ["status", "kind", "result_source"]
    raw_id_fields = ["match", "referee"]
    inlines = [FramePlayerInline]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # A result edited here is followed like any other: statistics and ratings, on commit.
        frame_result_recorded(form.instance.pk)

    def get_exclude(self, request, obj=None):
        # The private small balls a service drew are in the setup and the engine's
        # state: shown to no one, a superuser included, until the game is over.
        hidden = ["setup", "state"] if obj is not None and frame_sealed(obj) else []
        return [*(super().get_exclude(request, obj) or ()), *hidden]


@admin.register(MatchLog)
class MatchLogAdmin(admin.ModelAdmin):
    list_display = ["at", "match", "action", "actor"]
    list_filter = ["action"]
    readonly_fields = ["match", "actor", "action", "detail", "at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerFrameStat)
class PlayerFrameStatAdmin(ReadOnlyAdmin):
    list_display = ["player", "fixture", "frame_number", "won", "score", "game_id"]
    list_filter = ["season"]
    raw_id_fields = ["player", "fixture", "team"]


@admin.register(CardPhoto)
class CardPhotoAdmin(admin.ModelAdmin):
    """Photos of signed cards: the record of who added which, read-only (the image is seen
    from the match page, through the permission check, docs/paper-card.md)."""

    list_display = ["match", "uploaded_at", "uploaded_by", "width", "height", "size"]
    # Not the files: a storage's URL (S3: a signed link) would bypass the view's check.
    fields = (
        "match",
        "width",
        "height",
        "size",
        "uploaded_by",
        "uploaded_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False
