"""Read queries of the explorer: a parsed search as a queryset, the attribute catalogue."""

from __future__ import annotations

from django.db.models import Count, F, Q, QuerySet

from cards.models import RARITY_RANK, Attribute, Card
from cards.specs import attribute_spec

from .query import SLOT_FIELDS, Query, Term, word_token
from .whatif import Catalogue

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
    "score": "wardrobe_score",
    "token": "token",
    "starter": "starter",
}

# sort key → Card column; ties always break by token.
_SORT_COLUMNS = {
    "rarity": "rarity_rank",
    "token": "token",
    "rank": "getgems_rank",
    "energy": "energy_cost",
    "atk": "atk",
    "hp": "hp",
    "score": "wardrobe_score",
    "burned": "burned_stickers",
    "name": "name",
}


def _compare(column: str, op: str, value: object) -> Q:
    if value is None:
        condition = Q(**{f"{column}__isnull": True})
        return ~condition if op == "!=" else condition
    if op == "!=":
        return ~Q(**{column: value})
    return Q(**{f"{column}__{_LOOKUP[op]}": value})


def _any_slot(**lookup: object) -> Q:
    """Some equipped attribute matches ``lookup``: one indexed IN (…) per slot, no joins."""
    matching = Attribute.objects.filter(**lookup).values("id")
    condition = Q()
    for slot in SLOT_FIELDS:
        condition |= Q(**{f"{slot}_id__in": matching.filter(slot=slot)})
    return condition


def term_condition(term: Term) -> Q:
    """One parsed term as a database condition."""
    if term.field == "rarity":
        return _compare("rarity_rank", term.op, RARITY_RANK[str(term.value)])
    if term.field in SLOT_FIELDS:
        matching = Attribute.objects.filter(slot=term.field, name__icontains=term.value)
        return Q(**{f"{term.field}_id__in": matching.values("id")})
    if term.field == "attr":
        return _any_slot(name__icontains=term.value)
    if term.field == "name":
        return Q(name__icontains=term.value)
    if term.field == "kind":
        return _any_slot(kind=term.value)
    if term.field == "supply":
        if term.op == "!=":
            return ~_any_slot(supply=term.value)
        return _any_slot(**{f"supply__{_LOOKUP[term.op]}": term.value})
    return _compare(_COLUMNS[term.field], term.op, term.value)


def search_cards(query: Query) -> QuerySet[Card]:
    """Cards matching ``query``, in its sort order (ties by token).

    Starter (Free) cards stay out of the listing unless the query asks for them.
    """
    cards = Card.objects.all()
    if not query.wants_free_cards:
        cards = cards.filter(starter=False)
    for term in query.terms:
        cards = cards.filter(term_condition(term))
    for word in query.words:
        condition = Q(name__icontains=word)
        token = word_token(word)
        if token is not None:
            condition |= Q(token=token)
        cards = cards.filter(condition)
    descending = query.sort.startswith("-")
    column = _SORT_COLUMNS[query.sort.lstrip("-")]
    if column == "token":
        order = ["-token" if descending else "token"]
    elif column in ("getgems_rank", "wardrobe_score"):
        # Cards without a value (no GetGems rank) go last either way.
        expression = (
            F(column).desc(nulls_last=True) if descending else F(column).asc(nulls_last=True)
        )
        order = [expression, "token"]
    else:
        order = [f"-{column}" if descending else column, "token"]
    return cards.order_by(*order)


def page_of_cards(page_ids: list[int]) -> list[Card]:
    """The cards of one page, equipped attributes joined, in the page's order (one query).

    Paging first selects ids only (an index scan, however deep the page), then joins the
    attributes of just those rows.
    """
    rows = Card.objects.select_related("head", "body", "paw", "background").in_bulk(page_ids)
    return [rows[pk] for pk in page_ids if pk in rows]


def attribute_catalogue() -> Catalogue:
    """Every attribute of the collection as engine values, by slot (one query)."""
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
    """The lowest-supply attributes, with how many cards own each (one query)."""
    return list(
        Attribute.objects.annotate(owners_count=Count("owners")).order_by("supply", "slot", "name")[
            :limit
        ]
    )
