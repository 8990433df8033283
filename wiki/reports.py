"""Health of the wiki's text: links to pages, sections or addresses that do not exist, and
unknown macros.

Both kinds of internal link are checked: wiki links (``[[slug#section]]``) and Markdown
links to the site's own paths (``[text](/en/wiki/energy/#costs)``, ``[text](../energy/)``,
``[text](#costs)``), resolved as a visitor's browser would from the page's address.

Shown to editors on an admin page and checked by the tests on the shipped content.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import Resolver404, ResolverMatch, resolve, reverse
from django.utils import translation
from django.utils.translation import gettext as _

from . import macros
from .models import Page
from .rendering import (
    anchor_ids,
    extract_headings,
    extract_links,
    extract_macros,
    extract_markdown_links,
)
from .selectors import DEFAULT_LANGUAGE, LANGUAGE_CODES

MISSING_PAGE = "missing_page"
UNPUBLISHED_PAGE = "unpublished_page"
MISSING_SECTION = "missing_section"
MISSING_ADDRESS = "missing_address"


@dataclass(frozen=True, slots=True)
class LinkProblem:
    page: Page
    lang: str
    target: str
    anchor: str | None
    text: str | None
    problem: str
    #: The address of a Markdown link as written (None for a wiki link).
    href: str | None = None

    @property
    def problem_label(self) -> str:
        return {
            MISSING_PAGE: _("no such page"),
            UNPUBLISHED_PAGE: _("page not published"),
            MISSING_SECTION: _("no such section on that page"),
            MISSING_ADDRESS: _("no such address on this site"),
        }[self.problem]

    @property
    def written(self) -> str:
        if self.href is not None:
            return f"[{self.text or ''}]({self.href})"
        target = f"{self.target}#{self.anchor}" if self.anchor else self.target
        return f"[[{target}|{self.text}]]" if self.text else f"[[{target}]]"


@dataclass(frozen=True, slots=True)
class MacroProblem:
    page: Page
    lang: str
    name: str


def _anchors(page: Page) -> set[str]:
    english = getattr(page, f"body_{DEFAULT_LANGUAGE}", "") or ""
    ids = anchor_ids(english)
    source = extract_headings(english)
    for code in LANGUAGE_CODES:
        if code != DEFAULT_LANGUAGE:
            ids |= anchor_ids(getattr(page, f"body_{code}", "") or "", alias_source=source)
    return ids


class _Pages:
    """Every page by slug, with each one's anchors worked out once when first asked."""

    def __init__(self) -> None:
        self.by_slug = {p.slug: p for p in Page.objects.all()}
        self._anchors: dict[str, set[str]] = {}

    def problem(self, slug: str, anchor: str | None) -> str | None:
        """What is wrong with a link to ``slug#anchor`` (None: nothing)."""
        target = self.by_slug.get(slug)
        if target is None:
            return MISSING_PAGE
        if not target.published:
            return UNPUBLISHED_PAGE
        if anchor:
            if slug not in self._anchors:
                self._anchors[slug] = _anchors(target)
            if anchor not in self._anchors[slug]:
                return MISSING_SECTION
        return None


def _resolve(path: str, lang: str) -> ResolverMatch | None:
    """The view a site path leads to, as a visitor's request would find it (an address
    without a language prefix is redirected to one), or None."""
    first = path.lstrip("/").split("/", 1)[0]
    prefixed = first in LANGUAGE_CODES
    with translation.override(first if prefixed else lang):
        for candidate in (path,) if prefixed else (path, f"/{lang}{path}"):
            try:
                return resolve(candidate)
            except Resolver404:
                continue
    return None


def _address_problem(page: Page, lang: str, href: str, pages: _Pages) -> str | None:
    """What is wrong with a Markdown link to ``href`` on ``page`` in ``lang`` (None: nothing;
    off-site links are not checked)."""
    written = urlsplit(href)
    if written.scheme or written.netloc:
        return None
    with translation.override(lang):
        here = reverse("wiki:page", kwargs={"slug": page.slug})
    address = urlsplit(urljoin(here, href))
    path = unquote(address.path)
    static_prefix = "/" + settings.STATIC_URL.lstrip("/")
    if path.startswith(static_prefix):
        return None if finders.find(path[len(static_prefix) :]) else MISSING_ADDRESS
    match = _resolve(path, lang)
    if match is None:
        return MISSING_ADDRESS
    if match.view_name == "wiki:page":
        return pages.problem(match.kwargs["slug"], unquote(address.fragment) or None)
    return None


def link_problems(pages: Iterable[Page] | None = None) -> list[LinkProblem]:
    """Every internal link that leads nowhere (or to a hidden page or a missing section):
    wiki links and Markdown links to the site's own paths."""
    everything = _Pages()
    checked = list(pages) if pages is not None else list(everything.by_slug.values())
    problems: list[LinkProblem] = []
    for page in sorted(checked, key=lambda p: p.slug):
        for code in LANGUAGE_CODES:
            body = getattr(page, f"body_{code}", "") or ""
            for link in extract_links(body):
                if link.card is not None:
                    continue
                problem = everything.problem(link.slug, link.anchor)
                if problem:
                    problems.append(
                        LinkProblem(page, code, link.slug, link.anchor, link.text, problem)
                    )
            for markdown in extract_markdown_links(body):
                problem = _address_problem(page, code, markdown.href, everything)
                if problem:
                    problems.append(
                        LinkProblem(
                            page, code, markdown.href, None, markdown.text, problem, markdown.href
                        )
                    )
    return problems


def macro_problems(pages: Iterable[Page] | None = None) -> list[MacroProblem]:
    """Every ``{{ macro }}`` outside code (on its own line or inside a paragraph, in a body
    or a summary) naming a macro nobody registered."""
    checked = list(pages) if pages is not None else list(Page.objects.order_by("slug"))
    return [
        MacroProblem(page, code, name)
        for page in checked
        for code in LANGUAGE_CODES
        for field in ("summary", "body")
        for name, _arg in extract_macros(getattr(page, f"{field}_{code}", "") or "")
        if macros.get_macro(name) is None
    ]
