"""How many matches a visitor may keep and how fast they may start them (issue 12, item 10).

- A session keeps at most ``ACTIVE_MATCHES_PER_SESSION`` matches in progress; starting
  one more sets the oldest aside (``play.services.start_match`` does it and says so).
- Starts are counted in the cache, per session and per client address, in fixed
  windows of ``WINDOW_SECONDS``: past ``STARTS_PER_SESSION`` or ``STARTS_PER_ADDRESS``
  a start is refused (``RateLimited``, a 429 page in the visitor's language) until the
  window ends. The address is ``REMOTE_ADDR``: behind a proxy, the proxy must set it to
  the client's (the site trusts no forwarding header of its own accord).
- ``manage.py cleanup`` deletes matches left unfinished for ``ABANDONED_AFTER``.

The counters live in the default cache: with the per-process memory cache each worker
counts on its own (a multi-worker site should use Redis, ``DJANGO_CACHE_URL``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache

__all__ = [
    "ABANDONED_AFTER",
    "ACTIVE_MATCHES_PER_SESSION",
    "STARTS_PER_ADDRESS",
    "STARTS_PER_SESSION",
    "WINDOW_SECONDS",
    "RateLimited",
    "count_start",
]

ACTIVE_MATCHES_PER_SESSION = 5
WINDOW_SECONDS = 60
STARTS_PER_SESSION = 12  # a match every five seconds, for a minute
STARTS_PER_ADDRESS = 40  # a few people behind one address
ABANDONED_AFTER = timedelta(days=1)

clock = time.time  # the counting windows' clock; tests hold it still


@dataclass
class RateLimited(Exception):
    """Too many match starts: ``limit`` in ``window`` seconds; try again after
    ``retry_after`` seconds."""

    limit: int
    window: int
    retry_after: int


def _hit(scope: str, ident: str, limit: int, now: float) -> RateLimited | None:
    window = int(now // WINDOW_SECONDS)
    key = f"play:starts:{scope}:{ident}:{window}"
    cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr: start counting again
        cache.set(key, 1, timeout=WINDOW_SECONDS + 5)
        count = 1
    if count > limit:
        retry = max(1, int((window + 1) * WINDOW_SECONDS - now) + 1)
        return RateLimited(limit, WINDOW_SECONDS, retry)
    return None


def count_start(session_key: str | None, address: str | None) -> None:
    """Count one match start for this session and this address; RateLimited when either
    is past its limit for the current window (the start must not happen then)."""
    now = clock()
    refused = None
    if address:
        refused = _hit("address", address, STARTS_PER_ADDRESS, now)
    if session_key:
        refused = _hit("session", session_key, STARTS_PER_SESSION, now) or refused
    if refused is not None:
        raise refused
