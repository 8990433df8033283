"""A Breakdown arranged for the card page: rows, sentences, links — no HTML here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.labels import enum_label, template_label
from engine.types import Breakdown, CardSpec, EffectSlot, Slot, TraceStep

from . import narration
from .whatif import Catalogue, Suggestion, suggestions


@dataclass
class Step:
    code: str
    text: str
    wiki_url: str
    section: str


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


@dataclass
class Path:
    text: str
    rule_label: str
    whatif_query: str
    result: str


@dataclass
class Section:
    key: str
    title: str
    steps: list[Step] = field(default_factory=list)


def _steps(trace: tuple[TraceStep, ...], prefix: str) -> list[Step]:
    return [
        Step(s.code, narration.sentence(s), narration.wiki_url(narration.step_section(s)), prefix)
        for s in trace
        if s.code.startswith(prefix)
    ]


def rule_rows(
    breakdown: Breakdown,
    found: dict[str, Suggestion],
    changed: set[str] | frozenset[str] = frozenset(),
) -> list[RuleRow]:
    rows = []
    for result in breakdown.rules:
        codes = narration.TRACE.codes_of_rule(result.key)
        steps = [
            Step(
                s.code,
                narration.sentence(s),
                narration.wiki_url(narration.step_section(s)),
                "rarity",
            )
            for s in breakdown.trace
            if s.code in codes
        ]
        row = RuleRow(
            key=result.key,
            label=narration.rule(result.key),
            rarity=result.rarity.value,
            decided=result.key in breakdown.decided_by,
            steps=steps,
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
    card: CardSpec, requirements: Any, catalogue: Catalogue
) -> tuple[list[Path], dict[str, Suggestion]]:
    """Requirements in words, each with a what-if checked to reach its target."""
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
                rule_label=narration.rule(req.rule),
                whatif_query=suggestion.whatif.query() if suggestion else "",
                result=suggestion.result.value if suggestion else "",
            )
        )
    return out, found


def sections(breakdown: Breakdown) -> list[Section]:
    """The whole trace, grouped the way the page shows it."""
    from django.utils.translation import gettext as _

    return [
        Section("rarity", _("Rarity"), _steps(breakdown.trace, "rarity.")),
        Section("role", _("Role"), _steps(breakdown.trace, "role.")),
        Section("skill", _("Skill"), _steps(breakdown.trace, "skill.")),
        Section("template", _("Template"), _steps(breakdown.trace, "template.")),
        Section("stats", _("Stats"), _steps(breakdown.trace, "stats.")),
        Section("effects", _("Effects"), _steps(breakdown.trace, "effects.")),
        Section("energy", _("Energy"), _steps(breakdown.trace, "energy.")),
    ]


def skill_rows(breakdown: Breakdown) -> list[dict[str, Any]]:
    rows = []
    for row in breakdown.skill_table:
        rows.append(
            {
                "slot": enum_label("slot", row.slot.value),
                "name": row.name,
                "tier": enum_label("tier", row.tier.value),
                "hits": [
                    {
                        "skill": enum_label("skill", skill.value),
                        "fragments": ", ".join(f"{word} ← {frag}" for word, frag in matches),
                    }
                    for skill, matches in row.hits
                ],
                "primary": enum_label("skill", row.primary.value) if row.primary else "",
                "secondary": enum_label("skill", row.secondary.value) if row.secondary else "",
                "points": row.points,
            }
        )
    return rows


def stat_rows(breakdown: Breakdown) -> list[dict[str, Any]]:
    from django.utils.translation import gettext as _

    names = {
        "base": _("Base (template %(template)s)")
        % {"template": template_label(breakdown.template)},
        "rarity_bonus": _("Rarity bonus (%(rarity)s)")
        % {"rarity": enum_label("rarity", breakdown.rarity.value)},
        "sticker_power": _("Sticker power"),
        "paw_item": _("Paw item"),
        "burn_milestone": _("Burn milestones"),
    }
    rows = [
        {
            "label": names.get(layer.layer, layer.layer),
            "atk": layer.atk,
            "hp": layer.hp,
            "def": layer.def_,
            "ability": layer.ability,
            "is_base": layer.layer == "base",
        }
        for layer in breakdown.stat_layers
    ]
    return rows


def effect_rows(breakdown: Breakdown) -> list[dict[str, Any]]:
    from django.utils.translation import gettext as _

    rows = []
    for slot in EffectSlot:
        effect = breakdown.effect(slot)
        rows.append(
            {
                "slot": enum_label("effect_slot", slot.value),
                "kind": enum_label("effect_kind", effect.kind.value) if effect else "",
                "value": effect.value if effect else None,
                "base": effect.base if effect else None,
                "bonus": effect.bonus if effect else None,
                "source": (
                    (_("template") if effect.source.value == "template" else _("signature"))
                    if effect
                    else ""
                ),
            }
        )
    return rows


def undercharge_rows(breakdown: Breakdown) -> list[dict[str, Any]]:
    return [
        {
            "nrg": row.nrg,
            "deficit": row.deficit,
            "cut": row.stat_cut_percent,
            "atk": row.atk,
            "def": row.def_,
            "effects": ", ".join(
                f"{enum_label('effect_slot', s.value)} {n}" for s, n in row.effects
            ),
        }
        for row in breakdown.undercharge
    ]


def equipped_rows(card: CardSpec) -> list[dict[str, Any]]:
    from engine.rarity import tier_of

    return [
        {
            "slot": slot.value,
            "slot_label": enum_label("slot", slot.value),
            "name": card.attribute(slot).name,
            "supply": card.attribute(slot).supply,
            "tier": tier_of(card.attribute(slot).supply).value,
            "tier_label": enum_label("tier", tier_of(card.attribute(slot).supply).value),
            "kind": card.attribute(slot).kind.value,
        }
        for slot in Slot
    ]


__all__ = [
    "Path",
    "RuleRow",
    "Section",
    "effect_rows",
    "equipped_rows",
    "paths",
    "rule_rows",
    "sections",
    "skill_rows",
    "stat_rows",
    "undercharge_rows",
]
