"""``derive(card)``: everything about a card, with the trace that explains it.

>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> card = CardSpec(42, "Pup #42", (
...     AttributeSpec(Slot.HEAD, "Iron Helm", 3), AttributeSpec(Slot.BODY, "Chain Armor", 2),
...     AttributeSpec(Slot.PAW, "Axe", 3), AttributeSpec(Slot.BACKGROUND, "Sky", 900)))
>>> b = derive(card)
>>> b.rarity.value, b.decided_by, b.role.value, b.active_skill.value
('legendary', ('supply_count',), 'tank', 'pierce')
>>> b.trace[0].code
'rarity.supply_count'
"""

from __future__ import annotations

from engine.card.rarity import decide_rarity
from engine.card.skills import (
    active_skill,
    attribute_infos,
    role_from_infos,
    roll_temporary_skill,
    skill_from_infos,
)
from engine.card.stats import (
    compute_effects,
    compute_stats,
    energy_cost,
    pick_template,
    undercharge_table,
)
from engine.types import Breakdown, CardSpec, TraceStep

__all__ = ["derive"]


def derive(card: CardSpec, *, temporary_id: str | int | None = None) -> Breakdown:
    """Derive rarity, role, skill, template, stats, effects and energy of ``card``.

    Pure and deterministic: the same card always gives an equal Breakdown.
    Pass ``temporary_id`` only for a temporary (non-NFT) card, such as a bot
    card minted for a demo: its active skill is then rolled from that id
    (docs/rules.md §4) instead of following the Legendary rule.

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(7, "Pup #7", (
    ...     AttributeSpec(Slot.HEAD, "Straw Cap", 500), AttributeSpec(Slot.BODY, "Candy Coat", 20),
    ...     AttributeSpec(Slot.PAW, "Dagger", 4), AttributeSpec(Slot.BACKGROUND, "Blue Sky", 900)),
    ...     getgems_rank=150)
    >>> b = derive(card)
    >>> b.rarity.value, b.decided_by, b.role.value, b.skill_affinity.value, b.active_skill
    ('rare', ('tier_badge', 'getgems_rank'), 'striker', 'speed', None)
    >>> [(p.rule, p.target.value) for p in b.next_tier.paths][:2]
    [('supply_count', 'epic'), ('wardrobe_score', 'epic')]
    >>> b.energy_cost, [e.slot.value for e in b.effects]
    (2, ['deploy', 'last_breath'])
    """
    trace: list[TraceStep] = []
    rarity = decide_rarity(card, trace)
    infos = attribute_infos(card)
    role = role_from_infos(card, infos, trace)
    skill = skill_from_infos(card, infos, role.role, trace)
    if temporary_id is None:
        active = active_skill(rarity.rarity, skill.affinity, trace)
    else:
        active = roll_temporary_skill(temporary_id, rarity.rarity, skill.affinity, trace)
    template = pick_template(card.token, role.role, trace)
    layers, stats = compute_stats(card, template, rarity.rarity, trace)
    effects = compute_effects(template, rarity.rarity, trace)
    cost = energy_cost(rarity.rarity, trace)
    undercharge = undercharge_table(stats, effects, cost, trace)
    return Breakdown(
        token=card.token,
        rarity=rarity.rarity,
        decided_by=rarity.decided_by,
        rules=rarity.rules,
        wardrobe_score=rarity.wardrobe_score,
        next_tier=rarity.next_tier,
        role=role.role,
        role_source=role.source,
        role_votes=role.votes,
        role_totals=role.totals,
        skill_affinity=skill.affinity,
        skill_source=skill.source,
        skill_table=skill.table,
        skill_scores=skill.scores,
        skill_tie_break=skill.tie_break,
        active_skill=active,
        template=template.key,
        stat_layers=layers,
        stats=stats,
        effects=effects,
        energy_cost=cost,
        undercharge=undercharge,
        trace=tuple(trace),
    )
