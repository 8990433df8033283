"""Public wiki pages: index, page, history, diff and search.

Every view answers GET and HEAD; every parameter is read through a form (``wiki.forms``),
and bad input gets the page back with the form's message and a 400, never a 500.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from core.cache import cached_page
from core.htmx import render_page

from . import presenters
from .forms import PageNumberForm, RevisionRangeForm, SearchForm, errors_text
from .models import Page
from .selectors import (
    LANGUAGE_CODES,
    get_published_page,
    get_revision,
    public_revisions_of,
)


def _lang() -> str:
    lang = (get_language() or "en").split("-")[0]
    return lang if lang in LANGUAGE_CODES else "en"


@require_safe
@cached_page(depends_on=("wiki",))
def page_index(request: HttpRequest) -> HttpResponse:
    sections = presenters.index_sections(_lang())
    return render(request, "wiki/page_index.html", {"sections": sections})


@require_safe
# The wiki and what its live tables read (as the article: ``presenters.ARTICLE_DEPENDS_ON``).
@cached_page(depends_on=presenters.ARTICLE_DEPENDS_ON)
def page_detail(request: HttpRequest, slug: str) -> HttpResponse:
    article = presenters.page_article(slug, _lang())
    return render(request, "wiki/page_detail.html", {"article": article})


def _history(
    request: HttpRequest, page: Page, page_number: int, errors: list[str], status: int = 200
) -> HttpResponse:
    view = presenters.history(page, _lang(), public_revisions_of(page), page_number)
    context = {"history": view, "errors": errors}
    return render(request, "wiki/page_history.html", context, status=status)


@require_safe
@cached_page(depends_on=("wiki",), params=tuple(PageNumberForm.base_fields))
def page_history(request: HttpRequest, slug: str) -> HttpResponse:
    page = get_published_page(slug)
    form = PageNumberForm(request.GET)
    valid = form.is_valid()  # a bad page number: the first page, with the message
    return _history(request, page, form.number, errors_text(form), 200 if valid else 400)


@require_safe
@cached_page(depends_on=("wiki",), params=("from", "to"))
def page_diff(request: HttpRequest, slug: str) -> HttpResponse:
    page = get_published_page(slug)
    form = RevisionRangeForm(request.GET)
    if not form.is_valid():
        # The history again, with the message: the visitor picks two revisions there.
        return _history(request, page, 1, errors_text(form), status=400)
    old_no, new_no = form.numbers
    revisions = public_revisions_of(page)
    old, new = get_revision(revisions, old_no), get_revision(revisions, new_no)
    diff = presenters.revision_diff(page, _lang(), old, new)
    return render(request, "wiki/page_diff.html", {"diff": diff})


@require_safe
@cached_page(depends_on=("wiki",), params=tuple(SearchForm.base_fields))
def search_view(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    valid = form.is_valid()  # a bad page number: the first page, with the message
    view = presenters.search_results(form.cleaned_data.get("q", ""), _lang(), form.number)
    return render_page(
        request,
        "wiki/search_results.html",
        {"search": view, "query": view.query, "errors": errors_text(form)},
        partial="results",
        status=200 if valid else 400,
    )
