"""A shared Redis cache that the site does not depend on: an error is a miss.

Everything this site keeps in the cache can be rebuilt from the database (rendered pages,
wiki HTML, content-version reads), so a Redis that is stopped, frozen or full must cost
speed, never answers. ``FailSoftRedisCache`` is Django's ``RedisCache`` where

* a read that fails (refused, timed out, a server error) is a miss: ``get`` returns the
  default, ``get_many`` an empty dict, ``has_key`` False;
* a write that fails is skipped: ``set``/``set_many``/``delete``/``touch`` do nothing,
  ``add`` returns False (nothing was stored);
* ``incr``/``decr`` raise ``CacheUnavailable``, a ``ValueError`` like the one for a missing
  key, so a counter treats a dead cache as an empty one; a caller that must choose another
  direction (a rate limit that fails closed) catches ``CacheUnavailable`` first;
* after a failure the server is not asked again for ``RETRY_SECONDS``: a frozen Redis costs
  one socket timeout (settings: tens of milliseconds) per process per interval, not one
  per cache call;
* each outage is logged once per ``RETRY_SECONDS`` interval, not once per call.

``clear`` still raises: it is called by people and tests, who should hear about it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

__all__ = ["CacheUnavailable", "FailSoftRedisCache"]

logger = logging.getLogger(__name__)

#: Seconds a failed server is left alone before the next call tries it again.
RETRY_SECONDS = 5.0

clock = time.monotonic  # tests move it on


class CacheUnavailable(ValueError):
    """The cache server could not answer a counter operation (``incr``/``decr``)."""


class _Outage:
    """Per server address and process (Django makes one backend per thread): since when
    the server is given up on, and when the outage was last logged."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0
        self.logged_at = -1e18


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


def reset() -> None:
    """Forget every outage (tests, and a server known to be back)."""
    with _outages_lock:
        _outages.clear()


class FailSoftRedisCache(RedisCache):
    """Django's Redis cache where a Redis error degrades to a miss or a skipped write."""

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._outage = _outage_of(server if isinstance(server, str) else ",".join(server))

    # -- the outage --------------------------------------------------------

    def _available(self) -> bool:
        return clock() >= self._outage.down_until

    def _failed(self, operation: str, error: Exception) -> None:
        now = clock()
        outage = self._outage
        with outage.lock:
            outage.down_until = now + RETRY_SECONDS
            log = now - outage.logged_at >= RETRY_SECONDS
            if log:
                outage.logged_at = now
        if log:
            logger.warning(
                "The shared cache failed (%s: %s): serving without it for %.0f s",
                operation,
                error,
                RETRY_SECONDS,
            )

    def _soft(self, operation: str, fallback: Any, call: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._available():
            return fallback
        try:
            return call(*args, **kwargs)
        except RedisError as error:
            self._failed(operation, error)
            return fallback

    # -- reads: a miss -----------------------------------------------------

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._soft("get", default, super().get, key, default, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._soft("get_many", {}, super().get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._soft("has_key", False, super().has_key, key, version)

    # -- writes: skipped ---------------------------------------------------

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft("add", False, super().add, key, value, timeout, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._soft("set", None, super().set, key, value, timeout, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        failed = list(data)
        return self._soft("set_many", failed, super().set_many, data, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft("touch", False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._soft("delete", False, super().delete, key, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._soft("delete_many", None, super().delete_many, keys, version)

    # -- counters: a ValueError, as for a missing key ------------------------

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        if not self._available():
            raise CacheUnavailable("The shared cache is unavailable.")
        try:
            return super().incr(key, delta, version)
        except RedisError as error:
            self._failed("incr", error)
            raise CacheUnavailable(f"The shared cache is unavailable: {error}") from error

    # BaseCache.decr is incr(key, -delta): covered.

    # -- the health check --------------------------------------------------

    def health_check(self) -> None:
        """Write a short-lived key: raises the Redis error when the server is stopped,
        frozen (the socket timeout) or full and refusing writes; the health check reports
        it. Asks even during an outage, and an answer ends the outage."""
        key = self.make_and_validate_key("core:healthz")
        self._cache.get_client(key, write=True).set(key, b"1", ex=10)
        self._outage.down_until = 0.0
