"""Reading and checking an import file: every entry validated (the engine reads each card),
every problem located (entry and field path), then the file checked against the
database's catalogue. Nothing here writes."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.serialize import card_from_json
from engine.types import (
    AttributeKind,
    AttributeSpec,
    CardSpec,
    ComboSpec,
    InvalidCardError,
    Rarity,
    Slot,
)

from ..messages import invalid_card_message
from ..models import Attribute, Card, Combo

_TOP_LEVEL = ("attributes", "cards", "combos")
_SLOT_ORDER = {slot.value: i for i, slot in enumerate(Slot)}

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


def _key(attr: AttributeSpec) -> tuple[str, str]:
    return (attr.slot.value, attr.name)


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
