"""The sitemaps' kit: each feature app's ``sitemaps.py`` builds its sections on these, and
the top floor (``sharing``) gathers them into /sitemap.xml.

Every URL is listed in each language with its ``hreflang`` alternates (and x-default, the
address without a language prefix, which sends a visitor to their language). Items are a
queryset of values ordered by primary key, and a page of a section reads only its own
slice (one LIMIT/OFFSET query), never the whole table; sections that may grow to millions
(cards) are split by key range so no OFFSET goes past one file's worth of rows.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.core.paginator import Paginator
from django.urls import reverse
from django.utils import translation
from django.utils.functional import cached_property

from . import versions

__all__ = ["LazyPairs", "ModelSitemap", "RouteSitemap", "VersionedSitemap"]


class LazyPairs:
    """``(item, language)`` pairs of a queryset, read a slice at a time: what Django's
    ``Sitemap._items`` builds as a list of every row, read only as far as a page needs."""

    def __init__(self, items: Any, languages: Sequence[str]) -> None:
        self.items, self.languages = items, list(languages)
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            items = self.items
            self._count = items.count() if hasattr(items, "query") else len(items)
        return self._count * len(self.languages)

    def __getitem__(self, index: slice) -> list[tuple[Any, str]]:
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        n = len(self.languages)
        start, stop = index.start or 0, len(self) if index.stop is None else index.stop
        first, last = start // n, math.ceil(stop / n)
        pairs = [(item, code) for item in self.items[first:last] for code in self.languages]
        offset = start - first * n
        return pairs[offset : offset + (stop - start)]


class VersionedSitemap(Sitemap):
    """Every language, its alternates and x-default; lastmod from the content versions."""

    i18n = True
    alternates = True
    x_default = True
    depends_on: tuple[str, ...] = ()

    @property
    def paginator(self) -> Paginator:
        return Paginator(LazyPairs(self.items(), self._languages()), self.limit)

    @cached_property
    def version_changed(self) -> dt.datetime | None:
        """When ``depends_on`` last changed: read once per sitemap, not once per URL."""
        return versions.changed(*self.depends_on) if self.depends_on else None

    def lastmod(self, item: Any) -> dt.datetime | None:
        return self.version_changed

    def get_latest_lastmod(self) -> dt.datetime | None:
        return self.version_changed

    def _urls(self, page: int | str, protocol: str, domain: str) -> list[dict[str, Any]]:
        """Django's URL entries, each item's address worked out once per language (Django
        switches the language and reverses once per URL and alternate: 4 times an item, a
        minute and a half for a file of 50,000 URLs)."""
        origin = f"{protocol}://{domain}"
        pairs = self.paginator.page(page).object_list
        items = list(dict.fromkeys(item for item, _code in pairs))
        languages = self._languages()
        paths: dict[str, list[str]] = {}
        for code in languages:
            with translation.override(code):
                paths[code] = [self.location(item) for item in items]
        default = settings.LANGUAGE_CODE
        where = {item: i for i, item in enumerate(items)}
        urls = []
        for item, code in pairs:
            i = where[item]
            alternates = [{"location": origin + paths[c][i], "lang_code": c} for c in languages]
            if self.x_default and default in paths:
                bare = paths[default][i].replace(f"/{default}/", "/", 1)
                alternates.append({"location": origin + bare, "lang_code": "x-default"})
            urls.append(
                {
                    "item": (item, code),
                    "location": origin + paths[code][i],
                    "lastmod": self.lastmod(item),
                    "changefreq": None,
                    "priority": "",
                    "alternates": alternates,
                }
            )
        return urls


class RouteSitemap(VersionedSitemap):
    """Pages without arguments, by URL name (``"wiki:index"``)."""

    def __init__(self, names: Sequence[str], depends_on: tuple[str, ...] = ()) -> None:
        self.names, self.depends_on = list(names), depends_on

    def items(self) -> list[str]:
        return self.names

    def location(self, item: str) -> str:
        return reverse(item)


class ModelSitemap(VersionedSitemap):
    """Rows of a model: ``items`` a queryset of values ordered by key, ``path(item)`` the
    page's path in the active language, ``dated(item)`` its own last change (if any)."""

    path: Callable[[Any], str]
    dated: Callable[[Any], dt.datetime | None] | None = None

    def location(self, item: Any) -> str:
        return type(self).path(item)

    def lastmod(self, item: Any) -> dt.datetime | None:
        dated = type(self).dated
        own = dated(item) if dated is not None else None
        version = self.version_changed
        return max((t for t in (own, version) if t is not None), default=None)
