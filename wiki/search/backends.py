"""Finding the pages a parsed query matches, on either backend (SQLite: FTS5 with BM25;
PostgreSQL: ``SearchVector`` / ``SearchQuery`` / ``SearchRank``), and ranking them for a
question: more of the words first, then the words in the title or headings, then score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection

from .. import synonyms
from ..selectors import LANGUAGE_CODES
from ..stemming import fold
from .index import _sqlite
from .query import MIN_PREFIX, WORD, ParsedQuery, Term, parse_query
from .snippets import _matches


@dataclass(frozen=True, slots=True)
class Hit:
    """A page that matched: its id, the language(s) it matched in (best first), its score."""

    page_id: int
    langs: tuple[str, ...]
    score: float


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
    rows: list[tuple[int, str, float]] = []
    # Every word must match; when that finds nothing, any word may. The languages' own
    # configurations drop their stop words ("how", "как"), so a query made only of them
    # is searched again word for word ("simple"), as SQLite's index always does.
    attempts = [(" & ", False), (" | ", False), (" & ", True), (" | ", True)]
    for joiner, simple in attempts:
        if joiner == " | " and len(operands) == 1:
            continue  # one word: "any" is "every"
        raw = joiner.join(operands)
        if simple:
            either = SearchQuery(raw, config="simple", search_type="raw")
        else:
            either = SearchQuery(raw, config="english", search_type="raw") | SearchQuery(
                raw, config="russian", search_type="raw"
            )
        rows = []
        for code in LANGUAGE_CODES:
            config = "simple" if simple else {"en": "english", "ru": "russian"}.get(code, "simple")
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
        if rows:
            all_words = joiner == " & " or len(operands) == 1
            rows = sorted(rows, key=lambda row: row[2])
            return _ranked(rows, terms, all_words, _title_counts), all_words
    return [], len(operands) == 1


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
