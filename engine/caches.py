"""Every memo the engine keeps, named here and nowhere else, and ``clear_caches()``.

The rules are pure functions; a few of them are memoised because a profile of the engine
alone shows it pays (``bench/bench_engine.py``, ``bench/bench_packs.py``: a card's
derivation shares most of its sub-results with the other cards that have the same
attribute, tier or rule verdict). Results never depend on a cache: clearing them only
frees memory or lets a benchmark measure a cold start. Every cache is bounded.

``SIZES`` names each memoised function (``module.qualname``) with its bound; ``memo`` is
the one decorator, and refuses a function not listed. ``BREAKDOWN_TEXT`` keeps pieces of a
Breakdown's JSON text between cards (``engine.serialize.breakdown``).

>>> from engine.card.derive import derive
>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> _ = derive(CardSpec(3, "Pup", tuple(AttributeSpec(s, "Dagger", 50) for s in Slot)))
>>> clear_caches(); sum(cached.cache_info().currsize for cached in _MEMOISED)
0
>>> sorted(SIZES) == sorted(f"{f.__module__}.{f.__qualname__}" for f in _MEMOISED)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, TypeVar

from engine.data import PACK_TIERS

__all__ = ["BREAKDOWN_TEXT", "SIZES", "TextMemo", "clear_caches", "memo"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: Each memoised function and how many results it keeps.
SIZES: Final[Mapping[str, int]] = MappingProxyType(
    {
        # engine.card.rarity: each rule's verdict, step and next-tier need per input,
        # shared (the same objects) between the cards with that input
        "engine.card.rarity.tier_of": 8192,  # ~3 calls a card, a handful of supplies
        "engine.card.rarity._supply_verdict": 1024,
        "engine.card.rarity._need_supply": 4096,
        "engine.card.rarity._need_badge": 64,
        "engine.card.rarity._need_burned": 4096,
        "engine.card.rarity._need_god_premium": 64,
        "engine.card.rarity._need_getgems": 4096,
        "engine.card.rarity._no_attribute_rule": 16,
        "engine.card.rarity._rule_burned_stickers": 4096,
        "engine.card.rarity._rule_getgems_rank": 4096,
        "engine.card.rarity._decided_step": 1024,
        # engine.card.skills: an attribute's keyword hits, votes and rows (one per name),
        # and the role and skill steps shared between cards
        "engine.card.skills.keyword_hits": 65536,  # each new name is matched twice
        "engine.card.skills._info": 65536,
        "engine.card.skills._role_decided": 64,
        "engine.card.skills._skill_affinity": 64,
        "engine.card.skills._role_totals": 4096,
        "engine.card.skills._skill_scores": 4096,
        "engine.card.skills._active_step": 64,
        # engine.card.stats: a template's stats, effects and undercharge rows per profile
        "engine.card.stats._template_pick": 1024,
        "engine.card.stats._paw_step": 16384,
        "engine.card.stats._energy_step": 16,
        "engine.card.stats._stats_core": 65536,
        "engine.card.stats._effects_core": 1024,
        "engine.card.stats._undercharge_core": 65536,
        # engine.packs: the exact odds of each pattern of tiers present (one entry per mask)
        "engine.packs._mask_odds": 2 ** len(PACK_TIERS),
    }
)

_MEMOISED: list[Any] = []


def memo(function: _F) -> _F:
    """``function`` memoised with the bound ``SIZES`` gives it (a KeyError if none)."""
    size = SIZES[f"{function.__module__}.{function.__qualname__}"]
    cached = functools.lru_cache(maxsize=size)(function)
    _MEMOISED.append(cached)
    return cached  # type: ignore[return-value]


class TextMemo:
    """JSON text kept per object while the object lives in the memo, in two generations
    (the pieces still in use move to the young one, the others go with the old one).

    Keyed by identity: a derivation shares its steps, votes, rows and layers between the
    cards that have the same attribute (the memoised rules return the same objects), so
    most of a breakdown's pieces were written out before. An entry holds the object
    itself, so its id cannot be reused by another object while the entry exists. Only for
    values nobody changes (the engine's frozen results).

    >>> texts = TextMemo(2)
    >>> value = ("a",)
    >>> texts.get(value, repr), texts.get(value, str)  # the second is the kept text
    ("('a',)", "('a',)")
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.young: dict[int, tuple[object, str]] = {}
        self.old: dict[int, tuple[object, str]] = {}

    def get(self, value: Any, build: Callable[[Any], str]) -> str:
        """``build(value)``, or the text kept for this very object."""
        key = id(value)
        found = self.young.get(key)
        if found is not None and found[0] is value:
            return found[1]
        found = self.old.get(key)
        if found is None or found[0] is not value:
            found = (value, build(value))
        if len(self.young) >= self.size:
            self.young, self.old = {}, self.young
        self.young[key] = found
        return found[1]

    def clear(self) -> None:
        """Forget every text kept so far."""
        self.young = {}
        self.old = {}


#: A piece is about 300 bytes with its entry, so the memo stays under ~10 MB; the demo's
#: 1,000 cards need ~11,000 pieces.
BREAKDOWN_TEXT: Final = TextMemo(1 << 14)


def clear_caches() -> None:
    """Empty every cache the engine keeps (the memoised rules and ``BREAKDOWN_TEXT``)."""
    for cached in _MEMOISED:
        cached.cache_clear()
    BREAKDOWN_TEXT.clear()
