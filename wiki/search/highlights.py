"""A results page's titles and snippets highlighted by the database's own matching, in one
query: FTS5's highlight() on SQLite, ts_headline on PostgreSQL."""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, islice

from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from core.memo import Kept

from .. import synonyms
from .backends import _fts_term, _ts_term
from .index import _sqlite
from .query import WORD, ParsedQuery
from .snippets import _matches, highlight, snippet

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
