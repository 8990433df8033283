"""The booster admin: pools with a card picker and a live odds preview; openings and
power measurements, read-only.

The picker is Django's autocomplete over the cards (type a name or a token). Saving a
pool with a Free card, or with a card listed twice, is refused with a message naming
the cards (``packs.forms.PoolAdminForm``). Under the cards, the exact odds of one pack
are shown for the saved pool, and recomputed as cards are added or the pack size
changes (``static/js/packs_admin.js`` posts them to ``odds-preview/``; without JavaScript the
preview follows each save). With them, live, the power promise of the cards picked (from
the latest measurement) and, when it is broken, the fewest removals found that keep it
(``packs.promise``).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from cards.models import Card, Rarity
from core.admin import TranslationTabsMedia, UniqueRaceAdmin
from core.forms import AsciiIntegerField, ModelMultipleChoiceField
from engine.packs import PACK_SIZE_MAX, PACK_SIZE_MIN, PackCandidate, offer_odds, power_report

from . import presenters, selectors
from .forms import PoolAdminForm
from .models import DaySeed, OddsVersion, Opening, Pool, PowerRun
from .promise import removals


class PreviewForm(forms.Form):
    cards = ModelMultipleChoiceField(Card.objects.all(), required=False)
    pack_size = AsciiIntegerField(min_value=PACK_SIZE_MIN, max_value=PACK_SIZE_MAX)


def odds_preview_html(cards: list[Card], pack_size: int) -> str:
    """The preview table: one pack's exact odds per tier for these cards."""
    free = [str(c) for c in cards if c.starter or c.rarity == Rarity.FREE]
    drawable = [c for c in cards if not (c.starter or c.rarity == Rarity.FREE)]
    odds = offer_odds(
        [PackCandidate(c.token, c.rarity) for c in sorted(drawable, key=lambda c: c.token)],
        pack_size,
    )
    return render_to_string(
        "packs/admin/odds_preview.html",
        {
            "tiers": presenters.tier_rows(odds),
            "cards": len(drawable),
            "picks": odds.picks,
            "pack_size": pack_size,
            "free": free,
            **promise_preview(drawable),
        },
    )


def promise_preview(cards: list[Card]) -> dict:
    """The power promise of these cards (latest measurement), and the removals proposed."""
    run = selectors.latest_power_run()
    if run is None or not cards:
        return {"power": None}
    powers = selectors.card_powers(run, [c.id for c in cards])
    if not powers:
        return {"power": None}
    report = power_report(powers.values())
    proposed = removals(powers.values()) if not report.kept else ()
    names = {str(c.token): str(c) for c in cards}
    return {
        "power": presenters.power_view(run, report, True),
        "proposed": [names.get(card_id, card_id) for card_id in proposed or ()],
        "no_fix": proposed is None,
    }


@admin.register(Pool)
class PoolAdmin(UniqueRaceAdmin, TranslationTabsMedia, TabbedTranslationAdmin):
    form = PoolAdminForm
    extra_js = ("js/packs_admin.js",)
    list_display = ("name", "slug", "pack_size", "card_count", "position", "updated_at")
    list_display_links = ("name", "slug")
    search_fields = ("slug", "name_en", "name_ru")
    ordering = ("position", "slug")
    autocomplete_fields = ("cards",)
    readonly_fields = ("odds_preview", "view_on_site_link")
    fieldsets = (
        (None, {"fields": ("name", "slug", "description", "position", "view_on_site_link")}),
        (_("Pack"), {"fields": ("pack_size", "cards", "odds_preview")}),
    )

    def get_prepopulated_fields(self, request: HttpRequest, obj: Pool | None = None):
        return {} if obj is not None else {"slug": ("name_en",)}

    def get_queryset(self, request: HttpRequest):
        from django.db.models import Count

        return super().get_queryset(request).annotate(n_cards=Count("cards"))

    @admin.display(description=_("cards"), ordering="n_cards")
    def card_count(self, obj: Pool) -> int:
        return getattr(obj, "n_cards", 0)

    @admin.display(description=_("on the site"))
    def view_on_site_link(self, obj: Pool | None) -> str:
        if obj is None or obj.pk is None:
            return "—"
        return format_html('<a href="{0}">{0}</a>', obj.get_absolute_url())

    @admin.display(description=_("odds of one pack"))
    def odds_preview(self, obj: Pool | None) -> str:
        cards = list(obj.cards.all()) if obj is not None and obj.pk else []
        pack_size = (
            obj.pack_size
            if obj is not None and obj.pk
            else Pool._meta.get_field("pack_size").default
        )
        return format_html(
            '<div id="pool-odds-preview" data-preview-url="{}" aria-live="polite">{}</div>',
            reverse("admin:packs_pool_odds_preview"),
            odds_preview_html(cards, pack_size),
        )

    def get_urls(self):
        preview = path(
            "odds-preview/",
            self.admin_site.admin_view(self.odds_preview_view),
            name="packs_pool_odds_preview",
        )
        return [preview, *super().get_urls()]

    def odds_preview_view(self, request: HttpRequest) -> HttpResponse:
        """The preview for the cards and pack size being edited (staff only)."""
        if request.method != "POST":
            return HttpResponse(status=405, headers={"Allow": "POST"})
        if not self.has_view_or_change_permission(request):
            return HttpResponse(status=403)
        form = PreviewForm(request.POST)
        if not form.is_valid():
            return HttpResponse(
                render_to_string("packs/admin/odds_preview_error.html", {"form": form}),
                status=400,
            )
        return HttpResponse(
            odds_preview_html(list(form.cleaned_data["cards"]), form.cleaned_data["pack_size"])
        )


@admin.register(Opening)
class OpeningAdmin(admin.ModelAdmin):
    list_display = ("public_id", "pool_slug", "day", "nonce", "pack_size", "picks", "created_at")
    list_filter = ("pool_slug",)
    search_fields = ("=public_id", "pool_slug")
    readonly_fields = [f.name for f in Opening._meta.fields]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Opening | None = None) -> bool:
        return False


@admin.register(DaySeed)
class DaySeedAdmin(admin.ModelAdmin):
    """The days' commitments; a day's seed is shown only once the day has ended."""

    list_display = ("day", "commitment", "created_at")
    fields = ("day", "commitment", "revealed_seed", "created_at")
    readonly_fields = fields

    @admin.display(description=_("server seed"))
    def revealed_seed(self, obj: DaySeed) -> str:
        return obj.seed if selectors.is_revealed(obj.day) else "—"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: DaySeed | None = None) -> bool:
        return False


@admin.register(OddsVersion)
class OddsVersionAdmin(admin.ModelAdmin):
    list_display = ("key", "pack_size", "changes", "created_at")
    search_fields = ("key",)
    readonly_fields = [f.name for f in OddsVersion._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: OddsVersion | None = None) -> bool:
        return False


@admin.register(PowerRun)
class PowerRunAdmin(admin.ModelAdmin):
    list_display = ("created_at", "matches", "per_tier", "games_per_side", "bots", "seconds")
    readonly_fields = [f.name for f in PowerRun._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PowerRun | None = None) -> bool:
        return False
