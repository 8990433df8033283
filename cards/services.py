"""Writes that keep the collection consistent: ownership of equipped attributes and
the stored derived fields.

* ``own_equipped(card_ids)``: the wardrobe holds the equipped four (inserts what is missing).
* ``recompute_cards(cards)``: derive with the engine, write the derived columns that
  changed (batched executemany UPDATEs). ``None`` means every card.
* ``cards_affected_by_attributes(ids)`` / ``cards_affected_by_combo(ids)``: which cards a
  change can reach, so signals recompute only those.
* ``request_recompute(card_ids)``: what signals call. Runs at once, unless inside
  ``deferred_recompute()``, which collects every request and runs one recompute at
  the end (imports and generators use it to avoid recomputing a card many times).
* ``signals_paused()``: bulk jobs that recompute themselves silence the signals.
* ``collection_changed()``: the one place the ``cards`` content version is bumped (cached
  pages key on it): signals call it on every ORM write to the collection, paused or not,
  and the bulk writers (recompute, import, store, clear) after their writes.
* ``clear_collection()`` / ``store_collection(...)``: replace the whole collection in
  bulk (the demo generator), in batches, with the derived fields given or recomputed.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import connections, router, transaction
from django.db.models import Model, Q, QuerySet

import engine
from core import versions
from core.db import analyze
from engine.card.derive import derive
from engine.types import AttributeSpec, CardSpec, ComboSpec

from .models import EQUIPPED_FIELDS, Attribute, Card, Combo
from .specs import DERIVED_FIELDS, combo_specs, derived_fields, iter_card_specs

__all__ = [
    "RecomputeResult",
    "cards_affected_by_attributes",
    "cards_affected_by_combo",
    "collection_changed",
    "deferred_recompute",
    "own_equipped",
    "recompute_cards",
    "request_recompute",
    "set_columns",
    "signals_paused",
    "store_collection",
]

# Changed cards per executemany call.
UPDATE_BATCH = 2000


@dataclass(frozen=True)
class RecomputeResult:
    """How many cards were derived and how many rows actually changed."""

    checked: int
    changed: int


def own_equipped(card_ids: Iterable[int] | None = None) -> int:
    """Make every equipped attribute of these cards (all cards: None) part of its wardrobe.

    Returns how many ownership rows were added. Two queries per 5,000 cards.
    """
    through = Card.wardrobe.through
    queryset = Card.objects.all()
    if card_ids is not None:
        ids = list(card_ids)
        if not ids:
            return 0
        queryset = queryset.filter(id__in=ids)
    added = 0
    batch: list[tuple[int, int]] = []
    for row in queryset.values_list("id", *(f"{f}_id" for f in EQUIPPED_FIELDS)).iterator(
        chunk_size=5000
    ):
        batch.extend((row[0], attr_id) for attr_id in row[1:])
        if len(batch) >= 20000:
            added += _add_missing(through, batch)
            batch = []
    if batch:
        added += _add_missing(through, batch)
    return added


def _add_missing(through, pairs: list[tuple[int, int]]) -> int:
    card_ids = {card_id for card_id, _ in pairs}
    have = set(through.objects.filter(card_id__in=card_ids).values_list("card_id", "attribute_id"))
    missing = [through(card_id=c, attribute_id=a) for c, a in pairs if (c, a) not in have]
    through.objects.bulk_create(missing, batch_size=2000, ignore_conflicts=True)
    return len(missing)


def recompute_cards(
    cards: QuerySet[Card] | Iterable[int] | None = None,
    *,
    batch_size: int = 2000,
    progress: Callable[[int, int], None] | None = None,
    processes: int = 1,
) -> RecomputeResult:
    """Derive ``cards`` (a queryset, card ids, or None for all) and store what changed.

    Runs in one transaction. Per batch: two queries to build the specs, one to read
    the stored values, and one executemany UPDATE per 2,000 changed rows; then
    ``progress(checked, total)`` when given (a task's progress, ``cards.tasks``). With
    ``processes`` > 1 each batch is derived in that many forked processes (the engine is
    pure; only this process touches the database). A recompute of every card that changed
    some ends with ``analyze_collection()`` (its values' statistics moved, and the word
    index's pending list holds every rewritten row).
    """
    if cards is not None and not isinstance(cards, QuerySet):
        ids = list(cards)
        if not ids:
            return RecomputeResult(0, 0)
        cards = Card.objects.filter(id__in=ids)
    checked = changed = 0
    total = 0
    if progress is not None:
        total = (cards if cards is not None else Card.objects.all()).count()
    pool = None
    if processes > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(processes)
    try:
        with transaction.atomic():
            combos = combo_specs()
            for batch in iter_card_specs(cards, batch_size=batch_size, combos=combos):
                stored = {
                    row[0]: row[1:]
                    for row in Card.objects.filter(id__in=[cid for cid, _ in batch]).values_list(
                        "id", *DERIVED_FIELDS
                    )
                }
                updates = []
                specs = [spec for _id, spec in batch]
                if pool is None:
                    derived = _derived_values(specs)
                else:
                    step = -(-len(specs) // processes)
                    parts = [specs[i : i + step] for i in range(0, len(specs), step)]
                    derived = [v for part in pool.map(_derived_values, parts) for v in part]
                for (card_id, _spec), values in zip(batch, derived, strict=True):
                    if values != stored.get(card_id):
                        updates.append((card_id, values))
                _write_derived(updates)
                checked += len(batch)
                changed += len(updates)
                if progress is not None:
                    progress(checked, total)
            if cards is None and changed:  # every card derived again (a rules change)
                analyze_collection()
            collection_changed()
    finally:
        if pool is not None:
            pool.terminate()
    return RecomputeResult(checked, changed)


def _derived_values(specs: Sequence[CardSpec]) -> list[tuple[Any, ...]]:
    """Each card's stored fields, in ``DERIVED_FIELDS`` order (pure: runs in any process)."""
    out = []
    for spec in specs:
        fields = derived_fields(derive(spec), spec)
        out.append(tuple(fields[f] for f in DERIVED_FIELDS))
    return out


def collection_changed() -> None:
    """Record that the collection changed: cached pages showing it are rendered afresh.

    Bumps the ``cards`` version at once (inside the caller's transaction, so it commits
    or rolls back with the write); inside ``signals_paused()``, once when the outermost
    paused block ends (a bulk job's many writes make one bump).
    """
    if _pending.paused:
        _pending.dirty = True
        return
    versions.bump("cards")


def _write_derived(updates: Sequence[tuple[int, tuple[Any, ...]]]) -> None:
    """Store derived values: (card id, values in ``DERIVED_FIELDS`` order) per card."""
    set_columns(Card, DERIVED_FIELDS, updates)


def set_columns(
    model: type[Model], fields: Sequence[str], updates: Sequence[tuple[int, Sequence[Any]]]
) -> None:
    """UPDATE ``fields`` of many rows, one parametrised statement per row (executemany).

    ``updates`` holds (primary key, values in ``fields`` order). ``bulk_update``
    builds a CASE per column and row, which SQLite takes minutes over for 100,000
    cards; a prepared statement run many times takes seconds on SQLite and
    PostgreSQL alike (psycopg pipelines it). Sends no signals.
    """
    if not updates:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    columns = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in columns)
    pk = quote(model._meta.pk.column)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {pk} = %s"
    rows = [
        (*(f.get_db_prep_save(v, connection) for f, v in zip(columns, values, strict=True)), key)
        for key, values in updates
    ]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), UPDATE_BATCH):
            cursor.executemany(sql, rows[start : start + UPDATE_BATCH])


def cards_affected_by_attributes(attribute_ids: Iterable[int]) -> set[int]:
    """Ids of the cards that own or equip any of these attributes."""
    ids = list(set(attribute_ids))
    if not ids:
        return set()
    owners = set(
        Card.wardrobe.through.objects.filter(attribute_id__in=ids).values_list("card_id", flat=True)
    )
    equipping = Q()
    for field in EQUIPPED_FIELDS:
        equipping |= Q(**{f"{field}_id__in": ids})
    return owners | set(Card.objects.filter(equipping).values_list("id", flat=True))


def cards_affected_by_combo(attribute_ids: Iterable[int]) -> set[int]:
    """Ids of the cards a combo over these attributes can apply to (equipping any of them)."""
    ids = list(set(attribute_ids))
    if not ids:
        return set()
    equipping = Q()
    for field in EQUIPPED_FIELDS:
        equipping |= Q(**{f"{field}_id__in": ids})
    return set(Card.objects.filter(equipping).values_list("id", flat=True))


# ---------------------------------------------------------------------------
# Recompute requests from signals


class _Pending(threading.local):
    def __init__(self) -> None:
        self.depth = 0
        self.everything = False
        self.ids: set[int] = set()
        self.paused = 0
        self.dirty = False  # the collection changed inside signals_paused()


_pending = _Pending()


def request_recompute(card_ids: Iterable[int] | None) -> None:
    """Recompute these cards (None: every card) now, or at the end of ``deferred_recompute``."""
    if _pending.depth:
        if card_ids is None:
            _pending.everything = True
        else:
            _pending.ids.update(card_ids)
        return
    if card_ids is None:
        recompute_cards()
        return
    ids = set(card_ids)
    if ids:
        recompute_cards(ids)


@contextmanager
def deferred_recompute() -> Iterator[None]:
    """Collect recompute requests and run them once when the outermost block ends.

    Nothing runs when the block raises (its transaction is rolled back anyway).
    """
    _pending.depth += 1
    try:
        yield
    except BaseException:
        _pending.depth -= 1
        if not _pending.depth:
            _pending.everything, _pending.ids = False, set()
        raise
    _pending.depth -= 1
    if _pending.depth:
        return
    everything, ids = _pending.everything, _pending.ids
    _pending.everything, _pending.ids = False, set()
    if everything:
        recompute_cards()
    elif ids:
        recompute_cards(ids)


@contextmanager
def signals_paused() -> Iterator[None]:
    """Silence the ownership/recompute signals (for bulk jobs that recompute themselves).

    The changes the block reports (``collection_changed``, signals included) make one
    version bump when the outermost block ends; after an error only outside a
    transaction (inside one, the writes roll back with it).
    """
    _pending.paused += 1
    try:
        yield
    except BaseException:
        _pending.paused -= 1
        if not _pending.paused and _pending.dirty:
            _pending.dirty = False
            if not transaction.get_connection().in_atomic_block:
                versions.bump("cards")
        raise
    _pending.paused -= 1
    if not _pending.paused and _pending.dirty:
        _pending.dirty = False
        versions.bump("cards")


def signals_are_paused() -> bool:
    return bool(_pending.paused)


# ---------------------------------------------------------------------------
# Bulk replacement of the whole collection

CREATE_BATCH = 2000


def clear_collection() -> None:
    """Delete every card, combo and attribute (through the ORM, so other apps' foreign
    keys cascade or protect as they declare), without per-row signal work."""
    with transaction.atomic(), signals_paused():
        Card.objects.all().delete()
        Combo.objects.all().delete()
        Attribute.objects.all().delete()
        collection_changed()


def store_collection(
    attributes: Sequence[AttributeSpec],
    cards: Sequence[CardSpec],
    combos: Sequence[tuple[ComboSpec, Mapping[str, str]]] = (),
    derived: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, int]:
    """Insert a whole collection into empty tables, in batches, in one transaction.

    ``combos`` pairs each ComboSpec with its names by language ({"en": …, "ru": …}).
    ``derived`` holds each card's stored fields (``cards.specs.derived_fields``) in
    the order of ``cards``; without it every card is recomputed at the end. Every
    attribute a card owns must be in ``attributes``.
    """
    with transaction.atomic(), signals_paused():
        rows = Attribute.objects.bulk_create(
            [
                Attribute(slot=a.slot.value, name=a.name, supply=a.supply, kind=a.kind.value)
                for a in attributes
            ],
            batch_size=CREATE_BATCH,
        )
        ids = {(row.slot, row.name): row.id for row in rows}
        for combo, names in combos:
            row = Combo.objects.create(
                name_en=names.get("en") or combo.name,
                name_ru=names.get("ru") or None,
                rarity=combo.rarity.value,
            )
            Combo.attributes.through.objects.bulk_create(
                Combo.attributes.through(combo_id=row.id, attribute_id=ids[(s.value, n)])
                for s, n in combo.attributes
            )
        owned = _store_cards(cards, derived, ids)
        if derived is None:
            recompute_cards()
        collection_changed()
        analyze_collection()
    return {
        "attributes": len(attributes),
        "cards": len(cards),
        "combos": len(combos),
        "owned": owned,
    }


def _card_rows(
    cards: Sequence[CardSpec],
    derived: Sequence[Mapping[str, Any]] | None,
    ids: Mapping[tuple[str, str], int],
) -> Iterator[dict[str, Any]]:
    """Each card's column values by field attname, in the order of ``cards``."""
    for i, spec in enumerate(cards):
        row = {
            "token": spec.token,
            "name": spec.name,
            "starter": spec.starter,
            "getgems_rank": spec.getgems_rank,
            "burned_stickers": spec.burned_stickers,
        }
        for a in spec.equipped:
            row[f"{a.slot.value}_id"] = ids[(a.slot.value, a.name)]
        if derived is not None:
            row.update(derived[i])
        yield row


def _can_copy(connection) -> bool:
    """Whether ``_store_cards`` streams the rows with ``COPY`` (PostgreSQL)."""
    return connection.vendor == "postgresql"


def _store_cards(
    cards: Sequence[CardSpec],
    derived: Sequence[Mapping[str, Any]] | None,
    ids: Mapping[tuple[str, str], int],
) -> int:
    """Insert the cards and their wardrobe rows; how many wardrobe rows.

    On PostgreSQL through ``COPY`` (psycopg 3's ``cursor.copy``): the rows go as one
    stream each, with no model instance per card, the two tables' foreign keys dropped
    meanwhile and added back (validated) after (the database user owns the tables: it
    ran the migrations). Elsewhere through ``bulk_create``
    in batches. Both store the same rows (tests/cards/test_store_copy.py)."""
    through = Card.wardrobe.through
    connection = connections[router.db_for_write(Card)]
    if not _can_copy(connection):
        owned = 0
        rows = _card_rows(cards, derived, ids)
        for start in range(0, len(cards), CREATE_BATCH):
            chunk = cards[start : start + CREATE_BATCH]
            made = Card.objects.bulk_create(
                [Card(**row) for row in itertools.islice(rows, len(chunk))]
            )
            links = [
                through(card_id=card.id, attribute_id=ids[(a.slot.value, a.name)])
                for card, spec in zip(made, chunk, strict=True)
                for a in spec.owned
            ]
            through.objects.bulk_create(links, batch_size=5000)
            owned += len(links)
        return owned
    fields = [f for f in Card._meta.concrete_fields if not f.primary_key]
    defaults = {f.attname: f.get_default() for f in fields}
    names = [f.attname for f in fields]
    qn = connection.ops.quote_name
    columns = ", ".join(qn(f.column) for f in fields)
    tables = [Card._meta.db_table, through._meta.db_table]
    with connection.cursor() as cursor:
        # PostgreSQL's advice for a bulk load: drop the foreign keys of the tables filled and
        # add them back after it, so each is checked in one join, not by a trigger per row
        # at commit (most of the time storing took). Same names and definitions; DDL is
        # transactional, so a failure leaves them as they were.
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(%s::regclass[])"
            " ORDER BY 1, 2",
            [tables],
        )
        foreign_keys = cursor.fetchall()
        # Rows deleted earlier in the transaction (a replace) leave checks pending, which
        # ALTER TABLE refuses: run them now (as Django's check_constraints() does).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table, name, _definition in foreign_keys:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {qn(name)}")
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(f"COPY {qn(Card._meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in _card_rows(cards, derived, ids):
                copy.write_row([row[n] if n in row else defaults[n] for n in names])
        cursor.execute(f"SELECT {qn('token')}, {qn('id')} FROM {qn(Card._meta.db_table)}")
        card_ids = dict(cursor.fetchall())
        owned = 0
        link_columns = f"{qn(through._meta.get_field('card').column)}, " + qn(
            through._meta.get_field("attribute").column
        )
        with raw.copy(f"COPY {qn(through._meta.db_table)} ({link_columns}) FROM STDIN") as copy:
            for spec in cards:
                card_id = card_ids[spec.token]
                for a in spec.owned:
                    copy.write_row((card_id, ids[(a.slot.value, a.name)]))
                    owned += 1
        for table, name, definition in foreign_keys:
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {qn(name)} {definition}")
    return owned


def analyze_collection() -> None:
    """Fresh planner statistics for the collection's tables after a bulk write
    (PostgreSQL; ``core.db.analyze``)."""
    analyze(Attribute, Card, Card.wardrobe.through, Combo, Combo.attributes.through)


def engine_fingerprint() -> str:
    """A digest of the engine's source: it changes whenever a rule might have."""
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(",".join(DERIVED_FIELDS).encode())  # a new stored column: recompute
    return digest.hexdigest()
