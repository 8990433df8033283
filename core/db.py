"""What the database needs after a bulk write: fresh planner statistics on PostgreSQL.

A table PostgreSQL has never sampled (just created, or just filled by a bulk insert)
has no statistics until autovacuum gets to it, and a query planned in that window may
join the attribute table with itself before filtering: the CI's PostgreSQL pass once
waited minutes on a booster pool's cards, 80 cards and 436 attributes. ``analyze`` asks
for the sample at once, inside the writer's transaction (PostgreSQL allows it there).
SQLite is left alone: there ``ANALYZE`` made some of the card searches slower
(docs/PERFORMANCE.md, "Tried and not kept").
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Model

__all__ = ["analyze"]


def analyze(*models: type[Model]) -> None:
    """``ANALYZE`` the tables of ``models`` on PostgreSQL (nothing on SQLite)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
