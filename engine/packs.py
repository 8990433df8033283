"""Booster packs (RULES.md §7): the tier-weighted draw and the exact odds of an offer.

A pool is a list of candidates, each a card id and the card's rarity (a
``PackCandidate``, or a plain ``(card_id, rarity)`` pair). One offer of ``k``
picks is drawn one pick at a time:

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
card; the wiki and the pack preview show them. A preview names the pool, never
the card or tier it will give: that is the caller's rule, nothing here leaks a
result before ``draw_offer`` runs.

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

import random
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from engine.data import PACK_TIER_WEIGHT, PACK_TIERS
from engine.types import Rarity

__all__ = [
    "CardOdds",
    "InvalidOfferError",
    "OfferOdds",
    "PackCandidate",
    "TierOdds",
    "draw_offer",
    "offer_odds",
    "rng_floats",
    "tier_odds",
]


class InvalidOfferError(ValueError):
    """A pool or an offer size the draw cannot take.

    ``code`` is stable (``picks``, ``candidate``, ``rarity``, ``free_card``),
    ``params`` holds its values; ``str(error)`` is one readable sentence.

    >>> offer_odds([("p1", Rarity.FREE)], 1)
    Traceback (most recent call last):
    ...
    engine.packs.InvalidOfferError: Card p1 is Free, and Free cards never enter a booster pool.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(message)


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

# ---------------------------------------------------------------------------
# Input


def _check_picks(k: object) -> int:
    if type(k) is not int or k < 1:
        raise InvalidOfferError("picks", f"An offer needs at least 1 pick (got {k!r}).", k=k)
    return k


def _pool(candidates: Iterable[CandidateLike]) -> list[PackCandidate]:
    """The candidates as ``PackCandidate`` values; a Free card or a non-rarity is refused."""
    pool = []
    for i, item in enumerate(candidates):
        if isinstance(item, PackCandidate):
            card_id, rarity = item.card_id, item.rarity
        else:
            try:
                card_id, rarity = item
            except (TypeError, ValueError):
                raise InvalidOfferError(
                    "candidate",
                    f"Candidate {i + 1} is not a (card id, rarity) pair: {item!r}.",
                    index=i,
                ) from None
        try:
            rarity = Rarity(rarity)
        except (TypeError, ValueError):
            raise InvalidOfferError(
                "rarity", f"Card {card_id} has no rarity a pool knows: {rarity!r}.", card=card_id
            ) from None
        if rarity not in PACK_TIER_WEIGHT:
            raise InvalidOfferError(
                "free_card",
                f"Card {card_id} is {rarity.value.title()}, and {rarity.value.title()} cards "
                "never enter a booster pool.",
                card=card_id,
                rarity=rarity.value,
            )
        same = isinstance(item, PackCandidate) and item.rarity is rarity
        pool.append(item if same else PackCandidate(card_id, rarity))
    return pool


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


def _roll_tier(present: tuple[Rarity, ...], roll: float) -> Rarity:
    """The tier ``roll`` (in [0, 1)) lands on, walking the present tiers in rarity order."""
    target = roll * sum(PACK_TIER_WEIGHT[t] for t in present)
    reached = 0
    for tier in present:
        reached += PACK_TIER_WEIGHT[tier]
        if target < reached:
            return tier
    return present[-1]  # a roll a hair under 1 that rounded up to the total


def draw_offer(
    candidates: Iterable[CandidateLike],
    k: int,
    rng: random.Random,
) -> tuple[PackCandidate, ...]:
    """Draw an offer of ``k`` picks from a pool, in pick order (RULES.md §7).

    Each pick groups the remaining candidates by tier, renormalises the tier
    weights over the tiers present, rolls a tier (one ``rng.random()``, tiers
    walked in rarity order), rolls a card uniformly within it (a second
    ``rng.random()``, candidates in the order given) and removes it. A pool
    smaller than ``k`` gives all of its cards (drawn, so in a random order).
    Randomness comes only from ``rng``; see ``rng_floats`` for how much.

    The caller dedupes and filters the pool first (see the module docstring).

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
    engine.packs.InvalidOfferError: An offer needs at least 1 pick (got 0).
    """
    picks = _check_picks(k)
    pool = _pool(candidates)
    if not pool:
        rng.random()  # an empty pool takes one float, so consumption never depends on luck
        return ()
    groups: dict[Rarity, list[PackCandidate]] = {tier: [] for tier in PACK_TIERS}
    for candidate in pool:
        groups[candidate.rarity].append(candidate)
    offer = []
    for _ in range(min(picks, len(pool))):
        present = tuple(tier for tier in PACK_TIERS if groups[tier])
        group = groups[_roll_tier(present, rng.random())]
        index = min(int(rng.random() * len(group)), len(group) - 1)
        offer.append(group.pop(index))
    return tuple(offer)


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


@lru_cache(maxsize=2 ** len(PACK_TIERS))  # one entry per presence mask
def _mask_odds(present: tuple[bool, ...]) -> tuple[tuple[int, Fraction], ...]:
    """(tier index, chance) of one pick for a presence mask over ``PACK_TIERS``."""
    weights = [(i, PACK_TIER_WEIGHT[PACK_TIERS[i]]) for i, here in enumerate(present) if here]
    total = sum(w for _, w in weights)
    return tuple((i, Fraction(w, total)) for i, w in weights)


def offer_odds(candidates: Iterable[CandidateLike], k: int) -> OfferOdds:
    """The exact odds of an offer of ``k`` picks: per tier and per card (RULES.md §7).

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
    its size. All arithmetic is exact (``Fraction``).

    Cost: after ``j`` picks there are at most C(j + 3, 3) states (56 for
    ``k`` = 5), each with at most 4 successors, whatever the pool size; a pool
    of a few hundred cards costs no more than a pool of ten, beyond counting it.

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
    pool = _pool(candidates)
    start = tuple(sum(1 for c in pool if c.rarity is tier) for tier in PACK_TIERS)
    picks = min(wanted, len(pool))
    states: dict[tuple[int, ...], Fraction] = {start: Fraction(1)}
    for _ in range(picks):
        following: dict[tuple[int, ...], Fraction] = {}
        for counts, chance in states.items():
            for i, tier_chance in _mask_odds(tuple(n > 0 for n in counts)):
                after = (*counts[:i], counts[i] - 1, *counts[i + 1 :])
                following[after] = following.get(after, Fraction(0)) + chance * tier_chance
        states = following
    tiers = []
    for i, tier in enumerate(PACK_TIERS):
        expected = sum((p * (start[i] - counts[i]) for counts, p in states.items()), Fraction(0))
        at_least_one = sum((p for counts, p in states.items() if counts[i] < start[i]), Fraction(0))
        per_card = expected / start[i] if start[i] else Fraction(0)
        tiers.append(TierOdds(tier, start[i], expected, at_least_one, per_card))
    card_chance = {row.rarity: row.per_card for row in tiers}
    cards = tuple(CardOdds(c.card_id, c.rarity, card_chance[c.rarity]) for c in pool)
    return OfferOdds(wanted, picks, tuple(tiers), cards)
