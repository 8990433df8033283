"""Content versions: what cached pages key on, so an edit anywhere shows everywhere.

``bump(name)`` after a write; ``current(*names)`` for a cache key. Reads are cached in
the process for ``READ_SECONDS``, so a busy page costs no query to check its versions;
an edit reaches other server processes within that time (and the editing process at
once, since ``bump`` drops its local copy). ``bump`` also purges the pages a shared HTTP
cache keeps tagged with ``name`` (``core.http_cache``).
"""

from __future__ import annotations

import datetime as dt

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from . import http_cache
from .models import DataVersion

READ_SECONDS = 2
_CACHE_KEY = "core:data-versions:2"  # :2 — (number, changed_at) pairs


def bump(name: str) -> None:
    """Record that content of kind ``name`` changed (call after, or inside, the write)."""
    now = timezone.now()
    updated = DataVersion.objects.filter(name=name).update(number=F("number") + 1, changed_at=now)
    if not updated:
        DataVersion.objects.get_or_create(name=name, defaults={"number": 1, "changed_at": now})
    cache.delete(_CACHE_KEY)
    transaction.on_commit(lambda: cache.delete(_CACHE_KEY))
    http_cache.purge_on_commit(name)  # the shared HTTP cache's pages tagged with it


def current(*names: str) -> str:
    """The versions of ``names`` as one string for a cache key: ``"cards:12|wiki:3"``."""
    versions = _read()
    return "|".join(f"{name}:{versions.get(name, (0, None))[0]}" for name in names)


def changed(*names: str) -> dt.datetime | None:
    """When the latest of ``names`` changed (None: never recorded): a sitemap's lastmod,
    a preview's Last-Modified."""
    read = _read()
    times = [read[name][1] for name in names if name in read]
    return max(times, default=None)


def _read() -> dict[str, tuple[int, dt.datetime]]:
    versions = cache.get(_CACHE_KEY)
    if versions is None:
        rows = DataVersion.objects.values_list("name", "number", "changed_at")
        versions = {name: (number, at) for name, number, at in rows}
        cache.set(_CACHE_KEY, versions, READ_SECONDS)
    return versions
