"""engine.packs: the chi-square p-value and the check of many drawn packs against the odds."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from engine import data
from engine.packs import (
    MIN_EXPECTED,
    CheckSkip,
    InvalidOfferError,
    PackCandidate,
    PackPool,
    check_odds,
    check_offers,
    chi_square_p_value,
    draw_offer,
    offer_compositions,
    regularized_gamma_q,
)
from engine.types import Rarity

C, R, E, L = data.PACK_TIERS

# (df, x) at which P(χ² ≥ x) is 5% and 1%: the standard critical values (e.g. SciPy's
# chi2.ppf(0.95, df) and chi2.ppf(0.99, df)).
CRITICAL = [
    (1, 3.841458820694124, 6.6348966010212145),
    (2, 5.991464547107979, 9.21034037197618),
    (5, 11.070497693516351, 15.086272469388987),
    (10, 18.307038053275146, 23.209251158954356),
    (30, 43.77297182574219, 50.89218131151707),
    (100, 124.34211340400407, 135.80672317102676),
]


@pytest.mark.parametrize(("df", "five", "one"), CRITICAL)
def test_p_values_at_the_critical_values(df: int, five: float, one: float) -> None:
    assert chi_square_p_value(five, df) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_p_value(one, df) == pytest.approx(0.01, rel=1e-9)


def closed_form(x: float, df: int) -> float:
    """P(χ² ≥ x) in closed form: a finite sum for even df, erfc plus a sum for odd df."""
    y = x / 2
    if df % 2 == 0:
        return math.exp(-y) * sum(y**j / math.factorial(j) for j in range(df // 2))
    total = math.erfc(math.sqrt(y))
    term = math.sqrt(y / math.pi) * math.exp(-y) * 2
    for j in range(1, (df + 1) // 2):
        total += term
        term *= y / (j + 0.5)
    return total


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 8, 15, 40])
@pytest.mark.parametrize("x", [0.001, 0.5, 1, 2.5, 6, 13, 30, 80, 200])
def test_p_values_match_the_closed_forms(df: int, x: float) -> None:
    expected = closed_form(x, df)
    assert chi_square_p_value(x, df) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_gamma_edges_and_bad_arguments() -> None:
    assert regularized_gamma_q(2.5, 0) == 1.0
    assert regularized_gamma_q(2.5, math.inf) == 0.0
    assert chi_square_p_value(0, 4) == 1.0
    assert chi_square_p_value(-3, 4) == 1.0  # a statistic is never negative: read as 0
    assert 0 < chi_square_p_value(1000, 3) < 1e-200
    for a, x in ((0, 1), (-1, 1), (1, -0.5), (math.nan, 1)):
        with pytest.raises(ValueError):
            regularized_gamma_q(a, x)
    for df in (0, 1.5, True):
        with pytest.raises(ValueError):
            chi_square_p_value(1.0, df)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Checking the odds


def pool_of(commons: int = 0, rares: int = 0, epics: int = 0, legendaries: int = 0) -> list:
    counts = ((C, commons), (R, rares), (E, epics), (L, legendaries))
    return [(f"{tier.value[0]}{i}", tier) for tier, n in counts for i in range(n)]


def test_observed_counts_and_exact_expectations() -> None:
    pool = pool_of(commons=3, rares=2, legendaries=1)
    offers = [draw_offer(pool, 2, random.Random(s)) for s in range(50)]
    check = check_offers(pool, 2, offers)
    assert (check.packs, check.k, check.picks) == (50, 2, 2)
    seen = {
        c.card_id: sum(1 for o in offers if any(p.card_id == c.card_id for p in o))
        for c in check.cards
    }
    assert {c.card_id: c.observed for c in check.cards} == seen
    assert sum(c.observed for c in check.cards) == 100
    assert sum(t.drawn for t in check.tiers) == 100
    assert sum(t.drawn_expected for t in check.tiers) == 100
    epic = next(t for t in check.tiers if t.rarity is E)
    assert (epic.cards, epic.drawn, epic.packs_with, epic.packs_with_expected) == (0, 0, 0, 0)
    assert epic.test.skipped is CheckSkip.ONE_OUTCOME
    legendary = next(t for t in check.tiers if t.rarity is L)
    assert legendary.test.skipped is CheckSkip.ONE_OUTCOME  # one card: nothing to even out
    assert legendary.packs_with == legendary.drawn  # a pack holds it at most once


def test_offers_may_be_ids_and_bad_offers_are_refused() -> None:
    pool = pool_of(commons=2, rares=1)
    assert check_offers(pool, 1, [["c0"], ["r0"]]).packs == 2
    assert check_offers(pool, 1, [[PackCandidate("c0", C)]]).cards[0].observed == 1
    for bad in ([["zz"]], [["c0", "c1"]], [["c0"], []], [[["unhashable"]]]):
        with pytest.raises(InvalidOfferError) as info:
            check_offers(pool, 1, bad)
        assert info.value.code == "offer"
    with pytest.raises(InvalidOfferError):
        check_offers(pool, 2, [["c0", "c0"]])
    with pytest.raises(InvalidOfferError):
        check_odds(pool, 1, 0, seed=1)


def test_too_few_packs_says_how_many_would_do() -> None:
    pool = pool_of(commons=20, rares=20, epics=20, legendaries=20)
    check = check_odds(pool, 1, 10, seed=3)
    assert check.tier_test.skipped is CheckSkip.TOO_FEW_PACKS
    assert check.card_test.skipped is CheckSkip.TOO_FEW_PACKS
    needed = check.card_test.packs_needed
    assert needed is not None and needed > 10
    # That many packs is enough for at least one tier's card test.
    assert check_odds(pool, 1, needed, seed=3).card_test.p_value is not None
    tier_needed = check.tier_test.packs_needed
    assert tier_needed is not None
    assert check_odds(pool, 1, tier_needed, seed=3).tier_test.p_value is not None


def test_a_pool_with_one_possible_result_has_nothing_to_test() -> None:
    check = check_odds(pool_of(commons=3), 3, 100, seed=1)  # always all three cards
    assert check.tier_test.skipped is check.card_test.skipped is CheckSkip.ONE_OUTCOME
    assert all(c.observed == 100 and c.expected == 100 for c in check.cards)


def test_rare_mixes_are_merged_into_one_bin() -> None:
    pool = pool_of(commons=6, rares=3, epics=2, legendaries=1)
    check = check_odds(pool, 3, 300, seed=8)
    mixes = offer_compositions(pool, 3)
    assert check.tier_test.p_value is not None
    assert 2 <= check.tier_test.bins < len(mixes)
    assert all(
        300 * p >= MIN_EXPECTED for p in sorted(mixes.values())[-(check.tier_test.bins - 1) :]
    )


def p_values(pool: list, k: int, packs: int, runs: int, draw=draw_offer) -> tuple[list, list]:
    prepared = PackPool.of(pool)
    tiers, cards = [], []
    for run in range(runs):
        rng = random.Random(1000 + run)
        check = check_offers(prepared, k, (draw(prepared, k, rng) for _ in range(packs)))
        tiers.append(check.tier_test.p_value)
        cards.append(check.card_test.p_value)
    return tiers, cards


def test_an_honest_draw_gets_evenly_spread_p_values() -> None:
    """Under the true kernel a p-value is uniform: about 5% of runs fall under 0.05, and
    about half under 0.5 (with k = 3 the without-replacement correction matters)."""
    tiers, cards = p_values(pool_of(commons=5, rares=3, epics=2, legendaries=2), 3, 150, 200)
    for values in (tiers, cards):
        assert None not in values
        under_5 = sum(p < 0.05 for p in values) / len(values)
        under_half = sum(p < 0.5 for p in values) / len(values)
        assert 0.01 <= under_5 <= 0.11, under_5
        assert 0.38 <= under_half <= 0.62, under_half


def test_a_dishonest_draw_is_caught() -> None:
    """A kernel that treats every tier alike (weight by card, not by tier) fails the tier
    test; one that favours the first card of a tier fails the card test."""
    pool = pool_of(commons=5, rares=3, epics=2, legendaries=2)

    def by_card(prepared: PackPool, k: int, rng: random.Random):
        return tuple(rng.sample(prepared.candidates, k))

    def favours_first(prepared: PackPool, k: int, rng: random.Random):
        offer = list(draw_offer(prepared, k, rng))
        first = prepared.groups[0][0]
        if first not in offer and rng.random() < 0.3:
            swap = next((i for i, c in enumerate(offer) if c.rarity is C), None)
            if swap is not None:
                offer[swap] = first
        return tuple(offer)

    tiers, _ = p_values(pool, 3, 400, 5, draw=by_card)
    assert max(tiers) < 1e-4
    _, cards = p_values(pool, 3, 400, 5, draw=favours_first)
    assert max(cards) < 1e-3


def test_expectations_are_exact_fractions() -> None:
    check = check_odds(pool_of(commons=2, legendaries=1), 1, 9, seed=0)
    legendary = next(t for t in check.tiers if t.rarity is L)
    assert legendary.drawn_expected == 9 * Fraction(10, 90)
    assert isinstance(check.cards[0].expected, Fraction)
    assert check.cards[0].rarity is Rarity.COMMON
