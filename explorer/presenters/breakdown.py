"""Rows of a breakdown."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.labels import label, rule_label, template_label
from core.links import route_path
from core.narration import Kept
from engine.card.rarity import tier_of
from engine.types import (
    AttributeKind,
    Breakdown,
    CardSpec,
    EffectSlot,
    Requirement,
    Slot,
    TraceStep,
)

from .. import narration
from ..whatif import Catalogue, WhatIf, suggestions
from .common import attribute_query


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
