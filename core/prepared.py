"""Reads compiled to SQL once: ``Prepared``, for the few hot look-ups whose compiling
cost more than running them (``cards.specs.card_spec``, the API's page of rows)::

    by_token = Prepared(lambda token: Card.objects.filter(token=token).values_list("name"))
    by_token.rows(27)  # compiled on the first call, then only executed: [("Sage #27",)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

__all__ = ["Prepared"]


# Values no query of the API holds otherwise (they count down from here), within every
# integer column's range (Django reads an out-of-range value as "matches nothing").
_MARKER = 2_147_480_000


class Prepared:
    """A read compiled to SQL once per process, database and number of values, then run
    with new values.

    Django compiles a queryset's SQL every time it is evaluated; for small hot look-ups
    (a card with its attributes and wardrobe, a page of rows by id) compiling cost
    several to 25 times what the database took to answer. ``build(*markers)`` gives the
    queryset (a ``values_list``) with each marker where a value goes; ``rows(*values)`` runs its SQL
    with the values in their places, and passes the rows through the ORM's own
    converters (booleans, decimals), so they are what the queryset would give.
    """

    def __init__(self, build: Callable[..., QuerySet[Any]]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, int], tuple[str, list[Any], dict[int, int], list]] = {}

    def _compile(self, using: str, count: int) -> tuple[str, list[Any], dict[int, int], list]:
        markers = [_MARKER - i for i in range(count)]
        compiler = self._build(*markers).query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        places = {at: markers.index(p) for at, p in enumerate(params) if p in markers}
        if sorted(places.values()) != list(range(count)):
            raise ValueError("each marker must stand once in the query's parameters")
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        converters = list(compiler.get_converters(fields).items())
        return sql, list(params), places, converters

    def rows(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> list[tuple[Any, ...]]:
        key = (using, len(values))
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(using, len(values))
        sql, params, places, converters = compiled
        params = params.copy()
        for at, index in places.items():
            params[at] = values[index]
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not converters:
            return rows
        out = []
        for row in rows:
            row = list(row)
            for pos, (functions, expression) in converters:
                value = row[pos]
                for function in functions:
                    value = function(value, expression, connection)
                row[pos] = value
            out.append(tuple(row))
        return out
