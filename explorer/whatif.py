"""What-if: change a card's equipment, rank or stickers and derive it again — nothing saved.

A what-if is a handful of GET parameters, so every what-if has a permalink:
``?paw=Qx+Mitten&rank=4&burned=3`` (attribute names are unique within a slot);
``explorer.forms.WhatIfForm`` reads them into a `WhatIf`.
Equipping an attribute the card does not own adds it to the wardrobe for the what-if,
since wearing something means owning it; the attribute it replaces stays owned.

Suggestions turn the engine's "next tier" requirements into concrete what-ifs, run the
rarity rules on each (``decide_rarity``: the rarity a full ``derive`` gives, which is
worked out from the card alone, before its role, stats and effects), and keep the ones
that reach their target, so every link is known to work.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from engine.card.rarity import decide_rarity
from engine.types import AttributeSpec, Breakdown, CardSpec, Rarity, Requirement, Slot

SLOTS: tuple[Slot, ...] = tuple(Slot)
PARAMS = (*(s.value for s in SLOTS), "rank", "burned")
MAX_RANK = 1_000_000
MAX_BURNED = 999


UNSET: Any = object()
"""A what-if's ``rank``/``burned`` when it leaves them as they are."""


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The changes asked for. ``rank``/``burned`` are ``None``-able; unset means "as is"."""

    equip: Mapping[str, str] = dataclasses.field(default_factory=dict)  # slot → name
    rank: object = UNSET  # int, None (no rank) or UNSET
    burned: object = UNSET  # int or UNSET

    @property
    def is_empty(self) -> bool:
        return not self.equip and self.rank is UNSET and self.burned is UNSET

    def then(self, change: WhatIf) -> WhatIf:
        """This what-if with ``change`` made on top (what ``change`` sets wins).

        >>> WhatIf({"head": "Cap"}, burned=3).then(WhatIf({"paw": "Mitt"}, rank=4)).query()
        'head=Cap&paw=Mitt&rank=4&burned=3'
        """
        return WhatIf(
            {**self.equip, **change.equip},
            self.rank if change.rank is UNSET else change.rank,
            self.burned if change.burned is UNSET else change.burned,
        )

    def query(self) -> str:
        """The permalink query string (without "?")."""
        pairs: list[tuple[str, str]] = [
            (s.value, self.equip[s.value]) for s in SLOTS if s.value in self.equip
        ]
        if self.rank is not UNSET:
            pairs.append(("rank", "" if self.rank is None else str(self.rank)))
        if self.burned is not UNSET:
            pairs.append(("burned", str(self.burned)))
        return urlencode(pairs)


class Catalogue:
    """Every attribute of the collection by slot, for what-if choices and suggestions."""

    def __init__(self, attributes: Iterable[AttributeSpec]) -> None:
        self.by_slot: dict[Slot, dict[str, AttributeSpec]] = {s: {} for s in SLOTS}
        for attribute in attributes:
            self.by_slot[attribute.slot][attribute.name] = attribute
        # Lowest supply first: what a suggestion reaches for.
        self.by_supply: dict[Slot, list[AttributeSpec]] = {
            s: sorted(names.values(), key=lambda a: (a.supply, a.name))
            for s, names in self.by_slot.items()
        }
        self.supplies: dict[Slot, list[int]] = {
            s: [a.supply for a in attributes] for s, attributes in self.by_supply.items()
        }
        self._choices: dict[Slot, tuple[tuple[str, int], ...]] = {}
        self._offered: dict[tuple[Slot, int], tuple[tuple[str, int], ...]] = {}

    def get(self, slot: Slot, name: str) -> AttributeSpec | None:
        return self.by_slot[slot].get(name)

    def offered(self, slot: Slot, limit: int) -> tuple[tuple[str, int], ...]:
        """(name, supply) of the ``limit`` rarest attributes of a slot (what a what-if
        reaches for), alphabetical: the what-if form's options when the catalogue is
        larger than a select can sensibly show."""
        key = (slot, limit)
        if key not in self._offered:
            rarest = self.by_supply[slot][:limit]
            self._offered[key] = tuple(sorted((a.name, a.supply) for a in rarest))
        return self._offered[key]

    def count(self, slot: Slot) -> int:
        return len(self.by_slot[slot])

    def choices(self, slot: Slot) -> tuple[tuple[str, int], ...]:
        """(name, supply) of a slot's attributes, alphabetical: the what-if's options."""
        if slot not in self._choices:
            self._choices[slot] = tuple(
                sorted((a.name, a.supply) for a in self.by_slot[slot].values())
            )
        return self._choices[slot]


def apply(card: CardSpec, whatif: WhatIf, catalogue: Catalogue) -> CardSpec:
    """The card as the what-if would have it."""
    if whatif.is_empty:
        return card
    owned = {a.key: a for a in card.owned}
    equipped = list(card.equipped)
    for index, slot in enumerate(SLOTS):
        name = whatif.equip.get(slot.value)
        if name is None:
            continue
        attribute = owned.get((slot, name)) or catalogue.get(slot, name)
        assert attribute is not None  # the what-if form checked it
        equipped[index] = attribute
    wardrobe = [a for a in card.owned if a not in equipped]
    return dataclasses.replace(
        card,
        equipped=tuple(equipped),
        wardrobe=tuple(wardrobe),
        getgems_rank=card.getgems_rank if whatif.rank is UNSET else whatif.rank,
        burned_stickers=card.burned_stickers if whatif.burned is UNSET else whatif.burned,
    )


# ---------------------------------------------------------------------------
# Suggestions: requirements made concrete


@dataclass(frozen=True, slots=True)
class Suggestion:
    requirement: Requirement
    whatif: WhatIf
    result: Rarity  # what the card becomes with it (derived, not guessed)


def _owned_or_catalogue(
    card: CardSpec, slot: Slot, catalogue: Catalogue
) -> Iterator[AttributeSpec]:
    """Candidates for a slot: owned ones first (no purchase needed), then the catalogue —
    lazily, since the callers take the first that fits (a slot of 100,000 cards holds
    ≈ 7,000 attributes)."""
    owned = sorted((a for a in card.owned if a.slot is slot), key=lambda a: (a.supply, a.name))
    seen = {a.name for a in owned}
    yield from owned
    yield from (a for a in catalogue.by_supply[slot] if a.name not in seen)


def _scarcest_fit(
    catalogue: Catalogue, slot: Slot, limit: int, owned: set[tuple[Slot, str]]
) -> AttributeSpec | None:
    """The first (by name) of the slot's not-owned attributes with the largest supply that
    is still ≤ ``limit``: a binary search in the supply order instead of a scan."""
    ordered, supplies = catalogue.by_supply[slot], catalogue.supplies[slot]
    end = bisect.bisect_right(supplies, limit)
    top = next(
        (ordered[i].supply for i in range(end - 1, -1, -1) if ordered[i].key not in owned), None
    )
    if top is None:
        return None
    start = bisect.bisect_left(supplies, top)
    return next(a for a in ordered[start:end] if a.key not in owned)


def _concrete(card: CardSpec, req: Requirement, catalogue: Catalogue) -> WhatIf | None:
    p = req.params
    equipped_names = {s: card.attribute(s).name for s in SLOTS}
    if req.need == "slots_at_most":
        equip: dict[str, str] = {}
        for slot_value in p["candidate_slots"]:
            if len(equip) == p["slots_needed"]:
                break
            slot = Slot(getattr(slot_value, "value", slot_value))
            pick = next(
                (
                    a
                    for a in _owned_or_catalogue(card, slot, catalogue)
                    if a.supply <= p["max_supply"]
                ),
                None,
            )
            if pick is not None and pick.name != equipped_names[slot]:
                equip[slot.value] = pick.name
        return WhatIf(equip) if len(equip) == p["slots_needed"] else None
    if req.need == "score":
        limit = p.get("one_attribute_max_supply")
        if not limit:
            return None
        owned = {a.key for a in card.owned}
        # The least scarce new attribute that still closes the gap: the easiest to get
        # (on a tie, the first slot of this order).
        best: AttributeSpec | None = None
        for slot in (Slot.BACKGROUND, Slot.BODY, Slot.HEAD, Slot.PAW):
            found = _scarcest_fit(catalogue, slot, limit, owned)
            if found is not None and (best is None or found.supply > best.supply):
                best = found
        return WhatIf({best.slot.value: best.name}) if best else None
    if req.need == "tier_equipped":
        for slot in (Slot.BACKGROUND, Slot.BODY, Slot.HEAD, Slot.PAW):
            pick = next(
                (
                    a
                    for a in _owned_or_catalogue(card, slot, catalogue)
                    if a.supply <= p["max_supply"]
                ),
                None,
            )
            if pick is not None:
                return WhatIf({slot.value: pick.name})
        return None
    if req.need == "burned":
        return WhatIf(burned=p["threshold"])
    if req.need == "kind_equipped":
        kind = getattr(p["kind"], "value", p["kind"])
        for slot in (Slot.BACKGROUND, Slot.BODY, Slot.HEAD, Slot.PAW):
            pick = next(
                (a for a in _owned_or_catalogue(card, slot, catalogue) if a.kind.value == kind),
                None,
            )
            if pick is not None:
                return WhatIf({slot.value: pick.name})
        return None
    if req.need == "combo":
        equip = {getattr(s, "value", s): name for s, name in p["missing"]}
        for slot_value, name in equip.items():
            if catalogue.get(Slot(slot_value), name) is None:
                return None
        return WhatIf(equip)
    if req.need == "rank":
        return WhatIf(rank=p["rank_at_most"])
    return None


def suggestions(
    card: CardSpec,
    requirements: Iterable[Requirement],
    catalogue: Catalogue,
    base: WhatIf | None = None,
) -> list[Suggestion]:
    """Each requirement (of the card as ``base`` has it) as a what-if of the real ``card``
    that is checked to reach its target: ``base`` with the change on top, so a "Try it"
    link from a what-if keeps what that what-if changed (docs/rules.md §2.8)."""
    base = base or WhatIf()
    shown = apply(card, base, catalogue)
    found = []
    for req in requirements:
        change = _concrete(shown, req, catalogue)
        if change is None or change.is_empty:
            continue
        whatif = base.then(change)
        result = decide_rarity(apply(card, whatif, catalogue)).rarity
        if result >= req.target:
            found.append(Suggestion(req, whatif, result))
    return found


def changed_fields(before: Breakdown, after: Breakdown) -> set[str]:
    """Which parts of the breakdown a what-if changed (for highlighting)."""
    changed = set()
    if before.rarity is not after.rarity:
        changed.add("rarity")
    for old, new in zip(before.rules, after.rules, strict=False):
        if old.rarity is not new.rarity:
            changed.add(f"rule:{old.key}")
    for name in ("role", "skill_affinity", "active_skill", "template", "energy_cost"):
        if getattr(before, name) != getattr(after, name):
            changed.add(name)
    for name in ("atk", "hp", "def_", "ability"):
        if getattr(before.stats, name) != getattr(after.stats, name):
            changed.add(f"stat:{name}")
    if before.effects != after.effects:
        changed.add("effects")
    if before.wardrobe_score != after.wardrobe_score:
        changed.add("wardrobe_score")
    return changed
