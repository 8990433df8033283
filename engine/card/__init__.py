"""A card's rules (docs/rules.md §1–5): ``rarity`` (the six rarity rules and what the
next tier needs), ``skills`` (role and skill from keyword points), ``stats`` (template,
stats, effects, energy, undercharge), ``derive`` (all of it into one ``Breakdown``) and
``trace`` (the codes a derivation emits).

>>> from engine.card import derive, tier_of
>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> b = derive(CardSpec(7, "Pup #7", tuple(AttributeSpec(s, "Iron Helm", 2) for s in Slot)))
>>> b.rarity, b.role, b.active_skill, b.energy_cost
(<Rarity.LEGENDARY: 'legendary'>, <Role.TANK: 'tank'>, <Skill.PIERCE: 'pierce'>, 4)
>>> b.trace[-1].code in CODES, tier_of(5)
(True, <Tier.UNIQUE: 'unique'>)
"""

from engine.card.derive import derive
from engine.card.rarity import decide_rarity, format_score, paths_to, tier_of, wardrobe_score
from engine.card.skills import (
    active_skill,
    decide_role,
    decide_skill,
    keyword_hits,
    keyword_skills,
    roll_temporary_skill,
)
from engine.card.stats import (
    apply_undercharge,
    compute_effects,
    compute_stats,
    energy_cost,
    pick_template,
    undercharge_table,
)
from engine.card.trace import CODES, NEEDS

__all__ = [
    "CODES",
    "NEEDS",
    "active_skill",
    "apply_undercharge",
    "compute_effects",
    "compute_stats",
    "decide_rarity",
    "decide_role",
    "decide_skill",
    "derive",
    "energy_cost",
    "format_score",
    "keyword_hits",
    "keyword_skills",
    "paths_to",
    "pick_template",
    "roll_temporary_skill",
    "tier_of",
    "undercharge_table",
    "wardrobe_score",
]
