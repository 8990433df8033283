"""JSON in and out, shared by every codec: the input limits, the checked reader (``load_json``)
and its field checks, plain data from engine values (``_plain``) and ``dumps``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engine.card.rarity import tier_of
from engine.types import (
    AttributeKind,
    AttributeSpec,
    ComboSpec,
    EffectKind,
    EffectSlot,
    EffectSource,
    InvalidCardError,
    Rarity,
    Requirement,
    Role,
    Skill,
    Slot,
    SupplySlot,
    Tier,
)

#: The largest integer a card may hold (a signed 64-bit integer, what databases store).
MAX_INT = 2**63 - 1


#: The longest name of a card, an attribute or a combo (the site's name columns hold 100).
NAME_MAX_LENGTH = 100


_MAX_DIGITS = len(str(MAX_INT))


_SURROGATE = re.compile("[\ud800-\udfff]")


_SHOWN = 40  # characters of a bad value (or key) an error message repeats


class _Oversized:
    """A JSON integer with more digits than ``MAX_INT`` has, kept as its text (never an
    ``int``: Python refuses to convert numbers over 4,300 digits, and this one is refused
    anyway, at its own path, by the field that reads it)."""

    __slots__ = ("negative",)

    def __init__(self, text: str) -> None:
        self.negative = text.startswith("-")


def _json_int(text: str) -> int | _Oversized:
    digits = len(text) - (text[:1] == "-")
    return _Oversized(text) if digits > _MAX_DIGITS else int(text)


def _show(value: Any) -> str:
    """A bad value as an error message repeats it: JSON, shortened, any lone surrogate
    escaped (the message must stay writable as UTF-8)."""
    text = (
        "<a number too long>"
        if isinstance(value, _Oversized)
        else json.dumps(value, ensure_ascii=False)
    )
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 1] + "…"
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _path(base: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    key = key.replace("\x00", "\\0")
    if len(key) > _SHOWN:
        key = key[: _SHOWN - 1] + "…"
    key = _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", key)
    return f"{base}.{key}" if base else key


def _object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidCardError("object", "must be an object", field=path)
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidCardError("list", "must be a list", field=path)
    return value


def _no_unknown(obj: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in obj:
        if key not in allowed:
            raise InvalidCardError(
                "unknown_field", "unknown field", field=_path(path, key), allowed=allowed
            )


def _required(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise InvalidCardError("missing", "is required", field=_path(path, key))
    return obj[key]


def _int(value: Any, path: str, minimum: int, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if (isinstance(value, _Oversized) and not value.negative) or (
        type(value) is int and value > MAX_INT
    ):
        raise InvalidCardError(
            "max_int", f"must be at most {MAX_INT} (2^63 − 1)", field=path, maximum=MAX_INT
        )
    if type(value) is not int or value < minimum:
        suffix = " or null" if nullable else ""
        raise InvalidCardError(
            "min_int_or_null" if nullable else "min_int",
            f"must be an integer ≥ {minimum}{suffix}",
            field=path,
            minimum=minimum,
        )
    return value


def _text(value: Any, path: str) -> str:
    """A name: a non-empty string of at most NAME_MAX_LENGTH characters, no NUL, no lone
    surrogate."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidCardError("non_empty_string", "must be a non-empty string", field=path)
    if len(value) > NAME_MAX_LENGTH:
        raise InvalidCardError(
            "too_long",
            f"must be at most {NAME_MAX_LENGTH} characters (this one has {len(value)})",
            field=path,
            maximum=NAME_MAX_LENGTH,
            length=len(value),
        )
    if "\x00" in value:
        raise InvalidCardError("nul", "must not contain a NUL character", field=path)
    if _SURROGATE.search(value):
        raise InvalidCardError(
            "surrogate", "must be text (it holds a lone surrogate, such as \\ud800)", field=path
        )
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise InvalidCardError("boolean", "must be true or false", field=path)
    return value


def load_json(text: str | bytes, what: str = "card") -> Any:
    """Decode JSON text (or UTF-8 bytes) for the card readers; ``InvalidCardError`` at
    ``what`` when it is not JSON. Integers longer than ``MAX_INT`` stay unconverted
    markers that the field reading them refuses with its path.

    >>> load_json('{"supply": 7}')
    {'supply': 7}
    >>> from engine.serialize.card import card_from_json
    >>> card_from_json(load_json('{"token": ' + "9" * 5000 + ', "name": "x", "equipped": {}}'))
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: token: must be at most 9223372036854775807 (2^63 − 1)
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidCardError("encoding", "not UTF-8 text", field=what) from None
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as err:
        raise InvalidCardError(
            "json",
            f"not valid JSON ({err.msg} at line {err.lineno} column {err.colno})",
            field=what,
            line=err.lineno,
            column=err.colno,
        ) from None
    except RecursionError:
        raise InvalidCardError("json_depth", "JSON nested too deeply", field=what) from None
    except ValueError as err:  # a number the JSON reader itself cannot hold
        raise InvalidCardError("json_number", f"not valid JSON ({err})", field=what) from None


def _attribute_json(attr: AttributeSpec, with_slot: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"slot": attr.slot.value} if with_slot else {}
    out.update(name=attr.name, supply=attr.supply, kind=attr.kind.value)
    return out


_SCALARS = frozenset({str, int, bool, float, type(None)})


_ENUMS = frozenset(
    {
        AttributeKind,
        EffectKind,
        EffectSlot,
        EffectSource,
        Rarity,
        Role,
        Skill,
        Slot,
        Tier,
    }
)


_SEQUENCES = frozenset({tuple, list})


_MAPPINGS = frozenset({dict, MappingProxyType})


def _key(key: Any) -> str:
    return key._value_ if key.__class__ in _ENUMS else str(key)


def _plain(value: Any) -> Any:
    """Turn engine values (enums, tuples, mappings, specs, fractions) into plain JSON data."""
    kind = value.__class__
    if kind in _SCALARS:
        return value
    if kind in _ENUMS:
        return value._value_
    if kind in _SEQUENCES:
        return [_plain(v) for v in value]
    if kind in _MAPPINGS or isinstance(value, Mapping):
        return {_key(k): _plain(v) for k, v in value.items()}
    if kind is AttributeSpec:
        out = _attribute_json(value, True)
        out["tier"] = tier_of(value.supply)._value_
        return out
    if kind is SupplySlot:
        return {
            "slot": value.slot._value_,
            "name": value.attribute.name,
            "supply": value.attribute.supply,
            "effective_supply": value.effective_supply,
            "substitute": _plain(value.substitute),
        }
    if kind is ComboSpec:
        return {
            "name": value.name,
            "rarity": value.rarity._value_,
            "attributes": [[slot._value_, name] for slot, name in value.attributes],
        }
    if kind is Fraction:
        return str(value)
    if kind is Requirement:
        return _requirement(value)
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"cannot turn {kind.__name__} into JSON")


def _requirement(req: Requirement | None) -> dict[str, Any] | None:
    if req is None:
        return None
    out: dict[str, Any] = {"rule": req.rule, "target": req.target.value, "need": req.need}
    for key, value in req.params.items():
        out[key] = _plain(value)
    return out


def dumps(data: Any, *, indent: int | None = 2) -> str:
    """JSON text of plain data (UTF-8 friendly, stable key order as built)."""
    return json.dumps(data, ensure_ascii=False, indent=indent)
