"""The collection math's whole-number forms give exactly what the plain fractions give:
the expected packs for a tier (pairwise sums, reduced once) and the rounding of a chance
(half up from the exact value, however long the fraction)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from math import comb

import pytest

from engine.data import PACK_TIERS
from engine.packs import PackCandidate, PackPool, offer_compositions
from packs import collection, presenters


def reference_packs_for_tier(counts: dict[int, Fraction], cards: int) -> Fraction:
    """Inclusion–exclusion as docs/rules.md §7 writes it, in plain ``Fraction`` steps."""
    total = Fraction(0)
    for s in range(1, cards + 1):
        miss = sum(
            (q * Fraction(comb(cards - s, j), comb(cards, j)) for j, q in counts.items() if q),
            Fraction(0),
        )
        term = comb(cards, s) / (1 - miss)
        total += term if s % 2 else -term
    return total


@pytest.mark.parametrize(
    ("sizes", "pack_size"), [((6, 13, 14, 2), 5), ((40, 9, 5, 1), 3), ((3, 0, 2, 0), 5)]
)
def test_packs_for_a_tier_are_the_inclusion_exclusion_sum(sizes, pack_size) -> None:
    cards = [
        PackCandidate(1000 * i + n, tier)
        for i, tier in enumerate(PACK_TIERS)
        for n in range(sizes[i])
    ]
    pool = PackPool.of(cards)
    mixes = offer_compositions(pool, pack_size)
    for i, _tier in enumerate(PACK_TIERS):
        if not sizes[i]:
            continue
        counts: dict[int, Fraction] = {}
        for mix, chance in mixes.items():
            counts[mix[i]] = counts.get(mix[i], Fraction(0)) + chance
        assert collection.packs_for_tier(counts, sizes[i]) == reference_packs_for_tier(
            counts, sizes[i]
        )


def test_a_tier_never_drawn_is_refused() -> None:
    with pytest.raises(ValueError, match="never drawn"):
        collection.packs_for_tier({0: Fraction(1)}, 3)


def test_rounding_is_half_up_from_the_exact_value() -> None:
    assert presenters._decimal(Fraction(1, 8), 2) == Decimal("0.13")
    assert presenters._decimal(Fraction(-1, 8), 2) == Decimal("-0.13")
    # Just under a half at the 30th digit: a 28-digit division rounded it up.
    below = Fraction(5 * 10**29 - 1, 10**32)
    assert presenters._decimal(below, 2) == Decimal("0.00")
    assert presenters._decimal(Fraction(5, 10**3), 2) == Decimal("0.01")
    # A chance over 1,000 packs: a fraction of tens of thousands of bits.
    long = collection.chance_within(Fraction(2, 97), 1000)
    assert presenters.percent(long) == "> 99.9%"
    assert presenters.percent(1 - long) == "< 0.001%"
