"""Booster packs (docs/rules.md §7): the tier-weighted draw, its exact odds, and their checks.

A pool is a list of candidates, each a card id and the card's rarity (a
``PackCandidate``, or a plain ``(card_id, rarity)`` pair), or a ``PackPool``
(the same list checked once and grouped by tier, for many draws). One offer of
``k`` picks is drawn one pick at a time:

1. group the candidates still in the pool by tier (their rarity);
2. renormalise the tier weights (``engine.data.PACK_TIER_WEIGHT``) over the
   tiers present — an empty tier takes no share;
3. roll a tier, walking the present tiers in rarity order (Common first);
4. roll a card uniformly within that tier (candidates keep the order they were
   given in);
5. remove the pick, and repeat.

Weighting the tier, not the card, keeps a tier's odds independent of how many
cards it holds (seed 003). A pool smaller than ``k`` gives all of its cards.

**Callers dedupe and filter first.** The kernel trusts its input the way the
seed's kernel does: it does not look for duplicate card ids or check that a
card is legal for the pack; the caller passes each card once, already
filtered. It only refuses what it cannot draw at all: a Free card (Free cards
never enter a pool), a value that is not a rarity, and ``k < 1``
(``InvalidOfferError``).

**RNG consumption is fixed**, so a same-seed replay stays explainable: every
pick takes exactly two floats from the injected ``random.Random`` (the tier
roll, then the card roll), even when one candidate is left; a draw from an
empty pool takes exactly one. ``rng_floats(pool_size, k)`` says how many.

``offer_odds`` gives the exact odds (fractions) of an offer, per tier and per
card; ``offer_compositions`` the exact chance of each mix of tiers;
``new_card_odds`` the exact chance that an offer holds a card not yet owned. A
preview names the pool, never the card or tier it will give: that is the
caller's rule, nothing here leaks a result before ``draw_offer`` runs.

Two more things the booster pages need are pure computation and live here too:

- **checking the odds** — ``check_odds`` draws many offers and compares what
  came with the exact odds, with chi-square tests (``chi_square_p_value``; the
  regularised upper incomplete gamma function is written out, no SciPy);
- **the power promise** (seed 003: rarity should mean power, modestly) — a
  card's power is its win rate in bot-vs-bot matches against a fixed, seeded
  gauntlet of one-card decks (``build_gauntlet``, ``measure_power``), and
  ``power_report`` sums a pool's powers up by tier and flags the cards that
  break the promise.

>>> import random
>>> pool = [("c1", Rarity.COMMON), ("c2", Rarity.COMMON), ("r1", Rarity.RARE),
...         ("l1", Rarity.LEGENDARY)]
>>> offer = draw_offer(pool, 2, random.Random(7))
>>> len(offer), len({c.card_id for c in offer})
(2, 2)
>>> odds = offer_odds(pool, 1)
>>> odds.tier(Rarity.COMMON).expected, odds.card("c1"), odds.card("l1")
(Fraction(8, 13), Fraction(4, 13), Fraction(1, 13))
"""

from __future__ import annotations

import bisect
import enum
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, cast

from engine.caches import memo
from engine.data import PACK_TIER_WEIGHT, PACK_TIERS
from engine.errors import InvalidOfferError
from engine.types import Rarity

if TYPE_CHECKING:  # the match engine is loaded only when power is measured
    from engine.match import MatchCard

__all__ = [
    "GAUNTLET_GAMES_PER_SIDE",
    "GAUNTLET_PER_TIER",
    "GAUNTLET_SEED",
    "MIN_EXPECTED",
    "PACK_SIZE_DEFAULT",
    "PACK_SIZE_MAX",
    "PACK_SIZE_MIN",
    "POWER_BOTS",
    "POWER_STEP_LIMIT",
    "CardCheck",
    "CardOdds",
    "CardPower",
    "CheckSkip",
    "ChiSquareTest",
    "InvalidOfferError",
    "NewCardOdds",
    "OddsCheck",
    "OfferOdds",
    "PackCandidate",
    "PackPool",
    "PowerFlag",
    "PowerReport",
    "PowerStep",
    "PromiseStep",
    "TierCheck",
    "TierOdds",
    "TierPower",
    "build_gauntlet",
    "card_power",
    "check_odds",
    "check_offers",
    "chi_square_p_value",
    "draw_offer",
    "measure_power",
    "new_card_odds",
    "offer_compositions",
    "offer_odds",
    "power_report",
    "regularized_gamma_q",
    "rng_floats",
    "simulate_offers",
    "tier_odds",
]

# ---------------------------------------------------------------------------
# Data (docs/rules.md §7, "Settled for the booster feature")

PACK_SIZE_MIN: Final = 1  # §7: the fewest picks a pool's pack may have
PACK_SIZE_MAX: Final = 10  # §7: the most picks a pool's pack may have
PACK_SIZE_DEFAULT: Final = 5  # §7: a new pool's pack size

# Checking the odds: Pearson's rule of thumb, every bin of a chi-square test expects at
# least this many observations (smaller bins are merged, or the test waits for more packs).
MIN_EXPECTED: Final = 5

# The power promise (seed 003): tiers should differ by single-digit percentage points of
# win rate, "not multipliers"; a step of this many points or more is too steep.
POWER_STEP_LIMIT: Final = 10
# The gauntlet: this many one-card decks of each pack tier, drawn with this seed from the
# catalogue; a card plays each of them this many times from each side, greedy bot vs greedy.
GAUNTLET_PER_TIER: Final = 5
GAUNTLET_SEED: Final = 3  # seed 003
GAUNTLET_GAMES_PER_SIDE: Final = 1
POWER_BOTS: Final = ("greedy", "greedy")


@dataclass(frozen=True, slots=True)
class PackCandidate:
    """A card in a pool: its id (any hashable, usually the token number) and its rarity."""

    card_id: Hashable
    rarity: Rarity


@dataclass(frozen=True, slots=True)
class TierOdds:
    """The odds of one tier in an offer.

    ``cards``: candidates of this tier in the pool; ``expected``: the expected
    number of this tier's cards in the offer; ``at_least_one``: the chance the
    offer holds at least one of them; ``per_card``: the chance that one given
    card of the tier is in the offer (the same for every card of a tier;
    ``expected / cards``, 0 for an empty tier).
    """

    rarity: Rarity
    cards: int
    expected: Fraction
    at_least_one: Fraction
    per_card: Fraction


@dataclass(frozen=True, slots=True)
class CardOdds:
    """The chance that the card ``card_id`` is in the offer."""

    card_id: Hashable
    rarity: Rarity
    chance: Fraction


@dataclass(frozen=True, slots=True)
class OfferOdds:
    """Exact odds of an offer of ``k`` picks (as asked) from a pool.

    ``picks`` is the number of cards the offer holds (``min(k, pool size)``);
    ``tiers`` has one row per pack tier, in rarity order (empty tiers included,
    with zero odds); ``cards`` one row per candidate, in the pool's order. The
    expected counts of the tiers add up to ``picks``, and so do the chances of
    the cards.
    """

    k: int
    picks: int
    tiers: tuple[TierOdds, ...]
    cards: tuple[CardOdds, ...]

    def tier(self, rarity: Rarity) -> TierOdds:
        """The row of ``rarity`` (KeyError for a rarity that is not a pack tier)."""
        for row in self.tiers:
            if row.rarity is rarity:
                return row
        raise KeyError(rarity)

    def card(self, card_id: Hashable) -> Fraction:
        """The chance that ``card_id`` is in the offer (KeyError if it is not in the pool)."""
        for row in self.cards:
            if row.card_id == card_id:
                return row.chance
        raise KeyError(card_id)


# A pool entry: a PackCandidate or a (card id, rarity) pair; the rarity may be its value string.
CandidateLike = PackCandidate | tuple[Hashable, Rarity | str]

_TIER_INDEX: Final = MappingProxyType({tier: i for i, tier in enumerate(PACK_TIERS)})
_WEIGHTS: Final = tuple(PACK_TIER_WEIGHT[tier] for tier in PACK_TIERS)

# ---------------------------------------------------------------------------
# Input


def _check_picks(k: object) -> int:
    if type(k) is not int or k < 1:
        raise InvalidOfferError("picks", f"An offer needs at least 1 pick (got {k!r}).", k=k)
    return k


def _candidate(i: int, item: object) -> PackCandidate:
    """One pool entry as a ``PackCandidate``; a Free card or a non-rarity is refused."""
    if isinstance(item, PackCandidate):
        card_id, rarity = item.card_id, item.rarity
    else:
        try:
            card_id, rarity = cast(Any, item)
        except (TypeError, ValueError):
            raise InvalidOfferError(
                "candidate",
                f"Candidate {i + 1} is not a (card id, rarity) pair: {item!r}.",
                index=i,
            ) from None
    if rarity.__class__ is not Rarity:
        try:
            rarity = Rarity(rarity)
        except (TypeError, ValueError):
            raise InvalidOfferError(
                "rarity", f"Card {card_id} has no rarity a pool knows: {rarity!r}.", card=card_id
            ) from None
    if rarity not in _TIER_INDEX:
        raise InvalidOfferError(
            "free_card",
            f"Card {card_id} is {rarity.value.title()}, and {rarity.value.title()} cards "
            "never enter a booster pool.",
            card=card_id,
            rarity=rarity.value,
        )
    if isinstance(item, PackCandidate) and item.rarity is rarity:
        return item
    return PackCandidate(card_id, rarity)


@dataclass(frozen=True, slots=True)
class PackPool:
    """A pool checked once and grouped by tier: draw from it many times at no extra cost.

    ``candidates`` keeps the order given; ``groups`` holds the candidates of each
    tier of ``PACK_TIERS``, in that order. Every function here that takes a pool
    takes a ``PackPool`` too (and skips the check).

    >>> pool = PackPool.of([(1, "rare"), (2, Rarity.COMMON), (3, Rarity.RARE)])
    >>> pool.counts, len(pool)
    ((1, 2, 0, 0), 3)
    """

    candidates: tuple[PackCandidate, ...]
    groups: tuple[tuple[PackCandidate, ...], ...]

    @classmethod
    def of(cls, candidates: Iterable[CandidateLike] | PackPool) -> PackPool:
        """The pool of ``candidates`` (a ``PackPool`` is returned as it is)."""
        if isinstance(candidates, PackPool):
            return candidates
        pool = []
        groups: tuple[list[PackCandidate], ...] = tuple([] for _ in PACK_TIERS)
        for i, item in enumerate(candidates):
            candidate = _candidate(i, item)
            pool.append(candidate)
            groups[_TIER_INDEX[candidate.rarity]].append(candidate)
        return cls(tuple(pool), tuple(tuple(group) for group in groups))

    @property
    def counts(self) -> tuple[int, ...]:
        """How many candidates each tier of ``PACK_TIERS`` holds."""
        return tuple(len(group) for group in self.groups)

    def __len__(self) -> int:
        return len(self.candidates)


# ---------------------------------------------------------------------------
# The draw


def rng_floats(pool_size: int, k: int) -> int:
    """How many floats ``draw_offer`` takes from the RNG for a pool of ``pool_size`` cards.

    Two per pick (the tier roll and the card roll), ``min(k, pool_size)``
    picks; an empty pool takes one.

    >>> rng_floats(10, 3), rng_floats(2, 5), rng_floats(1, 1), rng_floats(0, 5)
    (6, 4, 2, 1)
    """
    _check_picks(k)
    return 2 * min(k, pool_size) if pool_size > 0 else 1


def draw_offer(
    candidates: Iterable[CandidateLike] | PackPool,
    k: int,
    rng: random.Random,
) -> tuple[PackCandidate, ...]:
    """Draw an offer of ``k`` picks from a pool, in pick order (docs/rules.md §7).

    Each pick groups the remaining candidates by tier, renormalises the tier
    weights over the tiers present, rolls a tier (one ``rng.random()``, tiers
    walked in rarity order), rolls a card uniformly within it (a second
    ``rng.random()``, candidates in the order given) and removes it. A pool
    smaller than ``k`` gives all of its cards (drawn, so in a random order).
    Randomness comes only from ``rng``; see ``rng_floats`` for how much.

    The caller dedupes and filters the pool first (see the module docstring).
    Drawing from a ``PackPool`` costs the same whatever the pool's size: a pick
    is never removed from a copy of the pool, it is skipped by index.

    >>> pool = [(1, Rarity.COMMON), (2, Rarity.RARE), (3, Rarity.EPIC)]
    >>> [c.card_id for c in draw_offer(pool, 2, random.Random(1))]
    [1, 3]
    >>> [c.card_id for c in draw_offer(pool, 5, random.Random(1))]
    [1, 3, 2]
    >>> draw_offer([], 3, random.Random(1))
    ()
    >>> draw_offer(pool, 0, random.Random(1))
    Traceback (most recent call last):
    ...
    engine.errors.InvalidOfferError: An offer needs at least 1 pick (got 0).
    """
    picks = _check_picks(k)
    pool = PackPool.of(candidates)
    if not pool.candidates:
        rng.random()  # an empty pool takes one float, so consumption never depends on luck
        return ()
    groups = pool.groups
    left = [len(group) for group in groups]
    taken: list[list[int]] = [[] for _ in groups]  # original indices picked, ascending
    roll = rng.random
    offer = []
    for _ in range(min(picks, len(pool.candidates))):
        total = 0
        for i, n in enumerate(left):
            if n:
                total += _WEIGHTS[i]
        target = roll() * total
        reached = 0
        tier = -1
        for i, n in enumerate(left):
            if n:
                reached += _WEIGHTS[i]
                tier = i
                if target < reached:
                    break
        # (no break: a roll a hair under 1 that rounded up to the total takes the last tier)
        n = left[tier]
        index = min(int(roll() * n), n - 1)  # among the tier's cards still in the pool
        removed = taken[tier]
        for gone in removed:  # the index-th remaining card, counted in the original order
            if gone <= index:
                index += 1
            else:
                break
        bisect.insort(removed, index)
        left[tier] = n - 1
        offer.append(groups[tier][index])
    return tuple(offer)


def simulate_offers(
    candidates: Iterable[CandidateLike] | PackPool, k: int, packs: int, rng: random.Random
) -> Iterable[tuple[PackCandidate, ...]]:
    """``packs`` offers drawn one after another from the same ``rng`` (a generator).

    >>> offers = list(simulate_offers([(1, "common"), (2, "rare")], 1, 3, random.Random(0)))
    >>> [[c.card_id for c in offer] for offer in offers]
    [[2], [1], [1]]
    """
    pool = PackPool.of(candidates)
    _check_picks(k)
    for _ in range(packs):
        yield draw_offer(pool, k, rng)


# ---------------------------------------------------------------------------
# Exact odds


def tier_odds(present: Iterable[Rarity]) -> Mapping[Rarity, Fraction]:
    """One pick's chance of each tier, given the tiers present in the pool.

    Each present tier's weight divided by the sum of the present weights, in
    rarity order; absent tiers are left out.

    >>> {t.value: str(p) for t, p in tier_odds(PACK_TIERS).items()}
    {'common': '8/15', 'rare': '4/15', 'epic': '2/15', 'legendary': '1/15'}
    >>> {t.value: str(p) for t, p in tier_odds([Rarity.LEGENDARY, Rarity.COMMON]).items()}
    {'common': '8/9', 'legendary': '1/9'}
    """
    wanted = set(present)
    unknown = wanted - set(PACK_TIERS)
    if unknown:
        raise InvalidOfferError(
            "rarity", "Not a booster tier: " + ", ".join(sorted(map(str, unknown))) + "."
        )
    mask = tuple(tier in wanted for tier in PACK_TIERS)
    return MappingProxyType({PACK_TIERS[i]: p for i, p in _mask_odds(mask)})


@memo
def _mask_odds(present: tuple[bool, ...]) -> tuple[tuple[int, Fraction], ...]:
    """(tier index, chance) of one pick for a presence mask over ``PACK_TIERS``."""
    weights = [(i, PACK_TIER_WEIGHT[PACK_TIERS[i]]) for i, here in enumerate(present) if here]
    total = sum(w for _, w in weights)
    return tuple((i, Fraction(w, total)) for i, w in weights)


# Exact odds in whole numbers: every tier chance is weight / (sum of the present weights),
# and every such sum divides _SCALE, so one pick multiplies a state's probability by
# weight · (_SCALE / sum) / _SCALE. After j picks a probability is an integer over _SCALE**j:
# the walk adds and multiplies integers, and fractions are formed once at the end.
_TOTALS: Final = tuple(
    sum(_WEIGHTS[i] for i in range(len(_WEIGHTS)) if mask >> i & 1)
    for mask in range(2 ** len(_WEIGHTS))
)
_SCALE: Final = reduce(math.lcm, (t for t in _TOTALS if t), 1)
_STEPS: Final = tuple(
    tuple(
        (i, _WEIGHTS[i] * (_SCALE // _TOTALS[mask])) for i in range(len(_WEIGHTS)) if mask >> i & 1
    )
    for mask in range(2 ** len(_WEIGHTS))
)


def _walk(start: tuple[int, ...], picks: int) -> dict[tuple[int, ...], int]:
    """The offers' tier mixes after ``picks`` picks from a pool of ``start`` cards per tier:
    cards drawn of each tier → probability times ``_SCALE ** picks`` (an integer).

    A state is keyed by one integer, the cards drawn of each tier as digits in
    base ``picks + 1``, so a pick is an addition; a tier is present while fewer
    of its cards were drawn than it holds.
    """
    base = picks + 1
    width = len(start)
    digit = [base**i for i in range(width)]
    states: dict[int, int] = {0: 1}
    for _ in range(picks):
        following: dict[int, int] = {}
        get = following.get
        for key, weight in states.items():
            mask = 0
            rest = key
            for i in range(width):
                rest, drawn = divmod(rest, base)
                if drawn < start[i]:
                    mask |= 1 << i
            for i, factor in _STEPS[mask]:
                after = key + digit[i]
                following[after] = get(after, 0) + weight * factor
        states = following
    mixes: dict[tuple[int, ...], int] = {}
    for key, weight in states.items():
        counts = []
        for _ in range(width):
            key, count = divmod(key, base)
            counts.append(count)
        mixes[tuple(counts)] = weight
    return mixes


def offer_odds(candidates: Iterable[CandidateLike] | PackPool, k: int) -> OfferOdds:
    """The exact odds of an offer of ``k`` picks: per tier and per card (docs/rules.md §7).

    Method: a pick only ever looks at how many cards each tier still holds —
    which tier comes up depends on the tiers present, and within a tier every
    card is alike. So the draw is a walk over *tier-count states* (one count
    per tier), not over cards. Starting from the pool's counts with
    probability 1, each pick spreads every state's probability over its
    successors (one tier's count lowered by one, with that tier's renormalised
    weight); states that several paths reach are merged into one entry of a
    dict, which is the memoisation. After ``min(k, n)`` picks, the final states
    give each tier's expected count in the offer (initial minus remaining) and
    the chance that at least one of its cards was picked. By symmetry every
    card of a tier has the same chance: the tier's expected count divided by
    its size. All arithmetic is exact (whole numbers over a common
    denominator during the walk, ``Fraction`` at the end).

    Cost: after ``j`` picks there are at most C(j + 3, 3) states (56 for
    ``k`` = 5, 286 for 10), each with at most 4 successors, whatever the pool
    size; a pool of a thousand cards costs no more than a pool of ten, beyond
    counting it.

    >>> pool = [(f"c{i}", Rarity.COMMON) for i in range(10)]
    >>> pool += [(f"r{i}", Rarity.RARE) for i in range(3)] + [("l0", Rarity.LEGENDARY)]
    >>> one = offer_odds(pool, 1)
    >>> one.tier(Rarity.COMMON).expected, one.card("c0"), one.card("r0"), one.card("l0")
    (Fraction(8, 13), Fraction(4, 65), Fraction(4, 39), Fraction(1, 13))
    >>> three = offer_odds(pool, 3)
    >>> three.picks, sum(c.chance for c in three.cards), sum(t.expected for t in three.tiers)
    (3, Fraction(3, 1), Fraction(3, 1))
    >>> offer_odds(pool[:2], 5).card("c1")
    Fraction(1, 1)
    """
    wanted = _check_picks(k)
    pool = PackPool.of(candidates)
    start = pool.counts
    picks = min(wanted, len(pool))
    states = _walk(start, picks)
    denominator = _SCALE**picks
    tiers = []
    for i, tier in enumerate(PACK_TIERS):
        expected = Fraction(sum(w * mix[i] for mix, w in states.items()), denominator)
        at_least_one = Fraction(sum(w for mix, w in states.items() if mix[i]), denominator)
        per_card = expected / start[i] if start[i] else Fraction(0)
        tiers.append(TierOdds(tier, start[i], expected, at_least_one, per_card))
    card_chance = {row.rarity: row.per_card for row in tiers}
    cards = tuple(CardOdds(c.card_id, c.rarity, card_chance[c.rarity]) for c in pool.candidates)
    return OfferOdds(wanted, picks, tuple(tiers), cards)


def offer_compositions(
    candidates: Iterable[CandidateLike] | PackPool, k: int
) -> Mapping[tuple[int, ...], Fraction]:
    """The exact chance of each mix of tiers an offer can hold.

    Keys count the offer's cards of each tier of ``PACK_TIERS`` (Common, Rare,
    Epic, Legendary); the chances add up to 1. The same walk as ``offer_odds``.

    >>> mixes = offer_compositions([("c", "common"), ("r", "rare")], 1)
    >>> {mix: str(p) for mix, p in mixes.items()}
    {(0, 1, 0, 0): '1/3', (1, 0, 0, 0): '2/3'}
    """
    wanted = _check_picks(k)
    pool = PackPool.of(candidates)
    start = pool.counts
    picks = min(wanted, len(pool))
    denominator = _SCALE**picks
    mixes = {mix: Fraction(w, denominator) for mix, w in sorted(_walk(start, picks).items())}
    return MappingProxyType(mixes)


@dataclass(frozen=True, slots=True)
class NewCardOdds:
    """The chance of something new in the next offer, for someone who owns some cards.

    ``chance``: the offer holds at least one card not in ``owned``; ``expected``:
    how many such cards it holds on average; ``missing``: the pool's cards not owned.
    """

    chance: Fraction
    expected: Fraction
    missing: int


def new_card_odds(
    candidates: Iterable[CandidateLike] | PackPool, k: int, owned: Collection[Hashable]
) -> NewCardOdds:
    """The exact chance that an offer of ``k`` picks holds a card not in ``owned``.

    Over tier-count states, like ``offer_odds``: the offer holds nothing new
    only when every pick is an owned card, and a pick's chance of that depends
    only on how many owned and missing cards each tier still holds. The walk
    follows the owned cards left in each tier (the missing ones stay put on
    that path): a tier comes up with its renormalised weight over the tiers
    present, and then an owned card with chance owned-left / cards-left. One
    minus the chance of the all-owned path is the answer. ``owned`` may hold
    ids that are not in the pool (cards from other pools): they change nothing.

    >>> pool = [("c0", "common"), ("c1", "common"), ("l0", "legendary")]
    >>> odds = new_card_odds(pool, 1, {"c0", "c1"})
    >>> odds.chance, odds.expected, odds.missing
    (Fraction(1, 9), Fraction(1, 9), 1)
    >>> new_card_odds(pool, 2, {"c0"}).chance
    Fraction(1, 1)
    """
    wanted = _check_picks(k)
    pool = PackPool.of(candidates)
    have = set(owned)
    own = tuple(sum(1 for c in group if c.card_id in have) for group in pool.groups)
    new = tuple(len(group) - o for group, o in zip(pool.groups, own, strict=True))
    odds = offer_odds(pool, wanted)
    expected = sum((n * t.per_card for n, t in zip(new, odds.tiers, strict=True)), Fraction(0))
    if not sum(new):
        return NewCardOdds(Fraction(0), Fraction(0), 0)
    states: dict[tuple[int, ...], Fraction] = {own: Fraction(1)}
    for _ in range(odds.picks):
        following: dict[tuple[int, ...], Fraction] = {}
        for left, chance in states.items():
            present = tuple(a + b > 0 for a, b in zip(left, new, strict=True))
            for i, tier_chance in _mask_odds(present):
                if not left[i]:
                    continue
                p = chance * tier_chance * Fraction(left[i], left[i] + new[i])
                after = (*left[:i], left[i] - 1, *left[i + 1 :])
                following[after] = following.get(after, Fraction(0)) + p
        states = following
    nothing_new = sum(states.values(), Fraction(0))
    return NewCardOdds(1 - nothing_new, expected, sum(new))


# ---------------------------------------------------------------------------
# Statistics: the chi-square test's p-value


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularised upper incomplete gamma function.

    The two classic expansions (as in Numerical Recipes, "Incomplete Gamma
    Function"): below ``x = a + 1`` the series of P(a, x) = 1 − Q(a, x), above it
    Legendre's continued fraction of Q evaluated by the modified Lentz method;
    each converges fast on its side.

    >>> round(regularized_gamma_q(1, 2), 12) == round(math.exp(-2), 12)  # Q(1, x) = e^-x
    True
    >>> regularized_gamma_q(3, 0)
    1.0
    """
    if a <= 0 or math.isnan(a):
        raise ValueError(f"a must be positive (got {a})")
    if x < 0 or math.isnan(x):
        raise ValueError(f"x must be 0 or more (got {x})")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return min(1.0, max(0.0, 1.0 - total * math.exp(log_front)))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, max(0.0, math.exp(log_front) * h))


def chi_square_p_value(statistic: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom is ≥ ``statistic``.

    >>> round(chi_square_p_value(3.841458820694124, 1), 6)  # the 5% critical value, df 1
    0.05
    >>> round(chi_square_p_value(18.307038053275146, 10), 6)
    0.05
    """
    if type(df) is not int or df < 1:
        raise ValueError(f"df must be a whole number ≥ 1 (got {df!r})")
    return regularized_gamma_q(df / 2, max(0.0, statistic) / 2)


# ---------------------------------------------------------------------------
# Checking the odds


class CheckSkip(enum.StrEnum):
    """Why a chi-square test of a check was not run."""

    ONE_OUTCOME = "one_outcome"  # the pool can only give one result here: nothing to test
    TOO_FEW_PACKS = "too_few_packs"  # some bins would expect fewer than MIN_EXPECTED


@dataclass(frozen=True, slots=True)
class ChiSquareTest:
    """Pearson's chi-square test of observed counts against the exact odds.

    ``p_value`` is the chance of a result at least this far from the odds if
    the draw is honest; small values (under 0.01, say) are suspicious, and one
    test in twenty falls under 0.05 by chance alone. When ``skipped`` is set
    the test was not run: ``statistic`` and ``p_value`` are None, and for
    ``TOO_FEW_PACKS`` ``packs_needed`` says how many packs would be enough.
    """

    statistic: float | None
    df: int
    p_value: float | None
    bins: int = 0
    skipped: CheckSkip | None = None
    packs_needed: int | None = None


@dataclass(frozen=True, slots=True)
class TierCheck:
    """One tier in a check: packs holding at least one of its cards, and its cards drawn,
    observed against the exact expectation (``packs`` times the exact odds), and the test
    that the tier's cards came up evenly (``test``)."""

    rarity: Rarity
    cards: int
    packs_with: int
    packs_with_expected: Fraction
    drawn: int
    drawn_expected: Fraction
    test: ChiSquareTest


@dataclass(frozen=True, slots=True)
class CardCheck:
    """How many of the checked packs held the card, and how many should on average."""

    card_id: Hashable
    rarity: Rarity
    observed: int
    expected: Fraction


@dataclass(frozen=True, slots=True)
class OddsCheck:
    """Many offers drawn and compared with the exact odds.

    Two tests cover the draw between them. ``tier_test`` compares the mixes of
    tiers the packs held (how many Commons, Rares … each) with their exact
    chances (``offer_compositions``). ``card_test`` checks that within each
    tier every card came up equally often: given how many cards of a tier a
    pack holds, those cards are an even random choice among the tier's cards,
    so this part is independent of the first. Its statistic adds up the
    tiers' statistics (``TierCheck.test``), each corrected for drawing without
    replacement — a pack never holds one card twice, which makes the counts
    vary less than independent draws would, by the factor (n − m) / (n − 1)
    for m of a tier's n cards — so that it follows the chi-square law.
    """

    packs: int
    k: int
    picks: int
    tiers: tuple[TierCheck, ...]
    cards: tuple[CardCheck, ...]
    tier_test: ChiSquareTest
    card_test: ChiSquareTest


def _skipped(reason: CheckSkip, needed: int | None = None) -> ChiSquareTest:
    return ChiSquareTest(None, 0, None, 0, reason, needed)


def _packs_for(chance: Fraction) -> int:
    """The fewest packs for which ``chance`` per pack expects ``MIN_EXPECTED`` observations."""
    return math.ceil(MIN_EXPECTED / chance)


def _composition_test(
    chances: Mapping[tuple[int, ...], Fraction], seen: Counter, packs: int
) -> ChiSquareTest:
    """Pearson's test over the tier mixes, rare mixes merged until every bin expects enough."""
    if len(chances) < 2:
        return _skipped(CheckSkip.ONE_OUTCOME)
    ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))
    bins: list[tuple[float, int]] = []  # (expected, observed)
    rest_expected, rest_observed = 0.0, 0
    for mix, chance in ranked:
        expected = packs * float(chance)
        if expected >= MIN_EXPECTED:
            bins.append((expected, seen[mix]))
        else:
            rest_expected += expected
            rest_observed += seen[mix]
    if rest_expected > 0:
        if rest_expected < MIN_EXPECTED and bins:
            expected, observed = bins.pop()
            rest_expected += expected
            rest_observed += observed
        bins.append((rest_expected, rest_observed))
    if len(bins) < 2 or any(expected < MIN_EXPECTED for expected, _ in bins):
        top = ranked[0][1]
        return _skipped(CheckSkip.TOO_FEW_PACKS, _packs_for(min(top, 1 - top)))
    statistic = sum((observed - expected) ** 2 / expected for expected, observed in bins)
    df = len(bins) - 1
    return ChiSquareTest(statistic, df, chi_square_p_value(statistic, df), len(bins))


def _tier_card_test(
    size: int, per_card: Fraction, counts: Sequence[int], per_pack: Sequence[int]
) -> ChiSquareTest:
    """The test that one tier's ``size`` cards came up evenly (``counts``: each card's;
    ``per_pack``: how many of the tier's cards each pack held).

    It runs once every card expects ``MIN_EXPECTED`` appearances from the exact
    odds (packs × ``per_card``), so whether it runs depends on the number of
    packs alone; its statistic compares each card with the tier's mean count.
    """
    if size < 2 or per_card >= 1:
        return _skipped(CheckSkip.ONE_OUTCOME)
    if len(per_pack) * per_card < MIN_EXPECTED:
        return _skipped(CheckSkip.TOO_FEW_PACKS, _packs_for(per_card))
    drawn = sum(counts)
    if not drawn:
        return ChiSquareTest(0.0, size - 1, 1.0, size)
    expected = drawn / size
    # Var of a card's count, drawing m of n without replacement, is (n − m)/(n − 1) times
    # that of m independent draws; summed over the packs, relative to all draws.
    factor = sum(m * (size - m) for m in per_pack) / (size - 1) / drawn
    raw = sum((n - expected) ** 2 / expected for n in counts)
    statistic = raw / factor if factor > 0 else 0.0
    df = size - 1
    return ChiSquareTest(statistic, df, chi_square_p_value(statistic, df), size)


def check_offers(
    candidates: Iterable[CandidateLike] | PackPool,
    k: int,
    offers: Iterable[Iterable[PackCandidate | Hashable]],
) -> OddsCheck:
    """Compare offers (drawn from this pool with ``k`` picks) with the exact odds.

    Each offer is a sequence of ``PackCandidate`` values or card ids; an offer
    that is not ``min(k, pool size)`` different cards of the pool is refused
    (``InvalidOfferError``, code ``offer``). See ``OddsCheck`` for the tests.

    >>> pool = [("c0", "common"), ("c1", "common"), ("r0", "rare")]
    >>> check = check_offers(pool, 1, [["c0"], ["r0"], ["c1"], ["c0"]])
    >>> [(t.rarity.value, t.drawn, str(t.drawn_expected)) for t in check.tiers[:2]]
    [('common', 3, '8/3'), ('rare', 1, '4/3')]
    >>> check.tier_test.skipped, check.tier_test.packs_needed
    (<CheckSkip.TOO_FEW_PACKS: 'too_few_packs'>, 15)
    """
    wanted = _check_picks(k)
    pool = PackPool.of(candidates)
    odds = offer_odds(pool, wanted)
    chances = offer_compositions(pool, wanted)
    where = {
        c.card_id: (_TIER_INDEX[c.rarity], j) for tier in pool.groups for j, c in enumerate(tier)
    }
    counts = [[0] * len(group) for group in pool.groups]
    per_pack: list[list[int]] = [[] for _ in pool.groups]
    mixes: Counter = Counter()
    packs = 0
    for number, offer in enumerate(offers):
        ids = [c.card_id if isinstance(c, PackCandidate) else c for c in offer]
        mix = [0] * len(PACK_TIERS)
        for card_id in ids:
            try:
                tier, j = where[card_id]
            except (KeyError, TypeError):
                raise InvalidOfferError(
                    "offer",
                    f"Offer {number + 1} holds {card_id!r}, which is not in the pool.",
                    index=number,
                ) from None
            counts[tier][j] += 1
            mix[tier] += 1
        if len(ids) != odds.picks or len(set(ids)) != len(ids):
            raise InvalidOfferError(
                "offer",
                f"Offer {number + 1} is not {odds.picks} different cards of the pool.",
                index=number,
            )
        for tier, m in enumerate(mix):
            if pool.groups[tier]:
                per_pack[tier].append(m)
        mixes[tuple(mix)] += 1
        packs += 1
    tiers = []
    total, df, bins, ran, needs = 0.0, 0, 0, False, []
    for i, row in enumerate(odds.tiers):
        test = _tier_card_test(row.cards, row.per_card, counts[i], per_pack[i])
        if test.statistic is not None:
            total += test.statistic
            df += test.df
            bins += test.bins
            ran = True
        elif test.packs_needed is not None:
            needs.append(test.packs_needed)
        tiers.append(
            TierCheck(
                row.rarity,
                row.cards,
                sum(1 for m in per_pack[i] if m),
                packs * row.at_least_one,
                sum(counts[i]),
                packs * row.expected,
                test,
            )
        )
    if ran:
        card_test = ChiSquareTest(total, df, chi_square_p_value(total, df), bins)
    elif needs:
        card_test = _skipped(CheckSkip.TOO_FEW_PACKS, min(needs))
    else:
        card_test = _skipped(CheckSkip.ONE_OUTCOME)
    cards = tuple(
        CardCheck(
            c.card_id,
            c.rarity,
            counts[where[c.card_id][0]][where[c.card_id][1]],
            packs * row.chance,
        )
        for c, row in zip(pool.candidates, odds.cards, strict=True)
    )
    tier_test = _composition_test(chances, mixes, packs)
    return OddsCheck(packs, wanted, odds.picks, tuple(tiers), cards, tier_test, card_test)


def check_odds(
    candidates: Iterable[CandidateLike] | PackPool, k: int, packs: int, seed: int
) -> OddsCheck:
    """Draw ``packs`` offers from ``random.Random(seed)``, one after another, and check them.

    >>> pool = [(f"c{i}", "common") for i in range(6)] + [("r0", "rare"), ("l0", "legendary")]
    >>> check = check_odds(pool, 3, 400, seed=1)
    >>> check.packs, check.tier_test.df > 0, 0 <= check.card_test.p_value <= 1
    (400, True, True)
    """
    if type(packs) is not int or packs < 1:
        raise InvalidOfferError("packs", f"A check needs at least 1 pack (got {packs!r}).")
    pool = PackPool.of(candidates)
    return check_offers(pool, k, simulate_offers(pool, k, packs, random.Random(seed)))


# ---------------------------------------------------------------------------
# The power promise (seed 003)


class PowerFlag(enum.StrEnum):
    """A card whose power breaks its tier's promise."""

    WEAK = "weak"  # weaker than the typical card of the tier below
    DOMINANT = "dominant"  # stronger than the typical card of the tier above


class PromiseStep(enum.StrEnum):
    """How the power changes from one tier to the next one up."""

    MODEST = "modest"  # up by less than POWER_STEP_LIMIT points: the promise
    STEEP = "steep"  # up by POWER_STEP_LIMIT points or more: a multiplier, not a spike
    NOT_RISING = "not_rising"  # level or down: the rarer tier is not stronger


@dataclass(frozen=True, slots=True)
class CardPower:
    """A card's results against the gauntlet: its power is ``rate`` (a draw counts half)."""

    card_id: str
    rarity: Rarity
    wins: int
    draws: int
    games: int

    @property
    def rate(self) -> Fraction | None:
        """(wins + draws / 2) / games, or None before any game."""
        if not self.games:
            return None
        return Fraction(2 * self.wins + self.draws, 2 * self.games)


@dataclass(frozen=True, slots=True)
class TierPower:
    """One tier of a pool: its measured cards' mean and median power, and its band.

    The band runs from the median power of the nearest lower tier present to
    that of the nearest higher one (open at the ends: None); ``weak`` and
    ``dominant`` count the tier's cards outside it.
    """

    rarity: Rarity
    cards: int
    mean: Fraction
    median: Fraction
    low: Fraction | None
    high: Fraction | None
    weak: int
    dominant: int


@dataclass(frozen=True, slots=True)
class PowerStep:
    """From one tier present to the next one up: the change of mean power, in points."""

    lower: Rarity
    upper: Rarity
    points: Fraction
    verdict: PromiseStep


@dataclass(frozen=True, slots=True)
class PowerReport:
    """A pool's power by tier, the steps between tiers, and the flagged cards.

    ``kept`` is True when there are at least two tiers and every step is modest.
    """

    tiers: tuple[TierPower, ...]
    steps: tuple[PowerStep, ...]
    flags: Mapping[str, PowerFlag]
    measured: int
    unmeasured: int

    @property
    def kept(self) -> bool:
        return bool(self.steps) and all(s.verdict is PromiseStep.MODEST for s in self.steps)

    def tier(self, rarity: Rarity) -> TierPower | None:
        return next((t for t in self.tiers if t.rarity is rarity), None)


def build_gauntlet(
    cards: Iterable[MatchCard], *, per_tier: int = GAUNTLET_PER_TIER, seed: int = GAUNTLET_SEED
) -> tuple[tuple[MatchCard, ...], ...]:
    """The fixed gauntlet: ``per_tier`` one-card decks of each pack tier, seeded.

    For each tier in rarity order, ``random.Random(seed)`` samples that many
    of the tier's cards, in the order given (all of them when the tier has
    fewer); Free cards are left out, as in every pool. The same cards and seed
    give the same gauntlet on every machine.

    >>> from engine.match import MatchCard
    >>> from engine.types import Role
    >>> cards = [MatchCard(str(i), "Pup", r, Role.TANK, atk=5, hp=10)
    ...          for i, r in enumerate([Rarity.COMMON] * 4 + [Rarity.EPIC, Rarity.FREE])]
    >>> [deck[0].id for deck in build_gauntlet(cards, per_tier=2, seed=1)]
    ['1', '2', '4']
    """
    rng = random.Random(seed)
    pool = list(cards)
    decks: list[tuple[MatchCard, ...]] = []
    for tier in PACK_TIERS:
        group = [c for c in pool if c.rarity is tier]
        decks.extend((c,) for c in rng.sample(group, min(per_tier, len(group))))
    return tuple(decks)


def card_power(
    card: MatchCard,
    gauntlet: Sequence[Sequence[MatchCard]],
    *,
    seed: int = 0,
    games: int = GAUNTLET_GAMES_PER_SIDE,
    bots: Sequence[str] = POWER_BOTS,
) -> CardPower:
    """A card's results as a one-card deck against every deck of the gauntlet.

    Against gauntlet deck ``i`` the card plays ``games`` matches as side A
    (seeds ``seed + 2·i·games`` onwards) and ``games`` as side B (the next
    ``games`` seeds), through ``engine.match.simulate.run_series``; the seeds depend
    on the deck's place only, so every card meets the same matches. A deck
    holding the card itself is skipped (no mirror matches).

    >>> from engine.match import MatchCard
    >>> from engine.types import Role
    >>> big = MatchCard("1", "Big", Rarity.LEGENDARY, Role.STRIKER, atk=14, hp=30)
    >>> small = MatchCard("2", "Small", Rarity.COMMON, Role.TANK, atk=2, hp=6)
    >>> result = card_power(big, [(small,), (big,)])
    >>> result.games, result.rate
    (2, Fraction(1, 1))
    """
    from engine.match.simulate import run_series

    wins = draws = played = 0
    solo = (card,)
    for i, deck in enumerate(gauntlet):
        if any(c.id == card.id for c in deck):
            continue
        base = seed + 2 * i * games
        as_a = run_series(solo, tuple(deck), bots, base, games)
        as_b = run_series(tuple(deck), solo, bots, base + games, games)
        wins += as_a["wins"]["a"] + as_b["wins"]["b"]
        draws += as_a["draws"] + as_b["draws"]
        played += 2 * games
    return CardPower(card.id, card.rarity, wins, draws, played)


def measure_power(
    cards: Iterable[MatchCard],
    gauntlet: Sequence[Sequence[MatchCard]],
    *,
    seed: int = 0,
    games: int = GAUNTLET_GAMES_PER_SIDE,
    bots: Sequence[str] = POWER_BOTS,
    progress: Callable[[int], None] | None = None,
) -> tuple[CardPower, ...]:
    """``card_power`` for each card (``progress(done)`` after each one, if given)."""
    results = []
    for done, card in enumerate(cards, start=1):
        results.append(card_power(card, gauntlet, seed=seed, games=games, bots=bots))
        if progress is not None:
            progress(done)
    return tuple(results)


def _median(rates: list[Fraction]) -> Fraction:
    """``statistics.median`` of exact rates, without its thousands of comparisons of
    fractions (a pool's page works out a few hundred; issue 27): sorted by their floats,
    which keep the exact order (rounding never swaps two values), and sorted exactly only
    if two different rates share a float.

    >>> _median([Fraction(1, 3), Fraction(1, 2), Fraction(1, 4), Fraction(2, 3)])
    Fraction(5, 12)
    """
    floats = [float(rate) for rate in rates]
    order = sorted(range(len(rates)), key=floats.__getitem__)
    ordered = [rates[i] for i in order]
    if any(floats[a] == floats[b] and rates[a] != rates[b] for a, b in itertools.pairwise(order)):
        ordered = sorted(rates)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def _mean(rates: list[Fraction]) -> Fraction:
    """The exact mean, adding the numerators of each denominator first (a pool's rates
    share a few denominators) rather than a fraction at a time.

    >>> _mean([Fraction(1, 4), Fraction(3, 4), Fraction(1, 3)])
    Fraction(4, 9)
    """
    totals: dict[int, int] = {}
    for rate in rates:
        totals[rate.denominator] = totals.get(rate.denominator, 0) + rate.numerator
    return sum((Fraction(n, d) for d, n in totals.items()), Fraction(0)) / len(rates)


def power_report(powers: Iterable[CardPower]) -> PowerReport:
    """A pool's power by tier, its steps and its flags (docs/rules.md §7, seed 003).

    - Power by tier: the mean and the median win rate of the tier's measured cards.
    - Steps: between tiers present, in rarity order, the change of mean power in
      percentage points; below ``POWER_STEP_LIMIT`` points up is the promise
      kept (``MODEST``), more is ``STEEP``, none or down is ``NOT_RISING``.
    - Flags: a card weaker than the median card of the nearest tier below is
      ``WEAK`` (a weak Legendary); one stronger than the median card of the
      nearest tier above is ``DOMINANT`` (a dominant Common).

    Cards without games (``rate`` None) are counted as unmeasured and left out.

    >>> rows = [CardPower("c1", Rarity.COMMON, 2, 0, 10), CardPower("c2", Rarity.COMMON, 9, 0, 10),
    ...         CardPower("l1", Rarity.LEGENDARY, 6, 0, 10), CardPower("l2", Rarity.LEGENDARY, 3, 0, 10)]
    >>> report = power_report(rows)
    >>> [(t.rarity.value, str(t.mean), str(t.median)) for t in report.tiers]
    [('common', '11/20', '11/20'), ('legendary', '9/20', '9/20')]
    >>> report.steps[0].points, report.steps[0].verdict.value, dict(report.flags)
    (Fraction(-10, 1), 'not_rising', {'c2': <PowerFlag.DOMINANT: 'dominant'>, 'l2': <PowerFlag.WEAK: 'weak'>})
    """
    measured: dict[Rarity, list[tuple[str, Fraction]]] = {tier: [] for tier in PACK_TIERS}
    unmeasured = 0
    for row in powers:
        rate = row.rate
        if rate is None or row.rarity not in measured:
            unmeasured += 1
            continue
        measured[row.rarity].append((row.card_id, rate))
    present = [tier for tier in PACK_TIERS if measured[tier]]
    medians = {tier: _median([rate for _, rate in measured[tier]]) for tier in present}
    means = {tier: _mean([rate for _, rate in measured[tier]]) for tier in present}
    flags: dict[str, PowerFlag] = {}
    tiers = []
    for i, tier in enumerate(present):
        low = medians[present[i - 1]] if i > 0 else None
        high = medians[present[i + 1]] if i + 1 < len(present) else None
        weak = dominant = 0
        for card_id, rate in measured[tier]:
            if low is not None and rate < low:
                flags[card_id] = PowerFlag.WEAK
                weak += 1
            elif high is not None and rate > high:
                flags[card_id] = PowerFlag.DOMINANT
                dominant += 1
        tiers.append(
            TierPower(
                tier, len(measured[tier]), means[tier], medians[tier], low, high, weak, dominant
            )
        )
    steps = []
    for lower, upper in itertools.pairwise(present):
        points = (means[upper] - means[lower]) * 100
        if points <= 0:
            verdict = PromiseStep.NOT_RISING
        elif points < POWER_STEP_LIMIT:
            verdict = PromiseStep.MODEST
        else:
            verdict = PromiseStep.STEEP
        steps.append(PowerStep(lower, upper, points, verdict))
    return PowerReport(
        tuple(tiers),
        tuple(steps),
        MappingProxyType(flags),
        sum(len(v) for v in measured.values()),
        unmeasured,
    )
