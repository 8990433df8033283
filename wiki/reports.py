"""Health of the wiki's text: links to pages or sections that do not exist, unknown macros.

Shown to editors on an admin page and checked by the tests on the shipped content.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from . import macros
from .models import Page
from .rendering import anchor_ids, extract_headings, extract_links, extract_macros
from .selectors import DEFAULT_LANGUAGE, LANGUAGE_CODES

MISSING_PAGE = "missing_page"
UNPUBLISHED_PAGE = "unpublished_page"
MISSING_SECTION = "missing_section"


@dataclass(frozen=True, slots=True)
class LinkProblem:
    page: Page
    lang: str
    target: str
    anchor: str | None
    text: str | None
    problem: str

    @property
    def problem_label(self) -> str:
        return {
            MISSING_PAGE: _("no such page"),
            UNPUBLISHED_PAGE: _("page not published"),
            MISSING_SECTION: _("no such section on that page"),
        }[self.problem]

    @property
    def written(self) -> str:
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


def link_problems(pages: Iterable[Page] | None = None) -> list[LinkProblem]:
    """Every wiki link that leads nowhere (or to a hidden page or a missing section)."""
    everything = {p.slug: p for p in Page.objects.all()}
    checked = list(pages) if pages is not None else list(everything.values())
    anchors: dict[str, set[str]] = {}
    problems: list[LinkProblem] = []
    for page in sorted(checked, key=lambda p: p.slug):
        for code in LANGUAGE_CODES:
            for link in extract_links(getattr(page, f"body_{code}", "") or ""):
                if link.card is not None:
                    continue
                target = everything.get(link.slug)
                problem = None
                if target is None:
                    problem = MISSING_PAGE
                elif not target.published:
                    problem = UNPUBLISHED_PAGE
                elif link.anchor:
                    if target.slug not in anchors:
                        anchors[target.slug] = _anchors(target)
                    if link.anchor not in anchors[target.slug]:
                        problem = MISSING_SECTION
                if problem:
                    problems.append(
                        LinkProblem(page, code, link.slug, link.anchor, link.text, problem)
                    )
    return problems


def macro_problems(pages: Iterable[Page] | None = None) -> list[MacroProblem]:
    """Every ``{{ macro }}`` line naming a macro nobody registered."""
    checked = list(pages) if pages is not None else list(Page.objects.order_by("slug"))
    return [
        MacroProblem(page, code, name)
        for page in checked
        for code in LANGUAGE_CODES
        for name, _arg in extract_macros(getattr(page, f"body_{code}", "") or "")
        if macros.get_macro(name) is None
    ]
