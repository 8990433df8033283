"""Collection math of a pool (docs/rules.md §7): exact for one card and for one tier,
simulated — and said so — for the whole pool.

- ``chance_within(per_card, n)``: the chance that a given card is in at least one of
  ``n`` packs, ``1 - (1 - p)^n`` with ``p`` its chance to be in one pack (packs are
  independent draws).
- ``packs_for_tier(compositions, tier, m)``: the expected number of packs to own every
  one of a tier's ``m`` cards. Within a pack, the tier's cards are a uniform choice
  among its cards (uniform picks without replacement), so by inclusion–exclusion over
  the set S of cards still missing, ``E = Σ_{s=1..m} (-1)^(s+1) C(m, s) / (1 - r_s)``
  with ``r_s = Σ_j q_j C(m - s, j) / C(m, j)`` the chance that a pack misses s given
  cards, ``q_j`` the chance that it holds j cards of the tier. Exact fractions.
- ``simulated_packs_for_pool``: packs opened until every card of the pool is owned,
  over a few simulated collections with a fixed seed: an estimate, labelled so.

>>> from fractions import Fraction
>>> chance_within(Fraction(1, 2), 3)
Fraction(7, 8)
>>> packs_for_tier({1: Fraction(1)}, 2)  # one card of two per pack: the coupon collector
Fraction(3, 1)
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

from engine.data import PACK_TIERS
from engine.packs import PackPool, draw_offer, offer_compositions
from engine.types import Rarity

__all__ = [
    "SIMULATED_COLLECTIONS",
    "TierCollection",
    "chance_within",
    "packs_for_tier",
    "simulated_packs_for_pool",
    "tier_collections",
]

SIMULATED_COLLECTIONS = 20
SIMULATION_SEED = 3  # seed 003
SIMULATION_PACKS_MAX = 200_000  # a pool no one could complete is reported as not completed


def chance_within(per_card: Fraction, packs: int) -> Fraction:
    """The chance that a card with chance ``per_card`` per pack is in one of ``packs``."""
    return 1 - (1 - per_card) ** packs


def packs_for_tier(counts: Mapping[int, Fraction], cards: int) -> Fraction:
    """The expected packs to own all ``cards`` cards of a tier, from ``counts``: the
    chance that a pack holds j of the tier's cards, for each j.

    Whole numbers throughout: with ``q_j = a_j / D`` and ``L`` a common multiple of the
    ``C(m, j)``, ``1 - r_s = (D·L - N_s) / (D·L)`` with ``N_s = Σ_j a_j C(m - s, j)
    L / C(m, j)``, so each term is ``C(m, s)·D·L / (D·L - N_s)``; the alternating sum of
    those m fractions is added pairwise without reducing, and reduced once at the end (a
    running ``Fraction`` sum reduces at every step, which cost ~35 ms for a tier of 556
    cards; the result is the same fraction)."""
    if cards <= 0:
        return Fraction(0)
    held = [(j, q) for j, q in counts.items() if q]
    denominator = lcm(*(q.denominator for _, q in held))
    ways = lcm(*(comb(cards, j) for j, _ in held))
    scale = denominator * ways
    weights = [
        (j, q.numerator * (denominator // q.denominator) * (ways // comb(cards, j)))
        for j, q in held
    ]
    terms: list[tuple[int, int]] = []
    for s in range(1, cards + 1):
        miss = sum(a * comb(cards - s, j) for j, a in weights)
        if miss == scale:  # never drawn: never complete
            raise ValueError("a card of this tier is never drawn")
        term = comb(cards, s) * scale
        terms.append((term if s % 2 else -term, scale - miss))
    while len(terms) > 1:
        paired = [
            (p * t + r * q, q * t) for (p, q), (r, t) in zip(terms[::2], terms[1::2], strict=False)
        ]
        if len(terms) % 2:
            paired.append(terms[-1])
        terms = paired
    return Fraction(*terms[0])


@dataclass(frozen=True, slots=True)
class TierCollection:
    rarity: Rarity
    cards: int
    per_card: Fraction
    packs_for_all: Fraction


def tier_collections(pool: PackPool, pack_size: int) -> tuple[TierCollection, ...]:
    """Each tier present: its cards, a card's chance per pack, the packs to own them all."""
    mixes = offer_compositions(pool, pack_size)
    rows = []
    for i, tier in enumerate(PACK_TIERS):
        cards = pool.counts[i]
        if not cards:
            continue
        counts: dict[int, Fraction] = {}
        for mix, chance in mixes.items():
            counts[mix[i]] = counts.get(mix[i], Fraction(0)) + chance
        expected = sum((j * q for j, q in counts.items()), Fraction(0))
        rows.append(TierCollection(tier, cards, expected / cards, packs_for_tier(counts, cards)))
    return tuple(rows)


def simulated_packs_for_pool(
    pool: PackPool, pack_size: int, runs: int = SIMULATED_COLLECTIONS
) -> tuple[int, ...]:
    """Packs opened until every card of the pool was owned, in ``runs`` simulated
    collections (sorted; a run past ``SIMULATION_PACKS_MAX`` packs stops there)."""
    rng = random.Random(SIMULATION_SEED)
    results = []
    for _ in range(runs):
        missing = {c.card_id for c in pool.candidates}
        packs = 0
        while missing and packs < SIMULATION_PACKS_MAX:
            packs += 1
            for card in draw_offer(pool, pack_size, rng):
                missing.discard(card.card_id)
        results.append(packs)
    return tuple(sorted(results))


def median(values: tuple[int, ...]) -> float:
    return statistics.median(values) if values else 0.0
