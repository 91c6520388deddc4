from django.contrib import admin

from .models import (
    Division,
    Fixture,
    Invitation,
    League,
    LeagueRole,
    Organisation,
    OrganisationRole,
    Player,
    PointDeduction,
    Publication,
    Registration,
    Season,
    SentNotification,
    Subscription,
    TableSnapshot,
    Team,
    Venue,
)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game_id", "match_night", "confirm_after_hours"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "kind"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["leagues"]


@admin.register(OrganisationRole)
class OrganisationRoleAdmin(admin.ModelAdmin):
    list_display = ["organisation", "user", "role", "created_at"]
    raw_id_fields = ["user"]


@admin.register(LeagueRole)
class LeagueRoleAdmin(admin.ModelAdmin):
    list_display = ["league", "user", "role", "created_at"]
    list_filter = ["league", "role"]
    raw_id_fields = ["user"]
    search_fields = ["user__username", "user__email", "league__name"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "status", "start_date"]
    list_filter = ["league", "status"]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "rank"]


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "tables"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "division", "venue", "captain", "vice_captain"]
    list_filter = ["season", "division"]
    raw_id_fields = ["captain", "vice_captain"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "user"]
    search_fields = ["name", "email"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "team", "season", "kind", "status", "first_played_at"]
    list_filter = ["season", "kind", "status"]


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "division", "date", "status", "home_frames", "away_frames"]
    list_filter = ["season", "division", "status"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = [
        "email",
        "kind",
        "team",
        "league",
        "role",
        "created_at",
        "sent_at",
        "accepted_at",
    ]
    list_filter = ["kind"]


# ----------------------------------------------------------------------------- tables


@admin.register(PointDeduction)
class PointDeductionAdmin(admin.ModelAdmin):
    list_display = ["team", "points", "reason", "by", "at"]
    list_filter = ["team__season"]
    raw_id_fields = ["team", "by"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Written by the publishing job or the statistics; never edited by hand."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Publication)
class PublicationAdmin(ReadOnlyAdmin):
    list_display = [
        "season",
        "as_of",
        "state",
        "progress",
        "attempts",
        "emails_sent",
        "finished_at",
    ]
    list_filter = ["state", "season"]
    exclude = ["csv", "printable_html"]


@admin.register(TableSnapshot)
class TableSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["division", "as_of", "publication"]
    list_filter = ["division__season"]
    exclude = ["html", "csv"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ["email", "league", "active", "created_at"]
    list_filter = ["league", "active"]
    exclude = ["token"]
    raw_id_fields = ["user"]


@admin.register(SentNotification)
class SentNotificationAdmin(ReadOnlyAdmin):
    list_display = ["kind", "recipient", "fixture", "publication", "sent_at"]
    list_filter = ["kind"]
