"""What a visitor typed, read: the words searched (each with the synonym groups it
reaches), the function words left optional, and those past ``MAX_TERMS``; with the
pages' ``Vocabulary``, the words no page has and a "did you mean" for each."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .. import synonyms
from ..stemming import fold, is_function_word, stem

if TYPE_CHECKING:
    from .vocabulary import Vocabulary

WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 12
MIN_PREFIX = 3
#: A word still being typed reaches the synonym groups of the words it begins, from here.
MIN_SYNONYM_PREFIX = 4


def query_terms(query: str) -> list[str]:
    """The distinct stems of a query, in order (at most ``MAX_TERMS``)."""
    terms: list[str] = []
    for word in WORD.findall(query or ""):
        term = stem(word)
        if term not in terms:
            terms.append(term)
    return terms[:MAX_TERMS]


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the query: as typed, its stem, and the synonym groups it reaches."""

    word: str
    stem: str
    keys: tuple[str, ...] = ()
    #: False when only its synonyms are on the pages (a word still being typed whose
    #: letters begin no word there): then only they are searched, not its stem's prefix.
    own: bool = True

    @property
    def stems(self) -> tuple[str, ...]:
        """Its stem and every stem of its synonyms (what the highlighter marks)."""
        found = [self.stem]
        for key in self.keys:
            found += [s for s in synonyms.stems_of(key) if s not in found]
        return tuple(found)


def _term(word: str) -> Term:
    word_stem = stem(word)
    exact = synonyms.key_of_stem(word_stem)
    if exact:
        return Term(word, word_stem, (exact,))
    folded = fold(word)
    if len(folded) >= MIN_SYNONYM_PREFIX:
        return Term(word, word_stem, synonyms.keys_starting(word_stem, folded))
    return Term(word, word_stem)


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """What a search looks for, and what it left out and why."""

    text: str
    terms: tuple[Term, ...]
    #: Words no published page has, nor any of their synonyms: left out of the search.
    unknown: tuple[str, ...] = ()
    #: Words past the first ``MAX_TERMS``: left out of the search.
    dropped: tuple[str, ...] = ()
    #: ``(unknown word, a close word the pages have)``.
    suggestions: tuple[tuple[str, str], ...] = ()
    #: Function words ("how", "что", "такое"): optional, so not searched — a question's
    #: other words are ("how energy works" looks for "energy").
    optional: tuple[str, ...] = ()

    @property
    def highlight(self) -> list[str]:
        """The stems the highlighter marks: each word's own stem (also as the start of a
        longer word) and, written ``=stem``, its synonyms' stems (whole words only)."""
        found: list[str] = []
        for term in self.terms:
            if term.stem not in found:
                found.append(term.stem)
            found += [f"={s}" for s in term.stems[1:] if f"={s}" not in found]
        return found

    @property
    def corrected(self) -> str:
        """The query with each unknown word replaced by its suggestion ("" when none)."""
        if not self.suggestions:
            return ""
        replace = dict(self.suggestions)
        searched = {t.word for t in self.terms} | set(self.optional)
        words: list[str] = []
        stems: set[str] = set()
        for word in WORD.findall(self.text):
            if word in replace:
                word = replace[word]
            elif word not in searched:
                continue  # unknown without a suggestion, or past the limit
            if stem(word) not in stems:
                stems.add(stem(word))
                words.append(word)
        return " ".join(words)


def parse_query(text: str, vocabulary: Vocabulary | None = None) -> ParsedQuery:
    """Read a query: distinct words by stem, in order, at most ``MAX_TERMS``.

    Function words ("how", "does", «как», «такое») are optional: they are left out of
    the search unless the query has nothing else. With a ``vocabulary`` (the published
    pages' words), words that no page has — nor a synonym of them, nor a word they
    begin — are left out and reported, each with a suggestion when a close word exists.

    >>> parsed = parse_query("как работает энергия")
    >>> [t.word for t in parsed.terms], parsed.optional
    (['энергия'], ('как', 'работает'))
    >>> [t.word for t in parse_query("how").terms]
    ['how']
    """
    words: list[str] = []
    seen: set[str] = set()
    for word in WORD.findall(text or ""):
        word_stem = stem(word)
        if word_stem not in seen:
            seen.add(word_stem)
            words.append(word)
    content = [w for w in words if not is_function_word(w)]
    optional = tuple(w for w in words if is_function_word(w)) if content else ()
    if not content:
        content = words  # only function words: search them, or nothing is searched
    terms = [_term(word) for word in content[:MAX_TERMS]]
    dropped = content[MAX_TERMS:]
    if vocabulary is None:
        return ParsedQuery(text, tuple(terms), dropped=tuple(dropped), optional=optional)
    known = tuple(
        t if not t.keys or vocabulary.has_itself(t) else replace(t, own=False)
        for t in terms
        if vocabulary.knows(t)
    )
    unknown = tuple(t.word for t in terms if not vocabulary.knows(t))
    suggestions = tuple(
        (word, suggestion) for word in unknown if (suggestion := vocabulary.suggest(word))
    )
    return ParsedQuery(text, known, unknown, tuple(dropped), suggestions, optional)
