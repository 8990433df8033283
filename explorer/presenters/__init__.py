"""The explorer's pages assembled: typed dataclasses of rows, sentences and links.

Views read the request through a form, call one function here and render what it
returns; templates only lay it out (no trace codes are filtered there, no labels made).
No HTML here either, but for one thing: the what-if selects' catalogue ``<option>``s,
hundreds of them on every card page, written once per catalogue (``catalogue_options``).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.urls import get_script_prefix, reverse
from django.utils.formats import number_format
from django.utils.functional import cached_property
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from cards import paging
from cards.art import CardArt, card_art
from cards.explain import Explained
from cards.models import Card
from cards.query import SORTS, Query, QueryError, describe, describe_sort
from cards.search import count_searches, search_cards
from cards.specs import card_spec
from core.labels import card_title, label, label_of, rule_label, template_label
from core.links import route_path, token_path
from core.memo import shared, table
from core.narration import Kept
from engine.card.derive import derive
from engine.card.fragility import weakest_change
from engine.card.rarity import format_score, paths_to, tier_of
from engine.data import RULE_KEYS
from engine.types import (
    AttributeKind,
    Breakdown,
    CardSpec,
    EffectSlot,
    Rarity,
    Requirement,
    Role,
    Skill,
    Slot,
    TraceStep,
)

from .. import narration
from ..charts import BarChart, bar_chart
from ..forms import (
    AdvancedSearchForm,
    CardListForm,
    CompareForm,
    WhatIfForm,
    WhyForm,
    query_error,
)
from ..selectors import SUPPLY_BUCKETS, combos, list_rows, neighbours, rarest_attributes
from ..selectors import supply_distribution as supply_counts
from ..whatif import SLOTS, Catalogue, WhatIf, apply, changed_fields, suggestions
from ..why import Why, why

CARD_LIST_PAGE_SIZE = 24


class CountedPaginator(Paginator):
    """A ``Paginator`` given its count (``selectors.search_count`` keeps a search's)."""

    def __init__(self, object_list: Any, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known_count = count

    @cached_property
    def count(self) -> int:
        return self._known_count


def context(page: Any) -> dict[str, Any]:
    """A page dataclass as a template context: its fields, one level deep."""
    return {f.name: getattr(page, f.name) for f in fields(page)}


# ---------------------------------------------------------------------------
# Rows of a breakdown


@dataclass(frozen=True, slots=True)
class Step:
    code: str
    text: str
    wiki_url: str
    link_label: str = ""  # the name of its link to the rule, for screen readers
    trace_item: str = ""  # the step as the full trace lists it: a ready <li> (SafeString)


@dataclass
class RuleRow:
    key: str
    label: str
    rarity: str
    decided: bool
    steps: list[Step]
    next_text: str = ""
    wiki_url: str = ""
    changed: bool = False


@dataclass(frozen=True, slots=True)
class Path:
    text: str
    rule_label: str
    whatif_query: str
    result: str


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    title: str
    steps: list[Step] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SkillHit:
    skill: str
    fragments: str


@dataclass(frozen=True, slots=True)
class SkillRow:
    slot: str
    name: str
    tier: str
    hits: list[SkillHit]
    primary: str
    secondary: str
    points: int


@dataclass(frozen=True, slots=True)
class StatRow:
    """One layer of the stats table, its numbers as shown: a layer above the base adds, so
    its non-negative numbers carry a "+" ("+3", "-2"; the base's "12")."""

    label: str
    atk: str
    hp: str
    def_: str
    ability: str


@dataclass(frozen=True, slots=True)
class EffectRow:
    slot: str
    kind: str = ""
    value: int | None = None
    base: int | None = None
    bonus: int | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class UnderchargeRow:
    nrg: int
    deficit: int
    cut: int
    atk: int
    def_: int
    effects: str


@dataclass(frozen=True, slots=True)
class EquippedRow:
    slot: str
    slot_label: str
    name: str
    supply: int
    tier: str
    tier_label: str
    kind: str
    kind_label: str  # empty for a normal attribute (no badge)
    search_url: str = ""  # the cards equipping it in this slot


def _step(
    step: TraceStep,
    urls: dict[str, str] | None = None,
    language: str | None = None,
    link_label: str | None = None,
    rule_word: str | None = None,
) -> Step:
    section = narration.step_section(step)
    url = (urls or {}).get(section) or narration.wiki_url(section)
    text = narration.sentence(step, language)
    label = (link_label or _("Rule for “%(step)s”")) % {"step": text}
    item = format_html(
        '<li><code>{}</code> {} <a class="step-link" href="{}"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></a></li>',
        step.code,
        text,
        url,
        rule_word or _("rule"),
        label,
    )
    return Step(step.code, text, url, label, item)


def _steps(
    trace: Iterable[TraceStep], *prefixes: str, worded: dict[int, Step] | None = None
) -> list[Step]:
    if worded is not None:
        return [worded[id(s)] for s in trace if s.code.startswith(prefixes)]
    return [_step(s) for s in trace if s.code.startswith(prefixes)]


# Worded steps by their links, language, code, parameters and value: a trace says mostly
# what other cards' traces said (at 100,000 cards, ≈ 83 % of a card page's steps with 8,192
# kept), and a kept step has its sentence, its link and its full-trace item ready. The
# links are one dict per language and site prefix (``narration.wiki_urls``), kept for the
# process's life, so its id() names them.
_WORDED: Kept[tuple[int, str | None, str, str, str], Step] = Kept(8192)


def worded_trace(trace: Iterable[TraceStep]) -> dict[int, Step]:
    """Each step of a trace in words, once (a card page shows most steps twice: in their
    section and in the full trace), by the step's identity."""
    # Once, not once per step: reading the language costs more than a kept step.
    urls, language = narration.wiki_urls(), get_language()
    link_label, rule_word = _("Rule for “%(step)s”"), _("rule")
    out = {}
    for s in trace:
        # repr() tells JSON-ready values apart (1 from "1", a tuple from a list).
        key = (id(urls), language, s.code, repr(s.params), repr(s.value))
        step = _WORDED.get(key)
        if step is None:
            step = _WORDED.keep(key, _step(s, urls, language, link_label, rule_word))
        out[id(s)] = step
    return out


def rule_rows(
    breakdown: Breakdown,
    changed: set[str] | frozenset[str] = frozenset(),
    worded: dict[int, Step] | None = None,
) -> list[RuleRow]:
    rows = []
    word = (lambda s: worded[id(s)]) if worded is not None else _step
    urls = narration.wiki_urls()
    for result in breakdown.rules:
        codes = narration.TRACE.codes_of_rule(result.key)
        row = RuleRow(
            key=result.key,
            label=rule_label(result.key),
            rarity=result.rarity.value,
            decided=result.key in breakdown.decided_by,
            steps=[word(s) for s in breakdown.trace if s.code in codes],
            wiki_url=urls.get(result.key) or narration.wiki_url(result.key),
            changed=f"rule:{result.key}" in changed,
        )
        if result.next_tier is not None:
            row.next_text = narration.requirement_sentence(result.next_tier)
        rows.append(row)
    return rows


def paths(
    card: CardSpec,
    requirements: Iterable[Requirement],
    catalogue: Catalogue,
    base: WhatIf | None = None,
) -> list[Path]:
    """Requirements (of ``card`` as the what-if ``base`` has it) in words, each with a
    what-if of the real card checked to reach its target."""
    requirements = tuple(requirements)
    found = {
        f"{s.requirement.rule}:{s.requirement.target.value}": s
        for s in suggestions(card, requirements, catalogue, base)
    }
    out = []
    for req in requirements:
        suggestion = found.get(f"{req.rule}:{req.target.value}")
        out.append(
            Path(
                text=narration.requirement_sentence(req),
                rule_label=rule_label(req.rule),
                whatif_query=suggestion.whatif.query() if suggestion else "",
                result=suggestion.result.value if suggestion else "",
            )
        )
    return out


def sections(breakdown: Breakdown, worded: dict[int, Step] | None = None) -> list[Section]:
    """The whole trace, grouped the way the page shows it."""
    worded = worded if worded is not None else worded_trace(breakdown.trace)
    return [
        Section("rarity", _("Rarity"), _steps(breakdown.trace, "rarity.", worded=worded)),
        Section("role", _("Role"), _steps(breakdown.trace, "role.", worded=worded)),
        Section("skill", _("Skill"), _steps(breakdown.trace, "skill.", worded=worded)),
        Section("template", _("Template"), _steps(breakdown.trace, "template.", worded=worded)),
        Section("stats", _("Stats"), _steps(breakdown.trace, "stats.", worded=worded)),
        Section("effects", _("Effects"), _steps(breakdown.trace, "effects.", worded=worded)),
        Section("energy", _("Energy"), _steps(breakdown.trace, "energy.", worded=worded)),
    ]


def skill_rows(breakdown: Breakdown) -> list[SkillRow]:
    return [
        SkillRow(
            slot=label(row.slot),
            name=row.name,
            tier=label(row.tier),
            hits=[
                SkillHit(label(skill), ", ".join(f"{word} ← {frag}" for word, frag in matches))
                for skill, matches in row.hits
            ],
            primary=label(row.primary) if row.primary else "",
            secondary=label(row.secondary) if row.secondary else "",
            points=row.points,
        )
        for row in breakdown.skill_table
    ]


def stat_rows(breakdown: Breakdown) -> list[StatRow]:
    names = {
        "base": _("Base (template %(template)s)")
        % {"template": template_label(breakdown.template)},
        "rarity_bonus": _("Rarity bonus (%(rarity)s)") % {"rarity": label(breakdown.rarity)},
        "sticker_power": _("Sticker power"),
        "paw_item": _("Paw item"),
        "burn_milestone": _("Burn milestones"),
    }
    return [
        StatRow(
            names.get(layer.layer, layer.layer),
            *(
                str(n) if layer.layer == "base" or n < 0 else f"+{n}"
                for n in (layer.atk, layer.hp, layer.def_, layer.ability)
            ),
        )
        for layer in breakdown.stat_layers
    ]


def effect_rows(breakdown: Breakdown) -> list[EffectRow]:
    rows = []
    for slot in EffectSlot:
        effect = breakdown.effect(slot)
        if effect is None:
            rows.append(EffectRow(label(slot)))
            continue
        rows.append(
            EffectRow(
                slot=label(slot),
                kind=label(effect.kind),
                value=effect.value,
                base=effect.base,
                bonus=effect.bonus,
                source=label(effect.source),
            )
        )
    return rows


def undercharge_rows(breakdown: Breakdown) -> list[UnderchargeRow]:
    return [
        UnderchargeRow(
            nrg=row.nrg,
            deficit=row.deficit,
            cut=row.stat_cut_percent,
            atk=row.atk,
            def_=row.def_,
            effects=", ".join(f"{label(s)} {n}" for s, n in row.effects),
        )
        for row in breakdown.undercharge
    ]


def equipped_rows(card: CardSpec) -> list[EquippedRow]:
    rows = []
    list_url = route_path("explorer:card-list")
    for slot in Slot:
        attribute = card.attribute(slot)
        tier = tier_of(attribute.supply)
        rows.append(
            EquippedRow(
                slot=slot.value,
                slot_label=label(slot),
                name=attribute.name,
                supply=attribute.supply,
                tier=tier.value,
                tier_label=label(tier),
                kind=attribute.kind.value,
                kind_label="" if attribute.kind is AttributeKind.NORMAL else label(attribute.kind),
                search_url=(
                    f"{list_url}?" + urlencode({"q": attribute_query(slot.value, attribute.name)})
                ),
            )
        )
    return rows


# ---------------------------------------------------------------------------
# The card page


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


# ---------------------------------------------------------------------------
# Card rows: one card as every list shows it (grid tile, checklist row, text block)


@dataclass(frozen=True, slots=True)
class CardRow:
    token: int
    title: str
    url: str
    picture_url: str
    rarity: str
    rarity_label: str
    role_label: str
    affinity_label: str
    active_label: str  # empty without an active skill
    energy: int
    atk: int
    hp: int
    def_: int
    ability: int
    rank: int | None
    burned: int
    score: object
    starter: bool
    attributes: tuple[tuple[str, str], ...]  # (slot label, attribute name)

    @property
    def attribute_names(self) -> list[str]:
        """The names alone, for the grid's tile (one ``join`` rather than a loop)."""
        return [name for _slot, name in self.attributes]

    @property
    def burned_text(self) -> str:
        """The text display's "3 burned stickers" (worded only where it is shown)."""
        return ngettext(
            "%(counter)s burned sticker", "%(counter)s burned stickers", self.burned
        ) % {"counter": self.burned}


def card_row(values: Mapping[str, Any]) -> CardRow:
    """A card as a list row, from its ``selectors.ROW_FIELDS`` (``list_rows``)."""
    token = values["token"]
    active = values["active_skill"]
    return CardRow(
        token=token,
        title=card_title(values["name"], token),
        url=token_path("explorer:card-detail", token),
        picture_url=token_path("explorer:card-picture", token),
        rarity=values["rarity"],
        rarity_label=label_of(Rarity, values["rarity"]),
        role_label=label_of(Role, values["role"]),
        affinity_label=label_of(Skill, values["skill_affinity"]),
        active_label=label_of(Skill, active) if active else "",
        energy=values["energy_cost"],
        atk=values["atk"],
        hp=values["hp"],
        def_=values["defense"],
        ability=values["ability"],
        rank=values["getgems_rank"],
        burned=values["burned_stickers"],
        score=values["wardrobe_score"],
        starter=values["starter"],
        attributes=tuple((label(slot), values[f"{slot.value}__name"]) for slot in Slot),
    )


#: Card rows kept per language in each process (≈ 1.5 KB each; a new version of the
#: collection starts afresh).
ROWS_KEPT = 4096


def rows_of(ids: list[int]) -> list[CardRow]:
    """The rows of these cards, in this order. Kept in this process per collection version
    and language, since search after search shows the same cards again (the first pages
    of the sorts and the rarities), and reading a card with its four attributes and
    wording its row cost more than the search itself. The cards not kept are read in one
    query."""
    if not ids:
        return []
    kept = table(f"explorer:rows:{get_language()}:{get_script_prefix()}", ("cards",), ROWS_KEPT)
    rows = {pk: row for pk in ids if (row := kept.get(pk)) is not None}
    missing = [pk for pk in ids if pk not in rows]
    for values in list_rows(missing) if missing else ():
        rows[values["pk"]] = kept.keep(values["pk"], card_row(values))
    return [rows[pk] for pk in ids if pk in rows]


def card_rows(queryset: Any, limit: int) -> list[CardRow]:
    """The first ``limit`` cards of a search as rows (the ids, then the rows not kept)."""
    return rows_of(list(queryset.values_list("pk", flat=True)[:limit]))


# ---------------------------------------------------------------------------
# The card list


PAGE_SIZES = {"grid": CARD_LIST_PAGE_SIZE, "checklist": 60, "text": CARD_LIST_PAGE_SIZE}


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    selected: bool
    url: str = ""


@dataclass(frozen=True, slots=True)
class QueryProblem:
    """A refused search, with the faulty characters picked out."""

    message: str
    before: str
    marked: str
    after: str


@dataclass(frozen=True, slots=True)
class CardListPage:
    q: str
    error: QueryProblem | None
    display: str = "grid"
    page: Page | None = None
    cards: list[CardRow] = field(default_factory=list)
    described: list[str] = field(default_factory=list)
    sort_described: str = ""
    elided: list[object] = field(default_factory=list)
    displays: list[Choice] = field(default_factory=list)
    sorts: list[Choice] = field(default_factory=list)
    descending: bool = True
    starters_hidden: bool = True
    page_link: str = "?page="  # this list's address up to its page number: "?q=…&page="
    random_url: str = ""
    api_url: str = ""
    found: str = ""  # "24 cards found"
    links: dict[str, str] = field(default_factory=dict)  # the list, search help, advanced
    warnings: list[str] = field(default_factory=list)  # what the search read and ignored
    why_link: str = ""  # a result's "Why?" address up to its token: "…/why/?q=…&card="
    feed_url: str = ""  # this search as an Atom feed of the cards entering and leaving it
    # Past the numbered pages (``cards.paging``): the next page's cursor link, the first
    # page's link and the number of a page reached by cursor (0: a numbered page).
    next_url: str = ""
    first_url: str = ""
    cursor_page: int = 0

    @property
    def status(self) -> int:
        return 400 if self.error else 200


def query_problem(text: str, error: QueryError | None, message: str) -> QueryProblem:
    """The refusal's message and the typed text cut around the faulty characters."""
    if error is None or error.position is None or error.code == "too_long":
        return QueryProblem(message, "", "", "")  # nothing to point at (or all of it)
    start = min(error.position, len(text))
    end = min(len(text), start + error.length)
    marked = text[start:end] or " "
    return QueryProblem(message, text[:start], marked, text[end:])


def list_query(q: str, display: str = "grid", page: int | None = None) -> str:
    """The card list's query string for a search, a display and a page (defaults left out)."""
    params: dict[str, object] = {}
    if q:
        params["q"] = q
    if display != "grid":
        params["display"] = display
    if page and page > 1:
        params["page"] = page
    return urlencode(params)


def _list_slice(
    query: Query,
    found: Any,
    size: int,
    number: int,
    cursor: paging.Cursor | None,
) -> tuple[Page | None, paging.KeysetPage, paging.Count, list[object], bool]:
    """The card list's page: by number (with its paginator) or by cursor; its count
    (bounded), the numbered links and whether a "Next" by cursor follows."""
    kept = None
    if cursor is None and number == 1:
        kept = paging.keyset_page(query, found, size, cursor=None)
    if kept is not None and kept.next_cursor is None:  # one page: counted without a count
        count = paging.Count.of(len(kept.ids))
    else:
        count = paging.bounded_count(query, found)
    if cursor is not None:
        return None, paging.keyset_page(query, found, size, cursor=cursor), count, [], True
    paginator = CountedPaginator(found.values_list("pk", flat=True), size, count.value)
    page = paginator.get_page(number)
    if kept is None or page.number != 1:
        offset = max(0, page.start_index() - 1)
        kept = paging.keyset_page(query, found, size, cursor=None, offset=offset)
    elided = list(paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))
    # The numbered pages end at 10,000 cards; beyond, "Next" goes by cursor.
    return page, kept, count, elided, count.over and not page.has_next()


def card_list_page(form: CardListForm) -> CardListPage:
    """One page of the cards a search finds, and the search in words."""
    text = str(form.data.get("q", ""))
    display = form.display_mode()
    list_url = route_path("explorer:card-list")
    links = {
        "list_url": list_url,
        "help_url": route_path("explorer:search-help"),
        "advanced_url": route_path("explorer:advanced-search"),
        "why_url": route_path("explorer:card-why"),
    }
    displays = [
        Choice(
            mode,
            str(name),
            mode == display,
            f"{list_url}?{list_query(text, mode)}".rstrip("?"),
        )
        for mode, name in (
            ("grid", _("Grid")),
            ("checklist", _("Checklist")),
            ("text", _("Text")),
        )
    ]
    if form.has_error("q"):
        message = " ".join(form.errors["q"])
        return CardListPage(
            q=text,
            error=query_problem(text, query_error(form), message),
            display=display,
            displays=displays,
            links=links,
        )
    query: Query = form.cleaned_data["q"]
    size = PAGE_SIZES[display]
    found = search_cards(query)
    own_query = list_query(text, display)
    cursor_text = form.cleaned_data.get("cursor") or ""
    try:
        cursor = paging.read_cursor(cursor_text, query, size) if cursor_text else None
    except paging.CursorError as error:
        problem = QueryProblem(error.message, "", "", "")
        return CardListPage(q=text, error=problem, display=display, displays=displays, links=links)
    try:
        with paging.search_budget():
            page, kept, count, elided, more = _list_slice(
                query, found, size, form.page_number(), cursor
            )
    except paging.SearchTooBroad as error:
        problem = QueryProblem(error.message, "", "", "")
        return CardListPage(q=text, error=problem, display=display, displays=displays, links=links)
    separator = "&" if own_query else ""
    next_url = ""
    if more and kept.next_cursor:
        next_url = f"?{own_query}{separator}{urlencode({'cursor': kept.next_cursor})}"
    if count.over:
        found_text = _("more than %(counter)s cards found") % {
            "counter": number_format(paging.MAX_EXACT_COUNT, force_grouping=True)
        }
    else:
        found_text = ngettext("%(counter)s card found", "%(counter)s cards found", count.value) % {
            "counter": count.value
        }
    key = query.sort.lstrip("-")
    return CardListPage(
        q=text,
        error=None,
        display=display,
        page=page,
        cards=rows_of(kept.ids),
        described=describe(query),
        sort_described=describe_sort(query),
        elided=elided,
        displays=displays,
        sorts=[Choice(k, capfirst(str(name)), k == key) for k, name in SORTS.items()],
        descending=query.sort.startswith("-"),
        starters_hidden=not query.wants_free_cards,
        page_link=f"?{own_query}&page=" if own_query else "?page=",
        random_url=f"{route_path('explorer:random-card')}?{list_query(text)}".rstrip("?"),
        api_url=f"{route_path('api:card-search')}?{list_query(text)}".rstrip("?"),
        found=found_text,
        links=links,
        warnings=[w.message for w in query.warnings],
        why_link=f"{links['why_url']}?{urlencode({'q': text, 'card': ''})}" if text else "",
        feed_url=f"{route_path('explorer:search-feed')}?{list_query(text)}" if text else "",
        next_url=next_url,
        first_url=f"?{own_query}" if own_query else "?",
        cursor_page=kept.number if cursor else 0,
    )


# ---------------------------------------------------------------------------
# Why this card (or why not): the query as a tree of checked clauses


@dataclass(frozen=True, slots=True)
class WhyRow:
    """One node of the explained query, flattened: its depth, whether it holds, and its
    words (a group's "all of these", a clause's question and the card's value)."""

    depth: int
    ok: bool
    kind: str  # "and", "or", "not", "leaf"
    clause: str = ""
    sentence: str = ""
    said: str = ""


@dataclass(frozen=True, slots=True)
class WhyPage:
    form: WhyForm
    q: str
    errors: list[str]
    card: CardRow | None = None
    why: Why | None = None
    rows: list[WhyRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    verdict: str = ""
    list_url: str = ""

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def _why_rows(node: Explained | None, depth: int = 0) -> list[WhyRow]:
    if node is None:
        return []
    if node.kind == "leaf":
        assert node.check is not None
        found = node.check
        return [WhyRow(depth, node.ok, "leaf", found.clause, found.sentence, found.said)]
    rows = [WhyRow(depth, node.ok, node.kind)]
    for child in node.children:
        rows += _why_rows(child, depth + 1)
    return rows


def why_page(form: WhyForm, catalogue: Catalogue) -> WhyPage:
    """Whether the search ``q`` finds the card, clause by clause, and what would make it."""
    text = str(form.data.get("q", ""))
    list_url = f"{route_path('explorer:card-list')}?{list_query(text)}".rstrip("?")
    if not str(form.data.get("card", "")).strip():  # the empty form: nothing asked yet
        return WhyPage(form=form, q=text, errors=[], list_url=list_url)
    if not form.is_valid():
        errors = [message for messages in form.errors.values() for message in messages]
        return WhyPage(form=form, q=text, errors=errors, list_url=list_url)
    query: Query = form.cleaned_data["q"]
    spec = card_spec(form.cleaned_data["card"], combos=combos())
    found = why(spec, query, text, catalogue)
    card = rows_of(list(Card.objects.filter(token=spec.token).values_list("pk", flat=True)))
    if found.matched:
        verdict = _("This search finds this card.")
    elif found.starter_left_out:
        verdict = _(
            "Every clause holds, but this is a starter card: a search leaves starter cards "
            "out unless it asks for them (add is:starter)."
        )
    else:
        verdict = _("This search does not find this card.")
    return WhyPage(
        form=form,
        q=text,
        errors=[],
        card=card[0] if card else None,
        why=found,
        rows=_why_rows(found.tree),
        warnings=[w.message for w in query.warnings],
        verdict=verdict,
        list_url=list_url,
    )


# ---------------------------------------------------------------------------
# The advanced search


@dataclass(frozen=True, slots=True)
class AdvancedSearchPage:
    form: AdvancedSearchForm
    errors: list[str]

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def advanced_search_page(form: AdvancedSearchForm) -> AdvancedSearchPage:
    errors = []
    if form.asked and not form.is_valid():
        for name, messages in form.errors.items():
            field_label = form.fields[name].label if name in form.fields else ""
            errors.extend(f"{field_label}: {m}" if field_label else m for m in messages)
    return AdvancedSearchPage(form, errors)


# ---------------------------------------------------------------------------
# Compare


@dataclass(frozen=True, slots=True)
class CompareRow:
    label: str
    a: str
    b: str
    differs: bool


@dataclass(frozen=True, slots=True)
class CompareSection:
    title: str
    rows: list[CompareRow]

    @property
    def differences(self) -> int:
        return sum(row.differs for row in self.rows)


@dataclass(frozen=True, slots=True)
class CompareCard:
    card: CardSpec
    title: str
    url: str
    art: CardArt
    rarity: str
    answer: str


@dataclass(frozen=True, slots=True)
class CompareVerdict:
    """Why the first card's rarity is above the second's (or level with it), which rule
    decides each, and what the lower one would need, with a what-if of it checked to get
    there (the card page's "ways up")."""

    text: str
    try_url: str = ""  # the lower card's page with that what-if
    try_card: str = ""  # its title


@dataclass(frozen=True, slots=True)
class ComparePage:
    a: str
    b: str
    errors: list[str]
    cards: list[CompareCard]
    sections: list[CompareSection]
    asked: bool
    swap_url: str = ""
    differences: int = 0
    verdict: CompareVerdict | None = None

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def _row(name: object, a: object, b: object) -> CompareRow:
    shown_a = "—" if a in (None, "") else str(a)
    shown_b = "—" if b in (None, "") else str(b)
    return CompareRow(str(name), shown_a, shown_b, shown_a != shown_b)


def _effect_text(row: EffectRow) -> str:
    return f"{row.kind} {row.value}" if row.kind else ""


def compare_sections(
    a: CardSpec, b: CardSpec, da: Breakdown, db: Breakdown
) -> list[CompareSection]:
    """Two cards fact by fact, each row marked when they differ."""

    def facts(card: CardSpec, d: Breakdown) -> list[object]:
        return [
            label(d.rarity),
            label(d.role),
            label(d.skill_affinity),
            label(d.active_skill),
            d.energy_cost,
            d.stats.atk,
            d.stats.hp,
            d.stats.def_,
            d.stats.ability,
            narration.decimal(format_score(d.wardrobe_score))
            if d.wardrobe_score is not None
            else "",
            narration.rank_number(card.getgems_rank) if card.getgems_rank else _("none"),
            card.burned_stickers,
            template_label(d.template),
        ]

    names = [
        _("Rarity"),
        _("Role"),
        _("Skill affinity"),
        _("Active skill"),
        _("Energy cost (NRG)"),
        "ATK",
        "HP",
        "DEF",
        _("Ability value"),
        _("Wardrobe score"),
        _("GetGems rank"),
        _("Burned stickers"),
        _("Template"),
    ]
    summary = [_row(n, x, y) for n, x, y in zip(names, facts(a, da), facts(b, db), strict=True)]
    rules_a = {r.key: label(r.rarity) for r in da.rules}
    rules_b = {r.key: label(r.rarity) for r in db.rules}
    keys = [*rules_a, *(key for key in rules_b if key not in rules_a)]
    rules = [_row(rule_label(key), rules_a.get(key), rules_b.get(key)) for key in keys]
    equipped = []
    for slot in Slot:
        x, y = a.attribute(slot), b.attribute(slot)
        equipped.append(
            _row(capfirst(label(slot)), f"{x.name} ({x.supply})", f"{y.name} ({y.supply})")
        )
    effects = [
        _row(ra.slot, _effect_text(ra), _effect_text(rb))
        for ra, rb in zip(effect_rows(da), effect_rows(db), strict=True)
    ]
    return [
        CompareSection(_("The card"), summary),
        CompareSection(_("Rarity rules"), rules),
        CompareSection(_("Equipped"), equipped),
        CompareSection(_("Effects"), effects),
    ]


def compare_verdict(
    a: CardSpec, b: CardSpec, da: Breakdown, db: Breakdown, catalogue: Catalogue
) -> CompareVerdict:
    """The sentence over two cards: the higher first (``a`` when level), and what the
    other would need to reach it (to rise above it, when level), from the same ways up
    as the card page (``paths_to`` made concrete and checked by ``paths``)."""
    if db.rarity > da.rarity:
        a, b, da, db = b, a, db, da
    target = da.rarity if da.rarity != db.rarity else db.rarity.next()
    towards = paths_to(b, target) if target is not None else None
    ways = paths(b, towards.paths, catalogue) if towards is not None else []
    way = next((w for w in ways if w.whatif_query), ways[0] if ways else None)
    title_a, title_b = card_title(a.name, a.token), card_title(b.name, b.token)
    text = narration.compare_sentence(title_a, title_b, da, db, way.text if way else None, target)
    if way is None or not way.whatif_query:
        return CompareVerdict(text)
    url = f"{token_path('explorer:card-detail', b.token)}?{way.whatif_query}"
    return CompareVerdict(text, url, title_b)


def compare_page(form: CompareForm, catalogue: Catalogue) -> ComparePage:
    """Two cards side by side, differences marked, or why they cannot be."""
    typed = {key: str(form[key].value() or "").strip() for key in ("a", "b")}
    if not form.is_bound:
        return ComparePage(typed["a"], typed["b"], [], [], [], asked=False)
    errors: list[str] = []
    for key in ("a", "b"):
        errors.extend(form.errors.get(key, []))
    if errors:
        return ComparePage(typed["a"], typed["b"], errors, [], [], asked=True)
    specs = [card_spec(form.cleaned_data[key]) for key in ("a", "b")]
    breakdowns = [derive(spec) for spec in specs]
    cards = [
        CompareCard(
            card=spec,
            title=card_title(spec.name, spec.token),
            url=reverse("explorer:card-detail", args=[spec.token]),
            art=card_art(
                spec.token,
                spec.name,
                d.rarity.value,
                {slot.value: spec.attribute(slot).name for slot in Slot},
            ),
            rarity=d.rarity.value,
            answer=narration.one_line_answer(d),
        )
        for spec, d in zip(specs, breakdowns, strict=True)
    ]
    swap = urlencode({"a": specs[1].token, "b": specs[0].token})
    sections = compare_sections(specs[0], specs[1], *breakdowns)
    verdict = compare_verdict(specs[0], specs[1], *breakdowns, catalogue)
    return ComparePage(
        typed["a"],
        typed["b"],
        [],
        cards,
        sections,
        asked=True,
        swap_url=f"{route_path('explorer:compare')}?{swap}",
        differences=sum(section.differences for section in sections),
        verdict=verdict,
    )


# ---------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True, slots=True)
class StatisticsPage:
    total: int
    catalogue: int
    starters: int
    starters_url: str
    charts: list[BarChart]
    supply_buckets: list[str]
    supply_rows: list[tuple[str, list[int]]]
    rarest: list[Any]


def _bar_queries() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each chart's bars as (label, css class, search): the bar counts what the search finds."""
    active = [(label(s), s.value, f"active:{s.value}") for s in Skill]
    active.append((label(None), "none", "active:none"))
    return [
        (
            _("Rarity"),
            [(label(r), r.value, f"r:{r.value}") for r in Rarity if r is not Rarity.FREE],
        ),
        (_("Role"), [(label(r), r.value, f"role:{r.value}") for r in Role]),
        (_("Skill affinity"), [(label(s), s.value, f"s:{s.value}") for s in Skill]),
        (_("Active skill"), active),
        (
            _("Rule that decided the rarity"),
            [(rule_label(key), key, f"decided:{key}") for key in RULE_KEYS],
        ),
        (
            _("Special attributes and facts"),
            [
                (_("a complete combo"), "combo", "is:combo"),
                (_("a god attribute"), "god", "is:god"),
                (_("a premium skin"), "premium", "is:premium"),
                (_("a GetGems rank"), "rank", "has:rank"),
                (_("burned stickers"), "stickers", "has:stickers"),
            ],
        ),
    ]


def statistics_page() -> StatisticsPage:
    """Distributions of the collection: every bar counts exactly what its link finds.

    The charts count the main catalogue, as every search does by default: starter (Free)
    cards are counted apart, with their own link (``is:starter``).
    """
    list_url = route_path("explorer:card-list")
    charts_spec = _bar_queries()
    counts, supply, rarest = statistics_figures()
    charts = []
    for index, (title, bars) in enumerate(charts_spec):
        rows = [
            (
                name,
                counts[f"c{index}_{position}"],
                css,
                f"{list_url}?{urlencode({'q': q})}",
            )
            for position, (name, css, q) in enumerate(bars)
        ]
        charts.append(bar_chart(title, rows, of=counts["catalogue"]))
    return StatisticsPage(
        total=counts["catalogue"] + counts["starters"],
        catalogue=counts["catalogue"],
        starters=counts["starters"],
        starters_url=f"{list_url}?{urlencode({'q': 'is:starter'})}",
        charts=charts,
        supply_buckets=[text for _upper, text in SUPPLY_BUCKETS],
        supply_rows=[(label_of(Slot, slot), counts_) for slot, counts_ in supply.items()],
        rarest=[
            RarestRow(
                attribute,
                f"{list_url}?{urlencode({'q': attribute_query(attribute.slot, attribute.name)})}",
                counts[f"owns_{position}"],
                f"{list_url}?{urlencode({'q': owns_query(attribute.name)})}",
            )
            for position, attribute in enumerate(rarest)
        ],
    )


@dataclass(frozen=True, slots=True)
class RarestRow:
    """A rare attribute: the search for the cards wearing it, and how many cards of the
    catalogue own it (worn or not) with the search that finds exactly those."""

    attribute: Any
    url: str
    owners: int
    owners_url: str


def owns_query(name: str) -> str:
    """The search for the cards owning an attribute, worn or not: ``owns="Qx Mitten"``."""
    return f'owns="{name.replace(chr(34), "")}"'


#: How long the statistics' figures are kept (a change of the collection makes a new key).
STATISTICS_SECONDS = 24 * 60 * 60


def statistics_figures() -> tuple[dict[str, int], dict, list]:
    """The statistics page's counts, supply table and rarest attributes, kept in the shared
    cache per collection version: counting every bar reads every card (seconds at a
    million), so it is done once per version — by the job that follows a recompute
    (``explorer.tasks.statistics_task``) or by the first view after a change — never per
    view."""

    def build() -> tuple[dict[str, int], dict, list]:
        searches = {"starters": "is:starter", "catalogue": ""}
        for index, (_title, bars) in enumerate(_bar_queries()):
            for position, (_label, _css, q) in enumerate(bars):
                searches[f"c{index}_{position}"] = q
        rarest = list(rarest_attributes())
        for position, attribute in enumerate(rarest):
            searches[f"owns_{position}"] = owns_query(attribute.name)
        return count_searches(searches), supply_counts(), rarest

    return shared("explorer:statistics", ("cards",), (), build, STATISTICS_SECONDS)


def attribute_query(slot: str, name: str) -> str:
    """The search for the cards equipping this attribute in its slot: ``paw="Qx Mitten"``."""
    return f'{slot}="{name.replace(chr(34), "")}"'


__all__ = [
    "AdvancedSearchPage",
    "CardListPage",
    "CardPage",
    "CardPathsPage",
    "CardRow",
    "ComparePage",
    "Path",
    "RuleRow",
    "Section",
    "StatisticsPage",
    "advanced_search_page",
    "attribute_query",
    "card_list_page",
    "card_page",
    "card_paths_page",
    "card_row",
    "compare_page",
    "context",
    "effect_rows",
    "equipped_rows",
    "paths",
    "rule_rows",
    "sections",
    "skill_rows",
    "stat_rows",
    "statistics_page",
    "undercharge_rows",
    "why_page",
]
