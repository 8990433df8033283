"""The JSON API: a card's breakdown (the `python -m engine derive` schema) and card search.

Responses carry an ETag of their body (Django's ``conditional_page``: a request whose
If-None-Match matches gets a 304) and a short public Cache-Control, so clients and
caches can revalidate cheaply. Errors are JSON too: {"error": {"code", "message"}},
with the message in the language of the request's Accept-Language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page, require_safe

from cards.forms import MAX_TOKEN
from cards.models import Card
from cards.specs import card_spec
from engine.derive import derive
from engine.serialize import breakdown_to_json

from .forms import ApiSearchForm, first_error, message_of
from .selectors import search_cards

CACHE_CONTROL = "public, max-age=60"


def _json(data: Any, status: int = 200) -> HttpResponse:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    response = HttpResponse(body, status=status, content_type="application/json")
    if status == 200:
        response["Cache-Control"] = CACHE_CONTROL
    return response


def _error(status: int, code: str, message: str) -> HttpResponse:
    return _json({"error": {"code": code, "message": message}}, status=status)


def api_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """GET and HEAD only, conditional on the body's ETag, varying on Accept-Language."""

    @require_safe
    @conditional_page
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("Accept-Language",))
        return response

    return wrapper


@api_view
def card_breakdown(request: HttpRequest, token: int) -> HttpResponse:
    if token > MAX_TOKEN:
        return _error(404, "not_found", _("There is no card with that token."))
    try:
        spec = card_spec(token)
    except Card.DoesNotExist:
        return _error(404, "not_found", _("There is no card #%(token)s.") % {"token": token})
    return _json(breakdown_to_json(derive(spec)))


@api_view
def card_search(request: HttpRequest) -> HttpResponse:
    form = ApiSearchForm(request.GET)
    if not form.is_valid():
        error = first_error(form)
        assert error is not None
        return _error(400, error.code or "invalid", message_of(error))
    text = str(form.data.get("q", ""))
    size, number = form.size, form.number
    paginator = Paginator(
        search_cards(form.cleaned_data["q"]).values(
            "token",
            "name",
            "starter",
            "rarity",
            "role",
            "skill_affinity",
            "active_skill",
            "energy_cost",
            "atk",
            "hp",
            "defense",
            "getgems_rank",
            "burned_stickers",
            "wardrobe_score",
        ),
        size,
    )
    if number > paginator.num_pages:
        return _error(404, "no_page", _("There is no page %(page)s.") % {"page": number})
    page = paginator.page(number)
    base = reverse("api:card-search")

    def link(n: int) -> str:
        return request.build_absolute_uri(f"{base}?{_encode(text, n, size)}")

    results = []
    for row in page.object_list:
        score = row.pop("wardrobe_score")
        row["wardrobe_score"] = None if score is None else str(score)
        row["def"] = row.pop("defense")
        row["url"] = request.build_absolute_uri(reverse("api:card-breakdown", args=[row["token"]]))
        results.append(row)
    return _json(
        {
            "query": text,
            "count": paginator.count,
            "page": number,
            "pages": paginator.num_pages,
            "next": link(number + 1) if page.has_next() else None,
            "previous": link(number - 1) if page.has_previous() else None,
            "results": results,
        },
    )


def _encode(text: str, page: int, size: int) -> str:
    params: dict[str, Any] = {"page": page}
    if text:
        params = {"q": text, **params}
    if size != ApiSearchForm.PAGE_SIZE:
        params["page_size"] = size
    return urlencode(params)
