"""The plan of an import, made outside any transaction: every row to insert, every changed
column and every changed card's derived fields (the engine derives them from the
collection as it will be), as prepared statements, with the ``cards`` content version
it was made at."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.card.derive import derive
from engine.types import (
    AttributeSpec,
    CardSpec,
    ComboSpec,
)

from .. import history, services
from ..models import EQUIPPED_FIELDS, Attribute, Card, Combo, allocate_attribute_ids
from ..specs import DERIVED_FIELDS, combo_specs, derived_fields, iter_card_specs
from .reading import ImportFailed, ParsedCollection, Problem, _check_database, _key
from .statements import _OWNED, _insert, _owned_sql, _Statement, _updates

_CHUNK = 5000  # ids per IN (...) query


@dataclass
class ImportResult:
    """What an import did, per kind: created, updated and unchanged counts."""

    attributes: dict[str, int] = field(default_factory=lambda: _counts())
    cards: dict[str, int] = field(default_factory=lambda: _counts())
    combos: dict[str, int] = field(default_factory=lambda: _counts())
    recomputed: int = 0
    write_seconds: float = 0.0  # how long the write transaction (and its lock) lasted

    @property
    def changed(self) -> bool:
        return any(c["created"] or c["updated"] for c in (self.attributes, self.cards, self.combos))


def _counts() -> dict[str, int]:
    return {"created": 0, "updated": 0, "unchanged": 0}


@dataclass
class _ComboWrite:
    pk: int | None  # None: a new combo
    name_en: str
    name_ru: str | None
    rarity: str
    add: set[int]
    remove: set[int]


@dataclass
class _Plan:
    """Every write of an import, prepared before the write transaction, in order."""

    stamp: int
    result: ImportResult
    before: list[_Statement] = field(default_factory=list)  # attributes
    combos: list[_ComboWrite] = field(default_factory=list)
    cards: list[_Statement] = field(default_factory=list)  # changed cards and their ownership
    new_cards: _Statement | None = None
    new_owned: dict[int, list[int]] = field(default_factory=dict)  # token → attribute ids
    after: list[_Statement] = field(default_factory=list)  # derived fields of other cards
    inputs_before: dict[int, CardSpec] = field(default_factory=dict)  # changed cards, for history

    @property
    def writes(self) -> bool:
        statements = [*self.before, *self.cards, *self.after]
        return bool(self.combos or self.new_cards or any(s.rows for s in statements))


def _stamp(*, lock: bool = False) -> int:
    """The ``cards`` content version now (``lock``: hold its row until the transaction ends)."""
    from core.models import DataVersion

    rows = DataVersion.objects.filter(name="cards")
    if lock:
        rows = rows.select_for_update()
    return rows.values_list("number", flat=True).first() or 0


def _plan(parsed: ParsedCollection, problems: list[Problem], update_attributes: bool) -> _Plan:
    stamp = _stamp()  # first: any write after this read makes the plan stale
    catalogue = {
        (slot, name): (pk, supply, kind)
        for pk, slot, name, supply, kind in Attribute.objects.values_list(
            "id", "slot", "name", "supply", "kind"
        ).iterator(chunk_size=10000)
    }
    problems = problems + _check_database(parsed, catalogue, update_attributes)
    if problems:
        raise ImportFailed(problems)
    plan = _Plan(stamp=stamp, result=ImportResult())
    ids = {key: value[0] for key, value in catalogue.items()}
    updated = _plan_attributes(plan, parsed, catalogue, ids)
    combos, touched = _plan_combos(plan, parsed, ids)
    rederived = _plan_cards(plan, parsed, ids, combos)
    affected = services.cards_affected_by_attributes(ids[key] for key in updated)
    plan.inputs_before = history.load_specs(rederived | affected)
    affected |= services.cards_affected_by_combo(touched)
    _plan_derived(plan, affected - rederived, updated, combos)
    return plan


def _plan_attributes(
    plan: _Plan,
    parsed: ParsedCollection,
    catalogue: Mapping[tuple[str, str], tuple[int, int, str]],
    ids: dict[tuple[str, str], int],
) -> dict[tuple[str, str], AttributeSpec]:
    """New attributes (their ids allocated now, added to ``ids``) and changed ones;
    returns the changed ones' new values."""
    counts = plan.result.attributes
    new: list[Attribute] = []
    changes: list[tuple[int, tuple[Any, ...], tuple[Any, ...]]] = []
    updated: dict[tuple[str, str], AttributeSpec] = {}
    for key in parsed.listed:
        attr = parsed.attributes[key]
        stored = catalogue.get(key)
        if stored is None:
            new.append(
                Attribute(slot=key[0], name=key[1], supply=attr.supply, kind=attr.kind.value)
            )
        elif (stored[1], stored[2]) != (attr.supply, attr.kind.value):
            changes.append((stored[0], stored[1:], (attr.supply, attr.kind.value)))
            updated[key] = attr
        else:
            counts["unchanged"] += 1
    # The ids stay free until the write: any attribute written meanwhile changes the stamp.
    allocate_attribute_ids(new)
    ids.update({(a.slot, a.name): a.id for a in new})
    names = ("id", "slot", "name", "supply", "kind")
    plan.before.append(_insert(Attribute, names, ([getattr(a, n) for n in names] for a in new)))
    plan.before += _updates(Attribute, ("supply", "kind"), changes)
    counts["created"], counts["updated"] = len(new), len(changes)
    return updated


def _plan_combos(
    plan: _Plan, parsed: ParsedCollection, ids: Mapping[tuple[str, str], int]
) -> tuple[tuple[ComboSpec, ...], set[int]]:
    """The combo writes; returns every combo as the rules will know it after the import,
    and the attribute ids of the combos whose cards may change."""
    through = Combo.attributes.through
    known = {spec.name: spec for spec in combo_specs()}
    existing = {
        c.name_en: c for c in Combo.objects.filter(name_en__in=[c.spec.name for c in parsed.combos])
    }
    members: dict[int, set[int]] = defaultdict(set)
    for combo_id, attr_id in through.objects.filter(
        combo_id__in=[c.id for c in existing.values()]
    ).values_list("combo_id", "attribute_id"):
        members[combo_id].add(attr_id)
    counts = plan.result.combos
    touched: set[int] = set()
    for combo in parsed.combos:
        spec = combo.spec
        wanted = {ids[(slot.value, name)] for slot, name in spec.attributes}
        # As combo_specs() lists a combo's attributes: by slot name.
        known[spec.name] = ComboSpec(
            spec.name, tuple(sorted(spec.attributes, key=lambda p: p[0].value)), spec.rarity
        )
        row = existing.get(spec.name)
        if row is None:
            write = _ComboWrite(
                None, spec.name, combo.name_ru or None, spec.rarity.value, wanted, set()
            )
            plan.combos.append(write)
            touched |= wanted
            counts["created"] += 1
            continue
        have = members[row.id]
        if (row.name_ru or "", row.rarity, have) == (combo.name_ru, spec.rarity.value, wanted):
            counts["unchanged"] += 1
            continue
        if row.rarity != spec.rarity.value or wanted != have:
            touched |= have | wanted  # every card wearing it may change
        plan.combos.append(
            _ComboWrite(
                row.id,
                spec.name,
                combo.name_ru or None,
                spec.rarity.value,
                wanted - have,
                have - wanted,
            )
        )
        counts["updated"] += 1
    return tuple(known[name] for name in sorted(known)), touched


_CARD_FIELDS = (
    "name",
    "starter",
    *(f"{f}_id" for f in EQUIPPED_FIELDS),
    "getgems_rank",
    "burned_stickers",
)
_ALL_FIELDS = (*_CARD_FIELDS, *DERIVED_FIELDS)


def _card_values(spec: CardSpec, ids: Mapping[tuple[str, str], int]) -> tuple[Any, ...]:
    return (
        spec.name,
        spec.starter,
        *(ids[_key(a)] for a in spec.equipped),
        spec.getgems_rank,
        spec.burned_stickers,
    )


def _derived(spec: CardSpec) -> tuple[Any, ...]:
    fields = derived_fields(derive(spec), spec)
    return tuple(fields[f] for f in DERIVED_FIELDS)


def _plan_cards(
    plan: _Plan,
    parsed: ParsedCollection,
    ids: Mapping[tuple[str, str], int],
    combos: tuple[ComboSpec, ...],
) -> set[int]:
    """New and changed cards, derived from the file; returns the ids of the changed ones."""
    tokens = [spec.token for spec in parsed.cards]
    stored: dict[int, tuple[int, tuple[Any, ...]]] = {}
    for start in range(0, len(tokens), _CHUNK):
        for pk, token, *values in Card.objects.filter(
            token__in=tokens[start : start + _CHUNK]
        ).values_list("id", "token", *_ALL_FIELDS):
            stored[token] = (pk, tuple(values))
    owned: dict[int, set[int]] = defaultdict(set)
    stored_ids = [pk for pk, _ in stored.values()]
    for start in range(0, len(stored_ids), _CHUNK):
        for card_id, attr_id in _OWNED.objects.filter(
            card_id__in=stored_ids[start : start + _CHUNK]
        ).values_list("card_id", "attribute_id"):
            owned[card_id].add(attr_id)

    result, width = plan.result, len(_CARD_FIELDS)
    new_rows: list[tuple[Any, ...]] = []
    changes: list[tuple[int, tuple[Any, ...], tuple[Any, ...]]] = []
    removed: list[tuple[int, int]] = []
    added: list[tuple[int, int]] = []
    for spec in parsed.cards:
        values = _card_values(spec, ids)
        wanted = {ids[_key(a)] for a in spec.owned}
        if spec.token not in stored:
            new_rows.append((spec.token, *values, *_derived(replace(spec, combos=combos))))
            plan.new_owned[spec.token] = sorted(wanted)
            continue
        pk, current = stored[spec.token]
        if current[:width] == values and owned[pk] == wanted:
            result.cards["unchanged"] += 1
            continue
        new = (*values, *_derived(replace(spec, combos=combos)))
        changes.append((pk, current, new))
        result.recomputed += new[width:] != current[width:]
        removed += [(pk, a) for a in sorted(owned[pk] - wanted)]
        added += [(pk, a) for a in sorted(wanted - owned[pk])]
    plan.cards += _updates(Card, _ALL_FIELDS, changes)
    plan.cards.append(_Statement(_owned_sql("delete"), removed))
    plan.cards.append(_Statement(_owned_sql("insert"), added))
    if new_rows:
        plan.new_cards = _insert(Card, ("token", *_ALL_FIELDS), new_rows)
    result.recomputed += len(new_rows)
    result.cards["created"], result.cards["updated"] = len(new_rows), len(changes)
    return {pk for pk, _, _ in changes}


def _with_attributes(spec: CardSpec, updated: Mapping[tuple[str, str], AttributeSpec]) -> CardSpec:
    """``spec`` wearing the new supply and kind of the attributes the import changes."""
    if not updated:
        return spec
    equipped = tuple(updated.get(_key(a), a) for a in spec.equipped)
    wardrobe = tuple(updated.get(_key(a), a) for a in spec.wardrobe)
    if equipped == spec.equipped and wardrobe == spec.wardrobe:
        return spec
    return replace(spec, equipped=equipped, wardrobe=wardrobe)


def _plan_derived(
    plan: _Plan,
    card_ids: set[int],
    updated: Mapping[tuple[str, str], AttributeSpec],
    combos: tuple[ComboSpec, ...],
) -> None:
    """The new derived fields of cards the file leaves alone but whose attributes or
    combos it changes (only those that differ)."""
    ids = sorted(card_ids)
    changes: list[tuple[int, tuple[Any, ...], tuple[Any, ...]]] = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        stored = {
            row[0]: tuple(row[1:])
            for row in Card.objects.filter(id__in=chunk).values_list("id", *DERIVED_FIELDS)
        }
        for batch in iter_card_specs(Card.objects.filter(id__in=chunk), combos=combos):
            for card_id, spec in batch:
                derived = _derived(_with_attributes(spec, updated))
                if derived != stored[card_id]:
                    changes.append((card_id, stored[card_id], derived))
    plan.after += _updates(Card, DERIVED_FIELDS, changes)
    plan.result.recomputed += len(changes)
