"""engine.packs: the power promise — the gauntlet, a card's power, a pool's power report."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import data
from engine.match import MatchCard
from engine.match.simulate import run_series
from engine.packs import (
    POWER_STEP_LIMIT,
    CardPower,
    PowerFlag,
    PromiseStep,
    build_gauntlet,
    card_power,
    measure_power,
    power_report,
)
from engine.types import Rarity, Role

C, R, E, L = data.PACK_TIERS


def card(i: int, rarity: Rarity, atk: int = 6, hp: int = 14) -> MatchCard:
    return MatchCard(str(i), f"Pup {i}", rarity, Role.STRIKER, atk=atk, hp=hp)


CARDS = [card(i, (C, R, E, L, Rarity.FREE)[i % 5], atk=3 + i % 9, hp=8 + i % 11) for i in range(60)]


def test_the_gauntlet_is_seeded_per_tier_and_never_free() -> None:
    gauntlet = build_gauntlet(CARDS, per_tier=3, seed=11)
    assert gauntlet == build_gauntlet(CARDS, per_tier=3, seed=11)
    assert gauntlet != build_gauntlet(CARDS, per_tier=3, seed=12)
    assert all(len(deck) == 1 for deck in gauntlet)
    assert [deck[0].rarity for deck in gauntlet] == [C] * 3 + [R] * 3 + [E] * 3 + [L] * 3
    # A tier with fewer cards than asked gives all it has.
    few = build_gauntlet([card(1, C), card(2, L)], per_tier=3)
    assert [d[0].id for d in few] == ["1", "2"]


def test_card_power_counts_both_sides_and_skips_the_mirror() -> None:
    gauntlet = build_gauntlet(CARDS, per_tier=2, seed=1)
    subject = gauntlet[0][0]
    result = card_power(subject, gauntlet, seed=40, games=2)
    assert result.games == 2 * 2 * (len(gauntlet) - 1)
    assert 0 <= result.wins + result.draws <= result.games
    # The same matches, counted by hand through run_series.
    wins = draws = 0
    for i, deck in enumerate(gauntlet):
        if deck[0].id == subject.id:
            continue
        a = run_series((subject,), deck, ("greedy", "greedy"), 40 + 4 * i, 2)
        b = run_series(deck, (subject,), ("greedy", "greedy"), 40 + 4 * i + 2, 2)
        wins += a["wins"]["a"] + b["wins"]["b"]
        draws += a["draws"] + b["draws"]
    assert (result.wins, result.draws) == (wins, draws)
    assert result.rate == Fraction(2 * wins + draws, 2 * result.games)


def test_power_is_reproducible_and_strength_shows() -> None:
    gauntlet = build_gauntlet(CARDS, per_tier=3, seed=5)
    strong = card(900, C, atk=20, hp=40)
    weak = card(901, L, atk=1, hp=2)
    first = measure_power([strong, weak], gauntlet)
    assert first == measure_power([strong, weak], gauntlet)
    assert first[0].rate > first[1].rate
    seen = []
    measure_power([strong, weak], gauntlet, progress=seen.append)
    assert seen == [1, 2]


def test_a_card_that_plays_no_game_has_no_rate() -> None:
    only = card(1, C)
    assert card_power(only, [(only,)]).rate is None


def rates(**tiers: list[float]) -> list[CardPower]:
    rows = []
    for tier, values in tiers.items():
        for i, rate in enumerate(values):
            wins = round(rate * 100)
            rows.append(CardPower(f"{tier}{i}", Rarity(tier), wins, 0, 100))
    return rows


def test_a_kept_promise() -> None:
    report = power_report(
        rates(
            common=[0.40, 0.42, 0.44], rare=[0.46, 0.48, 0.50], epic=[0.52, 0.55], legendary=[0.60]
        )
    )
    assert report.kept
    assert [s.verdict for s in report.steps] == [PromiseStep.MODEST] * 3
    assert [s.points for s in report.steps] == [Fraction(6), Fraction(11, 2), Fraction(65, 10)]
    assert not report.flags
    common = report.tier(C)
    assert (common.cards, common.mean, common.median, common.low, common.high) == (
        3,
        Fraction(42, 100),
        Fraction(42, 100),
        None,
        Fraction(48, 100),
    )
    legendary = report.tier(L)
    assert (legendary.low, legendary.high) == (Fraction(535, 1000), None)


def test_steps_that_break_the_promise() -> None:
    report = power_report(
        rates(common=[0.2, 0.3], rare=[0.3, 0.3], legendary=[0.2 + POWER_STEP_LIMIT / 100 + 0.1])
    )
    assert [s.verdict for s in report.steps] == [PromiseStep.MODEST, PromiseStep.STEEP]
    assert (report.steps[1].lower, report.steps[1].upper) == (R, L)  # an absent tier is skipped
    assert not report.kept
    # Exactly the limit is already steep; no rise at all is not the promise either.
    limit = power_report(rates(common=[0.40], rare=[0.40 + POWER_STEP_LIMIT / 100]))
    assert limit.steps[0].points == POWER_STEP_LIMIT
    assert limit.steps[0].verdict is PromiseStep.STEEP
    flat = power_report(rates(common=[0.5], epic=[0.5]))
    assert flat.steps[0].verdict is PromiseStep.NOT_RISING
    assert not power_report(rates(rare=[0.5, 0.6])).kept  # one tier: nothing promised


def test_flags_a_weak_legendary_and_a_dominant_common() -> None:
    report = power_report(
        rates(common=[0.30, 0.32, 0.75], rare=[0.40, 0.45, 0.50], legendary=[0.70, 0.72, 0.35])
    )
    assert dict(report.flags) == {"common2": PowerFlag.DOMINANT, "legendary2": PowerFlag.WEAK}
    assert (report.tier(C).dominant, report.tier(L).weak) == (1, 1)
    rare = report.tier(R)
    assert (rare.low, rare.high) == (Fraction(32, 100), Fraction(70, 100))
    assert (rare.weak, rare.dominant) == (0, 0)


def test_unmeasured_and_free_cards_are_left_out() -> None:
    rows = [*rates(common=[0.4]), CardPower("x", C, 0, 0, 0), CardPower("f", Rarity.FREE, 3, 0, 5)]
    report = power_report(rows)
    assert (report.measured, report.unmeasured) == (1, 2)
    assert power_report([]).tiers == ()


@pytest.mark.parametrize(
    "wins,draws,games,rate", [(3, 2, 10, Fraction(2, 5)), (0, 4, 4, Fraction(1, 2))]
)
def test_a_draw_counts_half(wins: int, draws: int, games: int, rate: Fraction) -> None:
    assert CardPower("1", C, wins, draws, games).rate == rate


def test_the_median_and_mean_of_rates_are_exact_even_when_floats_tie() -> None:
    """``power_report`` sorts rates by their floats for speed: the median and the mean
    stay those of ``statistics`` on the exact fractions, when two different rates round
    to the same float too."""
    import random
    import statistics

    from engine.packs import _mean, _median

    close = [Fraction(1, 3), Fraction(333333333333333333, 10**18), Fraction(1, 3)]
    assert float(close[0]) == float(close[1]) and close[0] != close[1]
    for rates in (close, close[:2], [*close[1:], Fraction(1, 3)]):
        assert _median(list(rates)) == statistics.median(rates)
    rng = random.Random(27)
    for _ in range(200):
        games = rng.choice((4, 10, 36))
        rates = [
            Fraction(rng.randrange(2 * games + 1), 2 * games) for _ in range(rng.randrange(1, 40))
        ]
        assert _median(rates) == statistics.median(rates)
        assert _mean(rates) == sum(rates, Fraction(0)) / len(rates)
