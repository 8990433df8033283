"""Words to Snowball stems, Russian for Cyrillic words and English for the rest: what the
search index (wiki.search) and the synonym groups (wiki.synonyms) compare.

>>> stem("Skills"), stem("навыки"), fold("Ёлка")
('skill', 'навык', 'елка')
"""

from __future__ import annotations

import re
import threading

import snowballstemmer

from core.memo import cached

__all__ = ["CYRILLIC", "fold", "stem"]

CYRILLIC = re.compile(r"[\u0400-\u04ff]")

_local = threading.local()


def _stemmer(name: str):
    # Snowball stemmer objects keep state while stemming: one per thread.
    cache = getattr(_local, "stemmers", None)
    if cache is None:
        cache = _local.stemmers = {}
    if name not in cache:
        cache[name] = snowballstemmer.stemmer(name)
    return cache[name]


def fold(word: str) -> str:
    return word.lower().replace("ё", "е")


@cached(maxsize=100_000)
def stem(word: str) -> str:
    """The Snowball stem of one word: Russian for Cyrillic words, English for the rest."""
    word = fold(word)
    return _stemmer("russian" if CYRILLIC.search(word) else "english").stemWord(word)
