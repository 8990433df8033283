"""The JSON API: an index, card search, a card with its breakdown, and the bulk file.

A card's JSON and a search's JSON are cached per collection version like the pages
(``core.cache.cached_page``), and their ETag is that cache key's: a request whose
If-None-Match matches gets a 304 before anything is read or derived. The other
responses carry an ETag of their body (Django's ``conditional_page``). All have a short
public Cache-Control, so clients and caches can revalidate cheaply. Every error, whatever the path, is one JSON shape::

    {"object": "error", "code": "not_found", "status": 404, "details": "…"}

with ``details`` in the language of the request's Accept-Language. ``error_response``
is the one way to answer an error: other apps' API views use it too. The endpoints are
described in ``explorer.apidocs`` (the index and the documentation page read it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.http import FileResponse, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page

from cards.forms import MAX_TOKEN
from cards.models import EQUIPPED_FIELDS, Card
from cards.specs import card_spec
from core.cache import cached_page
from core.links import token_path_parts
from engine.derive import derive
from engine.serialize import breakdown_json, card_to_json

from . import apidocs, bulk
from .forms import ApiSearchForm, first_error, message_of
from .query import describe
from .selectors import combos, list_rows, search_cards, search_page

__all__ = ["api_view", "error_response"]

CACHE_CONTROL = "public, max-age=60"
BULK_CACHE_CONTROL = "public, max-age=300"
SAFE_METHODS = ("GET", "HEAD")


_encode_json = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False
).encode


def _json(data: Any, status: int = 200) -> HttpResponse:
    return _json_text(_encode_json(data), status)


def _json_text(text: str, status: int = 200) -> HttpResponse:
    """A response of JSON text already written (compact, UTF-8)."""
    response = HttpResponse(text.encode(), status=status, content_type="application/json")
    if status == 200:
        response["Cache-Control"] = CACHE_CONTROL
    return response


def error_response(status: int, code: str, details: str) -> HttpResponse:
    """The API's one error shape: ``{"object": "error", "code", "status", "details"}``."""
    response = _json(
        {"object": "error", "code": code, "status": status, "details": details}, status
    )
    response["Cache-Control"] = "no-store"
    return response


def api_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """GET and HEAD only (other methods: a JSON 405), conditional on the body's ETag,
    varying on Accept-Language (errors and page links are in the request's language)."""

    conditional = conditional_page(view)  # once: the decorator builds a middleware

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in SAFE_METHODS:
            response = error_response(
                405,
                "method_not_allowed",
                _("The API only reads: use GET (or HEAD), not %(method)s.")
                % {"method": request.method},
            )
            response["Allow"] = ", ".join(SAFE_METHODS)
        else:
            response = conditional(request, *args, **kwargs)
            if response.status_code == 304:
                response["Cache-Control"] = CACHE_CONTROL
        patch_vary_headers(response, ("Accept-Language",))
        return response

    return wrapper


def _absolute(request: HttpRequest, path: str) -> str:
    return request.build_absolute_uri(path)


# ---------------------------------------------------------------------------
# Index and fallbacks


@api_view
def index(request: HttpRequest) -> HttpResponse:
    """``/api/``: every endpoint (this app's and other apps'), linked to the docs."""
    data = [
        {
            "object": "endpoint",
            "key": endpoint.key,
            "app": app,
            "method": endpoint.method,
            "path": endpoint.path,
            "summary": str(endpoint.summary),
            "example": _absolute(request, endpoint.example) if endpoint.example else None,
        }
        for app, endpoint in apidocs.endpoints()
    ]
    docs = _absolute(request, reverse("explorer:api-docs"))
    # Under "results", as every other list of the API (it was "data").
    return _json({"object": "list", "docs_url": docs, "count": len(data), "results": data})


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under ``/api/``, whatever the method: a JSON 404 naming the
    endpoints that exist."""
    path = request.path
    hint = ""
    if path.startswith("/api/cards/"):
        hint = _(
            " A card is /api/cards/<token> with a whole number, and the search is /api/cards "
            "(no slash at the end)."
        )
    response = error_response(
        404,
        "not_found",
        _("There is no API endpoint at %(path)s.%(hint)s The list of endpoints is at /api/.")
        % {"path": path[:200], "hint": hint},
    )
    patch_vary_headers(response, ("Accept-Language",))
    return response


def csrf_refused(request: HttpRequest) -> HttpResponse:
    """A write refused by the CSRF check under /api/ (``core.views.csrf_failure``): the
    API's error shape, since the API only reads anyway."""
    return error_response(
        403,
        "forbidden",
        _("The API only reads: use GET (or HEAD), not %(method)s.") % {"method": request.method},
    )


# ---------------------------------------------------------------------------
# Cards


_LINKS = (
    ("picture_url", "explorer:card-picture"),
    ("page_url", "explorer:card-detail"),
    ("uri", "api:card-breakdown"),
)


def _card_links_maker(request: HttpRequest) -> Callable[[int], dict[str, str]]:
    """A card's three links (absolute), for any number of cards of one request."""
    origin = request.build_absolute_uri("/")[:-1]
    paths = []
    for name, route in _LINKS:
        before, after = token_path_parts(route)
        paths.append((name, origin + before, after))

    def links(token: int) -> dict[str, str]:
        text = str(token)
        return {name: before + text + after for name, before, after in paths}

    return links


def _card_links(request: HttpRequest, token: int) -> dict[str, str]:
    return _card_links_maker(request)(token)


@api_view
@cached_page(depends_on=("cards",), etag=True)
def card_breakdown(request: HttpRequest, token: int) -> HttpResponse:
    """A card: its facts and links at the top, then its whole breakdown."""
    if token > MAX_TOKEN:
        return error_response(404, "not_found", _("There is no card with that token."))
    try:
        spec = card_spec(token, combos=combos())
    except Card.DoesNotExist:
        return error_response(
            404, "not_found", _("There is no card #%(token)s.") % {"token": token}
        )
    card = card_to_json(spec)
    head = {
        "object": "card",
        "token": spec.token,
        "name": spec.name,
        "starter": spec.starter,
        "equipped": card["equipped"],
        "wardrobe": card["wardrobe"],
        "getgems_rank": spec.getgems_rank,
        "burned_stickers": spec.burned_stickers,
        **_card_links(request, spec.token),
    }
    return _json_text(breakdown_json(derive(spec), head=head))


def _card_summary(links: Callable[[int], dict[str, str]], row: dict[str, Any]) -> dict[str, Any]:
    """A search result: a card's facts from its list row (``selectors.list_rows``)."""
    score = row["wardrobe_score"]
    token = row["token"]
    return {
        "object": "card",
        "token": token,
        "name": row["name"],
        "starter": row["starter"],
        # The same shape as the card's own answer: each slot's name, supply and kind.
        "equipped": {
            slot: {
                "name": row[f"{slot}__name"],
                "supply": row[f"{slot}__supply"],
                "kind": row[f"{slot}__kind"],
            }
            for slot in EQUIPPED_FIELDS
        },
        "rarity": row["rarity"],
        "role": row["role"],
        "skill_affinity": row["skill_affinity"],
        "active_skill": row["active_skill"],
        "energy_cost": row["energy_cost"],
        "atk": row["atk"],
        "hp": row["hp"],
        "def": row["defense"],
        "ability": row["ability"],
        "getgems_rank": row["getgems_rank"],
        "burned_stickers": row["burned_stickers"],
        "wardrobe_score": None if score is None else str(score),
        **links(token),
    }


@api_view
@cached_page(depends_on=("cards",), params=tuple(ApiSearchForm.base_fields), etag=True)
def card_search(request: HttpRequest) -> HttpResponse:
    form = ApiSearchForm(request.GET)
    if not form.is_valid():
        error = first_error(form)
        assert error is not None
        return error_response(400, error.code or "invalid", message_of(error))
    text = str(form.data.get("q", ""))
    size, number = form.size, form.number
    query = form.cleaned_data["q"]
    ids, count = search_page(query, search_cards(query), number, size)
    if count is None:
        return error_response(404, "no_page", _("There is no page %(page)s.") % {"page": number})
    pages = max(1, -(-count // size))  # as Django's Paginator counts them
    rows = list_rows(ids)  # one query, in the page's order
    base = reverse("api:card-search")
    links = _card_links_maker(request)

    def link(n: int) -> str:
        return _absolute(request, f"{base}?{_encode(text, n, size)}")

    return _json(
        {
            "object": "list",
            "query": text,
            "described": describe(query),
            "count": count,
            "page": number,
            "pages": pages,
            "next": link(number + 1) if number < pages else None,
            "previous": link(number - 1) if number > 1 else None,
            "results": [_card_summary(links, row) for row in rows],
        },
    )


def _encode(text: str, page: int, size: int) -> str:
    params: dict[str, Any] = {"page": page}
    if text:
        params = {"q": text, **params}
    if size != ApiSearchForm.PAGE_SIZE:
        params["page_size"] = size
    return urlencode(params)


# ---------------------------------------------------------------------------
# Bulk data


def bulk_cards(request: HttpRequest) -> HttpResponse:
    """The whole collection in the import schema, streamed from the file of its version.

    A client that already holds this version (If-None-Match) gets a 304 before anything
    is read from disk or written to it.
    """
    if request.method not in SAFE_METHODS:
        response = error_response(
            405,
            "method_not_allowed",
            _("The API only reads: use GET (or HEAD), not %(method)s.")
            % {"method": request.method},
        )
        response["Allow"] = ", ".join(SAFE_METHODS)
        return response
    etag = bulk.known_etag()
    if etag is not None:
        unchanged = get_conditional_response(request, etag=etag)
        if unchanged is not None:
            unchanged["Cache-Control"] = BULK_CACHE_CONTROL
            return unchanged
    current = bulk.current_file()
    headers = {
        "ETag": current.etag,
        "Last-Modified": http_date(current.modified),
        "Cache-Control": BULK_CACHE_CONTROL,
        "Content-Length": str(current.size),
    }
    unchanged = get_conditional_response(
        request, etag=current.etag, last_modified=int(current.modified)
    )
    if unchanged is not None:
        response: HttpResponse = unchanged
    elif request.method == "HEAD":
        response = HttpResponse(content_type="application/json")
    else:
        response = FileResponse(
            open(current.path, "rb"),  # noqa: SIM115 (FileResponse closes it)
            content_type="application/json",
        )
    for name, value in headers.items():
        if name == "Content-Length" and response.status_code == 304:
            continue
        response[name] = value
    return response
