"""How safe a card's tier is (issue 29): the smallest single change of the market data
that would lower its rarity.

A card's rarity rests on two live inputs besides what the card itself holds: the supply
(print count) of every attribute it wears or owns, and its GetGems rank. More prints of an
attribute never raise a rule's result (a supply only counts while it is low), and neither
does a worse rank, so for each input the smallest harmful change is found by galloping
from one step and then bisecting:

* one attribute's supply rising by ``steps`` prints ("one more print of Rusty Ring makes
  it Epic");
* the rank getting worse by ``steps`` places ("rank 6 or worse removes the Legendary
  floor").

A card is *fragile* when one such step — one more print, or the rank one place worse —
lowers its tier. Only the rules that decide the rarity matter: when a rule that neither
input touches (stickers, god/premium, combos; or, for the rank, every rule but the rank's)
gives the card its rarity, no change of that input can lower it.

>>> from engine.types import AttributeSpec, CardSpec, Slot
>>> card = CardSpec(1, "Pup", (
...     AttributeSpec(Slot.HEAD, "Cap", 3), AttributeSpec(Slot.BODY, "Vest", 2),
...     AttributeSpec(Slot.PAW, "Rusty Ring", 3), AttributeSpec(Slot.BACKGROUND, "Sky", 900)))
>>> drop = weakest_change(card)
>>> drop.rarity.value, drop.kind, drop.name, drop.supply, drop.lowered_to.value, drop.fragile
('legendary', 'supply', 'Cap', 4, 'epic', True)
>>> is_fragile(card)
True
>>> ranked = CardSpec(2, "Pup", tuple(AttributeSpec(s, "Plain", 900) for s in Slot),
...                   getgems_rank=2)
>>> drop = weakest_change(ranked)
>>> drop.kind, drop.rank, drop.steps, drop.lowered_to.value, is_fragile(ranked)
('rank', 6, 4, 'epic', False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine.card.rarity import decide_rarity
from engine.data import GETGEMS_RANK_TIERS
from engine.types import AttributeSpec, CardSpec, Rarity, Slot

__all__ = ["RANK_RULES", "SUPPLY_RULES", "TierDrop", "is_fragile", "weakest_change"]

#: The rarity rules an attribute's supply feeds, and the one the rank feeds.
SUPPLY_RULES = frozenset({"supply_count", "wardrobe_score", "tier_badge"})
RANK_RULES = frozenset({"getgems_rank"})

#: A supply is searched up to this many prints more: a change that takes more than a
#: million prints is none the market makes (the largest supply of the demo is in the
#: thousands).
MAX_EXTRA_PRINTS = 1_000_000

#: The worst rank any rule still counts: one place further, the rank counts for nothing.
_LAST_COUNTED_RANK = max(tier.threshold for tier in GETGEMS_RANK_TIERS)


@dataclass(frozen=True, slots=True)
class TierDrop:
    """The smallest single change that lowers a card's rarity, and to what.

    ``kind`` is "supply" (``slot``/``name``'s supply rising to ``supply``, ``steps``
    prints more) or "rank" (the rank falling to ``rank`` or worse, ``steps`` places).
    ``decided_by`` are the rules that give the card its rarity now.
    """

    kind: str
    rarity: Rarity
    lowered_to: Rarity
    steps: int
    decided_by: tuple[str, ...]
    slot: Slot | None = None
    name: str | None = None
    supply: int | None = None
    rank: int | None = None

    @property
    def fragile(self) -> bool:
        """One print more, or one place worse, is enough."""
        return self.steps == 1


def _with_supply(card: CardSpec, attr: AttributeSpec, supply: int) -> CardSpec:
    changed = replace(attr, supply=supply)
    return replace(
        card,
        equipped=tuple(changed if a == attr else a for a in card.equipped),
        wardrobe=tuple(changed if a == attr else a for a in card.wardrobe),
    )


def _changes(
    card: CardSpec, decision: Any = None
) -> tuple[Rarity, tuple[str, ...], list[tuple[str, AttributeSpec | None, int]]]:
    """The card's rarity, its deciding rules and the inputs that could lower it:
    ("supply", attribute, its supply now) or ("rank", None, the rank now)."""
    if decision is None:
        decision = decide_rarity(card)
    rarity = decision.rarity
    if card.starter:
        return rarity, decision.decided_by, []
    holding = {rule.key for rule in decision.rules if rule.rarity is rarity}
    inputs: list[tuple[str, AttributeSpec | None, int]] = []
    if holding <= SUPPLY_RULES:
        inputs += [("supply", attr, attr.supply) for attr in card.owned]
    if holding <= RANK_RULES and card.getgems_rank is not None:
        inputs.append(("rank", None, card.getgems_rank))
    return rarity, decision.decided_by, inputs


def _changed(card: CardSpec, kind: str, attr: AttributeSpec | None, value: int) -> CardSpec:
    if kind == "supply":
        assert attr is not None
        return _with_supply(card, attr, value)
    return replace(card, getgems_rank=value)


def _fewest_steps(lowers: Callable[[int], bool], most: int) -> int | None:
    """The fewest steps ``n`` in ``1..most`` with ``lowers(n)``, for a monotone ``lowers``:
    galloping from one step (a tier usually falls within a few), then bisecting."""
    if most < 1 or not lowers(most):
        return None
    low, high = 1, 1
    while high < most and not lowers(high):
        low, high = high + 1, min(2 * high, most)
    while low < high:  # lowers(high) holds, and nothing below ``low`` lowers
        middle = (low + high) // 2
        if lowers(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _drops(card: CardSpec) -> Iterator[TierDrop]:
    """The smallest harmful change of each input that can beat (or tie) the fewest steps
    found so far: an input that does not lower the tier within that many is skipped after
    one derivation."""
    rarity, decided_by, inputs = _changes(card)
    best: int | None = None
    for kind, attr, now in sorted(inputs, key=lambda i: i[2] if i[0] == "supply" else 0):
        most = MAX_EXTRA_PRINTS if kind == "supply" else max(now, _LAST_COUNTED_RANK) + 1 - now
        if best is not None:
            most = min(most, best)

        def lowers(
            steps: int, kind: str = kind, attr: AttributeSpec | None = attr, now: int = now
        ) -> bool:
            return decide_rarity(_changed(card, kind, attr, now + steps)).rarity < rarity

        steps = _fewest_steps(lowers, most)
        if steps is None:
            continue
        best = steps
        after = decide_rarity(_changed(card, kind, attr, now + steps)).rarity
        if kind == "supply":
            assert attr is not None
            yield TierDrop(
                kind, rarity, after, steps, decided_by, attr.slot, attr.name, supply=now + steps
            )
        else:
            yield TierDrop(kind, rarity, after, steps, decided_by, rank=now + steps)


def weakest_change(card: CardSpec) -> TierDrop | None:
    """The smallest single change of supply or rank that lowers ``card``'s rarity (the
    fewest steps; a supply before the rank, then slot and name order), or None when no
    such change lowers it (a starter card, a Common card, or one whose rarity another
    rule holds)."""
    drops = list(_drops(card))
    if not drops:
        return None
    return min(
        drops,
        key=lambda d: (
            d.steps,
            d.kind != "supply",
            list(Slot).index(d.slot) if d.slot else 0,
            d.name or "",
        ),
    )


def is_fragile(card: CardSpec, decision: Any = None) -> bool:
    """Whether one print more of an attribute the card wears or owns, or its rank one
    place worse, lowers its rarity (cheaper than ``weakest_change``: one derivation per
    input that could matter). ``decision`` is the card's ``RarityDecision`` or
    ``Breakdown`` when the caller has it (its ``rarity`` and ``rules`` are read), so the
    rarity is not decided again."""
    rarity, _decided_by, inputs = _changes(card, decision)
    return any(
        decide_rarity(_changed(card, kind, attr, now + 1)).rarity < rarity
        for kind, attr, now in inputs
    )
