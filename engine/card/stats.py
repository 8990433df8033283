"""Templates, stats, effects and energy (docs/rules.md §5; undercharge from §6).

The results depend on a handful of small values (template, rarity, burned
stickers, paw tier), so the cores are memoised; what they return is frozen
and shared (trace parameters are read-only mappings).

>>> from engine.types import Rarity
>>> template = TEMPLATES_BY_KEY["iron_pup"]
>>> [template.atk + template.bonus(r).atk for r in (Rarity.COMMON, Rarity.EPIC)]
[8, 9]
>>> energy_cost(Rarity.EPIC)
3
"""

from __future__ import annotations

import hashlib
from types import MappingProxyType
from typing import Any

from engine.caches import memo
from engine.card.rarity import tier_of
from engine.data import (
    BURN_MILESTONES,
    EFFECT_FILL_ORDER,
    ENERGY_COST,
    PAW_ITEM_ATK,
    SIGNATURE_ALLOWANCE,
    SIGNATURES,
    STICKER_ATK_CAP,
    STICKERS_PER_ATK,
    TEMPLATES_BY_KEY,
    TEMPLATES_BY_ROLE,
    UNDERCHARGE,
    Template,
    UnderchargeTier,
)
from engine.types import (
    CardSpec,
    Effect,
    EffectSlot,
    EffectSource,
    Rarity,
    Role,
    Slot,
    StatLayer,
    Stats,
    Tier,
    TraceStep,
    UnderchargeRow,
)

__all__ = [
    "TEMPLATES_BY_KEY",
    "apply_undercharge",
    "compute_effects",
    "compute_stats",
    "energy_cost",
    "pick_template",
    "undercharge_table",
    "undercharge_tier",
]

_EFFECT_SLOT_ORDER = {slot: i for i, slot in enumerate(EffectSlot)}
_CANDIDATES = {role: tuple(t.key for t in ts) for role, ts in TEMPLATES_BY_ROLE.items()}
_SIGNATURE_BY_SLOT = {role: {sig.slot: sig for sig in sigs} for role, sigs in SIGNATURES.items()}


def _step(code: str, value: Any = None, **params: Any) -> TraceStep:
    """A shareable trace step (read-only params) for the memoised cores."""
    return TraceStep(code, MappingProxyType(params), value)


def _template_byte(token: int) -> int:
    return hashlib.sha256(f"template:{token}".encode()).digest()[0]


def pick_template(token: int, role: Role, trace: list[TraceStep] | None = None) -> Template:
    """The template of card ``token`` among its role's templates sorted by key (§5).

    Index = first byte of SHA-256(``template:<token>``) mod the number of templates.

    >>> from engine.types import Role
    >>> pick_template(1, Role.TANK).key
    'bulwark_hound'
    """
    template, step = _template_pick(_template_byte(token), role)
    if trace is not None:
        trace.append(step)
    return template


@memo
def _template_pick(byte: int, role: Role) -> tuple[Template, TraceStep]:
    templates = TEMPLATES_BY_ROLE[role]
    index = byte % len(templates)
    template = templates[index]
    step = _step(
        "template.selected",
        template.key,
        role=role,
        byte=byte,
        count=len(templates),
        index=index,
        candidates=_CANDIDATES[role],
    )
    return template, step


@memo
def _paw_step(name: str, tier: Tier, atk: int) -> TraceStep:
    return _step("stats.paw_item", name=name, tier=tier, atk=atk)


@memo
def _energy_step(rarity: Rarity, cost: int) -> TraceStep:
    return _step("energy.cost", cost, rarity=rarity)


@memo
def _stats_core(
    key: str, rarity: Rarity, burned: int, paw_tier: Tier
) -> tuple[tuple[StatLayer, ...], Stats, tuple[TraceStep, ...], int, tuple[TraceStep, ...]]:
    template = TEMPLATES_BY_KEY[key]
    bonus = template.bonus(rarity)
    sticker_atk = min(burned // STICKERS_PER_ATK, STICKER_ATK_CAP)
    paw_atk = PAW_ITEM_ATK[paw_tier]
    milestone = next((m for m in BURN_MILESTONES if burned >= m.burned), None)
    burn_hp = milestone.hp if milestone is not None else 0
    layers = (
        StatLayer("base", template.atk, template.hp, template.def_, template.ability),
        StatLayer("rarity_bonus", bonus.atk, bonus.hp, 0, bonus.ability),
        StatLayer("sticker_power", sticker_atk, 0, 0, 0),
        StatLayer("paw_item", paw_atk, 0, 0, 0),
        StatLayer("burn_milestone", 0, burn_hp, 0, 0),
    )
    stats = Stats(
        template.atk + bonus.atk + sticker_atk + paw_atk,
        template.hp + bonus.hp + burn_hp,
        template.def_,
        template.ability + bonus.ability,
    )
    before = (
        _step(
            "stats.base",
            **{
                "template": key,
                "atk": template.atk,
                "hp": template.hp,
                "def": template.def_,
                "ability": template.ability,
            },
        ),
        _step(
            "stats.rarity_bonus", rarity=rarity, atk=bonus.atk, hp=bonus.hp, ability=bonus.ability
        ),
        _step(
            "stats.sticker_power",
            burned=burned,
            per_atk=STICKERS_PER_ATK,
            cap=STICKER_ATK_CAP,
            atk=sticker_atk,
        ),
    )
    after = (
        _step(
            "stats.burn_milestone",
            burned=burned,
            milestone=milestone.burned if milestone is not None else None,
            hp=burn_hp,
        ),
        _step(
            "stats.final",
            **{"atk": stats.atk, "hp": stats.hp, "def": stats.def_, "ability": stats.ability},
        ),
    )
    return layers, stats, before, paw_atk, after


def compute_stats(
    card: CardSpec,
    template: Template,
    rarity: Rarity,
    trace: list[TraceStep] | None = None,
) -> tuple[tuple[StatLayer, ...], Stats]:
    """Final stats, layer by layer: base, rarity bonus, sticker power, paw item, burn milestone.

    >>> from engine.types import AttributeSpec, CardSpec, Rarity, Slot
    >>> card = CardSpec(1, "Pup", tuple(AttributeSpec(s, "Plain", 4) for s in Slot),
    ...                 burned_stickers=7)
    >>> layers, stats = compute_stats(card, TEMPLATES_BY_KEY["iron_pup"], Rarity.LEGENDARY)
    >>> [(layer.layer, layer.atk, layer.hp) for layer in layers]
    [('base', 8, 20), ('rarity_bonus', 2, 3), ('sticker_power', 3, 0), ('paw_item', 2, 0), ('burn_milestone', 0, 4)]
    >>> stats
    Stats(atk=15, hp=27, def_=2, ability=3)
    """
    paw = card.attribute(Slot.PAW)
    paw_tier = tier_of(paw.supply)
    layers, stats, before, paw_atk, after = _stats_core(
        template.key, rarity, card.burned_stickers, paw_tier
    )
    if trace is not None:
        trace += before
        trace.append(_paw_step(paw.name, paw_tier, paw_atk))
        trace += after
    return layers, stats


@memo
def _effects_core(key: str, rarity: Rarity) -> tuple[tuple[Effect, ...], tuple[TraceStep, ...]]:
    template = TEMPLATES_BY_KEY[key]
    role = template.role
    bonus = template.bonus(rarity).ability
    value = template.ability + bonus
    effects = {
        EffectSlot.DEPLOY: Effect(
            EffectSlot.DEPLOY,
            template.deploy,
            template.ability,
            bonus,
            value,
            EffectSource.TEMPLATE,
        )
    }
    steps = [
        _step(
            "effects.template",
            value,
            template=key,
            slot=EffectSlot.DEPLOY,
            kind=template.deploy,
            base=template.ability,
            bonus=bonus,
        )
    ]
    allowance = SIGNATURE_ALLOWANCE[rarity]
    if allowance:
        order = EFFECT_FILL_ORDER[role]
        catalogue = _SIGNATURE_BY_SLOT[role]
        steps.append(
            _step("effects.allowance", allowance, rarity=rarity, role=role, fill_order=order)
        )
        for slot in order:
            if allowance == 0:
                break
            if slot in effects:
                steps.append(_step("effects.slot_taken", slot=slot))
                continue
            sig = catalogue.get(slot)
            if sig is None:
                continue
            value = sig.value + bonus
            effects[slot] = Effect(slot, sig.kind, sig.value, bonus, value, EffectSource.SIGNATURE)
            allowance -= 1
            steps.append(
                _step(
                    "effects.signature",
                    value,
                    role=role,
                    slot=slot,
                    kind=sig.kind,
                    base=sig.value,
                    bonus=bonus,
                )
            )
    ordered = tuple(sorted(effects.values(), key=lambda e: _EFFECT_SLOT_ORDER[e.slot]))
    return ordered, tuple(steps)


def compute_effects(
    template: Template, rarity: Rarity, trace: list[TraceStep] | None = None
) -> tuple[Effect, ...]:
    """The card's effects: the template's Deploy, then signatures by the role's fill order.

    Common and Free keep only the Deploy; Rare, Epic and Legendary add up to 1, 2
    and 3 signatures of the template's role, filling only empty slots. Every
    value adds the template's ability bonus for ``rarity``.

    >>> from engine.types import Rarity
    >>> effects = compute_effects(TEMPLATES_BY_KEY["iron_pup"], Rarity.LEGENDARY)
    >>> [(e.slot.value, e.kind.value, e.value, e.source.value) for e in effects]
    [('deploy', 'shield', 3, 'template'), ('passive', 'wounded_rage', 3, 'signature'), ('last_breath', 'heal_hero', 4, 'signature')]
    """
    effects, steps = _effects_core(template.key, rarity)
    if trace is not None:
        trace += steps
    return effects


def energy_cost(rarity: Rarity, trace: list[TraceStep] | None = None) -> int:
    """NRG cost of deploying a card of ``rarity`` (§5).

    >>> from engine.types import Rarity
    >>> energy_cost(Rarity.FREE), energy_cost(Rarity.LEGENDARY)
    (1, 4)
    """
    cost = ENERGY_COST[rarity]
    if trace is not None:
        trace.append(_energy_step(rarity, cost))
    return cost


def undercharge_tier(deficit: int) -> UnderchargeTier:
    """The undercharge penalty for an NRG ``deficit`` ≥ 1 (the last tier covers larger ones).

    >>> undercharge_tier(1).stat_cut_percent, undercharge_tier(5).stat_cut_percent
    (25, 50)
    """
    if deficit < 1:
        raise ValueError("deficit must be at least 1")
    chosen = UNDERCHARGE[0]
    for tier in UNDERCHARGE:
        if deficit >= tier.deficit:
            chosen = tier
    return chosen


def _cut(value: int, tier: UnderchargeTier) -> int:
    return value * (100 - tier.stat_cut_percent) // 100


def _weaken(value: int, tier: UnderchargeTier) -> int:
    if tier.halve_effects:
        return value // 2
    return max(0, value - tier.effect_minus)


def _undercharge_row(
    atk: int, def_: int, effects: tuple[tuple[EffectSlot, int], ...], nrg: int, cost: int
) -> UnderchargeRow:
    deficit = cost - nrg
    tier = undercharge_tier(deficit)
    return UnderchargeRow(
        nrg,
        deficit,
        tier.stat_cut_percent,
        _cut(atk, tier),
        _cut(def_, tier),
        tuple((slot, _weaken(value, tier)) for slot, value in effects),
        False,
    )


def apply_undercharge(
    stats: Stats, effects: tuple[Effect, ...], nrg: int, cost: int
) -> UnderchargeRow:
    """The card deployed with ``nrg`` < ``cost``: ATK/DEF cut, numeric effects weakened (§6).

    Results round down and never go below 0; the active skill is off.

    >>> from engine.types import Stats
    >>> row = apply_undercharge(Stats(10, 23, 2, 3), (), nrg=2, cost=4)
    >>> row.deficit, row.atk, row.def_, row.skill_active
    (2, 6, 1, False)
    """
    if not 0 <= nrg < cost:
        raise ValueError("undercharge needs 0 ≤ nrg < cost")
    values = tuple([(e.slot, e.value) for e in effects])
    return _undercharge_row(stats.atk, stats.def_, values, nrg, cost)


@memo
def _undercharge_core(
    atk: int, def_: int, effects: tuple[tuple[EffectSlot, int], ...], cost: int
) -> tuple[tuple[UnderchargeRow, ...], tuple[TraceStep, ...]]:
    rows = tuple(_undercharge_row(atk, def_, effects, nrg, cost) for nrg in range(cost - 1, -1, -1))
    steps = tuple(
        _step(
            "energy.undercharge",
            nrg=row.nrg,
            deficit=row.deficit,
            stat_cut_percent=row.stat_cut_percent,
            **{
                "atk": row.atk,
                "def": row.def_,
                "effects": MappingProxyType(dict(row.effects)),
            },
        )
        for row in rows
    )
    return rows, steps


def undercharge_table(
    stats: Stats,
    effects: tuple[Effect, ...],
    cost: int,
    trace: list[TraceStep] | None = None,
) -> tuple[UnderchargeRow, ...]:
    """One undercharge row per NRG amount below ``cost``, most NRG first (§6).

    >>> from engine.types import Stats
    >>> [(r.nrg, r.atk) for r in undercharge_table(Stats(10, 23, 2, 3), (), 4)]
    [(3, 7), (2, 6), (1, 5), (0, 5)]
    """
    values = tuple([(e.slot, e.value) for e in effects])
    rows, steps = _undercharge_core(stats.atk, stats.def_, values, cost)
    if trace is not None:
        trace += steps
    return rows
