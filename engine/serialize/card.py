"""A card's input and export: ``card_from_json`` (validated), ``parse_card``, ``card_to_json``."""

from __future__ import annotations

import json
from typing import Any

from engine.serialize.base import (
    _attribute_json,
    _bool,
    _int,
    _list,
    _no_unknown,
    _object,
    _path,
    _required,
    _show,
    _text,
    load_json,
)
from engine.types import (
    AttributeKind,
    AttributeSpec,
    CardSpec,
    ComboSpec,
    InvalidCardError,
    Rarity,
    Slot,
)

_CARD_FIELDS = (
    "token",
    "name",
    "starter",
    "equipped",
    "wardrobe",
    "getgems_rank",
    "burned_stickers",
    "combos",
)


_SLOT_NAMES = ", ".join(s.value for s in Slot)


_KIND_NAMES = ", ".join(k.value for k in AttributeKind)


_COMBO_RARITIES = tuple(r for r in Rarity if r is not Rarity.FREE)


_COMBO_RARITY_NAMES = ", ".join(r.value for r in _COMBO_RARITIES)


def _slot(value: Any, path: str) -> Slot:
    if isinstance(value, str):
        try:
            return Slot(value)
        except ValueError:
            pass
    raise InvalidCardError(
        "unknown_slot",
        f"unknown slot {_show(value)} (expected {_SLOT_NAMES})",
        field=path,
        value=value,
    )


def _kind(value: Any, path: str) -> AttributeKind:
    if isinstance(value, str):
        try:
            return AttributeKind(value)
        except ValueError:
            pass
    raise InvalidCardError(
        "unknown_kind",
        f"unknown kind {_show(value)} (expected {_KIND_NAMES})",
        field=path,
        value=value,
    )


def _attribute(value: Any, path: str, slot: Slot | None) -> AttributeSpec:
    """An attribute object; ``slot`` is given for equipped ones (then "slot" is optional)."""
    obj = _object(value, path)
    _no_unknown(obj, ("slot", "name", "supply", "kind"), path)
    if slot is None:
        slot = _slot(_required(obj, "slot", path), _path(path, "slot"))
    elif "slot" in obj and obj["slot"] != slot.value:
        raise InvalidCardError(
            "slot_mismatch", f"must be {json.dumps(slot.value)} here", field=_path(path, "slot")
        )
    name = _text(_required(obj, "name", path), _path(path, "name"))
    supply = _int(_required(obj, "supply", path), _path(path, "supply"), 1)
    kind = _kind(obj.get("kind", AttributeKind.NORMAL.value), _path(path, "kind"))
    assert supply is not None
    return AttributeSpec(slot, name, supply, kind)


def _combo(value: Any, path: str) -> ComboSpec:
    obj = _object(value, path)
    _no_unknown(obj, ("name", "attributes", "rarity"), path)
    name = _text(_required(obj, "name", path), _path(path, "name"))
    attrs_path = _path(path, "attributes")
    pairs = []
    for i, item in enumerate(_list(_required(obj, "attributes", path), attrs_path)):
        item_path = _path(attrs_path, i)
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidCardError("pair", "must be a [slot, name] pair", field=item_path)
        pairs.append((_slot(item[0], _path(item_path, 0)), _text(item[1], _path(item_path, 1))))
    rarity_path = _path(path, "rarity")
    raw = _required(obj, "rarity", path)
    if not isinstance(raw, str) or raw not in {r.value for r in _COMBO_RARITIES}:
        raise InvalidCardError(
            "unknown_rarity",
            f"unknown rarity {_show(raw)} (expected {_COMBO_RARITY_NAMES})",
            field=rarity_path,
            value=raw,
        )
    try:
        return ComboSpec(name, tuple(pairs), Rarity(raw))
    except InvalidCardError as err:
        raise err.prefixed(path) from None


def card_from_json(obj: Any) -> CardSpec:
    """Validate a decoded JSON card and build its ``CardSpec``.

    Required: ``token`` (integer ≥ 1), ``name``, ``equipped`` (the four slots,
    each ``{"name", "supply", "kind"?}``). Optional: ``starter`` (false),
    ``wardrobe`` ([]; each ``{"slot", "name", "supply", "kind"?}``),
    ``getgems_rank`` (null), ``burned_stickers`` (0), ``combos`` ([]; each
    ``{"name", "attributes": [[slot, name], …], "rarity"}``). ``kind`` defaults
    to ``"normal"``. Unknown fields are errors. Booleans are not integers.

    >>> card_from_json({"token": True, "name": "x", "equipped": {}})
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: token: must be an integer ≥ 1
    """
    card = _object(obj, "card")
    _no_unknown(card, _CARD_FIELDS, "")
    token = _int(_required(card, "token", ""), "token", 1)
    name = _text(_required(card, "name", ""), "name")
    starter = _bool(card.get("starter", False), "starter")
    equipped_obj = _object(_required(card, "equipped", ""), "equipped")
    for key in equipped_obj:
        _slot(key, _path("equipped", key))
    equipped = tuple(
        _attribute(_required(equipped_obj, slot.value, "equipped"), f"equipped.{slot.value}", slot)
        for slot in Slot
    )
    wardrobe = tuple(
        _attribute(item, _path("wardrobe", i), None)
        for i, item in enumerate(_list(card.get("wardrobe", []), "wardrobe"))
    )
    rank = _int(card.get("getgems_rank"), "getgems_rank", 1, nullable=True)
    burned = _int(card.get("burned_stickers", 0), "burned_stickers", 0)
    combos = tuple(
        _combo(item, _path("combos", i))
        for i, item in enumerate(_list(card.get("combos", []), "combos"))
    )
    assert token is not None and burned is not None
    return CardSpec(
        token=token,
        name=name,
        equipped=equipped,
        wardrobe=wardrobe,
        getgems_rank=rank,
        burned_stickers=burned,
        starter=starter,
        combos=combos,
    )


def parse_card(text: str | bytes) -> CardSpec:
    """Parse JSON text (or UTF-8 bytes) into a ``CardSpec``; bad input → ``InvalidCardError``.

    >>> parse_card("{oops")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: card: not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)
    """
    return card_from_json(load_json(text))


def card_to_json(card: CardSpec) -> dict[str, Any]:
    """The card in the input schema (``card_from_json(card_to_json(c)) == c``).

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(3, "Pup", tuple(AttributeSpec(s, "Plain", 90) for s in Slot))
    >>> card_to_json(card)["equipped"]["paw"]
    {'name': 'Plain', 'supply': 90, 'kind': 'normal'}
    """
    return {
        "token": card.token,
        "name": card.name,
        "starter": card.starter,
        "equipped": {a.slot.value: _attribute_json(a, False) for a in card.equipped},
        "wardrobe": [_attribute_json(a, True) for a in card.wardrobe],
        "getgems_rank": card.getgems_rank,
        "burned_stickers": card.burned_stickers,
        "combos": [
            {
                "name": c.name,
                "attributes": [[slot.value, name] for slot, name in c.attributes],
                "rarity": c.rarity.value,
            }
            for c in card.combos
        ],
    }
