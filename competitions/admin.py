"""The secretary's fallback for what the API does not cover yet: competitions, entries,
rounds and ties in the admin (writes through the API and services are preferred)."""

from django.contrib import admin

from marker.commit_reveal import sealed_label

from .models import Competition, CompetitionLog, Entry, Group, Round, Tie


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["team", "player", "partner", "status", "paid", "start"]
    readonly_fields = ["paid"]  # a reading of the ledger (money)
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
        "secretary_secret_sealed",
        "server_secret_sealed",
        "seed",
        "knockout_secretary_commitment",
        "knockout_server_commitment",
        "knockout_secretary_secret_sealed",
        "knockout_server_secret_sealed",
        "knockout_seed",
        "algorithm",
        "draw_record",
        "drawn_at",
        "winner",
        "runner_up",
        "finished_at",
    ]
    # The draw's secrets are shown to nobody, superusers included, before their draw
    # (marker/commit_reveal.py): with them one could replay the draw offline and
    # re-commit until it suited them.
    exclude = [
        "secretary_secret",
        "server_secret",
        "knockout_secretary_secret",
        "knockout_server_secret",
    ]
    inlines = [EntryInline, RoundInline]

    @admin.display(description="secretary's secret")
    def secretary_secret_sealed(self, competition: Competition) -> str:
        return sealed_label(competition.secretary_secret, drawn=competition.seed is not None)

    @admin.display(description="server's secret")
    def server_secret_sealed(self, competition: Competition) -> str:
        return sealed_label(competition.server_secret, drawn=competition.seed is not None)

    @admin.display(description="knock-out: secretary's secret")
    def knockout_secretary_secret_sealed(self, competition: Competition) -> str:
        return sealed_label(
            competition.knockout_secretary_secret, drawn=competition.knockout_seed is not None
        )

    @admin.display(description="knock-out: server's secret")
    def knockout_server_secret_sealed(self, competition: Competition) -> str:
        return sealed_label(
            competition.knockout_server_secret, drawn=competition.knockout_seed is not None
        )


@admin.register(Tie)
class TieAdmin(admin.ModelAdmin):
    list_display = ["__str__", "competition", "round", "group", "slot", "status"]
    list_filter = ["status"]
    readonly_fields = ["winner", "status", "fixture", "decided_by", "decided_at"]


admin.site.register(Group)
admin.site.register(CompetitionLog)
