"""JSON in and out: card input with validation, card export, Breakdown output, and the
match's values (combat profiles, actions, events).

Shared by the command line, the site's JSON API, the import command and the match demo
(which stores its decks and actions in this form). ``breakdown_to_json`` gives a
Breakdown as plain data; ``breakdown_json`` gives the same as compact JSON text, written
from pieces kept between cards (the API's card body).
Input errors raise ``InvalidCardError`` whose ``field`` is the path of the
offending value (``"equipped.paw.supply"``) and whose ``str()`` is one line.

Input limits (not rules, what any store of cards can hold): every integer is at most
``MAX_INT`` (2^63 − 1, a signed 64-bit integer), and JSON numbers longer than that are
refused where they stand, never turned into Python integers (a 5,000-digit number would
otherwise stop the JSON reader with a bare ValueError); every name is text of 1 to
``NAME_MAX_LENGTH`` (100, the site's name columns) characters, without NUL and without
lone surrogates (a ``"\\ud800"`` escape decodes to one, and it cannot be written out as
UTF-8).

>>> card = card_from_json({
...     "token": 7, "name": "Pup #7",
...     "equipped": {"head": {"name": "Cap", "supply": 900}, "body": {"name": "Vest", "supply": 4},
...                  "paw": {"name": "Dagger", "supply": 3, "kind": "premium"},
...                  "background": {"name": "Sky", "supply": 800}},
... })
>>> card.attribute(Slot.PAW).kind
<AttributeKind.PREMIUM: 'premium'>
>>> card_from_json(card_to_json(card)) == card
True
>>> card_from_json({"token": 7, "name": "x", "equipped": {}})
Traceback (most recent call last):
...
engine.errors.InvalidCardError: equipped.head: is required
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engine.card.rarity import format_score, tier_of
from engine.match import (
    ACTION_TYPES,
    Action,
    Boost,
    CardEffect,
    Commit,
    Event,
    IllegalActionError,
    MatchCard,
    Pick,
    Surrender,
)
from engine.types import (
    AttributeKind,
    AttributeSpec,
    BoostKind,
    Breakdown,
    CardSpec,
    ComboSpec,
    Effect,
    EffectKind,
    EffectSlot,
    EffectSource,
    InvalidCardError,
    NextTier,
    Rarity,
    Requirement,
    Role,
    Side,
    Skill,
    Slot,
    SupplySlot,
    Tier,
)

__all__ = [
    "MAX_INT",
    "NAME_MAX_LENGTH",
    "InvalidCardError",
    "action_from_json",
    "action_to_json",
    "breakdown_json",
    "breakdown_to_json",
    "card_from_json",
    "card_to_json",
    "clear_caches",
    "dumps",
    "event_to_json",
    "load_json",
    "match_card_from_json",
    "match_card_to_json",
    "parse_card",
]

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

# ---------------------------------------------------------------------------
# Input

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


def load_json(text: str | bytes, what: str = "card") -> Any:
    """Decode JSON text (or UTF-8 bytes) for the card readers; ``InvalidCardError`` at
    ``what`` when it is not JSON. Integers longer than ``MAX_INT`` stay unconverted
    markers that the field reading them refuses with its path.

    >>> load_json('{"supply": 7}')
    {'supply': 7}
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


def parse_card(text: str | bytes) -> CardSpec:
    """Parse JSON text (or UTF-8 bytes) into a ``CardSpec``; bad input → ``InvalidCardError``.

    >>> parse_card("{oops")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: card: not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)
    """
    return card_from_json(load_json(text))


def _attribute_json(attr: AttributeSpec, with_slot: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"slot": attr.slot.value} if with_slot else {}
    out.update(name=attr.name, supply=attr.supply, kind=attr.kind.value)
    return out


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


# ---------------------------------------------------------------------------
# Output


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


def _next_tier(next_tier: NextTier | None) -> dict[str, Any] | None:
    if next_tier is None:
        return None
    return {
        "target": next_tier.target.value,
        "paths": [_requirement(p) for p in next_tier.paths],
    }


def _effect(effect: Effect | None) -> dict[str, Any] | None:
    if effect is None:
        return None
    return {
        "kind": effect.kind.value,
        "value": effect.value,
        "base": effect.base,
        "bonus": effect.bonus,
        "source": effect.source.value,
    }


def _enum_or_none(value: Any) -> str | None:
    return None if value is None else value._value_


def _tie_break_entry(e: Any) -> dict[str, Any]:
    """One candidate of the skill tie-break, as plain data (both JSON writers use it)."""
    return {
        "slot": e.slot._value_,
        "name": e.name,
        "tier": e.tier._value_,
        "equipped": e.equipped,
        "primary": _enum_or_none(e.primary),
        "secondary": _enum_or_none(e.secondary),
        "picked": _enum_or_none(e.picked),
    }


def _vote(v: Any) -> dict[str, Any]:
    """One role vote, as plain data (both JSON writers use it)."""
    return {
        "slot": v.slot._value_,
        "name": v.name,
        "skill": v.skill._value_,
        "role": v.role._value_,
        "slot_weight": v.slot_weight,
        "tier": v.tier._value_,
        "tier_weight": v.tier_weight,
        "weight": v.weight,
    }


def _skill_row(row: Any) -> dict[str, Any]:
    """One row of the skill table, as plain data (both JSON writers use it)."""
    return {
        "slot": row.slot._value_,
        "name": row.name,
        "tier": row.tier._value_,
        "hits": {skill._value_: [list(m) for m in matches] for skill, matches in row.hits},
        "primary": _enum_or_none(row.primary),
        "secondary": _enum_or_none(row.secondary),
        "points": row.points,
    }


def _layer(layer: Any) -> dict[str, Any]:
    """One stat layer, as plain data (both JSON writers use it)."""
    return {
        "layer": layer.layer,
        "atk": layer.atk,
        "hp": layer.hp,
        "def": layer.def_,
        "ability": layer.ability,
    }


def _undercharge_row(row: Any) -> dict[str, Any]:
    """One row of the undercharge table, as plain data (both JSON writers use it)."""
    return {
        "nrg": row.nrg,
        "deficit": row.deficit,
        "stat_cut_percent": row.stat_cut_percent,
        "atk": row.atk,
        "def": row.def_,
        "effects": {slot._value_: v for slot, v in row.effects},
        "skill_active": row.skill_active,
    }


def breakdown_to_json(b: Breakdown) -> dict[str, Any]:
    """The Breakdown as plain JSON data (the CLI's and the API's output schema).

    Keys: ``rarity``, ``decided_by``, ``rules`` ({rule key: rarity}),
    ``role``, ``skill_affinity``, ``active_skill`` (null unless active),
    ``template``, ``stats`` ({atk, hp, def, ability}), ``energy_cost``,
    ``effects`` ({deploy, passive, last_breath}: {kind, value, base, bonus,
    source} or null), ``next_tier`` ({target, paths: [{rule, target, need,
    …}]} or null), ``trace`` ([{code, params, value}]); and the details:
    ``token``, ``wardrobe_score``, ``rule_details``, ``role_source``,
    ``role_votes``, ``role_totals``, ``skill_source``, ``skill_table``,
    ``skill_scores``, ``skill_tie_break``, ``stat_layers``, ``undercharge``.

    >>> from engine.card.derive import derive
    >>> card = card_from_json({"token": 5, "name": "x", "equipped": {
    ...     s: {"name": "Iron Helm", "supply": 2} for s in ("head", "body", "paw", "background")}})
    >>> out = breakdown_to_json(derive(card))
    >>> out["rarity"], out["rules"]["supply_count"], out["role"], out["active_skill"]
    ('legendary', 'legendary', 'tank', 'pierce')
    """
    return {
        "token": b.token,
        "rarity": b.rarity._value_,
        "decided_by": list(b.decided_by),
        "rules": {r.key: r.rarity._value_ for r in b.rules},
        "role": b.role._value_,
        "skill_affinity": b.skill_affinity._value_,
        "active_skill": _enum_or_none(b.active_skill),
        "template": b.template,
        "stats": {
            "atk": b.stats.atk,
            "hp": b.stats.hp,
            "def": b.stats.def_,
            "ability": b.stats.ability,
        },
        "energy_cost": b.energy_cost,
        "effects": {slot._value_: _effect(b.effect(slot)) for slot in EffectSlot},
        "next_tier": _next_tier(b.next_tier),
        "wardrobe_score": None if b.wardrobe_score is None else format_score(b.wardrobe_score),
        "rule_details": {
            r.key: {
                "rarity": r.rarity._value_,
                "evidence": _plain(r.evidence),
                "next_tier": _requirement(r.next_tier),
            }
            for r in b.rules
        },
        "role_source": b.role_source,
        "role_votes": [_vote(v) for v in b.role_votes],
        "role_totals": {role._value_: n for role, n in b.role_totals},
        "skill_source": b.skill_source,
        "skill_table": [_skill_row(row) for row in b.skill_table],
        "skill_scores": {skill._value_: n for skill, n in b.skill_scores},
        "skill_tie_break": [_tie_break_entry(e) for e in b.skill_tie_break],
        "stat_layers": [_layer(layer) for layer in b.stat_layers],
        "undercharge": [_undercharge_row(row) for row in b.undercharge],
        "trace": [
            {"code": s.code, "params": _plain(s.params), "value": _plain(s.value)} for s in b.trace
        ],
    }


# ---------------------------------------------------------------------------
# The same Breakdown as compact JSON text, made from shared pieces

# The API's encoding: compact, UTF-8 text kept as it is (no \u escapes).
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_dump = _compact.encode
_string = json.encoder.encode_basestring  # what _compact writes for a str (C version)

#: Pieces of text kept per generation (two generations at most: the pieces still in use
#: move to the young one, the others go with the old one). A piece is about 300 bytes
#: with its entry, so the memo stays under ~10 MB; the demo's 1,000 cards need ~11,000.
TEXT_MEMO_SIZE = 1 << 14
_young: dict[int, tuple[object, str]] = {}
_old: dict[int, tuple[object, str]] = {}


def _memo(value: Any, build: Any) -> str:
    """``build(value)``, kept per object while the object lives in the memo.

    Keyed by identity: a derivation shares its steps, votes, rows and layers between the
    cards that have the same attribute (the engine memoises them), so most of a
    breakdown's pieces were written out before. An entry holds the object itself, so
    its id cannot be reused by another object while the entry exists. Only for values
    nobody changes (the engine's frozen results).
    """
    global _young, _old
    key = id(value)
    found = _young.get(key)
    if found is not None and found[0] is value:
        return found[1]
    found = _old.get(key)
    if found is None or found[0] is not value:
        found = (value, build(value))
    if len(_young) >= TEXT_MEMO_SIZE:
        _young, _old = {}, _young
    _young[key] = found
    return found[1]


def clear_caches() -> None:
    """Forget every piece of JSON text kept so far (benchmarks' cold passes)."""
    _young.clear()
    _old.clear()


#: Steps made for one card alone (its wardrobe, its combos, its tie-breaks): written
#: each time, never kept, since no other breakdown holds them.
_OWN_STEPS = frozenset(
    {
        "rarity.wardrobe_score",
        "rarity.combo",
        "rarity.supply_count.substitution",
        "skill.tie_break.scan",
        "skill.tie_break",
        "role.tie_break",
        "role.hash_fallback",
        "skill.role_default",
    }
)
#: Rules whose result is one card's own (its supplies, its wardrobe, its combos).
_OWN_RULES = frozenset({"supply_count", "wardrobe_score", "combo"})


def _json_text(value: Any) -> str:
    """``_dump(_plain(value))``, written directly, with the specs' text kept (``_memo``).

    The commonest kinds first; the abstract ``Mapping`` check (slow) comes last.
    """
    kind = value.__class__
    if kind is str:
        return _string(value)
    if kind is int:
        return int.__repr__(value)
    if kind in _ENUMS:
        return _scalar(value._value_)
    if kind is tuple or kind is list:
        return "[" + ",".join([_json_text(v) for v in value]) + "]"
    if kind is dict or kind is MappingProxyType:
        return _object_text(value)
    if value is None or kind is bool:
        return _scalar(value)
    if kind is AttributeSpec or kind is ComboSpec:
        found = _young.get(id(value))
        return found[1] if found is not None and found[0] is value else _memo(value, _spec_text)
    if kind is SupplySlot:  # made for each card, around shared attributes
        attr = value.attribute
        substitute = value.substitute
        return (
            f'{{"slot":{_string(value.slot._value_)},"name":{_string(attr.name)},'
            f'"supply":{_scalar(attr.supply)},"effective_supply":'
            f'{_scalar(value.effective_supply)},"substitute":'
            f"{'null' if substitute is None else _memo(substitute, _spec_text)}}}"
        )
    if kind is Requirement:
        return _memo(value, _requirement_text)
    if kind is float:
        return _dump(value)
    if isinstance(value, Mapping):
        return _object_text(value)
    return _dump(_plain(value))


def _object_text(value: Mapping[Any, Any]) -> str:
    return "{" + ",".join([f"{_string(_key(k))}:{_json_text(v)}" for k, v in value.items()]) + "}"


def _requirement_text(req: Requirement) -> str:
    return _dump(_requirement(req))


def _next_tier_text(next_tier: NextTier | None) -> str:
    if next_tier is None:
        return "null"
    paths = ",".join([_memo(p, _requirement_text) for p in next_tier.paths])
    return f'{{"target":{_string(next_tier.target._value_)},"paths":[{paths}]}}'


def _spec_text(value: Any) -> str:
    return _dump(_plain(value))


def _step_text(step: Any) -> str:
    return f'{{"code":{_string(step.code)},"params":{_json_text(step.params)},"value":{_json_text(step.value)}}}'


def _rule_text(r: Any) -> str:
    next_tier = "null" if r.next_tier is None else _memo(r.next_tier, _requirement_text)
    return (
        f'{{"rarity":{_string(r.rarity._value_)},"evidence":{_json_text(r.evidence)},'
        f'"next_tier":{next_tier}}}'
    )


def _vote_text(v: Any) -> str:
    return _dump(_vote(v))


def _skill_row_text(row: Any) -> str:
    return _dump(_skill_row(row))


def _layers_text(layers: Any) -> str:
    return _dump([_layer(layer) for layer in layers])


def _undercharge_text(rows: Any) -> str:
    return _dump([_undercharge_row(row) for row in rows])


def _effect_text(effect: Any) -> str:
    return _dump(_effect(effect))


def _joined(items: Any, build: Any, own: Any = None) -> str:
    """A JSON list of ``items``' texts, each from the memo (looked up here first: this is
    the hot loop); ``own(item)`` says which items to write without keeping them."""
    young = _young
    texts = []
    for item in items:
        found = young.get(id(item))
        if found is not None and found[0] is item:
            texts.append(found[1])
        elif own is not None and own(item):
            texts.append(build(item))
        else:
            texts.append(_memo(item, build))
    return "[" + ",".join(texts) + "]"


def _own_step(step: Any) -> bool:
    return step.code in _OWN_STEPS


def _scalar(value: Any) -> str:
    """JSON text of a str, an int, a bool or None (enum members are str or int here)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    return int.__repr__(value)


_MEMBER_KEYS = {
    key: _string(key) + ":"
    for key in (
        "token",
        "rarity",
        "decided_by",
        "rules",
        "role",
        "skill_affinity",
        "active_skill",
        "template",
        "stats",
        "energy_cost",
        "effects",
        "next_tier",
        "wardrobe_score",
        "rule_details",
        "role_source",
        "role_votes",
        "role_totals",
        "skill_source",
        "skill_table",
        "skill_scores",
        "skill_tie_break",
        "stat_layers",
        "undercharge",
        "trace",
    )
}


def breakdown_json(b: Breakdown, head: Mapping[str, Any] | None = None) -> str:
    """``breakdown_to_json(b)`` as compact JSON text: the same bytes as
    ``json.dumps(breakdown_to_json(b), ensure_ascii=False, separators=(",", ":"))``, at a
    fraction of the cost (the API's card body).

    The pieces a derivation shares between cards (trace steps, rules, votes, skill rows,
    stat layers, undercharge rows, effects) are written once and kept (``_memo``).
    ``head``: plain data written first, as ``{**head, **rest}`` where ``rest`` is the
    breakdown without the keys ``head`` has.

    >>> from engine.card.derive import derive
    >>> card = card_from_json({"token": 5, "name": "x", "equipped": {
    ...     s: {"name": "Iron Helm", "supply": 2} for s in ("head", "body", "paw", "background")}})
    >>> b = derive(card)
    >>> text = breakdown_json(b)
    >>> text == json.dumps(breakdown_to_json(b), ensure_ascii=False, separators=(",", ":"))
    True
    >>> breakdown_json(b, head={"object": "card", "token": 5})[:48]
    '{"object":"card","token":5,"rarity":"legendary",'
    """
    stats = b.stats
    effects = []
    for slot in EffectSlot:
        effect = b.effect(slot)
        text = "null" if effect is None else _memo(effect, _effect_text)
        effects.append(f"{_string(slot._value_)}:{text}")
    members = {
        "token": int.__repr__(b.token),
        "rarity": _string(b.rarity._value_),
        "decided_by": "[" + ",".join([_string(rule) for rule in b.decided_by]) + "]",
        "rules": "{"
        + ",".join([f"{_string(r.key)}:{_string(r.rarity._value_)}" for r in b.rules])
        + "}",
        "role": _string(b.role._value_),
        "skill_affinity": _string(b.skill_affinity._value_),
        "active_skill": _scalar(_enum_or_none(b.active_skill)),
        "template": _string(b.template),
        "stats": f'{{"atk":{stats.atk},"hp":{stats.hp},"def":{stats.def_},'
        f'"ability":{stats.ability}}}',
        "energy_cost": int.__repr__(b.energy_cost),
        "effects": "{" + ",".join(effects) + "}",
        "next_tier": _next_tier_text(b.next_tier),
        "wardrobe_score": "null"
        if b.wardrobe_score is None
        else _string(format_score(b.wardrobe_score)),
        "rule_details": "{"
        + ",".join(
            [
                f"{_string(r.key)}:"
                + (_rule_text(r) if r.key in _OWN_RULES else _memo(r, _rule_text))
                for r in b.rules
            ]
        )
        + "}",
        "role_source": _string(b.role_source),
        "role_votes": _joined(b.role_votes, _vote_text),
        "role_totals": "{"
        + ",".join([f"{_string(role._value_)}:{n}" for role, n in b.role_totals])
        + "}",
        "skill_source": _string(b.skill_source),
        "skill_table": _joined(b.skill_table, _skill_row_text),
        "skill_scores": "{"
        + ",".join([f"{_string(skill._value_)}:{n}" for skill, n in b.skill_scores])
        + "}",
        "skill_tie_break": "[]"
        if not b.skill_tie_break
        else _dump([_tie_break_entry(e) for e in b.skill_tie_break]),
        "stat_layers": _memo(b.stat_layers, _layers_text),
        "undercharge": _memo(b.undercharge, _undercharge_text),
        "trace": _joined(b.trace, _step_text, _own_step),
    }
    keys = _MEMBER_KEYS
    parts = [keys[key] + text for key, text in members.items() if not head or key not in head]
    if head:
        first = _dump(dict(head))
        if first != "{}":
            parts.insert(0, first[1:-1])
    return "{" + ",".join(parts) + "}"


# ---------------------------------------------------------------------------
# The match: combat profiles, actions, events


def _effect_json(e: CardEffect | None) -> dict[str, Any] | None:
    return None if e is None else {"kind": e.kind.value, "value": e.value}


def match_card_to_json(card: MatchCard) -> dict[str, Any]:
    """A combat profile as JSON-ready data (the demo stores decks this way).

    >>> match_card_to_json(MatchCard("3", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20))["cost"]
    1
    """
    return {
        "id": card.id,
        "name": card.name,
        "rarity": card.rarity.value,
        "role": card.role.value,
        "atk": card.atk,
        "hp": card.hp,
        "def": card.def_,
        "skill": card.skill.value if card.skill else None,
        "deploy": _effect_json(card.deploy),
        "passive": _effect_json(card.passive),
        "last_breath": _effect_json(card.last_breath),
        "cost": card.cost,
    }


def match_card_from_json(data: Any) -> MatchCard:
    """The inverse of ``match_card_to_json`` (InvalidCardError on bad data).

    >>> card = MatchCard("3", "Pup", Rarity.EPIC, Role.CONTROL, atk=7, hp=16, def_=1,
    ...                  skill=Skill.ARCANE, passive=CardEffect(EffectKind.BURN, 2))
    >>> match_card_from_json(match_card_to_json(card)) == card
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidCardError("object", "must be an object", field="")

    def effect(key: str) -> CardEffect | None:
        raw = data.get(key)
        return None if raw is None else CardEffect(EffectKind(raw["kind"]), raw["value"])

    try:
        skill = data.get("skill")
        return MatchCard(
            id=str(data["id"]),
            name=data.get("name", ""),
            rarity=Rarity(data["rarity"]),
            role=Role(data["role"]),
            atk=data["atk"],
            hp=data["hp"],
            def_=data.get("def", 0),
            skill=Skill(skill) if skill else None,
            deploy=effect("deploy"),
            passive=effect("passive"),
            last_breath=effect("last_breath"),
            cost=data.get("cost", 0),
        )
    except InvalidCardError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidCardError("card", f"is not a match card ({exc})", field="") from None


_ACTION_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON-ready data.

    >>> action_to_json(Boost(Side.B, BoostKind.SWITCH, 2))
    {'type': 'boost', 'side': 'b', 'boost': 'switch', 'card': 2}
    """
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)], "side": Side(action.side).key}
    if isinstance(action, Pick):
        data["card"] = action.card
    elif isinstance(action, Boost):
        data["boost"] = str(action.boost)
        if action.card is not None:
            data["card"] = action.card
    return data


def action_from_json(data: Any) -> Action:
    """The inverse of ``action_to_json``; IllegalActionError("bad_action") on anything else.

    A boost name the rules do not know stays a string (``apply`` refuses it as
    ``unknown_boost``).

    >>> action_from_json({"type": "pick", "side": "a", "card": 1})
    Pick(side=<Side.A: 0>, card=1)
    >>> action_from_json({"type": "pick", "side": "a", "card": "1"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalActionError: That is not an action of this game.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("side"), str):
        raise IllegalActionError("bad_action")
    try:
        side = Side.from_key(data["side"])
    except ValueError:
        raise IllegalActionError("bad_action") from None
    kind = data.get("type")
    card = data.get("card")
    if card is not None and type(card) is not int:
        raise IllegalActionError("bad_action")
    if kind == "pick" and card is not None:
        return Pick(side, card)
    if kind == "boost" and isinstance(data.get("boost"), str):
        try:
            boost: Any = BoostKind(data["boost"])
        except ValueError:
            boost = data["boost"]
        return Boost(side, boost, card)
    if kind == "commit":
        return Commit(side)
    if kind == "surrender":
        return Surrender(side)
    raise IllegalActionError("bad_action")


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data: its code and its parameters (enum members as strings).

    >>> event_to_json(Event("commit", {"side": "a"}))
    {'code': 'commit', 'params': {'side': 'a'}}
    """
    return {"code": event.code, "params": _plain(event.params)}


def dumps(data: Any, *, indent: int | None = 2) -> str:
    """JSON text of plain data (UTF-8 friendly, stable key order as built)."""
    return json.dumps(data, ensure_ascii=False, indent=indent)
