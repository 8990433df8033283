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

import functools
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import IO, Any

from django.db import connections, models, router, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from engine.card.derive import derive
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

from .. import history, services
from ..messages import invalid_card_message
from ..models import EQUIPPED_FIELDS, Attribute, Card, Combo, allocate_attribute_ids
from ..specs import DERIVED_FIELDS, combo_specs, derived_fields, iter_card_specs

__all__ = [
    "ImportBusy",
    "ImportFailed",
    "ImportResult",
    "Problem",
    "export_collection",
    "import_collection",
]

_TOP_LEVEL = ("attributes", "cards", "combos")
_SLOT_ORDER = {slot.value: i for i, slot in enumerate(Slot)}
_CHUNK = 5000  # ids per IN (...) query

# The largest number an integer column holds on every backend: PostgreSQL's "integer"
# (Django's PositiveIntegerField: token, supply, GetGems rank, burned stickers). SQLite
# would take up to 2^63 - 1 and overflow after; the file's limit is the same on both.
MAX_INTEGER = 2**31 - 1
# JSON integers longer than this are never read as int (Python refuses > 4,300 digits,
# and anything past 20 characters is beyond MAX_INTEGER anyway).
_LONGEST_INTEGER = 20
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


class _TooLong(float):
    """A JSON integer with too many digits to read: infinite, so no type check takes it."""

    def __new__(cls, text: str) -> _TooLong:
        return super().__new__(cls, "-inf" if text.startswith("-") else "inf")


def _parse_int(text: str) -> int | float:
    return int(text) if len(text) <= _LONGEST_INTEGER else _TooLong(text)


def _max_length(model: type, field: str) -> int:
    return model._meta.get_field(field).max_length


def _printable(text: str) -> str:
    """``text`` safe to print anywhere: control characters and lone surrogates escaped."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an import file: where (entry), which field, what."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        place = f"{self.where} · {self.field}" if self.field else self.where
        return _printable(f"{place}: {self.message}")


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
    write_seconds: float = 0.0  # how long the write transaction (and its lock) lasted

    @property
    def changed(self) -> bool:
        return any(c["created"] or c["updated"] for c in (self.attributes, self.cards, self.combos))


def _counts() -> dict[str, int]:
    return {"created": 0, "updated": 0, "unchanged": 0}


def _key(attr: AttributeSpec) -> tuple[str, str]:
    return (attr.slot.value, attr.name)


# ---------------------------------------------------------------------------
# Reading and checking


def _path(base: str, key: str | int) -> str:
    """The engine's field paths: ``equipped.paw.supply``, ``wardrobe[2].name``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return _("must not contain a NUL character")
    if _SURROGATES.search(text):
        return _("must be valid Unicode text (it holds a lone surrogate such as \\ud800)")
    return None


_INTEGER_FIELDS = frozenset({"token", "supply", "getgems_rank", "burned_stickers"})


def _unstorable(value: Any, names: Mapping[str, int]) -> list[tuple[str, str]]:
    """(field path, message) for every value in ``value`` that no column can hold:
    an integer field beyond ``MAX_INTEGER`` (or too long to read), text with a NUL or a
    lone surrogate (keys included), a name longer than its column. ``names`` gives the
    column lengths by path (``"name"``) or by the path's last part (``".name"``)."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        last = where.rsplit(".", 1)[-1]
        if isinstance(item, dict):
            for key, child in item.items():
                problem = _text_problem(key)
                if problem:
                    found.append((where, problem))
                else:
                    stack.append((child, _path(where, key)))
        elif isinstance(item, list):
            stack.extend((child, _path(where, i)) for i, child in enumerate(item))
        elif isinstance(item, str):
            problem = _text_problem(item)
            longest = names.get(where, names.get("." + last))
            if problem:
                found.append((where, problem))
            elif longest is not None and len(item) > longest:
                found.append(
                    (
                        where,
                        _("must be at most %(limit)d characters long (it has %(length)d)")
                        % {"limit": longest, "length": len(item)},
                    )
                )
        elif last in _INTEGER_FIELDS and (
            (type(item) is int and item > MAX_INTEGER) or (isinstance(item, _TooLong) and item > 0)
        ):
            found.append((where, _("must be an integer ≤ %(maximum)d") % {"maximum": MAX_INTEGER}))
    found.sort()
    return found


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

    def unstorable(self, obj: Any, where: str, names: Mapping[str, int]) -> bool:
        """Report what no column can hold; True when there was something."""
        found = _unstorable(obj, names)
        for field_, message in found:
            self.problem(where, field_, message)
        return bool(found)

    def attribute_entry(self, obj: Any, index: int) -> None:
        where = f"attributes[{index}]"
        if not isinstance(obj, dict):
            self.problem(where, "", _("must be an object"))
            return
        if self.unstorable(obj, where, {"name": _max_length(Attribute, "name")}):
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
            self.engine_problem(
                where, InvalidCardError("unknown_slot", "", field="slot", value=slot)
            )
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
            self.engine_problem(
                where, InvalidCardError("unknown_kind", "", field="kind", value=kind)
            )
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
        # Checked before the engine reads the card: what no column can hold.
        limits = {"name": _max_length(Card, "name"), ".name": _max_length(Attribute, "name")}
        if self.unstorable(obj, where, limits):
            return None
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
        limits = {
            "name.en": _max_length(Combo, "name_en"),
            "name.ru": _max_length(Combo, "name_ru"),
        }
        if self.unstorable(obj, where, limits):
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
                where, InvalidCardError("unknown_rarity", "", field="rarity", value=rarity)
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
        data = json.loads(text, parse_int=_parse_int)
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


@dataclass
class _Statement:
    """One SQL statement and the parameter rows it runs with (executemany)."""

    sql: str
    rows: list[tuple[Any, ...]]


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


def _stamp(*, lock: bool = False) -> int:
    """The ``cards`` content version now (``lock``: hold its row until the transaction ends)."""
    from core.models import DataVersion

    rows = DataVersion.objects.filter(name="cards")
    if lock:
        rows = rows.select_for_update()
    return rows.values_list("number", flat=True).first() or 0


# -- prepared statements -------------------------------------------------------------


def _connection():
    return connections[router.db_for_write(Card)]


def _converters(model: type, names: Sequence[str]) -> list[Callable[[Any], Any]]:
    """How each column's Python value becomes a query parameter. Integers, text, booleans
    and ids pass as they are (the drivers adapt them); other fields (the Decimal score)
    go through the field's own preparation."""
    connection = _connection()
    out: list[Callable[[Any], Any]] = []
    for name in names:
        f = model._meta.get_field(name)
        if isinstance(f, models.DecimalField):
            out.append(functools.partial(f.get_db_prep_save, connection=connection))
        else:
            out.append(_same)
    return out


def _same(value: Any) -> Any:
    return value


def _insert(model: type, names: Sequence[str], rows: Iterable[Sequence[Any]]) -> _Statement:
    quote = _connection().ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(n).column) for n in names)
    marks = ", ".join(["%s"] * len(names))
    convert = _converters(model, names)
    return _Statement(
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})",
        [tuple(c(v) for c, v in zip(convert, row, strict=True)) for row in rows],
    )


def _updates(
    model: type, names: Sequence[str], rows: Iterable[tuple[int, Sequence[Any], Sequence[Any]]]
) -> list[_Statement]:
    """UPDATEs of (pk, old values, new values) rows that set only the columns that changed:
    one statement per set of changed columns (SQLite maintains an index for every column
    an UPDATE sets, changed or not)."""
    quote = _connection().ops.quote_name
    convert = _converters(model, names)
    groups: dict[tuple[int, ...], list[tuple[Any, ...]]] = defaultdict(list)
    for pk, old, new in rows:
        changed = tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
        if changed:
            groups[changed].append((*(convert[i](new[i]) for i in changed), pk))
    table, pk_column = quote(model._meta.db_table), quote(model._meta.pk.column)
    statements = []
    for changed, params in groups.items():
        sets = ", ".join(f"{quote(model._meta.get_field(names[i]).column)} = %s" for i in changed)
        statements.append(_Statement(f"UPDATE {table} SET {sets} WHERE {pk_column} = %s", params))
    return statements


def _run(statement: _Statement) -> None:
    if not statement.rows:
        return
    with _connection().cursor() as cursor:
        for start in range(0, len(statement.rows), services.UPDATE_BATCH):
            cursor.executemany(statement.sql, statement.rows[start : start + services.UPDATE_BATCH])


_OWNED = Card.wardrobe.through


def _owned_sql(verb: str) -> str:
    quote = _connection().ops.quote_name
    table = quote(_OWNED._meta.db_table)
    card, attribute = (quote(_OWNED._meta.get_field(n).column) for n in ("card", "attribute"))
    if verb == "insert":
        return f"INSERT INTO {table} ({card}, {attribute}) VALUES (%s, %s)"
    return f"DELETE FROM {table} WHERE {card} = %s AND {attribute} = %s"


# -- the plan ----------------------------------------------------------------------------


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


# -- the write ---------------------------------------------------------------------------


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
