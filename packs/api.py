"""The booster JSON API: pools with their exact odds, and openings with their replay.

- ``GET /api/packs/`` — every pool.
- ``GET /api/packs/<slug>`` — a pool: its cards (token, name, tier, chance to be in a
  pack), its tiers (cards, expected count, chance of at least one, chance of one card)
  and, when measured, its power promise.
- ``GET /api/packs/openings/<uuid>`` — an opening: its seed, its candidate list as it
  was (in draw order), its picks, and whether replaying the draw gives them again; and
  its place in the day's ledger (``ledger``: the day, its commitment, the server seed once
  revealed, the nonce, the client seed, the odds version, the entry with ``prev`` and
  ``hash``) — all a verifier needs for this one opening.
- ``GET /api/packs/ledger/YYYY-MM-DD`` — a day's ledger (``engine.ledger``'s shape):
  commitment, server seed (null until the day has ended), each odds version's candidate
  list once, the hash-chained entries. A date that is not one is a 400; a day to come or
  a day without a ledger, a 404.

Every chance is ``{"fraction": "p/q", "float": …}``: the fraction in lowest terms
(``"1"`` and ``"0"`` for whole numbers), the float for convenience. A seed is a string
(it may not fit a JavaScript number). Names are in the language of Accept-Language.
Responses and errors are ``core.api``'s: an ETag and a short public Cache-Control (a
304 to a matching If-None-Match), the one error shape ``{"object": "error", "code",
"status", "details"}`` with ``details`` a sentence in the request's language, and a JSON
405 for a method other than GET or HEAD.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from core.api import absolute, api_view, error_response, json_response
from engine.packs import POWER_STEP_LIMIT, offer_odds, power_report

from . import presenters, selectors, services
from .forms import LedgerDay
from .models import DaySeed, Opening, Pool
from .narration import REFUSALS, Refusal


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": str(value), "float": float(value)}


def _day(request: HttpRequest, seed: DaySeed | None) -> dict[str, Any] | None:
    if seed is None:
        return None
    date = seed.day.isoformat()
    return {
        "date": date,
        "commitment": seed.commitment,
        "server_seed": seed.seed if selectors.is_revealed(seed.day) else None,
        "ledger_url": absolute(request, reverse("api-packs:ledger", kwargs={"date": date})),
    }


def _days(request: HttpRequest) -> dict[str, Any]:
    """Today's commitment, and the day before's, revealed (when there was one)."""
    today = services.today()
    return {
        "today": _day(request, today),
        "yesterday": _day(request, selectors.day_seed(today.day - dt.timedelta(days=1))),
    }


def _pool_head(request: HttpRequest, pool: Pool, cards: int) -> dict[str, Any]:
    return {
        "object": "pool",
        "slug": pool.slug,
        "name": presenters.localized(pool, "name").value,
        "description": presenters.localized(pool, "description").value,
        "pack_size": pool.pack_size,
        "card_count": cards,
        "url": absolute(request, reverse("api-packs:pool", kwargs={"slug": pool.slug})),
        "page_url": absolute(request, pool.get_absolute_url()),
    }


@api_view(key="pool-list")
def pool_list(request: HttpRequest) -> HttpResponse:
    pools = [
        _pool_head(request, pool, sum(selectors.pool_tier_counts(pool).values()))
        for pool in selectors.pools_with_counts()
    ]
    return json_response(
        {"object": "list", "count": len(pools), "results": pools, "days": _days(request)}
    )


@api_view(key="pool")
def pool_detail(request: HttpRequest, slug: str) -> HttpResponse:
    pool = Pool.objects.filter(slug=slug).first()
    if pool is None:
        return error_response(404, "not_found", _("There is no pool “%(slug)s”.") % {"slug": slug})
    candidates = selectors.candidates(pool)
    odds = offer_odds(candidates, pool.pack_size)
    names = dict(selectors.pool_cards(pool).values_list("token", "name"))
    data = _pool_head(request, pool, len(candidates))
    data["picks"] = odds.picks
    data["days"] = _days(request)
    version = services.odds_version(pool, candidates) if len(candidates) else None
    data["odds_version"] = (
        {
            "key": version.key,
            "number": version.number,
            "since": version.created_at.isoformat(),
            "changes": dict(
                sorted(version.changes.items())
            ),  # jsonb reorders keys: one byte order, one ETag
        }
        if version is not None
        else None
    )
    data["tiers"] = {
        t.rarity.value: {
            "cards": t.cards,
            "expected": _exact(t.expected),
            "at_least_one": _exact(t.at_least_one),
            "per_card": _exact(t.per_card),
        }
        for t in odds.tiers
    }
    data["cards"] = [
        {
            "token": c.card_id,
            "name": names.get(c.card_id, ""),
            "rarity": c.rarity.value,
            "chance": _exact(c.chance),
        }
        for c in odds.cards
    ]
    run = selectors.latest_power_run()
    powers = selectors.pool_powers(run, pool)
    data["power"] = None
    if run is not None and powers:
        report = power_report(powers.values())
        data["power"] = {
            "measured_at": run.created_at.isoformat(),
            "current": selectors.power_is_current(run),
            "gauntlet": run.gauntlet,
            "matches": run.matches,
            "step_limit_points": POWER_STEP_LIMIT,
            "kept": report.kept,
            "tiers": {
                t.rarity.value: {
                    "cards": t.cards,
                    "mean": _exact(t.mean),
                    "median": _exact(t.median),
                    "band": {
                        "low": _exact(t.low) if t.low is not None else None,
                        "high": _exact(t.high) if t.high is not None else None,
                    },
                }
                for t in report.tiers
            },
            "steps": [
                {
                    "from": s.lower.value,
                    "to": s.upper.value,
                    "points": _exact(s.points),
                    "verdict": s.verdict.value,
                }
                for s in report.steps
            ],
            "cards": {
                str(token): {
                    "wins": p.wins,
                    "draws": p.draws,
                    "games": p.games,
                    "rate": _exact(p.rate) if p.rate is not None else None,
                    "flag": report.flags[p.card_id].value if p.card_id in report.flags else None,
                }
                for token, p in sorted(powers.items())
            },
        }
    return json_response(data)


@api_view(key="opening")
def opening_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    opening = (
        Opening.objects.select_related("pool", "candidate_list", "odds_version__candidate_list")
        .filter(public_id=public_id)
        .first()
    )
    if opening is None:
        return error_response(404, "not_found", _("There is no such opening."))
    replay = selectors.replay(opening)
    return json_response(
        {
            "object": "opening",
            "id": str(opening.public_id),
            "pool": opening.pool_slug,
            "pool_url": (
                absolute(request, reverse("api-packs:pool", kwargs={"slug": opening.pool.slug}))
                if opening.pool is not None
                else None
            ),
            "created_at": opening.created_at.isoformat(),
            "seed": str(opening.seed),
            "pack_size": opening.pack_size,
            "candidates": [{"token": t, "rarity": r} for t, r in opening.candidates],
            "picks": opening.picks,
            "verification": {"verified": replay.verified, "replayed_picks": list(replay.picks)},
            "ledger": _place(request, opening),
            "page_url": absolute(request, opening.get_absolute_url()),
        },
    )


def _place(request: HttpRequest, opening: Opening) -> dict[str, Any] | None:
    """The opening's place in its day's ledger, with what a verifier needs to check it."""
    if opening.day is None or opening.nonce is None or opening.odds_version is None:
        return None
    day = _day(request, selectors.day_seed(opening.day))
    if day is None:
        return None
    return {
        **day,
        "n": opening.nonce,
        "odds_version": opening.odds_version.key,
        "candidates": opening.odds_version.candidate_list.candidates,
        "entry": {
            "n": opening.nonce,
            "pool": opening.pool_slug,
            "odds_version": opening.odds_version.key,
            "client_seed": opening.client_seed,
            "picks": opening.picks,
            "prev": opening.prev,
            "hash": opening.hash,
        },
    }


@api_view(key="ledger")
def ledger(request: HttpRequest, date: str) -> HttpResponse:
    parsed = LedgerDay(date, selectors.utc_today())
    if parsed.refusal is not None:
        code = "bad_date" if parsed.status == 400 else "not_found"
        return error_response(parsed.status, code, REFUSALS.say(parsed.refusal, parsed.params))
    assert parsed.day is not None
    seed = services.today() if parsed.day == selectors.utc_today() else None
    seed = seed or selectors.day_seed(parsed.day)
    if seed is None:
        details = REFUSALS.say(Refusal.NO_LEDGER, parsed.params)
        return error_response(404, "not_found", details)
    return json_response(selectors.ledger(seed))


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under /api/packs/."""
    return error_response(404, "not_found", _("There is no such address in the packs API."))
