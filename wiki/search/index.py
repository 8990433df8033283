"""The SQLite FTS5 index (``wiki_page_fts``): what a page's row holds (stems, each
followed by its synonym group's key; the headings apart), kept in step on every save and
rebuilt when the synonym table changes. PostgreSQL needs none: it searches the columns."""

from __future__ import annotations

import re

from django.db import connection

from .. import synonyms
from ..selectors import LANGUAGE_CODES
from ..stemming import stem
from .query import WORD


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
