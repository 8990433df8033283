"""Rate limits on what anonymous visitors create: match starts, arena matches, pack openings.

Each feature declares a ``Budget`` and calls ``admit(budget, request, create_session)``
(or ``count``) *before* it creates anything — a session included: a refused request
creates no row.
Requests are counted in the default cache in fixed windows of ``budget.window`` seconds:

- a visitor with a session: at most ``per_session`` in a window;
- a visitor without one yet (a first request, or a client that drops its cookie): at most
  ``per_new_visitor`` in a window per client address;
- every request counted above also draws on its address's ``per_address`` budget, larger
  than either, for the people behind one address (a school, an office, a NAT). A request
  its session (or the new-visitor bucket) refuses is not drawn from the address's budget,
  so one client spends at most ``per_session`` (or ``per_new_visitor``) of it per window
  and the others behind the address keep the rest. (A client that starts many sessions
  can still spend the address's budget: the address is the last line.)

Past a limit ``count`` raises ``RateLimited`` (a 429 page in the visitor's language, with
``Retry-After``) until the window ends.

The client address (``client_address``) is ``REMOTE_ADDR``. Behind a reverse proxy that
is the proxy's address, so list it in ``settings.TRUSTED_PROXIES`` (the
``DJANGO_TRUSTED_PROXIES`` environment variable: addresses or networks, comma-separated):
only for a request that comes from one of them is ``X-Forwarded-For`` read, from the right,
and the first address that is not a trusted proxy is the client's. From anyone else the
header is ignored (a client could write any address in it). With no trusted proxy behind a
proxy, every visitor shares the proxy's address budget.

When the cache fails (Redis down, full or slow) the limiter **fails open**: the request
is allowed and a warning is logged (``core.limits``). A cache outage then costs the limit,
not the site; the caps on what a session keeps (matches in progress) still hold.

The counters live in the default cache: with the per-process memory cache each worker
counts on its own (a multi-worker site should use Redis, ``DJANGO_CACHE_URL``).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.sessions import session_key

__all__ = ["Budget", "RateLimited", "admit", "client_address", "count", "too_many"]

log = logging.getLogger(__name__)

clock = time.time  # the counting windows' clock; tests hold it still


@dataclass(frozen=True)
class Budget:
    """How many of one thing (``name``: a cache-key part) a window allows."""

    name: str
    per_session: int
    per_new_visitor: int
    per_address: int
    window: int = 60


@dataclass
class RateLimited(Exception):
    """Too many requests: ``limit`` in ``window`` seconds; try again after
    ``retry_after`` seconds."""

    limit: int
    window: int
    retry_after: int


def _hit(budget: Budget, scope: str, ident: str, limit: int, now: float) -> RateLimited | None:
    window = int(now // budget.window)
    key = f"limits:{budget.name}:{scope}:{ident}:{window}"
    try:
        cache.add(key, 0, timeout=budget.window + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr: start counting again
            cache.set(key, 1, timeout=budget.window + 5)
            count = 1
    except Exception:  # the cache is down, full or slow: fail open (module docstring)
        log.warning(
            "rate limiter: cache error, allowing %s (%s)", budget.name, scope, exc_info=True
        )
        return None
    if count > limit:
        retry = max(1, int((window + 1) * budget.window - now) + 1)
        return RateLimited(limit, budget.window, retry)
    return None


def count(budget: Budget, session_key: str | None, address: str | None) -> None:
    """Count one request for this session (None: a visitor without one) and this address;
    ``RateLimited`` when a limit is passed (the request must then create nothing)."""
    now = clock()
    if session_key:
        refused = _hit(budget, "session", session_key, budget.per_session, now)
    elif address:
        refused = _hit(budget, "new", address, budget.per_new_visitor, now)
    else:
        refused = None
    if refused is None and address:
        refused = _hit(budget, "address", address, budget.per_address, now)
    if refused is not None:
        raise refused


def admit(
    budget: Budget, request: HttpRequest, create_session: Callable[[], str] | None = None
) -> str:
    """Count one request of a visitor and give their session key, creating the session
    (``create_session()``, by default a saved new session) only once the request is
    allowed; ``RateLimited`` otherwise. A new session's first request is its first in its
    own budget too."""
    key = request.session.session_key
    count(budget, key, client_address(request))
    if not key:
        key = create_session() if create_session else session_key(request, create=True) or ""
        _hit(budget, "session", key, budget.per_session, clock())
    return key


def too_many(request: HttpRequest, exc: RateLimited, template: str, **context: Any) -> HttpResponse:
    """The 429 page ``template`` (see ``templates/core/rate_limited.html``): the limit and
    when to try again, in the visitor's language, and the same in ``Retry-After``."""
    context.update(limit=exc.limit, window=exc.window, retry_after=exc.retry_after)
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@lru_cache(maxsize=8)
def _networks(
    proxies: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or, for a request from a trusted proxy,
    the right-most address of ``X-Forwarded-For`` that is not a trusted proxy."""
    remote = request.META.get("REMOTE_ADDR") or None
    trusted = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))
    ip = _ip(remote or "")
    if not trusted or ip is None or not any(ip in net for net in trusted):
        return remote
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        hop_ip = _ip(hop)
        if hop_ip is None:
            return remote  # a malformed hop: trust nothing past it
        if not any(hop_ip in net for net in trusted):
            return str(hop_ip)
    return remote
