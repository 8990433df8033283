"""Descending sorts on the two nullable sort columns (GetGems rank, wardrobe score), whose
cards without a value come last either way (``cards.search.order_of``).

SQLite puts NULLs last in a descending index by itself and refuses ``NULLS LAST`` in an
index; PostgreSQL puts them first unless told. So the index is written per database (and
kept out of the model's Meta, which cannot say "NULLS LAST on one database only").
"""

from django.db import migrations

_INDEXES = (
    ("cards_card_rank_desc_idx", "getgems_rank"),
    ("cards_card_score_desc_idx", "wardrobe_score"),
)


def create(apps, schema_editor):
    nulls = " NULLS LAST" if schema_editor.connection.vendor == "postgresql" else ""
    for name, column in _INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{name}" ON "cards_card" ("{column}" DESC{nulls}, "token")'
        )


def drop(apps, schema_editor):
    for name, _column in _INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


class Migration(migrations.Migration):
    dependencies = [("cards", "0007_card_descending_sort_indexes")]

    operations = [migrations.RunPython(create, drop)]
