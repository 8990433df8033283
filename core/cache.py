"""Whole-page HTML caching for pages that are the same for every visitor (the page cache:
what the rest of the site keeps, and when it is cleared, is ``core.memo``'s docstring).

A page is rendered once per language, address, htmx mode and content version, then served
from the cache. Three rules keep that safe and bounded:

* **The address is the page's own.** ``cached_page(params=(…))`` names the query
  parameters the view reads; every other parameter is dropped before the view runs, and
  the key holds only the named ones (one value each, in the declared order). Junk such as
  ``?utm=…`` or ``?x1=…&x2=…`` neither makes a new entry nor reaches the page.
* **Variants are not kept when there is no end to them.** ``variants=False`` (the card
  page and its paths, whose parameters ask a what-if) stores only the bare address's page.
* **Bounded in bytes.** A body above ``PAGE_CACHE_MAX_BYTES`` is served but not kept, and
  the in-process cache (``BoundedLocMemCache``) evicts the least recently used entries to
  stay under its ``MAX_BYTES`` (a shared Redis is bounded by its own ``maxmemory``).
* **Only the CSRF token differs between visitors.** While a cacheable page renders, its
  token is a placeholder made for that one render (an HMAC of the deployment's secret and
  a random nonce: no content can know it); the entry records the byte offsets where the
  template put it, and each response gets the visitor's own token spliced in at exactly
  those offsets. Text that looks like a placeholder stays as it is, and any process of a
  deployment (with a shared Redis) serves any entry, since the entry carries its offsets.

The absolute links of a page (hreflang alternates) come from ``settings.SITE_ORIGIN``; when
it is empty (development, tests) they come from the request, and the key then holds the
request's origin too, so one visitor's ``Host`` header never reaches another.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import secrets
from collections.abc import Callable, Iterable, Iterator
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

from . import http_cache, versions
from .htmx import wants_partial
from .memo import memo

__all__ = ["BoundedLocMemCache", "cached_page", "csrf_placeholder", "memo", "page_key"]

_PLACEHOLDER = "_page_cache_csrf_placeholder"
_KEPT_HEADERS = ("Content-Type", "Vary", "Content-Language", "Cache-Control")
# Bump when the entry's shape changes: old entries (in a shared Redis) are then never read.
_FORMAT = "2"


def csrf_placeholder(request: HttpRequest) -> dict[str, str]:
    """Context processor: while a cacheable page renders, its CSRF token is a placeholder."""
    placeholder = getattr(request, _PLACEHOLDER, None)
    return {"csrf_token": placeholder} if placeholder else {}


def _new_placeholder() -> str:
    """A placeholder for one render: no page content can contain it by chance or design."""
    nonce = secrets.token_bytes(16)
    digest = hmac.new(
        settings.SECRET_KEY.encode(), b"card-codex:page-cache:csrf:" + nonce, hashlib.sha256
    )
    # Letters and digits only: nothing any template filter escapes or changes.
    return "csrf" + digest.hexdigest()[:40]


def _cacheable(request: HttpRequest) -> bool:
    return request.method in ("GET", "HEAD") and "messages" not in request.COOKIES


MAX_VALUES = 20  # values kept per parameter: more than any form of the site sends


def _canonical_query(
    request: HttpRequest, params: tuple[str, ...], lists: frozenset[str] = frozenset()
) -> QueryDict:
    """The request's parameters that the view reads, in ``params`` order: the last value of
    each, or, for a multiple choice (``lists``), its values in order (at most ``MAX_VALUES``)."""
    kept = QueryDict(mutable=True)
    for name in params:
        if name in request.GET:
            if name in lists:
                kept.setlist(name, request.GET.getlist(name)[:MAX_VALUES])
            else:
                kept[name] = request.GET[name]
    kept._mutable = False
    return kept


def _keep_only(
    request: HttpRequest, params: tuple[str, ...], lists: frozenset[str] = frozenset()
) -> None:
    """Drop every parameter the view does not read, so the page is the canonical address's."""
    query = _canonical_query(request, params, lists)
    request.GET = query
    request.META["QUERY_STRING"] = query.urlencode()


def page_key(request: HttpRequest, depends_on: tuple[str, ...]) -> str:
    """The cache key of the page ``request`` asks for (after ``_keep_only``)."""
    parts = [
        _FORMAT,
        get_language() or "",
        request.path,
        request.META.get("QUERY_STRING", ""),
        "htmx" if wants_partial(request) else "full",
        versions.current(*depends_on),
    ]
    if not settings.SITE_ORIGIN:
        # Absolute links come from the request's own scheme, host and port.
        parts.append(request.build_absolute_uri("/"))
    raw = "\n".join(parts)
    return "page:" + hashlib.sha256(raw.encode()).hexdigest()


def _marks(content: bytes, placeholder: bytes) -> tuple[int, ...]:
    found, at = [], content.find(placeholder)
    while at != -1:
        found.append(at)
        at = content.find(placeholder, at + len(placeholder))
    return tuple(found)


def _splice(content: bytes, marks: tuple[int, ...], width: int, token: bytes) -> bytes:
    """``content`` with ``token`` in place of the ``width`` bytes at each offset of ``marks``."""
    if not marks:
        return content
    pieces: list[bytes] = []
    start = 0
    for at in marks:
        pieces += (content[start:at], token)
        start = at + width
    pieces.append(content[start:])
    return b"".join(pieces)


def _streamed_with_token(chunks: Iterable[bytes], placeholder: bytes, token: bytes) -> Iterator:
    for chunk in chunks:
        yield chunk.replace(placeholder, token)


def _etag_of(key: str) -> str:
    """The entity tag of a cached page: its key's digest, which covers the address, the
    language and the content versions (so it changes exactly when the page can)."""
    return f'"{key[5:37]}"'


def cached_page(
    *,
    depends_on: tuple[str, ...] = (),
    params: Iterable[str] = (),
    lists: Iterable[str] = (),
    etag: bool = False,
    variants: bool = True,
) -> Callable:
    """Cache a GET view's 200 responses until one of ``depends_on`` versions changes.

    ``params`` names the query parameters the view reads (``tuple(Form.base_fields)`` for
    a view that reads one form); the others are dropped before the view runs. ``lists``
    names those among them that carry several values (a multiple choice).
    ``settings.PAGE_CACHE_SECONDS`` bounds an entry's life; 0 turns the cache off (the
    development server, where templates change under a running process).

    ``etag=True`` (the JSON API, whose bodies hold no CSRF token) gives each response the
    ETag of its key, and answers a matching ``If-None-Match`` with a 304 before the
    cache or the view is asked anything.

    ``variants=False`` keeps only the page at its bare address: with any of ``params``
    (a what-if of a card) the page is rendered each time and never stored. Their number is
    the product of every parameter's values, so one client could otherwise fill a shared
    Redis with pages nobody asks for twice (issue 26: 1 MB to 314 MB in 40 s). Those
    variants are not offered to a shared HTTP cache either.

    Every response it keeps (or would keep) is marked for the shared HTTP cache
    (``core.http_cache.shared``): ``Cache-Control: public``, a validator and cache tags
    naming ``depends_on``, unless something of the visitor went into it.
    """
    names = tuple(dict.fromkeys(params))
    multiple = frozenset(lists)

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                _keep_only(request, names, multiple)
            response = kept(request, *args, **kwargs)
            if _cacheable(request) and (variants or not request.GET):
                # The same for every visitor: a shared HTTP cache may keep it too, unless
                # the visitor's own (a CSRF token, the session) went in (core.http_cache).
                http_cache.shared(response, depends_on)
            return response

        def kept(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            timeout = settings.PAGE_CACHE_SECONDS
            if timeout <= 0 or not _cacheable(request) or (not variants and request.GET):
                return view(request, *args, **kwargs)
            key = page_key(request, depends_on)
            tag = _etag_of(key) if etag else None
            if tag is not None:
                unchanged = get_conditional_response(request, etag=tag)
                if unchanged is not None:
                    unchanged["ETag"] = tag
                    return unchanged
            hit = cache.get(key)
            if hit is not None:
                content, headers, marks, width = hit
                if marks:
                    content = _splice(content, marks, width, get_token(request).encode())
                response = HttpResponse(content)
                for name, value in headers:
                    response[name] = value
                if tag is not None:
                    response["ETag"] = tag
                return response
            if etag:
                # No CSRF token in these bodies: nothing to splice, no token to make.
                response = view(request, *args, **kwargs)
                if response.status_code == 200 and not response.streaming:
                    response["ETag"] = tag
                    if len(response.content) <= settings.PAGE_CACHE_MAX_BYTES:
                        headers = [(h, response[h]) for h in _KEPT_HEADERS if h in response]
                        cache.set(key, (response.content, headers, (), 0), timeout)
                return response
            placeholder = _new_placeholder()
            setattr(request, _PLACEHOLDER, placeholder)
            try:
                response = view(request, *args, **kwargs)
            finally:
                setattr(request, _PLACEHOLDER, None)
            mark = placeholder.encode()
            if response.streaming:
                response.streaming_content = _streamed_with_token(
                    response.streaming_content, mark, get_token(request).encode()
                )
                return response
            marks = _marks(response.content, mark)
            max_body = settings.PAGE_CACHE_MAX_BYTES
            if response.status_code == 200 and len(response.content) <= max_body:
                headers = [(h, response[h]) for h in _KEPT_HEADERS if h in response]
                if not marks and not response.has_header("ETag"):
                    # The shared HTTP cache's validators, made once here, not on each hit.
                    for name, value in http_cache.validators(response.content, depends_on):
                        response[name] = value
                        headers.append((name, value))
                cache.set(key, (response.content, headers, marks, len(mark)), timeout)
            if marks:
                # Only a page with a form makes the visitor a token (and a CSRF cookie).
                response.content = _splice(
                    response.content, marks, len(mark), get_token(request).encode()
                )
            return response

        setattr(wrapper, "page_params", names)  # noqa: B010  # read by the tests
        return wrapper

    return decorator


# ---------------------------------------------------------------------------
# The in-process cache, bounded in bytes as well as in entries

_sizes: dict[str, dict[str, int]] = {}
_totals: dict[str, list[int]] = {}


class BoundedLocMemCache(LocMemCache):
    """Django's per-process memory cache, also bounded by ``OPTIONS["MAX_BYTES"]``.

    Entries are kept pickled, so their size is known; a set that would pass the budget
    first evicts the least recently used entries, and a value larger than the whole budget
    is not kept. ``MAX_ENTRIES`` still applies.
    """

    def __init__(self, name: str, params: dict) -> None:
        super().__init__(name, params)
        options = params.get("OPTIONS") or {}
        self.max_bytes = int(options.get("MAX_BYTES", 64 * 1024 * 1024))
        self._sizes = _sizes.setdefault(name, {})
        self._total = _totals.setdefault(name, [0])

    @property
    def total_bytes(self) -> int:
        return self._total[0]

    def _set(self, key: str, value: bytes, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        self._delete(key)
        size = len(value)
        if size > self.max_bytes:
            return
        while self._cache and self._total[0] + size > self.max_bytes:
            self._evict_oldest()
        super()._set(key, value, timeout)
        self._sizes[key] = size
        self._total[0] += size

    def _evict_oldest(self) -> None:
        key, _value = self._cache.popitem()  # the least recently used (see LocMemCache)
        self._expire_info.pop(key, None)
        self._total[0] -= self._sizes.pop(key, 0)

    def _cull(self) -> None:
        if self._cull_frequency == 0:
            self._cache.clear()
            self._expire_info.clear()
            self._sizes.clear()
            self._total[0] = 0
            return
        for _ in range(len(self._cache) // self._cull_frequency):
            self._evict_oldest()

    def _delete(self, key: str) -> bool:
        if not super()._delete(key):
            return False
        self._total[0] -= self._sizes.pop(key, 0)
        return True

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        value = super().incr(key, delta, version)
        full = self.make_and_validate_key(key, version=version)
        with self._lock:
            if full in self._cache:
                size = len(pickle.dumps(value, self.pickle_protocol))
                self._total[0] += size - self._sizes.get(full, 0)
                self._sizes[full] = size
        return value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._sizes.clear()
            self._total[0] = 0
