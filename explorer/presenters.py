"""The explorer's pages assembled: typed dataclasses of rows, sentences and links.

Views read the request through a form, call one function here and render what it
returns; templates only lay it out (no trace codes are filtered there, no labels made).
No HTML here either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import CollectionStats, collection_stats
from cards.specs import card_spec
from core import versions
from core.labels import label, label_of, rule_label, template_label
from engine.derive import derive
from engine.rarity import paths_to, tier_of
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
from wiki.anchors import RULE_SECTIONS, TOPIC_SECTIONS, rule_url

from . import narration
from .art import CardArt, card_art
from .charts import BarChart, bar_chart
from .forms import CardListForm, CompareForm, WhatIfForm
from .query import SORTS, Query, describe, describe_sort
from .selectors import SUPPLY_BUCKETS, page_of_cards, rarest_attributes, search_cards
from .selectors import supply_distribution as supply_counts
from .whatif import SLOTS, Catalogue, Suggestion, apply, changed_fields, suggestions

CARD_LIST_PAGE_SIZE = 24


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


@dataclass
class RuleRow:
    key: str
    label: str
    rarity: str
    decided: bool
    steps: list[Step]
    next_text: str = ""
    next_whatif: str = ""  # query string of a what-if that reaches it
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
    label: str
    atk: int
    hp: int
    def_: int
    ability: int
    is_base: bool


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


def _step(step: TraceStep) -> Step:
    section = narration.step_section(step)
    return Step(step.code, narration.sentence(step), narration.wiki_url(section))


def _steps(trace: Iterable[TraceStep], *prefixes: str) -> list[Step]:
    return [_step(s) for s in trace if s.code.startswith(prefixes)]


def rule_rows(
    breakdown: Breakdown,
    found: dict[str, Suggestion],
    changed: set[str] | frozenset[str] = frozenset(),
) -> list[RuleRow]:
    rows = []
    for result in breakdown.rules:
        codes = narration.TRACE.codes_of_rule(result.key)
        row = RuleRow(
            key=result.key,
            label=rule_label(result.key),
            rarity=result.rarity.value,
            decided=result.key in breakdown.decided_by,
            steps=[_step(s) for s in breakdown.trace if s.code in codes],
            wiki_url=narration.wiki_url(result.key),
            changed=f"rule:{result.key}" in changed,
        )
        if result.next_tier is not None:
            row.next_text = narration.requirement_sentence(result.next_tier)
            suggestion = found.get(f"{result.key}:{result.next_tier.target.value}")
            if suggestion is not None:
                row.next_whatif = suggestion.whatif.query()
        rows.append(row)
    return rows


def paths(
    card: CardSpec, requirements: Iterable[Requirement], catalogue: Catalogue
) -> tuple[list[Path], dict[str, Suggestion]]:
    """Requirements in words, each with a what-if checked to reach its target."""
    requirements = tuple(requirements)
    found = {
        f"{s.requirement.rule}:{s.requirement.target.value}": s
        for s in suggestions(card, requirements, catalogue)
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
    return out, found


def sections(breakdown: Breakdown) -> list[Section]:
    """The whole trace, grouped the way the page shows it."""
    return [
        Section("rarity", _("Rarity"), _steps(breakdown.trace, "rarity.")),
        Section("role", _("Role"), _steps(breakdown.trace, "role.")),
        Section("skill", _("Skill"), _steps(breakdown.trace, "skill.")),
        Section("template", _("Template"), _steps(breakdown.trace, "template.")),
        Section("stats", _("Stats"), _steps(breakdown.trace, "stats.")),
        Section("effects", _("Effects"), _steps(breakdown.trace, "effects.")),
        Section("energy", _("Energy"), _steps(breakdown.trace, "energy.")),
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
            label=names.get(layer.layer, layer.layer),
            atk=layer.atk,
            hp=layer.hp,
            def_=layer.def_,
            ability=layer.ability,
            is_base=layer.layer == "base",
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
    catalogue: tuple[tuple[str, int], ...]
    # The selected name when it is not among the owned ones: the catalogue's options are
    # a cached fragment per (slot, collection version, this name).
    catalogue_selected: str
    error: str


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
    card: CardSpec
    breakdown: Breakdown
    original_breakdown: Breakdown
    whatif_active: bool
    changed: frozenset[str]
    form: WhatIfFields
    answer: str
    art: CardArt
    equipped: list[EquippedRow]
    rules: list[RuleRow]
    next_paths: list[Path]
    legendary_paths: list[Path]
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
    catalogue_version: str

    @property
    def status(self) -> int:
        return 400 if self.form.errors else 200


_SKILL_SUMMARY = ("skill.role_default", "skill.affinity", "skill.active")
_TIE_BREAK = ("skill.tie_break.scan", "skill.tie_break")


def _whatif_fields(form: WhatIfForm, card: CardSpec) -> WhatIfFields:
    pickers = []
    for slot in SLOTS:
        bound = form[slot.value]
        selected = form.shown(slot.value, card.attribute(slot).name)
        owned = bound.field.owned
        pickers.append(
            Picker(
                slot=slot.value,
                label=label(slot),
                selected=selected,
                owned=owned,
                catalogue=bound.field.catalogue.choices(slot),
                catalogue_selected="" if any(n == selected for n, _s in owned) else selected,
                error=" ".join(bound.errors),
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


def card_page(card: CardSpec, catalogue: Catalogue, form: WhatIfForm) -> CardPage:
    """The card's breakdown, or the what-if's when the form asks one (never saved)."""
    original_breakdown = derive(card)
    whatif = form.whatif()
    shown, breakdown, changed = card, original_breakdown, frozenset[str]()
    if not whatif.is_empty:
        shown = apply(card, whatif, catalogue)
        breakdown = derive(shown)
        changed = frozenset(changed_fields(original_breakdown, breakdown))
    next_paths: list[Path] = []
    found: dict[str, Suggestion] = {}
    legendary_paths: list[Path] = []
    if breakdown.next_tier is not None:
        next_paths, found = paths(shown, breakdown.next_tier.paths, catalogue)
        if breakdown.next_tier.target is not Rarity.LEGENDARY:
            towards = paths_to(shown, Rarity.LEGENDARY)
            if towards is not None:
                legendary_paths, _found = paths(shown, towards.paths, catalogue)
    trace = breakdown.trace
    return CardPage(
        original=card,
        card=shown,
        breakdown=breakdown,
        original_breakdown=original_breakdown,
        whatif_active=not whatif.is_empty,
        changed=changed,
        form=_whatif_fields(form, card),
        answer=narration.one_line_answer(breakdown),
        art=card_art(
            shown.token,
            shown.name,
            breakdown.rarity.value,
            {slot.value: shown.attribute(slot).name for slot in Slot},
        ),
        equipped=equipped_rows(shown),
        rules=rule_rows(breakdown, found, changed),
        next_paths=next_paths,
        legendary_paths=legendary_paths,
        sections=sections(breakdown),
        skill_summary=[_step(s) for s in trace if s.code in _SKILL_SUMMARY],
        tie_break_steps=[_step(s) for s in trace if s.code in _TIE_BREAK],
        role_steps=_steps(trace, "role."),
        template_steps=_steps(trace, "template."),
        effect_steps=_steps(trace, "effects."),
        skill_rows=skill_rows(breakdown),
        stat_rows=stat_rows(breakdown),
        effect_rows=effect_rows(breakdown),
        undercharge_rows=undercharge_rows(breakdown),
        wiki={key: rule_url(key) for key in (*RULE_SECTIONS, *TOPIC_SECTIONS)},
        catalogue_version=versions.current("cards"),
    )


# ---------------------------------------------------------------------------
# The card list


@dataclass(frozen=True, slots=True)
class CardListPage:
    q: str
    error: str
    page: Page | None = None
    cards: list[Card] = field(default_factory=list)
    described: list[str] = field(default_factory=list)
    sort_described: str = ""
    elided: list[object] = field(default_factory=list)
    sorts: dict[str, object] = field(default_factory=lambda: SORTS)

    @property
    def status(self) -> int:
        return 400 if self.error else 200


def card_list_page(form: CardListForm) -> CardListPage:
    """One page of the cards a search finds, and the search in words."""
    text = str(form.data.get("q", ""))
    if form.has_error("q"):
        return CardListPage(q=text, error=" ".join(form.errors["q"]))
    query: Query = form.cleaned_data["q"]
    paginator = Paginator(search_cards(query).values_list("pk", flat=True), CARD_LIST_PAGE_SIZE)
    page = paginator.get_page(form.page_number())
    return CardListPage(
        q=text,
        error="",
        page=page,
        cards=page_of_cards(list(page.object_list)),
        described=describe(query),
        sort_described=describe_sort(query),
        elided=list(paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)),
    )


# ---------------------------------------------------------------------------
# Compare


@dataclass(frozen=True, slots=True)
class CompareColumn:
    card: CardSpec
    breakdown: Breakdown
    answer: str
    rules: list[RuleRow]
    effects: list[EffectRow]
    equipped: list[EquippedRow]


@dataclass(frozen=True, slots=True)
class ComparePage:
    a: str
    b: str
    errors: list[str]
    columns: list[CompareColumn]
    asked: bool

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def compare_page(form: CompareForm) -> ComparePage:
    """Two cards side by side, or why they cannot be."""
    typed = {key: str(form[key].value() or "").strip() for key in ("a", "b")}
    if not form.is_bound:
        return ComparePage(typed["a"], typed["b"], [], [], asked=False)
    errors: list[str] = []
    specs: list[CardSpec] = []
    for key in ("a", "b"):
        if form.has_error(key):
            errors.extend(form.errors[key])
            continue
        token = form.cleaned_data[key]
        try:
            specs.append(card_spec(token))
        except Card.DoesNotExist:
            errors.append(_("There is no card #%(token)s.") % {"token": token})
    if errors:
        return ComparePage(typed["a"], typed["b"], errors, [], asked=True)
    columns = []
    for spec in specs:
        breakdown = derive(spec)
        columns.append(
            CompareColumn(
                card=spec,
                breakdown=breakdown,
                answer=narration.one_line_answer(breakdown),
                rules=rule_rows(breakdown, {}),
                effects=effect_rows(breakdown),
                equipped=equipped_rows(spec),
            )
        )
    return ComparePage(typed["a"], typed["b"], [], columns, asked=True)


# ---------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True, slots=True)
class StatisticsPage:
    stats: CollectionStats
    charts: list[BarChart]
    supply_buckets: list[str]
    supply_rows: list[tuple[str, list[int]]]
    rarest: list[Any]


def _bars(
    enum_cls: type, counts: dict[str, int], field_name: str, list_url: str
) -> list[tuple[str, int, str, str]]:
    return [
        (
            label_of(enum_cls, key),
            value,
            key,
            f"{list_url}?{urlencode({'q': f'{field_name}:{key}'})}",
        )
        for key, value in counts.items()
    ]


def statistics_page() -> StatisticsPage:
    """Distributions of the collection, each bar linked to the search it counts."""
    stats = collection_stats()
    list_url = reverse("explorer:card-list")

    def bars(enum_cls: type, counts: dict[str, int], name: str) -> list[tuple[str, int, str, str]]:
        return _bars(enum_cls, counts, name, list_url)

    active = bars(Skill, stats["by_active_skill"], "active")
    active.append(
        (label(None), stats["without_active_skill"], "none", f"{list_url}?q=active%3Anone")
    )
    return StatisticsPage(
        stats=stats,
        charts=[
            bar_chart(_("Rarity (starter cards apart)"), bars(Rarity, stats["by_rarity"], "r")),
            bar_chart(_("Role"), bars(Role, stats["by_role"], "role")),
            bar_chart(_("Skill affinity"), bars(Skill, stats["by_skill_affinity"], "s")),
            bar_chart(_("Active skill"), active),
        ],
        supply_buckets=[text for _upper, text in SUPPLY_BUCKETS],
        supply_rows=[(label_of(Slot, slot), counts) for slot, counts in supply_counts().items()],
        rarest=rarest_attributes(),
    )


__all__ = [
    "CardListPage",
    "CardPage",
    "ComparePage",
    "Path",
    "RuleRow",
    "Section",
    "StatisticsPage",
    "card_list_page",
    "card_page",
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
]
