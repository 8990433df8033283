"""Reads of the booster feature: pools and their candidates, openings and their replay,
a session's binder, and the stored power promise.

A pool's candidates are its catalogue cards in token order, each with its derived
rarity as stored now (``cards.services.recompute_cards`` keeps it current): the tier
a pack gives a card is its rarity at the moment of the opening (docs/rules.md §7). A card
that became Free since the pool was saved is left out, as every draw's caller must.
"""

from __future__ import annotations

import datetime as dt
import hashlib
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

from .models import CardPower, DaySeed, OddsVersion, Opening, Pool, PowerRun

__all__ = [
    "DEPENDS_ON",
    "Replay",
    "binder_counts",
    "binder_tokens",
    "candidates",
    "candidates_by_pool",
    "card_fingerprints",
    "day_seed",
    "is_revealed",
    "latest_power_run",
    "ledger",
    "opening_or_404",
    "pool_cards",
    "pool_or_404",
    "pool_powers",
    "pool_tier_counts",
    "power_is_current",
    "replay",
    "session_openings",
    "utc_today",
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
        Opening.objects.select_related("pool", "candidate_list", "odds_version")
        .filter(public_id=public_id)
        .first()
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


# What a card is to a match (its derived values): a power measurement is out of date for a
# card only when one of these changed since.
FINGERPRINT_FIELDS = (
    "rarity",
    "role",
    "template",
    "energy_cost",
    "atk",
    "hp",
    "defense",
    "ability",
    "active_skill",
    "skill_affinity",
)


def fingerprint(values: tuple) -> str:
    """A card's fingerprint: a digest of its ``FINGERPRINT_FIELDS`` values."""
    text = "\x1f".join("" if v is None else str(v) for v in values)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def card_fingerprints(cards: QuerySet[Card]) -> dict[int, str]:
    """token → fingerprint of these cards (one query)."""
    return {row[0]: fingerprint(row[1:]) for row in cards.values_list("token", *FINGERPRINT_FIELDS)}


def power_is_current(run: PowerRun, pool: Pool | None = None) -> bool:
    """Whether no card ``pool`` holds changed since the run measured it (and none is new
    to the catalogue since): a recompute that changed nothing leaves it current.

    Without a pool, or for a run stored before fingerprints, whether the collection's
    version is the one the run measured."""
    if pool is None:
        return run.collection_version == versions.current("cards")
    held = pool.cards.filter(_IN_A_POOL)
    now = card_fingerprints(held)
    # The same cards as a subquery, not a list of every token (binding ~900 parameters
    # cost the pool page more than the lookup itself).
    measured = dict(
        CardPower.objects.filter(run=run, card__in=held.values("pk")).values_list(
            "card__token", "fingerprint"
        )
    )
    if any(not value for value in measured.values()):
        return run.collection_version == versions.current("cards")
    return measured == now


def card_powers(run: PowerRun, card_ids: list[int]) -> dict[int, EngineCardPower]:
    """The measured power of these cards (by id; token → value), each with its tier now."""
    rows = (
        CardPower.objects.filter(run=run, card_id__in=card_ids)
        .filter(card__starter=False)
        .exclude(card__rarity=Rarity.FREE)
        .values_list("card__token", "card__rarity", "wins", "draws", "games")
    )
    return {
        token: EngineCardPower(str(token), EngineRarity(rarity), wins, draws, games)
        for token, rarity, wins, draws, games in rows
    }


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


# ---------------------------------------------------------------------------
# The ledger


def utc_today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def day_seed(day: dt.date) -> DaySeed | None:
    return DaySeed.objects.filter(day=day).first()


def is_revealed(day: dt.date) -> bool:
    """A day's server seed is shown once the day has ended (UTC)."""
    return day < utc_today()


def ledger_openings(day: dt.date) -> QuerySet[Opening]:
    """The day's openings in ledger order, with their odds versions."""
    return (
        Opening.objects.filter(day=day, nonce__isnull=False)
        .select_related("odds_version__candidate_list")
        .order_by("nonce")
    )


def ledger(seed: DaySeed) -> dict:
    """The day's ledger (``engine.ledger``'s shape): the server seed only once revealed."""
    versions_: dict[str, list] = {}
    entries = []
    rows = ledger_openings(seed.day).values_list(
        "nonce",
        "pool_slug",
        "odds_version__key",
        "odds_version_id",
        "client_seed",
        "picks",
        "prev",
        "hash",
    )
    version_ids: dict[str, int] = {}
    for nonce, pool, key, version_id, client_seed, picks, prev, hash_ in rows:
        version_ids[key] = version_id
        entries.append(
            {
                "n": nonce,
                "pool": pool,
                "odds_version": key,
                "client_seed": client_seed,
                "picks": picks,
                "prev": prev,
                "hash": hash_,
            }
        )
    lists = dict(
        OddsVersion.objects.filter(id__in=list(version_ids.values())).values_list(
            "key", "candidate_list__candidates"
        )
    )
    for key in sorted(version_ids):
        versions_[key] = lists[key]
    return {
        "date": seed.day.isoformat(),
        "commitment": seed.commitment,
        "server_seed": seed.seed if is_revealed(seed.day) else None,
        "versions": versions_,
        "entries": entries,
    }


def latest_odds_version(pool: Pool) -> OddsVersion | None:
    """The pool's latest odds version, with its candidate list's digest; the list itself
    (≈ 16 KB of JSON for a thousand cards) is read only if asked for (a new version's
    changes), not on each view of the pool page."""
    return (
        OddsVersion.objects.filter(pool=pool)
        .select_related("candidate_list")
        .defer("candidate_list__candidates")
        .order_by("-number")
        .first()
    )


def pool_odds_versions(pool: Pool) -> QuerySet[OddsVersion]:
    return OddsVersion.objects.filter(pool=pool).order_by("-number")
