"""Writes of the booster feature: opening a pack, measuring the power promise, and the
demo pools.

Opening a pack (docs/rules.md §7): the draw's seed is the HMAC of the day's secret
server seed (committed to from the day's start, ``today``) and the player's client seed
with the opening's nonce, its number in the day's ledger (``engine.ledger.draw_seed``).
The opening stores that seed, its odds version (the pool's candidate list as it was —
token and tier of each card, in draw order: a ``CandidateList`` row shared by every
opening of the same list — with the pack size and tier weights), the picks, and its
ledger entry's ``prev`` and ``hash``.

A form sent twice opens one pack. Each render of the open form carries a fresh
one-time token — the form's masked CSRF token, new on every render — and the opening
stores a digest of the session and that token (``request_key``, unique): the same form
sent again *by the same session* finds the opening it made instead of drawing a second
one. The key is never used to find a session: a token replayed from another browser
(or a new visitor's two racing first requests, which carry no session yet) opens a
pack of its own, in its own session. (Using the CSRF token keeps the form free of any
other per-render value.)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction

from cards.models import Card
from cards.specs import iter_card_specs
from core import versions
from core.limits import Budget
from engine.card.derive import derive
from engine.data import PACK_TIER_WEIGHT, PACK_TIERS
from engine.ledger import SERVER_SEED_BYTES, chain, commitment, draw_seed
from engine.match import MatchCard
from engine.packs import (
    GAUNTLET_GAMES_PER_SIDE,
    GAUNTLET_PER_TIER,
    GAUNTLET_SEED,
    POWER_BOTS,
    OddsCheck,
    PackPool,
    build_gauntlet,
    check_odds,
    draw_offer,
    measure_power,
)

from . import selectors
from .models import (
    CandidateList,
    CardPower,
    DaySeed,
    OddsVersion,
    Opening,
    Pool,
    PowerRun,
    candidate_digest,
)
from .signals import VERSION

__all__ = [
    "EmptyPoolError",
    "Opened",
    "compute_power",
    "odds_version",
    "open_pack",
    "request_key",
    "today",
]

logger = logging.getLogger(__name__)

SEED_BITS = 63  # the seed fits a signed 64-bit column on every database

# How fast a visitor may open packs (``core.limits``: per session, per new visitor, per
# address; counted before a session is created).
OPENINGS = Budget("packs", per_session=20, per_new_visitor=12, per_address=60)
# Odds checks that draw (a check asked before is served from the cache): each costs up
# to half a second of a worker, so they are counted like openings.
CHECKS = Budget("packs-check", per_session=10, per_new_visitor=10, per_address=30)
CHECK_CACHE_SECONDS = 60 * 60


class EmptyPoolError(ValueError):
    """The pool has no card a pack could give."""


@dataclass(frozen=True, slots=True)
class Opened:
    """The opening a POST made (``created``) or found (the same form sent again)."""

    opening: Opening
    created: bool


def request_key(session_key: str, form_token: str) -> str:
    """The digest stored for a session's form token (neither is stored as such)."""
    text = f"{session_key}\n{form_token}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def day_seed(day: dt.date) -> DaySeed:
    """The day's server seed, made (32 bytes from ``secrets``) the first time it is asked
    for."""
    found = DaySeed.objects.filter(day=day).first()
    if found is not None:
        return found
    seed = secrets.token_bytes(SERVER_SEED_BYTES)
    try:
        with transaction.atomic():
            return DaySeed.objects.create(day=day, seed=seed.hex(), commitment=commitment(seed))
    except IntegrityError:  # another request made it meanwhile
        return DaySeed.objects.get(day=day)


def today() -> DaySeed:
    """Today's (UTC) server seed (``day_seed``)."""
    return day_seed(selectors.utc_today())


_seen: list[dt.date] = []  # the day this process last began (one per process)


def ensure_today() -> None:
    """At a process's first request of a UTC day: make the day's seed if no one has, and
    renew the cached booster pages, which show its commitment and the day before's seed,
    now revealed. No query otherwise. The pages call it before their cache (a bump
    during a render would leave that render cached under the version before)."""
    day = selectors.utc_today()
    if _seen != [day]:
        today()
        versions.bump(VERSION)
        _seen[:] = [day]


def _weights() -> dict[str, int]:
    return {tier.value: PACK_TIER_WEIGHT[tier] for tier in PACK_TIERS}


def _changes(before: OddsVersion | None, listed: list[list], pack_size: int) -> dict:
    if before is None:
        return {"first": True, "added": len(listed), "removed": 0, "retiered": 0, "pack_size": None}
    old = {int(token): tier for token, tier in before.candidate_list.candidates}
    new = {int(token): tier for token, tier in listed}
    return {
        "added": len(new.keys() - old.keys()),
        "removed": len(old.keys() - new.keys()),
        "retiered": sum(1 for t in new.keys() & old.keys() if new[t] != old[t]),
        "pack_size": [before.pack_size, pack_size] if before.pack_size != pack_size else None,
        "weights": before.weights != _weights(),
    }


def odds_version(pool: Pool, pool_now: PackPool | None = None) -> OddsVersion:
    """The pool's current odds version: the latest, or a new one (numbered, dated, with
    what changed) when its cards, their tiers, its pack size or the tier weights differ."""
    if pool_now is None:
        pool_now = selectors.candidates(pool)
    listed = [[c.card_id, c.rarity.value] for c in pool_now.candidates]
    digest = candidate_digest(listed)
    latest = selectors.latest_odds_version(pool)
    if (
        latest is not None
        and latest.candidate_list.digest == digest
        and latest.pack_size == pool.pack_size
        and latest.weights == _weights()
    ):
        return latest
    number = latest.number + 1 if latest is not None else 1
    for _attempt in range(5):
        key = f"{pool.slug}:{number}"
        try:
            with transaction.atomic():
                return OddsVersion.objects.create(
                    pool=pool,
                    key=key,
                    number=number,
                    candidate_list=candidate_list(listed),
                    pack_size=pool.pack_size,
                    weights=_weights(),
                    changes=_changes(latest, listed, pool.pack_size),
                )
        except IntegrityError:  # the key is taken (made meanwhile, or an old slug's)
            number += 1
            made = selectors.latest_odds_version(pool)
            if made is not None and made.candidate_list.digest == digest:
                return made
    raise RuntimeError(f"no free odds version key for {pool.slug}")  # pragma: no cover


LEDGER_ATTEMPTS = 8


def open_pack(
    pool: Pool,
    session_key: str,
    form_token: str,
    client_seed: str | None = None,
    *,
    day: DaySeed | None = None,
) -> Opened:
    """Open one pack of ``pool`` for the session with the player's ``client_seed`` (see
    the module docstring): the next entry of today's ledger (of ``day``'s, for the demo
    data's earlier days). Without a client seed (a caller with no player: a command, a
    test) the server proposes one, as the open page does without JavaScript.

    ``EmptyPoolError`` when the pool has no drawable card: nothing is stored.
    """
    key = request_key(session_key, form_token or secrets.token_hex(16))
    existing = Opening.objects.filter(request_key=key).first()
    if existing is not None:  # the same form sent again: it opened its pack already
        return Opened(existing, False)
    pool_now = selectors.candidates(pool)
    if not len(pool_now):
        raise EmptyPoolError(pool.slug)
    version = odds_version(pool, pool_now)
    day = day or today()
    if client_seed is None:
        client_seed = secrets.token_hex(8)
    server_seed = bytes.fromhex(day.seed)
    for _attempt in range(LEDGER_ATTEMPTS):
        last = (
            Opening.objects.filter(day=day.day, nonce__isnull=False)
            .order_by("-nonce")
            .values_list("nonce", "hash")
            .first()
        )
        nonce, prev = (last[0] + 1, last[1]) if last else (1, day.commitment)
        seed = draw_seed(server_seed, client_seed, nonce)
        picks = [c.card_id for c in draw_offer(pool_now, pool.pack_size, random.Random(seed))]
        entry = chain(
            prev,
            {
                "n": nonce,
                "pool": pool.slug,
                "odds_version": version.key,
                "client_seed": client_seed,
                "picks": picks,
            },
        )
        try:
            with transaction.atomic():
                opening = Opening.objects.create(
                    pool=pool,
                    pool_slug=pool.slug,
                    session_key=session_key,
                    request_key=key,
                    seed=seed,
                    pack_size=pool.pack_size,
                    candidate_list_id=version.candidate_list_id,
                    picks=picks,
                    day=day.day,
                    nonce=nonce,
                    client_seed=client_seed,
                    odds_version=version,
                    prev=prev,
                    hash=entry["hash"],
                )
        except IntegrityError:
            existing = Opening.objects.filter(request_key=key).first()
            if existing is not None:  # the same form, sent twice at once
                return Opened(existing, False)
            continue  # another opening took this nonce: draw the next one
        return Opened(opening, True)
    raise RuntimeError("the ledger is too busy")  # pragma: no cover


def candidate_list(candidates: list[list]) -> CandidateList:
    """The stored row of this candidate list, made the first time it is drawn from."""
    digest = candidate_digest(candidates)
    found = CandidateList.objects.filter(digest=digest).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return CandidateList.objects.create(digest=digest, candidates=candidates)
    except IntegrityError:  # another request stored it meanwhile
        return CandidateList.objects.get(digest=digest)


def delete_unused_candidate_lists() -> int:
    """Delete the candidate lists no opening uses (their openings were deleted); how many
    (``manage.py cleanup``). A list in use stays with its openings, which stay, and so
    does the list of an odds version (the ledger names it)."""
    in_force = OddsVersion.objects.values("candidate_list_id")
    unused = CandidateList.objects.filter(openings__isnull=True).exclude(id__in=in_force)
    deleted, _ = unused.delete()
    return deleted


# ---------------------------------------------------------------------------
# Checking the odds


def _check_key(pool_now: PackPool, pack_size: int, packs: int, seed: int) -> str:
    listed = [[c.card_id, c.rarity.value] for c in pool_now.candidates]
    return f"packs:check:{candidate_digest(listed)}:{pack_size}:{packs}:{seed}"


def cached_check(pool_now: PackPool, pack_size: int, packs: int, seed: int) -> OddsCheck | None:
    """A check already drawn for this candidate list (its odds version), pack size, number
    of packs and seed — the same draw, since the seed decides it — or None."""
    return cache.get(_check_key(pool_now, pack_size, packs, seed))


def odds_check(pool_now: PackPool, pack_size: int, packs: int, seed: int) -> OddsCheck:
    """Draw ``packs`` packs with ``seed`` and compare them with the exact odds (0.1 to
    0.5 s for the largest checks), keeping the result for the next asker. The view asks
    ``cached_check`` first and counts a new draw against ``CHECKS``."""
    check = check_odds(pool_now, pack_size, packs, seed)
    cache.set(_check_key(pool_now, pack_size, packs, seed), check, CHECK_CACHE_SECONDS)
    return check


# ---------------------------------------------------------------------------
# The power promise


def compute_power(
    *,
    seed: int = GAUNTLET_SEED,
    per_tier: int = GAUNTLET_PER_TIER,
    games: int = GAUNTLET_GAMES_PER_SIDE,
    progress: Callable[[int, int], None] | None = None,
) -> PowerRun:
    """Measure every catalogue card's power against the gauntlet and store it.

    The gauntlet is ``per_tier`` one-card decks of each tier, drawn with ``seed``
    from the catalogue in token order (``engine.packs.build_gauntlet``). Older runs
    are replaced. ``progress(done, total)`` is called every 50 cards.
    """
    started = time.perf_counter()
    collection = versions.current("cards")
    cards: list[MatchCard] = []
    for batch in iter_card_specs(Card.objects.collectible()):
        for _, spec in batch:
            cards.append(MatchCard.from_breakdown(derive(spec), spec.name, str(spec.token)))
    gauntlet = build_gauntlet(cards, per_tier=per_tier, seed=seed)
    total = len(cards)

    def tick(done: int) -> None:
        if progress is not None and (done % 50 == 0 or done == total):
            progress(done, total)

    powers = measure_power(cards, gauntlet, seed=seed, games=games, bots=POWER_BOTS, progress=tick)
    ids = dict(Card.objects.collectible().values_list("token", "id"))
    prints = selectors.card_fingerprints(Card.objects.collectible())
    with transaction.atomic():
        PowerRun.objects.all().delete()
        run = PowerRun.objects.create(
            seed=seed,
            per_tier=per_tier,
            games_per_side=games,
            bots=",".join(POWER_BOTS),
            gauntlet=[int(deck[0].id) for deck in gauntlet],
            matches=sum(p.games for p in powers),
            seconds=round(time.perf_counter() - started, 3),
            collection_version=collection,
        )
        CardPower.objects.bulk_create(
            CardPower(
                run=run,
                card_id=ids[int(p.card_id)],
                rarity=p.rarity.value,
                wins=p.wins,
                draws=p.draws,
                games=p.games,
                fingerprint=prints.get(int(p.card_id), ""),
            )
            for p in powers
            if int(p.card_id) in ids
        )
        versions.bump(VERSION)
    return run
