"""Highlighting in Python, the same on both backends: the text's words stemmed as the
index stems them, those matching the query's stems (synonyms included) marked; and the
bodies' readable words, kept per revision, that snippets are cut from."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from core.memo import Kept, cached, shared

from ..stemming import fold, stem
from .query import MIN_PREFIX, WORD


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
