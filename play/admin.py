from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import BalanceReport, Match


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("public_id", "status", "rounds", "end_reason", "created_at", "updated_at")
    list_filter = ("status", "end_reason")
    search_fields = ("public_id",)
    readonly_fields = [f.name for f in Match._meta.fields]
    date_hierarchy = "created_at"

    @admin.display(description=_("actions"))
    def action_count(self, obj: Match) -> int:
        return len(obj.actions)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(BalanceReport)
class BalanceReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "matches", "seed", "deck_size", "bots", "cards", "seconds")
    readonly_fields = [f.name for f in BalanceReport._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
