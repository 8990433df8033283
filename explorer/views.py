"""What players click: search the collection, open a card, ask what-if, compare, statistics."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from cards.models import Card
from cards.selectors import collection_stats
from cards.specs import card_spec
from core.cache import cached_page
from core.labels import enum_label
from engine.derive import derive
from engine.rarity import paths_to
from engine.types import CardSpec, Rarity, Slot
from wiki.anchors import RULE_SECTIONS, TOPIC_SECTIONS, rule_url

from . import narration, presenters
from .art import card_art
from .charts import bar_chart
from .query import FIELDS, SORTS, QueryError, describe, describe_sort, parse
from .selectors import (
    SUPPLY_BUCKETS,
    attribute_catalogue,
    catalogue_options,
    page_of_cards,
    rarest_attributes,
    search_cards,
    supply_distribution,
)
from .whatif import WhatIfError, apply, changed_fields
from .whatif import parse as parse_whatif

PAGE_SIZE = 24
MAX_TOKEN = 2**31 - 1


def _wants_fragment(request: HttpRequest) -> bool:
    """An htmx request that swaps a fragment (a history restore needs the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


@require_GET
@vary_on_headers("HX-Request")
@cached_page(depends_on=("cards",))
def card_list(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("q", "")
    context: dict[str, object] = {"q": text, "sorts": SORTS}
    status = 200
    try:
        query = parse(text)
    except QueryError as error:
        context["error"] = error.message
        status = 400
    else:
        paginator = Paginator(search_cards(query).values_list("pk", flat=True), PAGE_SIZE)
        page = paginator.get_page(request.GET.get("page"))
        context.update(
            page=page,
            cards=page_of_cards(list(page.object_list)),
            described=describe(query),
            sort_described=describe_sort(query),
            elided=paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
        )
    template = "explorer/card_list.html"
    if _wants_fragment(request):
        template += "#results"
    return render(request, template, context, status=status)


@require_GET
@cached_page()
def search_help(request: HttpRequest) -> HttpResponse:
    return render(request, "explorer/search_help.html", {"fields": FIELDS, "sorts": SORTS})


def _load_card(token: int) -> CardSpec:
    if token > MAX_TOKEN:
        raise Http404(_("There is no card with that token."))
    try:
        return card_spec(token)
    except Card.DoesNotExist:
        raise Http404(_("There is no card #%(token)s.") % {"token": token}) from None


@require_GET
@vary_on_headers("HX-Request")
@cached_page(depends_on=("cards",))
def card_detail(request: HttpRequest, token: int) -> HttpResponse:
    """A card and its live breakdown; GET parameters ask a what-if (never saved)."""
    card = _load_card(token)
    catalogue = attribute_catalogue()
    original = derive(card)
    try:
        whatif = parse_whatif(request.GET, card, catalogue)
    except WhatIfError as error:
        return render(
            request,
            "explorer/card_detail.html",
            _card_context(card, original, catalogue, error=error.message),
            status=400,
        )
    shown_card, breakdown, changed = card, original, set()
    if not whatif.is_empty:
        shown_card = apply(card, whatif, catalogue)
        breakdown = derive(shown_card)
        changed = changed_fields(original, breakdown)
    context = _card_context(
        shown_card,
        breakdown,
        catalogue,
        original=card,
        original_breakdown=original,
        whatif=whatif,
        changed=changed,
    )
    template = "explorer/card_detail.html"
    if _wants_fragment(request):
        template += "#breakdown"
    return render(request, template, context)


def _card_context(
    card,
    breakdown,
    catalogue,
    *,
    original=None,
    original_breakdown=None,
    whatif=None,
    changed=frozenset(),
    error="",
):
    original = original or card
    original_breakdown = original_breakdown or breakdown
    sections = presenters.sections(breakdown)
    next_paths, found = ([], {})
    if breakdown.next_tier is not None:
        next_paths, found = presenters.paths(card, breakdown.next_tier.paths, catalogue)
    legendary_paths = []
    if breakdown.next_tier is not None and breakdown.next_tier.target is not Rarity.LEGENDARY:
        towards = paths_to(card, Rarity.LEGENDARY)
        if towards is not None:
            legendary_paths, _found = presenters.paths(card, towards.paths, catalogue)
    return {
        "card": card,
        "original": original,
        "breakdown": breakdown,
        "original_breakdown": original_breakdown,
        "whatif": whatif,
        "whatif_active": bool(whatif and not whatif.is_empty),
        "changed": changed,
        "error": error,
        "answer": narration.one_line_answer(breakdown),
        "art": card_art(
            card.token,
            card.name,
            breakdown.rarity.value,
            {slot.value: card.attribute(slot).name for slot in Slot},
        ),
        "equipped": presenters.equipped_rows(card),
        "rules": presenters.rule_rows(breakdown, found, changed),
        "next_paths": next_paths,
        "legendary_paths": legendary_paths,
        "sections": sections,
        "steps": {section.key: section.steps for section in sections},
        "skill_rows": presenters.skill_rows(breakdown),
        "stat_rows": presenters.stat_rows(breakdown),
        "effect_rows": presenters.effect_rows(breakdown),
        "undercharge_rows": presenters.undercharge_rows(breakdown),
        "pickers": [
            {
                "slot": slot.value,
                "label": enum_label("slot", slot.value),
                "current": card.attribute(slot).name,
                "owned": sorted({(a.name, a.supply) for a in original.owned if a.slot is slot}),
                "catalogue": catalogue_options(catalogue, slot),
            }
            for slot in Slot
        ],
        "is_legendary": breakdown.rarity is Rarity.LEGENDARY,
        "wiki": {key: rule_url(key) for key in (*RULE_SECTIONS, *TOPIC_SECTIONS)},
    }


@require_GET
@cached_page(depends_on=("cards",))
def statistics(request: HttpRequest) -> HttpResponse:
    """Distributions of the collection as SVG bar charts with their numbers."""
    stats = collection_stats()
    list_url = reverse("explorer:card-list")

    def rows(
        kind: str, counts: dict[str, int], query_field: str
    ) -> list[tuple[str, int, str, str]]:
        return [
            (
                enum_label(kind, key),
                value,
                key,
                f"{list_url}?{urlencode({'q': f'{query_field}:{key}'})}",
            )
            for key, value in counts.items()
        ]

    active = rows("skill", stats["by_active_skill"], "active")
    active.append((_("none"), stats["without_active_skill"], "none", f"{list_url}?q=active%3Anone"))
    charts = [
        bar_chart(_("Rarity (starter cards apart)"), rows("rarity", stats["by_rarity"], "r")),
        bar_chart(_("Role"), rows("role", stats["by_role"], "role")),
        bar_chart(_("Skill affinity"), rows("skill", stats["by_skill_affinity"], "s")),
        bar_chart(_("Active skill"), active),
    ]
    supply = supply_distribution()
    return render(
        request,
        "explorer/statistics.html",
        {
            "stats": stats,
            "charts": charts,
            "supply_buckets": [label for _upper, label in SUPPLY_BUCKETS],
            "supply_rows": [(enum_label("slot", slot), counts) for slot, counts in supply.items()],
            "rarest": rarest_attributes(),
        },
    )


@require_GET
@cached_page(depends_on=("cards",))
def compare(request: HttpRequest) -> HttpResponse:
    """Two cards side by side; ?a=<token>&b=<token>."""
    raw = {key: (request.GET.get(key) or "").strip().lstrip("#") for key in ("a", "b")}
    context: dict[str, object] = {"a": raw["a"], "b": raw["b"], "columns": []}
    if not raw["a"] and not raw["b"]:
        return render(request, "explorer/compare.html", context)
    errors = []
    columns = []
    for key in ("a", "b"):
        value = raw[key]
        if not value.isdigit() or not 1 <= int(value) <= MAX_TOKEN:
            errors.append(
                _("“%(value)s” is not a card token (a whole number).") % {"value": value[:20]}
            )
            continue
        try:
            spec = card_spec(int(value))
        except Card.DoesNotExist:
            errors.append(_("There is no card #%(token)s.") % {"token": value})
            continue
        breakdown = derive(spec)
        columns.append(
            {
                "card": spec,
                "breakdown": breakdown,
                "answer": narration.one_line_answer(breakdown),
                "rules": presenters.rule_rows(breakdown, {}),
                "effects": presenters.effect_rows(breakdown),
                "equipped": presenters.equipped_rows(spec),
            }
        )
    context["errors"] = errors
    context["columns"] = columns if not errors else []
    return render(request, "explorer/compare.html", context, status=400 if errors else 200)
