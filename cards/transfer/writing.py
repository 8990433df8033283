"""Applying an import: the file read and checked, the plan made, then run in one short
transaction (made again when the collection changed meanwhile)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from .. import history, services
from ..models import Card, Combo
from .planning import ImportResult, _Plan, _plan, _stamp
from .reading import _read
from .statements import _connection, _owned_sql, _run, _Statement

# ---------------------------------------------------------------------------
# Writing
#
# An import derives and checks everything first, outside any transaction (readers and
# writers carry on meanwhile): every row to insert, every changed column, every changed
# card's derived fields (computed by the engine from the collection as it will be), all
# as prepared SQL parameters. Then one short transaction runs the prepared statements.
# The ``cards`` content version, which every write to the collection bumps
# (``services.collection_changed``), tells whether the collection changed in between;
# if it did, the plan is made again.

PLAN_ATTEMPTS = 3


class ImportBusy(Exception):
    """The collection kept changing while the import was being prepared; nothing was written."""


def import_collection(text: str | bytes, *, update_attributes: bool = False) -> ImportResult:
    """Check ``text`` completely, derive what changes, then write it in one short transaction.

    Raises ``ImportFailed`` (every problem, nothing written) when anything is wrong, and
    ``ImportBusy`` when the collection changed under every attempt to prepare the writes.
    """
    parsed, problems = _read(text)
    for _attempt in range(PLAN_ATTEMPTS):
        plan = _plan(parsed, problems, update_attributes)
        if _write(plan):
            if plan.inputs_before:  # what each changed card equips or owns: its history
                history.record_card_imports(history.today(), plan.inputs_before)
            return plan.result
    raise ImportBusy(
        _("the collection changed while the file was being checked; nothing was imported")
    )


def _write(plan: _Plan) -> bool:
    """Run ``plan`` in one transaction; False (nothing written) when it is stale."""
    if not plan.writes:
        return True
    started = time.perf_counter()
    with _index_cache(), transaction.atomic(), services.signals_paused():
        if _stamp(lock=True) != plan.stamp:
            return False
        for statement in plan.before:
            _run(statement)
        _write_combos(plan)
        for statement in plan.cards:
            _run(statement)
        _write_new_cards(plan)
        for statement in plan.after:
            _run(statement)
        # Raw SQL sends no signals: report the change for the cached pages.
        services.collection_changed()
        services.analyze_collection()
    plan.result.write_seconds = time.perf_counter() - started
    return True


# SQLite's page cache while an import writes: the indexes of 100,000 cards and their
# wardrobes fit, so the inserts do not reread pages (half the write time for 100,000).
_WRITE_CACHE_KIB = 256 * 1024


@contextmanager
def _index_cache() -> Iterator[None]:
    connection = _connection()
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (before,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{_WRITE_CACHE_KIB}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(before)}")  # and its memory is freed


def _write_combos(plan: _Plan) -> None:
    through = Combo.attributes.through
    links = []
    for write in plan.combos:
        if write.pk is None:
            pk = Combo.objects.create(
                name_en=write.name_en, name_ru=write.name_ru, rarity=write.rarity
            ).pk
        else:
            pk = write.pk
            Combo.objects.filter(pk=pk).update(name_ru=write.name_ru, rarity=write.rarity)
            if write.remove:
                through.objects.filter(combo_id=pk, attribute_id__in=write.remove).delete()
        links += [through(combo_id=pk, attribute_id=a) for a in sorted(write.add)]
    through.objects.bulk_create(links)


def _write_new_cards(plan: _Plan) -> None:
    """The new cards, then what they own (their ids read back: the rows after the largest
    id before the insert)."""
    if plan.new_cards is None:
        return
    largest = Card.objects.aggregate(m=Max("id"))["m"] or 0
    _run(plan.new_cards)
    card_ids = dict(Card.objects.filter(id__gt=largest).values_list("token", "id"))
    owned = [(card_ids[token], a) for token, attrs in plan.new_owned.items() for a in attrs]
    _run(_Statement(_owned_sql("insert"), owned))
