"""Prepared SQL for an import's writes: INSERTs and UPDATEs of only the changed columns,
with their parameters converted in advance, run in batches."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, router

from .. import services
from ..models import Card


@dataclass
class _Statement:
    """One SQL statement and the parameter rows it runs with (executemany)."""

    sql: str
    rows: list[tuple[Any, ...]]


def _connection():
    return connections[router.db_for_write(Card)]


def _converters(model: type, names: Sequence[str]) -> list[Callable[[Any], Any]]:
    """How each column's Python value becomes a query parameter. Integers, text, booleans
    and ids pass as they are (the drivers adapt them); other fields (the Decimal score)
    go through the field's own preparation."""
    connection = _connection()
    out: list[Callable[[Any], Any]] = []
    for name in names:
        f = model._meta.get_field(name)
        if isinstance(f, models.DecimalField):
            out.append(functools.partial(f.get_db_prep_save, connection=connection))
        else:
            out.append(_same)
    return out


def _same(value: Any) -> Any:
    return value


def _insert(model: type, names: Sequence[str], rows: Iterable[Sequence[Any]]) -> _Statement:
    quote = _connection().ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(n).column) for n in names)
    marks = ", ".join(["%s"] * len(names))
    convert = _converters(model, names)
    return _Statement(
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})",
        [tuple(c(v) for c, v in zip(convert, row, strict=True)) for row in rows],
    )


def _updates(
    model: type, names: Sequence[str], rows: Iterable[tuple[int, Sequence[Any], Sequence[Any]]]
) -> list[_Statement]:
    """UPDATEs of (pk, old values, new values) rows that set only the columns that changed:
    one statement per set of changed columns (SQLite maintains an index for every column
    an UPDATE sets, changed or not)."""
    quote = _connection().ops.quote_name
    convert = _converters(model, names)
    groups: dict[tuple[int, ...], list[tuple[Any, ...]]] = defaultdict(list)
    for pk, old, new in rows:
        changed = tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
        if changed:
            groups[changed].append((*(convert[i](new[i]) for i in changed), pk))
    table, pk_column = quote(model._meta.db_table), quote(model._meta.pk.column)
    statements = []
    for changed, params in groups.items():
        sets = ", ".join(f"{quote(model._meta.get_field(names[i]).column)} = %s" for i in changed)
        statements.append(_Statement(f"UPDATE {table} SET {sets} WHERE {pk_column} = %s", params))
    return statements


def _run(statement: _Statement) -> None:
    if not statement.rows:
        return
    with _connection().cursor() as cursor:
        for start in range(0, len(statement.rows), services.UPDATE_BATCH):
            cursor.executemany(statement.sql, statement.rows[start : start + services.UPDATE_BATCH])


_OWNED = Card.wardrobe.through


def _owned_sql(verb: str) -> str:
    quote = _connection().ops.quote_name
    table = quote(_OWNED._meta.db_table)
    card, attribute = (quote(_OWNED._meta.get_field(n).column) for n in ("card", "attribute"))
    if verb == "insert":
        return f"INSERT INTO {table} ({card}, {attribute}) VALUES (%s, %s)"
    return f"DELETE FROM {table} WHERE {card} = %s AND {attribute} = %s"
