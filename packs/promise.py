"""Keeping the power promise by curating a pool (seed 003: "pool curation is the
mechanism"): which cards to take out so that each rarer tier is stronger than the one
below by less than ``POWER_STEP_LIMIT`` points (docs/rules.md §7).

``removals(powers)`` proposes the cards to remove, few: it takes out, one card at a time,
the weakest or the strongest measured card of some tier — whichever brings the steps
closest to the promise — until the promise is kept, never emptying a tier. Taking the
extreme card of a tier moves its mean the most, so each step is the most a single removal
can do; the search is greedy, so the list is short but not proven the shortest.

>>> from engine.packs import CardPower
>>> from engine.types import Rarity
>>> rows = [CardPower("c1", Rarity.COMMON, 6, 0, 20), CardPower("c2", Rarity.COMMON, 7, 0, 20),
...         CardPower("c3", Rarity.COMMON, 1, 0, 20), CardPower("r1", Rarity.RARE, 8, 0, 20),
...         CardPower("r2", Rarity.RARE, 42, 0, 100)]
>>> removals(rows)
('c3',)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from fractions import Fraction

from engine.data import PACK_TIERS
from engine.packs import POWER_STEP_LIMIT, CardPower, power_report

__all__ = ["removals"]

# The search aims for steps inside the promise by this many points (it stops as soon as
# the promise itself is kept): aiming at the very edge leaves two neighbouring steps both
# tight, where no single removal helps one without hurting the other.
_MARGIN = Fraction(1)
_PLATEAU = 25  # removals in a row that bring the steps no closer, before giving up


def _gap(means: list[Fraction]) -> Fraction:
    """How far the tiers' means (percentage points) are from the promise: 0 when kept."""
    gap = Fraction(0)
    for low, high in itertools.pairwise(means):
        step = (high - low) * 100
        gap += max(Fraction(0), _MARGIN - step) + max(
            Fraction(0), step - POWER_STEP_LIMIT + _MARGIN
        )
    return gap


def _kept(means: list[Fraction]) -> bool:
    return all(0 < (high - low) * 100 < POWER_STEP_LIMIT for low, high in itertools.pairwise(means))


def removals(powers: Iterable[CardPower], limit: int = 10_000) -> tuple[str, ...] | None:
    """The card ids to take out of the pool so that it keeps the promise (``()`` when it
    does already), or None when no such removal leaves every tier a card."""
    rows = list(powers)
    if power_report(rows).kept:
        return ()
    tiers: list[list[tuple[Fraction, str]]] = []
    for tier in PACK_TIERS:
        rated = sorted((r.rate, r.card_id) for r in rows if r.rarity is tier and r.rate is not None)
        if rated:
            tiers.append(rated)
    if len(tiers) < 2:
        return None
    low = [0] * len(tiers)  # the window of each tier still in: rated[low:high]
    high = [len(t) for t in tiers]
    sums = [sum((rate for rate, _ in t), Fraction(0)) for t in tiers]
    means = [s / len(t) for s, t in zip(sums, tiers, strict=True)]
    removed: list[str] = []
    gap = _gap(means)
    plateau = 0
    while not _kept(means) and len(removed) < limit:
        best = None
        for i, rated in enumerate(tiers):
            left = high[i] - low[i]
            if left <= 1:
                continue
            for end in (low[i], high[i] - 1):  # the weakest, the strongest
                trial = means.copy()
                trial[i] = (sums[i] - rated[end][0]) / (left - 1)
                score = _gap(trial)
                if best is None or score < best[0]:
                    best = (score, i, end)
        if best is None:
            return None
        plateau = plateau + 1 if best[0] >= gap else 0
        if plateau > _PLATEAU:
            return None
        gap, i, end = best
        rate, card = tiers[i][end]
        sums[i] -= rate
        if end == low[i]:
            low[i] += 1
        else:
            high[i] -= 1
        means[i] = sums[i] / (high[i] - low[i])
        removed.append(card)
    return tuple(removed) if _kept(means) else None
