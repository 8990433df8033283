"""Paging that does not grow with the collection: counts that stop at 10,000, and a signed
keyset cursor for every page past the first ones.

A count reads at most ``MAX_EXACT_COUNT + 1`` index entries (``COUNT(*)`` over a
``LIMIT 10001`` subquery): up to 10,000 it is exact, beyond it is "more than 10,000".
Pages by number reach ``MAX_OFFSET`` cards deep (an OFFSET reads every row it skips); past
that, a page is asked with a cursor: the last card's sort value and token, signed with
``django.core.signing`` so that a tampered or expired one is refused (``CursorError``),
and bound to its search so that it cannot be replayed on another. The next page is then
``WHERE (sort column, token) after (value, token)`` read from the sort's index, however
deep it is.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core import signing
from django.db import OperationalError, connections, router
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from .models import Card
from .query import Query
from .search import MAX_EXACT_COUNT, SORT_COLUMNS, search_count

__all__ = [
    "CURSOR_MAX_AGE",
    "MAX_EXACT_COUNT",
    "MAX_OFFSET",
    "SEARCH_BUDGET_MS",
    "Count",
    "Cursor",
    "CursorError",
    "KeysetPage",
    "SearchTooBroad",
    "bounded_count",
    "keyset_page",
    "read_cursor",
    "search_budget",
]

#: How deep a page asked by its number may start; deeper pages go by cursor.
MAX_OFFSET = 10_000
#: How long a cursor stays valid (seconds): a day.
CURSOR_MAX_AGE = 24 * 60 * 60
_SALT = "cards.paging.cursor"
# Sort columns that may hold NULL: their cards come last in either direction.
_NULLABLE = frozenset({"getgems_rank", "wardrobe_score"})


class CursorError(ValueError):
    """A cursor that was tampered with, expired, or belongs to another search."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Count:
    """How many cards a search finds: exact up to ``MAX_EXACT_COUNT``, else ``over``."""

    value: int  # at most MAX_EXACT_COUNT
    over: bool

    @property
    def exact(self) -> int | None:
        return None if self.over else self.value

    @classmethod
    def of(cls, counted: int) -> Count:
        """A count that read up to ``MAX_EXACT_COUNT + 1`` rows (``search_count``)."""
        return cls(min(counted, MAX_EXACT_COUNT), counted > MAX_EXACT_COUNT)


def bounded_count(query: Query, found: QuerySet[Card]) -> Count:
    """How many cards ``found`` (``search_cards(query)``) holds, reading at most
    ``MAX_EXACT_COUNT + 1`` index entries (kept per collection version)."""
    return Count.of(search_count(query, found))


def _search_key(query: Query, size: int, starters: bool = False) -> str:
    text = repr((query.root, query.sort, size, starters))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _encode_value(value: object) -> object:
    return str(value) if isinstance(value, Decimal) else value


def make_cursor(query: Query, size: int, page: int, value: object, token: int) -> str:
    """The cursor of the page after a card whose sort value is ``value``; ``page`` is the
    number that page has (for its display)."""
    payload = {"k": _search_key(query, size), "p": page, "v": _encode_value(value), "t": token}
    return signing.dumps(payload, salt=_SALT, compress=True)


@dataclass(frozen=True, slots=True)
class Cursor:
    page: int
    value: object
    token: int


def read_cursor(text: str, query: Query, size: int) -> Cursor:
    """The cursor ``text`` carries, or ``CursorError`` (a 400) when it was tampered with,
    has expired, or was made for another search or page size."""
    try:
        payload = signing.loads(text, salt=_SALT, max_age=CURSOR_MAX_AGE)
    except signing.SignatureExpired as error:
        raise CursorError(
            "expired_cursor",
            _("This page's link has expired. Start the search again from its first page."),
        ) from error
    except (signing.BadSignature, ValueError) as error:
        raise CursorError(
            "bad_cursor",
            _("This page's link is damaged. Start the search again from its first page."),
        ) from error
    try:
        key, page, value, token = payload["k"], payload["p"], payload["v"], payload["t"]
        if not isinstance(page, int) or not isinstance(token, int) or page < 1:
            raise TypeError
    except (TypeError, KeyError) as error:
        raise CursorError(
            "bad_cursor",
            _("This page's link is damaged. Start the search again from its first page."),
        ) from error
    if key != _search_key(query, size):
        raise CursorError(
            "cursor_mismatch",
            _(
                "This page's link belongs to another search or page size. Start the search "
                "again from its first page."
            ),
        )
    return Cursor(page, value, token)


def _column(query: Query) -> tuple[str, bool]:
    return SORT_COLUMNS[query.sort.lstrip("-")], query.sort.startswith("-")


def _after(column: str, descending: bool, value: object, token: int) -> Q:
    """Rows after (value, token) in the order (column ASC|DESC, token ASC); a range on the
    index's first column, so that the database seeks instead of scanning."""
    if column == "token":
        return Q(token__lt=token) if descending else Q(token__gt=token)
    if value is None:  # in the trailing NULLs: by token among them
        return Q(**{f"{column}__isnull": True}, token__gt=token)
    near, far = ("lte", "lt") if descending else ("gte", "gt")
    return Q(**{f"{column}__{near}": value}) & (
        Q(**{f"{column}__{far}": value}) | Q(token__gt=token)
    )


@dataclass(frozen=True, slots=True)
class KeysetPage:
    ids: list[int]
    number: int
    next_cursor: str | None


def _slice(found: QuerySet[Card], column: str, limit: int) -> list[tuple[Any, ...]]:
    return list(found.values_list("pk", "token", column)[:limit])


def keyset_page(
    query: Query, found: QuerySet[Card], size: int, *, cursor: Cursor | None, offset: int = 0
) -> KeysetPage:
    """A page of ``found`` (ids in order): at ``offset`` without a cursor, else after the
    cursor's card; and the cursor of the page after it (None: this is the last)."""
    column, descending = _column(query)
    number = cursor.page if cursor else offset // size + 1
    if cursor is None:
        rows = list(found.values_list("pk", "token", column)[offset : offset + size + 1])
    else:
        after = found.filter(_after(column, descending, cursor.value, cursor.token))
        rows = _slice(after, column, size + 1)
        if column in _NULLABLE and cursor.value is not None and len(rows) <= size:
            nulls = found.filter(**{f"{column}__isnull": True})
            rows += _slice(nulls, column, size + 1 - len(rows))
    more = len(rows) > size
    rows = rows[:size]
    next_cursor = None
    if more and rows:
        _pk, token, value = rows[-1]
        next_cursor = make_cursor(query, size, number + 1, value, token)
    return KeysetPage([row[0] for row in rows], number, next_cursor)


#: How long one search's queries may run (milliseconds) before it is refused as too broad:
#: a search whose filter the sort's index cannot narrow (``atk>=19 sort:name``) may read
#: every card of a million before its page is full.
SEARCH_BUDGET_MS = 2000


class SearchTooBroad(Exception):
    """A search that reads too much of the collection (a 400 saying how to narrow it)."""

    code = "search_too_broad"

    @property
    def message(self) -> str:
        return _(
            "This search reads too much of the collection to answer at once. Narrow it: "
            "add a rarity (r:epic), a range on the value you sort by (atk>=15 sort:-atk), "
            "a word or an attribute, or sort by a field you filter on."
        )


def _interrupted(error: OperationalError) -> bool:
    text = str(error).lower()
    return "interrupted" in text or "canceling statement" in text


@contextmanager
def search_budget(milliseconds: int | None = None) -> Iterator[None]:
    """Run a search's queries with a time budget; past it, ``SearchTooBroad``.

    SQLite: a progress handler that interrupts the statement past the deadline.
    PostgreSQL: a timer that cancels the running statement past the deadline.
    """
    budget = SEARCH_BUDGET_MS if milliseconds is None else milliseconds
    connection = connections[router.db_for_read(Card)]
    connection.ensure_connection()
    raw = connection.connection
    if connection.vendor == "sqlite":
        deadline = time.monotonic() + budget / 1000
        raw.set_progress_handler(lambda: int(time.monotonic() > deadline), 1000)

        def stop() -> None:
            raw.set_progress_handler(None, 0)

    elif connection.vendor == "postgresql":
        # A timer cancels the running statement (psycopg's cancel, from another thread):
        # no query of its own, no transaction; a statement that ends first is not touched.
        timer = threading.Timer(max(budget, 1) / 1000, raw.cancel)
        timer.daemon = True
        timer.start()
        stop = timer.cancel
    else:
        yield
        return
    try:
        yield
    except OperationalError as error:
        if _interrupted(error):
            raise SearchTooBroad from error
        raise
    finally:
        stop()
