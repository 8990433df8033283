"""A page as the reader sees it: texts in their language, rendered body, table of contents.

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
from dataclasses import dataclass
from pathlib import Path

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from .models import Page
from .rendering import (
    Heading,
    UrlResolver,
    WikiLink,
    extract_headings,
    fill_live_macros,
    render_markdown,
)
from .selectors import DEFAULT_LANGUAGE, LocalizedText, PageDirectory, localized

RENDERER_REVISION = "1"
CACHE_SECONDS = 60 * 60 * 24


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
    missing_links: tuple[WikiLink, ...]

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


def cache_key(page: Page, lang: str, directory: PageDirectory) -> str:
    updated = page.updated_at.timestamp() if page.updated_at else 0
    raw = f"{page.pk}:{page.revision_number}:{updated}:{lang}:{directory.version}:{RENDER_VERSION}"
    return "wiki:body:" + hashlib.sha256(raw.encode()).hexdigest()[:32]


def render_body(page: Page, lang: str, directory: PageDirectory) -> dict:
    """Render the page's body for ``lang`` (uncached): a dict, ready for the cache."""
    body = localized(page, "body", lang)
    alias_source: tuple[Heading, ...] = ()
    if body.lang != DEFAULT_LANGUAGE:
        alias_source = extract_headings(getattr(page, f"body_{DEFAULT_LANGUAGE}", "") or "")
    resolver = UrlResolver(directory.published_titles(), url_lang=lang)
    rendered = render_markdown(
        body.value, lang=body.lang, resolver=resolver, alias_source=alias_source
    )
    return {
        "html": rendered.html,
        "body_lang": body.lang,
        "body_fallback": body.fallback,
        "toc": [(h.level, h.id, h.text) for h in rendered.headings if h.level <= 3],
        "missing": [(w.slug, w.anchor, w.text) for w in rendered.missing_links],
        "live": list(rendered.live_macros),
    }


def page_view(page: Page, lang: str, directory: PageDirectory) -> PageView:
    key = cache_key(page, lang, directory)
    data = cache.get(key)
    if data is None:
        data = render_body(page, lang, directory)
        cache.set(key, data, CACHE_SECONDS)
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
        missing_links=tuple(WikiLink(s, a, t) for s, a, t in data["missing"]),
    )


def preview(
    title: str, summary: str, body: str, lang: str, directory: PageDirectory, english_body: str = ""
) -> dict:
    """Render unsaved text (the admin's preview): never cached."""
    alias_source = extract_headings(english_body) if lang != DEFAULT_LANGUAGE else ()
    rendered = render_markdown(
        body,
        lang=lang,
        resolver=UrlResolver(directory.published_titles(), url_lang=lang),
        alias_source=alias_source,
    )
    html = fill_live_macros(rendered.html, rendered.live_macros, lang)
    return {
        "title": title,
        "summary": summary,
        "html": mark_safe(html),  # sanitised by wiki.rendering.sanitize
        "toc": [h for h in rendered.headings if h.level <= 3],
        "missing_links": rendered.missing_links,
        "unknown_macros": rendered.unknown_macros,
    }
