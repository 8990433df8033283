"""The booster JSON API: pools with their exact odds, and openings with their replay.

- ``GET /api/packs/`` — every pool.
- ``GET /api/packs/<slug>`` — a pool: its cards (token, name, tier, chance to be in a
  pack), its tiers (cards, expected count, chance of at least one, chance of one card)
  and, when measured, its power promise.
- ``GET /api/packs/openings/<uuid>`` — an opening: its seed, its candidate list as it
  was (in draw order), its picks, and whether replaying the draw gives them again.

Every chance is ``{"fraction": "p/q", "float": …}``: the fraction in lowest terms
(``"1"`` and ``"0"`` for whole numbers), the float for convenience. A seed is a string
(it may not fit a JavaScript number). Names are in the language of Accept-Language.
Responses and errors are ``core.api``'s: an ETag and a short public Cache-Control (a
304 to a matching If-None-Match), the one error shape ``{"object": "error", "code",
"status", "details"}`` with ``details`` a sentence in the request's language, and a JSON
405 for a method other than GET or HEAD.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from core.api import absolute, api_view, error_response, json_response
from engine.packs import POWER_STEP_LIMIT, offer_odds, power_report

from . import presenters, selectors
from .models import Opening, Pool


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": str(value), "float": float(value)}


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
    return json_response({"object": "list", "count": len(pools), "results": pools})


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
        Opening.objects.select_related("pool", "candidate_list").filter(public_id=public_id).first()
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
            "page_url": absolute(request, opening.get_absolute_url()),
        },
    )


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under /api/packs/."""
    return error_response(404, "not_found", _("There is no such address in the packs API."))
