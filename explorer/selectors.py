"""Read queries of the explorer: a card's neighbours, list rows, the attribute catalogue,
the statistics. The search itself is ``cards.search``."""

from __future__ import annotations

from typing import Any

from django.db import connections, router
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import get_language

from cards.models import Attribute, Card
from cards.query import SLOT_FIELDS
from cards.specs import attribute_spec, card_spec, combo_specs
from core.memo import keep_out_of_gc, memo
from core.prepared import Prepared
from engine.types import CardSpec, ComboSpec, Slot

from .whatif import Catalogue

__all__ = [
    "attribute_catalogue",
    "combos",
    "list_rows",
    "neighbours",
    "one_card_spec",
    "rarest_attributes",
    "supply_distribution",
]


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


#: What a list row shows of a card (``explorer.presenters.rows.card_row``): its own columns and
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
    collection version and process (``core.memo.memo``), since every card page needs it
    and it changes only with the collection."""
    return memo("explorer:catalogue", ("cards",), _load_catalogue)


def combos() -> tuple[ComboSpec, ...]:
    """Every combo as engine values, named in the active language: one query per
    collection version, language and process."""
    return memo(
        f"explorer:combos:{get_language()}", ("cards",), lambda: combo_specs(localized=True)
    )


def one_card_spec(token: int) -> CardSpec:
    """A card's engine input (two queries: the card, its wardrobe; the combos are kept
    per collection version). ``Card.DoesNotExist`` if there is none."""
    return card_spec(token, combos=combos())


#: A catalogue of at least this many attributes is left out of the garbage collector's
#: passes once loaded (``core.memo.keep_out_of_gc``).
LARGE_CATALOGUE = 10_000


def _load_catalogue() -> Catalogue:
    rows = Attribute.objects.order_by().values_list("slot", "name", "supply", "kind")
    catalogue = Catalogue(attribute_spec(*row) for row in rows.iterator(chunk_size=5000))
    if sum(catalogue.count(slot) for slot in Slot) >= LARGE_CATALOGUE:
        keep_out_of_gc()
    return catalogue


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
