"""Rarity (docs/rules.md §1–2): attribute tiers, the seven rules, decided-by and the next tier.

Each rule gives a rarity (Common when it finds nothing), its evidence and the
smallest change that would lift it. A card's rarity is the highest rule
result; a starter card is Free and skips every rule.

>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> card = CardSpec(1, "Pup", (
...     AttributeSpec(Slot.HEAD, "Cap", 3), AttributeSpec(Slot.BODY, "Vest", 2),
...     AttributeSpec(Slot.PAW, "Claw", 40), AttributeSpec(Slot.BACKGROUND, "Sky", 90)))
>>> result = decide_rarity(card)
>>> result.rarity, result.decided_by
(<Rarity.EPIC: 'epic'>, ('supply_count',))
>>> format_score(result.wardrobe_score)
'869.4'
>>> result.next_tier.paths[0]
Requirement(rule='supply_count', target=<Rarity.LEGENDARY: 'legendary'>, need='slots_at_most', params=mappingproxy({'slots_needed': 1, 'max_supply': 3, 'candidate_slots': (<Slot.PAW: 'paw'>, <Slot.BACKGROUND: 'background'>)}))
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engine.caches import memo
from engine.data import (
    BURNED_STICKER_TIERS,
    GETGEMS_RANK_TIERS,
    GOD_PREMIUM_TIERS,
    RULE_FLOOR,
    RULE_KEYS,
    STARTER_RARITY,
    STARTER_RULE_KEY,
    SUPPLY_COUNT_TIERS,
    SUPPLY_SUBSTITUTE_TIERS,
    TIER_BADGE_RARITY,
    TIER_BADGE_TIER,
    TIER_BANDS,
    WARDROBE_POINTS,
    WARDROBE_SCORE_TIERS,
)
from engine.types import (
    AttributeKind,
    AttributeSpec,
    CardSpec,
    ComboSpec,
    NextTier,
    Rarity,
    Requirement,
    RuleResult,
    Slot,
    SupplySlot,
    Tier,
    TraceStep,
    fast_init,
)

__all__ = [
    "RarityDecision",
    "decide_rarity",
    "format_score",
    "paths_to",
    "tier_of",
    "wardrobe_score",
]

_COMMON = RULE_FLOOR
_RANK = {r: i for i, r in enumerate(Rarity)}
_NEXT = {r: r.next() for r in Rarity}
_RARITIES = tuple(Rarity)
_SLOTS = tuple(Slot)
_EMPTY: MappingProxyType[str, Any] = MappingProxyType({})


@memo
def tier_of(supply: int) -> Tier:
    """The attribute tier of a supply (docs/rules.md §1).

    >>> tier_of(5), tier_of(6), tier_of(25), tier_of(26)
    (<Tier.UNIQUE: 'unique'>, <Tier.RARE: 'rare'>, <Tier.RARE: 'rare'>, <Tier.BASE: 'base'>)
    """
    for band in TIER_BANDS:
        if band.max_supply is None or supply <= band.max_supply:
            return band.tier
    raise AssertionError("TIER_BANDS must end with an open band")


def wardrobe_score(attributes: Iterable[AttributeSpec]) -> Fraction:
    """Exact wardrobe score: Σ WARDROBE_POINTS / supply over distinct (slot, name) attributes.

    >>> wardrobe_score([AttributeSpec(Slot.HEAD, "A", 3), AttributeSpec(Slot.PAW, "B", 6),
    ...                 AttributeSpec(Slot.PAW, "B", 6)])
    Fraction(500, 1)
    """
    seen = {a.key: a.supply for a in attributes}
    num, den = _score_parts(tuple(seen.values()))
    return Fraction(num, den)


def _score_parts(supplies: Sequence[int]) -> tuple[int, int]:
    """(numerator, denominator) of the score over the lcm of the supplies (not reduced)."""
    den = math.lcm(*supplies) if supplies else 1
    return WARDROBE_POINTS * sum([den // s for s in supplies]), den


def _floor_1dp(num: int, den: int) -> str:
    q = num * 10 // den
    return f"{q // 10}.{q % 10}"


def _ceil_1dp(num: int, den: int) -> str:
    q = -((-num * 10) // den)
    return f"{q // 10}.{q % 10}"


def format_score(score: Fraction) -> str:
    """One-decimal display of a score, rounded down (never shows a threshold not reached).

    >>> format_score(Fraction(8999, 3)), format_score(Fraction(2999999, 1000))
    ('2999.6', '2999.9')
    """
    return _floor_1dp(score.numerator, score.denominator)


@fast_init
@dataclass(frozen=True, slots=True)
class RarityDecision:
    """Result of ``decide_rarity``: see the matching ``Breakdown`` fields."""

    rarity: Rarity
    decided_by: tuple[str, ...]
    rules: tuple[RuleResult, ...]
    wardrobe_score: Fraction | None
    next_tier: NextTier | None


def _lowest_tier_table(tiers: Sequence[Any]) -> dict[Rarity, Any]:
    """target rarity → lowest tier of a highest-first table whose rarity is ≥ target."""
    table = {}
    for target in Rarity:
        table[target] = next((t for t in reversed(tiers) if t.rarity >= target), None)
    return table


_SUPPLY_NEED = _lowest_tier_table(SUPPLY_COUNT_TIERS)
_WARDROBE_NEED = _lowest_tier_table(WARDROBE_SCORE_TIERS)
_BURNED_NEED = _lowest_tier_table(BURNED_STICKER_TIERS)
_GETGEMS_NEED = _lowest_tier_table(GETGEMS_RANK_TIERS)


def _supply_limit(tiers: frozenset[Tier]) -> int:
    """The largest supply whose tier is in ``tiers``, which must be the lowest bands."""
    limit = 0
    for band in TIER_BANDS:
        if band.tier not in tiers:
            break
        assert band.max_supply is not None
        limit = band.max_supply
    assert all(tier_of(s) in tiers for s in range(1, limit + 1))
    assert tier_of(limit + 1) not in tiers
    return limit


# Supply tests on plain integers (checked against TIER_BANDS at import).
_SUBSTITUTE_MAX_SUPPLY = _supply_limit(frozenset(SUPPLY_SUBSTITUTE_TIERS))
_BADGE_SUPPLY = _supply_limit(frozenset({TIER_BADGE_TIER}))
_GOD_PREMIUM = dict(GOD_PREMIUM_TIERS)


# ---------------------------------------------------------------------------
# What each rule needs to reach at least ``target`` (None: already there or impossible).
# Requirements built from a few scalars are memoised and shared (their params are
# read-only mappings).


def _frozen(rule: str, target: Rarity, need: str, **params: Any) -> Requirement:
    return Requirement(rule, target, need, MappingProxyType(params))


def _bucket(supply: int) -> int:
    """Index of the first SUPPLY_COUNT_TIERS threshold ``supply`` fails, from the loosest.

    The supply count rule only asks which thresholds each slot meets, so a
    card's verdict depends on these buckets alone (and is memoised on them).
    """
    bucket = 0
    for limit in _SUPPLY_LIMITS:
        if supply <= limit:
            return bucket
        bucket += 1
    return bucket


# Thresholds of SUPPLY_COUNT_TIERS, tightest first (3, then 5).
_SUPPLY_LIMITS = tuple(sorted({t.max_supply for t in SUPPLY_COUNT_TIERS}))


@memo
def _supply_verdict(
    buckets: tuple[int, ...],
) -> tuple[Rarity, tuple[tuple[int, tuple[Slot, ...]], ...], TraceStep, _Need]:
    """Rarity, (max_supply, slots at or below it) per tier, trace step and need."""
    rarity = _COMMON
    matched = []
    for tier in SUPPLY_COUNT_TIERS:
        level = _SUPPLY_LIMITS.index(tier.max_supply)
        slots = tuple(slot for slot, b in zip(_SLOTS, buckets, strict=True) if b <= level)
        matched.append((tier.max_supply, slots))
        if rarity is _COMMON and len(slots) >= tier.min_slots:
            rarity = tier.rarity
    matched_t = tuple(matched)
    step = _shared_step("rarity.supply_count", rarity, matched=matched_t)
    return rarity, matched_t, step, functools.partial(_need_supply, buckets)


@memo
def _need_supply(buckets: tuple[int, ...], target: Rarity) -> Requirement | None:
    tier = _SUPPLY_NEED[target]
    if tier is None:
        return None
    level = _SUPPLY_LIMITS.index(tier.max_supply)
    candidates = tuple([_SLOTS[i] for i, b in enumerate(buckets) if b > level])
    slots_needed = tier.min_slots - (len(buckets) - len(candidates))
    if slots_needed <= 0:
        return None
    return _frozen(
        "supply_count",
        tier.rarity,
        "slots_at_most",
        slots_needed=slots_needed,
        max_supply=tier.max_supply,
        candidate_slots=candidates,
    )


def _need_wardrobe(num: int, den: int, display: str, target: Rarity) -> Requirement | None:
    tier = _WARDROBE_NEED[target]
    if tier is None:
        return None
    gap = tier.threshold * den - num  # (threshold − score) × den
    if gap <= 0:
        return None
    # One new attribute of supply s adds WARDROBE_POINTS / s: enough when s ≤ this.
    one = WARDROBE_POINTS * den // gap
    return Requirement(
        "wardrobe_score",
        tier.rarity,
        "score",
        {
            "have": display,
            "threshold": tier.threshold,
            "missing": _ceil_1dp(gap, den),
            "one_attribute_max_supply": one if one >= 1 else None,
        },
    )


@memo
def _need_badge(has_badge: bool, target: Rarity) -> Requirement | None:
    if has_badge or target > TIER_BADGE_RARITY:
        return None
    return _frozen(
        "tier_badge",
        TIER_BADGE_RARITY,
        "tier_equipped",
        tier=TIER_BADGE_TIER,
        max_supply=_BADGE_SUPPLY,
    )


@memo
def _need_burned(burned: int, target: Rarity) -> Requirement | None:
    tier = _BURNED_NEED[target]
    if tier is None or burned >= tier.threshold:
        return None
    return _frozen(
        "burned_stickers",
        tier.rarity,
        "burned",
        have=burned,
        threshold=tier.threshold,
        missing=tier.threshold - burned,
    )


@memo
def _need_god_premium(current: Rarity, target: Rarity) -> Requirement | None:
    for kind, rarity in reversed(GOD_PREMIUM_TIERS):
        if rarity >= target and rarity > current:
            return _frozen("god_premium", rarity, "kind_equipped", kind=kind)
    return None


def _combo_key(combo: ComboSpec) -> tuple[tuple[str, str], ...]:
    """A combo's language-independent order: its (slot, attribute name) pairs, sorted
    (attribute names are not translated; a combo's own name is).

    >>> _combo_key(ComboSpec("Пират", ((Slot.PAW, "Hook"), (Slot.HEAD, "Tricorn")), Rarity.EPIC))
    (('head', 'Tricorn'), ('paw', 'Hook'))
    """
    return tuple(sorted((slot.value, name) for slot, name in combo.attributes))


def _need_combo(
    partial: Sequence[tuple[int, int, ComboSpec]], equipped: dict[Slot, str], target: Rarity
) -> Requirement | None:
    """The combo with the fewest missing attributes (then the higher rarity, then the
    first by its attributes: ``_combo_key``, the same in every language — a combo's name is
    translated, and a tie broken on it made the English and Russian pages disagree).

    ``partial`` holds (missing count, rarity rank, combo) for each combo not fully
    equipped; ``equipped`` maps each slot to the equipped attribute's name.
    """
    floor = _RANK[target]
    best = None
    best_n = best_rank = 0
    for n, rank, combo in partial:
        if rank < floor:
            continue
        if (
            best is None
            or n < best_n
            or (
                n == best_n
                and (
                    rank > best_rank or (rank == best_rank and _combo_key(combo) < _combo_key(best))
                )
            )
        ):
            best, best_n, best_rank = combo, n, rank
    if best is None:
        return None
    missing = tuple([pair for pair in best.attributes if equipped[pair[0]] != pair[1]])
    return Requirement(
        "combo",
        best.rarity,
        "combo",
        {"combo": best.name, "missing": missing, "slots_needed": best_n},
    )


@memo
def _need_getgems(rank: int | None, target: Rarity) -> Requirement | None:
    tier = _GETGEMS_NEED[target]
    if tier is None or (rank is not None and rank <= tier.threshold):
        return None
    return _frozen("getgems_rank", tier.rarity, "rank", rank_at_most=tier.threshold, have=rank)


# ---------------------------------------------------------------------------
# The rules. Each returns its RuleResult (with the rule's own next step) and a
# ``need(target)`` function for the card's next tier. Rules that depend on a
# single small value are memoised; what they return is frozen and shared.

_Need = Callable[[Rarity], "Requirement | None"]


def _own_next(rarity: Rarity, need: _Need) -> Requirement | None:
    upper = _NEXT[rarity]
    return need(upper) if upper is not None else None


def _shared_step(code: str, value: Any, **params: Any) -> TraceStep:
    return TraceStep(code, MappingProxyType(params), value)


def _rule_supply_count(
    card: CardSpec, append: Callable[[TraceStep], None]
) -> tuple[RuleResult, _Need]:
    """§2.1: slots whose effective supply is low, with the wardrobe substitution."""
    lowest: dict[Slot, AttributeSpec] = {}  # per slot, the lowest-supply rare/unique spare
    for other in card.wardrobe:
        if other.supply <= _SUBSTITUTE_MAX_SUPPLY:
            known = lowest.get(other.slot)
            if known is None or other.supply < known.supply:
                lowest[other.slot] = other
    supply_slots = []
    buckets = []
    for attr in card.equipped:
        sub = lowest.get(attr.slot)
        if sub is not None and sub.supply < attr.supply:
            supply = sub.supply
            append(
                TraceStep(
                    "rarity.supply_count.substitution",
                    {
                        "slot": attr.slot,
                        "equipped_name": attr.name,
                        "equipped_supply": attr.supply,
                        "name": sub.name,
                        "supply": supply,
                        "tier": tier_of(supply),
                    },
                    supply,
                )
            )
        else:
            sub = None
            supply = attr.supply
        buckets.append(_bucket(supply))
        supply_slots.append(SupplySlot(attr.slot, attr, supply, sub))
    rarity, matched, step, need = _supply_verdict(tuple(buckets))
    append(step)
    evidence = {"slots": tuple(supply_slots), "matched": matched}
    return RuleResult("supply_count", rarity, evidence, _own_next(rarity, need)), need


def _rule_wardrobe_score(
    card: CardSpec, append: Callable[[TraceStep], None]
) -> tuple[RuleResult, _Need, Fraction]:
    """§2.2: Σ 1000 / supply over every distinct owned attribute, compared exactly."""
    owned = card.equipped + card.wardrobe
    num, den = _score_parts([a.supply for a in owned])
    rarity = _COMMON
    for tier in WARDROBE_SCORE_TIERS:
        if num >= tier.threshold * den:
            rarity = tier.rarity
            break
    display = _floor_1dp(num, den)
    score = Fraction(num, den)
    append(TraceStep("rarity.wardrobe_score", {"attributes": len(owned), "score": display}, rarity))

    def need(target: Rarity) -> Requirement | None:
        return _need_wardrobe(num, den, display, target)

    evidence = {"score": score, "display": display, "attributes": owned}
    return RuleResult("wardrobe_score", rarity, evidence, _own_next(rarity, need)), need, score


@memo
def _no_attribute_rule(
    key: str, params: tuple[str, ...], evidence: tuple[str, ...], need: _Need
) -> tuple[RuleResult, TraceStep]:
    """The shared result of a rule that found no equipped attribute to count (Common).

    ``params`` and ``evidence`` name the trace parameters and evidence keys, all empty.
    """
    step = _shared_step(f"rarity.{key}", _COMMON, **dict.fromkeys(params, ()))
    found = MappingProxyType(dict.fromkeys(evidence, ()))
    return RuleResult(key, _COMMON, found, _own_next(_COMMON, need)), step


_need_no_badge = functools.partial(_need_badge, False)
_need_badge_held = functools.partial(_need_badge, True)


def _rule_tier_badge(
    card: CardSpec, append: Callable[[TraceStep], None]
) -> tuple[RuleResult, _Need]:
    """§2.3: an equipped unique-tier attribute."""
    badge = tuple([a for a in card.equipped if a.supply <= _BADGE_SUPPLY])
    if not badge:
        result, step = _no_attribute_rule("tier_badge", ("slots",), ("attributes",), _need_no_badge)
        append(step)
        return result, _need_no_badge
    append(
        TraceStep("rarity.tier_badge", {"slots": tuple([a.slot for a in badge])}, TIER_BADGE_RARITY)
    )
    rarity = TIER_BADGE_RARITY
    result = RuleResult(
        "tier_badge", rarity, {"attributes": badge}, _own_next(rarity, _need_badge_held)
    )
    return result, _need_badge_held


@memo
def _rule_burned_stickers(burned: int) -> tuple[RuleResult, _Need, TraceStep]:
    """§2.4: burned stickers."""
    rarity = _COMMON
    for tier in BURNED_STICKER_TIERS:
        if burned >= tier.threshold:
            rarity = tier.rarity
            break
    need = functools.partial(_need_burned, burned)
    evidence = MappingProxyType({"burned": burned})
    result = RuleResult("burned_stickers", rarity, evidence, _own_next(rarity, need))
    return result, need, _shared_step("rarity.burned_stickers", rarity, burned=burned)


def _rule_god_premium(
    card: CardSpec, append: Callable[[TraceStep], None]
) -> tuple[RuleResult, _Need]:
    """§2.5: an equipped god attribute or premium skin."""
    god = tuple([a for a in card.equipped if a.kind is AttributeKind.GOD])
    premium = tuple([a for a in card.equipped if a.kind is AttributeKind.PREMIUM])
    if god:
        rarity = _GOD_PREMIUM[AttributeKind.GOD]
    elif premium:
        rarity = _GOD_PREMIUM[AttributeKind.PREMIUM]
    else:
        result, step = _no_attribute_rule(
            "god_premium", ("god", "premium"), ("god", "premium"), _NEED_GOD_PREMIUM[_COMMON]
        )
        append(step)
        return result, _NEED_GOD_PREMIUM[_COMMON]
    need = _NEED_GOD_PREMIUM[rarity]
    append(
        TraceStep(
            "rarity.god_premium",
            {"god": tuple([a.slot for a in god]), "premium": tuple([a.slot for a in premium])},
            rarity,
        )
    )
    evidence = {"god": god, "premium": premium}
    return RuleResult("god_premium", rarity, evidence, _own_next(rarity, need)), need


_NEED_GOD_PREMIUM = {r: functools.partial(_need_god_premium, r) for r in Rarity}


def _never(target: Rarity) -> Requirement | None:
    return None


_NO_COMBO_RESULT = RuleResult("combo", _COMMON, MappingProxyType({"matched": (), "known": 0}), None)
_NO_COMBO_STEP = _shared_step("rarity.combo", _COMMON, known=0, matched=())


def _rule_combo(card: CardSpec, append: Callable[[TraceStep], None]) -> tuple[RuleResult, _Need]:
    """§2.6: combos whose attributes are all equipped."""
    combos = card.combos
    if not combos:
        append(_NO_COMBO_STEP)
        return _NO_COMBO_RESULT, _never
    equipped = {a.slot: a.name for a in card.equipped}
    best = _RANK[_COMMON]
    matched = []
    partial = []
    for combo in combos:
        missing = 0
        for slot, name in combo.attributes:
            if equipped[slot] != name:
                missing += 1
        rank = _RANK[combo.rarity]
        if missing:
            partial.append((missing, rank, combo))
        else:
            matched.append(combo)
            if rank > best:
                best = rank
    rarity = _RARITIES[best]
    matched_t = tuple(matched)
    append(
        TraceStep(
            "rarity.combo",
            {"known": len(combos), "matched": tuple([c.name for c in matched_t])},
            rarity,
        )
    )
    need = functools.partial(_need_combo, partial, equipped)
    evidence = {"matched": matched_t, "known": len(combos)}
    return RuleResult("combo", rarity, evidence, _own_next(rarity, need)), need


@memo
def _rule_getgems_rank(rank: int | None) -> tuple[RuleResult, _Need, TraceStep]:
    """§2.7: the GetGems rank floor."""
    rarity = _COMMON
    if rank is not None:
        for tier in GETGEMS_RANK_TIERS:
            if rank <= tier.threshold:
                rarity = tier.rarity
                break
    need = functools.partial(_need_getgems, rank)
    evidence = MappingProxyType({"rank": rank})
    result = RuleResult("getgems_rank", rarity, evidence, _own_next(rarity, need))
    return result, need, _shared_step("rarity.getgems_rank", rarity, rank=rank)


@memo
def _decided_step(decided_by: tuple[str, ...], rarity: Rarity) -> TraceStep:
    return _shared_step("rarity.decided", rarity, decided_by=decided_by)


_STARTER_STEP = _shared_step("rarity.starter", STARTER_RARITY, skipped=RULE_KEYS)


def decide_rarity(card: CardSpec, trace: list[TraceStep] | None = None) -> RarityDecision:
    """Run the rarity rules on ``card`` (docs/rules.md §2), appending steps to ``trace``.

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(2, "Starter", tuple(AttributeSpec(s, "Plain", 999) for s in Slot),
    ...                 starter=True)
    >>> decision = decide_rarity(card)
    >>> decision.rarity, [rule.key for rule in decision.rules], decision.next_tier
    (<Rarity.FREE: 'free'>, ['starter'], None)
    """
    if trace is None:
        trace = []
    append = trace.append
    if card.starter:
        append(_STARTER_STEP)
        return _STARTER_DECISION

    rules, needs, score = _run_rules(card, append)
    best = max([_RANK[r.rarity] for r in rules])
    rarity = _RARITIES[best]
    decided_by = tuple([r.key for r in rules if r.rarity is rarity])
    append(_decided_step(decided_by, rarity))

    target = _NEXT[rarity]
    if target is None:
        return RarityDecision(rarity, decided_by, rules, score, None)
    return RarityDecision(rarity, decided_by, rules, score, _paths(rules, needs, target))


def _run_rules(
    card: CardSpec, append: Callable[[TraceStep], None]
) -> tuple[tuple[RuleResult, ...], tuple[_Need, ...], Fraction | None]:
    """Every rule's result and its ``need(target)`` function, in rule order."""
    supply, need_supply = _rule_supply_count(card, append)
    wardrobe, need_wardrobe, score = _rule_wardrobe_score(card, append)
    badge, need_badge = _rule_tier_badge(card, append)
    burned, need_burned, step = _rule_burned_stickers(card.burned_stickers)
    append(step)
    god, need_god = _rule_god_premium(card, append)
    combo, need_combo = _rule_combo(card, append)
    rank, need_rank, step = _rule_getgems_rank(card.getgems_rank)
    append(step)
    rules = (supply, wardrobe, badge, burned, god, combo, rank)
    needs = (need_supply, need_wardrobe, need_badge, need_burned, need_god, need_combo, need_rank)
    return rules, needs, score


def _paths(rules: tuple[RuleResult, ...], needs: tuple[_Need, ...], target: Rarity) -> NextTier:
    paths = []
    for rule, need in zip(rules, needs, strict=True):
        if rule.rarity >= target:
            continue
        req = rule.next_tier if _NEXT[rule.rarity] is target else need(target)
        if req is not None:
            paths.append(req)
    return NextTier(target, tuple(paths))


def paths_to(card: CardSpec, target: Rarity) -> NextTier | None:
    """Per rule, the smallest change that lifts ``card`` to at least ``target``.

    Answers "what would make it Legendary?" for a card of any rarity (the Breakdown's
    ``next_tier`` answers it for the next tier only). None for a starter card, or when
    the card is already at ``target`` or above.

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(7, "Pup", tuple(AttributeSpec(s, "Plain", 999) for s in Slot))
    >>> [(p.rule, p.need) for p in paths_to(card, Rarity.LEGENDARY).paths][-1]
    ('getgems_rank', 'rank')
    """
    if card.starter:
        return None
    rules, needs, _score = _run_rules(card, lambda step: None)
    if max(r.rarity for r in rules) >= target:
        return None
    return _paths(rules, needs, target)


_STARTER_DECISION = RarityDecision(
    STARTER_RARITY,
    (STARTER_RULE_KEY,),
    (RuleResult(STARTER_RULE_KEY, STARTER_RARITY, _EMPTY, None),),
    None,
    None,
)
