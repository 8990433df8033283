"""The shared HTTP cache (Varnish, a CDN) in front of the site: one policy, one middleware.

Which responses a shared cache may keep is decided here and nowhere else:

* **Shared** — a GET/HEAD answered 200 (or 304) by a view of ``core.cache.cached_page``
  (which marks its response with the content versions it depends on, ``shared(…)``), and
  nothing of the visitor went into it: no cookie set (a CSRF token, a session, a message),
  the session not read, no ``Vary: Cookie``, no ``messages`` cookie sent. Such a response
  gets ``Cache-Control: public, max-age=HTTP_CACHE_MAX_AGE, s-maxage=HTTP_CACHE_S_MAXAGE``,
  an ``ETag`` (a digest of its body, unless the view set one) and a ``Last-Modified`` (the
  latest change of its content versions, or this process's start if later: a deploy may
  change the words), answers a matching conditional request with 304, and names its cache
  tags in ``xkey`` (``site`` and its content versions: ``cards``, ``wiki``…).
* **The visitor's own** — anything that set a cookie, read the session (a binder, a match,
  the admin, a signed-in user) or sent ``Vary: Cookie``: ``Cache-Control: private,
  no-store`` (and ``Vary: Cookie``), so no shared cache keeps it and no visitor is ever
  handed another's CSRF token, binder or match.
* **Everything else** (an unmarked page, an error page, a redirect) keeps what the view
  said, or gets ``Cache-Control: private`` when it said nothing: a shared cache keeps only
  what is declared shareable. What a view calls ``public`` for browsers without being
  marked (an API answer of no ``cached_page``, a card's picture) gets ``s-maxage=0``:
  nothing would purge it after a write, so a shared cache must not keep it.

The language is in every page's path (``/en/…``, ``/ru/…``): Django adds ``Vary:
Accept-Language`` only to the unprefixed redirect, which is not shared.

**Purge**: ``core.versions.bump(name)`` (every write) calls ``purge(name)`` once the write is
committed, and again ``versions.READ_SECONDS`` later (a process that read the old version
just before the write may have served the old page in between). ``purge`` sends
``BAN`` with ``xkey-purge: <tags>`` to each address of ``HTTP_CACHE_PURGE_URLS``
(``DJANGO_HTTP_CACHE_PURGE_URL``, comma-separated; unset: nothing is sent); the VCL
(docs/varnish/default.vcl) bans every object whose ``xkey`` holds one of the tags. A cache
that is down or refuses costs a logged warning, never the write.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import logging
import re
import threading
import urllib.parse
from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    has_vary_header,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date

__all__ = [
    "TAG_HEADER",
    "SharedCacheMiddleware",
    "etag_of",
    "purge",
    "purge_on_commit",
    "shared",
    "validators",
]

logger = logging.getLogger(__name__)

#: The response header naming a response's cache tags (Varnish's xkey convention).
TAG_HEADER = "xkey"
#: The tag every shared response carries: a deploy purges it (``manage.py purge_http_cache``).
SITE_TAG = "site"
_SHARED = "_shared_cache_tags"
_TAG = re.compile(r"^[A-Za-z0-9_.:-]+$")
_STARTED = timezone.now().replace(microsecond=0)


def shared(response: HttpResponseBase, depends_on: Iterable[str]) -> HttpResponseBase:
    """Mark ``response`` as the same for every visitor, depending on the content versions
    ``depends_on``: the middleware lets a shared cache keep it if nothing of the visitor
    went into it after all."""
    setattr(response, _SHARED, (SITE_TAG, *depends_on))
    return response


def etag_of(content: bytes) -> str:
    """A strong entity tag for a body: its digest (the page cache keeps it with the page)."""
    return f'"{hashlib.blake2b(content, digest_size=16).hexdigest()}"'


def validators(content: bytes, depends_on: Iterable[str]) -> list[tuple[str, str]]:
    """``ETag`` and ``Last-Modified`` of a shared page with body ``content`` that depends on
    the content versions ``depends_on``: made once when the page cache keeps the page, and
    served with every hit."""
    changed = _last_modified((SITE_TAG, *depends_on))
    return [("ETag", etag_of(content)), ("Last-Modified", http_date(changed.timestamp()))]


def _personal(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether anything of this visitor went into ``response``."""
    session = getattr(request, "session", None)
    return bool(
        response.cookies
        or (session is not None and session.accessed)
        or has_vary_header(response, "Cookie")
        or "messages" in request.COOKIES
        or response.has_header("Set-Cookie")
    )


def _last_modified(tags: tuple[str, ...]) -> dt.datetime:
    from . import versions

    changed = versions.changed(*[tag for tag in tags if tag != SITE_TAG])
    return max(changed, _STARTED) if changed is not None else _STARTED


def _share(request: HttpRequest, response: HttpResponse, tags: tuple[str, ...]) -> HttpResponse:
    patch_cache_control(
        response,
        public=True,
        max_age=settings.HTTP_CACHE_MAX_AGE,
        s_maxage=settings.HTTP_CACHE_S_MAXAGE,
    )
    response[TAG_HEADER] = " ".join(dict.fromkeys(tags))
    if has_vary_header(response, "HX-Request"):
        # htmx's history restore sends HX-Request too and needs the whole page.
        patch_vary_headers(response, ("HX-History-Restore-Request",))
    if response.status_code != 200:
        return response
    if not response.has_header("ETag") and not response.streaming:
        response["ETag"] = etag_of(response.content)
    if not response.has_header("Last-Modified"):
        response["Last-Modified"] = http_date(_last_modified(tags).timestamp())
    if "HTTP_IF_NONE_MATCH" not in request.META and "HTTP_IF_MODIFIED_SINCE" not in request.META:
        return response  # not a conditional request: nothing to compare
    unchanged = get_conditional_response(
        request,
        etag=response.get("ETag"),
        last_modified=_parsed_date(response.get("Last-Modified")),
        response=response,
    )
    if unchanged is not response and unchanged is not None:
        unchanged[TAG_HEADER] = response[TAG_HEADER]
        return unchanged
    return response


def _parsed_date(value: str | None) -> int | None:
    from django.utils.http import parse_http_date_safe

    return parse_http_date_safe(value) if value else None


def _says_public(response: HttpResponseBase) -> bool:
    directives = (
        part.strip().split("=")[0].lower() for part in response["Cache-Control"].split(",")
    )
    return "public" in directives


def _keep_private(response: HttpResponseBase) -> None:
    if TAG_HEADER in response:
        del response[TAG_HEADER]
    patch_cache_control(response, private=True, no_store=True)  # (drops "public")
    if "s-maxage" in response["Cache-Control"]:
        parts = response["Cache-Control"].split(",")
        kept = [p.strip() for p in parts if p.strip().split("=")[0].lower() != "s-maxage"]
        response["Cache-Control"] = ", ".join(kept)
    patch_vary_headers(response, ("Cookie",))


class SharedCacheMiddleware:
    """Apply the policy above to every response (it sits outside the session, CSRF and
    message middleware, so it sees every cookie they set)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        tags = getattr(response, _SHARED, None)
        if _personal(request, response):
            _keep_private(response)
        elif (
            tags is not None
            and request.method in ("GET", "HEAD")
            and response.status_code in (200, 304)
            and isinstance(response, HttpResponse)
        ):
            return _share(request, response, tags)
        elif not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True)
        elif _says_public(response) and "s-maxage" not in response["Cache-Control"]:
            # Public for browsers (an API answer, a picture), but nothing would purge it
            # from a shared cache after a write: it must not keep it.
            patch_cache_control(response, s_maxage=0)
        return response


# ---------------------------------------------------------------------------
# Purge


def _send_ban(url: str, tags: str) -> None:
    parts = urllib.parse.urlsplit(url)
    connection_class = (
        http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(
        parts.hostname or "127.0.0.1", parts.port, timeout=settings.HTTP_CACHE_PURGE_TIMEOUT
    )
    try:
        connection.request("BAN", parts.path or "/", headers={"xkey-purge": tags})
        answer = connection.getresponse()
        answer.read()
        if answer.status >= 300:
            logger.warning(
                "The HTTP cache at %s refused the purge of %s: %s", url, tags, answer.status
            )
    finally:
        connection.close()


def valid_tag(tag: str) -> bool:
    """Whether ``tag`` can be a cache tag (the VCL refuses anything else)."""
    return bool(_TAG.match(tag))


def purge(*tags: str) -> int:
    """Ask every HTTP cache of ``HTTP_CACHE_PURGE_URLS`` to drop the responses tagged with
    any of ``tags``; returns how many caches took it. A cache that is down is logged."""
    names = [tag for tag in dict.fromkeys(tags) if valid_tag(tag)]
    if not names or not settings.HTTP_CACHE_PURGE_URLS:
        return 0
    done = 0
    for url in settings.HTTP_CACHE_PURGE_URLS:
        try:
            _send_ban(url, " ".join(names))
        except OSError as error:
            logger.warning("The HTTP cache at %s could not be purged of %s: %s", url, names, error)
        else:
            done += 1
    return done


def purge_on_commit(*tags: str) -> None:
    """``purge(*tags)`` once the current transaction commits, and again after
    ``versions.READ_SECONDS`` (another process may have read the old version just before)."""
    if not settings.HTTP_CACHE_PURGE_URLS:
        return
    from .versions import READ_SECONDS

    def later() -> None:
        purge(*tags)
        timer = threading.Timer(READ_SECONDS + 0.5, purge, args=tags)
        timer.daemon = True
        timer.start()

    transaction.on_commit(later)
