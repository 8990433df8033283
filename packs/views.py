"""The booster pages: pools, a pool's odds and power, opening a pack, its permalink, the
binder, and checking the odds.

Nothing shown before an opening depends on its result: the pool page is the same for
everyone (cached per content version), and the seed is drawn at the POST. Every page
works without JavaScript; htmx swaps a page's partial (pagination, the card-by-card
reveal, the check's results) and every ``hx-get`` keeps its ``href``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from cards.models import Card
from core import limits, versions
from core.cache import cached_page
from core.htmx import render_page, wants_partial
from core.labels import label, label_of
from core.sessions import session_key
from core.translated import LocalizedText
from engine.packs import new_card_odds, offer_odds, power_report
from engine.types import Rarity

from . import presenters, selectors, services
from .forms import CHECK_PACKS_DEFAULT, CHECK_PACKS_MAX, CheckForm, PageForm, RevealForm
from .models import Pool

__all__ = ["binder", "opening_detail", "pool_check", "pool_detail", "pool_list", "pool_open"]

CARDS_PER_PAGE = 24
BINDER_PER_PAGE = 48
RECENT_OPENINGS = 20
NAV = {"nav_section": "packs"}


def _page(request: HttpRequest, items: Any, per_page: int, count: int | None = None) -> Page:
    """The requested page (``?page=``, through a form): 404 for a page that does not exist.
    ``count``: how many ``items`` there are, when the view knows it already (no COUNT)."""
    form = PageForm(request.GET)
    if not form.is_valid():
        raise Http404("No such page.")
    paginator = Paginator(items, per_page)
    if count is not None:
        paginator.count = count  # a cached_property: set, it is not counted again
    number = form.cleaned_data["page"] or 1
    if number > max(paginator.num_pages, 1):
        raise Http404("No such page.")
    return paginator.page(number)


def _page_links(page: Page, base: str) -> list[tuple[object, str]]:
    """(number or ellipsis, href) for the page list."""
    links = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        href = f"{base}?page={number}" if isinstance(number, int) and number > 1 else base
        links.append((number, href))
    return links


# ---------------------------------------------------------------------------
# Pools


@require_safe
@cached_page(depends_on=selectors.DEPENDS_ON)
def pool_list(request: HttpRequest) -> HttpResponse:
    pools = [
        presenters.pool_summary(pool, selectors.pool_tier_counts(pool))
        for pool in selectors.pools_with_counts()
    ]
    return render_page(request, "packs/pool_list.html", {"pools": pools, **NAV})


@require_safe
@cached_page(depends_on=selectors.DEPENDS_ON, params=("page",))
def pool_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """What a pool holds and the exact odds of one pack; its power; the open form.

    Never depends on anyone's openings: the page is the same for every visitor.
    """
    pool = selectors.pool_or_404(slug)
    candidates = selectors.candidates(pool)  # the same cards as ``pool_cards``: its count
    page = _page(request, selectors.pool_cards(pool), CARDS_PER_PAGE, len(candidates))
    odds = offer_odds(candidates, pool.pack_size)
    tiers = presenters.tier_rows(odds)
    per_tier = presenters.odds_by_tier(tiers)
    run = selectors.latest_power_run()
    powers = selectors.pool_powers(run, pool)
    report = power_report(powers.values()) if powers else None
    flags = report.flags if report is not None else {}
    cards_version = versions.current("cards")
    tiles = [
        presenters.card_tile(
            card,
            odds=per_tier,
            power=powers.get(card.token),
            flag=flags.get(str(card.token)),
            cards_version=cards_version,
        )
        for card in page.object_list
    ]
    base = pool.get_absolute_url()
    context = {
        "pool": pool,
        "name": presenters.localized(pool, "name"),
        "description": presenters.localized(pool, "description"),
        "cards": len(candidates),
        "picks": odds.picks,
        "tiers": tiers,
        "chart": presenters.percent_chart(
            _("Chance that one pack holds at least one card of each tier"),
            [(label(t.rarity), t.rarity.value, t.at_least_one, None) for t in odds.tiers],
        ),
        "tiles": tiles,
        "page": page,
        "page_links": _page_links(page, base),
        "power": (
            presenters.power_view(run, report, selectors.power_is_current(run))
            if run is not None and report is not None
            else None
        ),
        "power_flags": sorted((t for t in tiles if t.flag), key=lambda t: t.token),
        **NAV,
    }
    return render_page(request, "packs/pool_detail.html", context, partial="cards")


@require_POST
def pool_open(request: HttpRequest, slug: str) -> HttpResponse:
    """Open one pack: the seed is drawn now, the opening stored, then its permalink."""
    pool = selectors.pool_or_404(slug)
    try:
        key = limits.admit(services.OPENINGS, request)
    except limits.RateLimited as exc:
        return limits.too_many(request, exc, "packs/rate_limited.html", pool=pool)
    token = request.POST.get("csrfmiddlewaretoken") or request.headers.get("X-CSRFToken", "")
    try:
        opened = services.open_pack(pool, key, token)
    except services.EmptyPoolError:
        messages.error(request, _("This pool has no cards yet, so there is no pack to open."))
        return redirect(pool.get_absolute_url())
    url = opened.opening.get_absolute_url()
    if not opened.created:
        messages.info(request, _("That form was already sent: here is the pack it opened."))
        return redirect(url)
    return redirect(f"{url}?{urlencode({'shown': 0})}")


# ---------------------------------------------------------------------------
# An opening


@dataclass(frozen=True, slots=True)
class Pick:
    number: int
    token: int
    tier: str
    tier_label: str
    tile: presenters.CardTile | None
    shown: bool


@require_safe
def opening_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """An opening's permalink: its cards (all, or the first ``?shown=N`` for the reveal)
    and the replay of its draw. Public and read-only: anyone with the link may look."""
    opening = selectors.opening_or_404(public_id)
    form = RevealForm(request.GET)
    if not form.is_valid():
        raise Http404("No such step of this reveal.")
    picks = [int(t) for t in opening.picks]
    shown_param = form.cleaned_data["shown"]
    shown = len(picks) if shown_param is None else min(shown_param, len(picks))
    tiers = {int(token): tier for token, tier in opening.candidates}
    cards = {
        c.token: c
        for c in Card.objects.filter(token__in=picks).select_related(
            "head", "body", "paw", "background"
        )
    }
    rows = []
    for i, token in enumerate(picks):
        card = cards.get(token)
        tier = tiers.get(token, "")
        rows.append(
            Pick(
                i + 1,
                token,
                tier,
                label_of(Rarity, tier),
                presenters.card_tile(card) if card is not None else None,
                i < shown,
            )
        )
    replay = selectors.replay(opening)
    base = opening.get_absolute_url()
    mine = bool(opening.session_key) and opening.session_key == session_key(request)
    context = {
        "opening": opening,
        "pool": opening.pool,
        "pool_name": presenters.localized(opening.pool, "name") if opening.pool else None,
        "picks": rows,
        "shown": shown,
        "total": len(picks),
        "revealing": shown < len(picks),
        "next_url": f"{base}?{urlencode({'shown': shown + 1})}",
        "all_url": base,
        "replay": replay,
        "mine": mine,
        "candidates": len(opening.candidates),
        "api_url": reverse("api-packs:opening", kwargs={"public_id": opening.public_id}),
        **NAV,
    }
    return render_page(request, "packs/opening_detail.html", context, partial="reveal")


# ---------------------------------------------------------------------------
# The binder


@dataclass(frozen=True, slots=True)
class PoolProgress:
    name: LocalizedText
    url: str
    owned: int
    cards: int
    completion: str
    new: presenters.Chance | None
    expected_new: str


@require_safe
def binder(request: HttpRequest) -> HttpResponse:
    """The cards this session pulled, with counts; each pool's completion and the exact
    chance that its next pack holds something new."""
    key = session_key(request)
    counts = selectors.binder_counts(key)
    owned_cards = (
        Card.objects.filter(token__in=list(counts))
        .select_related("head", "body", "paw", "background")
        .order_by("token")
    )
    page = _page(request, owned_cards, BINDER_PER_PAGE)
    cards_version = versions.current("cards")
    tiles = [
        presenters.card_tile(card, count=counts[card.token], cards_version=cards_version)
        for card in page.object_list
    ]
    pools = list(Pool.objects.all())
    candidates = selectors.candidates_by_pool([p.id for p in pools])
    owned = set(counts)
    progress = []
    for pool in pools:
        pool_now = candidates.get(pool.id)
        size = len(pool_now) if pool_now is not None else 0
        have = sum(1 for c in pool_now.candidates if c.card_id in owned) if pool_now else 0
        odds = new_card_odds(pool_now, pool.pack_size, owned) if pool_now else None
        progress.append(
            PoolProgress(
                presenters.localized(pool, "name"),
                pool.get_absolute_url(),
                have,
                size,
                presenters.percent(Fraction(have, size)) if size else "—",
                presenters.chance(odds.chance) if odds is not None else None,
                presenters.count(odds.expected) if odds is not None else "—",
            )
        )
    context = {
        "tiles": tiles,
        "page": page,
        "page_links": _page_links(page, reverse("packs:binder")),
        "distinct": len(counts),
        "pulled": sum(counts.values()),
        "duplicates": sum(n - 1 for n in counts.values()),
        "progress": progress,
        "openings": [
            (o, presenters.localized(o.pool, "name") if o.pool else None)
            for o in selectors.session_openings(key)[:RECENT_OPENINGS]
        ],
        "openings_count": selectors.session_openings(key).count() if counts else 0,
        **NAV,
    }
    return render_page(request, "packs/binder_detail.html", context, partial="cards")


# ---------------------------------------------------------------------------
# Checking the odds


@require_safe
def pool_check(request: HttpRequest, slug: str) -> HttpResponse:
    """Simulate N packs (``?n=``, bounded) and compare them with the exact odds."""
    pool = selectors.pool_or_404(slug)
    candidates = selectors.candidates(pool)
    base = reverse("packs:pool-check", kwargs={"slug": pool.slug})
    asked = "n" in request.GET or "seed" in request.GET
    form = CheckForm(request.GET) if asked else CheckForm(initial={"n": CHECK_PACKS_DEFAULT})
    context: dict[str, Any] = {
        "pool": pool,
        "name": presenters.localized(pool, "name"),
        "form": form,
        "check_max": presenters.num(CHECK_PACKS_MAX),
        "cards": len(candidates),
        "check": None,
        "permalink": None,
        **NAV,
    }
    status = 200
    if asked and not form.is_valid():
        status = 400
    elif asked and len(candidates):
        seed = form.cleaned_data["seed"]
        if seed is None:
            seed = secrets.randbits(services.SEED_BITS)
        packs = form.cleaned_data["n"]
        check = services.cached_check(candidates, pool.pack_size, packs, seed)
        if check is None:
            try:
                limits.count(
                    services.CHECKS, request.session.session_key, limits.client_address(request)
                )
            except limits.RateLimited as exc:
                context["refused"] = exc.retry_after
                status = 429
            else:
                check = services.odds_check(candidates, pool.pack_size, packs, seed)
        if check is not None:
            names = dict(pool.cards.values_list("token", "name"))
            context["check"] = presenters.check_view(check, seed, names)
            context["permalink"] = f"{base}?{urlencode({'n': packs, 'seed': seed})}"
    response = render_page(
        request, "packs/pool_check.html", context, partial="checker", status=status
    )
    if "refused" in context:
        response["Retry-After"] = str(context["refused"])
    if context["permalink"] and wants_partial(request):
        response["HX-Push-Url"] = context["permalink"]
    return response
