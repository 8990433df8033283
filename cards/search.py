"""Card search: a parsed query (``cards.query``) as one database condition, the cards it
finds in its order, a page of them and their count — the one search of the site, for any
app to call (the card list, the API, the statistics, the match demo's deck builder)."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Count, F, Q, QuerySet
from django.db.models.expressions import RawSQL

from core.memo import shared
from engine.card.stats import compute_effects
from engine.data import TEMPLATES
from engine.types import Rarity

from . import search_index
from .asof import as_of_condition
from .models import RARITY_RANK, Attribute, Card, Combo
from .query import (
    SLOT_FIELDS,
    SUPPLY_FIELDS,
    Node,
    Not,
    Or,
    Query,
    Term,
    Word,
    parse,
    walk,
    word_token,
)

__all__ = [
    "MAX_EXACT_COUNT",
    "SORT_COLUMNS",
    "catalogue_condition",
    "condition",
    "count_searches",
    "random_card_token",
    "search_cards",
    "search_count",
]

_LOOKUP = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}

# Query field → Card column for plain comparisons.
_COLUMNS = {
    "role": "role",
    "skill": "skill_affinity",
    "active": "active_skill",
    "energy": "energy_cost",
    "rank": "getgems_rank",
    "burned": "burned_stickers",
    "atk": "atk",
    "hp": "hp",
    "def": "defense",
    "ability": "ability",
    "score": "wardrobe_score",
    "token": "token",
    "starter": "starter",
}

# sort key → Card column; ties always break by token.
SORT_COLUMNS = {
    "rarity": "rarity_rank",
    "name": "name",
    "token": "token",
    "rank": "getgems_rank",
    "score": "wardrobe_score",
    "energy": "energy_cost",
    "atk": "atk",
    "hp": "hp",
    "def": "defense",
    "ability": "ability",
    "burned": "burned_stickers",
}


def _vendor() -> str:
    return connections[router.db_for_read(Card)].vendor


def _compare(column: str, op: str, value: object) -> Q:
    if value is None:
        condition = Q(**{f"{column}__isnull": True})
        return ~condition if op == "!=" else condition
    if op == "!=":
        return ~Q(**{column: value})
    return Q(**{f"{column}__{_LOOKUP[op]}": value})


def _cards_equipping(
    attributes: object, slots: tuple[str, ...] = SLOT_FIELDS, *, on_row: bool = False
) -> Q:
    """Cards equipping one of ``attributes`` (a subquery of attribute ids) in ``slots``.

    One branch per slot, each answered by that slot's foreign-key index and joined as a
    UNION of card ids: "id IN (…)" makes the database look the cards up by id instead of
    reading every card to test four conditions (``is:god``: 28 of a million cards in 2 ms).

    ``on_row`` (a word's attributes, ORed with the card's name): on PostgreSQL, said of
    the row itself, ``slot_id = ANY(ARRAY(…))`` per slot (``cards.lookups``). Under an OR
    the UNION became a hashed subplan that read every match first; this the planner can
    test while walking a sort's index, or answer through the slots' indexes.
    """
    if on_row and _vendor() == "postgresql":
        found = Q()
        for slot in slots:
            found |= Q(**{f"{slot}__any_of": attributes})
        return found
    branches = [
        Card.objects.order_by().filter(**{f"{slot}_id__in": attributes}).values("id")
        for slot in slots
    ]
    ids = branches[0].union(*branches[1:]) if len(branches) > 1 else branches[0]
    return Q(id__in=ids)


_NOTHING = Q(pk__in=[])


def _attribute_words(texts: search_index.Alternatives, slots: tuple[str, ...] = SLOT_FIELDS) -> Q:
    """Cards equipping, in ``slots``, an attribute whose name has one of ``texts``' words."""
    found = search_index.attribute_ids_sql(texts, _vendor())
    if found is None:
        return _NOTHING
    return _cards_equipping(RawSQL(*found), slots, on_row=True)


def _name_words(texts: search_index.Alternatives) -> Q:
    """Cards whose name has one of ``texts``' words: on PostgreSQL said of the row itself
    (``cards.lookups``), on SQLite through the FTS5 table's row ids."""
    if _vendor() == "postgresql":
        query = search_index.ts_any(texts)
        return _NOTHING if query is None else Q(name__words=query)
    found = search_index.card_ids_sql(texts, _vendor())
    return _NOTHING if found is None else Q(id__in=RawSQL(*found))


def _text_condition(term: Term) -> Q:
    slots = (term.field,) if term.field in SLOT_FIELDS else SLOT_FIELDS
    value = str(term.value)
    if term.field == "name":
        if term.op == "=":  # the index narrows, the exact comparison decides
            return _name_words([(value, True)]) & Q(name__iexact=value)
        return _name_words([(value, True)])
    if term.op == "=":
        exact = Attribute.objects.filter(name__iexact=value)
        if term.field in SLOT_FIELDS:
            exact = exact.filter(slot=term.field)
        return _cards_equipping(exact.values("id"), slots)
    return _attribute_words([(value, True)], slots)


def _combo_condition() -> Q:
    """Cards wearing every attribute of some combo (one query for the combos)."""
    pairs: dict[int, list[tuple[str, int]]] = {}
    rows = Combo.attributes.through.objects.values_list(
        "combo_id", "attribute__slot", "attribute_id"
    )
    for combo_id, slot, attribute_id in rows.order_by("combo_id", "attribute_id"):
        pairs.setdefault(combo_id, []).append((slot, attribute_id))
    condition = _NOTHING
    for attributes in pairs.values():
        condition |= Q(**{f"{slot}_id": attribute_id for slot, attribute_id in attributes})
    return condition


def _fact_condition(term: Term) -> Q:
    fact = term.value
    if term.field == "has":
        if fact == "rank":
            return Q(getgems_rank__isnull=False)
        return Q(burned_stickers__gte=1)  # stickers
    if fact == "starter":
        return Q(starter=True)
    if fact == "legendary-skill":
        return Q(active_skill__isnull=False)
    if fact == "combo":
        return _combo_condition()
    if fact == "fragile":
        return Q(tier_fragile=True)  # stored with the derivation (engine.card.fragility)
    return _cards_equipping(Attribute.objects.filter(kind=fact).values("id"))  # god, premium


_ENGINE_FIELDS = frozenset({"decided", "near", "effect", "template", "owns"})


@functools.cache
def _templates_with(kind: str) -> tuple[tuple[str, int], ...]:
    """(template, rarity rank) of the cards that have an effect of ``kind``: a card's
    effects are its template's at its rarity (docs/rules.md §5), so ``effect:`` reads the
    stored template and rarity."""
    return tuple(
        (template.key, rarity.rank)
        for template in TEMPLATES
        for rarity in Rarity
        if any(e.kind.value == kind for e in compute_effects(template, rarity))
    )


def _engine_condition(term: Term) -> Q:
    """``decided:``, ``near:``, ``effect:``, ``template:`` and ``owns:`` (issue 30)."""
    if term.field == "owns":
        value = str(term.value)
        if term.op == "=":
            found = Attribute.objects.filter(name__iexact=value).values("id")
        else:
            sql = search_index.attribute_ids_sql([(value, True)], _vendor())
            if sql is None:
                return _NOTHING
            found = RawSQL(*sql)
        owners = Card.wardrobe.through.objects.order_by().filter(attribute_id__in=found)
        return Q(id__in=owners.values("card_id"))
    if term.field == "decided":
        found = Q(decided_by__contains=f",{term.value},")
    elif term.field == "near":
        rank = RARITY_RANK[str(term.value)]
        found = Q(rarity_rank__lt=rank, near_rank__gte=rank)
    elif term.field == "template":
        found = Q(template=term.value)
    else:  # effect
        found = _NOTHING
        for template, rank in _templates_with(str(term.value)):
            found |= Q(template=template, rarity_rank=rank)
    return ~found if term.op == "!=" else found


def term_condition(term: Term) -> Q:
    """One parsed term as a database condition."""
    if term.field in ("is", "has"):
        return _fact_condition(term)
    if term.field == "rarity":
        return _compare("rarity_rank", term.op, RARITY_RANK[str(term.value)])
    if term.field in SLOT_FIELDS or term.field in ("attr", "name"):
        return _text_condition(term)
    if term.field == "kind":
        return _cards_equipping(Attribute.objects.filter(kind=term.value).values("id"))
    if term.field == "supply" or term.field in SUPPLY_FIELDS:
        slots = SLOT_FIELDS if term.field == "supply" else (term.field.removesuffix("_supply"),)
        if term.op == "!=":
            return ~_cards_equipping(
                Attribute.objects.filter(supply=term.value).values("id"), slots
            )
        lookup = {f"supply__{_LOOKUP[term.op]}": term.value}
        return _cards_equipping(Attribute.objects.filter(**lookup).values("id"), slots)
    if term.field in _ENGINE_FIELDS:
        return _engine_condition(term)
    if term.field == "undercharged":
        # With N NRG a card enters undercharged when its cost is above N (docs/rules.md §6.4).
        return Q(energy_cost__gt=term.value)
    return _compare(_COLUMNS[term.field], term.op, term.value)


def words_condition(words: Sequence[Word]) -> Q:
    """Cards matching any of ``words`` (bare words or phrases): their names in the name
    index, their attributes in the attribute-name index, a number as a token — one look-up
    in each index however many words, so ``a or b or c`` costs what one word costs."""
    texts = [(word.text, word.phrase) for word in words]
    condition = _name_words(texts) | _attribute_words(texts)
    tokens = {word_token(w.text) for w in words if not w.phrase} - {None}
    if tokens:
        condition |= Q(token__in=sorted(tokens))
    return condition


def _equality(node: Node) -> tuple[str, object] | None:
    """(column, value) when ``node`` is "this column equals this value" of the card row.

    Side by side under an ``or`` they become one ``column IN (…)``, which an index can
    start from (``r:epic or r:legendary`` walks only those two rarities of the list's
    index, where two ORed equalities made PostgreSQL read every card's row)."""
    if not isinstance(node, Term) or node.op != "=" or node.value is None:
        return None
    if node.field == "rarity":
        return "rarity_rank", RARITY_RANK[str(node.value)]
    if node.field in _COLUMNS:  # term_condition compares these columns as they are
        return _COLUMNS[node.field], node.value
    return None


def condition(node: Node | None) -> Q:
    """The whole tree as one condition (an empty query: every card).

    Words side by side under an ``or`` are looked up together, and so are words each
    under a ``-`` side by side (``-a -b`` is ``-(a or b)``).
    """
    if node is None:
        return Q()
    if isinstance(node, Term):
        return term_condition(node)
    if isinstance(node, Word):
        return words_condition([node])
    if isinstance(node, Not):
        return ~condition(node.child)
    if isinstance(node, Or):
        words = [child for child in node.children if isinstance(child, Word)]
        equal: dict[str, list[object]] = {}
        rest = []
        for child in node.children:
            if isinstance(child, Word):
                continue
            column_value = _equality(child)
            if column_value is None:
                rest.append(condition(child))
            else:
                equal.setdefault(column_value[0], []).append(column_value[1])
        parts = (
            ([words_condition(words)] if words else [])
            + [Q(**{f"{column}__in": values}) for column, values in equal.items()]
            + rest
        )
        combined = parts[0]
        for part in parts[1:]:
            combined |= part
        return combined
    left_out = [c.child for c in node.children if isinstance(c, Not) and isinstance(c.child, Word)]
    rest = [
        condition(child)
        for child in node.children
        if not (isinstance(child, Not) and isinstance(child.child, Word))
    ]
    parts = ([~words_condition(left_out)] if left_out else []) + rest
    combined = parts[0]
    for part in parts[1:]:
        combined &= part
    return combined


def condition_of(query: Query) -> Q:
    """What ``query`` finds, starter cards included."""
    return condition(query.root)


def catalogue_condition(query: Query) -> Q:
    """What ``query`` finds, starter cards left out unless it asks for them — the one
    condition behind the list, the API, the statistics and ``search_cards``."""
    found = condition(query.root)
    if not query.wants_free_cards:
        found &= Q(starter=False)
    return found


def order_of(query: Query) -> list[object]:
    descending = query.sort.startswith("-")
    column = SORT_COLUMNS[query.sort.lstrip("-")]
    if column == "token":
        return ["-token" if descending else "token"]
    if column in ("getgems_rank", "wardrobe_score"):
        # Cards without a value (no GetGems rank) go last either way. SQLite's descending
        # order puts NULLs last by itself, and only a plain DESC matches its index.
        if descending:
            nulls_last = None if _vendor() == "sqlite" else True
            expression = F(column).desc(nulls_last=nulls_last)
        else:
            expression = F(column).asc(nulls_last=True)
        return [expression, "token"]
    return [f"-{column}" if descending else column, "token"]


def search_cards(query: Query | str, *, starters: bool = False) -> QuerySet[Card]:
    """Cards matching ``query`` (the search language's text, or a parsed `Query`), in its
    sort order (ties by token) — the one search of the site, for any app to call.

    Starter (Free) cards stay out unless the query asks for them (``is:starter``), or
    ``starters`` is True (the match demo's deck builder: starters play too).
    A text the language refuses raises ``cards.query.QueryError``, whose ``message``
    (in the active language) names the position and a fix::

        try:
            cards = search_cards(request_text, starters=True)[:24]
        except QueryError as error:
            problem = error.message
    """
    if isinstance(query, str):
        query = parse(query)
    condition = catalogue_condition(query) if not starters else condition_of(query)
    if query.as_of is not None:  # as:YYYY-MM-DD, the collection as it was that day
        condition = as_of_condition(query, condition)
    return Card.objects.filter(condition).order_by(*order_of(query))


#: How long a search's count is kept (a change of the collection makes a new key at once).
COUNT_SECONDS = 60 * 60
#: Counts are exact up to this many cards; beyond, "more than 10,000" (never further).
MAX_EXACT_COUNT = 10_000


def search_count(query: Query, found: QuerySet[Card], *, starters: bool = False) -> int:
    """``found.count()`` up to ``MAX_EXACT_COUNT``, where ``found`` is
    ``search_cards(query, starters=starters)``; ``MAX_EXACT_COUNT + 1`` means "more": the
    count runs over a ``LIMIT 10001`` subquery, so it reads at most 10,001 index entries
    however big the collection. Kept in the cache per collection version: a count does
    not change with the sort, the display or the page."""
    parts = (repr((query.root, starters, query.as_of)),)

    def count() -> int:
        return found.order_by()[: MAX_EXACT_COUNT + 1].count()

    return shared("explorer:count", ("cards",), parts, count, COUNT_SECONDS)


_COLUMN_FIELDS = frozenset(_COLUMNS) | {
    "rarity",
    "undercharged",
    "decided",
    "near",
    "effect",
    "template",
}


def _plain(query: Query) -> bool:
    """Every leaf compares a column of the card row itself (no look-up in another table)."""
    for leaf, _negated in walk(query.root):
        if isinstance(leaf, Word):
            return False
        if leaf.field == "has" or (
            leaf.field == "is" and leaf.value in ("starter", "legendary-skill")
        ):
            continue
        if leaf.field not in _COLUMN_FIELDS:
            return False
    return True


def count_searches(searches: dict[str, str]) -> dict[str, int]:
    """How many cards each search finds (``{key: query text}``) — each count is the very
    condition the card list runs for that text, so a statistics bar and the search it
    links to always agree.

    Searches on the card's own columns are counted together in one pass over the cards;
    each other one (a word, an attribute, a combo) is counted alone, through its indexes.
    """
    parsed = {key: parse(text) for key, text in searches.items()}
    plain = {key: query for key, query in parsed.items() if _plain(query)}
    owned = {key: query for key, query in parsed.items() if _owns_only(query)}
    counts: dict[str, int] = {}
    if plain:
        aggregates = {
            key: Count("id", filter=catalogue_condition(query)) for key, query in plain.items()
        }
        counts.update(Card.objects.order_by().aggregate(**aggregates))
    if owned:
        # The owners of a few attributes (the statistics' rarest): together in one query,
        # over the cards owning any of them.
        owners = Q()
        for query in owned.values():
            owners |= condition_of(query)
        aggregates = {
            key: Count("id", filter=catalogue_condition(query)) for key, query in owned.items()
        }
        counts.update(Card.objects.order_by().filter(owners).aggregate(**aggregates))
    for key, query in parsed.items():
        if key not in plain and key not in owned:
            counts[key] = Card.objects.filter(catalogue_condition(query)).count()
    return counts


def _owns_only(query: Query) -> bool:
    leaves = list(walk(query.root))
    return bool(leaves) and all(
        isinstance(leaf, Term) and leaf.field == "owns" for leaf, _negated in leaves
    )


def random_card_token(query: Query, rng: random.Random | None = None) -> int | None:
    """A random card among those ``query`` finds (two queries: the count, kept per
    collection version, then one row)."""
    found = Card.objects.filter(catalogue_condition(query)).order_by("token")
    count = search_count(query, found)
    if not count:
        return None
    offset = (rng or random.SystemRandom()).randrange(count)
    return found.values_list("token", flat=True)[offset]
