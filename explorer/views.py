"""What players click: search the collection, open a card, ask what-if, compare, statistics.

Each view reads its parameters through a form (explorer.forms), asks a presenter for the
page (explorer.presenters) and renders it; htmx requests get the page's partial.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import conditional_page, require_safe

from cards.art import card_art
from cards.forms import MAX_TOKEN
from cards.models import Card
from cards.query import FACTS, FIELDS, HAS_FACTS, MAX_DEPTH, MAX_LENGTH, MAX_TERMS, MAX_WORDS, SORTS
from cards.search import random_card_token
from core import versions
from core.cache import cached_page
from core.htmx import render_page, wants_partial
from core.previews import canonical, png_response
from engine.types import CardSpec

from . import presenters, timeline
from .forms import (
    AdvancedSearchForm,
    AsOfForm,
    CardListForm,
    ChangesForm,
    CompareForm,
    RandomCardForm,
    WhatIfForm,
    WhyForm,
)
from .previews import card_preview, card_preview_svg
from .selectors import attribute_catalogue, one_card_spec
from .whatif import Catalogue


@canonical(*CardListForm.base_fields)
@require_safe
def card_list(request: HttpRequest) -> HttpResponse:
    """The search's results; the sort controls' ``sort``/``dir`` are written into ``q``.

    A plain request with them is redirected to the list's own address (``?q=… sort:…``);
    an htmx request gets the results at once, and the address to show (``HX-Push-Url``,
    so that answer is never cached). Every other request is the cached list.
    """
    form = CardListForm(request.GET)
    rewritten = form.sorted_query()
    if rewritten is None:
        return _cached_list(request, form)
    query = presenters.list_query(rewritten, form.display_mode())
    target = f"{reverse('explorer:card-list')}?{query}".rstrip("?")
    if not request.headers.get("HX-Request"):
        return redirect(target)
    response = _render_list(request, CardListForm({"q": rewritten, "display": form.display_mode()}))
    response["HX-Push-Url"] = target
    return response


@cached_page(depends_on=("cards",), params=tuple(CardListForm.base_fields))
def _cached_list(request: HttpRequest, form: CardListForm) -> HttpResponse:
    # The view's own form: it reads every parameter the cache keeps (a second one made a
    # first view ≈ 4 % more, deep-copying the fields and their choices).
    return _render_list(request, form)


def _render_list(request: HttpRequest, form: CardListForm) -> HttpResponse:
    page = presenters.card_list_page(form)
    return render_page(
        request,
        "explorer/card_list.html",
        presenters.context(page),
        partial="results",
        status=page.status,
    )


@require_safe
@cached_page(
    depends_on=("cards",),
    params=tuple(AdvancedSearchForm().fields),
    lists=AdvancedSearchForm.multiple_choices(),
)
def advanced_search(request: HttpRequest) -> HttpResponse:
    """A form for every part of the search language; sent, it redirects to the list."""
    form = AdvancedSearchForm(request.GET or None)
    if form.asked and form.is_valid():
        query = form.query()
        target = reverse("explorer:card-list")
        return redirect(f"{target}?{urlencode({'q': query})}" if query else target)
    page = presenters.advanced_search_page(form)
    return render(
        request, "explorer/advanced_search.html", presenters.context(page), status=page.status
    )


@require_safe
@cached_page(depends_on=("cards",), params=tuple(WhyForm.base_fields), variants=False)
def card_why(request: HttpRequest) -> HttpResponse:
    """Why a search (``?q=``) finds a card (``?card=``, a token or a name), or why not, and
    the nearest what-if that would make it match. The results page loads it into its
    panel (an htmx request); without JavaScript, each result's "Why?" link comes here."""
    form = WhyForm(request.GET)
    page = presenters.why_page(form, attribute_catalogue())
    return render_page(
        request,
        "explorer/card_why.html",
        presenters.context(page),
        partial="why",
        status=page.status,
    )


@require_safe
@cached_page()
def search_help(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "explorer/search_help.html",
        {
            "fields": FIELDS,
            "sorts": SORTS,
            "facts": FACTS,
            "has_facts": HAS_FACTS,
            "limits": {
                "length": MAX_LENGTH,
                "terms": MAX_TERMS,
                "words": MAX_WORDS,
                "depth": MAX_DEPTH,
            },
        },
    )


@require_safe
@never_cache
def random_card(request: HttpRequest) -> HttpResponse:
    """A redirect to a random card (of those ``?q=`` finds); never cached, so every visit
    draws again. Nothing to draw from: a page saying so."""
    form = RandomCardForm(request.GET)
    if not form.is_valid():
        page = presenters.card_list_page(CardListForm(request.GET))
        return render_page(
            request,
            "explorer/card_list.html",
            presenters.context(page),
            partial="results",
            status=400,
        )
    token = random_card_token(form.cleaned_data["q"])
    if token is None:
        return render(
            request,
            "explorer/random_empty.html",
            {"q": str(form.data.get("q", "")), "list_url": reverse("explorer:card-list")},
        )
    return redirect("explorer:card-detail", token=token)


@require_safe
@conditional_page
def card_picture(request: HttpRequest, token: int) -> HttpResponse:
    """The card's picture alone, as an SVG file (the list's tiles show it small)."""
    if token > MAX_TOKEN:
        raise Http404(_("There is no card with that token."))
    card = (
        Card.objects.select_related("head", "body", "paw", "background").filter(token=token).first()
    )
    if card is None:
        raise Http404(_("There is no card #%(token)s.") % {"token": token})
    art = card_art(
        card.token,
        card.name,
        card.rarity,
        {slot: getattr(card, slot).name for slot in ("head", "body", "paw", "background")},
    )
    response = render(
        request,
        "explorer/partials/card_art.svg",
        {"art": art},
        content_type="image/svg+xml; charset=utf-8",
    )
    response["Cache-Control"] = "public, max-age=600"
    return response


@require_safe
def card_preview_png(request: HttpRequest, token: int) -> HttpResponse:
    """The card's link preview: a 1200×630 PNG of its picture, name and why, in the page's
    language; drawn once per card, language and collection version."""
    card = _load_card(token)
    key = f"card-preview:{token}:{get_language()}:{versions.current('cards')}"
    return png_response(request, key, versions.changed("cards"), lambda: card_preview_svg(card))


def _load_card(token: int) -> CardSpec:
    if token > MAX_TOKEN:
        raise Http404(_("There is no card with that token."))
    try:
        return one_card_spec(token)
    except Card.DoesNotExist:
        raise Http404(_("There is no card #%(token)s.") % {"token": token}) from None


def _what_if(request: HttpRequest, token: int) -> tuple[CardSpec, Catalogue, WhatIfForm]:
    """The card, the attribute catalogue and the what-if the GET parameters ask of it."""
    card = _load_card(token)
    catalogue = attribute_catalogue()
    return card, catalogue, WhatIfForm(request.GET, card=card, catalogue=catalogue)


#: The what-if's parameters: the card page and its "what would make it …?" vary on them.
#: A what-if is rendered each time, never page-cached (``variants=False``): there are as
#: many as cards times attribute combinations, enough to fill a shared cache.
WHATIF_PARAMS = ("head", "body", "paw", "background", "rank", "burned")


@canonical()  # a what-if's canonical address is its card's
@require_safe
@cached_page(depends_on=("cards",), params=(*WHATIF_PARAMS, "as"), variants=False)
def card_detail(request: HttpRequest, token: int) -> HttpResponse:
    """A card and its live breakdown; GET parameters ask a what-if (never saved), and
    ``?as=YYYY-MM-DD`` the card as derived from that day's market data (with a banner).

    An htmx request (the what-if form, a "Try it" link) gets the picture, the Equipped
    panel, the form and the breakdown together, so they always show the same card.
    """
    card, catalogue, form = _what_if(request, token)
    as_of = AsOfForm(request.GET)
    if not as_of.is_valid():
        return _bad_day(request, card, as_of.message())
    dated = timeline.as_of(card, as_of.day())
    page = presenters.card_page(dated.card if dated else card, catalogue, form)
    extra = {"as_of": dated, "fingerprint": timeline.fingerprint(page.card)}
    preview = card_preview(page.original, page.original_breakdown)
    context = {**presenters.context(page), **extra, "preview": preview}
    return render_page(
        request, "explorer/card_detail.html", context, partial="card", status=page.status
    )


def _bad_day(request: HttpRequest, card: CardSpec, message: str) -> HttpResponse:
    """A 400 page for a ?as= that is not a past day, linking to the card as it is."""
    context = {"message": message, "card_url": timeline.card_url(card.token)}
    return render(request, "explorer/bad_day.html", context, status=400)


@require_safe
@cached_page(depends_on=("cards",))
def card_history(request: HttpRequest, token: int) -> HttpResponse:
    """A card's timeline: each recorded change of its rarity, role, skill, template,
    stats, effects or energy cost, by day, with its causes."""
    page = timeline.history_page(_load_card(token))
    return render(request, "explorer/card_history.html", presenters.context(page))


@require_safe
@cached_page(depends_on=("cards",), params=tuple(ChangesForm.base_fields))
def changes(request: HttpRequest) -> HttpResponse:
    """Every day's changes of the collection, newest first, changes of tier first."""
    page = timeline.changes_page(ChangesForm(request.GET).page_number())
    return render(request, "explorer/changes.html", presenters.context(page))


@canonical()
@require_safe
@cached_page(depends_on=("cards",), params=WHATIF_PARAMS, variants=False)
def card_paths(request: HttpRequest, token: int) -> HttpResponse:
    """What would lift a card (or a what-if of it) a tier, and what would make it Legendary,
    each way with a what-if checked to get there. The card page loads it as it scrolls into
    view (an htmx request: its "Try it" links recompute the card in place); without
    JavaScript, the card page links here."""
    card, catalogue, form = _what_if(request, token)
    page = presenters.card_paths_page(card, catalogue, form)
    return render_page(
        request,
        "explorer/card_paths.html",
        {**presenters.context(page), "inline": wants_partial(request)},
        partial="paths",
        status=page.status,
    )


@require_safe
@cached_page(depends_on=("cards",))
def statistics(request: HttpRequest) -> HttpResponse:
    """Distributions of the collection as SVG bar charts with their numbers."""
    page = presenters.statistics_page()
    return render(request, "explorer/statistics.html", presenters.context(page))


@require_safe
@cached_page(depends_on=("cards",), params=tuple(CompareForm.base_fields))
def compare(request: HttpRequest) -> HttpResponse:
    """Two cards side by side, what differs marked; ?a=<card>&b=<card> (tokens or names)."""
    page = presenters.compare_page(CompareForm.from_request(request.GET), attribute_catalogue())
    return render(request, "explorer/compare.html", presenters.context(page), status=page.status)
