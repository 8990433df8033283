"""The booster pages: pools, a pool's odds and power, opening a pack, its permalink, the
binder, checking the odds, the day's ledger and the verifier.

Each view parses its input (a form or a typed parser), asks ``packs.pages`` for its page
object and renders it. Nothing shown before an opening depends on its result: the pool
page is the same for everyone (cached per content version, in a shared HTTP cache too;
the day's first visit makes its server seed, which renews it; its open form, which holds
the visitor's CSRF token, is an htmx fragment of its own), and the draw happens at the
POST. Every page works
without JavaScript; htmx swaps a page's partial (pagination, the card-by-card reveal, the
check's results) and every ``hx-get`` keeps its ``href``.
"""

from __future__ import annotations

from uuid import UUID

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from core import limits
from core.cache import cached_page
from core.htmx import render_page, wants_partial

from . import pages, selectors, services
from .forms import LedgerDay, OpenForm, RevealForm, verify_source

__all__ = [
    "binder",
    "ledger",
    "ledger_day",
    "opening_detail",
    "pool_check",
    "pool_detail",
    "pool_list",
    "pool_open",
    "verify",
]


@require_safe
def pool_list(request: HttpRequest) -> HttpResponse:
    services.ensure_today()  # the day's first visit makes its seed, renewing the cache
    return _pool_list(request)


@cached_page(depends_on=selectors.DEPENDS_ON)
def _pool_list(request: HttpRequest) -> HttpResponse:
    return render_page(request, "packs/pool_list.html", pages.context(pages.pool_list_page()))


@require_safe
def pool_detail(request: HttpRequest, slug: str) -> HttpResponse:
    services.ensure_today()  # the day's first visit makes its seed, renewing the cache
    return _pool_detail(request, slug)


@cached_page(depends_on=selectors.DEPENDS_ON, params=("page",))
def _pool_detail(request: HttpRequest, slug: str) -> HttpResponse:
    page = pages.pool_page(request, selectors.pool_or_404(slug))
    return render_page(request, "packs/pool_detail.html", pages.context(page), partial="cards")


@require_http_methods(["GET", "HEAD", "POST"])
def pool_open(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the open form with a client seed the server proposes (no JavaScript), or,
    for htmx, the form alone with none (the pool page loads it: the browser fills the
    seed). It holds the visitor's CSRF token, so it is never shared; the pool page, which
    holds nothing of the visitor, is. POST: open one pack with the client seed sent,
    then its permalink."""
    pool = selectors.pool_or_404(slug)
    if request.method != "POST":
        page = pages.open_page(pool, fragment=wants_partial(request))
        context = pages.context(page)
        return render_page(request, "packs/pool_open.html", context, partial="form")
    result = pages.open_result(request, pool, OpenForm(request.POST))
    if result.limited is not None:
        return limits.too_many(request, result.limited, "packs/rate_limited.html", pool=pool)
    if result.page is not None:
        page = result.page
        return render(request, "packs/pool_open.html", pages.context(page), status=page.status)
    if result.message:
        messages.add_message(request, getattr(messages, result.level.upper()), result.message)
    return redirect(result.url)


@require_safe
def opening_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    opening = selectors.opening_or_404(public_id)
    page = pages.opening_page(request, opening, RevealForm(request.GET))
    return render_page(request, "packs/opening_detail.html", pages.context(page), partial="reveal")


@require_safe
def binder(request: HttpRequest) -> HttpResponse:
    page = pages.binder_page(request)
    return render_page(request, "packs/binder_detail.html", pages.context(page), partial="cards")


@require_safe
def pool_check(request: HttpRequest, slug: str) -> HttpResponse:
    page = pages.check_page(request, selectors.pool_or_404(slug))
    template, context = "packs/pool_check.html", pages.context(page)
    response = render_page(request, template, context, partial="checker", status=page.status)
    if page.refused is not None:
        response["Retry-After"] = str(page.refused)
    if page.permalink and wants_partial(request):
        response["HX-Push-Url"] = page.permalink
    return response


@require_safe
def ledger(request: HttpRequest) -> HttpResponse:
    """Today's ledger, or the day asked for in ``?date=``."""
    day = request.GET.get("date") or selectors.utc_today().isoformat()
    return ledger_day(request, day[:40])


@require_safe
def ledger_day(request: HttpRequest, date: str) -> HttpResponse:
    page = pages.ledger_page(request, LedgerDay(date, selectors.utc_today()))
    return render(request, "packs/ledger.html", pages.context(page), status=page.status)


@require_safe
def verify(request: HttpRequest) -> HttpResponse:
    page = pages.verify_page(verify_source(request.GET))
    return render(request, "packs/verify.html", pages.context(page))
