"""Read queries of the explorer: a parsed search as a queryset, the attribute catalogue."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db import connections, router
from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils.translation import get_language

from cards.models import RARITY_RANK, Attribute, Card, Combo
from cards.specs import attribute_spec, card_spec, combo_specs
from core import versions
from core.cache import memo
from core.prepared import Prepared
from engine.types import CardSpec, ComboSpec

from . import search_index
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
from .whatif import Catalogue

__all__ = [
    "SORT_COLUMNS",
    "attribute_catalogue",
    "combos",
    "condition",
    "count_searches",
    "list_rows",
    "neighbours",
    "one_card_spec",
    "random_card_token",
    "rarest_attributes",
    "search_cards",
    "search_count",
    "search_page",
    "supply_distribution",
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


def _cards_equipping(attributes: object, slots: tuple[str, ...] = SLOT_FIELDS) -> Q:
    """Cards equipping one of ``attributes`` (a subquery of attribute ids) in ``slots``.

    One branch per slot, each answered by that slot's foreign-key index and joined as a
    UNION of card ids: "id IN (…)" makes the database look the cards up by id instead of
    reading every card to test four conditions.
    """
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
    return _cards_equipping(RawSQL(*found), slots)


def _name_words(texts: search_index.Alternatives) -> Q:
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
    return _cards_equipping(Attribute.objects.filter(kind=fact).values("id"))  # god, premium


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
        rest = [condition(child) for child in node.children if not isinstance(child, Word)]
        parts = ([words_condition(words)] if words else []) + rest
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
        # Cards without a value (no GetGems rank) go last either way.
        expression = (
            F(column).desc(nulls_last=True) if descending else F(column).asc(nulls_last=True)
        )
        return [expression, "token"]
    return [f"-{column}" if descending else column, "token"]


def search_cards(query: Query | str, *, starters: bool = False) -> QuerySet[Card]:
    """Cards matching ``query`` (the search language's text, or a parsed `Query`), in its
    sort order (ties by token) — the one search of the site, for any app to call.

    Starter (Free) cards stay out unless the query asks for them (``is:starter``), or
    ``starters`` is True (the match demo's deck builder: starters play too).
    A text the language refuses raises ``explorer.query.QueryError``, whose ``message``
    (in the active language) names the position and a fix::

        try:
            cards = search_cards(request_text, starters=True)[:24]
        except QueryError as error:
            problem = error.message
    """
    if isinstance(query, str):
        query = parse(query)
    condition = catalogue_condition(query) if not starters else condition_of(query)
    return Card.objects.filter(condition).order_by(*order_of(query))


#: How long a search's count is kept (a change of the collection makes a new key at once).
COUNT_SECONDS = 60 * 60


def search_count(query: Query, found: QuerySet[Card], *, starters: bool = False) -> int:
    """``found.count()``, where ``found`` is ``search_cards(query, starters=starters)``,
    kept in the cache per collection version: a count does not change with the sort, the
    display or the page, and at 100,000 cards a broad search's count reads tens of
    thousands of index entries (3–5 ms) again for every page, sort and display of it."""
    digest = hashlib.sha256(repr((query.root, starters)).encode()).hexdigest()[:32]
    key = f"explorer:count:{versions.current('cards')}:{digest}"
    count = cache.get(key)
    if count is None:
        count = found.count()
        cache.set(key, count, COUNT_SECONDS)
    return count


def search_page(
    query: Query, found: QuerySet[Card], number: int, size: int
) -> tuple[list[int], int | None]:
    """Page ``number`` of the cards ``found`` (``search_cards(query)``: their ids, in its
    order) and how many it finds in all; None for the count when the page is past the
    end (the caller asks ``search_count`` then, if it needs it).

    The ids first: a page that is not full is the last one, so its count is known without
    counting — most searches of a small collection fit on one page. Otherwise two
    queries, a page of ids and a count (kept), each of which a covering index answers at
    100,000 cards; a window count (one query) saved ≈ 0.1 ms at 1,000 cards but made
    SQLite materialise and sort every match first (p90 4 → 7 ms at 100,000).
    """
    start = (number - 1) * size
    ids = list(found.values_list("pk", flat=True)[start : start + size])
    if not ids:
        return [], (0 if number == 1 else None)
    if len(ids) < size:
        return ids, start + len(ids)
    return ids, search_count(query, found)


_COLUMN_FIELDS = frozenset(_COLUMNS) | {"rarity", "undercharged"}


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
    counts: dict[str, int] = {}
    if plain:
        aggregates = {
            key: Count("id", filter=catalogue_condition(query)) for key, query in plain.items()
        }
        counts.update(Card.objects.order_by().aggregate(**aggregates))
    for key, query in parsed.items():
        if key not in plain:
            counts[key] = Card.objects.filter(catalogue_condition(query)).count()
    return counts


def random_card_token(query: Query, rng: random.Random | None = None) -> int | None:
    """A random card among those ``query`` finds (two queries: the count, kept per
    collection version, then one row)."""
    found = Card.objects.filter(catalogue_condition(query)).order_by("token")
    count = search_count(query, found)
    if not count:
        return None
    offset = (rng or random.SystemRandom()).randrange(count)
    return found.values_list("token", flat=True)[offset]


def neighbours(token: int) -> tuple[int | None, int | None]:
    """The tokens before and after ``token`` in the collection (one query, two index
    seeks; written in SQL, since compiling the ORM's two subqueries cost more than
    running them)."""
    table = connections[router.db_for_read(Card)].ops.quote_name(Card._meta.db_table)
    with connections[router.db_for_read(Card)].cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT token FROM {table} WHERE token < %s ORDER BY token DESC LIMIT 1), "
            f"(SELECT token FROM {table} WHERE token > %s ORDER BY token LIMIT 1)",
            [token, token],
        )
        previous, following = cursor.fetchone()
    return previous, following


#: What a list row shows of a card (``explorer.presenters.card_row``): its own columns and
#: the names of its equipped attributes.
ROW_FIELDS = (
    "pk",
    "token",
    "name",
    "rarity",
    "role",
    "skill_affinity",
    "active_skill",
    "energy_cost",
    "atk",
    "hp",
    "defense",
    "ability",
    "getgems_rank",
    "burned_stickers",
    "wardrobe_score",
    "starter",
    *(f"{slot}__{part}" for slot in SLOT_FIELDS for part in ("name", "supply", "kind")),
)
_ROWS = Prepared(lambda *ids: Card.objects.filter(pk__in=ids).values_list(*ROW_FIELDS))


def list_rows(ids: list[int]) -> list[dict[str, Any]]:
    """The ``ROW_FIELDS`` of these cards, in this order (unknown ids left out), in one query.

    Paging first selects ids only (an index scan, however deep the page), then reads just
    those rows — values, not model instances: building a card and its four attributes as
    ``select_related`` would cost six times the query itself. The query is compiled once
    per batch size (``core.prepared``: compiling the four-way join cost more than running
    it); the ids are padded to a multiple of 8 by repeating the first, so a process
    compiles a handful of sizes.
    """
    if not ids:
        return []
    padded = ids + ids[:1] * (-len(ids) % 8)
    rows = _ROWS.rows(*padded, using=router.db_for_read(Card))
    by_id = {row[0]: dict(zip(ROW_FIELDS, row, strict=True)) for row in rows}
    return [by_id[pk] for pk in ids if pk in by_id]


def attribute_catalogue() -> Catalogue:
    """Every attribute of the collection as engine values, by slot: one query per
    collection version and process (``core.cache.memo``), since every card page needs it
    and it changes only with the collection."""
    return memo("explorer:catalogue", ("cards",), _load_catalogue)  # type: ignore[return-value]


def combos() -> tuple[ComboSpec, ...]:
    """Every combo as engine values, named in the active language: one query per
    collection version, language and process."""
    return memo(  # type: ignore[return-value]
        f"explorer:combos:{get_language()}", ("cards",), lambda: combo_specs(localized=True)
    )


def one_card_spec(token: int) -> CardSpec:
    """A card's engine input (two queries: the card, its wardrobe; the combos are kept
    per collection version). ``Card.DoesNotExist`` if there is none."""
    return card_spec(token, combos=combos())


def _load_catalogue() -> Catalogue:
    rows = Attribute.objects.order_by().values_list("slot", "name", "supply", "kind")
    return Catalogue(attribute_spec(*row) for row in rows.iterator(chunk_size=5000))


# Supply buckets for the statistics page: (upper bound inclusive or None, label).
SUPPLY_BUCKETS: tuple[tuple[int | None, str], ...] = (
    (1, "1"),
    (3, "2–3"),
    (5, "4–5"),
    (10, "6–10"),
    (25, "11–25"),
    (100, "26–100"),
    (500, "101–500"),
    (None, "> 500"),
)


def supply_distribution() -> dict[str, list[int]]:
    """Attribute counts per slot and supply bucket (one query)."""
    aggregates = {}
    lower = 0
    for index, (upper, _label) in enumerate(SUPPLY_BUCKETS):
        for slot in SLOT_FIELDS:
            condition = Q(slot=slot, supply__gt=lower)
            if upper is not None:
                condition &= Q(supply__lte=upper)
            aggregates[f"{slot}_{index}"] = Count("id", filter=condition)
        lower = upper or lower
    row = Attribute.objects.aggregate(**aggregates)
    return {slot: [row[f"{slot}_{i}"] for i in range(len(SUPPLY_BUCKETS))] for slot in SLOT_FIELDS}


def rarest_attributes(limit: int = 15) -> list[Attribute]:
    """The lowest-supply attributes, with how many cards own each (one query).

    The owners are counted by a subquery per returned row, after the limit: counting
    them for every attribute first (a join of the whole wardrobe table) took 1.5 s at
    100,000 cards.
    """
    owners = (
        Card.wardrobe.through.objects.filter(attribute_id=OuterRef("pk"))
        .order_by()
        .values("attribute_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    return list(
        Attribute.objects.annotate(
            owners_count=Coalesce(Subquery(owners, output_field=IntegerField()), 0)
        ).order_by("supply", "slot", "name")[:limit]
    )
