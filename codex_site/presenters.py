"""The pages that gather from several apps: the home page and the header's search
(cards and wiki pages together)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cards.models import Card
from cards.query import Query, QueryError, describe, is_card_syntax, parse
from cards.search import MAX_EXACT_COUNT, search_cards, search_count
from core.links import route_path
from core.memo import memo
from core.translated import localized
from explorer.presenters import CardRow, QueryProblem, card_rows, query_problem
from wiki import search as wiki_search
from wiki.selectors import published_page_ids, result_pages
from wiki.stemming import is_question

# ---------------------------------------------------------------------------
# The header's search: cards and wiki pages together


@dataclass(frozen=True, slots=True)
class WikiHit:
    title: str
    url: str
    summary: str
    other_language: bool


@dataclass(frozen=True, slots=True)
class SiteSearchPage:
    q: str
    cards_first: bool
    card_error: QueryProblem | None = None
    cards: list[CardRow] = field(default_factory=list)
    card_count: int = 0
    cards_over: bool = False  # more than cards.search.MAX_EXACT_COUNT: counting stopped
    cards_url: str = ""
    described: list[str] = field(default_factory=list)
    wiki: list[WikiHit] = field(default_factory=list)
    wiki_count: int = 0
    wiki_url: str = ""
    searched: bool = False
    #: For a question ("how energy works"): the wiki page that answers it, shown first.
    best: WikiHit | None = None
    #: What the card search read and ignored (as the card list says it).
    warnings: list[str] = field(default_factory=list)


SITE_SEARCH_CARDS = 8
SITE_SEARCH_PAGES = 8


def site_search_page(text: str, lang: str) -> SiteSearchPage:
    """The cards and the wiki pages a text finds, cards first when it is a card query."""
    text = text.strip()
    if not text:
        return SiteSearchPage(q="", cards_first=False)
    cards_first = is_card_syntax(text)
    cards_url = f"{route_path('explorer:card-list')}?{urlencode({'q': text})}"
    wiki_url = f"{route_path('wiki:search')}?{urlencode({'q': text})}"
    card_error = None
    rows: list[CardRow] = []
    count = 0
    described: list[str] = []
    warnings: list[str] = []
    try:
        query = parse(text)
    except QueryError as error:
        card_error = query_problem(text, error, error.message)
    else:
        warnings = [w.message for w in query.warnings]
        if _all_words_ignored(query):
            # "???" would otherwise find every card: nothing it typed was read.
            warnings.append(_("Nothing in this search could be read, so it finds no card."))
        else:
            found = search_cards(query)
            count = search_count(query, found)
            rows = card_rows(found, SITE_SEARCH_CARDS) if count else []
            described = describe(query)
    found = (
        wiki_search.find(wiki_search.parse_query(text)) if wiki_search.query_terms(text) else None
    )
    hits = list(found.hits) if found else []
    published = published_page_ids()
    hits = [h for h in hits if h.page_id in published]
    # Only the shown ones are made pages (a search finds up to 200).
    pages = result_pages(h.page_id for h in hits[:SITE_SEARCH_PAGES])
    wiki = []
    for hit in hits[:SITE_SEARCH_PAGES]:
        page = pages.get(hit.page_id)
        if page is None:
            continue  # unpublished since the search began
        title = localized(page, "title", lang)
        wiki.append(
            WikiHit(
                title=title.value,
                url=reverse("wiki:page", args=[page.slug]),
                summary=localized(page, "summary", lang).value,
                other_language=lang not in hit.langs,
            )
        )
    if not cards_first and not hits and count:
        cards_first = True  # plain words that name cards but no page
    # A question is answered by a page that has every word it searched: the best one goes
    # above the cards.
    best = wiki[0] if wiki and found and found.all_words and is_question(text) else None
    return SiteSearchPage(
        q=text,
        cards_first=cards_first,
        card_error=card_error,
        cards=rows,
        card_count=min(count, MAX_EXACT_COUNT),
        cards_over=count > MAX_EXACT_COUNT,
        cards_url=cards_url,
        described=described,
        wiki=wiki,
        wiki_count=len(hits),
        wiki_url=wiki_url,
        searched=True,
        best=best,
        warnings=warnings,
    )


def _all_words_ignored(query: Query) -> bool:
    """Whether the search had words and ignored every one (no filter left to apply)."""
    return query.root is None and any(w.code == "ignored_word" for w in query.warnings)


# ---------------------------------------------------------------------------
# The home page


@dataclass(frozen=True, slots=True)
class HomePage:
    total: int
    rarest: list[CardRow]
    newest_legendary: list[CardRow]
    examples: list[tuple[str, str]]  # (query, list URL)


HOME_EXAMPLES = (
    "r:legendary s:arcane",
    "is:combo",
    "r:epic or r:legendary -has:rank",
    "Mitten",
    "undercharged:3 sort:-atk",
)


def home_page() -> HomePage:
    """What a collector lands on: the search, a random card and a few featured cards.

    Kept per collection version and language (``core.memo.memo``): at 100,000 cards
    counting them and sorting by score took ~0.5 s, for a page every visit starts on.
    """
    return memo(f"explorer:home:{get_language()}", ("cards",), _home_page)


def _home_page() -> HomePage:
    list_url = route_path("explorer:card-list")
    return HomePage(
        total=Card.objects.count(),
        rarest=card_rows(search_cards(parse("sort:-score")), 3),
        newest_legendary=card_rows(search_cards(parse("r:legendary sort:-token")), 3),
        examples=[(q, f"{list_url}?{urlencode({'q': q})}") for q in HOME_EXAMPLES],
    )
