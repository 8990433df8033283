"""Card Codex rules engine: pure Python, no Django, no I/O in the rules.

One subpackage per game: ``engine.card`` (``derive(card)`` turns a frozen ``CardSpec``
into a ``Breakdown`` — rarity, role, skill, template, stats, effects, energy — with a
``Trace`` of coded steps that explains every decision; the codes are documented in
``engine.card.trace``), ``engine.match`` (the paw-game match, its bots and series),
``engine.arena`` (the slab arena: stat book, teams, brackets, the match, its bots) and
``engine.packs`` (booster packs: the tier-weighted draw and its exact odds). Rule numbers
and tables live in ``engine.data``; JSON in and out is ``engine.serialize`` (one module
per game); every refusal is an ``engine.errors.RuleError``; every memo is named in
``engine.caches``; ``python -m engine`` is ``engine.cli``.

>>> from engine import AttributeSpec, CardSpec, Slot, derive
>>> card = CardSpec(3, "Pup #3", tuple(AttributeSpec(s, "Plain", 500) for s in Slot))
>>> b = derive(card)
>>> b.rarity, b.energy_cost
(<Rarity.COMMON: 'common'>, 1)
"""

from engine.arena.slabs import (
    Bracket,
    Element,
    InvalidMoveError,
    InvalidSlabError,
    InvalidTeamError,
    Slab,
    SlabMove,
    SlabStats,
    SlabTier,
    slab_stats,
    team_brackets,
    validate_team,
)
from engine.caches import clear_caches
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
from engine.packs import (
    CardOdds,
    InvalidOfferError,
    OfferOdds,
    PackCandidate,
    TierOdds,
    draw_offer,
    offer_odds,
)
from engine.serialize import breakdown_to_json, card_from_json, card_to_json, parse_card
from engine.types import (
    AttributeKind,
    AttributeSpec,
    BoostKind,
    Breakdown,
    CardSpec,
    ComboSpec,
    Effect,
    EffectKind,
    EffectSlot,
    EffectSource,
    EndReason,
    InvalidCardError,
    NextTier,
    Rarity,
    Requirement,
    Role,
    RoleVote,
    RuleResult,
    Side,
    Skill,
    SkillRow,
    Slot,
    StatLayer,
    Stats,
    SupplySlot,
    TieBreakEntry,
    Tier,
    Trace,
    TraceStep,
    UnderchargeRow,
)

__all__ = [
    "AttributeKind",
    "AttributeSpec",
    "BoostKind",
    "Bracket",
    "Breakdown",
    "CardOdds",
    "CardSpec",
    "ComboSpec",
    "Effect",
    "EffectKind",
    "EffectSlot",
    "EffectSource",
    "Element",
    "EndReason",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidOfferError",
    "InvalidSlabError",
    "InvalidTeamError",
    "NextTier",
    "OfferOdds",
    "PackCandidate",
    "Rarity",
    "Requirement",
    "Role",
    "RoleVote",
    "RuleResult",
    "Side",
    "Skill",
    "SkillRow",
    "Slab",
    "SlabMove",
    "SlabStats",
    "SlabTier",
    "Slot",
    "StatLayer",
    "Stats",
    "SupplySlot",
    "TieBreakEntry",
    "Tier",
    "TierOdds",
    "Trace",
    "TraceStep",
    "UnderchargeRow",
    "active_skill",
    "apply_undercharge",
    "breakdown_to_json",
    "card_from_json",
    "card_to_json",
    "clear_caches",
    "compute_effects",
    "compute_stats",
    "decide_rarity",
    "decide_role",
    "decide_skill",
    "derive",
    "draw_offer",
    "energy_cost",
    "format_score",
    "keyword_hits",
    "keyword_skills",
    "offer_odds",
    "parse_card",
    "paths_to",
    "pick_template",
    "roll_temporary_skill",
    "slab_stats",
    "team_brackets",
    "tier_of",
    "undercharge_table",
    "validate_team",
    "wardrobe_score",
]
