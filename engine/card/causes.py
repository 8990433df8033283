"""Why a card changed: derive it with and without each changed input (docs/rules.md §1–5).

A card's inputs change (an attribute's supply, its GetGems rank, what it equips or owns);
``explain`` derives the card before and after, and for each field that changed (rarity,
role, skill, active skill, template, stats, effects, energy cost) names the inputs that
caused it: with one changed input, that input; with several, each input whose reverting
alone (the card after, with that one input as it was) changes the field back, or all of
them when no single one does (they caused it together). Pure: no Django, no globals.

>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> def card(paw_supply):
...     return CardSpec(42, "Pup", (
...         AttributeSpec(Slot.HEAD, "Iron Helm", 3), AttributeSpec(Slot.BODY, "Chain Armor", 2),
...         AttributeSpec(Slot.PAW, "Axe", paw_supply), AttributeSpec(Slot.BACKGROUND, "Sky", 900)))
>>> change = SupplyChange("paw", "Axe", 3, 4)
>>> [(c.field, c.before, c.after, c.causes[0]["kind"]) for c in explain(card(3), card(4), (change,))][:1]
[('rarity', 'legendary', 'epic', 'market')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.card.derive import derive
from engine.types import AttributeSpec, Breakdown, CardSpec, Slot

__all__ = [
    "FIELDS",
    "EquipChange",
    "FieldChange",
    "OwnedChange",
    "RankChange",
    "RulesChange",
    "SupplyChange",
    "explain",
    "facts",
]

# The fields a change is recorded for, in the order a timeline lists them.
FIELDS: tuple[str, ...] = (
    "rarity",
    "role",
    "skill",
    "active_skill",
    "template",
    "stats",
    "effects",
    "energy_cost",
)


def facts(breakdown: Breakdown) -> dict[str, Any]:
    """The recorded fields of a derivation as JSON values (``FIELDS`` order).

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> b = derive(CardSpec(1, "Pup", (AttributeSpec(Slot.HEAD, "Cap", 3),
    ...     AttributeSpec(Slot.BODY, "Vest", 2), AttributeSpec(Slot.PAW, "Claw", 40),
    ...     AttributeSpec(Slot.BACKGROUND, "Sky", 90))))
    >>> facts(b)["rarity"], sorted(facts(b)["stats"])
    ('epic', ['ability', 'atk', 'def', 'hp'])
    """
    stats = breakdown.stats
    return {
        "rarity": breakdown.rarity.value,
        "role": breakdown.role.value,
        "skill": breakdown.skill_affinity.value,
        "active_skill": breakdown.active_skill.value if breakdown.active_skill else None,
        "template": breakdown.template,
        "stats": {"atk": stats.atk, "hp": stats.hp, "def": stats.def_, "ability": stats.ability},
        "effects": [f"{e.slot.value}:{e.kind.value}:{e.value}" for e in breakdown.effects],
        "energy_cost": breakdown.energy_cost,
    }


# ---------------------------------------------------------------------------
# Changed inputs: each knows how to describe itself and how to undo itself on a card.


def _with_supply(attrs: tuple[AttributeSpec, ...], slot: Slot, name: str, supply: int) -> tuple:
    return tuple(
        dataclasses.replace(a, supply=supply) if a.slot is slot and a.name == name else a
        for a in attrs
    )


@dataclass(frozen=True, slots=True)
class SupplyChange:
    """The market: an attribute's supply (print count) went from ``before`` to ``after``."""

    slot: str
    attribute: str
    before: int
    after: int

    def cause(self) -> dict[str, Any]:
        return {
            "kind": "market",
            "what": "supply",
            "slot": self.slot,
            "attribute": self.attribute,
            "before": self.before,
            "after": self.after,
        }

    def revert(self, card: CardSpec) -> CardSpec:
        slot = Slot(self.slot)
        return dataclasses.replace(
            card,
            equipped=_with_supply(card.equipped, slot, self.attribute, self.before),
            wardrobe=_with_supply(card.wardrobe, slot, self.attribute, self.before),
        )


@dataclass(frozen=True, slots=True)
class RankChange:
    """The market: the card's GetGems rank went from ``before`` to ``after`` (None: none)."""

    before: int | None
    after: int | None

    def cause(self) -> dict[str, Any]:
        return {
            "kind": "market",
            "what": "getgems_rank",
            "before": self.before,
            "after": self.after,
        }

    def revert(self, card: CardSpec) -> CardSpec:
        return dataclasses.replace(card, getgems_rank=self.before)


@dataclass(frozen=True, slots=True)
class EquipChange:
    """The card: what it equips in ``slot`` went from ``before`` to ``after``."""

    before: AttributeSpec
    after: AttributeSpec

    def cause(self) -> dict[str, Any]:
        return {
            "kind": "card",
            "what": "equipped",
            "slot": self.after.slot.value,
            "before": self.before.name,
            "after": self.after.name,
        }

    def revert(self, card: CardSpec) -> CardSpec:
        equipped = tuple(self.before if a.slot is self.before.slot else a for a in card.equipped)
        return dataclasses.replace(card, equipped=equipped, wardrobe=(*card.wardrobe, self.before))


@dataclass(frozen=True, slots=True)
class OwnedChange:
    """The card: it came to own (``owned``) or stopped owning an attribute."""

    attribute: AttributeSpec
    owned: bool

    def cause(self) -> dict[str, Any]:
        return {
            "kind": "card",
            "what": "owned",
            "slot": self.attribute.slot.value,
            "attribute": self.attribute.name,
            "before": not self.owned,
            "after": self.owned,
        }

    def revert(self, card: CardSpec) -> CardSpec:
        key = (self.attribute.slot, self.attribute.name)
        if self.owned:
            kept = tuple(a for a in card.wardrobe if (a.slot, a.name) != key)
            return dataclasses.replace(card, wardrobe=kept)
        return dataclasses.replace(card, wardrobe=(*card.wardrobe, self.attribute))


@dataclass(frozen=True, slots=True)
class RulesChange:
    """The rules: a version changed ``constant`` from ``before`` to ``after``.

    The engine holds one version of its rules, so a card cannot be derived without it:
    a change of rules is the cause of whatever changed when the version was deployed.
    """

    version: str
    constant: str
    before: str
    after: str

    def cause(self) -> dict[str, Any]:
        return {
            "kind": "rules",
            "version": self.version,
            "constant": self.constant,
            "before": self.before,
            "after": self.after,
        }

    def revert(self, card: CardSpec) -> CardSpec:
        return card


Change = SupplyChange | RankChange | EquipChange | OwnedChange | RulesChange


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One recorded field of a card that changed, and the inputs that caused it."""

    field: str
    before: Any
    after: Any
    causes: tuple[Mapping[str, Any], ...]


def explain(
    before: CardSpec | Mapping[str, Any],
    after: CardSpec,
    changes: Sequence[Change],
    *,
    derive_card: Callable[[CardSpec], Breakdown] = derive,
    after_facts: Mapping[str, Any] | None = None,
) -> tuple[FieldChange, ...]:
    """The fields of ``after`` that differ from ``before`` (a card, or its ``facts``), each
    with its causes among ``changes`` (found by deriving without each one in turn).

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> def card(rank):
    ...     return CardSpec(9, "Pup", (
    ...         AttributeSpec(Slot.HEAD, "Cap", 500), AttributeSpec(Slot.BODY, "Vest", 500),
    ...         AttributeSpec(Slot.PAW, "Claw", 500), AttributeSpec(Slot.BACKGROUND, "Sky", 900)),
    ...         getgems_rank=rank)
    >>> noise = SupplyChange("background", "Sky", 800, 900)
    >>> changes = explain(card(300), card(4), (RankChange(300, 4), noise))
    >>> changes[0].field, changes[0].after, [c["what"] for c in changes[0].causes]
    ('rarity', 'legendary', ['getgems_rank'])
    """
    old = before if isinstance(before, Mapping) else facts(derive_card(before))
    new = after_facts if after_facts is not None else facts(derive_card(after))
    fields = [f for f in FIELDS if old[f] != new[f]]
    if not fields:
        return ()
    everything = tuple(change.cause() for change in changes)
    by_field: dict[str, list[Mapping[str, Any]]] = {f: [] for f in fields}
    revertible = [c for c in changes if not isinstance(c, RulesChange)]
    if len(changes) > 1 and revertible:
        for change in revertible:
            without = facts(derive_card(change.revert(after)))
            for field in fields:
                if without[field] != new[field]:
                    by_field[field].append(change.cause())
        rules = tuple(c.cause() for c in changes if isinstance(c, RulesChange))
        for field in fields:
            by_field[field].extend(rules)
    return tuple(
        FieldChange(field, old[field], new[field], tuple(by_field[field]) or everything)
        for field in fields
    )
