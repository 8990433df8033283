"""The full-text search index for SQLite: an FTS5 table of Snowball-stemmed text.

PostgreSQL needs no table (``wiki.search`` uses its built-in full-text search), so the
SQL runs only when the database is SQLite. See ``wiki.search`` for what the rows hold.
"""

from django.db import migrations


class SQLiteOnlyRunSQL(migrations.RunSQL):
    """RunSQL that does nothing on databases other than SQLite."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "sqlite":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "sqlite":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0001_initial")]

    operations = [
        SQLiteOnlyRunSQL(
            sql=(
                "CREATE VIRTUAL TABLE wiki_page_fts USING fts5("
                "page_id UNINDEXED, lang UNINDEXED, title, summary, body, "
                "tokenize = 'unicode61 remove_diacritics 2')"
            ),
            reverse_sql="DROP TABLE IF EXISTS wiki_page_fts",
        ),
    ]
