"""Admin for slabs and their dated values (staff fix the daily feed here, or import a
whole values file: the same all-or-nothing checks as ``manage.py import_slab_values``),
and read-only views of matches and balance reports. Values are shown as money."""

from __future__ import annotations

from dataclasses import asdict

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _now
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from core.admin import UniqueRaceAdmin
from core.labels import label
from engine.arena.slabs import element_of

from . import importing, services
from .formatting import money
from .forms import ValuesFileForm
from .models import ArenaBalanceReport, ArenaMatch, Slab, SlabValue

MAX_SHOWN = 200  # problems listed on the import form (the count says how many in all)


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
    def latest_value(self, obj: Slab) -> str:
        return money(obj.latest_value)  # type: ignore[attr-defined]

    @admin.display(description=_("element"))
    def element(self, obj: Slab) -> str:
        return label(element_of(obj.asset_id))


@admin.register(SlabValue)
class SlabValueAdmin(UniqueRaceAdmin, admin.ModelAdmin):
    list_display = ["slab", "date", "amount"]
    list_filter = ["date"]
    search_fields = ["slab__asset_id", "slab__name"]
    date_hierarchy = "date"
    autocomplete_fields = ["slab"]
    list_select_related = ["slab"]

    @admin.display(description=_("value (USD)"), ordering="value")
    def amount(self, obj: SlabValue) -> str:
        return money(obj.value)

    def get_urls(self):
        name = f"{self.opts.app_label}_{self.opts.model_name}_import"
        view = self.admin_site.admin_view(self.import_view)
        return [path("import/", view, name=name), *super().get_urls()]

    def may_import(self, request: HttpRequest) -> bool:
        """An import creates and changes values: staff who may do both."""
        return self.has_add_permission(request) and self.has_change_permission(request)

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        extra = {"may_import": self.may_import(request), **(extra_context or {})}
        return super().changelist_view(request, extra)

    @method_decorator(require_http_methods(["GET", "HEAD", "POST"]))
    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Import a values file: every row checked first (``services.import_feed``); any
        problem and nothing is stored, each one listed by row, column and why."""
        if not self.may_import(request):
            raise PermissionDenied
        post = request.method == "POST"
        form = ValuesFileForm(request.POST, request.FILES) if post else ValuesFileForm()
        if post and form.is_valid():
            try:
                result = services.import_feed(form.cleaned_data["file"])
            except importing.FeedError as exc:
                form.refuse(exc.problems)
            else:
                messages.success(
                    request,
                    _now(
                        "%(rows)s rows: %(created)s created, %(updated)s updated, "
                        "%(unchanged)s unchanged."
                    )
                    % asdict(result),
                )
                return HttpResponseRedirect(reverse("admin:arena_slabvalue_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Import a values file"),
            "form": form,
            "problems": form.problems[:MAX_SHOWN],
            "more": max(0, len(form.problems) - MAX_SHOWN),
        }
        status = 400 if form.is_bound and not form.is_valid() else 200
        template = "admin/arena/slabvalue/import.html"
        return TemplateResponse(request, template, context, status=status)


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
