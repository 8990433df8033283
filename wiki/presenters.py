"""What the wiki's templates show, assembled: typed views of pages, lists, history, diffs
and search results, in the visitor's language.

A page as the reader sees it: texts in their language, rendered body, table of contents.

Rendered HTML is cached per page revision and language. The key also holds the page's
``updated_at`` (any save, even one that bypassed the services), the page directory's
version (links depend on which pages exist and their titles) and ``RENDER_VERSION``
(a hash of the engine's data module and of this renderer's version, so a deploy that
changes a rule number changes every table).

Live macros (``collection_stats``…, which read the database) are not in the cached
HTML: it holds placeholders that are filled on every view, so those tables are never
stale and the cache never needs invalidating when the collection changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.paginator import Page as ListPage
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_info, ngettext, pgettext

from core.forms import shorten
from core.memo import shared
from core.translated import LocalizedText, localized

from . import search
from .diff import FieldDiff, diff_snapshots
from .models import Page, PageRevision
from .rendering import (
    LIVE_DEPENDS_ON,
    Heading,
    UrlResolver,
    WikiLink,
    extract_headings,
    fill_live_macros,
    render_markdown,
)
from .selectors import (
    DEFAULT_LANGUAGE,
    PageDirectory,
    get_published_page,
    page_directory,
    pages_by_section,
    published_page_ids,
    published_pages,
    result_pages,
)
from .validation import content_problems, size_problems, unknown_macro_problems

RENDERER_REVISION = "2"
CACHE_SECONDS = 60 * 60 * 24
REVISIONS_PER_PAGE = 50
RESULTS_PER_PAGE = 10


def _render_version() -> str:
    digest = hashlib.sha256(RENDERER_REVISION.encode())
    try:
        import engine.data

        digest.update(Path(engine.data.__file__).read_bytes())
    except (ImportError, OSError):  # pragma: no cover - the engine is part of the project
        pass
    return digest.hexdigest()[:12]


RENDER_VERSION = _render_version()


@dataclass(frozen=True, slots=True)
class PageView:
    """Everything the page template shows, in the visitor's language where it exists."""

    page: Page
    lang: str
    title: LocalizedText
    summary: LocalizedText
    body_lang: str
    body_fallback: bool
    html: SafeString
    toc: tuple[Heading, ...]

    @property
    def untranslated(self) -> bool:
        return self.body_fallback or self.title.fallback or self.summary.fallback

    @property
    def toc_tree(self) -> list[tuple[Heading, list[Heading]]]:
        """``##`` headings, each with the ``###`` headings under it."""
        tree: list[tuple[Heading, list[Heading]]] = []
        for heading in self.toc:
            if heading.level == 2 or not tree:
                tree.append((heading, []))
            else:
                tree[-1][1].append(heading)
        return tree


def _body_parts(page: Page, lang: str) -> tuple[object, ...]:
    """What the rendered body is kept by: the page's own revision and save time, the
    language and the renderer. The other pages it links to are checked on reading
    (``_links_current``), so an edit elsewhere re-renders only the pages whose links it
    changes."""
    updated = page.updated_at.timestamp() if page.updated_at else 0
    return (BODY_FORMAT, page.pk, page.revision_number, updated, lang, RENDER_VERSION)


#: Bump when the cached body's shape changes.
BODY_FORMAT = "2"


class _RecordingResolver(UrlResolver):
    """A resolver that notes each page title the renderer asked for (None: no such page)."""

    def __init__(self, titles, url_lang: str) -> None:
        super().__init__(titles, url_lang)
        self.asked: dict[tuple[str, str], str | None] = {}

    def page_title(self, slug: str, lang: str) -> str | None:
        title = super().page_title(slug, lang)
        self.asked[(slug, lang)] = title
        return title


def render_body(page: Page, lang: str, directory: PageDirectory) -> dict:
    """Render the page's body for ``lang`` (uncached): a dict, ready for the cache, with
    the titles of the pages it links to as they were (``links``)."""
    body = localized(page, "body", lang)
    alias_source: tuple[Heading, ...] = ()
    if body.lang != DEFAULT_LANGUAGE:
        alias_source = extract_headings(getattr(page, f"body_{DEFAULT_LANGUAGE}", "") or "")
    resolver = _RecordingResolver(directory.published_titles(), url_lang=lang)
    rendered = render_markdown(
        body.value, lang=body.lang, resolver=resolver, alias_source=alias_source
    )
    return {
        "html": rendered.html,
        "body_lang": body.lang,
        "body_fallback": body.fallback,
        "toc": [(h.level, h.id, h.text) for h in rendered.headings if h.level <= 3],
        "live": list(rendered.live_macros),
        "links": [
            (slug, title_lang, title) for (slug, title_lang), title in resolver.asked.items()
        ],
    }


def _links_current(data: dict, directory: PageDirectory) -> bool:
    """Whether every page the body links to still has the title (or absence) it had."""
    links = data.get("links")
    if not links:
        return links is not None
    resolver = UrlResolver(directory.published_titles(), url_lang="en")
    return all(resolver.page_title(slug, lang) == title for slug, lang, title in links)


def page_view(page: Page, lang: str, directory: PageDirectory) -> PageView:
    data = shared(
        "wiki:body",
        (),
        _body_parts(page, lang),
        lambda: render_body(page, lang, directory),
        CACHE_SECONDS,
        valid=lambda kept: _links_current(kept, directory),
    )
    html = fill_live_macros(data["html"], data["live"], data["body_lang"])
    return PageView(
        page=page,
        lang=lang,
        title=localized(page, "title", lang),
        summary=localized(page, "summary", lang),
        body_lang=data["body_lang"],
        body_fallback=data["body_fallback"],
        html=mark_safe(html),  # sanitised by wiki.rendering.sanitize
        toc=tuple(Heading(level, hid, text) for level, hid, text in data["toc"]),
    )


#: What a page's article shows: the wiki and what its live tables read.
ARTICLE_DEPENDS_ON = ("wiki", *LIVE_DEPENDS_ON)
#: Bump when the article's shape in the cache changes.
ARTICLE_FORMAT = "1"


@dataclass(frozen=True, slots=True)
class ArticleView:
    """A page's title, summary and article (``wiki/partials/page_article.html``: the
    breadcrumbs, header, contents, body and related pages), rendered."""

    title: str
    summary: str
    html: SafeString


def page_article(slug: str, lang: str) -> ArticleView:
    """The published page ``slug`` as the reader of ``lang`` sees it, or 404.

    The article depends on nothing but the content, so it is rendered once per language
    and content version (``ARTICLE_DEPENDS_ON``: a staff edit bumps ``wiki`` and shows at
    once, in both languages) and then read from the cache with no query at all; the page
    around it (header, language switch, CSRF token) is the visitor's own. Under
    ``DEBUG`` it is rendered every time, so template edits show on the development server.
    """

    def build() -> tuple[str, str, str]:
        page = get_published_page(slug)
        view = page_view(page, lang, page_directory())
        related = page_links(page.related.all(), lang)
        html = render_to_string(
            "wiki/partials/page_article.html", {"view": view, "related": related}
        )
        return (view.title.value, view.summary.value, html)

    parts = (ARTICLE_FORMAT, slug, lang, RENDER_VERSION)
    if settings.DEBUG:
        found = build()
    else:
        found = shared("wiki:article", ARTICLE_DEPENDS_ON, parts, build, CACHE_SECONDS)
    title, summary, html = found
    return ArticleView(title, summary, mark_safe(html))  # a template's output, body sanitised


@dataclass(frozen=True, slots=True)
class PreviewView:
    """Unsaved text as it would read, and why it could not be saved as it is."""

    title: str
    summary: str
    html: SafeString
    toc: tuple[Heading, ...]
    missing_links: tuple[WikiLink, ...]
    problems: tuple[str, ...]


def preview(
    title: str,
    summary: str,
    body: str,
    lang: str,
    directory: PageDirectory,
    english_body: str = "",
    messages_lang: str | None = None,
) -> PreviewView:
    """Render unsaved text (the admin's preview): never cached. A body past the limits is
    not rendered at all: the preview only says what is wrong with it; an English body
    past them gives a translation no anchor aliases. The problems are
    worded in ``messages_lang`` (the editor's), the page in the active language."""
    from django.utils import translation

    with translation.override(messages_lang or translation.get_language()):
        too_big = size_problems(body)
    if too_big:
        return PreviewView(title, summary, mark_safe(""), (), (), tuple(too_big))
    resolver = UrlResolver(directory.published_titles(), url_lang=lang)
    # The English headings give a translation's anchors their aliases. An English body
    # past the limits could not be saved: it is not parsed (700 KB took 14 s).
    alias_source = (
        extract_headings(english_body)
        if lang != DEFAULT_LANGUAGE and not size_problems(english_body)
        else ()
    )
    rendered = render_markdown(body, lang=lang, resolver=resolver, alias_source=alias_source)
    html = fill_live_macros(rendered.html, rendered.live_macros, lang)
    with translation.override(messages_lang or translation.get_language()):
        problems = tuple(
            unknown_macro_problems(summary) + content_problems(body, lang=lang, resolver=resolver)
        )
    return PreviewView(
        title=title,
        summary=summary,
        html=mark_safe(html),  # sanitised by wiki.rendering.sanitize
        toc=tuple(h for h in rendered.headings if h.level <= 3),
        missing_links=rendered.missing_links,
        problems=problems,
    )


# ---------------------------------------------------------------------------
# Lists of pages


@dataclass(frozen=True, slots=True)
class PageLink:
    """A page in a list: where it goes and its title/summary in the visitor's language."""

    page: Page
    title: LocalizedText
    summary: LocalizedText

    @property
    def url(self) -> str:
        return self.page.get_absolute_url()


def page_link(page: Page, lang: str) -> PageLink:
    return PageLink(page, localized(page, "title", lang), localized(page, "summary", lang))


def page_links(pages: Iterable[Page], lang: str) -> list[PageLink]:
    return [page_link(page, lang) for page in pages]


@dataclass(frozen=True, slots=True)
class IndexSection:
    """A section of the wiki index with its published pages."""

    key: str
    label: str
    links: tuple[PageLink, ...]


def index_sections(lang: str) -> list[IndexSection]:
    """The wiki index: every published page, grouped by section in display order."""
    return [
        IndexSection(group.key, group.label, tuple(page_links(group.pages, lang)))
        for group in pages_by_section(published_pages())
    ]


# ---------------------------------------------------------------------------
# History and diffs


@dataclass(frozen=True, slots=True)
class RevisionRow:
    """A revision in a history list, with the revision before it in that list (or None)."""

    revision: PageRevision
    previous: int | None
    current: bool


@dataclass(frozen=True, slots=True)
class HistoryView:
    """One page of a page's history, newest first."""

    page: Page
    title: LocalizedText
    rows: tuple[RevisionRow, ...]
    pages: ListPage

    @property
    def comparable(self) -> bool:
        """Two revisions or more: there is something to compare."""
        return self.pages.paginator.count > 1


def history(
    page: Page, lang: str, revisions: QuerySet[PageRevision], page_number: int = 1
) -> HistoryView:
    """Page ``page_number`` of ``revisions`` (two small queries: the numbers, then the rows).

    ``previous`` is the next older revision *in ``revisions``*, so the public history's
    "changes" links skip the drafts it does not show.
    """
    numbers = list(revisions.values_list("number", flat=True))
    listing = Paginator(numbers, REVISIONS_PER_PAGE).get_page(page_number)
    shown = list(listing.object_list)
    by_number = {revision.number: revision for revision in revisions.filter(number__in=shown)}
    start = listing.start_index() - 1 if shown else 0
    rows = tuple(
        RevisionRow(
            revision=by_number[number],
            previous=numbers[start + i + 1] if start + i + 1 < len(numbers) else None,
            current=number == page.revision_number,
        )
        for i, number in enumerate(shown)
        if number in by_number
    )
    return HistoryView(page, localized(page, "title", lang), rows, listing)


@dataclass(frozen=True, slots=True)
class DiffView:
    """Two revisions of a page side by side."""

    page: Page
    title: LocalizedText
    old: PageRevision
    new: PageRevision
    diffs: tuple[FieldDiff, ...]


def revision_diff(page: Page, lang: str, old: PageRevision, new: PageRevision) -> DiffView:
    return DiffView(
        page,
        localized(page, "title", lang),
        old,
        new,
        tuple(diff_snapshots(old.snapshot, new.snapshot)),
    )


# ---------------------------------------------------------------------------
# Search


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A page found. ``link`` is in the visitor's language; when the words were found in
    the other language only, ``match_link`` gives the page's title in that language, so
    the snippet always sits under a title in its own language."""

    link: PageLink
    title_html: SafeString
    snippet: SafeString
    matched_lang: str
    other_language: bool
    match_link: PageLink | None = None
    match_title_html: SafeString | None = None

    @property
    def match_url(self) -> str:
        """The page in the language the words were found in."""
        from django.utils import translation

        with translation.override(self.matched_lang):
            return self.link.page.get_absolute_url()

    @property
    def matched_name(self) -> str:
        """The name of the language the words were found in, in the visitor's language."""
        return str(get_language_info(self.matched_lang)["name_translated"])


@dataclass(frozen=True, slots=True)
class SearchView:
    query: str
    searched: bool
    results: tuple[SearchResult, ...]
    pages: ListPage
    total: int
    #: Words no published page has: left out of the search.
    unknown: tuple[str, ...] = ()
    #: Words past the limit: left out of the search.
    dropped: tuple[str, ...] = ()
    #: The query with each unknown word replaced by a close word the pages have ("" if none).
    corrected: str = ""
    #: False when no page has every word, and the results have any of them.
    all_words: bool = True
    max_words: int = search.MAX_TERMS
    #: Function words ("how", «что»): not required of a page, so not searched.
    optional: tuple[str, ...] = ()

    @property
    def unknown_text(self) -> str:
        return quoted_words(self.unknown)

    @property
    def dropped_text(self) -> str:
        return quoted_words(self.dropped)

    @property
    def optional_text(self) -> str:
        return quoted_words(self.optional)

    @property
    def found(self) -> str:
        return ngettext("%(counter)s page found", "%(counter)s pages found", self.total) % {
            "counter": self.total
        }

    @property
    def query_shown(self) -> str:
        """The query as the page repeats it (shortened: a query may be long)."""
        return shorten(self.query)

    @property
    def corrected_shown(self) -> str:
        return shorten(self.corrected)

    @property
    def unknown_note(self) -> str:
        return ngettext(
            "No page has the word %(words)s, so the search left it out.",
            "No page has the words %(words)s, so the search left them out.",
            len(self.unknown),
        ) % {"words": self.unknown_text}

    @property
    def page_link(self) -> str:
        """This search's address up to its page number: "?q=…&page=" (or "?page=")."""
        return f"?q={quote(self.query, safe='/')}&page=" if self.query else "?page="

    @property
    def corrected_url(self) -> str:
        return f"{reverse('wiki:search')}?q={quote(self.corrected, safe='/')}"


def quoted_words(words: Iterable[str]) -> str:
    """Words in the visitor's quotation marks, comma-separated: “a”, “b” or «a», «b»."""
    return ", ".join(pgettext("quoted word", "“%(word)s”") % {"word": shorten(w)} for w in words)


def _asks(hit: search.Hit, page: Page, lang: str) -> tuple[str, list[search.Ask]]:
    """The language the result shows its match in, and what to highlight: the title in
    the visitor's language, the snippet (and the title) in the matched language."""
    # Show the match in the visitor's language when the page matched there too.
    matched = lang if lang in hit.langs else hit.langs[0]
    body_lang, body_text = search.page_snippet_text(page, matched)
    summary = localized(page, "summary", matched)
    title = localized(page, "title", lang)
    asks = [
        search.Ask(page.pk, "title", (("title", title.lang, title.value),)),
        search.Ask(
            page.pk,
            "snippet",
            (
                ("summary", summary.lang, summary.value),
                ("body", body_lang, body_text),
            ),
        ),
    ]
    if matched != lang:
        other = localized(page, "title", matched)
        asks.append(search.Ask(page.pk, "title", (("title", other.lang, other.value),)))
    return matched, asks


def _results(
    parsed: search.ParsedQuery, hits: Iterable[search.Hit], pages: dict[int, Page], lang: str
) -> tuple[SearchResult, ...]:
    """One page of results, highlighted by the database in one query."""
    shown = []
    asks: list[search.Ask] = []
    for hit in hits:
        page = pages.get(hit.page_id)
        if page is None:
            continue  # unpublished since the search began
        matched, page_asks = _asks(hit, page, lang)
        shown.append((page, matched, len(asks), len(page_asks)))
        asks += page_asks
    html = search.highlight_results(parsed, asks)
    out = []
    for page, matched, at, count in shown:
        other = matched != lang
        out.append(
            SearchResult(
                link=page_link(page, lang),
                title_html=html[at],
                snippet=html[at + 1],
                matched_lang=matched,
                other_language=other,
                match_link=page_link(page, matched) if other else None,
                match_title_html=html[at + 2] if count > 2 else None,
            )
        )
    return tuple(out)


def search_results(query: str, lang: str, page_number: int = 1) -> SearchView:
    """The published pages matching ``query``, best first, one page of results, with the
    words the search left out and a corrected query when one would find more."""
    parsed = search.parse_query(query, search.vocabulary()) if query.strip() else None
    if parsed is None or not (parsed.terms or parsed.unknown):
        listing = Paginator([], RESULTS_PER_PAGE).get_page(1)
        return SearchView(query=query, searched=False, results=(), pages=listing, total=0)
    found = search.find(parsed)
    # Which hits are published, then the shown page's pages (both kept per content
    # version): with 1,000 pages a search has up to 200 hits, and loading every body
    # took most of its time.
    published = published_page_ids()
    hits = [h for h in found.hits if h.page_id in published]
    listing = Paginator(hits, RESULTS_PER_PAGE).get_page(page_number)
    pages = result_pages(h.page_id for h in listing.object_list)
    return SearchView(
        query=query,
        searched=True,
        results=_results(parsed, listing.object_list, pages, lang),
        pages=listing,
        total=len(hits),
        unknown=parsed.unknown,
        dropped=parsed.dropped,
        corrected=parsed.corrected,
        all_words=found.all_words,
        optional=parsed.optional,
    )
