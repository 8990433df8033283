"""Storing a generated collection: PostgreSQL's COPY path stores the very rows that
bulk_create stores (run it with `bash scripts/ci-postgres.sh tests/cards/test_store_copy.py`)."""

from __future__ import annotations

import pytest
from django.db import connection

from cards import services
from cards.generator import generate
from cards.models import Card
from cards.services import clear_collection, store_collection


def _stored() -> tuple[list[tuple], list[tuple]]:
    """Every card's columns but its id, and the wardrobe as (token, attribute id)."""
    fields = [f.attname for f in Card._meta.concrete_fields if not f.primary_key]
    cards = list(Card.objects.order_by("token").values_list(*fields))
    wardrobe = sorted(Card.wardrobe.through.objects.values_list("card__token", "attribute_id"))
    return cards, wardrobe


def _foreign_keys() -> list[tuple]:
    tables = [Card._meta.db_table, Card.wardrobe.through._meta.db_table]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(%s::regclass[])"
            " ORDER BY 1, 2",
            [tables],
        )
        return cursor.fetchall()


def _store(collection, derived=True) -> dict[str, int]:
    return store_collection(
        collection.attributes,
        collection.cards,
        [(c.spec, {"en": c.spec.name, "ru": c.name_ru}) for c in collection.combos],
        collection.derived if derived else None,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("derived", [True, False], ids=["derived given", "recomputed"])
def test_copy_stores_the_same_rows_as_bulk_create(monkeypatch, derived):
    if connection.vendor != "postgresql":
        pytest.skip("the COPY path is PostgreSQL's (scripts/ci-postgres.sh runs it)")
    collection = generate(11, 300)
    assert services._can_copy(connection)
    foreign_keys = _foreign_keys()
    assert len(foreign_keys) >= 6  # four equipped slots, the wardrobe's card and attribute
    copied_counts = _store(collection, derived)
    copied = _stored()
    assert _foreign_keys() == foreign_keys  # dropped for the load, back as they were
    clear_collection()
    monkeypatch.setattr(services, "_can_copy", lambda connection: False)
    bulk_counts = _store(collection, derived)
    bulk = _stored()
    assert copied_counts == bulk_counts
    assert copied_counts["owned"] == sum(len(c.owned) for c in collection.cards)
    assert len(copied[0]) == 300 and len(copied[1]) == copied_counts["owned"]
    assert copied == bulk
    # A replace in one transaction (deletes pending their checks) takes the COPY path too.
    clear_collection()
    monkeypatch.undo()
    assert _store(collection, derived) == copied_counts
    assert _stored() == copied and _foreign_keys() == foreign_keys
    # What was stored is what the generator derived.
    by_field = [f.attname for f in Card._meta.concrete_fields if not f.primary_key]
    for row, fields in zip(copied[0], collection.derived, strict=True):
        stored = dict(zip(by_field, row, strict=True))
        assert {k: stored[k] for k in fields} == fields


@pytest.mark.django_db
def test_store_collection_on_any_database_keeps_every_row():
    collection = generate(11, 120)
    counts = _store(collection)
    cards, wardrobe = _stored()
    assert [row[0] for row in cards] == [c.token for c in collection.cards]
    assert counts["owned"] == len(wardrobe) == sum(len(c.owned) for c in collection.cards)
