"""The trace codes a derivation emits, their parameters and their values.

A ``TraceStep`` is ``(code, params, value)``. The site turns each code into an
EN/RU sentence, filling in the parameters; this module is the contract. Enum
values (slots, tiers, skills, roles, rarities, effect slots and kinds) appear
as their lowercase strings; "slots" are tuples of slot names.

Rarity (docs/rules.md §2), in this order:

- ``rarity.starter`` — a starter card is Free; every rule is skipped.
  params: ``skipped`` (rule keys). value: ``"free"``.
- ``rarity.supply_count.substitution`` — in ``slot`` the wardrobe attribute
  ``name`` (``supply``, ``tier`` rare or unique) stands in for the equipped
  ``equipped_name`` (``equipped_supply``). value: the supply that counts.
- ``rarity.supply_count`` — which slots' effective supply is at or below each
  threshold. params: ``matched`` ((max_supply, (slot, …)), … one per tier,
  highest tier first: (3, …) for Legendary, (5, …) for Epic). value: rarity.
- ``rarity.wardrobe_score`` — params: ``attributes`` (distinct owned),
  ``score`` (one decimal, rounded down). value: rarity.
- ``rarity.tier_badge`` — params: ``slots`` (equipped unique-tier). value: rarity.
- ``rarity.burned_stickers`` — params: ``burned``. value: rarity.
- ``rarity.god_premium`` — params: ``god``, ``premium`` (slots equipped with
  such attributes). value: rarity.
- ``rarity.combo`` — params: ``known`` (combos checked), ``matched`` (names of
  fully equipped combos). value: rarity.
- ``rarity.getgems_rank`` — params: ``rank`` (int or null). value: rarity.
- ``rarity.decided`` — params: ``decided_by`` (rule keys that reached the
  result). value: the card's rarity.

Role (§3):

- ``role.vote`` — the attribute ``name`` in ``slot`` hits ``skill`` (its
  primary) and votes ``weight`` = ``slot_weight`` × ``tier_weight`` (``tier``).
  value: the role voted for. One step per voting attribute, paw → background.
- ``role.totals`` — params: {role: total votes} for each role with votes.
  value: the roles sharing the top total.
- ``role.tie_break`` — params: ``tied`` (roles), ``slot`` and ``name`` of the
  first voting attribute (paw → background) whose role is tied. value: role.
- ``role.hash_fallback`` — no votes: params ``lines`` (the sorted
  ``slot:tier:name`` lines), ``byte`` (first byte of their SHA-256), ``index``
  (byte mod 4). value: role.
- ``role.decided`` — params: ``source`` ("votes", "tie_break" or "hash").
  value: role.

Skill (§4):

- ``skill.hits`` — per equipped attribute (head → background): ``slot``,
  ``name``, ``fragments`` (keyword fragments it hits), ``secondary`` (skill or
  null). value: its primary skill, or null (no hit, no point).
- ``skill.scores`` — params: {skill: points} for each skill with points.
  value: the skills sharing the top score.
- ``skill.tie_break.scan`` — one attribute looked at by the tie-break:
  ``slot``, ``name``, ``tier``, ``equipped``, ``primary``, ``secondary``.
  value: the tied skill it gives, or null (scan goes on).
- ``skill.tie_break`` — params: ``tied`` (skills), ``slot``, ``name`` (the
  attribute that decided). value: skill.
- ``skill.role_default`` — no points: params ``role``. value: its default skill.
- ``skill.affinity`` — params: ``source`` ("score", "tie_break" or
  "role_default"). value: the skill affinity.
- ``skill.active`` — params: ``rarity``, ``affinity``. value: the active
  skill (the affinity at Legendary) or null.
- ``skill.temporary_roll`` — a temporary card's roll instead of
  ``skill.active``: ``card_id``, ``rarity``, ``roll`` (0–1, six decimals),
  ``chance``, ``affinity``. value: the active skill or null.

Template, stats, effects, energy (§5, §6):

- ``template.selected`` — params: ``role``, ``byte`` (first byte of
  SHA-256 of ``template:<token>``), ``count``, ``index`` (byte mod count),
  ``candidates`` (the role's template keys, sorted). value: template key.
- ``stats.base`` — params: ``template``, ``atk``, ``hp``, ``def``, ``ability``.
- ``stats.rarity_bonus`` — params: ``rarity``, ``atk``, ``hp``, ``ability``
  (what the layer adds).
- ``stats.sticker_power`` — params: ``burned``, ``per_atk`` (stickers per
  +1 ATK), ``cap``, ``atk`` (added).
- ``stats.paw_item`` — params: ``name`` and ``tier`` of the equipped paw
  attribute, ``atk`` (added).
- ``stats.burn_milestone`` — params: ``burned``, ``milestone`` (the
  milestone reached, or null), ``hp`` (added).
- ``stats.final`` — params: ``atk``, ``hp``, ``def``, ``ability``.
- ``effects.template`` — the template's Deploy: ``template``, ``slot``,
  ``kind``, ``base``, ``bonus`` (ability bonus). value: the effect value.
- ``effects.allowance`` — Rare and above: params ``rarity``, ``role``,
  ``fill_order`` (effect slots). value: signatures allowed.
- ``effects.slot_taken`` — params: ``slot`` (already filled, skipped).
- ``effects.signature`` — params: ``role``, ``slot``, ``kind``, ``base``,
  ``bonus``. value: the effect value.
- ``energy.cost`` — params: ``rarity``. value: NRG cost.
- ``energy.undercharge`` — one row per NRG amount below the cost: ``nrg``,
  ``deficit``, ``stat_cut_percent``, ``atk``, ``def``, ``effects`` ({effect
  slot: weakened value}). The active skill is always off when undercharged.

Next-tier requirements (``Requirement.need``; see ``NEEDS``):

- ``slots_at_most`` (supply_count) — ``slots_needed`` more slots with an
  effective supply ≤ ``max_supply``, from ``candidate_slots``.
- ``score`` (wardrobe_score) — score ``have`` of ``threshold``; ``missing``
  (one decimal, rounded up); ``one_attribute_max_supply``: one new attribute
  of at most this supply closes the gap (null when one is not enough).
- ``tier_equipped`` (tier_badge) — equip a ``tier`` attribute (supply ≤
  ``max_supply``) in any slot.
- ``burned`` (burned_stickers) — ``have`` of ``threshold``; ``missing``.
- ``kind_equipped`` (god_premium) — equip an attribute of ``kind`` ("god" or
  "premium").
- ``combo`` (combo) — equip the ``missing`` [slot, name] pairs of ``combo``
  (``slots_needed`` of them).
- ``rank`` (getgems_rank) — a GetGems rank ≤ ``rank_at_most`` (``have``: the
  current rank or null).

>>> sorted(CODES)[:3]
['effects.allowance', 'effects.signature', 'effects.slot_taken']
>>> CODES["role.vote"].params
('slot', 'name', 'skill', 'slot_weight', 'tier', 'tier_weight', 'weight')
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.types import Trace, TraceStep

__all__ = ["CODES", "DYNAMIC", "NEEDS", "CodeSpec", "Trace", "TraceStep"]

DYNAMIC: Final = "*"
"""Marks a code whose parameter names are data (roles or skills), not fixed."""


@dataclass(frozen=True, slots=True)
class CodeSpec:
    """A trace code's parameter names and the kind of its value.

    ``value`` is one of: "rarity", "role", "skill", "skill_or_null",
    "template", "int", "roles", "skills", "none".
    """

    params: tuple[str, ...]
    value: str


CODES: Final = MappingProxyType(
    {
        "rarity.starter": CodeSpec(("skipped",), "rarity"),
        "rarity.supply_count.substitution": CodeSpec(
            ("slot", "equipped_name", "equipped_supply", "name", "supply", "tier"), "int"
        ),
        "rarity.supply_count": CodeSpec(("matched",), "rarity"),
        "rarity.wardrobe_score": CodeSpec(("attributes", "score"), "rarity"),
        "rarity.tier_badge": CodeSpec(("slots",), "rarity"),
        "rarity.burned_stickers": CodeSpec(("burned",), "rarity"),
        "rarity.god_premium": CodeSpec(("god", "premium"), "rarity"),
        "rarity.combo": CodeSpec(("known", "matched"), "rarity"),
        "rarity.getgems_rank": CodeSpec(("rank",), "rarity"),
        "rarity.decided": CodeSpec(("decided_by",), "rarity"),
        "role.vote": CodeSpec(
            ("slot", "name", "skill", "slot_weight", "tier", "tier_weight", "weight"), "role"
        ),
        "role.totals": CodeSpec((DYNAMIC,), "roles"),
        "role.tie_break": CodeSpec(("tied", "slot", "name"), "role"),
        "role.hash_fallback": CodeSpec(("lines", "byte", "index"), "role"),
        "role.decided": CodeSpec(("source",), "role"),
        "skill.hits": CodeSpec(("slot", "name", "fragments", "secondary"), "skill_or_null"),
        "skill.scores": CodeSpec((DYNAMIC,), "skills"),
        "skill.tie_break.scan": CodeSpec(
            ("slot", "name", "tier", "equipped", "primary", "secondary"), "skill_or_null"
        ),
        "skill.tie_break": CodeSpec(("tied", "slot", "name"), "skill"),
        "skill.role_default": CodeSpec(("role",), "skill"),
        "skill.affinity": CodeSpec(("source",), "skill"),
        "skill.active": CodeSpec(("rarity", "affinity"), "skill_or_null"),
        "skill.temporary_roll": CodeSpec(
            ("card_id", "rarity", "roll", "chance", "affinity"), "skill_or_null"
        ),
        "template.selected": CodeSpec(("role", "byte", "count", "index", "candidates"), "template"),
        "stats.base": CodeSpec(("template", "atk", "hp", "def", "ability"), "none"),
        "stats.rarity_bonus": CodeSpec(("rarity", "atk", "hp", "ability"), "none"),
        "stats.sticker_power": CodeSpec(("burned", "per_atk", "cap", "atk"), "none"),
        "stats.paw_item": CodeSpec(("name", "tier", "atk"), "none"),
        "stats.burn_milestone": CodeSpec(("burned", "milestone", "hp"), "none"),
        "stats.final": CodeSpec(("atk", "hp", "def", "ability"), "none"),
        "effects.template": CodeSpec(("template", "slot", "kind", "base", "bonus"), "int"),
        "effects.allowance": CodeSpec(("rarity", "role", "fill_order"), "int"),
        "effects.slot_taken": CodeSpec(("slot",), "none"),
        "effects.signature": CodeSpec(("role", "slot", "kind", "base", "bonus"), "int"),
        "energy.cost": CodeSpec(("rarity",), "int"),
        "energy.undercharge": CodeSpec(
            ("nrg", "deficit", "stat_cut_percent", "atk", "def", "effects"), "none"
        ),
    }
)
"""Every trace code with its parameter names (in emission order) and value kind."""

NEEDS: Final = MappingProxyType(
    {
        "slots_at_most": ("supply_count", ("slots_needed", "max_supply", "candidate_slots")),
        "score": (
            "wardrobe_score",
            ("have", "threshold", "missing", "one_attribute_max_supply"),
        ),
        "tier_equipped": ("tier_badge", ("tier", "max_supply")),
        "burned": ("burned_stickers", ("have", "threshold", "missing")),
        "kind_equipped": ("god_premium", ("kind",)),
        "combo": ("combo", ("combo", "missing", "slots_needed")),
        "rank": ("getgems_rank", ("rank_at_most", "have")),
    }
)
"""Requirement ``need`` codes: need → (rule key, parameter names)."""
