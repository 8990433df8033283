"""Staff pages for the collection: attributes, cards (with a live breakdown) and combos.

Saving a card, an attribute or a combo re-derives exactly the cards it can change
(cards.signals → cards.services), so the stored rarity shown in the lists is the
engine's answer right after the save.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tasks import TaskResultStatus
from modeltranslation.admin import TabbedTranslationAdmin

from core.admin import TranslationTabsMedia
from core.labels import label, label_of, rule_label, template_label
from engine.card.rarity import format_score, tier_of
from engine.data import TIER_BANDS
from engine.types import Slot

from .forms import parse_token
from .market import MarketImportError, check, rows_as_data
from .models import (
    EQUIPPED_FIELDS,
    Attribute,
    Card,
    CardChange,
    Combo,
    RankRecord,
    RulesVersion,
    SupplyRecord,
)
from .specs import DERIVED_FIELDS, derive_card
from .tasks import market_import_task

# The engine-derived columns staff may read but never edit (the rank is rarity's sort key).
STORED_FIELDS = tuple(f for f in DERIVED_FIELDS if f != "rarity_rank")


class SupplyFilter(admin.SimpleListFilter):
    """Supply ranges: the tiers of docs/rules.md §1 (from the engine) and the supply-count cut."""

    title = _("supply")
    parameter_name = "supply_range"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("one", _("1 of 1")),
            ("le3", _("3 or fewer (supply count rule)")),
            *((band.tier.value, _band_label(band)) for band in TIER_BANDS),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value == "one":
            return queryset.filter(supply=1)
        if value == "le3":
            return queryset.filter(supply__lte=3)
        low = 1
        for band in TIER_BANDS_ASCENDING:
            if band.tier.value == value:
                if band.max_supply is None:
                    return queryset.filter(supply__gte=low)
                return queryset.filter(supply__gte=low, supply__lte=band.max_supply)
            low = (band.max_supply or 0) + 1
        return queryset


TIER_BANDS_ASCENDING = tuple(sorted(TIER_BANDS, key=lambda b: b.max_supply or 10**9))


def _band_label(band: Any) -> str:
    low = 1
    for other in TIER_BANDS_ASCENDING:
        if other is band:
            break
        low = (other.max_supply or 0) + 1
    name = label(band.tier)
    if band.max_supply is None:
        return _("%(tier)s tier (%(low)d or more)") % {"tier": name, "low": low}
    return _("%(tier)s tier (%(low)d–%(high)d)") % {
        "tier": name,
        "low": low,
        "high": band.max_supply,
    }


@admin.register(Attribute)
class AttributeAdmin(admin.ModelAdmin):
    list_display = ("name", "slot", "supply", "tier", "kind")
    list_filter = ("slot", "kind", SupplyFilter)
    search_fields = ("name",)
    ordering = ("slot", "name")
    list_per_page = 100
    show_full_result_count = False
    fields = ("slot", "name", "supply", "kind", "tier", "owners_count", "combo_names")
    readonly_fields = ("tier", "owners_count", "combo_names")

    @admin.display(description=_("tier"))
    def tier(self, obj: Attribute) -> str:
        if obj is None or obj.supply is None:
            return ""
        return label(tier_of(obj.supply))

    @admin.display(description=_("owned by (cards)"))
    def owners_count(self, obj: Attribute) -> int:
        return obj.owners.count() if obj.pk else 0

    @admin.display(description=_("combos"))
    def combo_names(self, obj: Attribute) -> str:
        return ", ".join(c.name for c in obj.combos.all()) if obj.pk else ""

    def get_readonly_fields(self, request: HttpRequest, obj: Attribute | None = None):
        # The id encodes the slot (cards.models): an existing attribute keeps its slot.
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "slot"] if obj is not None else fields


class CardAdminForm(forms.ModelForm):
    class Meta:
        model = Card
        fields = (
            "token",
            "name",
            "starter",
            *EQUIPPED_FIELDS,
            "wardrobe",
            "getgems_rank",
            "burned_stickers",
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for slot in EQUIPPED_FIELDS:
            attribute = data.get(slot)
            if attribute is not None and attribute.slot != slot:
                self.add_error(
                    slot,
                    _("%(name)s is a %(slot)s attribute.")
                    % {"name": attribute.name, "slot": attribute.get_slot_display()},
                )
        return data


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    list_display = (
        "token",
        "name",
        "rarity",
        "role",
        "skill_affinity",
        "active_skill",
        "energy_cost",
        "atk",
        "hp",
        "wardrobe_score",
        "getgems_rank",
        "burned_stickers",
        "starter",
    )
    list_display_links = ("token", "name")
    list_filter = ("rarity", "role", "skill_affinity", "active_skill", "energy_cost", "starter")
    search_fields = ("name", "=token")
    ordering = ("token",)
    list_per_page = 100
    show_full_result_count = False
    autocomplete_fields = ("head", "body", "paw", "background", "wardrobe")
    fieldsets = (
        (None, {"fields": ("token", "name", "starter")}),
        (_("Equipped"), {"fields": EQUIPPED_FIELDS}),
        (_("Wardrobe"), {"fields": ("wardrobe",)}),
        (_("Marketplace and stickers"), {"fields": ("getgems_rank", "burned_stickers")}),
        (_("Live breakdown"), {"fields": ("breakdown",)}),
        (
            _("Stored for lists (derived on save)"),
            {
                "classes": ("collapse",),
                "fields": STORED_FIELDS,
            },
        ),
    )
    readonly_fields = ("breakdown", *STORED_FIELDS)

    def get_readonly_fields(self, request: HttpRequest, obj: Card | None = None):
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "token"] if obj is not None else fields

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        # "=token" on a word that is not a number would make a bad lookup: search names only.
        token = parse_token(search_term)
        if token is not None:
            term = search_term.strip().lstrip("#")
            return queryset.filter(Q(token=token) | Q(name__icontains=term)), False
        return queryset.filter(name__icontains=search_term.strip()), False

    @admin.display(description=_("computed now by the rules engine"))
    def breakdown(self, obj: Card) -> str:
        if obj is None or obj.pk is None:
            return _("Shown after the first save.")
        b = derive_card(obj)
        return render_to_string(
            "admin/cards/card/breakdown_summary.html",
            {
                "b": b,
                "rarity": label(b.rarity),
                "decided_by": [rule_label(k) for k in b.decided_by],
                "rules": [(rule_label(r.key), label(r.rarity)) for r in b.rules],
                "role": label(b.role),
                "skill": label(b.skill_affinity),
                "active": label(b.active_skill) if b.active_skill else None,
                "template": template_label(b.template),
                "score": format_score(b.wardrobe_score) if b.wardrobe_score is not None else None,
                "next": label(b.next_tier.target) if b.next_tier else None,
                "stale": obj.rarity != b.rarity.value,
            },
        )

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        card = Card.objects.get(pk=form.instance.pk)
        self.message_user(
            request,
            _("%(card)s derived again: %(rarity)s, %(role)s, energy %(energy)d.")
            % {
                "card": card,
                "rarity": card.get_rarity_display(),
                "role": card.get_role_display(),
                "energy": card.energy_cost,
            },
            messages.INFO,
        )


class ComboAdminForm(forms.ModelForm):
    class Meta:
        model = Combo
        fields = ("name", "attributes", "rarity")

    def clean_attributes(self) -> Any:
        attributes = self.cleaned_data["attributes"]
        slots = [a.slot for a in attributes]
        doubled = sorted({s for s in slots if slots.count(s) > 1})
        if doubled:
            raise forms.ValidationError(
                _("A combo has at most one attribute per slot; this one has two in: %(slots)s.")
                % {"slots": ", ".join(label_of(Slot, s) for s in doubled)}
            )
        return attributes


@admin.register(Combo)
class ComboAdmin(TranslationTabsMedia, TabbedTranslationAdmin):
    form = ComboAdminForm
    list_display = ("name", "rarity", "attribute_list", "wearers")
    list_filter = ("rarity",)
    search_fields = ("name_en", "name_ru")
    autocomplete_fields = ("attributes",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("attributes")

    @admin.display(description=_("attributes"))
    def attribute_list(self, obj: Combo) -> str:
        return ", ".join(f"{a.name} ({a.get_slot_display()})" for a in obj.attributes.all())

    @admin.display(description=_("cards wearing it"))
    def wearers(self, obj: Combo) -> int:
        attributes = list(obj.attributes.all())
        if not attributes:
            return 0
        return Card.objects.filter(**{f"{a.slot}_id": a.id for a in attributes}).count()


# ---------------------------------------------------------------------------
# Market data by day, rules versions and recorded changes


class MarketImportForm(forms.Form):
    file = forms.FileField(
        label=_("Market data file"),
        help_text=_(
            "A JSON list of rows, or CSV with the columns "
            "date,slot,attribute,card,supply,getgems_rank."
        ),
    )


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SupplyRecord)
class SupplyRecordAdmin(_ReadOnly):
    """Supply by day; "Import market data" reads a file as ``manage.py import_market``."""

    list_display = ("attribute", "date", "supply")
    list_select_related = ("attribute",)
    date_hierarchy = "date"
    search_fields = ("attribute__name",)
    change_list_template = "admin/cards/market_change_list.html"

    def get_urls(self):
        view = self.admin_site.admin_view(self.import_view)
        return [path("import/", view, name="cards_market_import"), *super().get_urls()]

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a market data file: every row checked here, then written (all or none)
        by a job (``cards.tasks.market_import_task``) that staff can follow."""
        if not self.has_view_permission(request) or not request.user.has_perm(
            "cards.change_attribute"
        ):
            return HttpResponse(status=403)
        form = MarketImportForm(request.POST or None, request.FILES or None)
        problems: list[str] = []
        if request.method == "POST" and form.is_valid():
            try:
                supplies, ranks = check(form.cleaned_data["file"].read())
            except MarketImportError as failure:
                problems = [str(p) for p in failure.problems[:200]]
            else:
                queued = market_import_task.enqueue(rows=rows_as_data(supplies, ranks))
                _tell_market_import(request, queued, len(supplies) + len(ranks))
                return redirect("admin:cards_supplyrecord_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Import market data"),
            "form": form,
            "problems": problems,
        }
        return render(
            request, "admin/cards/market_import.html", context, status=400 if problems else 200
        )


def _tell_market_import(request: HttpRequest, queued: Any, rows: int) -> None:
    """Say what became of the import job: done already (a backend that runs jobs at
    once), failed, or queued for a worker, with a link to its result in the admin."""
    if queued.status == TaskResultStatus.SUCCESSFUL:
        result = queued.return_value
        messages.success(
            request,
            _("%(rows)d rows imported; %(changes)d card changes recorded.")
            % {"rows": rows, "changes": result["changes"]},
        )
    elif queued.status == TaskResultStatus.FAILED:
        messages.error(request, _("The market import failed; nothing was imported."))
    else:
        url = reverse("admin:django_tasks_database_dbtaskresult_change", args=[queued.id])
        messages.success(
            request,
            format_html(
                '{} <a href="{}">{}</a>',
                _("The market import (%(rows)d rows) is queued for a worker.") % {"rows": rows},
                url,
                _("Its progress and result"),
            ),
        )


@admin.register(RankRecord)
class RankRecordAdmin(_ReadOnly):
    list_display = ("card", "date", "getgems_rank")
    list_select_related = ("card",)
    date_hierarchy = "date"
    search_fields = ("=card__token",)


@admin.register(RulesVersion)
class RulesVersionAdmin(_ReadOnly):
    list_display = ("version", "deployed_at")


@admin.register(CardChange)
class CardChangeAdmin(_ReadOnly):
    list_display = ("card", "date", "field", "before", "after", "tier_change")
    list_filter = ("field", "tier_change")
    list_select_related = ("card",)
    date_hierarchy = "date"
    search_fields = ("=card__token",)
