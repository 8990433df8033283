"""Reading wiki pages: what the public may see, in which language, and the page directory.

Display never relies on modeltranslation's silent fallback: ``core.translated.localized`` reads the
``_<lang>`` column itself and says when it had to fall back to English.
"""

from __future__ import annotations

from collections.abc import Iterable, KeysView
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from core.memo import memo

from .models import Page, PageRevision, Section

DEFAULT_LANGUAGE = settings.MODELTRANSLATION_DEFAULT_LANGUAGE
LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)
TRANSLATED_FIELDS = ("title", "summary", "body")


@dataclass(frozen=True, slots=True)
class DirectoryEntry:
    slug: str
    titles: dict[str, str]
    published: bool


@dataclass(frozen=True, slots=True)
class PageDirectory:
    """Every page's slug, titles and state, from one query.

    ``version`` changes whenever any page is saved, added or deleted: it is part of the
    render cache key, because a page's links depend on which other pages exist.
    """

    entries: dict[str, DirectoryEntry]
    version: str
    #: ``{slug: {lang: title}}`` of the published pages (what links resolve against).
    published: dict[str, dict[str, str]] = field(default_factory=dict)

    def published_titles(self) -> dict[str, dict[str, str]]:
        return self.published


def read_page_directory() -> PageDirectory:
    """The directory as the database has it now (one query over every page's row): for
    the admin, whose checks must see a page created a moment ago in another process."""
    fields = ["slug", "published", "updated_at"] + [f"title_{code}" for code in LANGUAGE_CODES]
    rows = list(Page.objects.order_by().values(*fields))
    entries = {
        row["slug"]: DirectoryEntry(
            slug=row["slug"],
            titles={code: row[f"title_{code}"] or "" for code in LANGUAGE_CODES},
            published=row["published"],
        )
        for row in rows
    }
    latest = max((row["updated_at"] for row in rows), default=None)
    version = f"{len(rows)}:{latest.timestamp() if latest else 0}"
    published = {slug: e.titles for slug, e in entries.items() if e.published}
    return PageDirectory(entries, version, published)


#: What the public pages' directory (and everything built from it) is kept until.
DIRECTORY_DEPENDS_ON = ("wiki",)


def page_directory() -> PageDirectory:
    """The directory for public pages, kept in the process until the wiki's content
    version changes (``wiki.services`` bumps it on every save and delete): no query on a
    request, where reading every page's row took 6 ms at 1,000 pages."""
    return memo("wiki:directory", DIRECTORY_DEPENDS_ON, read_page_directory)


def published_pages() -> QuerySet[Page]:
    return Page.objects.filter(published=True)


#: What a search result shows of a page: not its bodies (a snippet's text is kept per
#: revision by ``wiki.search.page_snippet_text``, which reads a body only when it is not).
_RESULT_FIELDS = (
    "id",
    "slug",
    "revision_number",
    "updated_at",
    *(f"{name}_{code}" for name in ("title", "summary") for code in LANGUAGE_CODES),
)


def _result_rows() -> tuple[tuple[str, ...], dict[int, tuple]]:
    # Page.from_db takes the values of the fields it gets in the model's field order.
    names = tuple(f.attname for f in Page._meta.concrete_fields if f.attname in _RESULT_FIELDS)
    pk = names.index("id")
    rows = published_pages().order_by().values_list(*names)
    return names, {row[pk]: row for row in rows}


def published_page_ids() -> KeysView[int]:
    """The ids of the published pages, kept in the process per content version (what a
    search keeps of its hits)."""
    return _published_result_rows()[1].keys()


def _published_result_rows() -> tuple[tuple[str, ...], dict[int, tuple]]:
    return memo("wiki:result-rows", DIRECTORY_DEPENDS_ON, _result_rows)


def result_pages(ids: Iterable[int]) -> dict[int, Page]:
    """The published pages among ``ids`` with what a search result shows of them (their
    bodies are read when asked for), from rows kept in the process per content version:
    no query on a request, where loading each page whole was a sixth of a search."""
    names, rows = _published_result_rows()
    db = Page.objects.db
    return {pk: Page.from_db(db, names, rows[pk]) for pk in ids if pk in rows}


def get_published_page(slug: str) -> Page:
    """The published page ``slug`` with its published related pages (two queries), or 404."""
    related = Prefetch(
        "related", queryset=Page.objects.filter(published=True).order_by("section", "order", "slug")
    )
    page = published_pages().prefetch_related(related).filter(slug=slug).first()
    if page is None:
        raise Http404("No such page")
    return page


@dataclass(frozen=True, slots=True)
class SectionGroup:
    key: str
    label: str
    pages: list[Page]


def pages_by_section(pages: Iterable[Page]) -> list[SectionGroup]:
    """Pages grouped by section, in the sections' display order (empty sections left out)."""
    groups: dict[str, list[Page]] = {key: [] for key in Section.values}
    for page in pages:
        groups.setdefault(page.section, []).append(page)
    labels = dict(Section.choices)
    return [
        SectionGroup(key, str(labels.get(key, key)), sorted(items, key=lambda p: (p.order, p.slug)))
        for key, items in groups.items()
        if items
    ]


def revisions_of(page: Page) -> QuerySet[PageRevision]:
    """Every revision of a page, newest first (the admin's history)."""
    return page.revisions.select_related("author").order_by("-number")


def public_revisions_of(page: Page) -> QuerySet[PageRevision]:
    """The revisions the public may read, newest first: those saved while the page was
    published. A draft written before the page was first published, or while it was
    unpublished, stays in the admin's history only."""
    return revisions_of(page).filter(snapshot__published=True)


def get_revision(revisions: QuerySet[PageRevision], number: int) -> PageRevision:
    """Revision ``number`` among ``revisions`` (``revisions_of`` or ``public_revisions_of``)."""
    revision = revisions.filter(number=number).first()
    if revision is None:
        raise Http404("No such revision")
    return revision
