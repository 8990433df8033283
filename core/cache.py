"""Whole-page HTML caching for pages that are the same for every visitor.

A page is rendered once per language, address (query string included), htmx mode and
content version, then served from the cache. Only the CSRF token differs between
visitors: it is rendered as a placeholder and filled in for each response, so every
visitor still gets their own token and the page still sets their CSRF cookie.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from . import versions

CSRF_PLACEHOLDER = "__card-codex-csrf-token__"
_FLAG = "_render_csrf_placeholder"
_KEPT_HEADERS = ("Content-Type", "Vary", "Content-Language")


def csrf_placeholder(request: HttpRequest) -> dict[str, str]:
    """Context processor: while a cacheable page renders, its CSRF token is a placeholder."""
    return {"csrf_token": CSRF_PLACEHOLDER} if getattr(request, _FLAG, False) else {}


def _cacheable(request: HttpRequest) -> bool:
    return request.method in ("GET", "HEAD") and "messages" not in request.COOKIES


def _key(request: HttpRequest, depends_on: tuple[str, ...]) -> str:
    htmx = getattr(request, "htmx", None)
    mode = "full"
    if htmx and not htmx.history_restore_request:
        mode = f"htmx:{htmx.target or ''}"
    raw = "\n".join(
        (get_language() or "", request.get_full_path(), mode, versions.current(*depends_on))
    )
    return "page:" + hashlib.sha256(raw.encode()).hexdigest()


def _with_token(request: HttpRequest, content: bytes) -> bytes:
    if CSRF_PLACEHOLDER.encode() not in content:
        return content
    return content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())


def cached_page(*, depends_on: tuple[str, ...] = ()) -> Callable:
    """Cache a GET view's 200 responses until one of ``depends_on`` versions changes.

    ``settings.PAGE_CACHE_SECONDS`` bounds an entry's life; 0 turns the cache off (the
    development server, where templates change under a running process).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            timeout = settings.PAGE_CACHE_SECONDS
            if timeout <= 0 or not _cacheable(request):
                return view(request, *args, **kwargs)
            key = _key(request, depends_on)
            hit = cache.get(key)
            if hit is not None:
                content, headers = hit
                response = HttpResponse(_with_token(request, content))
                for name, value in headers:
                    response[name] = value
                return response
            setattr(request, _FLAG, True)
            try:
                response = view(request, *args, **kwargs)
            finally:
                setattr(request, _FLAG, False)
            if response.status_code == 200 and not response.streaming:
                headers = [(h, response[h]) for h in _KEPT_HEADERS if h in response]
                cache.set(key, (response.content, headers), timeout)
            response.content = _with_token(request, response.content)
            return response

        return wrapper

    return decorator
