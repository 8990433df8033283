"""Reads of the booster feature: pools and their candidates, openings and their replay,
a session's binder, and the stored power promise.

A pool's candidates are its catalogue cards in token order, each with its derived
rarity as stored now (``cards.services.recompute_cards`` keeps it current): the tier
a pack gives a card is its rarity at the moment of the opening (docs/rules.md §7). A card
that became Free since the pool was saved is left out, as every draw's caller must.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from uuid import UUID

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from cards.models import Card, Rarity
from core import versions
from engine.data import PACK_TIERS
from engine.packs import (
    CardPower as EngineCardPower,
)
from engine.packs import (
    InvalidOfferError,
    PackCandidate,
    PackPool,
    draw_offer,
)
from engine.types import Rarity as EngineRarity

from .models import CardPower, Opening, Pool, PowerRun

__all__ = [
    "DEPENDS_ON",
    "Replay",
    "binder_counts",
    "binder_tokens",
    "candidates",
    "candidates_by_pool",
    "latest_power_run",
    "opening_or_404",
    "pool_cards",
    "pool_or_404",
    "pool_powers",
    "pool_tier_counts",
    "power_is_current",
    "replay",
    "session_openings",
]

# The content versions a pool's page depends on: its pools, and the cards' derived
# rarities (a card's tier is its rarity now).
DEPENDS_ON = ("packs", "cards")

_IN_A_POOL = Q(starter=False) & ~Q(rarity=Rarity.FREE)
_TIER = {tier.value: tier for tier in PACK_TIERS}  # stored value → engine member, no Enum call


def pool_or_404(slug: str) -> Pool:
    pool = Pool.objects.filter(slug=slug).first()
    if pool is None:
        raise Http404("No such pool.")
    return pool


def pools_with_counts() -> QuerySet[Pool]:
    """Every pool, in list order, with ``n_<tier>`` card counts (one query)."""
    counts = {
        f"n_{tier.value}": Count("cards", filter=Q(cards__starter=False, cards__rarity=tier.value))
        for tier in PACK_TIERS
    }
    return Pool.objects.annotate(**counts)


def pool_tier_counts(pool: Pool) -> dict[str, int]:
    """How many of the pool's cards each tier holds now (from ``pools_with_counts``)."""
    return {tier.value: getattr(pool, f"n_{tier.value}", 0) for tier in PACK_TIERS}


def candidates(pool: Pool) -> PackPool:
    """The pool as the draw sees it now: (token, tier) of its cards, in token order."""
    rows = pool.cards.filter(_IN_A_POOL).order_by("token").values_list("token", "rarity")
    return PackPool.of(PackCandidate(token, _TIER[rarity]) for token, rarity in rows)


def candidates_by_pool(pool_ids: list[int] | None = None) -> dict[int, PackPool]:
    """``candidates`` of many pools at once (one query)."""
    through = Pool.cards.through.objects.filter(card__starter=False).exclude(
        card__rarity=Rarity.FREE
    )
    if pool_ids is not None:
        through = through.filter(pool_id__in=pool_ids)
    grouped: dict[int, list[PackCandidate]] = {}
    rows = through.order_by("pool_id", "card__token").values_list(
        "pool_id", "card__token", "card__rarity"
    )
    for pool_id, token, rarity in rows:
        grouped.setdefault(pool_id, []).append(PackCandidate(token, _TIER[rarity]))
    return {pool_id: PackPool.of(cards) for pool_id, cards in grouped.items()}


def pool_cards(pool: Pool) -> QuerySet[Card]:
    """The pool's drawable cards with their equipped attributes (for pictures), by token."""
    return (
        pool.cards.filter(_IN_A_POOL)
        .select_related("head", "body", "paw", "background")
        .order_by("token")
    )


# ---------------------------------------------------------------------------
# Openings


def opening_or_404(public_id: UUID) -> Opening:
    opening = (
        Opening.objects.select_related("pool", "candidate_list").filter(public_id=public_id).first()
    )
    if opening is None:
        raise Http404("No such opening.")
    return opening


@dataclass(frozen=True, slots=True)
class Replay:
    """The draw run again from an opening's stored seed and candidate list."""

    picks: tuple[int, ...]
    verified: bool


def replay(opening: Opening) -> Replay:
    """Draw again with ``random.Random(seed)`` from the stored snapshot; verified only
    when that gives the stored picks, in the same order."""
    try:
        pool = PackPool.of(
            PackCandidate(int(token), rarity) for token, rarity in opening.candidates
        )
        picks = tuple(
            int(c.card_id) for c in draw_offer(pool, opening.pack_size, random.Random(opening.seed))
        )
    except (InvalidOfferError, TypeError, ValueError):
        return Replay((), False)
    stored = tuple(opening.picks) if isinstance(opening.picks, list) else ()
    return Replay(picks, picks == stored)


def session_openings(session_key: str | None) -> QuerySet[Opening]:
    """The openings made by this session, newest first (none without a session)."""
    if not session_key:
        return Opening.objects.none()
    return Opening.objects.filter(session_key=session_key).select_related("pool")


def binder_counts(session_key: str | None) -> Counter[int]:
    """How many times this session pulled each card (token → count; one query)."""
    counts: Counter[int] = Counter()
    for picks in session_openings(session_key).values_list("picks", flat=True):
        counts.update(int(token) for token in picks)
    return counts


def binder_tokens(session_key: str | None) -> list[int]:
    """The tokens of every card in this session's binder, once each, in token order.

    For "play with my binder" in the match demo's deck builder.
    """
    return sorted(binder_counts(session_key))


# ---------------------------------------------------------------------------
# The power promise


def latest_power_run() -> PowerRun | None:
    return PowerRun.objects.order_by("-created_at", "-id").first()


def power_is_current(run: PowerRun) -> bool:
    """Whether the collection has not changed since the run measured it."""
    return run.collection_version == versions.current("cards")


def pool_powers(run: PowerRun | None, pool: Pool) -> dict[int, EngineCardPower]:
    """The measured power of each of the pool's cards (token → value; one query).

    The tier is the card's rarity now, the one a pack would give it.
    """
    if run is None:
        return {}
    rows = (
        CardPower.objects.filter(run=run, card__pools=pool)
        .filter(card__starter=False)
        .exclude(card__rarity=Rarity.FREE)
        .values_list("card__token", "card__rarity", "wins", "draws", "games")
    )
    return {
        token: EngineCardPower(str(token), EngineRarity(rarity), wins, draws, games)
        for token, rarity, wins, draws, games in rows
    }
