"""Full-text search over wiki pages in both languages, behind one small interface.

``parse_query(text, vocabulary())`` reads what a visitor typed: the words searched (each
with its synonyms), the words no published page has (left out, each with a "did you mean"
suggestion when a close word exists) and the words past the limit. ``find(parsed)``
returns ranked hits and says whether every word matched or, failing that, any word.
``index_page`` / ``remove_page`` keep the index in step (``wiki.services`` calls them on
every save); ``snippet`` highlights the query's words in a text. Which backend runs
depends on the database:

* SQLite: an FTS5 table (``wiki_page_fts``, created by migration 0002) holding the
  Snowball stems of each page's title, summary and body per language, tokenised by
  ``unicode61`` (which folds Cyrillic case and diacritics). Each word is stemmed by its
  script — Cyrillic words with the Russian stemmer, others with the English one — in the
  index and in the query alike, so "редкости" finds "редкость" and "skills" finds
  "skill" on pages of either language. A word of a synonym group (``wiki.synonyms``) is
  indexed with its group's key too, and a query word is looked up by its stem and by its
  group's key: "навыки" finds the pages that say "скилл". The headings of a page's body
  have a column of their own too.
* PostgreSQL: ``SearchVector`` / ``SearchQuery`` / ``SearchRank`` with the ``english``
  configuration for English columns and ``russian`` for Russian ones (weights A/B/C);
  a query word is expanded into every word of its synonym group.

A question's function words ("how", "does", «как», «что», «такое») are optional: they are
not searched unless the query has nothing else (``wiki.stemming.FUNCTION_WORDS``). Ranking,
on both backends: first the pages with more of the words (when no page has them all), then
those whose title or headings hold more of them, then the database's score (SQLite: BM25
with the title weighted 10, the headings 6, the summary 4 and the body 1; PostgreSQL keeps
no headings apart, so there the titles alone count).

Snippets use one highlighter for both backends: it stems the text's words the same way
and marks those whose stem matches the query's, synonyms included.

>>> stem("Редкости"), stem("skills"), stem("ёлка")
('редкост', 'skill', 'елк')
>>> query_terms("Skills of редкости")
['skill', 'of', 'редкост']
>>> [t.word for t in parse_query("навыки навыков energy").terms]
['навыки', 'energy']
"""

from __future__ import annotations

import bisect
import difflib
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress, islice

from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from core.memo import Kept, cached, memo, shared

from .. import synonyms
from ..selectors import LANGUAGE_CODES
from ..stemming import CYRILLIC, fold, is_function_word, stem

WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 12
MIN_PREFIX = 3
#: A word still being typed reaches the synonym groups of the words it begins, from here.
MIN_SYNONYM_PREFIX = 4


def index_text(text: str) -> str:
    """What the SQLite index holds for a text: each word's stem, followed by its synonym
    group's key when it has one."""
    tokens: list[str] = []
    for word in WORD.findall(text or ""):
        word_stem = stem(word)
        tokens.append(word_stem)
        key = synonyms.key_of_stem(word_stem)
        if key:
            tokens.append(key)
    return " ".join(tokens)


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


# ---------------------------------------------------------------------------
# What the published pages say: known words and "did you mean"


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


@dataclass(frozen=True, slots=True)
class Hit:
    """A page that matched: its id, the language(s) it matched in (best first), its score."""

    page_id: int
    langs: tuple[str, ...]
    score: float


# ---------------------------------------------------------------------------
# Indexing


_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def headings(body: str) -> str:
    """The Markdown headings of a body, one a line, without their links' addresses
    (read with string operations, as the wiki's own syntax is).

    >>> headings("# Energy\\n\\nText.\\n\\n## Deploy [costs](/en/x/) ##\\n#7 is no heading")
    'Energy\\nDeploy [costs]'
    """
    found = []
    for line in (body or "").splitlines():
        text = line.lstrip(" ")
        if len(line) - len(text) > 3:
            continue  # indented code
        level = len(text) - len(text.lstrip("#"))
        if 1 <= level <= 6 and text[level : level + 1] in (" ", "\t"):
            found.append(_LINK_TARGET.sub("]", text[level:].strip().rstrip("#").strip()))
    return "\n".join(found)


def _page_texts(page) -> list[tuple[str, str, str, str, str]]:
    """(lang, title, summary, plain body, headings) for each language the page is written
    in."""
    from ..rendering import plain_text

    texts = []
    for code in LANGUAGE_CODES:
        title = getattr(page, f"title_{code}", None) or ""
        body = getattr(page, f"body_{code}", None) or ""
        if not (title.strip() or body.strip()):
            continue
        summary = getattr(page, f"summary_{code}", None) or ""
        texts.append((code, title, summary, plain_text(body), headings(body)))
    return texts


def _sqlite() -> bool:
    return connection.vendor == "sqlite"


def index_page(page) -> None:
    """(Re)index one page in every language it has."""
    if not _sqlite():
        return  # PostgreSQL searches the columns directly.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM wiki_page_fts WHERE page_id = %s", [page.pk])
        for code, title, summary, body, heads in _page_texts(page):
            cursor.execute(
                "INSERT INTO wiki_page_fts (page_id, lang, title, summary, body, headings) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                [
                    page.pk,
                    code,
                    index_text(title),
                    index_text(summary),
                    index_text(body),
                    index_text(heads),
                ],
            )


def remove_page(page_id: int) -> None:
    if _sqlite():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM wiki_page_fts WHERE page_id = %s", [page_id])


#: The row that records which synonym table (and which way of indexing: "2" since the
#: headings have a column) the SQLite index was built with (no page has id 0, and the
#: row's texts are empty, so no search ever finds it).
_TABLE_ROW = "synonyms:2:"


def reindex_all() -> int:
    """Rebuild the SQLite index from every page; returns how many pages were indexed."""
    from ..models import Page

    if not _sqlite():
        return 0
    pages = list(Page.objects.all())
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM wiki_page_fts")
        cursor.execute(
            "INSERT INTO wiki_page_fts (page_id, lang, title, summary, body, headings) "
            "VALUES (0, %s, '', '', '', '')",
            [_TABLE_ROW + synonyms.FINGERPRINT],
        )
    for page in pages:
        index_page(page)
    return len(pages)


def ensure_index_current() -> bool:
    """Rebuild the SQLite index if it was built with another synonym table (after
    ``migrate``: see ``WikiConfig``). Returns whether it rebuilt."""
    if not _sqlite():
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wiki_page_fts'"
        )
        if cursor.fetchone() is None:
            return False  # not migrated yet
        cursor.execute(
            "SELECT 1 FROM wiki_page_fts WHERE page_id = 0 AND lang = %s",
            [_TABLE_ROW + synonyms.FINGERPRINT],
        )
        if cursor.fetchone() is not None:
            return False
    reindex_all()
    return True


# ---------------------------------------------------------------------------
# Searching


def _fts_string(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def _fts_term(term: Term) -> str:
    """One query word for FTS5: its stem (a prefix, from ``MIN_PREFIX`` letters) or any
    of its synonym groups' keys."""
    own = [_fts_string(term.stem) + ("*" if len(term.stem) >= MIN_PREFIX else "")]
    alternatives = (own if term.own else []) + [_fts_string(key) for key in term.keys]
    return alternatives[0] if len(alternatives) == 1 else "(" + " OR ".join(alternatives) + ")"


def _sqlite_search(
    terms: tuple[Term, ...], limit: int
) -> tuple[list[tuple[int, str, float]], bool]:
    rows: list[tuple[int, str, float]] = []
    # Every word must match; when that finds nothing, any word may.
    for joiner in (" AND ", " OR "):
        expression = joiner.join(_fts_term(t) for t in terms)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT page_id, lang, bm25(wiki_page_fts, 0, 0, 10.0, 4.0, 1.0, 6.0) AS score "
                "FROM wiki_page_fts WHERE wiki_page_fts MATCH %s AND page_id > 0 "
                "ORDER BY score LIMIT %s",
                [expression, limit],
            )
            rows = [(int(pid), lang, float(score)) for pid, lang, score in cursor.fetchall()]
        if rows or len(terms) == 1:
            all_words = joiner == " AND " or len(terms) == 1
            return _ranked(rows, terms, all_words, _sqlite_counts), all_words
    return rows, False


#: Where a page says what it is about: a page whose title or headings hold the query's
#: words ranks first.
_TITLE_COLUMNS = "{title headings}"

_Counts = tuple[Counter[tuple[int, str]], Counter[tuple[int, str]]]


def _sqlite_counts(terms: tuple[Term, ...], page_ids: list[int], anywhere: bool) -> _Counts:
    """How many of the query's words each (page, language) row holds in its title or
    headings and, when ``anywhere``, in any column: one query."""
    titled: Counter[tuple[int, str]] = Counter()
    found: Counter[tuple[int, str]] = Counter()
    if not page_ids or not terms:
        return titled, found
    places = ", ".join(["%s"] * len(page_ids))
    selects: list[str] = []
    params: list = []
    for term in terms:
        for kind, expression in (
            ("t", f"{_TITLE_COLUMNS} : {_fts_term(term)}"),
            ("a", _fts_term(term)),
        ):
            if kind == "a" and not anywhere:
                continue
            selects.append(
                f"SELECT page_id, lang, '{kind}' AS kind FROM wiki_page_fts "
                f"WHERE wiki_page_fts MATCH %s AND page_id IN ({places})"
            )
            params += [expression, *page_ids]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT page_id, lang, kind, COUNT(*) FROM ("
            + " UNION ALL ".join(selects)
            + ") GROUP BY page_id, lang, kind",
            params,
        )
        for pid, lang, kind, n in cursor.fetchall():
            (titled if kind == "t" else found)[int(pid), lang] = int(n)
    return titled, found


def _ranked(
    rows: list[tuple[int, str, float]],
    terms: tuple[Term, ...],
    all_words: bool,
    counts: Callable[[tuple[Term, ...], list[int], bool], _Counts],
) -> list[tuple[int, str, float]]:
    """The rows (best score first) ranked for a question: first by how many of the words
    the row has (when not every row has them all), then by how many of them its title or
    headings hold, then by score."""
    if len(rows) < 2:
        return rows
    page_ids = sorted({pid for pid, _lang, _score in rows})
    titled, anywhere = counts(terms, page_ids, not all_words)
    return sorted(
        rows,
        key=lambda row: (-anywhere[row[0], row[1]], -titled[row[0], row[1]], row[2]),
    )


def _ts_word(word: str, prefix: bool) -> str | None:
    """A word as a raw tsquery operand (PostgreSQL stems it), or None if it has none."""
    word = fold(word)
    if not word or "_" in word or not WORD.fullmatch(word):
        return None
    return f"{word}:*" if prefix and len(word) >= MIN_PREFIX else word


def _ts_term(term: Term) -> str | None:
    """One query word as a tsquery: the word (a prefix) or any word of its synonyms."""
    own = _ts_word(term.word, prefix=True) if term.own else None
    alternatives = [own] if own else []
    for key in term.keys:
        for member in synonyms.words_of(key):
            operand = _ts_word(member, prefix=False)
            if operand and operand not in alternatives:
                alternatives.append(operand)
    if not alternatives:
        return None
    return alternatives[0] if len(alternatives) == 1 else "(" + " | ".join(alternatives) + ")"


def _postgres_search(
    terms: tuple[Term, ...], limit: int
) -> tuple[list[tuple[int, str, float]], bool]:
    from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

    from ..models import Page

    operands = [op for t in terms if (op := _ts_term(t))]
    if not operands:
        return [], True
    configs = {"en": "english", "ru": "russian"}
    rows: list[tuple[int, str, float]] = []
    # Every word must match; when that finds nothing, any word may.
    for joiner in (" & ", " | "):
        raw = joiner.join(operands)
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
        if rows or len(operands) == 1:
            all_words = joiner == " & " or len(operands) == 1
            rows = sorted(rows, key=lambda row: row[2])
            return _ranked(rows, terms, all_words, _title_counts), all_words
    return rows, False


def _title_counts(terms: tuple[Term, ...], page_ids: list[int], anywhere: bool) -> _Counts:
    """``_sqlite_counts`` for PostgreSQL, which has no index of its own here: the words
    each (page, language) holds in its title (its headings are not kept apart there; of
    "anywhere" it says nothing, and the database's rank decides)."""
    from ..models import Page

    counts: Counter[tuple[int, str]] = Counter()
    fields = [f"title_{code}" for code in LANGUAGE_CODES]
    for pk, *titles in Page.objects.filter(pk__in=page_ids).values_list("pk", *fields):
        for code, title in zip(LANGUAGE_CODES, titles, strict=True):
            words = WORD.findall(title or "")
            counts[pk, code] = sum(
                any(_matches(w, list(_own_and_synonyms(t))) for w in words) for t in terms
            )
    return counts, Counter()


def _own_and_synonyms(term: Term) -> tuple[str, ...]:
    """A word's stems as the highlighter matches them: its own (a prefix) and, whole, its
    synonyms'."""
    return (term.stem, *(f"={s}" for s in term.stems[1:]))


@dataclass(frozen=True, slots=True)
class Found:
    """The hits, best first, and whether they have every word (else: any word)."""

    hits: tuple[Hit, ...]
    all_words: bool


def find(parsed: ParsedQuery, *, limit: int = 200) -> Found:
    """Pages matching the parsed query in any language, best first (unpublished ones
    included: callers filter). Every word must match; if no page has them all, pages
    with any of them are returned and ``all_words`` is False."""
    if not parsed.terms:
        return Found((), True)
    search = _sqlite_search if _sqlite() else _postgres_search
    rows, all_words = search(parsed.terms, limit)
    # The rows come ranked: a page's first row is its best language.
    best: dict[int, tuple[float, list[str]]] = {}
    for page_id, lang, score in rows:
        if page_id in best:
            best[page_id][1].append(lang)
        else:
            best[page_id] = (score, [lang])
    hits = [Hit(pid, tuple(langs), score) for pid, (score, langs) in best.items()]
    return Found(tuple(hits), all_words or not hits)


def search_pages(query: str, *, limit: int = 200) -> list[Hit]:
    """Pages matching ``query`` in any language, best first (no word left out)."""
    return list(find(parse_query(query), limit=limit).hits)


# ---------------------------------------------------------------------------
# Snippets


def page_plain_text(page, lang: str) -> str:
    """The readable words of a page's body in ``lang``, cached per revision (for snippets)."""
    return _body_text(page, lang, fall_back=False)[1]


def page_snippet_text(page, lang: str) -> tuple[str, str]:
    """The language a result's snippet of the page is in, asked for ``lang`` (English
    when the page has no body in ``lang``), and the readable words of that body: cached
    per revision, so a results page reads no body a search already read."""
    return _body_text(page, lang, fall_back=True)


def _body_text(page, lang: str, *, fall_back: bool) -> tuple[str, str]:
    from core.translated import localized

    from ..rendering import plain_text

    updated = page.updated_at.timestamp() if page.updated_at else 0
    parts = (page.pk, page.revision_number, updated, lang, int(fall_back))
    found = _TEXTS.get(parts)
    if found is not None:
        return found

    def build() -> tuple[str, str]:
        if fall_back:
            body = localized(page, "body", lang)
            return (body.lang, plain_text(body.value))
        return (lang, plain_text(getattr(page, f"body_{lang}", None) or ""))

    return _TEXTS.keep(parts, shared("wiki:text", (), parts, build, 60 * 60 * 24))


#: The readable words of the bodies last read, in this process too: a results page shows
#: a few pages' snippets, and unpickling a body's words from the cache for each was a
#: tenth of a search. The key names the revision and the edit's time, so an edit never
#: reads an old text.
_TEXTS: Kept[tuple, tuple[str, str]] = Kept(512)


def _matches(word: str, terms: list[str]) -> bool:
    return _matches_cached(word, tuple(terms))


@cached(maxsize=100_000)
def _matches_cached(word: str, terms: tuple[str, ...]) -> bool:
    """Memoised: a results page asks about the same few hundred words thousands of times."""
    word_stem = stem(word)
    folded = fold(word)
    return any(
        word_stem == t[1:]
        if t.startswith("=")
        else word_stem == t
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


# ---------------------------------------------------------------------------
# Highlighting by the database: FTS5's highlight() on SQLite, ts_headline on PostgreSQL
#
# The SQLite index holds each word's stem (and, after it, its synonym group's key), not the
# words themselves, so FTS5's snippet() would show stems. Its highlight() marks, in that
# stem text, every token the query matches — with FTS5's own matching: prefixes, synonym
# keys — and the stem text has one space-separated token per word of the page (plus the
# keys, which start with ``synonyms.KEY_MARK``), so the marks map back to the words.
# The window is then chosen from those flags, without stemming a word again.

_OPEN, _CLOSE = "\x01", "\x02"
_PG_OPEN, _PG_CLOSE = "\ue001", "\ue002"
SNIPPET_WORDS = 32
_FTS_COLUMNS = {"title": 2, "summary": 3, "body": 4}


@dataclass(frozen=True, slots=True)
class Ask:
    """One text to highlight for a result: ``parts`` are (column, language, text);
    a ``snippet`` is the best window of their texts joined by lines, a ``title`` the
    whole text."""

    page_id: int
    kind: str  # "title" or "snippet"
    parts: tuple[tuple[str, str, str], ...]


class _TextFacts:
    """What highlighting an asked text needs that no query changes, worked out once per
    text: each part's number of words, the offsets of the joined text's words, and (learnt
    from the part's first highlight()) the token numbers of its synonym keys. A body has
    thousands of words; finding them again on every search was a third of its time."""

    __slots__ = ("counts", "keys", "offsets")

    def __init__(self, texts: Iterable[str]) -> None:
        offsets = array("I")
        counts: list[int] = []
        base = 0
        for text in texts:
            before = len(offsets)
            for match in WORD.finditer(text):
                offsets.append(base + match.start())
                offsets.append(base + match.end())
            counts.append((len(offsets) - before) // 2)
            base += len(text) + 1  # the line break that joins the parts
        self.counts = tuple(counts)
        self.offsets = offsets
        #: Per part: (tokens in its index text, the token numbers of its keys), or None.
        self.keys: list[tuple[int, array] | None] = [None] * len(counts)

    def spans(self, first: int, last: int) -> list[tuple[int, int]]:
        """The (start, end) of words ``first`` to ``last`` (excluded) of the joined text."""
        offsets = self.offsets
        return list(
            zip(
                offsets[2 * first : 2 * last : 2],
                offsets[2 * first + 1 : 2 * last : 2],
                strict=True,
            )
        )

    def part_flags(
        self, part: int, text: str, highlighted: str | None, terms: list[str]
    ) -> list[bool]:
        """One flag per word of part ``part`` (its ``text``): whether highlight() marked it."""
        words = self.counts[part]
        if highlighted is None:
            return [False] * words  # that row has none of the words
        tokens = highlighted.count(" ") + 1 if highlighted else 0
        known = self.keys[part]
        if known is None or known[0] != tokens:  # first seen, or the index was rebuilt
            keys = _token_numbers(highlighted, synonyms.KEY_MARK) if highlighted else []
            self.keys[part] = known = (tokens, array("I", keys))
        flags = _flags_of(highlighted, known[1])
        if len(flags) != words:  # the index is behind the text (a page saved meanwhile)
            return [_matches(w, terms) for w in WORD.findall(text)]
        return flags


#: Texts' facts by (column, language, length, hash) of each part, the oldest dropped
#: first; at most ``_FACTS_KEPT`` of them (a body's are about 16 KB).
_FACTS_KEPT = 1024
_FACTS: Kept[tuple, _TextFacts] = Kept(_FACTS_KEPT)


def _facts_of(parts: tuple[tuple[str, str, str], ...]) -> _TextFacts:
    key = tuple((column, lang, len(text), hash(text)) for column, lang, text in parts)
    facts = _FACTS.get(key)
    if facts is None:
        facts = _FACTS.keep(key, _TextFacts(text for _c, _l, text in parts))
    return facts


def _flags_of(highlighted: str, keys: Sequence[int] | None = None) -> list[bool]:
    """One flag per word of an indexed text: whether highlight() marked it (or the
    synonym key that follows it). ``keys`` are the token numbers of the text's synonym
    keys when known (they do not depend on the query). Only the marks and the keys are
    looped over in Python (the rest are C scans): a body has thousands of tokens, a
    search marks a few."""
    if not highlighted:
        return []
    if keys is None:
        # The token numbers of the keys (each counts as part of the word before it)...
        keys = _token_numbers(highlighted, synonyms.KEY_MARK)
    flags = [False] * (highlighted.count(" ") + 1 - len(keys))
    # ...and of the marked tokens, each turned into its word's number.
    for number in _token_numbers(highlighted, _OPEN):
        before = bisect.bisect_left(keys, number)  # keys before this token
        if before < len(keys) and keys[before] == number:
            number -= 1  # a marked key marks its word
        flags[number - before] = True
    return flags


def _token_numbers(text: str, char: str) -> list[int]:
    """The numbers of the space-separated tokens of ``text`` holding ``char``, ascending
    (each once)."""
    numbers: list[int] = []
    index, pos, at = 0, 0, text.find(char)
    while at != -1:
        index += text.count(" ", pos, at)
        pos = at
        if not numbers or numbers[-1] != index:
            numbers.append(index)
        at = text.find(char, at + 1)
    return numbers


def _sqlite_marks(
    parsed: ParsedQuery, page_ids: list[int], langs: list[str]
) -> dict[tuple[int, str], dict[str, str]]:
    """highlight() of each column of the pages' index rows, for the query's words (any of
    them: a title in the other language shows the words it has)."""
    expression = " OR ".join(_fts_term(t) for t in parsed.terms)
    if not expression or not page_ids:
        return {}
    marks = ", ".join(
        f"highlight(wiki_page_fts, {column}, char(1), char(2))" for column in _FTS_COLUMNS.values()
    )
    places = ", ".join(["%s"] * len(page_ids))
    lang_places = ", ".join(["%s"] * len(langs))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT page_id, lang, {marks} FROM wiki_page_fts "
            f"WHERE wiki_page_fts MATCH %s AND page_id IN ({places}) "
            f"AND lang IN ({lang_places})",
            [expression, *page_ids, *langs],
        )
        return {
            (int(pid), lang): dict(zip(_FTS_COLUMNS, texts, strict=True))
            for pid, lang, *texts in cursor.fetchall()
        }


def _sqlite_highlight(parsed: ParsedQuery, asks: list[Ask]) -> list[SafeString]:
    rows = _sqlite_marks(
        parsed,
        sorted({a.page_id for a in asks}),
        sorted({lang for a in asks for _c, lang, _t in a.parts}),
    )
    terms = parsed.highlight
    out = []
    for ask in asks:
        facts = _facts_of(ask.parts)
        flags: list[bool] = []
        for part, (column, lang, text) in enumerate(ask.parts):
            marked = rows.get((ask.page_id, lang), {}).get(column)
            flags += facts.part_flags(part, text, marked, terms)
        text = "\n".join(t for _c, _l, t in ask.parts)
        if ask.kind == "title":
            out.append(_mark_flags(text, flags, 0, len(text), facts.spans(0, len(flags))))
        else:
            # One flag per word of the joined text (the parts' words, in order).
            out.append(_window(text, flags, SNIPPET_WORDS, len(flags), facts.spans))
    return out


def _mark_flags(
    text: str,
    flags: list[bool],
    start: int,
    end: int,
    spans: list[tuple[int, int]] | None = None,
    first: int = 0,
) -> SafeString:
    """``text[start:end]`` escaped, the words flagged wrapped in ``<mark>``: ``flags`` has
    one entry per word of the whole ``text``, ``spans`` are the offsets of its words from
    number ``first`` on (all of them by default)."""
    if spans is None:
        spans, first = [m.span() for m in WORD.finditer(text)], 0
    out: list[str] = []
    pos = start
    for number, (word_start, word_end) in enumerate(spans, first):
        if word_end <= start:
            continue
        if word_start >= end:
            break
        if number < len(flags) and flags[number]:
            out.append(escape(text[pos:word_start]))
            out.append(f"<mark>{escape(text[word_start:word_end])}</mark>")
            pos = word_end
    out.append(escape(text[pos:end]))
    return mark_safe("".join(out))


def _window(
    text: str,
    flags: list[bool],
    words: int,
    total: int | None = None,
    spans_of: Callable[[int, int], list[tuple[int, int]]] | None = None,
) -> SafeString:
    """The ``words``-word window of ``text`` with the most flagged words, starting a few
    words before its first one, highlighted. Only the flagged words are looped over in
    Python: a body has thousands of words, a search marks a few dozen. ``spans_of(first,
    last)`` gives the offsets of words ``first`` to ``last`` when they are known."""
    if total is None:
        total = len(WORD.findall(text))
    if not total:
        return mark_safe("")
    flags = (flags + [False] * total)[:total]
    window = min(words, total)
    hits = list(compress(range(total), flags))
    best_start = 0
    if hits:
        # The earliest hit that begins the window holding the most hits.
        best, first_hit, ahead = 0, hits[0], 0
        for at, hit in enumerate(hits):
            while ahead < len(hits) and hits[ahead] < hit + window:
                ahead += 1
            if ahead - at > best:
                best, first_hit = ahead - at, hit
        # Start a few words before it so it reads in context.
        best_start = max(0, min(first_hit - 4, total - window))
    if spans_of is None:
        spans = [m.span() for m in islice(WORD.finditer(text), best_start, best_start + window)]
    else:
        spans = spans_of(best_start, best_start + window)
    start, end = spans[0][0], spans[-1][1]
    last = best_start + len(spans) - 1
    # Snap the window to the start of the line it begins in when that is close.
    line_start = text.rfind("\n", 0, start) + 1
    if start - line_start < 40:
        start = line_start
    if last == total - 1:
        end = len(text.rstrip())  # the closing punctuation too
    body = _mark_flags(text, flags, start, end, spans, best_start).strip().replace("\n", " · ")
    # An ellipsis only where words were cut off.
    prefix = "… " if WORD.search(text, 0, start) else ""
    suffix = " …" if last < total - 1 else ""
    return mark_safe(prefix + body + suffix)


_PG_CONFIGS = {"en": "english", "ru": "russian"}


def _headline_html(headline: str, text: str, whole: bool) -> SafeString:
    """ts_headline's answer (the markers around matches) as escaped HTML with ``<mark>``."""
    html = escape(headline).replace(_PG_OPEN, "<mark>").replace(_PG_CLOSE, "</mark>")
    if whole:
        return mark_safe(html)
    plain = headline.replace(_PG_OPEN, "").replace(_PG_CLOSE, "").strip()
    prefix = "" if text.lstrip().startswith(plain[:40]) else "… "
    suffix = "" if text.rstrip().endswith(plain[-40:]) else " …"
    return mark_safe(prefix + html.strip().replace("\n", " · ") + suffix)


def _postgres_highlight(parsed: ParsedQuery, asks: list[Ask]) -> list[SafeString]:
    operands = [op for t in parsed.terms if (op := _ts_term(t))]
    if not operands or not asks:
        return [highlight("\n".join(t for _c, _l, t in a.parts), []) for a in asks]
    raw = " | ".join(operands)
    configs, texts, options = [], [], []
    for ask in asks:
        text = "\n".join(t for _c, _l, t in ask.parts)
        configs.append(_PG_CONFIGS.get(ask.parts[-1][1], "simple"))
        texts.append(text)
        common = f"StartSel={_PG_OPEN}, StopSel={_PG_CLOSE}"
        if ask.kind == "title":
            options.append(f"{common}, HighlightAll=true")
        else:
            options.append(
                f"{common}, MaxWords={SNIPPET_WORDS}, MinWords={SNIPPET_WORDS // 2}, ShortWord=2"
            )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT ts_headline(x.cfg::regconfig, x.body, to_tsquery(x.cfg::regconfig, %s), "
            "x.opts) FROM unnest(%s::text[], %s::text[], %s::text[]) WITH ORDINALITY "
            "AS x(cfg, body, opts, n) ORDER BY x.n",
            [raw, configs, texts, options],
        )
        headlines = [row[0] for row in cursor.fetchall()]
    return [
        _headline_html(headline, text, ask.kind == "title")
        for headline, text, ask in zip(headlines, texts, asks, strict=True)
    ]


def highlight_results(parsed: ParsedQuery, asks: list[Ask]) -> list[SafeString]:
    """Each asked title highlighted whole and each snippet as its best window, the query's
    words marked by the database's own matching (one query for a page of results)."""
    if not asks:
        return []
    if not parsed.terms:
        return [
            highlight(t, []) if a.kind == "title" else snippet(t, [])
            for a in asks
            for t in ["\n".join(p[2] for p in a.parts)]
        ]
    if _sqlite():
        return _sqlite_highlight(parsed, asks)
    return _postgres_highlight(parsed, asks)
