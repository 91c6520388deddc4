"""The secretary's fallback for what the API does not cover yet: competitions, entries,
rounds and ties in the admin (writes through the API and services are preferred)."""

from django.contrib import admin

from .models import Competition, CompetitionLog, Entry, Group, Round, Tie


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["team", "player", "partner", "status", "paid", "start"]
    raw_id_fields = ["team", "player", "partner"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "name", "date", "deadline", "best_of"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "kind", "stage", "entry_mode", "entries_close_at"]
    list_filter = ["kind", "stage"]
    readonly_fields = [
        "secretary_commitment",
        "server_commitment",
        "secretary_secret",
        "server_secret",
        "seed",
        "knockout_seed",
        "algorithm",
        "draw_record",
        "drawn_at",
        "winner",
        "runner_up",
        "finished_at",
    ]
    inlines = [EntryInline, RoundInline]


@admin.register(Tie)
class TieAdmin(admin.ModelAdmin):
    list_display = ["__str__", "competition", "round", "group", "slot", "status"]
    list_filter = ["status"]
    readonly_fields = ["winner", "status", "fixture", "decided_by", "decided_at"]


admin.site.register(Group)
admin.site.register(CompetitionLog)
