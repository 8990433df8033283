"""A card's history: record what changed, when and why; derive a card as it was on a day.

Service functions (plain calls a task can make, each in one transaction):

* ``record_changes(day, before, after, changes)``: derive the cards before and after
  their inputs changed, store each changed field with its causes (``engine.card.causes``) as a
  ``CardChange``, and store the new derived columns.
* ``record_card_imports(day, before)``: the same after a collection import changed what
  cards equip or own (``cards.transfer`` calls it with the cards as they were).
* ``record_rules_version()``: when ``engine.data.RULES_VERSION`` is new, record it and
  every card it changes, caused by its changelog (``manage.py recompute`` calls it).
* ``spec_as_of(spec, day)``: the card's engine inputs with that day's market data.
* ``fingerprint(spec)``: the SHA-256 of the canonical JSON of a card's engine inputs and
  the rules version, so two sites can check they derived from the same data.

A dated value holds from its date until the next one (a value's first import also records
the value it replaced, dated ``cards.market.EPOCH``); a value without records, and every
value from today on, is the collection's current one.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from core.memo import memo
from engine.card import causes as why
from engine.card.derive import derive
from engine.data import RULES_CHANGELOG, RULES_VERSION
from engine.serialize import card_to_json
from engine.types import CardSpec

from . import services
from .models import Attribute, Card, CardChange, RankRecord, RulesVersion, SupplyRecord
from .specs import DERIVED_FIELDS, combo_specs, derived_fields, iter_card_specs

__all__ = [
    "changes_of",
    "fingerprint",
    "load_specs",
    "record_card_imports",
    "record_changes",
    "record_rules_version",
    "rules_changes",
    "spec_as_of",
    "today",
]

# CardChange rows per INSERT.
_INSERT_BATCH = 2000


def today() -> datetime.date:
    """The site's date today (what "a date in the future" is measured against)."""
    return timezone.localdate()


def load_specs(card_ids: Iterable[int]) -> dict[int, CardSpec]:
    """Engine inputs of these cards by card id (English combo names, as stored fields use)."""
    ids = sorted(set(card_ids))
    if not ids:
        return {}
    combos = combo_specs()
    specs: dict[int, CardSpec] = {}
    for start in range(0, len(ids), 20000):
        queryset = Card.objects.filter(id__in=ids[start : start + 20000])
        for batch in iter_card_specs(queryset, combos=combos):
            specs.update(batch)
    return specs


# ---------------------------------------------------------------------------
# Recording


def record_changes(
    day: datetime.date,
    before: Mapping[int, CardSpec | Mapping[str, Any]],
    after: Mapping[int, CardSpec],
    changes: Mapping[int, Sequence[why.Change]] | Sequence[why.Change],
) -> int:
    """Store each field of these cards that changed from ``before`` to ``after`` on ``day``
    with its causes, and the cards' new derived columns. Returns the CardChange rows made.

    ``changes`` is each card's changed inputs (or one list for every card); ``before``
    holds each card's inputs (or its recorded facts, ``engine.card.causes.facts``) before them.
    """
    rows: list[CardChange] = []
    updates: list[tuple[int, tuple[Any, ...]]] = []
    stored = _stored(after.keys())
    for card_id, spec in after.items():
        old = before.get(card_id)
        if old is None:
            continue
        breakdown = derive(spec)
        new = why.facts(breakdown)
        inputs = changes if isinstance(changes, Sequence) else changes.get(card_id, ())
        if isinstance(old, Mapping):
            old = {**old, "effects": old.get("effects", new["effects"])}
        for change in why.explain(old, spec, inputs, after_facts=new):
            rows.append(
                CardChange(
                    card_id=card_id,
                    date=day,
                    field=change.field,
                    before=change.before,
                    after=change.after,
                    causes=list(change.causes),
                    tier_change=change.field == "rarity",
                )
            )
        derived = derived_fields(breakdown, spec)
        values = tuple(derived[f] for f in DERIVED_FIELDS)
        if values != stored.get(card_id):
            updates.append((card_id, values))
    with transaction.atomic():
        CardChange.objects.bulk_create(rows, batch_size=_INSERT_BATCH)
        services.set_columns(Card, DERIVED_FIELDS, updates)
        if updates or rows:
            services.collection_changed()
    return len(rows)


def _stored(card_ids: Iterable[int]) -> dict[int, tuple[Any, ...]]:
    ids = list(card_ids)
    out: dict[int, tuple[Any, ...]] = {}
    for start in range(0, len(ids), 5000):
        for row in Card.objects.filter(id__in=ids[start : start + 5000]).values_list(
            "id", *DERIVED_FIELDS
        ):
            out[row[0]] = tuple(row[1:])
    return out


def _input_changes(old: CardSpec, new: CardSpec) -> list[why.Change]:
    """What differs between two versions of a card's own inputs (equipped, owned, market)."""
    found: list[why.Change] = []
    for was, now in zip(old.equipped, new.equipped, strict=True):
        if was.name != now.name:
            found.append(why.EquipChange(was, now))
        elif was.supply != now.supply:
            found.append(why.SupplyChange(now.slot.value, now.name, was.supply, now.supply))
    owned_before = {(a.slot, a.name): a for a in old.owned}
    owned_after = {(a.slot, a.name): a for a in new.owned}
    equipped_names = {(a.slot, a.name) for a in (*old.equipped, *new.equipped)}
    for key in owned_after.keys() - owned_before.keys() - equipped_names:
        found.append(why.OwnedChange(owned_after[key], True))
    for key in owned_before.keys() - owned_after.keys() - equipped_names:
        found.append(why.OwnedChange(owned_before[key], False))
    for key in (owned_before.keys() & owned_after.keys()) - equipped_names:
        was, now = owned_before[key], owned_after[key]
        if was.supply != now.supply:
            found.append(why.SupplyChange(now.slot.value, now.name, was.supply, now.supply))
    if old.getgems_rank != new.getgems_rank:
        found.append(why.RankChange(old.getgems_rank, new.getgems_rank))
    return found


def record_card_imports(day: datetime.date, before: Mapping[int, CardSpec]) -> int:
    """Record what a collection import changed in these cards (their inputs ``before`` it):
    each card's changed equipped or owned attributes, and the supplies the import changed
    (``--update-attributes``), are the causes."""
    after = load_specs(before.keys())
    changes = {cid: _input_changes(before[cid], spec) for cid, spec in after.items()}
    return record_changes(day, before, after, changes)


def rules_changes() -> tuple[why.RulesChange, ...]:
    """The changelog of the engine's rules version, as causes."""
    version = RULES_VERSION
    return tuple(
        why.RulesChange(version, c.constant, c.before, c.after) for c in RULES_CHANGELOG
    ) or (why.RulesChange(version, "", "", ""),)


def _stored_facts(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "rarity": row["rarity"],
        "role": row["role"],
        "skill": row["skill_affinity"],
        "active_skill": row["active_skill"],
        "template": row["template"],
        "stats": {
            "atk": row["atk"],
            "hp": row["hp"],
            "def": row["defense"],
            "ability": row["ability"],
        },
        "energy_cost": row["energy_cost"],
    }


def record_rules_version(day: datetime.date | None = None) -> RulesVersion | None:
    """Record the engine's rules version if it is new, and every card it changes (from
    the stored fields derived with the version before), caused by its changelog.

    None when this version is recorded already. The first version of a database is
    recorded without changes: there is no version before it to compare with.
    """
    if RulesVersion.objects.filter(version=RULES_VERSION).exists():
        return None
    first = not RulesVersion.objects.exists()
    day = day or today()
    with transaction.atomic():
        version = RulesVersion.objects.create(
            version=RULES_VERSION,
            changelog=[dataclasses.asdict(c) for c in RULES_CHANGELOG],
        )
        if not first:
            causes = rules_changes()
            columns = ("id", "rarity", "role", "skill_affinity", "active_skill", "template")
            columns += ("atk", "hp", "defense", "ability", "energy_cost")
            for batch in iter_card_specs(combos=combo_specs()):
                rows = Card.objects.filter(id__in=[cid for cid, _ in batch]).values(*columns)
                before = {row["id"]: _stored_facts(row) for row in rows}
                record_changes(day, before, dict(batch), causes)
    return version


# ---------------------------------------------------------------------------
# Reading: a card as it was, and its fingerprint


def spec_as_of(spec: CardSpec, day: datetime.date, attribute_ids: Mapping[tuple, int]) -> CardSpec:
    """``spec`` with each attribute's supply and the card's rank as recorded for ``day``.

    ``attribute_ids`` maps (slot value, name) to attribute id. From today on, and before
    a value's first record, the current value stands.
    """
    if day >= today():
        return spec
    ids = {attribute_ids[(a.slot.value, a.name)] for a in spec.owned}
    latest = (
        SupplyRecord.objects.filter(attribute_id=OuterRef("attribute_id"), date__lte=day)
        .order_by("-date")
        .values("date")[:1]
    )
    supplies = dict(
        SupplyRecord.objects.filter(attribute_id__in=ids, date=Subquery(latest)).values_list(
            "attribute_id", "supply"
        )
    )

    def dated(attr):
        supply = supplies.get(attribute_ids[(attr.slot.value, attr.name)])
        return attr if supply is None else dataclasses.replace(attr, supply=supply)

    rank = spec.getgems_rank
    record = (
        RankRecord.objects.filter(card__token=spec.token, date__lte=day)
        .order_by("-date")
        .values_list("getgems_rank", flat=True)[:1]
    )
    for value in record:
        rank = value
    return dataclasses.replace(
        spec,
        equipped=tuple(dated(a) for a in spec.equipped),
        wardrobe=tuple(dated(a) for a in spec.wardrobe),
        getgems_rank=rank,
    )


def card_as_of(spec: CardSpec, day: datetime.date) -> CardSpec:
    """``spec_as_of`` with the attribute ids looked up (one query more)."""
    names = [a.name for a in spec.owned]
    ids = {
        (slot, name): pk
        for pk, slot, name in Attribute.objects.filter(name__in=names).values_list(
            "id", "slot", "name"
        )
    }
    return spec_as_of(spec, day, ids)


def english_combos() -> tuple:
    """Every combo named in English: one query per collection version and process."""
    return memo("cards:combos:en", ("cards",), combo_specs)


def fingerprint(spec: CardSpec, *, combos: tuple | None = None) -> str:
    """The SHA-256 of the canonical JSON of a card's engine inputs and the rules version.

    Canonical: keys sorted, no spaces, UTF-8, combos named in English (whatever the
    page's language: ``combos`` when the caller keeps them), so the same data gives the
    same digest on any site.
    """
    english = dataclasses.replace(spec, combos=english_combos() if combos is None else combos)
    payload = {"card": card_to_json(english), "rules_version": RULES_VERSION}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def changes_of(card_id: int) -> list[CardChange]:
    """A card's recorded changes, newest day first (one query)."""
    return list(CardChange.objects.filter(card_id=card_id).order_by("-date", "id"))
