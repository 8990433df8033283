"""Import and export of the whole collection as JSON (the engine's card schema, wrapped).

The file::

    {
      "attributes": [{"slot", "name", "supply", "kind"}, …],
      "cards": [{"token", "name", "starter", "equipped": {slot: {"name", "supply", "kind"}},
                 "wardrobe": [{"slot", "name", "supply", "kind"}], "getgems_rank",
                 "burned_stickers"}, …],
      "combos": [{"name": {"en", "ru"}, "attributes": [[slot, name], …], "rarity"}, …]
    }

Each card is read by ``engine.serialize.card_from_json`` (the engine's own
validation; its wardrobe lists the owned attributes besides the equipped four).
"attributes" is the catalogue; an attribute a card wears or owns need not be
listed there (the card carries its supply and kind), but every mention of one
slot + name must agree, in the file and with the database.

Import is checked in full before anything is written: every problem is reported
with where it is (``cards[12] (token 57)`` and the field path). Then it is one
transaction, and idempotent: cards, attributes and combos are matched by token,
slot + name and English name; only what differs is written, and importing the
same file twice changes nothing the second time. What the file does not mention
is left alone. An attribute whose supply or kind differs from the database is an
error unless ``update_attributes`` is set (that changes every owner's card).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import transaction
from django.utils.translation import gettext as _

from engine.serialize import card_from_json, card_to_json
from engine.types import (
    AttributeKind,
    AttributeSpec,
    CardSpec,
    ComboSpec,
    InvalidCardError,
    Rarity,
    Slot,
)

from . import services
from .messages import invalid_card_message
from .models import EQUIPPED_FIELDS, Attribute, Card, Combo
from .specs import iter_card_specs

__all__ = [
    "ImportFailed",
    "ImportResult",
    "Problem",
    "export_collection",
    "import_collection",
]

_TOP_LEVEL = ("attributes", "cards", "combos")
_SLOT_ORDER = {slot.value: i for i, slot in enumerate(Slot)}
_CHUNK = 5000  # ids per IN (...) query


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an import file: where (entry), which field, what."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        place = f"{self.where} · {self.field}" if self.field else self.where
        return f"{place}: {self.message}"


class ImportFailed(Exception):
    """The file has problems; nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class _Combo:
    spec: ComboSpec
    name_ru: str
    where: str


@dataclass
class ParsedCollection:
    """A validated file: its catalogue (with every attribute cards mention), cards, combos."""

    attributes: dict[tuple[str, str], AttributeSpec]
    listed: list[tuple[str, str]]  # catalogue keys in file order (listed, then first mentioned)
    where: dict[tuple[str, str], str]  # where each attribute was first seen
    cards: list[CardSpec]
    combos: list[_Combo]


@dataclass
class ImportResult:
    """What an import did, per kind: created, updated and unchanged counts."""

    attributes: dict[str, int] = field(default_factory=lambda: _counts())
    cards: dict[str, int] = field(default_factory=lambda: _counts())
    combos: dict[str, int] = field(default_factory=lambda: _counts())
    recomputed: int = 0

    @property
    def changed(self) -> bool:
        return any(c["created"] or c["updated"] for c in (self.attributes, self.cards, self.combos))


def _counts() -> dict[str, int]:
    return {"created": 0, "updated": 0, "unchanged": 0}


def _key(attr: AttributeSpec) -> tuple[str, str]:
    return (attr.slot.value, attr.name)


# ---------------------------------------------------------------------------
# Reading and checking


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.attributes: dict[tuple[str, str], AttributeSpec] = {}
        self.where: dict[tuple[str, str], str] = {}
        self.listed: list[tuple[str, str]] = []

    def problem(self, where: str, field_: str, message: str) -> None:
        self.problems.append(Problem(where, field_, message))

    def engine_problem(self, where: str, error: InvalidCardError, prefix: str = "") -> None:
        field_ = error.field if not prefix else f"{prefix}.{error.field}".rstrip(".")
        self.problem(where, field_, invalid_card_message(error))

    def note(self, attr: AttributeSpec, where: str, field_: str) -> None:
        """Record an attribute mention; a second mention must agree with the first."""
        key = _key(attr)
        known = self.attributes.get(key)
        if known is None:
            self.attributes[key] = attr
            self.where[key] = where
            self.listed.append(key)
        elif (known.supply, known.kind) != (attr.supply, attr.kind):
            self.problem(
                where,
                field_,
                _(
                    "%(name)s (%(slot)s) has supply %(supply)d and kind %(kind)s here, but "
                    "supply %(other_supply)d and kind %(other_kind)s in %(other)s"
                )
                % {
                    "name": attr.name,
                    "slot": attr.slot.value,
                    "supply": attr.supply,
                    "kind": attr.kind.value,
                    "other_supply": known.supply,
                    "other_kind": known.kind.value,
                    "other": self.where[key],
                },
            )

    # -- entries -------------------------------------------------------------

    def attribute_entry(self, obj: Any, index: int) -> None:
        where = f"attributes[{index}]"
        if not isinstance(obj, dict):
            self.problem(where, "", _("must be an object"))
            return
        ok = True
        for key in obj:
            if key not in ("slot", "name", "supply", "kind"):
                self.problem(where, key, _("unknown field"))
                ok = False
        slot = obj.get("slot")
        if "slot" not in obj:
            self.problem(where, "slot", _("is required"))
            ok = False
        elif not isinstance(slot, str) or slot not in _SLOT_ORDER:
            self.engine_problem(where, InvalidCardError("slot", "unknown_slot", "", value=slot))
            ok = False
        name = obj.get("name")
        if not isinstance(name, str) or not name.strip():
            self.problem(where, "name", _("must be a non-empty string"))
            ok = False
        supply = obj.get("supply")
        if type(supply) is not int or supply < 1:
            self.problem(where, "supply", _("must be an integer ≥ %(minimum)s") % {"minimum": 1})
            ok = False
        kind = obj.get("kind", AttributeKind.NORMAL.value)
        if not isinstance(kind, str) or kind not in AttributeKind._value2member_map_:
            self.engine_problem(where, InvalidCardError("kind", "unknown_kind", "", value=kind))
            ok = False
        if ok:
            self.note(AttributeSpec(Slot(slot), name, supply, AttributeKind(kind)), where, "")

    def card_entry(self, obj: Any, index: int, tokens: dict[int, str]) -> CardSpec | None:
        token = obj.get("token") if isinstance(obj, dict) else None
        where = f"cards[{index}]"
        if type(token) is int:
            where = _("cards[%(index)d] (token %(token)d)") % {"index": index, "token": token}
            if token in tokens:
                self.problem(
                    where,
                    "token",
                    _("token %(token)d appears twice (first in %(other)s)")
                    % {"token": token, "other": tokens[token]},
                )
                return None
            tokens[token] = where
        if isinstance(obj, dict) and "combos" in obj:
            self.problem(where, "combos", _('combos belong in the file\'s top-level "combos" list'))
            obj = {k: v for k, v in obj.items() if k != "combos"}
        try:
            spec = card_from_json(obj)
        except InvalidCardError as error:
            field_ = "" if error.field == "card" else error.field
            self.problem(where, field_, invalid_card_message(error))
            return None
        for attr in spec.equipped:
            self.note(attr, where, f"equipped.{attr.slot.value}")
        raw_wardrobe = obj.get("wardrobe") or []
        by_key = {_key(a): a for a in spec.owned}
        for i, item in enumerate(raw_wardrobe):
            attr = by_key.get((item["slot"], item["name"]))
            if attr is not None:
                self.note(attr, where, f"wardrobe[{i}]")
        return spec

    def combo_entry(self, obj: Any, index: int, names: dict[str, str]) -> _Combo | None:
        where = f"combos[{index}]"
        if not isinstance(obj, dict):
            self.problem(where, "", _("must be an object"))
            return None
        for key in obj:
            if key not in ("name", "attributes", "rarity"):
                self.problem(where, key, _("unknown field"))
        raw_name = obj.get("name")
        name_en = raw_name.get("en") if isinstance(raw_name, dict) else None
        name_ru = raw_name.get("ru") if isinstance(raw_name, dict) else None
        if not isinstance(name_en, str) or not name_en.strip():
            self.problem(
                where, "name.en", _('must be a non-empty string (the name is {"en": …, "ru": …})')
            )
            return None
        where = f"combos[{index}] ({name_en})"
        if name_ru is not None and not isinstance(name_ru, str):
            self.problem(where, "name.ru", _("must be a string"))
        if isinstance(raw_name, dict):
            for lang in raw_name:
                if lang not in ("en", "ru"):
                    self.problem(where, f"name.{lang}", _("unknown field"))
        if name_en in names:
            self.problem(
                where,
                "name.en",
                _("another combo has this name (%(other)s)") % {"other": names[name_en]},
            )
        names[name_en] = where
        pairs = []
        raw_pairs = obj.get("attributes")
        if not isinstance(raw_pairs, list):
            self.problem(where, "attributes", _("must be a list"))
            return None
        for i, pair in enumerate(raw_pairs):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not isinstance(pair[0], str)
                or pair[0] not in _SLOT_ORDER
                or not isinstance(pair[1], str)
                or not pair[1].strip()
            ):
                self.problem(where, f"attributes[{i}]", _("must be a [slot, name] pair"))
                return None
            pairs.append((Slot(pair[0]), pair[1]))
        rarity = obj.get("rarity")
        if not isinstance(rarity, str) or rarity not in {
            r.value for r in Rarity if r is not Rarity.FREE
        }:
            self.engine_problem(
                where, InvalidCardError("rarity", "unknown_rarity", "", value=rarity)
            )
            return None
        try:
            spec = ComboSpec(name_en, tuple(pairs), Rarity(rarity))
        except InvalidCardError as error:
            self.engine_problem(where, error)
            return None
        return _Combo(spec, name_ru or "", where)


def _read(text: str | bytes) -> tuple[ParsedCollection, list[Problem]]:
    """The file's valid entries and every problem of its own (a file that is not a JSON
    object raises at once: there is nothing else to check)."""
    reader = _Reader()
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportFailed([Problem(_("file"), "", _("not UTF-8 text"))]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportFailed(
            [
                Problem(
                    _("file"),
                    "",
                    _("not valid JSON (line %(line)s, column %(column)s): %(reason)s")
                    % {"line": error.lineno, "column": error.colno, "reason": error.msg},
                )
            ]
        ) from None
    except RecursionError:
        raise ImportFailed([Problem(_("file"), "", _("JSON nested too deeply"))]) from None
    if not isinstance(data, dict):
        raise ImportFailed(
            [Problem(_("file"), "", _('must be an object with "attributes", "cards", "combos"'))]
        )
    for key in data:
        if key not in _TOP_LEVEL:
            reader.problem(_("file"), key, _("unknown field"))
    if "cards" not in data:
        reader.problem(_("file"), "cards", _("is required"))
    lists: dict[str, list[Any]] = {}
    for key in _TOP_LEVEL:
        value = data.get(key, [])
        if not isinstance(value, list):
            reader.problem(_("file"), key, _("must be a list"))
            value = []
        lists[key] = value
    for i, obj in enumerate(lists["attributes"]):
        reader.attribute_entry(obj, i)
    tokens: dict[int, str] = {}
    cards = [reader.card_entry(obj, i, tokens) for i, obj in enumerate(lists["cards"])]
    names: dict[str, str] = {}
    combos = [reader.combo_entry(obj, i, names) for i, obj in enumerate(lists["combos"])]
    parsed = ParsedCollection(
        attributes=reader.attributes,
        listed=reader.listed,
        where=reader.where,
        cards=[c for c in cards if c is not None],
        combos=[c for c in combos if c is not None],
    )
    return parsed, reader.problems


def _check_database(
    parsed: ParsedCollection,
    catalogue: Mapping[tuple[str, str], tuple[int, int, str]],
    update_attributes: bool,
) -> list[Problem]:
    problems = []
    if not update_attributes:
        for key, attr in parsed.attributes.items():
            stored = catalogue.get(key)
            if stored is not None and (stored[1], stored[2]) != (attr.supply, attr.kind.value):
                problems.append(
                    Problem(
                        parsed.where[key],
                        "",
                        _(
                            "%(name)s (%(slot)s) has supply %(supply)d and kind %(kind)s here, "
                            "but supply %(db_supply)d and kind %(db_kind)s in the database "
                            "(import with --update-attributes to change the catalogue)"
                        )
                        % {
                            "name": attr.name,
                            "slot": attr.slot.value,
                            "supply": attr.supply,
                            "kind": attr.kind.value,
                            "db_supply": stored[1],
                            "db_kind": stored[2],
                        },
                    )
                )
    for combo in parsed.combos:
        for i, (slot, name) in enumerate(combo.spec.attributes):
            if (slot.value, name) not in parsed.attributes and (slot.value, name) not in catalogue:
                problems.append(
                    Problem(
                        combo.where,
                        f"attributes[{i}]",
                        _("no attribute %(name)s in slot %(slot)s, in the file or the database")
                        % {"name": name, "slot": slot.value},
                    )
                )
    return problems


# ---------------------------------------------------------------------------
# Writing


def import_collection(text: str | bytes, *, update_attributes: bool = False) -> ImportResult:
    """Check ``text`` completely, then write what differs in one transaction.

    Raises ``ImportFailed`` (every problem, nothing written) when anything is wrong.
    """
    parsed, problems = _read(text)
    with transaction.atomic(), services.signals_paused():
        catalogue = {
            (slot, name): (pk, supply, kind)
            for pk, slot, name, supply, kind in Attribute.objects.values_list(
                "id", "slot", "name", "supply", "kind"
            ).iterator(chunk_size=10000)
        }
        problems += _check_database(parsed, catalogue, update_attributes)
        if problems:
            raise ImportFailed(problems)
        result = ImportResult()
        changed_attributes = _write_attributes(parsed, catalogue, result)
        ids = {key: value[0] for key, value in catalogue.items()}
        combo_attributes = _write_combos(parsed, ids, result)
        changed_cards = _write_cards(parsed, ids, result)
        affected = set(changed_cards)
        affected |= services.cards_affected_by_attributes(changed_attributes)
        affected |= services.cards_affected_by_combo(combo_attributes)
        if affected:
            result.recomputed = services.recompute_cards(affected).changed
        if result.changed:  # bulk writes send no signals: say so for the cached pages
            services.collection_changed()
    return result


def _write_attributes(
    parsed: ParsedCollection,
    catalogue: dict[tuple[str, str], tuple[int, int, str]],
    result: ImportResult,
) -> set[int]:
    """Create new attributes, update changed ones; returns the ids of the changed ones."""
    new, updates = [], []
    for key in parsed.listed:
        attr = parsed.attributes[key]
        stored = catalogue.get(key)
        if stored is None:
            new.append(
                Attribute(slot=key[0], name=key[1], supply=attr.supply, kind=attr.kind.value)
            )
        elif (stored[1], stored[2]) != (attr.supply, attr.kind.value):
            updates.append((stored[0], (attr.supply, attr.kind.value)))
        else:
            result.attributes["unchanged"] += 1
    for row in Attribute.objects.bulk_create(new, batch_size=2000):
        catalogue[(row.slot, row.name)] = (row.id, row.supply, row.kind)
    services.set_columns(Attribute, ("supply", "kind"), updates)
    result.attributes["created"] = len(new)
    result.attributes["updated"] = len(updates)
    return {pk for pk, _ in updates}


def _write_combos(
    parsed: ParsedCollection, ids: Mapping[tuple[str, str], int], result: ImportResult
) -> set[int]:
    """Create or update combos by English name; returns every attribute id they touched."""
    through = Combo.attributes.through
    existing = {
        c.name_en: c for c in Combo.objects.filter(name_en__in=[c.spec.name for c in parsed.combos])
    }
    members: dict[int, set[int]] = defaultdict(set)
    for combo_id, attr_id in through.objects.filter(
        combo_id__in=[c.id for c in existing.values()]
    ).values_list("combo_id", "attribute_id"):
        members[combo_id].add(attr_id)
    touched: set[int] = set()
    for combo in parsed.combos:
        wanted = {ids[(slot.value, name)] for slot, name in combo.spec.attributes}
        row = existing.get(combo.spec.name)
        if row is None:
            row = Combo.objects.create(
                name_en=combo.spec.name,
                name_ru=combo.name_ru or None,
                rarity=combo.spec.rarity.value,
            )
            have: set[int] = set()
            result.combos["created"] += 1
        else:
            have = members[row.id]
            same = (row.name_ru or "", row.rarity, have) == (
                combo.name_ru,
                combo.spec.rarity.value,
                wanted,
            )
            if same:
                result.combos["unchanged"] += 1
                continue
            if row.rarity != combo.spec.rarity.value:
                touched |= have | wanted  # every card wearing it may change
            row.name_ru = combo.name_ru or None
            row.rarity = combo.spec.rarity.value
            row.save(update_fields=["name_ru", "rarity"])
            result.combos["updated"] += 1
        if wanted != have:
            through.objects.filter(combo_id=row.id, attribute_id__in=have - wanted).delete()
            through.objects.bulk_create(
                through(combo_id=row.id, attribute_id=a) for a in sorted(wanted - have)
            )
            touched |= have | wanted
    return touched


_CARD_FIELDS = (
    "name",
    "starter",
    *(f"{f}_id" for f in EQUIPPED_FIELDS),
    "getgems_rank",
    "burned_stickers",
)


def _card_values(spec: CardSpec, ids: Mapping[tuple[str, str], int]) -> tuple[Any, ...]:
    return (
        spec.name,
        spec.starter,
        *(ids[_key(a)] for a in spec.equipped),
        spec.getgems_rank,
        spec.burned_stickers,
    )


def _write_cards(
    parsed: ParsedCollection, ids: Mapping[tuple[str, str], int], result: ImportResult
) -> set[int]:
    """Create new cards, update changed ones (columns and ownership); returns their ids."""
    through = Card.wardrobe.through
    tokens = [spec.token for spec in parsed.cards]
    stored: dict[int, tuple[int, tuple[Any, ...]]] = {}
    for start in range(0, len(tokens), _CHUNK):
        for pk, token, *values in Card.objects.filter(
            token__in=tokens[start : start + _CHUNK]
        ).values_list("id", "token", *_CARD_FIELDS):
            stored[token] = (pk, tuple(values))
    owned: dict[int, set[int]] = defaultdict(set)
    stored_ids = [pk for pk, _ in stored.values()]
    for start in range(0, len(stored_ids), _CHUNK):
        for card_id, attr_id in through.objects.filter(
            card_id__in=stored_ids[start : start + _CHUNK]
        ).values_list("card_id", "attribute_id"):
            owned[card_id].add(attr_id)

    new_specs, updates, ownership = [], [], []
    for spec in parsed.cards:
        values = _card_values(spec, ids)
        wanted = {ids[_key(a)] for a in spec.owned}
        if spec.token not in stored:
            new_specs.append(spec)
            continue
        pk, current = stored[spec.token]
        if current == values and owned[pk] == wanted:
            result.cards["unchanged"] += 1
            continue
        if current != values:
            updates.append((pk, values))
        ownership.append((pk, owned[pk], wanted))
    services.set_columns(Card, _CARD_FIELDS, updates)
    changed = {pk for pk, _, _ in ownership}
    for pk, have, wanted in ownership:
        if have - wanted:
            through.objects.filter(card_id=pk, attribute_id__in=have - wanted).delete()
    through.objects.bulk_create(
        (
            through(card_id=pk, attribute_id=a)
            for pk, have, wanted in ownership
            for a in sorted(wanted - have)
        ),
        batch_size=5000,
    )
    for start in range(0, len(new_specs), 2000):
        chunk = new_specs[start : start + 2000]
        made = Card.objects.bulk_create(
            Card(token=spec.token, **dict(zip(_CARD_FIELDS, _card_values(spec, ids), strict=True)))
            for spec in chunk
        )
        through.objects.bulk_create(
            (
                through(card_id=card.id, attribute_id=ids[_key(a)])
                for card, spec in zip(made, chunk, strict=True)
                for a in spec.owned
            ),
            batch_size=5000,
        )
        changed.update(card.id for card in made)
    result.cards["created"] = len(new_specs)
    result.cards["updated"] = len(ownership)
    return changed


# ---------------------------------------------------------------------------
# Export


def _attribute_json(slot: str, name: str, supply: int, kind: str) -> dict[str, Any]:
    return {"slot": slot, "name": name, "supply": supply, "kind": kind}


def export_collection(out: IO[str]) -> dict[str, int]:
    """Write the whole collection to ``out`` (one entry per line, stable order).

    Attributes in slot order then name, cards by token, combos by English name:
    the same collection always gives the same bytes.
    """
    attributes = sorted(
        Attribute.objects.values_list("slot", "name", "supply", "kind").iterator(chunk_size=10000),
        key=lambda row: (_SLOT_ORDER[row[0]], row[1]),
    )
    combos = []
    pairs: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for combo_id, slot, name in Combo.attributes.through.objects.values_list(
        "combo_id", "attribute__slot", "attribute__name"
    ):
        pairs[combo_id].append((slot, name))
    for combo in Combo.objects.order_by("name_en"):
        combos.append(
            {
                "name": {"en": combo.name_en, "ru": combo.name_ru or ""},
                "attributes": [
                    [slot, name]
                    for slot, name in sorted(
                        pairs[combo.id], key=lambda p: (_SLOT_ORDER[p[0]], p[1])
                    )
                ],
                "rarity": combo.rarity,
            }
        )

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    def write_list(name: str, items: Iterable[Any], last: bool = False) -> int:
        out.write(f'  "{name}": [')
        count = 0
        for item in items:
            out.write(("\n" if not count else ",\n") + "    " + dumps(item))
            count += 1
        out.write(("\n  ]" if count else "]") + ("\n" if last else ",\n"))
        return count

    def cards() -> Iterable[dict[str, Any]]:
        for batch in iter_card_specs(combos=()):
            for _pk, spec in batch:
                data = card_to_json(spec)
                data.pop("combos", None)
                yield data

    out.write("{\n")
    counts = {
        "attributes": write_list("attributes", (_attribute_json(*row) for row in attributes)),
        "cards": write_list("cards", cards()),
        "combos": write_list("combos", combos, last=True),
    }
    out.write("}\n")
    return counts
