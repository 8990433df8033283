"""What players click: search the collection, open a card, ask what-if, compare, statistics.

Each view reads its parameters through a form (explorer.forms), asks a presenter for the
page (explorer.presenters) and renders it; htmx requests get the page's partial.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from cards.forms import MAX_TOKEN
from cards.models import Card
from cards.specs import card_spec
from core.cache import cached_page
from core.htmx import render_page
from engine.types import CardSpec

from . import presenters
from .forms import CardListForm, CompareForm, WhatIfForm
from .query import FIELDS, SORTS
from .selectors import attribute_catalogue


@require_safe
@cached_page(depends_on=("cards",), params=tuple(CardListForm.base_fields))
def card_list(request: HttpRequest) -> HttpResponse:
    page = presenters.card_list_page(CardListForm(request.GET))
    return render_page(
        request,
        "explorer/card_list.html",
        presenters.context(page),
        partial="results",
        status=page.status,
    )


@require_safe
@cached_page()
def search_help(request: HttpRequest) -> HttpResponse:
    return render(request, "explorer/search_help.html", {"fields": FIELDS, "sorts": SORTS})


def _load_card(token: int) -> CardSpec:
    if token > MAX_TOKEN:
        raise Http404(_("There is no card with that token."))
    try:
        return card_spec(token)
    except Card.DoesNotExist:
        raise Http404(_("There is no card #%(token)s.") % {"token": token}) from None


@require_safe
@cached_page(depends_on=("cards",), params=("head", "body", "paw", "background", "rank", "burned"))
def card_detail(request: HttpRequest, token: int) -> HttpResponse:
    """A card and its live breakdown; GET parameters ask a what-if (never saved).

    An htmx request (the what-if form, a "Try it" link) gets the picture, the Equipped
    panel, the form and the breakdown together, so they always show the same card.
    """
    card = _load_card(token)
    catalogue = attribute_catalogue()
    form = WhatIfForm(request.GET, card=card, catalogue=catalogue)
    page = presenters.card_page(card, catalogue, form)
    return render_page(
        request,
        "explorer/card_detail.html",
        presenters.context(page),
        partial="card",
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
    """Two cards side by side; ?a=<token>&b=<token>."""
    page = presenters.compare_page(CompareForm.from_request(request.GET))
    return render(request, "explorer/compare.html", presenters.context(page), status=page.status)
