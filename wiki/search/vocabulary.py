"""What the published pages say: every word they hold (by stem, folded and by synonym
group), kept per content version, and "did you mean" suggestions drawn from it."""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from dataclasses import dataclass, field

from core.memo import memo, shared

from .. import synonyms
from ..selectors import LANGUAGE_CODES
from ..stemming import CYRILLIC, fold, stem
from .query import MIN_PREFIX, WORD, Term


def _script(word: str) -> str:
    return "cyrillic" if CYRILLIC.search(word) else "other"


@dataclass(frozen=True)
class Vocabulary:
    """Every word of the published pages (titles, summaries, bodies, both languages)."""

    stems: tuple[str, ...]  # sorted, for prefix look-ups
    words: tuple[str, ...]  # folded, sorted
    keys: frozenset[str]  # the synonym groups some page has a word of
    #: Candidates for "did you mean", by script and length.
    candidates: dict[tuple[str, int], tuple[str, ...]] = field(repr=False)

    @classmethod
    def from_texts(cls, texts: list[str]) -> Vocabulary:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(fold(w) for w in WORD.findall(text))
        stems = {stem(w) for w in counts}
        keys = frozenset(k for s in stems if (k := synonyms.key_of_stem(s)))
        # The pages' words, most frequent first, and the synonym table's words.
        offered = [
            w
            for w, _n in counts.most_common()
            if len(w) >= MIN_PREFIX and "_" not in w and not w.isdigit()
        ]
        offered += [fold(w) for w in synonyms.all_words() if synonyms.key_of(w) in keys]
        candidates: dict[tuple[str, int], list[str]] = {}
        for word in dict.fromkeys(offered):
            candidates.setdefault((_script(word), len(word)), []).append(word)
        return cls(
            stems=tuple(sorted(stems)),
            words=tuple(sorted(counts)),
            keys=keys,
            candidates={k: tuple(v) for k, v in candidates.items()},
        )

    @staticmethod
    def _has_prefix(items: tuple[str, ...], prefix: str) -> bool:
        at = bisect.bisect_left(items, prefix)
        return at < len(items) and items[at].startswith(prefix)

    def has_itself(self, term: Term) -> bool:
        """Whether a page has the word itself (or a word its letters begin)."""
        folded = fold(term.word)
        if len(folded) >= MIN_PREFIX:
            return term.stem in self.stems or self._has_prefix(self.words, folded)
        return term.stem in self.stems

    def knows(self, term: Term) -> bool:
        """Whether searching ``term`` can find a page: a page has its stem, a word it
        begins (while typing) or one of its synonyms."""
        if any(key in self.keys for key in term.keys):
            return True
        if len(term.stem) >= MIN_PREFIX:
            return self._has_prefix(self.stems, term.stem) or self._has_prefix(
                self.words, fold(term.word)
            )
        return term.stem in self.stems or fold(term.word) in self.words

    def suggest(self, word: str) -> str | None:
        """The closest word the pages (or the synonym table) have, if one is close."""
        folded = fold(word)
        if len(folded) < MIN_PREFIX:
            return None
        script = _script(folded)
        pool = [
            w
            for length in range(len(folded) - 2, len(folded) + 3)
            for w in self.candidates.get((script, length), ())
        ]
        close = difflib.get_close_matches(folded, pool, n=1, cutoff=0.75)
        return close[0] if close else None


def vocabulary() -> Vocabulary:
    """The published pages' vocabulary, kept in the process until the wiki's content
    version changes (any page saved or deleted): a search neither reads the directory
    nor unpickles thousands of words from the cache. A process that has not got it yet
    takes it from the shared cache when another process built it."""
    from ..selectors import DIRECTORY_DEPENDS_ON

    return memo("wiki:vocabulary", DIRECTORY_DEPENDS_ON, _shared_vocabulary)


def _shared_vocabulary() -> Vocabulary:
    from ..selectors import DIRECTORY_DEPENDS_ON

    parts = ("2", synonyms.FINGERPRINT)
    return shared("wiki:vocabulary", DIRECTORY_DEPENDS_ON, parts, _read_vocabulary, 60 * 60 * 24)


def _read_vocabulary() -> Vocabulary:
    """Every published page's words, read in one pass. The bodies' plain texts are not
    put in the cache here: a thousand pages would push out of it what it holds (the
    process memos' generation among them), and results cache their own."""
    from ..rendering import plain_text
    from ..selectors import published_pages

    texts: list[str] = []
    for page in published_pages():
        for code in LANGUAGE_CODES:
            texts.append(getattr(page, f"title_{code}", None) or "")
            texts.append(getattr(page, f"summary_{code}", None) or "")
            texts.append(plain_text(getattr(page, f"body_{code}", None) or ""))
    return Vocabulary.from_texts(texts)
