"""Content versions: what cached pages key on, so an edit anywhere shows everywhere.

``bump(name)`` after a write; ``current(*names)`` for a cache key. Reads are cached in
the process for ``READ_SECONDS``, so a busy page costs no query to check its versions;
an edit reaches other server processes within that time (and the editing process at
once, since ``bump`` drops its local copy).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from .models import DataVersion

READ_SECONDS = 2
_CACHE_KEY = "core:data-versions"


def bump(name: str) -> None:
    """Record that content of kind ``name`` changed (call after, or inside, the write)."""
    updated = DataVersion.objects.filter(name=name).update(number=F("number") + 1)
    if not updated:
        DataVersion.objects.get_or_create(name=name, defaults={"number": 1})
    cache.delete(_CACHE_KEY)
    transaction.on_commit(lambda: cache.delete(_CACHE_KEY))


def current(*names: str) -> str:
    """The versions of ``names`` as one string for a cache key: ``"cards:12|wiki:3"``."""
    versions = cache.get(_CACHE_KEY)
    if versions is None:
        versions = dict(DataVersion.objects.values_list("name", "number"))
        cache.set(_CACHE_KEY, versions, READ_SECONDS)
    return "|".join(f"{name}:{versions.get(name, 0)}" for name in names)
