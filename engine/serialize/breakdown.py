"""A Breakdown as JSON: ``breakdown_json`` writes it (compact text, from pieces kept
between cards) and ``breakdown_to_json`` reads that text back as plain data: one writer."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engine.caches import BREAKDOWN_TEXT
from engine.card.rarity import format_score
from engine.serialize.base import _ENUMS, _key, _plain, _requirement
from engine.types import (
    AttributeSpec,
    Breakdown,
    ComboSpec,
    Effect,
    EffectSlot,
    NextTier,
    Requirement,
    SupplySlot,
)


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
    """The Breakdown as plain JSON data (the CLI's and the API's output schema): what
    ``breakdown_json`` writes, read back (one writer, so the two cannot differ).

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
    >>> from engine.serialize.card import card_from_json
    >>> card = card_from_json({"token": 5, "name": "x", "equipped": {
    ...     s: {"name": "Iron Helm", "supply": 2} for s in ("head", "body", "paw", "background")}})
    >>> out = breakdown_to_json(derive(card))
    >>> out["rarity"], out["rules"]["supply_count"], out["role"], out["active_skill"]
    ('legendary', 'legendary', 'tank', 'pierce')
    """
    return json.loads(breakdown_json(b))


_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


_dump = _compact.encode
_string = json.encoder.encode_basestring  # what _compact writes for a str (C version)


#: Pieces of text kept between cards, by identity (``engine.caches.BREAKDOWN_TEXT``).
_TEXT = BREAKDOWN_TEXT
_memo = _TEXT.get


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
        found = _TEXT.young.get(id(value))
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
    young = _TEXT.young
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
    >>> from engine.serialize.card import card_from_json
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
