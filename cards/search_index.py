"""The word index behind the card search: each word of a query is one index look-up.

A bare word, a phrase, ``name:`` and the attribute fields (``head:`` … ``attr:``) match
*words*: a card name or attribute name matches ``tan`` when one of its words starts with
"tan" (case and accents folded). That is what an index can answer without reading every
row — the free-text search used to compare each word with every card's name, and 250
one-letter words took 2.3 s on 78,000 cards.

* SQLite: two FTS5 tables (``unicode61`` tokenizer, diacritics removed, prefix indexes
  for one to three letters) hold the card names and the attribute names, row id = the
  row's id. Triggers on ``cards_card`` and ``cards_attribute`` keep them in step with every
  write, the ORM's bulk inserts and raw UPDATEs included.
* PostgreSQL: GIN indexes over ``to_tsvector('simple', name)`` of both tables; nothing to
  keep in step.

The index tables keep the names they had when the explorer owned them.

``ensure()`` creates whatever is missing (the migration calls it, and so does every
``migrate`` afterwards through ``post_migrate``, because SQLite drops a table's triggers
when a later migration rebuilds the table) and refills an index that has drifted.

>>> fts_phrase("Qx Mitten"), fts_phrase("#"), fts_phrase("a")
('"Qx Mitten"*', None, '"a"')
>>> ts_query("pom-pom"), ts_query("Oracle crown", phrase=True)
("'pom':* & 'pom':*", "'oracle' <-> 'crown':*")
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

__all__ = [
    "ATTRIBUTE_INDEX",
    "CARD_INDEX",
    "attribute_ids_sql",
    "card_ids_sql",
    "ensure",
    "fts_phrase",
    "ts_any",
    "ts_query",
]

CARD_INDEX = "explorer_card_name"
ATTRIBUTE_INDEX = "explorer_attribute_name"
_TOKEN = re.compile(r"[^\W_]+")
MIN_PREFIX = 2  # letters a word needs to be read as the start of longer words

_SQLITE_TABLES = {
    CARD_INDEX: "cards_card",
    ATTRIBUTE_INDEX: "cards_attribute",
}


def _sqlite_statements(index: str, table: str) -> list[str]:
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {index} USING fts5("
        "name, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')",
        f"CREATE TRIGGER IF NOT EXISTS {index}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {index}(rowid, name) VALUES (new.id, new.name); END",
        f"CREATE TRIGGER IF NOT EXISTS {index}_ad AFTER DELETE ON {table} BEGIN "
        f"DELETE FROM {index} WHERE rowid = old.id; END",
        f"CREATE TRIGGER IF NOT EXISTS {index}_au AFTER UPDATE OF id, name ON {table} BEGIN "
        f"DELETE FROM {index} WHERE rowid = old.id; "
        f"INSERT INTO {index}(rowid, name) VALUES (new.id, new.name); END",
    ]


_POSTGRES_INDEXES = {
    CARD_INDEX: "cards_card",
    ATTRIBUTE_INDEX: "cards_attribute",
}


def _postgres_statement(index: str, table: str) -> str:
    return (
        f"CREATE INDEX IF NOT EXISTS {index}_tsv ON {table} "
        "USING gin (to_tsvector('simple'::regconfig, COALESCE(name, '')))"
    )


def ensure(connection: BaseDatabaseWrapper | None = None) -> list[str]:
    """Create the indexes (and SQLite's triggers) where missing; refill a drifted index.

    Returns what it did, for the migration's and ``migrate``'s output. Safe to call
    again and again: on a healthy database it only reads the schema and two row counts.
    """
    connection = connection or connections["default"]
    if connection.vendor == "sqlite":
        return _ensure_sqlite(connection)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for index, table in _POSTGRES_INDEXES.items():
                cursor.execute(_postgres_statement(index, table))
        return []
    return []


def _ensure_sqlite(connection: BaseDatabaseWrapper) -> list[str]:
    done = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")
        present = {row[0] for row in cursor.fetchall()}
        for index, table in _SQLITE_TABLES.items():
            if table not in present:
                continue  # the cards app is not migrated yet
            wanted = {index, f"{index}_ai", f"{index}_ad", f"{index}_au"}
            missing = wanted - present
            for statement in _sqlite_statements(index, table):
                cursor.execute(statement)
            cursor.execute(f"SELECT COUNT(*) FROM {index}")
            indexed = cursor.fetchone()[0]
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            rows = cursor.fetchone()[0]
            if missing or indexed != rows:
                cursor.execute(f"DELETE FROM {index}")
                cursor.execute(f"INSERT INTO {index}(rowid, name) SELECT id, name FROM {table}")
                done.append(f"{index}: {rows} rows indexed")
    return done


# ---------------------------------------------------------------------------
# Look-ups


def _prefix(words: list[str]) -> bool:
    """The last word is read as a prefix when it has ``MIN_PREFIX`` letters or more: a
    single letter matches only itself as a word ("a"), else it would match half of all
    names and the index would save nothing."""
    return len(words[-1]) >= MIN_PREFIX


def fts_phrase(text: str) -> str | None:
    """An FTS5 query matching ``text``'s words in order, the last one as a prefix; None
    when the text has no word characters at all (it can match no name)."""
    words = _TOKEN.findall(text)
    if not words:
        return None
    return '"' + text.replace('"', '""') + '"' + ("*" if _prefix(words) else "")


def ts_query(text: str, phrase: bool = False) -> str | None:
    """A PostgreSQL tsquery for ``text``'s words (the last one a prefix), or None."""
    words = [w.lower() for w in _TOKEN.findall(text)]
    if not words:
        return None
    last = f"'{words[-1]}'" + (":*" if _prefix(words) else "")
    if not phrase:
        return " & ".join(
            [*(f"'{w}':*" if len(w) >= MIN_PREFIX else f"'{w}'" for w in words[:-1]), last]
        )
    return " <-> ".join([*(f"'{w}'" for w in words[:-1]), last])


Alternatives = Sequence[tuple[str, bool]]
"""Texts to match, each with whether it is a phrase; a row matching any one is found."""


def _match(index: str, table: str, texts: Alternatives, vendor: str) -> tuple[str, list] | None:
    if vendor == "sqlite":
        parts = [p for p in (fts_phrase(text) for text, _phrase in texts) if p is not None]
        if not parts:
            return None
        return f"SELECT rowid FROM {index} WHERE {index} MATCH %s", [" OR ".join(parts)]
    query = ts_any(texts)
    if query is None:
        return None
    return (
        f"SELECT id FROM {table} WHERE to_tsvector('simple'::regconfig, COALESCE(name, '')) "
        "@@ to_tsquery('simple'::regconfig, %s)",
        [query],
    )


def ts_any(texts: Alternatives) -> str | None:
    """One PostgreSQL tsquery matching any of ``texts``, or None when none has a word."""
    queries = [q for q in (ts_query(text, phrase) for text, phrase in texts) if q is not None]
    return " | ".join(f"({q})" for q in queries) if queries else None


def card_ids_sql(texts: Alternatives, vendor: str) -> tuple[str, list] | None:
    """SQL selecting the ids of cards whose name has the words of one of ``texts`` (one
    look-up in the name index, however many alternatives); None when no text has a word
    character, so nothing can match."""
    return _match(CARD_INDEX, "cards_card", texts, vendor)


def attribute_ids_sql(texts: Alternatives, vendor: str) -> tuple[str, list] | None:
    """SQL selecting the ids of attributes whose name has the words of one of ``texts``."""
    return _match(ATTRIBUTE_INDEX, "cards_attribute", texts, vendor)
