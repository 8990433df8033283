"""The explorer's pages assembled: typed dataclasses of rows, sentences and links.

Views read the request through a form, call one function here and render what it
returns; templates only lay it out (no trace codes are filtered there, no labels made).
No HTML here either, but for one thing: the what-if selects' catalogue ``<option>``s,
hundreds of them on every card page, written once per catalogue (``catalogue_options``).

One module a page (or a part several pages share):

- ``common``: a counted paginator, a page as a template context, an attribute's search;
- ``breakdown``: the rows of a breakdown (rules, paths, skills, stats, effects), its
  worded trace steps kept;
- ``card``: the card page and its what-if form, the card's paths page;
- ``rows``: one card as every list shows it (grid tile, checklist row, text block);
- ``lists``: the card list;
- ``why``: why this card (or why not);
- ``advanced``: the advanced search;
- ``compare``: two cards side by side, and the verdict;
- ``statistics``: the statistics page and its figures, kept per collection version.
"""

from __future__ import annotations

from .advanced import AdvancedSearchPage, advanced_search_page
from .breakdown import (
    Path,
    RuleRow,
    Section,
    effect_rows,
    equipped_rows,
    paths,
    rule_rows,
    sections,
    skill_rows,
    stat_rows,
    undercharge_rows,
)
from .card import CardPage, CardPathsPage, card_page, card_paths_page
from .common import attribute_query, context
from .compare import ComparePage, compare_page
from .lists import CardListPage, QueryProblem, card_list_page, list_query, query_problem
from .rows import CardRow, card_row, card_rows
from .statistics import StatisticsPage, statistics_figures, statistics_page
from .why import why_page

__all__ = [
    "AdvancedSearchPage",
    "CardListPage",
    "CardPage",
    "CardPathsPage",
    "CardRow",
    "ComparePage",
    "Path",
    "QueryProblem",
    "RuleRow",
    "Section",
    "StatisticsPage",
    "advanced_search_page",
    "attribute_query",
    "card_list_page",
    "card_page",
    "card_paths_page",
    "card_row",
    "card_rows",
    "compare_page",
    "context",
    "effect_rows",
    "equipped_rows",
    "list_query",
    "paths",
    "query_problem",
    "rule_rows",
    "sections",
    "skill_rows",
    "stat_rows",
    "statistics_figures",
    "statistics_page",
    "undercharge_rows",
    "why_page",
]
