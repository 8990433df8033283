"""Every sort the search language offers is served by an index, on SQLite and on
PostgreSQL (issue 32): a page of the catalogue walks the index in its order — no sort of
every match — and a keyset cursor's next page seeks into it. The plans are printed, so a
failure shows them."""

from __future__ import annotations

import pytest
from django.db import connection

from cards.paging import _after
from cards.query import SORTS, parse
from cards.search import SORT_COLUMNS, search_cards

ALL_SORTS = [f"{d}{key}" for key in SORTS for d in ("", "-")]


def _plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A tiny test table is read whole by the planner; forbid that, so that the plan
            # shows which index (if any) gives the order.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
            # On a tiny table another index plus a sort can cost the same as the
            # ordered index (the choice then follows the statistics of the moment); a
            # "Sort" left in the plan with sorting forbidden means no index gives the order.
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute("SET LOCAL enable_incremental_sort = off")
            cursor.execute(f"EXPLAIN {sql}", params)
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        rows = cursor.fetchall()
    return "\n".join(" ".join(str(part) for part in row) for row in rows)


def _assert_ordered_by_an_index(plan: str) -> None:
    if connection.vendor == "postgresql":
        assert "Sort" not in plan and "Index" in plan, plan
    else:
        assert "TEMP B-TREE" not in plan and "INDEX" in plan, plan


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ALL_SORTS)
def test_a_page_of_every_sort_walks_an_index(sort):
    page = search_cards(f"sort:{sort}").values_list("pk", "token")[:50]
    plan = _plan(page)
    print(sort, plan)
    _assert_ordered_by_an_index(plan)


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ALL_SORTS)
def test_a_cursor_page_of_every_sort_seeks_into_its_index(sort):
    query = parse(f"sort:{sort}")
    column = SORT_COLUMNS[sort.lstrip("-")]
    value = "Pup" if column == "name" else 5
    after = _after(column, sort.startswith("-"), value, 1234)
    page = search_cards(query).filter(after).values_list("pk", "token")[:50]
    plan = _plan(page)
    print(sort, plan)
    _assert_ordered_by_an_index(plan)
    if connection.vendor == "sqlite":
        assert "SEARCH" in plan, plan  # a range on the index's first column, not a scan
    else:
        assert "Index Cond" in plan, plan


@pytest.mark.django_db
def test_equal_values_of_one_column_side_by_side_under_or_start_from_the_index():
    """``r:epic or r:legendary`` is one ``IN``, which the list's index can start from
    (two ORed equalities made PostgreSQL read every card's row at a million cards)."""
    found = search_cards("(r:epic or r:legendary) nrg<=3 or role:tank or role:support")
    sql = str(found.query)
    assert '"rarity_rank" IN (3, 4)' in sql, sql
    assert '"role" IN (' in sql, sql
    page = search_cards("(r:epic or r:legendary) atk>=7").values_list("pk", "token")[:50]
    plan = _plan(page)
    print(plan)
    _assert_ordered_by_an_index(plan)


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["velcro", "velcro or tambourine", "head:hood -velcro"])
def test_a_word_is_tested_on_the_row_while_the_sort_index_is_walked(text):
    """On PostgreSQL a word (in the card's name or its attributes' names) is said of the
    card row itself (``cards.lookups``): no ``id IN (SELECT …)``, whose hashed subplan read
    every match before the page's first card; on SQLite the ``IN`` shapes stay (its
    planner reads them through the indexes)."""
    page = search_cards(text).values_list("pk", "token")[:50]
    plan = _plan(page)
    print(text, plan)
    if connection.vendor == "postgresql":
        assert "SubPlan" not in plan, plan
        sql = str(page.query)
        assert "= ANY(ARRAY(" in sql or "to_tsvector" in sql, sql
        _assert_ordered_by_an_index(plan)
