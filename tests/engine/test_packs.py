"""engine.packs: the tier-weighted booster draw (docs/rules.md §7) and the exact odds of an offer."""

from __future__ import annotations

import ast
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import data
from engine.packs import (
    InvalidOfferError,
    PackCandidate,
    draw_offer,
    offer_odds,
    rng_floats,
    tier_odds,
)
from engine.types import Rarity

C, R, E, L = Rarity.COMMON, Rarity.RARE, Rarity.EPIC, Rarity.LEGENDARY


class CountingRandom(random.Random):
    """A seeded Random that counts every float it hands out."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.calls = 0

    def random(self) -> float:
        self.calls += 1
        return super().random()


class ScriptedRandom(random.Random):
    """Hands out the given floats in order (and fails loudly if asked for more)."""

    def __init__(self, *values: float) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def pool_of(commons: int = 0, rares: int = 0, epics: int = 0, legendaries: int = 0) -> list:
    counts = ((C, commons), (R, rares), (E, epics), (L, legendaries))
    return [(f"{tier.value[0]}{i}", tier) for tier, n in counts for i in range(n)]


# ---------------------------------------------------------------------------
# Data


def test_tier_weights_are_the_rules() -> None:
    assert dict(data.PACK_TIER_WEIGHT) == {C: 80, R: 40, E: 20, L: 10}
    assert data.PACK_TIERS == (C, R, E, L)
    assert Rarity.FREE not in data.PACK_TIER_WEIGHT


def test_packs_module_does_no_io() -> None:
    path = Path(data.__file__).with_name("packs.py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and hasattr(n.func, "id")}
    assert not calls & {"open", "print", "input", "breakpoint"}


# ---------------------------------------------------------------------------
# The draw


def test_the_tier_roll_walks_tiers_in_rarity_order() -> None:
    pool = [("l", L), ("e", E), ("r", R), ("c", C)]  # given in reverse: the order is rarity's
    total = 150
    cases = [
        (0.0, "c"),
        (79.9 / total, "c"),
        (80 / total, "r"),
        (119.9 / total, "r"),
        (120 / total, "e"),
        (139.9 / total, "e"),
        (140 / total, "l"),
        (0.999999, "l"),
    ]
    for roll, expected in cases:
        (pick,) = draw_offer(pool, 1, ScriptedRandom(roll, 0.5))
        assert pick.card_id == expected, roll


def test_absent_tiers_take_no_share() -> None:
    pool = [("c", C), ("l", L)]  # 80 + 10 = 90
    assert draw_offer(pool, 1, ScriptedRandom(79.9 / 90, 0.0))[0].card_id == "c"
    assert draw_offer(pool, 1, ScriptedRandom(80.1 / 90, 0.0))[0].card_id == "l"


def test_the_card_roll_is_uniform_within_the_tier_in_the_given_order() -> None:
    pool = [("c0", C), ("r0", R), ("c1", C), ("c2", C)]
    for roll, expected in ((0.0, "c0"), (0.34, "c1"), (0.67, "c2"), (0.9999999, "c2")):
        assert draw_offer(pool, 1, ScriptedRandom(0.0, roll))[0].card_id == expected


def test_a_pick_is_removed_and_its_tier_can_empty() -> None:
    # First pick: the Legendary (roll at the very top). Second pick: Common 80/120, Rare 40/120.
    pool = [("c0", C), ("r0", R), ("l0", L)]
    offer = draw_offer(pool, 2, ScriptedRandom(0.99, 0.0, 0.99, 0.0))
    assert [c.card_id for c in offer] == ["l0", "r0"]


@pytest.mark.parametrize(
    ("size", "k"), [(10, 1), (10, 3), (10, 10), (3, 5), (1, 1), (1, 4), (400, 5)]
)
def test_every_pick_takes_exactly_two_floats(size: int, k: int) -> None:
    pool = [(i, (C, R, E, L)[i % 4]) for i in range(size)]
    rng = CountingRandom(size * 31 + k)
    offer = draw_offer(pool, k, rng)
    assert len(offer) == min(k, size)
    assert rng.calls == 2 * min(k, size) == rng_floats(size, k)


def test_one_candidate_left_still_takes_two_floats() -> None:
    rng = CountingRandom(5)
    assert [c.card_id for c in draw_offer([("only", E)], 1, rng)] == ["only"]
    assert rng.calls == 2


def test_an_empty_pool_takes_one_float() -> None:
    rng = CountingRandom(5)
    assert draw_offer([], 3, rng) == ()
    assert rng.calls == 1 == rng_floats(0, 3)


def test_fewer_candidates_than_k_gives_all_of_them() -> None:
    pool = pool_of(commons=1, rares=1, legendaries=1)
    offer = draw_offer(pool, 5, random.Random(3))
    assert sorted(c.card_id for c in offer) == sorted(card_id for card_id, _ in pool)
    odds = offer_odds(pool, 5)
    assert (odds.k, odds.picks) == (5, 3)
    assert all(c.chance == 1 for c in odds.cards)


def test_the_same_seed_draws_the_same_offer() -> None:
    pool = pool_of(commons=30, rares=10, epics=5, legendaries=2)
    first = [draw_offer(pool, 5, random.Random(seed)) for seed in range(20)]
    again = [draw_offer(pool, 5, random.Random(seed)) for seed in range(20)]
    assert first == again
    assert len(set(first)) > 1  # and different seeds do differ


def test_the_draw_leaves_the_rng_where_its_count_says() -> None:
    """Replays stay explainable: after the draw the stream continues at float 2·picks."""
    pool = pool_of(commons=4, rares=2)
    rng, twin = random.Random(11), random.Random(11)
    draw_offer(pool, 3, rng)
    for _ in range(rng_floats(len(pool), 3)):
        twin.random()
    assert rng.random() == twin.random()


def test_candidates_may_be_dataclasses_or_pairs_and_rarity_strings() -> None:
    pool = [PackCandidate(1, C), (2, "rare"), (3, R)]
    offer = draw_offer(pool, 3, random.Random(0))
    assert all(isinstance(c, PackCandidate) for c in offer)
    assert {c.card_id: c.rarity for c in offer} == {1: C, 2: R, 3: R}
    assert offer_odds(pool, 1).card(2) == offer_odds(pool, 1).card(3)


@pytest.mark.parametrize(
    ("pool", "k", "code"),
    [
        ([("p", Rarity.FREE)], 1, "free_card"),
        ([("p", "free")], 1, "free_card"),
        ([("p", "mythic")], 1, "rarity"),
        (["not a pair"], 1, "candidate"),
        ([("c", C)], 0, "picks"),
        ([("c", C)], -2, "picks"),
        ([("c", C)], 1.0, "picks"),
        ([("c", C)], True, "picks"),
    ],
)
def test_bad_input_is_a_specific_error(pool: list, k: object, code: str) -> None:
    calls = (lambda: draw_offer(pool, k, CountingRandom()), lambda: offer_odds(pool, k))  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(InvalidOfferError) as info:
            call()
        assert info.value.code == code
        assert isinstance(info.value, ValueError) and str(info.value).endswith(".")


def test_bad_input_takes_no_randomness() -> None:
    rng = CountingRandom()
    with pytest.raises(InvalidOfferError):
        draw_offer([("p", Rarity.FREE)], 1, rng)
    assert rng.calls == 0


# ---------------------------------------------------------------------------
# Exact odds


def brute_force_odds(pool: list, k: int) -> dict:
    """Per-card chances by walking the draw tree card by card (no tier shortcut)."""
    chances: Counter = Counter()

    def walk(left: tuple, picks: int, p: Fraction) -> None:
        if picks == 0 or not left:
            return
        present = [t for t in data.PACK_TIERS if any(r is t for _, r in left)]
        total = sum(data.PACK_TIER_WEIGHT[t] for t in present)
        for tier in present:
            group = [c for c in left if c[1] is tier]
            for card in group:
                q = p * Fraction(data.PACK_TIER_WEIGHT[tier], total) / len(group)
                chances[card[0]] += q
                walk(tuple(c for c in left if c is not card), picks - 1, q)

    walk(tuple(pool), k, Fraction(1))
    return {card_id: chances[card_id] for card_id, _ in pool}


@pytest.mark.parametrize(
    ("counts", "k"),
    [
        ((3, 2, 1, 1), 1),
        ((3, 2, 1, 1), 2),
        ((3, 2, 1, 1), 3),
        ((2, 0, 1, 1), 3),
        ((1, 1, 1, 1), 4),
        ((0, 2, 0, 1), 5),
        ((4, 0, 0, 0), 2),
    ],
)
def test_odds_match_the_card_by_card_draw_tree(counts: tuple, k: int) -> None:
    pool = pool_of(*counts)
    odds = offer_odds(pool, k)
    assert {c.card_id: c.chance for c in odds.cards} == brute_force_odds(pool, k)


def test_the_wiki_worked_example() -> None:
    """booster-packs: 10 Commons, 3 Rares, 1 Legendary; the first pick and the second."""
    pool = pool_of(commons=10, rares=3, legendaries=1)
    first = offer_odds(pool, 1)
    assert first.tier(C).expected == Fraction(80, 130)
    assert first.tier(R).expected == Fraction(40, 130)
    assert first.tier(L).expected == Fraction(10, 130)
    assert first.tier(E).expected == 0 and first.tier(E).cards == 0
    assert round(float(first.card("c0")) * 100, 1) == 6.2
    assert round(float(first.card("r0")) * 100, 1) == 10.3
    # Legendary first, then its tier is empty: Common 80/120, Rare 40/120.
    after = offer_odds(pool_of(commons=10, rares=3), 1)
    assert (after.tier(C).expected, after.tier(R).expected) == (Fraction(2, 3), Fraction(1, 3))


def test_a_tier_odds_do_not_depend_on_its_size() -> None:
    small = offer_odds(pool_of(commons=10, legendaries=1), 1).tier(L).expected
    large = offer_odds(pool_of(commons=1000, legendaries=1), 1).tier(L).expected
    assert small == large == Fraction(10, 90)


def test_at_least_one_and_expected_differ_for_several_picks() -> None:
    odds = offer_odds(pool_of(commons=2, rares=2), 2)
    common = odds.tier(C)
    # P(no Common in 2 picks) = 1/3 · 1/3 (Rare twice, each time at 40/120).
    assert common.at_least_one == 1 - Fraction(1, 3) * Fraction(1, 3)
    assert common.expected == 2 * common.per_card
    assert common.expected > common.at_least_one


def test_odds_for_an_empty_pool_are_zero() -> None:
    odds = offer_odds([], 3)
    assert odds.picks == 0 and odds.cards == ()
    assert all(t.expected == t.at_least_one == t.per_card == 0 for t in odds.tiers)


def test_odds_of_a_few_hundred_cards_are_quick_and_sum_to_k() -> None:
    pool = pool_of(commons=250, rares=80, epics=25, legendaries=5)
    odds = offer_odds(pool, 5)
    assert sum(c.chance for c in odds.cards) == 5
    legendary = odds.tier(L)
    assert 0 < legendary.at_least_one < legendary.expected  # two Legendaries can come together
    assert len(odds.cards) == 360


def test_odds_match_a_monte_carlo_estimate() -> None:
    pool = pool_of(commons=4, rares=2, epics=1, legendaries=1)
    k, runs = 3, 20_000
    rng = random.Random(2024)
    seen: Counter = Counter()
    tier_seen: Counter = Counter()
    for _ in range(runs):
        offer = draw_offer(pool, k, rng)
        seen.update(c.card_id for c in offer)
        tier_seen.update({c.rarity for c in offer})
    odds = offer_odds(pool, k)
    for row in odds.cards:
        p = float(row.chance)
        sigma = (p * (1 - p) / runs) ** 0.5
        assert abs(seen[row.card_id] / runs - p) < 5 * sigma + 1e-9, row
    for tier in odds.tiers:
        p = float(tier.at_least_one)
        sigma = (p * (1 - p) / runs) ** 0.5
        assert abs(tier_seen[tier.rarity] / runs - p) < 5 * sigma + 1e-9, tier


def test_tier_odds_for_every_tier_present() -> None:
    odds = tier_odds(data.PACK_TIERS)
    assert list(odds) == list(data.PACK_TIERS)
    assert sum(odds.values()) == 1
    assert odds[C] == Fraction(80, 150)
    with pytest.raises(InvalidOfferError):
        tier_odds([Rarity.FREE])


# ---------------------------------------------------------------------------
# Properties

tiers = st.sampled_from(list(data.PACK_TIERS))
pools = st.lists(tiers, max_size=14).map(lambda rs: [(i, r) for i, r in enumerate(rs)])


@settings(max_examples=150, deadline=None)
@given(pool=pools, k=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_draw_properties(pool: list, k: int, seed: int) -> None:
    rng = CountingRandom(seed)
    offer = draw_offer(pool, k, rng)
    ids = [c.card_id for c in offer]
    assert len(ids) == len(set(ids)) == min(k, len(pool))
    assert set(ids) <= {card_id for card_id, _ in pool}
    assert rng.calls == rng_floats(len(pool), k)
    assert offer == draw_offer(pool, k, random.Random(seed))


@settings(max_examples=150, deadline=None)
@given(pool=pools, k=st.integers(1, 6))
def test_odds_properties(pool: list, k: int) -> None:
    odds = offer_odds(pool, k)
    picks = min(k, len(pool))
    assert odds.picks == picks
    assert sum(c.chance for c in odds.cards) == picks
    assert sum(t.expected for t in odds.tiers) == picks
    for tier in odds.tiers:
        assert 0 <= tier.at_least_one <= min(1, tier.expected)
        assert tier.expected <= tier.cards
        chances = {c.chance for c in odds.cards if c.rarity is tier.rarity}
        assert chances <= {tier.per_card}
    assert all(0 <= c.chance <= 1 for c in odds.cards)
    if k >= len(pool):
        assert all(c.chance == 1 for c in odds.cards)
