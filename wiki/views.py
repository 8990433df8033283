"""Public wiki pages: index, page, history, diff and search."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from core.cache import cached_page

from . import search
from .diff import diff_snapshots
from .models import Page
from .presenters import page_view
from .selectors import (
    LANGUAGE_CODES,
    LocalizedText,
    get_published_page,
    get_revision,
    localized,
    page_directory,
    pages_by_section,
    published_pages,
    revisions_of,
)

RESULTS_PER_PAGE = 10
MAX_QUERY = 200


def _lang() -> str:
    lang = (get_language() or "en").split("-")[0]
    return lang if lang in LANGUAGE_CODES else "en"


@dataclass(frozen=True, slots=True)
class PageLink:
    """A page in a list: where it goes and its title/summary in the visitor's language."""

    page: Page
    title: LocalizedText
    summary: LocalizedText


def _link(page: Page, lang: str) -> PageLink:
    return PageLink(page, localized(page, "title", lang), localized(page, "summary", lang))


@require_GET
@cached_page(depends_on=("wiki",))
def page_index(request: HttpRequest) -> HttpResponse:
    lang = _lang()
    sections = [
        (group.label, [_link(p, lang) for p in group.pages])
        for group in pages_by_section(published_pages())
    ]
    return render(request, "wiki/page_index.html", {"sections": sections})


@require_GET
@cached_page(depends_on=("wiki", "cards", "balance"))
def page_detail(request: HttpRequest, slug: str) -> HttpResponse:
    lang = _lang()
    page = get_published_page(slug)
    view = page_view(page, lang, page_directory())
    related = [_link(p, lang) for p in page.related.all()]
    return render(request, "wiki/page_detail.html", {"view": view, "related": related})


@require_GET
@cached_page(depends_on=("wiki",))
def page_history(request: HttpRequest, slug: str) -> HttpResponse:
    lang = _lang()
    page = get_published_page(slug)
    revisions = list(revisions_of(page))
    return render(
        request,
        "wiki/page_history.html",
        {"page": page, "title": localized(page, "title", lang), "revisions": revisions},
    )


def _revision_number(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit() or len(value.strip()) > 9:
        return None
    return int(value)


@require_GET
@cached_page(depends_on=("wiki",), params=("from", "to"))
def page_diff(request: HttpRequest, slug: str) -> HttpResponse:
    lang = _lang()
    page = get_published_page(slug)
    old_no = _revision_number(request.GET.get("from"))
    new_no = _revision_number(request.GET.get("to"))
    if old_no is None or new_no is None:
        raise BadRequest("Give two revision numbers: ?from=<n>&to=<m>.")
    if old_no > new_no:
        old_no, new_no = new_no, old_no
    old, new = get_revision(page, old_no), get_revision(page, new_no)
    return render(
        request,
        "wiki/page_diff.html",
        {
            "page": page,
            "title": localized(page, "title", lang),
            "old": old,
            "new": new,
            "diffs": diff_snapshots(old.snapshot, new.snapshot),
        },
    )


@dataclass(frozen=True, slots=True)
class SearchResult:
    link: PageLink
    title_html: SafeString
    snippet: SafeString
    matched_lang: str
    other_language: bool


def _results(
    hits: list[search.Hit], pages: dict[int, Page], terms: list[str], lang: str
) -> list[SearchResult]:
    results = []
    for hit in hits:
        page = pages[hit.page_id]
        # Show the match in the visitor's language when the page matched there too.
        matched = lang if lang in hit.langs else hit.langs[0]
        body = localized(page, "body", matched)
        text = (
            localized(page, "summary", matched).value
            + "\n"
            + search.page_plain_text(page, body.lang)
        )
        link = _link(page, lang)
        results.append(
            SearchResult(
                link=link,
                title_html=search.highlight(link.title.value, terms),
                snippet=search.snippet(text, terms),
                matched_lang=matched,
                other_language=matched != lang,
            )
        )
    return results


@require_GET
@vary_on_headers("HX-Request")
@cached_page(depends_on=("wiki",), params=("q", "page"))
def search_view(request: HttpRequest) -> HttpResponse:
    lang = _lang()
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    terms = search.query_terms(query)
    hits = search.search_pages(query) if terms else []
    pages = published_pages().in_bulk([h.page_id for h in hits]) if hits else {}
    hits = [h for h in hits if h.page_id in pages]
    paginator = Paginator(hits, RESULTS_PER_PAGE)
    page_obj = paginator.get_page(request.GET.get("page"))
    context = {
        "query": query,
        "searched": bool(terms),
        "page_obj": page_obj,
        "results": _results(list(page_obj.object_list), pages, terms, lang),
        "total": paginator.count,
    }
    template = "wiki/search_results.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
    return render(request, template, context)
