"""The word index of card and attribute names (explorer.search_index): FTS5 tables and
their triggers on SQLite, GIN indexes on PostgreSQL. No models: the index belongs to the
explorer's search, the tables it follows to the cards app."""

from django.db import migrations


def create(apps, schema_editor):
    from explorer import search_index

    search_index.ensure(schema_editor.connection)


def drop(apps, schema_editor):
    from explorer.search_index import ATTRIBUTE_INDEX, CARD_INDEX

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
        ("cards", "0004_card_def_ability_name_indexes"),
    ]

    operations = [migrations.RunPython(create, drop)]
