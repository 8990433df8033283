"""What the database needs after a bulk write: fresh planner statistics on PostgreSQL,
and its word indexes without a pending list.

A table PostgreSQL has never sampled (just created, or just filled by a bulk insert)
has no statistics until autovacuum gets to it, and a query planned in that window may
join the attribute table with itself before filtering: the CI's PostgreSQL pass once
waited minutes on a booster pool's cards, 80 cards and 436 attributes. ``analyze`` asks
for the sample at once, inside the writer's transaction (PostgreSQL allows it there).
SQLite is left alone: there ``ANALYZE`` made some of the card searches slower.

A GIN index (the card and attribute names' word index, ``cards.search_index``) takes rows
inserted in bulk into a *pending list* (up to 4 MB) that every search then reads through
before the index itself: after a 100,000-card load each of a word's five look-ups took
2 ms instead of 0.01. ``analyze`` moves those entries into the index
(``gin_clean_pending_list``) once the write is done.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Model

__all__ = ["analyze"]


def analyze(*models: type[Model]) -> None:
    """``ANALYZE`` the tables of ``models`` and empty their GIN indexes' pending lists,
    on PostgreSQL (nothing on SQLite)."""
    if connection.vendor != "postgresql":
        return
    tables = [model._meta.db_table for model in models]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
        cursor.execute(
            "SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i "
            "JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin' AND t.relname = ANY(%s)",
            [tables],
        )
