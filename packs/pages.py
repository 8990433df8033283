"""The booster pages as typed page objects: each view parses its input (a form or a typed
parser), asks one function here for its page and renders it (``context``). Row values come
from ``packs.presenters``; refusals are worded by ``packs.narration``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.forms import Form
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.models import Card
from core import limits, versions
from core.labels import label, label_of
from core.sessions import session_key
from core.translated import LocalizedText
from engine.data import PACK_TIER_WEIGHT, PACK_TIERS
from engine.ledger import CLIENT_SEED_MAX, draw_seed
from engine.packs import new_card_odds, offer_odds, power_report
from engine.types import Rarity

from . import collection, presenters, selectors, services
from .forms import (
    CHECK_PACKS_DEFAULT,
    CHECK_PACKS_MAX,
    CheckForm,
    LedgerDay,
    OpenForm,
    PageForm,
    RevealForm,
    proposed_client_seed,
)
from .models import DaySeed, OddsVersion, Opening, Pool
from .narration import REFUSALS, Refusal

CARDS_PER_PAGE = 24
BINDER_PER_PAGE = 48
LEDGER_PER_PAGE = 50
RECENT_OPENINGS = 20
VERSIONS_SHOWN = 5
WITHIN_PACKS = (10, 100, 1000)


def context(page: Any) -> dict[str, Any]:
    """A page object as a template context: its fields, one level deep."""
    return {f.name: getattr(page, f.name) for f in fields(page)}


def paginate(request: HttpRequest, items: Any, per_page: int, count: int | None = None) -> Page:
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


def page_links(page: Page, base: str) -> list[tuple[object, str]]:
    """(number or ellipsis, href) for the page list."""
    links = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        href = f"{base}?page={number}" if isinstance(number, int) and number > 1 else base
        links.append((number, href))
    return links


# ---------------------------------------------------------------------------
# The day's seed and the ledger


@dataclass(frozen=True, slots=True)
class DayView:
    date: dt.date
    commitment: str
    server_seed: str | None  # None until the day has ended
    ledger_url: str
    api_url: str


def day_view(seed: DaySeed) -> DayView:
    date = seed.day.isoformat()
    return DayView(
        seed.day,
        seed.commitment,
        seed.seed if selectors.is_revealed(seed.day) else None,
        reverse("packs:ledger-day", kwargs={"date": date}),
        reverse("api-packs:ledger", kwargs={"date": date}),
    )


def _yesterday() -> DayView | None:
    seed = selectors.day_seed(selectors.utc_today() - dt.timedelta(days=1))
    return day_view(seed) if seed is not None else None


# ---------------------------------------------------------------------------
# Pools


@dataclass(frozen=True, slots=True)
class PoolListPage:
    pools: list[presenters.PoolSummary]
    day: DayView
    nav_section: str = "packs"


def pool_list_page() -> PoolListPage:
    pools = [
        presenters.pool_summary(pool, selectors.pool_tier_counts(pool))
        for pool in selectors.pools_with_counts()
    ]
    return PoolListPage(pools, day_view(services.today()))


@dataclass(frozen=True, slots=True)
class VersionLine:
    number: int
    key: str
    created_at: dt.datetime
    text: str


def version_text(changes: dict[str, Any]) -> str:
    """What changed in an odds version, in words: "3 cards added, 1 card removed"."""
    if changes.get("first"):
        n = changes.get("added") or 0
        return ngettext("first odds, %(n)s card", "first odds, %(n)s cards", n) % {"n": n}
    parts = []
    for key, say in (
        ("added", lambda n: ngettext("%(n)s card added", "%(n)s cards added", n)),
        ("removed", lambda n: ngettext("%(n)s card removed", "%(n)s cards removed", n)),
        ("retiered", lambda n: ngettext("%(n)s card changed tier", "%(n)s cards changed tier", n)),
    ):
        n = changes.get(key) or 0
        if n:
            parts.append(say(n) % {"n": n})
    size = changes.get("pack_size")
    if size:
        parts.append(_("pack size %(before)s → %(after)s") % {"before": size[0], "after": size[1]})
    if changes.get("weights"):
        parts.append(_("tier weights changed"))
    return ", ".join(parts) or _("no change")


def version_line(version: OddsVersion) -> VersionLine:
    return VersionLine(
        version.number, version.key, version.created_at, version_text(version.changes)
    )


@dataclass(frozen=True, slots=True)
class CollectionRow:
    rarity: str
    label: str
    cards: int
    within: tuple[str, ...]  # the chance of one given card within each of WITHIN_PACKS
    packs_for_all: str


@dataclass(frozen=True, slots=True)
class CollectionView:
    within_packs: tuple[str, ...]
    rows: tuple[CollectionRow, ...]
    simulated_median: str
    simulated_low: str
    simulated_high: str
    simulated_runs: int
    simulated_complete: bool


def collection_view(pool_now: Any, pack_size: int, digest: str) -> CollectionView:
    rows = tuple(
        CollectionRow(
            t.rarity.value,
            label(t.rarity),
            t.cards,
            tuple(
                presenters.percent(collection.chance_within(t.per_card, n)) for n in WITHIN_PACKS
            ),
            presenters.count(t.packs_for_all),
        )
        for t in collection.tier_collections(pool_now, pack_size)
    )
    key = f"packs:collection:{digest}:{pack_size}:{collection.SIMULATED_COLLECTIONS}"
    runs = cache.get(key)
    if runs is None:
        runs = collection.simulated_packs_for_pool(pool_now, pack_size)
        cache.set(key, runs, None)
    return CollectionView(
        tuple(presenters.num(n) for n in WITHIN_PACKS),
        rows,
        presenters.num(collection.median(runs)),
        presenters.num(runs[0]) if runs else "—",
        presenters.num(runs[-1]) if runs else "—",
        len(runs),
        bool(runs) and runs[-1] < collection.SIMULATION_PACKS_MAX,
    )


@dataclass(frozen=True, slots=True)
class PoolPage:
    pool: Pool
    name: LocalizedText
    description: LocalizedText
    cards: int
    picks: int
    tiers: list[presenters.TierRow]
    chart: presenters.Chart
    tiles: list[presenters.CardTile]
    page: Page
    page_links: list[tuple[object, str]]
    power: presenters.PowerView | None
    power_flags: list[presenters.CardTile]
    day: DayView
    yesterday: DayView | None
    version: VersionLine | None
    versions: tuple[VersionLine, ...]
    collection: CollectionView | None
    nav_section: str = "packs"


def pool_page(request: HttpRequest, pool: Pool) -> PoolPage:
    """What a pool holds and the exact odds of one pack; its power, its odds versions and
    the day's commitment. The same for every visitor, so a shared HTTP cache may keep it:
    the open form, which holds the visitor's CSRF token, is a fragment of its own
    (``open_page(…, fragment=True)``), which htmx loads into the page."""
    candidates = selectors.candidates(pool)  # the same cards as ``pool_cards``: its count
    page = paginate(request, selectors.pool_cards(pool), CARDS_PER_PAGE, len(candidates))
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
    version = services.odds_version(pool, candidates) if len(candidates) else None
    history = tuple(version_line(v) for v in selectors.pool_odds_versions(pool)[:VERSIONS_SHOWN])
    return PoolPage(
        pool,
        presenters.localized(pool, "name"),
        presenters.localized(pool, "description"),
        len(candidates),
        odds.picks,
        tiers,
        presenters.percent_chart(
            _("Chance that one pack holds at least one card of each tier"),
            [(label(t.rarity), t.rarity.value, t.at_least_one, None) for t in odds.tiers],
        ),
        tiles,
        page,
        page_links(page, pool.get_absolute_url()),
        (
            presenters.power_view(run, report, selectors.power_is_current(run, pool))
            if run is not None and report is not None
            else None
        ),
        sorted((t for t in tiles if t.flag), key=lambda t: t.token),
        day_view(services.today()),
        _yesterday(),
        version_line(version) if version is not None else None,
        history,
        (
            collection_view(candidates, pool.pack_size, version.candidate_list.digest)
            if version is not None
            else None
        ),
    )


# ---------------------------------------------------------------------------
# Opening a pack


@dataclass(frozen=True, slots=True)
class OpenPage:
    """The open form on its own page: the server's proposed client seed (no JavaScript),
    or a refused one with its error; or the form alone, with no seed (``fragment``: the
    pool page loads it with htmx, and the browser fills the seed)."""

    pool: Pool
    name: LocalizedText
    form: OpenForm
    picks: int
    day: DayView
    client_seed_max: int
    status: int = 200
    nav_section: str = "packs"


def open_page(pool: Pool, form: OpenForm | None = None, *, fragment: bool = False) -> OpenPage:
    if form is None:
        form = OpenForm(initial={} if fragment else {"client_seed": proposed_client_seed()})
    status = 400 if form.is_bound and form.errors else 200
    return OpenPage(
        pool,
        presenters.localized(pool, "name"),
        form,
        min(pool.pack_size, len(selectors.candidates(pool))),
        day_view(services.today()),
        CLIENT_SEED_MAX,
        status,
    )


@dataclass(frozen=True, slots=True)
class OpenResult:
    """What a POST to open a pack came to: where to go, and a message for the next page;
    or the form page again (``page``), or the rate limit (``limited``)."""

    url: str = ""
    message: str = ""
    level: str = "info"
    page: OpenPage | None = None
    limited: limits.RateLimited | None = None


def open_result(request: HttpRequest, pool: Pool, form: OpenForm) -> OpenResult:
    if not form.is_valid():
        return OpenResult(page=open_page(pool, form))
    try:
        key = limits.admit(services.OPENINGS, request)
    except limits.RateLimited as exc:
        return OpenResult(limited=exc)
    token = request.POST.get("csrfmiddlewaretoken") or request.headers.get("X-CSRFToken", "")
    try:
        opened = services.open_pack(pool, key, token, form.cleaned_data["client_seed"])
    except services.EmptyPoolError:
        message = REFUSALS.say(Refusal.EMPTY_POOL, {})
        return OpenResult(pool.get_absolute_url(), message, "error")
    url = opened.opening.get_absolute_url()
    if not opened.created:
        return OpenResult(url, REFUSALS.say(Refusal.RESENT, {}))
    return OpenResult(f"{url}?{urlencode({'shown': 0})}")


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


@dataclass(frozen=True, slots=True)
class Place:
    """An opening's place in its day's ledger."""

    day: DayView
    nonce: int
    client_seed: str
    odds_version: str
    prev: str
    hash: str
    url: str  # its row on the ledger page
    #: Once the server seed is revealed: the draw seed recomputed from both seeds and the
    #: nonce matches the stored one (None before the reveal).
    fair: bool | None


def place(opening: Opening) -> Place | None:
    if opening.day is None or opening.nonce is None:
        return None
    seed = selectors.day_seed(opening.day)
    if seed is None:
        return None
    day = day_view(seed)
    fair = None
    if day.server_seed is not None:
        fair = (
            draw_seed(bytes.fromhex(day.server_seed), opening.client_seed, opening.nonce)
            == opening.seed
        )
    page = (opening.nonce - 1) // LEDGER_PER_PAGE + 1
    query = f"?page={page}" if page > 1 else ""
    return Place(
        day,
        opening.nonce,
        opening.client_seed,
        opening.odds_version.key if opening.odds_version else "",
        opening.prev,
        opening.hash,
        f"{day.ledger_url}{query}#n{opening.nonce}",
        fair,
    )


@dataclass(frozen=True, slots=True)
class OpeningPage:
    opening: Opening
    pool: Pool | None
    pool_name: LocalizedText | None
    picks: list[Pick]
    shown: int
    total: int
    revealing: bool
    next_url: str
    all_url: str
    replay: selectors.Replay
    mine: bool
    candidates: int
    api_url: str
    place: Place | None
    verify_url: str
    nav_section: str = "packs"


def opening_page(request: HttpRequest, opening: Opening, form: RevealForm) -> OpeningPage:
    """An opening's permalink: its cards (all, or the first ``?shown=N`` for the reveal),
    the replay of its draw and its place in the day's ledger."""
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
        tile = presenters.card_tile(card) if card is not None else None
        rows.append(Pick(i + 1, token, tier, label_of(Rarity, tier), tile, i < shown))
    base = opening.get_absolute_url()
    api_url = reverse("api-packs:opening", kwargs={"public_id": opening.public_id})
    return OpeningPage(
        opening,
        opening.pool,
        presenters.localized(opening.pool, "name") if opening.pool else None,
        rows,
        shown,
        len(picks),
        shown < len(picks),
        f"{base}?{urlencode({'shown': shown + 1})}",
        base,
        selectors.replay(opening),
        bool(opening.session_key) and opening.session_key == session_key(request),
        len(opening.candidates),
        api_url,
        place(opening),
        f"{reverse('packs:verify')}?{urlencode({'opening': api_url})}",
    )


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


@dataclass(frozen=True, slots=True)
class BinderPage:
    tiles: list[presenters.CardTile]
    page: Page
    page_links: list[tuple[object, str]]
    distinct: int
    pulled: int
    duplicates: int
    progress: list[PoolProgress]
    openings: list[tuple[Opening, LocalizedText | None]]
    openings_count: int
    nav_section: str = "packs"


def binder_page(request: HttpRequest) -> BinderPage:
    """The cards this session pulled, with counts; each pool's completion and the exact
    chance that its next pack holds something new."""
    key = session_key(request)
    counts = selectors.binder_counts(key)
    owned_cards = (
        Card.objects.filter(token__in=list(counts))
        .select_related("head", "body", "paw", "background")
        .order_by("token")
    )
    page = paginate(request, owned_cards, BINDER_PER_PAGE)
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
    return BinderPage(
        tiles,
        page,
        page_links(page, reverse("packs:binder")),
        len(counts),
        sum(counts.values()),
        sum(n - 1 for n in counts.values()),
        progress,
        [
            (o, presenters.localized(o.pool, "name") if o.pool else None)
            for o in selectors.session_openings(key)[:RECENT_OPENINGS]
        ],
        selectors.session_openings(key).count() if counts else 0,
    )


# ---------------------------------------------------------------------------
# Checking the odds


@dataclass(frozen=True, slots=True)
class CheckPage:
    pool: Pool
    name: LocalizedText
    form: Form
    check_max: str
    cards: int
    check: presenters.CheckView | None
    permalink: str | None
    refused: int | None  # seconds to wait, when the check was refused (429)
    status: int
    nav_section: str = "packs"


def check_page(request: HttpRequest, pool: Pool) -> CheckPage:
    """Simulate N packs (``?n=``, bounded) and compare them with the exact odds."""
    candidates = selectors.candidates(pool)
    base = reverse("packs:pool-check", kwargs={"slug": pool.slug})
    asked = "n" in request.GET or "seed" in request.GET
    form = CheckForm(request.GET) if asked else CheckForm(initial={"n": CHECK_PACKS_DEFAULT})
    status, refused, view, permalink = 200, None, None, None
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
                refused, status = exc.retry_after, 429
            else:
                check = services.odds_check(candidates, pool.pack_size, packs, seed)
        if check is not None:
            names = dict(pool.cards.values_list("token", "name"))
            view = presenters.check_view(check, seed, names)
            permalink = f"{base}?{urlencode({'n': packs, 'seed': seed})}"
    return CheckPage(
        pool,
        presenters.localized(pool, "name"),
        form,
        presenters.num(CHECK_PACKS_MAX),
        len(candidates),
        view,
        permalink,
        refused,
        status,
    )


# ---------------------------------------------------------------------------
# The ledger pages


@dataclass(frozen=True, slots=True)
class LedgerRow:
    n: int
    pool: str
    odds_version: str
    client_seed: str
    picks: tuple[int, ...]
    prev: str
    hash: str
    url: str


@dataclass(frozen=True, slots=True)
class LedgerPage:
    day: DayView | None
    date_text: str
    error: str  # a refused date, worded
    status: int
    rows: list[LedgerRow]
    page: Page | None
    page_links: list[tuple[object, str]]
    entries: int
    today: str
    verify_url: str
    nav_section: str = "packs"


def ledger_page(request: HttpRequest, parsed: LedgerDay) -> LedgerPage:
    """A day's ledger: its commitment, its seed once revealed, its entries in order."""
    today = selectors.utc_today()
    seed = None
    if parsed.day is not None:
        seed = services.today() if parsed.day == today else selectors.day_seed(parsed.day)
    if seed is None:
        refusal = parsed.refusal or Refusal.NO_LEDGER
        return LedgerPage(
            None,
            parsed.text,
            REFUSALS.say(refusal, parsed.params),
            parsed.status if parsed.refusal else 404,
            [],
            None,
            [],
            0,
            today.isoformat(),
            reverse("packs:verify"),
        )
    day = day_view(seed)
    openings = selectors.ledger_openings(seed.day)
    page = paginate(request, openings, LEDGER_PER_PAGE)
    rows = [
        LedgerRow(
            o.nonce or 0,
            o.pool_slug,
            o.odds_version.key if o.odds_version else "",
            o.client_seed,
            tuple(o.picks),
            o.prev,
            o.hash,
            o.get_absolute_url(),
        )
        for o in page.object_list
    ]
    return LedgerPage(
        day,
        parsed.text,
        "",
        200,
        rows,
        page,
        page_links(page, day.ledger_url),
        page.paginator.count,
        today.isoformat(),
        f"{reverse('packs:verify')}?{urlencode({'ledger': day.api_url})}",
    )


@dataclass(frozen=True, slots=True)
class VerifyPage:
    """The in-browser verifier: the tier weights its draw needs, and an opening to load."""

    weights: str  # "common:80,rare:40,…", for static/js/packs_verify.js
    source_url: str  # an opening's or a day's JSON on this site, to load ("" for none)
    nav_section: str = "packs"


def verify_page(source: str) -> VerifyPage:
    weights = ",".join(f"{tier.value}:{PACK_TIER_WEIGHT[tier]}" for tier in PACK_TIERS)
    return VerifyPage(weights, source)
