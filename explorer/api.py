"""The card API: card search, a card with its breakdown, and the bulk file.

A card's JSON and a search's JSON are cached per collection version like the pages
(``core.cache.cached_page``), and their ETag is that cache key's: a request whose
If-None-Match matches gets a 304 before anything is read or derived. The bulk file's
ETag names the collection's version. Responses and errors are ``core.api``'s (the one
error shape, a JSON 405 for a method other than GET or HEAD); the endpoints are
described in ``explorer.api_docs``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.http import FileResponse, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.formats import number_format
from django.utils.http import http_date
from django.utils.translation import gettext as _

from cards import paging
from cards.explain import Check, checks, stored_facts
from cards.forms import MAX_TOKEN
from cards.models import EQUIPPED_FIELDS, Card
from cards.query import Query, describe
from cards.search import search_cards
from cards.specs import card_spec, card_specs
from core.api import absolute, api_view, error_response, json_response, json_text
from core.cache import cached_page
from core.context_processors import site_origin
from core.links import token_path_parts
from engine.card.derive import derive
from engine.data import RULES_VERSION
from engine.serialize import breakdown_json, card_to_json

from . import bulk, timeline
from .forms import ApiExplainForm, ApiSearchForm, AsOfForm, first_error, message_of
from .selectors import attribute_catalogue, combos, list_rows
from .why import why

logger = logging.getLogger(__name__)
BULK_CACHE_CONTROL = "public, max-age=300"


# ---------------------------------------------------------------------------
# Cards


_LINKS = (
    ("picture_url", "explorer:card-picture"),
    ("page_url", "explorer:card-detail"),
    ("uri", "api:card-breakdown"),
)


def _card_links_maker(request: HttpRequest) -> Callable[[int], dict[str, str]]:
    """A card's three links (absolute), for any number of cards of one request."""
    origin = site_origin(request)
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


@api_view(key="card")
@cached_page(depends_on=("cards",), params=("as",), etag=True, variants=False)
def card_breakdown(request: HttpRequest, token: int) -> HttpResponse:
    """A card: its facts and links at the top, then its whole breakdown; ``?as=`` a past
    day derives it from that day's market data."""
    if token > MAX_TOKEN:
        return error_response(404, "not_found", _("There is no card with that token."))
    as_of = AsOfForm(request.GET)
    if not as_of.is_valid():
        return error_response(400, "bad_date", as_of.message())
    try:
        spec = card_spec(token, combos=combos())
    except Card.DoesNotExist:
        return error_response(
            404, "not_found", _("There is no card #%(token)s.") % {"token": token}
        )
    dated = timeline.as_of(spec, as_of.day())
    spec = dated.card if dated is not None else spec
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
        "as_of": dated.day.isoformat() if dated is not None else None,
        "inputs_sha256": timeline.inputs_sha256(spec),
        "rules_version": RULES_VERSION,
    }
    return json_text(breakdown_json(derive(spec), head=head))


@api_view(key="card-history")
@cached_page(depends_on=("cards",), etag=True)
def card_history(request: HttpRequest, token: int) -> HttpResponse:
    """A card's recorded changes, newest first, each with its causes."""
    found = timeline.card_history_json(token) if token <= MAX_TOKEN else None
    if found is None:
        return error_response(
            404, "not_found", _("There is no card #%(token)s.") % {"token": token}
        )
    return json_response(found)


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


@api_view(key="card-search")
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
    found = search_cards(query)
    cursor_text = form.cleaned_data.get("cursor") or ""
    try:
        cursor = paging.read_cursor(cursor_text, query, size) if cursor_text else None
    except paging.CursorError as error:
        return error_response(400, error.code, error.message)
    offset = (number - 1) * size
    if cursor is None and offset > paging.MAX_OFFSET:
        known = paging.bounded_count(query, found)
        if not known.over and offset >= known.value:
            return error_response(
                404, "no_page", _("There is no page %(page)s.") % {"page": number}
            )
        return error_response(
            400,
            "page_too_deep",
            _(
                "Pages by number reach %(limit)s cards deep; follow next_page (a cursor) to "
                "go further, or narrow the search."
            )
            % {"limit": number_format(paging.MAX_OFFSET, force_grouping=True)},
        )
    try:
        with paging.search_budget():
            page = paging.keyset_page(query, found, size, cursor=cursor, offset=offset)
            if page.next_cursor is None and cursor is None:  # the last page: counted
                count = paging.Count.of(offset + len(page.ids))
            else:
                count = paging.bounded_count(query, found)
    except paging.SearchTooBroad as error:
        return error_response(400, error.code, error.message)
    if not page.ids and (cursor is not None or number > 1):
        return error_response(
            404, "no_page", _("There is no page %(page)s.") % {"page": page.number}
        )
    pages = max(1, -(-count.value // size))  # as Django's Paginator counts them
    rows = list_rows(page.ids)  # one query, in the page's order
    base = reverse("api:card-search")
    links = _card_links_maker(request)

    def link(**params: Any) -> str:
        return absolute(request, f"{base}?{_encode(text, size, **params)}")

    number = page.number
    next_page = link(cursor=page.next_cursor) if page.next_cursor else None
    # ``next`` stays a page number while pages by number reach (its old shape), then the cursor.
    following = next_page
    if next_page and cursor is None and number * size <= paging.MAX_OFFSET:
        following = link(page=number + 1)
    previous = None
    if number > 1 and (number - 2) * size <= paging.MAX_OFFSET:
        previous = link(page=number - 1)
    body: dict[str, Any] = {
        "object": "list",
        "query": text,
        "described": describe(query),
        "count": count.value,
        "page": number,
        "pages": pages,
        "next": following,
        "previous": previous,
        "has_more": page.next_cursor is not None,
    }
    if next_page:
        body["next_page"] = next_page
    if count.over:
        body["total_cards_over"] = True
    else:
        body["total_cards"] = count.value
    body["results"] = _explained(
        [_card_summary(links, row) for row in rows], query, text, form.explains
    )
    body["warnings"] = warnings_json(query)
    return json_response(body)


def warnings_json(query: Query) -> list[dict[str, Any]]:
    """What the search read and ignored (``cards.query.QueryWarning``), as the API says it."""
    return [
        {"code": w.code, "message": w.message, "position": w.position, "length": w.length}
        for w in query.warnings
    ]


def _checks_json(found: list[Check]) -> list[dict[str, Any]]:
    return [{"clause": c.clause, "ok": c.ok, "value": c.value} for c in found]


def _explained(
    results: list[dict[str, Any]], query: Query, text: str, explains: bool
) -> list[dict[str, Any]]:
    """With ``explain=1``, each card with one entry per leaf clause, in query order."""
    if not explains or not results:
        return results
    facts = stored_facts(card_specs([r["token"] for r in results], combos=combos()))
    for result in results:
        result["explain"] = _checks_json(checks(query, facts[result["token"]], text))
    return results


@api_view(key="card-explain")
@cached_page(depends_on=("cards",), params=("q",), etag=True)
def card_explain(request: HttpRequest, token: int) -> HttpResponse:
    """Whether ``?q=`` finds card ``token``: each clause with the card's value, the
    clauses that keep it out, and the nearest what-if that would make it match."""
    form = ApiExplainForm(request.GET)
    if not form.is_valid():
        error = first_error(form)
        assert error is not None
        return error_response(400, error.code or "invalid", message_of(error))
    if token > MAX_TOKEN:
        return error_response(404, "not_found", _("There is no card with that token."))
    try:
        spec = card_spec(token, combos=combos())
    except Card.DoesNotExist:
        return error_response(
            404, "not_found", _("There is no card #%(token)s.") % {"token": token}
        )
    text = str(form.data.get("q", ""))
    query = form.cleaned_data["q"]
    found = why(spec, query, text, attribute_catalogue())
    whatif = None
    if found.whatif is not None:
        whatif = {
            "changes": found.whatif.query(),
            "url": absolute(request, found.whatif_url),
        }
    return json_response(
        {
            "object": "explanation",
            "token": token,
            "query": text,
            "matched": found.matched,
            "starter_left_out": found.starter_left_out,
            "explain": _checks_json(found.checks),
            "failed": _checks_json(found.failed),
            "whatif": whatif,
            "warnings": warnings_json(query),
            **_card_links(request, token),
        }
    )


def _encode(text: str, size: int, **params: Any) -> str:
    encoded: dict[str, Any] = {"q": text} if text else {}
    encoded.update(params)
    if size != ApiSearchForm.PAGE_SIZE:
        encoded["page_size"] = size
    return urlencode(encoded)


# ---------------------------------------------------------------------------
# Bulk data


@api_view(key="bulk-cards")
def bulk_cards(request: HttpRequest) -> HttpResponse:
    """The whole collection in the import schema, streamed from the file of its version.

    A client that already holds this version (If-None-Match) gets a 304 before anything
    is read from disk or written to it.
    """
    try:
        etag = bulk.known_etag()
        if etag is not None:
            unchanged = get_conditional_response(request, etag=etag)
            if unchanged is not None:
                unchanged["Cache-Control"] = BULK_CACHE_CONTROL
                return unchanged
        current = bulk.current_file()
    except (bulk.BulkUnavailable, OSError) as error:
        return _bulk_unavailable(error)
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
        try:
            body = open(current.path, "rb")  # noqa: SIM115 (FileResponse closes it)
        except OSError as error:  # pruned by a newer version's writer, or unreadable
            return _bulk_unavailable(error)
        response = FileResponse(body, content_type="application/json")
    for name, value in headers.items():
        if name == "Content-Length" and response.status_code == 304:
            continue
        response[name] = value
    return response


def _bulk_unavailable(error: Exception) -> HttpResponse:
    """503 in the API's shape: another process is writing the file, or the disk refused."""
    if getattr(error, "busy", False):
        details = _("The bulk file is being written. Try again in a few seconds.")
    else:
        logger.error("The bulk file cannot be written or read: %s", error)
        details = _(
            "The bulk file cannot be written on the server now (its storage is full or "
            "read-only). Try again later."
        )
    response = error_response(503, "bulk_unavailable", details)
    response["Retry-After"] = str(bulk.RETRY_AFTER_SECONDS)
    return response
