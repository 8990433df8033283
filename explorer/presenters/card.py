"""The card page."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from urllib.parse import urlencode

from django.utils.formats import number_format
from django.utils.functional import cached_property
from django.utils.html import escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.art import CardArt, card_art
from core.labels import card_title, label
from core.links import route_path, token_path
from engine.card.derive import derive
from engine.card.fragility import weakest_change
from engine.card.rarity import paths_to
from engine.types import Breakdown, CardSpec, Rarity, Slot

from .. import narration
from ..forms import WhatIfForm
from ..selectors import neighbours
from ..whatif import SLOTS, Catalogue, apply, changed_fields
from .breakdown import (
    EffectRow,
    EquippedRow,
    Path,
    RuleRow,
    Section,
    SkillRow,
    StatRow,
    Step,
    UnderchargeRow,
    _steps,
    effect_rows,
    equipped_rows,
    paths,
    rule_rows,
    sections,
    skill_rows,
    stat_rows,
    undercharge_rows,
    worded_trace,
)


@dataclass(frozen=True, slots=True)
class Picker:
    """One slot's select of the what-if form: what it shows and what it offers."""

    slot: str
    label: str
    selected: str
    owned: tuple[tuple[str, int], ...]
    # The catalogue's <option>s, the selected one marked (``catalogue_options``).
    catalogue_options: str
    error: str
    # The catalogue group's label: the whole catalogue, or its rarest part when it is
    # larger than ``MAX_OFFERED``.
    catalogue_label: str = ""
    # The selected attribute when it is neither owned nor among the options shown.
    extra: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class WhatIfFields:
    """The what-if form as the address sets it."""

    pickers: list[Picker]
    rank: str
    rank_error: str
    burned: str
    burned_error: str
    errors: list[str]
    open: bool  # the address asks a what-if (or it failed): the form starts unfolded


@dataclass(frozen=True, slots=True)
class CardPage:
    """Everything the card page shows: the real card, or the card as a what-if has it."""

    original: CardSpec
    title: str  # "Sprocket #23"
    card: CardSpec
    breakdown: Breakdown
    original_breakdown: Breakdown
    whatif_active: bool
    changed: frozenset[str]
    form: WhatIfFields
    answer: str
    safety: str  # the smallest change of supply or rank that lowers the tier (issue 29)
    art: CardArt
    equipped: list[EquippedRow]
    owned_count: str  # "5 owned attributes"
    rules: list[RuleRow]
    paths_url: str  # the "what would make it …?" answer, loaded on its own (CardPathsPage)
    sections: list[Section]
    skill_summary: list[Step]  # the affinity, the active skill (or the role default)
    tie_break_steps: list[Step]
    role_steps: list[Step]
    template_steps: list[Step]
    effect_steps: list[Step]
    skill_rows: list[SkillRow]
    stat_rows: list[StatRow]
    effect_rows: list[EffectRow]
    undercharge_rows: list[UnderchargeRow]
    wiki: dict[str, str]
    links: CardLinks

    @property
    def status(self) -> int:
        return 400 if self.form.errors else 200


class CardLinks:
    """Where a card page leads: its neighbours, a random card, its JSON, a comparison.

    Each worked out when first read: a what-if answered to htmx shows the card's own
    address only, and the neighbours are a query.
    """

    def __init__(self, token: int) -> None:
        self.token = token
        self.self_url = token_path("explorer:card-detail", token)  # the what-if form's action

    @cached_property
    def _neighbours(self) -> tuple[int | None, int | None]:
        return neighbours(self.token)

    @property
    def previous_token(self) -> int | None:
        return self._neighbours[0]

    @property
    def next_token(self) -> int | None:
        return self._neighbours[1]

    @property
    def previous_url(self) -> str:
        previous = self.previous_token
        return token_path("explorer:card-detail", previous) if previous else ""

    @property
    def next_url(self) -> str:
        following = self.next_token
        return token_path("explorer:card-detail", following) if following else ""

    @property
    def list_url(self) -> str:
        return route_path("explorer:card-list")

    @property
    def random_url(self) -> str:
        return route_path("explorer:random-card")

    @property
    def json_url(self) -> str:
        return token_path("api:card-breakdown", self.token)

    @property
    def compare_url(self) -> str:
        return f"{route_path('explorer:compare')}?{urlencode({'a': self.token})}"


def card_links(token: int) -> CardLinks:
    return CardLinks(token)


#: The what-if selects list a slot's whole catalogue up to this many attributes; beyond
#: (100,000 cards have ~7,000 per slot: a 1.2 MB page), its rarest ones, which are what a
#: what-if reaches for. Any attribute still works in the address (the "Try it" links).
MAX_OFFERED = 300

_SKILL_SUMMARY = ("skill.role_default", "skill.affinity", "skill.active")
_TIE_BREAK = ("skill.tie_break.scan", "skill.tie_break")


def _whatif_fields(form: WhatIfForm, card: CardSpec) -> WhatIfFields:
    pickers = []
    for slot in SLOTS:
        bound = form[slot.value]
        selected = form.shown(slot.value, card.attribute(slot).name)
        owned = bound.field.owned
        catalogue = bound.field.catalogue
        total = catalogue.count(slot)
        if total <= MAX_OFFERED:
            options = catalogue.choices(slot)
            group = _("Whole catalogue")
        else:
            options = catalogue.offered(slot, MAX_OFFERED)
            group = _("The %(shown)s rarest of the catalogue’s %(total)s") % {
                "shown": number_format(MAX_OFFERED, force_grouping=True),
                "total": number_format(total, force_grouping=True),
            }
        is_owned = any(n == selected for n, _s in owned)
        in_options = not is_owned and any(n == selected for n, _s in options)
        found = None if is_owned or in_options else catalogue.get(slot, selected)
        pickers.append(
            Picker(
                slot=slot.value,
                label=label(slot),
                selected=selected,
                owned=owned,
                catalogue_options=catalogue_options(
                    catalogue, slot, options, selected if in_options else ""
                ),
                error=" ".join(bound.errors),
                catalogue_label=group,
                extra=((found.name, found.supply),) if found is not None else (),
            )
        )
    return WhatIfFields(
        pickers=pickers,
        rank=form.shown("rank", card.getgems_rank),
        rank_error=" ".join(form["rank"].errors),
        burned=form.shown("burned", card.burned_stickers),
        burned_error=" ".join(form["burned"].errors),
        errors=form.messages(),
        open=form.asked,
    )


# The <option>s of each slot's catalogue, rendered once per catalogue (which lives as long
# as its collection version): ≈ 440 options at 1,000 cards, 1,200 at 100,000, on every page.
_OPTIONS: weakref.WeakKeyDictionary[Catalogue, dict[tuple[Slot, int], str]] = (
    weakref.WeakKeyDictionary()
)


def catalogue_options(
    catalogue: Catalogue, slot: Slot, options: tuple[tuple[str, int], ...], selected: str
) -> str:
    """``options`` as ``<option>`` elements, ``selected`` (one of them, or "") marked.

    >>> from engine.types import AttributeSpec
    >>> shop = Catalogue([AttributeSpec(Slot.HEAD, "Crown & Co", 3)])
    >>> print(catalogue_options(shop, Slot.HEAD, shop.choices(Slot.HEAD), "Crown & Co"))
    <option value="Crown &amp; Co" selected>Crown &amp; Co (3)</option>
    """
    rendered = _OPTIONS.setdefault(catalogue, {})
    key = (slot, len(options))
    html = rendered.get(key)
    if html is None:
        html = rendered[key] = format_html_join(
            "", '<option value="{}">{} ({})</option>', ((n, n, s) for n, s in options)
        )
    if selected:
        value = f'<option value="{escape(selected)}"'
        html = mark_safe(html.replace(f"{value}>", f"{value} selected>", 1))
    return html


def card_page(card: CardSpec, catalogue: Catalogue, form: WhatIfForm) -> CardPage:
    """The card's breakdown, or the what-if's when the form asks one (never saved).

    What would lift it a tier is checked by deriving the card again once per way there
    (≈ 9 times): a quarter of the page's cost, so that answer is a request of its own
    (``card_paths_page``), which the page loads as it scrolls into view.
    """
    original_breakdown = derive(card)
    whatif = form.whatif()
    shown, breakdown, changed = card, original_breakdown, frozenset[str]()
    if not whatif.is_empty:
        shown = apply(card, whatif, catalogue)
        breakdown = derive(shown)
        changed = frozenset(changed_fields(original_breakdown, breakdown))
    links = card_links(card.token)
    paths_url = ""
    if breakdown.next_tier is not None:
        paths_url = token_path("explorer:card-paths", card.token)
        if not whatif.is_empty:
            paths_url = f"{paths_url}?{whatif.query()}"
    trace = breakdown.trace
    worded = worded_trace(trace)
    return CardPage(
        original=card,
        title=card_title(card.name, card.token),
        card=shown,
        breakdown=breakdown,
        original_breakdown=original_breakdown,
        whatif_active=not whatif.is_empty,
        changed=changed,
        form=_whatif_fields(form, card),
        answer=narration.one_line_answer(breakdown),
        safety=narration.tier_safety(weakest_change(shown), breakdown.rarity),
        art=card_art(
            shown.token,
            shown.name,
            breakdown.rarity.value,
            {slot.value: shown.attribute(slot).name for slot in Slot},
        ),
        equipped=equipped_rows(shown),
        owned_count=ngettext(
            "%(counter)s owned attribute", "%(counter)s owned attributes", len(shown.owned)
        )
        % {"counter": len(shown.owned)},
        rules=rule_rows(breakdown, changed, worded),
        paths_url=paths_url,
        sections=sections(breakdown, worded),
        skill_summary=[worded[id(s)] for s in trace if s.code in _SKILL_SUMMARY],
        tie_break_steps=[worded[id(s)] for s in trace if s.code in _TIE_BREAK],
        role_steps=_steps(trace, "role.", worded=worded),
        template_steps=_steps(trace, "template.", worded=worded),
        effect_steps=_steps(trace, "effects.", worded=worded),
        skill_rows=skill_rows(breakdown),
        stat_rows=stat_rows(breakdown),
        effect_rows=effect_rows(breakdown),
        undercharge_rows=undercharge_rows(breakdown),
        wiki=narration.wiki_urls(),
        links=links,
    )


@dataclass(frozen=True, slots=True)
class CardPathsPage:
    """What would lift the card (or the what-if's card) one tier, and what would make it
    Legendary: each way in words, with a what-if checked to get there."""

    original: CardSpec
    breakdown: Breakdown
    whatif_active: bool
    next_paths: list[Path]
    legendary_paths: list[Path]
    self_url: str  # the real card's page: "Try it" links are what-ifs of it
    card_url: str  # the card page with the what-if: "Back to the card"
    errors: list[str]

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def card_paths_page(card: CardSpec, catalogue: Catalogue, form: WhatIfForm) -> CardPathsPage:
    whatif = form.whatif()
    shown = apply(card, whatif, catalogue)
    breakdown = derive(shown)
    next_paths: list[Path] = []
    legendary_paths: list[Path] = []
    if breakdown.next_tier is not None:
        next_paths = paths(card, breakdown.next_tier.paths, catalogue, whatif)
        if breakdown.next_tier.target is not Rarity.LEGENDARY:
            towards = paths_to(shown, Rarity.LEGENDARY)
            if towards is not None:
                legendary_paths = paths(card, towards.paths, catalogue, whatif)
    self_url = token_path("explorer:card-detail", card.token)
    card_url = self_url if whatif.is_empty else f"{self_url}?{whatif.query()}"
    return CardPathsPage(
        original=card,
        breakdown=breakdown,
        whatif_active=not whatif.is_empty,
        next_paths=next_paths,
        legendary_paths=legendary_paths,
        self_url=self_url,
        card_url=card_url,
        errors=form.messages(),
    )
