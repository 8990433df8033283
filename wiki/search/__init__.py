"""Full-text search over wiki pages in both languages, behind one small interface.

``parse_query(text, vocabulary())`` reads what a visitor typed: the words searched (each
with its synonyms), the words no published page has (left out, each with a "did you mean"
suggestion when a close word exists) and the words past the limit. ``find(parsed)``
returns ranked hits and says whether every word matched or, failing that, any word.
``index_page`` / ``remove_page`` keep the index in step (``wiki.services`` calls them on
every save); ``snippet`` highlights the query's words in a text. Which backend runs
depends on the database:

* SQLite: an FTS5 table (``wiki_page_fts``, created by migration 0002) holding the
  Snowball stems of each page's title, summary and body per language, tokenised by
  ``unicode61`` (which folds Cyrillic case and diacritics). Each word is stemmed by its
  script — Cyrillic words with the Russian stemmer, others with the English one — in the
  index and in the query alike, so "редкости" finds "редкость" and "skills" finds
  "skill" on pages of either language. A word of a synonym group (``wiki.synonyms``) is
  indexed with its group's key too, and a query word is looked up by its stem and by its
  group's key: "навыки" finds the pages that say "скилл". The headings of a page's body
  have a column of their own too.
* PostgreSQL: ``SearchVector`` / ``SearchQuery`` / ``SearchRank`` with the ``english``
  configuration for English columns and ``russian`` for Russian ones (weights A/B/C);
  a query word is expanded into every word of its synonym group.

A question's function words ("how", "does", «как», «что», «такое») are optional: they are
not searched unless the query has nothing else (``wiki.stemming.FUNCTION_WORDS``). Ranking,
on both backends: first the pages with more of the words (when no page has them all), then
those whose title or headings hold more of them, then the database's score (SQLite: BM25
with the title weighted 10, the headings 6, the summary 4 and the body 1; PostgreSQL keeps
no headings apart, so there the titles alone count).

Snippets use one highlighter for both backends: it stems the text's words the same way
and marks those whose stem matches the query's, synonyms included.

The modules, in the order a search runs: ``query`` (what was typed), ``vocabulary`` (what
the pages say), ``index`` (the SQLite index and its upkeep), ``backends`` (finding and
ranking, per backend), ``snippets`` (the Python highlighter and the bodies' texts) and
``highlights`` (a results page highlighted by the database). Import from here.

>>> from wiki.stemming import stem
>>> stem("Редкости"), stem("skills"), stem("ёлка")
('редкост', 'skill', 'елк')
>>> query_terms("Skills of редкости")
['skill', 'of', 'редкост']
>>> [t.word for t in parse_query("навыки навыков energy").terms]
['навыки', 'energy']
"""

from .backends import Found, Hit, find, search_pages
from .highlights import Ask, highlight_results
from .index import ensure_index_current, headings, index_page, index_text, reindex_all, remove_page
from .query import MAX_TERMS, WORD, ParsedQuery, Term, parse_query, query_terms
from .snippets import highlight, page_plain_text, page_snippet_text, snippet
from .vocabulary import Vocabulary, vocabulary

__all__ = [
    "MAX_TERMS",
    "WORD",
    "Ask",
    "Found",
    "Hit",
    "ParsedQuery",
    "Term",
    "Vocabulary",
    "ensure_index_current",
    "find",
    "headings",
    "highlight",
    "highlight_results",
    "index_page",
    "index_text",
    "page_plain_text",
    "page_snippet_text",
    "parse_query",
    "query_terms",
    "reindex_all",
    "remove_page",
    "search_pages",
    "snippet",
    "vocabulary",
]
