"""The cache kit: what the site keeps, keyed by what, cleared when — the one place that says.

Three places hold kept work, and nothing else does:

1. **The page cache** (``core.cache.cached_page``, the ``default`` cache alias: each
   process's memory, or a shared Redis): whole GET responses, keyed by the address (only
   the parameters the view reads), the language, htmx or not, and the content versions the
   view names (``depends_on``). Cleared by a new content version (the key changes) or
   ``PAGE_CACHE_SECONDS``.
2. **Values in the shared cache** (``shared()`` below, also the ``default`` alias): values
   every process may reuse — a search's count, a wiki page's rendered body and article,
   a live wiki table, the wiki's vocabulary, a page's plain text — keyed by a name, the
   content versions they read and their own parts (a page's revision), each with a life.
   Cleared by a new content version or their timeout.
3. **This process's memos** (this module): values too hot to unpickle from a cache on every
   request. All of them are bounded in entries, and all are dropped at once by ``clear()``,
   which runs when a translation catalogue (a ``.mo`` file) changes — the development
   server reloads one without restarting, and a memo would otherwise keep the old words.
   They come in three kinds:

   * ``memo(name, depends_on, build)``: one value per name (the attribute catalogue, the
     combos, the wiki's directory, an arena day's table…), kept until a content version of
     ``depends_on`` changes (``core.versions.bump``) or the shared cache is cleared (its
     generation changes). At most ``MEMO_NAMES`` names, the least recently used dropped.
   * ``Kept(size)``: a dict of at most ``size`` entries, the oldest dropped first, for
     values whose key says all they depend on (a sentence by language, code and
     parameters; a page's text by revision). ``table(name, depends_on, size)`` is a
     ``Kept`` that starts afresh with each content version (the card list's rows).
   * ``cached(maxsize)``: ``functools.lru_cache`` for pure functions of their arguments
     (a word's stem), registered here so ``clear()`` reaches it.

Outside the processes, a **shared HTTP cache** (Varnish, a CDN) may keep the page cache's
answers that hold nothing of the visitor: ``core.http_cache`` marks them ``public`` with a
validator and their content versions as cache tags, and every ``versions.bump`` purges its tag.

HTML fragments of templates use Django's ``{% cache %}`` tag on the ``fragments`` cache
alias (``config/settings/base.py``): each process's own memory (a fragment is cheaper to
render than to fetch from Redis), keyed by the fragment's name and its arguments, which
hold the content versions it reads when it reads any (a card's picture on a pack tile:
its token and the ``cards`` version, so that other pools' pages reuse it and an edited card
shows its new picture at once); ``clear()`` clears it too.

The content versions (``core.versions``): ``cards`` (the collection: cards, attributes,
combos), ``wiki``, ``balance``, ``packs``, ``arena``; each write bumps its own. Which
versions a value depends on is named where it is kept (``depends_on``), never guessed.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.utils.autoreload import file_changed

__all__ = [
    "MEMO_NAMES",
    "Kept",
    "cached",
    "clear",
    "fragment_key",
    "keep_out_of_gc",
    "memo",
    "shared",
    "table",
]

K = TypeVar("K")
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

#: At most this many ``memo`` names are kept per process (names carry the language, the
#: script prefix or an arena day; a day's table is a few hundred values).
MEMO_NAMES = 64

_GENERATION_KEY = "core:memo-generation"
_lock = threading.Lock()
_memos: OrderedDict[str, tuple[str, object]] = OrderedDict()
_kept: weakref.WeakValueDictionary[int, Kept] = weakref.WeakValueDictionary()
_pure: list[Any] = []


class Kept(dict[K, V]):
    """A dict kept between requests: at most ``size`` entries, the oldest dropped first,
    and all of them on ``clear()``. Read it as a dict (``get``); add with ``keep``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()
        _kept[id(self)] = self  # held weakly: a ``table`` makes a new one per version

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (dropping the oldest entry when full); returns it."""
        with self._lock:
            if key not in self:
                while self and len(self) >= self.size:
                    del self[next(iter(self))]
            self[key] = value
        return value


def cached(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)`` for a pure function, dropped by ``clear()`` too."""

    def decorator(function: F) -> F:
        wrapped = functools.lru_cache(maxsize=maxsize)(function)
        _pure.append(wrapped)
        # lru_cache's wrapper takes the arguments ``function`` takes and returns what it
        # returns (typeshed types it as ``_lru_cache_wrapper``, not as ``F``).
        return cast(F, wrapped)

    return decorator


def _generation() -> str:
    """A token of the shared cache's life: clearing the cache (each test does) gives a new
    one, so process memos never outlive the cache and the database that keyed them."""
    from django.core.cache import cache

    found = cache.get(_GENERATION_KEY)
    if found is None:
        found = secrets.token_hex(8)
        if not cache.add(_GENERATION_KEY, found, None):
            found = cache.get(_GENERATION_KEY) or found
    return found


def _stamp(depends_on: tuple[str, ...]) -> str:
    from . import versions

    return f"{_generation()}|{versions.current(*depends_on)}"


def memo(name: str, depends_on: tuple[str, ...], build: Callable[[], V]) -> V:
    """``build()``'s value, kept in this process until one of ``depends_on`` versions
    changes, the shared cache is cleared or ``clear()`` runs: for values too large or too
    hot to unpickle from the cache on every request, such as the attribute catalogue
    behind every card page. One value per ``name``; at most ``MEMO_NAMES`` names."""
    stamp = _stamp(depends_on)
    with _lock:
        found = _memos.get(name)
        if found is not None and found[0] == stamp:
            _memos.move_to_end(name)
            # What ``build`` made for this name: a name is built by one function only.
            return cast(V, found[1])
    value = build()
    with _lock:
        _memos[name] = (stamp, value)
        _memos.move_to_end(name)
        while len(_memos) > MEMO_NAMES:
            _memos.popitem(last=False)
    return value


def keep_out_of_gc() -> None:
    """Leave every object alive now out of the garbage collector's passes (``gc.freeze``):
    for a process's long-lived values, such as the code once loaded (``config/wsgi.py``)
    or the attribute catalogue of a large collection. A full pass walks every object the
    collector tracks; with a million cards' 280,000 attributes kept, each one paused a
    request for 80–190 ms. Kept values are still freed when nothing refers to them (a new
    collection version); only garbage in cycles at this moment stays (the young
    generations are collected first to keep that small)."""
    gc.collect(1)
    gc.freeze()


def table(name: str, depends_on: tuple[str, ...], size: int) -> Kept:
    """A ``Kept(size)`` for the current versions of ``depends_on``: a new version (or the
    cache's new generation) starts an empty one, so its entries need not name the version."""
    return memo(name, depends_on, lambda: Kept(size))


def shared(
    name: str,
    depends_on: tuple[str, ...],
    parts: tuple[object, ...],
    build: Callable[[], V],
    timeout: int,
    *,
    valid: Callable[[V], bool] | None = None,
) -> V:
    """``build()``'s value from the shared cache (``default`` alias), keyed by ``name``, the
    versions of ``depends_on`` and ``parts``; built and kept for ``timeout`` seconds when
    missing (or when ``valid`` says the kept value no longer holds). For values every
    process may reuse; a value of None is never kept."""
    from django.core.cache import cache

    from . import versions

    state = versions.current(*depends_on) if depends_on else ""
    raw = "\n".join((state, *map(str, parts)))
    key = f"{name}:{hashlib.sha256(raw.encode()).hexdigest()[:32]}"
    found = cache.get(key)
    if found is None or (valid is not None and not valid(found)):
        found = build()
        if found is not None:
            cache.set(key, found, timeout)
    return found


def fragment_key(key: str, key_prefix: str, version: int) -> str:
    """The ``fragments`` cache alias's keys: Django's, and the script prefix, since the
    links a fragment holds begin with it."""
    from django.urls import get_script_prefix

    return f"{key_prefix}:{version}:{get_script_prefix()}:{key}"


def clear() -> None:
    """Drop every memo of this process and its fragment cache."""
    from django.conf import settings
    from django.core.cache import caches

    with _lock:
        _memos.clear()
    for kept in list(_kept.values()):
        with kept._lock:
            kept.clear()
    for function in _pure:
        function.cache_clear()
    if "fragments" in settings.CACHES:
        caches["fragments"].clear()


def _catalogue_changed(sender: Any, file_path: Any, **kwargs: Any) -> None:
    """A translation catalogue (``.mo``) changed: every kept word may be an old one."""
    if str(file_path).endswith(".mo"):
        clear()


file_changed.connect(_catalogue_changed)
