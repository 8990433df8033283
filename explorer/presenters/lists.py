"""The card list."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Page
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards import paging
from cards.query import SORTS, Query, QueryError, describe, describe_sort
from cards.search import search_cards
from core.links import route_path

from ..forms import CardListForm, query_error
from .common import CARD_LIST_PAGE_SIZE, CountedPaginator
from .rows import CardRow, rows_of

PAGE_SIZES = {"grid": CARD_LIST_PAGE_SIZE, "checklist": 60, "text": CARD_LIST_PAGE_SIZE}


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    selected: bool
    url: str = ""


@dataclass(frozen=True, slots=True)
class QueryProblem:
    """A refused search, with the faulty characters picked out."""

    message: str
    before: str
    marked: str
    after: str


@dataclass(frozen=True, slots=True)
class CardListPage:
    q: str
    error: QueryProblem | None
    display: str = "grid"
    page: Page | None = None
    cards: list[CardRow] = field(default_factory=list)
    described: list[str] = field(default_factory=list)
    sort_described: str = ""
    elided: list[object] = field(default_factory=list)
    displays: list[Choice] = field(default_factory=list)
    sorts: list[Choice] = field(default_factory=list)
    descending: bool = True
    starters_hidden: bool = True
    page_link: str = "?page="  # this list's address up to its page number: "?q=…&page="
    random_url: str = ""
    api_url: str = ""
    found: str = ""  # "24 cards found"
    links: dict[str, str] = field(default_factory=dict)  # the list, search help, advanced
    warnings: list[str] = field(default_factory=list)  # what the search read and ignored
    why_link: str = ""  # a result's "Why?" address up to its token: "…/why/?q=…&card="
    feed_url: str = ""  # this search as an Atom feed of the cards entering and leaving it
    # Past the numbered pages (``cards.paging``): the next page's cursor link, the first
    # page's link and the number of a page reached by cursor (0: a numbered page).
    next_url: str = ""
    first_url: str = ""
    cursor_page: int = 0

    @property
    def status(self) -> int:
        return 400 if self.error else 200


def query_problem(text: str, error: QueryError | None, message: str) -> QueryProblem:
    """The refusal's message and the typed text cut around the faulty characters."""
    if error is None or error.position is None or error.code == "too_long":
        return QueryProblem(message, "", "", "")  # nothing to point at (or all of it)
    start = min(error.position, len(text))
    end = min(len(text), start + error.length)
    marked = text[start:end] or " "
    return QueryProblem(message, text[:start], marked, text[end:])


def list_query(q: str, display: str = "grid", page: int | None = None) -> str:
    """The card list's query string for a search, a display and a page (defaults left out)."""
    params: dict[str, object] = {}
    if q:
        params["q"] = q
    if display != "grid":
        params["display"] = display
    if page and page > 1:
        params["page"] = page
    return urlencode(params)


def _list_slice(
    query: Query,
    found: Any,
    size: int,
    number: int,
    cursor: paging.Cursor | None,
) -> tuple[Page | None, paging.KeysetPage, paging.Count, list[object], bool]:
    """The card list's page: by number (with its paginator) or by cursor; its count
    (bounded), the numbered links and whether a "Next" by cursor follows."""
    kept = None
    if cursor is None and number == 1:
        kept = paging.keyset_page(query, found, size, cursor=None)
    if kept is not None and kept.next_cursor is None:  # one page: counted without a count
        count = paging.Count.of(len(kept.ids))
    else:
        count = paging.bounded_count(query, found)
    if cursor is not None:
        return None, paging.keyset_page(query, found, size, cursor=cursor), count, [], True
    paginator = CountedPaginator(found.values_list("pk", flat=True), size, count.value)
    page = paginator.get_page(number)
    if kept is None or page.number != 1:
        offset = max(0, page.start_index() - 1)
        kept = paging.keyset_page(query, found, size, cursor=None, offset=offset)
    elided = list(paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))
    # The numbered pages end at 10,000 cards; beyond, "Next" goes by cursor.
    return page, kept, count, elided, count.over and not page.has_next()


def card_list_page(form: CardListForm) -> CardListPage:
    """One page of the cards a search finds, and the search in words."""
    text = str(form.data.get("q", ""))
    display = form.display_mode()
    list_url = route_path("explorer:card-list")
    links = {
        "list_url": list_url,
        "help_url": route_path("explorer:search-help"),
        "advanced_url": route_path("explorer:advanced-search"),
        "why_url": route_path("explorer:card-why"),
    }
    displays = [
        Choice(
            mode,
            str(name),
            mode == display,
            f"{list_url}?{list_query(text, mode)}".rstrip("?"),
        )
        for mode, name in (
            ("grid", _("Grid")),
            ("checklist", _("Checklist")),
            ("text", _("Text")),
        )
    ]
    if form.has_error("q"):
        message = " ".join(form.errors["q"])
        return CardListPage(
            q=text,
            error=query_problem(text, query_error(form), message),
            display=display,
            displays=displays,
            links=links,
        )
    query: Query = form.cleaned_data["q"]
    size = PAGE_SIZES[display]
    found = search_cards(query)
    own_query = list_query(text, display)
    cursor_text = form.cleaned_data.get("cursor") or ""
    try:
        cursor = paging.read_cursor(cursor_text, query, size) if cursor_text else None
    except paging.CursorError as error:
        problem = QueryProblem(error.message, "", "", "")
        return CardListPage(q=text, error=problem, display=display, displays=displays, links=links)
    try:
        with paging.search_budget():
            page, kept, count, elided, more = _list_slice(
                query, found, size, form.page_number(), cursor
            )
    except paging.SearchTooBroad as error:
        problem = QueryProblem(error.message, "", "", "")
        return CardListPage(q=text, error=problem, display=display, displays=displays, links=links)
    separator = "&" if own_query else ""
    next_url = ""
    if more and kept.next_cursor:
        next_url = f"?{own_query}{separator}{urlencode({'cursor': kept.next_cursor})}"
    if count.over:
        found_text = _("more than %(counter)s cards found") % {
            "counter": number_format(paging.MAX_EXACT_COUNT, force_grouping=True)
        }
    else:
        found_text = ngettext("%(counter)s card found", "%(counter)s cards found", count.value) % {
            "counter": count.value
        }
    key = query.sort.lstrip("-")
    return CardListPage(
        q=text,
        error=None,
        display=display,
        page=page,
        cards=rows_of(kept.ids),
        described=describe(query),
        sort_described=describe_sort(query),
        elided=elided,
        displays=displays,
        sorts=[Choice(k, capfirst(str(name)), k == key) for k, name in SORTS.items()],
        descending=query.sort.startswith("-"),
        starters_hidden=not query.wants_free_cards,
        page_link=f"?{own_query}&page=" if own_query else "?page=",
        random_url=f"{route_path('explorer:random-card')}?{list_query(text)}".rstrip("?"),
        api_url=f"{route_path('api:card-search')}?{list_query(text)}".rstrip("?"),
        found=found_text,
        links=links,
        warnings=[w.message for w in query.warnings],
        why_link=f"{links['why_url']}?{urlencode({'q': text, 'card': ''})}" if text else "",
        feed_url=f"{route_path('explorer:search-feed')}?{list_query(text)}" if text else "",
        next_url=next_url,
        first_url=f"?{own_query}" if own_query else "?",
        cursor_page=kept.number if cursor else 0,
    )
