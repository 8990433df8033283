"""packs.promise: the removals proposed keep the power promise, and are few."""

from __future__ import annotations

import random

from engine.packs import CardPower, power_report
from engine.types import Rarity
from packs.promise import removals


def pool(seed: int, means: dict[Rarity, int], per_tier: int = 30) -> list[CardPower]:
    rng = random.Random(seed)
    rows = []
    for tier, mean in means.items():
        for i in range(per_tier):
            wins = max(0, min(100, round(rng.gauss(mean, 15))))
            rows.append(CardPower(f"{tier.value}-{i}", tier, wins, 0, 100))
    return rows


def test_a_kept_promise_needs_no_removal() -> None:
    rows = pool(1, {Rarity.COMMON: 40, Rarity.RARE: 45, Rarity.EPIC: 50, Rarity.LEGENDARY: 55})
    if power_report(rows).kept:
        assert removals(rows) == ()


def test_the_removals_keep_a_broken_promise() -> None:
    means = {Rarity.COMMON: 25, Rarity.RARE: 40, Rarity.EPIC: 60, Rarity.LEGENDARY: 80}
    for seed in range(5):
        rows = pool(seed, means)
        assert not power_report(rows).kept
        taken = removals(rows)
        assert taken, seed
        left = [r for r in rows if r.card_id not in set(taken)]
        assert power_report(left).kept
        assert {r.rarity for r in left} == set(means)  # no tier emptied
        assert len(taken) < len(rows) * 2 // 3


def test_no_removal_keeps_tiers_too_far_apart() -> None:
    rows = [
        CardPower("c", Rarity.COMMON, 1, 0, 100),
        CardPower("c2", Rarity.COMMON, 2, 0, 100),
        CardPower("l", Rarity.LEGENDARY, 99, 0, 100),
    ]
    assert removals(rows) is None
