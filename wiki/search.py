"""Full-text search over wiki pages in both languages, behind one small interface.

``search_pages(query)`` returns ranked hits; ``index_page`` / ``remove_page`` keep the
index in step (``wiki.services`` calls them on every save); ``snippet`` highlights the
query's words in a text. Which backend runs depends on the database:

* SQLite: an FTS5 table (``wiki_page_fts``, created by migration 0002) holding the
  Snowball stems of each page's title, summary and body per language, tokenised by
  ``unicode61`` (which folds Cyrillic case and diacritics). Each word is stemmed by its
  script — Cyrillic words with the Russian stemmer, others with the English one — in the
  index and in the query alike, so "редкости" finds "редкость" and "skills" finds
  "skill" on pages of either language. Ranking: BM25 with the title weighted 10, the
  summary 4 and the body 1.
* PostgreSQL: ``SearchVector`` / ``SearchQuery`` / ``SearchRank`` with the ``english``
  configuration for English columns and ``russian`` for Russian ones (weights A/B/C).

Snippets use one highlighter for both backends: it stems the text's words the same way
and marks those whose stem matches the query's.

>>> stem("Редкости"), stem("skills"), stem("ёлка")
('редкост', 'skill', 'елк')
>>> query_terms("Skills of редкости")
['skill', 'of', 'редкост']
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer
from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .selectors import LANGUAGE_CODES

WORD = re.compile(r"\w+", re.UNICODE)
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
MAX_TERMS = 12
MIN_PREFIX = 3

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


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """The Snowball stem of one word: Russian for Cyrillic words, English for the rest."""
    word = fold(word)
    return _stemmer("russian" if CYRILLIC.search(word) else "english").stemWord(word)


def stem_text(text: str) -> str:
    return " ".join(stem(w) for w in WORD.findall(text or ""))


def query_terms(query: str) -> list[str]:
    """The distinct stems of a query, in order (at most ``MAX_TERMS``)."""
    terms: list[str] = []
    for word in WORD.findall(query or ""):
        term = stem(word)
        if term not in terms:
            terms.append(term)
    return terms[:MAX_TERMS]


@dataclass(frozen=True, slots=True)
class Hit:
    """A page that matched: its id, the language(s) it matched in (best first), its score."""

    page_id: int
    langs: tuple[str, ...]
    score: float


# ---------------------------------------------------------------------------
# Indexing


def _page_texts(page) -> list[tuple[str, str, str, str]]:
    """(lang, title, summary, plain body) for each language the page is written in."""
    from .rendering import plain_text

    texts = []
    for code in LANGUAGE_CODES:
        title = getattr(page, f"title_{code}", None) or ""
        body = getattr(page, f"body_{code}", None) or ""
        if not (title.strip() or body.strip()):
            continue
        summary = getattr(page, f"summary_{code}", None) or ""
        texts.append((code, title, summary, plain_text(body)))
    return texts


def _sqlite() -> bool:
    return connection.vendor == "sqlite"


def index_page(page) -> None:
    """(Re)index one page in every language it has."""
    if not _sqlite():
        return  # PostgreSQL searches the columns directly.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM wiki_page_fts WHERE page_id = %s", [page.pk])
        for code, title, summary, body in _page_texts(page):
            cursor.execute(
                "INSERT INTO wiki_page_fts (page_id, lang, title, summary, body) "
                "VALUES (%s, %s, %s, %s, %s)",
                [page.pk, code, stem_text(title), stem_text(summary), stem_text(body)],
            )


def remove_page(page_id: int) -> None:
    if _sqlite():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM wiki_page_fts WHERE page_id = %s", [page_id])


# ---------------------------------------------------------------------------
# Searching


def _fts_term(term: str, prefix: bool) -> str:
    quoted = '"' + term.replace('"', '""') + '"'
    return quoted + "*" if prefix and len(term) >= MIN_PREFIX else quoted


def _sqlite_search(terms: list[str], limit: int) -> list[tuple[int, str, float]]:
    rows: list[tuple[int, str, float]] = []
    # Every word must match; when that finds nothing, any word may.
    for joiner in (" AND ", " OR "):
        expression = joiner.join(_fts_term(t, prefix=True) for t in terms)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT page_id, lang, bm25(wiki_page_fts, 0, 0, 10.0, 4.0, 1.0) AS score "
                "FROM wiki_page_fts WHERE wiki_page_fts MATCH %s ORDER BY score LIMIT %s",
                [expression, limit],
            )
            rows = [(int(pid), lang, float(score)) for pid, lang, score in cursor.fetchall()]
        if rows or len(terms) == 1:
            break
    return rows


def _tsquery(query: str, joiner: str) -> str:
    """A raw tsquery of the query's words, each a prefix match (PostgreSQL stems them)."""
    words = [fold(w) for w in WORD.findall(query) if "_" not in w][:MAX_TERMS]
    return joiner.join(f"{w}:*" if len(w) >= MIN_PREFIX else w for w in words)


def _postgres_search(query: str, limit: int) -> list[tuple[int, str, float]]:
    from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

    from .models import Page

    configs = {"en": "english", "ru": "russian"}
    rows: list[tuple[int, str, float]] = []
    # Every word must match; when that finds nothing, any word may.
    for joiner in (" & ", " | "):
        raw = _tsquery(query, joiner)
        if not raw:
            return []
        either = SearchQuery(raw, config="english", search_type="raw") | SearchQuery(
            raw, config="russian", search_type="raw"
        )
        rows = []
        for code in LANGUAGE_CODES:
            config = configs.get(code, "simple")
            vector = (
                SearchVector(f"title_{code}", weight="A", config=config)
                + SearchVector(f"summary_{code}", weight="B", config=config)
                + SearchVector(f"body_{code}", weight="C", config=config)
            )
            ranked = (
                Page.objects.annotate(document=vector, rank=SearchRank(vector, either))
                .filter(document=either)
                .order_by("-rank")
                .values_list("pk", "rank")[:limit]
            )
            # Lower is better, as with BM25 on SQLite.
            rows += [(pk, code, -float(rank)) for pk, rank in ranked]
        if rows or " " not in raw:
            break
    return sorted(rows, key=lambda row: row[2])


def search_pages(query: str, *, limit: int = 200) -> list[Hit]:
    """Pages matching ``query`` in any language, best first (unpublished ones included:
    callers filter)."""
    terms = query_terms(query)
    if not terms:
        return []
    rows = _sqlite_search(terms, limit) if _sqlite() else _postgres_search(query, limit)
    best: dict[int, tuple[float, list[str]]] = {}
    for page_id, lang, score in rows:
        if page_id in best:
            best[page_id][1].append(lang)
        else:
            best[page_id] = (score, [lang])
    hits = [Hit(pid, tuple(langs), score) for pid, (score, langs) in best.items()]
    return sorted(hits, key=lambda h: h.score)


# ---------------------------------------------------------------------------
# Snippets


def page_plain_text(page, lang: str) -> str:
    """The readable words of a page's body in ``lang``, cached per revision (for snippets)."""
    from django.core.cache import cache

    from .rendering import plain_text

    updated = page.updated_at.timestamp() if page.updated_at else 0
    key = f"wiki:text:{page.pk}:{page.revision_number}:{updated}:{lang}"
    text = cache.get(key)
    if text is None:
        text = plain_text(getattr(page, f"body_{lang}", None) or "")
        cache.set(key, text, 60 * 60 * 24)
    return text


def _matches(word: str, terms: list[str]) -> bool:
    return _matches_cached(word, tuple(terms))


@lru_cache(maxsize=100_000)
def _matches_cached(word: str, terms: tuple[str, ...]) -> bool:
    """Memoised: a results page asks about the same few hundred words thousands of times."""
    word_stem = stem(word)
    folded = fold(word)
    return any(
        word_stem == t
        or (len(t) >= MIN_PREFIX and (word_stem.startswith(t) or folded.startswith(t)))
        for t in terms
    )


def highlight(text: str, terms: list[str]) -> SafeString:
    """``text`` escaped, with every word matching the query wrapped in ``<mark>``."""
    return _mark(text, terms, 0, len(text))


def _mark(text: str, terms: list[str], start: int, end: int) -> SafeString:
    out: list[str] = []
    pos = start
    for match in WORD.finditer(text, start, end):
        if _matches(match.group(), terms):
            out.append(escape(text[pos : match.start()]))
            out.append(f"<mark>{escape(match.group())}</mark>")
            pos = match.end()
    out.append(escape(text[pos:end]))
    return mark_safe("".join(out))


def snippet(text: str, terms: list[str], *, words: int = 32) -> SafeString:
    """The ``words``-word window of ``text`` with the most query matches, highlighted."""
    spans = [(m.start(), m.end(), _matches(m.group(), terms)) for m in WORD.finditer(text)]
    if not spans:
        return mark_safe("")
    flags = [hit for _s, _e, hit in spans]
    best_start, best_score, window = 0, -1, min(words, len(spans))
    score = sum(flags[:window])
    for first in range(0, len(spans) - window + 1):
        if first:
            score += flags[first + window - 1] - flags[first - 1]
        # Prefer windows that start at a match over ones that cut in mid-phrase.
        if score > best_score:
            best_start, best_score = first, score
    if best_score > 0:
        # Start a few words before the first match so it reads in context.
        first_hit = next(i for i in range(best_start, best_start + window) if flags[i])
        best_start = max(0, min(first_hit - 4, len(spans) - window))
    start = spans[best_start][0]
    last = min(best_start + window, len(spans)) - 1
    end = spans[last][1]
    # Snap the window to the start of the line it begins in when that is close.
    line_start = text.rfind("\n", 0, start) + 1
    if start - line_start < 40:
        start = line_start
    body = _mark(text, terms, start, end).replace("\n", " · ")
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(text.rstrip()) else ""
    return mark_safe(prefix + body + suffix)
