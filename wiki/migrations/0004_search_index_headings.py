"""The SQLite search index gets a column for each page's headings, so that a page whose
headings hold a query's words ranks first. FTS5 tables cannot add a column: the table is
made again, and ``wiki.apps`` rebuilds its rows after ``migrate`` (the marker row that
says how it was built is gone with the old table)."""

from importlib import import_module

from django.db import migrations

#: The RunSQL that runs on SQLite only, as the index's first migration defines it.
SQLiteOnlyRunSQL = import_module("wiki.migrations.0002_search_index").SQLiteOnlyRunSQL

CREATE = (
    "CREATE VIRTUAL TABLE wiki_page_fts USING fts5("
    "page_id UNINDEXED, lang UNINDEXED, title, summary, body{}, "
    "tokenize = 'unicode61 remove_diacritics 2')"
)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0003_editors_group")]

    operations = [
        SQLiteOnlyRunSQL(
            sql=["DROP TABLE IF EXISTS wiki_page_fts", CREATE.format(", headings")],
            reverse_sql=["DROP TABLE IF EXISTS wiki_page_fts", CREATE.format("")],
        ),
    ]
