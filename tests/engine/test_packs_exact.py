"""engine.packs against brute force: every tier mix of small pools, card by card.

The exact odds, the tier mixes and the "chance of something new" are computed over
tier-count states; here the same numbers come from walking the draw tree one card at a
time (no tier shortcut), for every pool with up to two cards of each tier and every pack
size up to 5 — pools smaller than the pack included. The optimised draw is also checked
against the plain kernel it replaced, so a replay of an old opening stays the same.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import data
from engine.packs import (
    PackCandidate,
    PackPool,
    draw_offer,
    new_card_odds,
    offer_compositions,
    offer_odds,
)
from engine.types import Rarity

ROOT = Path(__file__).resolve().parents[2]
TIERS = data.PACK_TIERS


def pool_of(counts: tuple[int, ...]) -> list[tuple[str, Rarity]]:
    return [
        (f"{tier.value[0]}{i}", tier)
        for tier, n in zip(TIERS, counts, strict=True)
        for i in range(n)
    ]


def brute_force(pool: list[tuple[str, Rarity]], k: int) -> list[tuple[Fraction, tuple[str, ...]]]:
    """Every possible offer (in pick order) with its probability, walking card by card."""
    leaves: list[tuple[Fraction, tuple[str, ...]]] = []

    def walk(left: tuple, picked: tuple, p: Fraction) -> None:
        if len(picked) == min(k, len(pool)):
            leaves.append((p, picked))
            return
        present = [t for t in TIERS if any(r is t for _, r in left)]
        total = sum(data.PACK_TIER_WEIGHT[t] for t in present)
        for card in left:
            group = [c for c in left if c[1] is card[1]]
            q = p * Fraction(data.PACK_TIER_WEIGHT[card[1]], total) / len(group)
            walk(tuple(c for c in left if c is not card), (*picked, card[0]), q)

    walk(tuple(pool), (), Fraction(1))
    return leaves


# Every pool with 0–2 cards of each tier (81 mixes, the empty pool included), k = 1…5.
MIXES = list(itertools.product(range(3), repeat=len(TIERS)))


@pytest.mark.parametrize("counts", MIXES, ids=lambda c: "-".join(map(str, c)))
def test_odds_and_mixes_match_the_draw_tree(counts: tuple[int, ...]) -> None:
    pool = pool_of(counts)
    rarity = dict(pool)
    for k in range(1, 6):
        leaves = brute_force(pool, k)
        assert sum(p for p, _ in leaves) == 1
        odds = offer_odds(pool, k)
        assert odds.picks == min(k, len(pool))
        chance: Counter = Counter()
        mixes: Counter = Counter()
        tier_any: Counter = Counter()
        tier_expected: Counter = Counter()
        for p, offer in leaves:
            for card_id in offer:
                chance[card_id] += p
            mix = tuple(sum(1 for c in offer if rarity[c] is t) for t in TIERS)
            mixes[mix] += p
            for i, tier in enumerate(TIERS):
                tier_expected[tier] += p * mix[i]
                if mix[i]:
                    tier_any[tier] += p
        assert {c.card_id: c.chance for c in odds.cards} == {c: chance[c] for c, _ in pool}
        for row in odds.tiers:
            assert row.expected == tier_expected[row.rarity]
            assert row.at_least_one == tier_any[row.rarity]
        assert dict(offer_compositions(pool, k)) == {m: p for m, p in mixes.items() if p}


@pytest.mark.parametrize(
    "counts", [c for c in MIXES if sum(c) <= 6], ids=lambda c: "-".join(map(str, c))
)
def test_the_chance_of_something_new_matches_the_draw_tree(counts: tuple[int, ...]) -> None:
    pool = pool_of(counts)
    ids = [card_id for card_id, _ in pool]
    # Every way of owning some of the pool's cards (plus a card from elsewhere).
    owned_sets = [
        set(s) | {"elsewhere"} for n in range(len(ids) + 1) for s in itertools.combinations(ids, n)
    ]
    for k in (1, 2, 3, 5):
        leaves = brute_force(pool, k)
        odds = offer_odds(pool, k)
        for owned in owned_sets:
            expected = sum(
                (p for p, offer in leaves if any(c not in owned for c in offer)), Fraction(0)
            )
            got = new_card_odds(pool, k, owned)
            assert got.chance == expected, (counts, k, owned)
            assert got.missing == sum(1 for c in ids if c not in owned)
            assert got.expected == sum(
                (c.chance for c in odds.cards if c.card_id not in owned), Fraction(0)
            )


def test_new_card_odds_edge_cases() -> None:
    pool = pool_of((3, 1, 0, 1))
    everything = {card_id for card_id, _ in pool}
    assert new_card_odds(pool, 5, everything).chance == 0
    assert new_card_odds(pool, 1, set()).chance == 1
    assert new_card_odds([], 3, set()).chance == 0
    # A pack as large as the pool always holds the one missing card.
    assert new_card_odds(pool, 5, everything - {"l0"}).chance == 1


def test_a_prepared_pool_gives_the_same_answers() -> None:
    pool = pool_of((5, 3, 2, 1))
    prepared = PackPool.of(pool)
    assert PackPool.of(prepared) is prepared
    assert offer_odds(prepared, 4) == offer_odds(pool, 4)
    for seed in range(30):
        assert draw_offer(prepared, 4, random.Random(seed)) == draw_offer(
            pool, 4, random.Random(seed)
        )


# ---------------------------------------------------------------------------
# The draw: the same picks as the plain kernel, on every machine


def plain_kernel(candidates: list[tuple[object, Rarity]], k: int, rng: random.Random) -> list:
    """docs/rules.md §7 written the obvious way: regroup, renormalise, roll, remove."""
    if not candidates:
        rng.random()
        return []
    groups = {tier: [c for c in candidates if c[1] is tier] for tier in TIERS}
    offer = []
    for _ in range(min(k, len(candidates))):
        present = [t for t in TIERS if groups[t]]
        target = rng.random() * sum(data.PACK_TIER_WEIGHT[t] for t in present)
        reached, chosen = 0, present[-1]
        for tier in present:
            reached += data.PACK_TIER_WEIGHT[tier]
            if target < reached:
                chosen = tier
                break
        group = groups[chosen]
        offer.append(group.pop(min(int(rng.random() * len(group)), len(group) - 1))[0])
    return offer


tiers = st.sampled_from(list(TIERS))


@settings(max_examples=300, deadline=None)
@given(
    rarities=st.lists(tiers, max_size=40),
    k=st.integers(1, 10),
    seed=st.integers(-(2**70), 2**70),
)
def test_the_draw_is_the_plain_kernel(rarities: list[Rarity], k: int, seed: int) -> None:
    pool = [(f"id{i}", r) for i, r in enumerate(rarities)]
    fast = [c.card_id for c in draw_offer(pool, k, random.Random(seed))]
    assert fast == plain_kernel(pool, k, random.Random(seed))


# Pinned picks (random.Random(seed) as docs/rules.md §7 says): a change here breaks every replay.
PINNED = [
    ((5, 3, 2, 1), 5, 0, ["e1", "c1", "c2", "r0", "c3"]),
    ((10, 0, 0, 1), 3, 1, ["c8", "c2", "c4"]),
    ((1, 1, 1, 1), 10, 7, ["c0", "e0", "r0", "l0"]),
    ((0, 0, 4, 0), 2, 42, ["e0", "e1"]),
    ((30, 10, 5, 2), 10, 2026, ["c15", "c25", "c6", "r5", "r4", "r8", "r6", "c18", "c24", "c23"]),
    (
        (30, 10, 5, 2),
        10,
        123456789,
        ["r5", "l1", "e1", "l0", "c10", "c16", "c18", "c19", "c20", "r2"],
    ),
    ((5, 3, 2, 1), 5, 2**62 + 5, ["c1", "c3", "r0", "e0", "c4"]),
]


@pytest.mark.parametrize(("counts", "k", "seed", "picks"), PINNED)
def test_pinned_draws(counts: tuple, k: int, seed: int, picks: list[str]) -> None:
    assert [c.card_id for c in draw_offer(pool_of(counts), k, random.Random(seed))] == picks


def test_the_draw_is_the_same_in_another_process_with_another_hash_seed(tmp_path: Path) -> None:
    """String hashing changes between processes (PYTHONHASHSEED); the picks must not."""
    rng = random.Random(99)
    pool = [(f"card-{i}-{rng.random():.6f}", rng.choice(TIERS)) for i in range(60)]
    path = tmp_path / "pool.json"
    path.write_text(json.dumps({"cards": [{"id": c, "rarity": r.value} for c, r in pool]}))
    for hash_seed, seed in (("1", 17), ("4242", 2**40 + 3)):
        expected = [c.card_id for c in draw_offer(pool, 7, random.Random(seed))]
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        command = ["-m", "engine", "packs", "draw", str(path), "--picks", "7", "--seed", str(seed)]
        result = subprocess.run(
            [sys.executable, *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert json.loads(result.stdout) == {"seed": seed, "picks": expected}


def test_candidates_keep_their_identity() -> None:
    first = PackCandidate(1, Rarity.RARE)
    (pick,) = draw_offer([first], 1, random.Random(0))
    assert pick is first
