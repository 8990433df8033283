"""Start-up checks (``manage.py check``, ``migrate``, ``runserver``) for the deployment."""

from __future__ import annotations

from typing import Any

from django.core import checks
from django.core.cache import caches

#: Policies that evict the least recently or least frequently used entries when full.
EVICTING_POLICIES = frozenset({"allkeys-lru", "allkeys-lfu", "volatile-lru", "volatile-lfu"})


@checks.register(checks.Tags.caches)
def redis_memory_policy(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """A shared Redis must have a ``maxmemory`` and an LRU/LFU eviction policy: otherwise it
    grows without bound (every distinct page is an entry) or, under the default
    ``noeviction``, refuses every write once full. Only asked when the server answers (a
    stopped cache is /healthz's business, and the site serves without it)."""
    from redis.exceptions import RedisError

    found = []
    for alias in caches:
        backend = caches[alias]
        client_of = getattr(getattr(backend, "_cache", None), "get_client", None)
        if client_of is None or not type(backend).__name__.endswith("RedisCache"):
            continue
        try:
            config = client_of(None, write=True).config_get("maxmemory*")
        except RedisError:  # unreachable, or CONFIG disabled (a managed Redis)
            continue
        config = {_text(k): _text(v) for k, v in config.items()}
        maxmemory = config.get("maxmemory", "0")
        policy = config.get("maxmemory-policy", "noeviction")
        if maxmemory == "0" or policy not in EVICTING_POLICIES:
            found.append(
                checks.Warning(
                    f"The Redis of cache {alias!r} has maxmemory {maxmemory} and "
                    f"maxmemory-policy {policy}.",
                    hint=(
                        "Give it a memory limit that evicts old entries, e.g. "
                        "'maxmemory 256mb' and 'maxmemory-policy allkeys-lru' in redis.conf "
                        "(see docs/deployment.md): without a limit it grows with every "
                        "distinct page; full under 'noeviction', it refuses every write."
                    ),
                    obj=f"CACHES[{alias!r}]",
                    id="core.W001",
                )
            )
    return found


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
