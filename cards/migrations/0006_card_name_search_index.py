"""The word index of card and attribute names (``cards.search_index``): FTS5 tables and
their triggers on SQLite, GIN indexes on PostgreSQL. No models. It was the explorer's
migration 0001 until the search moved down to the cards app; the tables keep their
names (``explorer_card_name``, ``explorer_attribute_name``), so a database that already
has them keeps them (``ensure`` creates only what is missing)."""

from django.db import migrations


def create(apps, schema_editor):
    from cards import search_index

    search_index.ensure(schema_editor.connection)


def drop(apps, schema_editor):
    from cards.search_index import ATTRIBUTE_INDEX, CARD_INDEX

    with schema_editor.connection.cursor() as cursor:
        for index in (CARD_INDEX, ATTRIBUTE_INDEX):
            if schema_editor.connection.vendor == "sqlite":
                for suffix in ("_ai", "_ad", "_au"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {index}{suffix}")
                cursor.execute(f"DROP TABLE IF EXISTS {index}")
            elif schema_editor.connection.vendor == "postgresql":
                cursor.execute(f"DROP INDEX IF EXISTS {index}_tsv")


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0005_card_search_cover_indexes"),
    ]

    operations = [migrations.RunPython(create, drop)]
