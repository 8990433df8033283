"""Admin for slabs and their dated values (staff fix the daily feed here), and read-only
views of matches and balance reports."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from core.admin import UniqueRaceAdmin
from core.labels import label
from engine.arena.slabs import element_of

from .models import ArenaBalanceReport, ArenaMatch, Slab, SlabValue


class SlabValueInline(admin.TabularInline):
    model = SlabValue
    extra = 1
    ordering = ["-date"]
    fields = ["date", "value"]


@admin.register(Slab)
class SlabAdmin(UniqueRaceAdmin, admin.ModelAdmin):
    list_display = ["asset_id", "name", "grade", "year", "latest_value", "element"]
    search_fields = ["asset_id", "name"]
    list_filter = ["grade"]
    inlines = [SlabValueInline]
    readonly_fields = ["created_at", "updated_at"]

    def get_queryset(self, request):
        latest = SlabValue.objects.filter(slab=OuterRef("pk")).order_by("-date")
        return (
            super()
            .get_queryset(request)
            .annotate(latest_value=Subquery(latest.values("value")[:1]))
        )

    @admin.display(description=_("latest value (USD)"), ordering="latest_value")
    def latest_value(self, obj: Slab):
        return obj.latest_value  # type: ignore[attr-defined]

    @admin.display(description=_("element"))
    def element(self, obj: Slab) -> str:
        return label(element_of(obj.asset_id))


@admin.register(SlabValue)
class SlabValueAdmin(UniqueRaceAdmin, admin.ModelAdmin):
    list_display = ["slab", "date", "value"]
    list_filter = ["date"]
    search_fields = ["slab__asset_id", "slab__name"]
    date_hierarchy = "date"
    autocomplete_fields = ["slab"]
    list_select_related = ["slab"]


@admin.register(ArenaMatch)
class ArenaMatchAdmin(admin.ModelAdmin):
    list_display = ["public_id", "bracket", "bot", "status", "end_reason", "turn", "updated_at"]
    list_filter = ["status", "bracket", "bot"]
    readonly_fields = [f.name for f in ArenaMatch._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ArenaBalanceReport)
class ArenaBalanceReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "games", "seed", "slabs", "seconds"]
    readonly_fields = [f.name for f in ArenaBalanceReport._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
