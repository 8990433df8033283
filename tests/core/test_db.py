"""core.db.analyze: planner statistics and emptied word-index pending lists right after a
bulk write, on PostgreSQL only."""

import pytest
from django.core.management import call_command
from django.db import connection

from cards.models import Attribute, Card
from core.db import analyze

pytestmark = pytest.mark.django_db


def _sampled(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stats WHERE tablename = %s", [table])
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's statistics")
def test_a_generated_collection_is_sampled_at_once():
    """A bulk load is planned for the rows it wrote, not for empty tables (a query planned
    before autovacuum's sample once joined the attributes with themselves for minutes)."""
    call_command("generate_collection", seed=3, size=30, replace=True, verbosity=0)
    for table in ("cards_card", "cards_attribute", "cards_card_wardrobe"):
        assert _sampled(table) > 0, table


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite is left alone")
def test_sqlite_is_not_analyzed(django_assert_num_queries):
    with django_assert_num_queries(0):
        analyze(Card, Attribute)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's GIN indexes")
def test_a_bulk_load_leaves_no_pending_list_in_the_word_indexes():
    """Rows a bulk load puts in a GIN index wait in its pending list, which every search
    reads through (2 ms per look-up after 100,000 cards); ``analyze`` empties it, so a
    second cleaning finds nothing to move."""
    call_command("generate_collection", seed=3, size=30, replace=True, verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, gin_clean_pending_list(i.indexrelid) FROM pg_index i "
            "JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin' "
            "AND t.relname IN ('cards_card', 'cards_attribute')"
        )
        moved = dict(cursor.fetchall())
    assert len(moved) >= 2, moved  # the card and attribute name indexes
    assert set(moved.values()) == {0}, moved
