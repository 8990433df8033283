"""The JSON API: a card's breakdown (the `python -m engine derive` schema) and card search.

Responses carry a strong ETag of their body and a short public Cache-Control, so clients
and caches can revalidate cheaply. Errors are JSON too: {"error": {"code", "message"}},
with the message in the language of the request's Accept-Language.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from cards.models import Card
from cards.specs import card_spec
from engine.derive import derive
from engine.serialize import breakdown_to_json

from .query import QueryError, parse
from .selectors import search_cards

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
MAX_TOKEN = 2**31 - 1
CACHE_CONTROL = "public, max-age=60"


def _json(request: HttpRequest, data: Any, status: int = 200) -> HttpResponse:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    response: HttpResponse
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    if status == 200 and etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, status=status, content_type="application/json")
    if status == 200:
        response["ETag"] = etag
        response["Cache-Control"] = CACHE_CONTROL
    response["Vary"] = "Accept-Language"
    return response


def _error(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    return _json(request, {"error": {"code": code, "message": message}}, status=status)


@require_GET
def card_breakdown(request: HttpRequest, token: int) -> HttpResponse:
    if token > MAX_TOKEN:
        return _error(request, 404, "not_found", _("There is no card with that token."))
    try:
        spec = card_spec(token)
    except Card.DoesNotExist:
        return _error(
            request, 404, "not_found", _("There is no card #%(token)s.") % {"token": token}
        )
    return _json(request, breakdown_to_json(derive(spec)))


def _int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise QueryError(
            f"bad_{name}",
            _("“%(name)s” must be a whole number from %(low)s to %(high)s.")
            % {"name": name, "low": low, "high": high},
        )
    return int(raw)


@require_GET
def card_search(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("q", "")
    try:
        query = parse(text)
        size = _int_param(request, "page_size", PAGE_SIZE, 1, MAX_PAGE_SIZE)
        number = _int_param(request, "page", 1, 1, 10**6)
    except QueryError as error:
        return _error(request, 400, error.code, error.message)
    paginator = Paginator(
        search_cards(query).values(
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
        return _error(request, 404, "no_page", _("There is no page %(page)s.") % {"page": number})
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
        request,
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
    if size != PAGE_SIZE:
        params["page_size"] = size
    return urlencode(params)
