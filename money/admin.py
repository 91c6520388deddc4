"""The ledger in the admin: read-only (an entry is never edited or deleted; the pages
and the API reverse it)."""

from django.contrib import admin

from .models import FeeSchedule, LedgerEntry


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "season", "team", "player", "kind", "amount", "description"]
    list_filter = ["kind", "method"]
    search_fields = ["description", "reference"]
    list_select_related = ["season", "team", "player"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(FeeSchedule)
class FeeScheduleAdmin(admin.ModelAdmin):
    list_display = ["season", "team_fee", "player_sub", "table_money", "postponement_fine"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
