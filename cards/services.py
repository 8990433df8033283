"""Writes that keep the collection consistent: ownership of equipped attributes and
the stored derived fields.

* ``own_equipped(card_ids)``: the wardrobe holds the equipped four (inserts what is missing).
* ``recompute_cards(cards)``: derive with the engine, write the derived columns that
  changed (``bulk_update`` in batches). ``None`` means every card.
* ``cards_affected_by_attributes(ids)`` / ``cards_affected_by_combo(ids)``: which cards a
  change can reach, so signals recompute only those.
* ``request_recompute(card_ids)``: what signals call. Runs at once, unless inside
  ``deferred_recompute()``, which collects every request and runs one recompute at
  the end (imports and generators use it to avoid recomputing a card many times).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet

from engine.derive import derive

from .models import EQUIPPED_FIELDS, Card
from .specs import DERIVED_FIELDS, combo_specs, derived_fields, iter_card_specs

__all__ = [
    "RecomputeResult",
    "cards_affected_by_attributes",
    "cards_affected_by_combo",
    "deferred_recompute",
    "own_equipped",
    "recompute_cards",
    "request_recompute",
]

# Rows per UPDATE statement of bulk_update (SQLite and PostgreSQL both handle this well).
UPDATE_BATCH = 500


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
    cards: QuerySet[Card] | Iterable[int] | None = None, *, batch_size: int = 2000
) -> RecomputeResult:
    """Derive ``cards`` (a queryset, card ids, or None for all) and store what changed.

    Runs in one transaction. Per batch: two queries to build the specs, one to read
    the stored values, and one UPDATE per 500 changed rows.
    """
    if cards is not None and not isinstance(cards, QuerySet):
        ids = list(cards)
        if not ids:
            return RecomputeResult(0, 0)
        cards = Card.objects.filter(id__in=ids)
    checked = changed = 0
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
            for card_id, spec in batch:
                fields = derived_fields(derive(spec))
                if tuple(fields[f] for f in DERIVED_FIELDS) != stored.get(card_id):
                    updates.append(Card(id=card_id, **fields))
            if updates:
                Card.objects.bulk_update(updates, DERIVED_FIELDS, batch_size=UPDATE_BATCH)
            checked += len(batch)
            changed += len(updates)
    return RecomputeResult(checked, changed)


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
