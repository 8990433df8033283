"""core.db.analyze: planner statistics right after a bulk write, on PostgreSQL only."""

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
