from django.contrib import admin

from .models import Division, Fixture, Invitation, League, Player, Registration, Season, Team, Venue


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game_id", "match_night", "confirm_after_hours"]
    prepopulated_fields = {"slug": ["name"]}


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
    list_display = ["email", "team", "created_at", "sent_at", "accepted_at"]
