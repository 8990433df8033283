"""How safe a tier is (engine.card.fragility): the smallest single change of supply or rank
that lowers a card's rarity, on hand-made cards."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings

from engine.card.fragility import is_fragile, weakest_change
from engine.card.rarity import decide_rarity
from engine.types import AttributeKind, AttributeSpec, CardSpec, ComboSpec, Rarity, Slot

from .strategies import cards


def card(supplies=(900, 900, 900, 900), *, wardrobe=(), rank=None, **kwargs) -> CardSpec:
    equipped = tuple(
        AttributeSpec(slot, f"{slot.value.title()} {n}", supply)
        for n, (slot, supply) in enumerate(zip(Slot, supplies, strict=True))
    )
    return CardSpec(7, "Pup", equipped, wardrobe, getgems_rank=rank, **kwargs)


def test_one_more_print_of_a_worn_attribute_drops_a_supply_legendary():
    pup = card((3, 2, 3, 900))  # three slots with supply ≤ 3: Legendary by supply alone
    drop = weakest_change(pup)
    assert drop is not None and drop.fragile and is_fragile(pup)
    assert (drop.kind, drop.rarity, drop.lowered_to, drop.steps) == (
        "supply",
        Rarity.LEGENDARY,
        Rarity.EPIC,
        1,
    )
    assert drop.supply == 4 and drop.name in ("Head 0", "Paw 2")


def test_a_supply_far_from_its_limit_takes_several_prints():
    pup = card((1, 1, 1, 900))  # every low slot is 2 prints away from the limit of 3
    drop = weakest_change(pup)
    assert drop is not None and drop.steps == 3 and drop.supply == 4
    assert not is_fragile(pup)


def test_the_rank_floor_names_the_first_rank_that_removes_it():
    pup = card(rank=2)  # Legendary by the rank alone (≤ 5)
    drop = weakest_change(pup)
    assert drop is not None
    assert (drop.kind, drop.rank, drop.steps, drop.lowered_to) == ("rank", 6, 4, Rarity.EPIC)
    assert not is_fragile(pup)
    edge = card(rank=5)
    assert weakest_change(edge).rank == 6 and is_fragile(edge)


def test_an_owned_attribute_that_stands_in_for_a_worn_one_counts():
    spare = AttributeSpec(Slot.PAW, "Spare Ring", 3)
    pup = card((3, 3, 900, 900), wardrobe=(spare,))  # the spare lowers paw's supply to 3
    assert decide_rarity(pup).rarity is Rarity.LEGENDARY
    assert is_fragile(pup)
    assert decide_rarity(replace(pup, wardrobe=(replace(spare, supply=4),))).rarity < (
        Rarity.LEGENDARY
    )


def test_no_change_lowers_a_tier_another_rule_holds():
    god = AttributeSpec(Slot.HEAD, "Halo", 1, AttributeKind.GOD)
    held = CardSpec(8, "Pup", (god, *card((3, 3, 3, 3)).equipped[1:]))
    assert decide_rarity(held).rarity is Rarity.LEGENDARY
    assert weakest_change(held) is None and not is_fragile(held)
    both = card((3, 3, 3, 900), rank=1)  # supply and rank both give Legendary
    assert weakest_change(both) is None and not is_fragile(both)
    combo = ComboSpec("Set", ((Slot.HEAD, "Head 0"), (Slot.BODY, "Body 1")), Rarity.RARE)
    rare = card((900, 900, 900, 900), combos=(combo,))
    assert decide_rarity(rare).rarity is Rarity.RARE and weakest_change(rare) is None


def test_free_and_common_cards_cannot_drop():
    assert weakest_change(card()) is None and not is_fragile(card())
    starter = card((3, 3, 3, 3), starter=True)
    assert weakest_change(starter) is None and not is_fragile(starter)


# -- properties over generated cards -----------------------------------------------------

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _steps(spec: CardSpec, n: int = 1):
    """Every single change of ``n`` steps: ``n`` more prints of one owned attribute, the
    rank ``n`` places worse (and, for one step, one place better)."""
    for attr in spec.owned:
        changed = replace(attr, supply=attr.supply + n)
        yield replace(
            spec,
            equipped=tuple(changed if a == attr else a for a in spec.equipped),
            wardrobe=tuple(changed if a == attr else a for a in spec.wardrobe),
        )
    if spec.getgems_rank is not None:
        yield replace(spec, getgems_rank=spec.getgems_rank + n)
        if n == 1 and spec.getgems_rank > 1:
            yield replace(spec, getgems_rank=spec.getgems_rank - 1)


@SETTINGS
@given(cards())
def test_fragile_is_exactly_one_step_lowering_the_tier(spec):
    rarity = decide_rarity(spec).rarity
    lowered = any(decide_rarity(s).rarity < rarity for s in _steps(spec))
    assert is_fragile(spec) is lowered
    assert is_fragile(spec, decide_rarity(spec)) is lowered
    drop = weakest_change(spec)
    assert (drop is not None and drop.fragile) is lowered
    if drop is not None:
        assert drop.rarity is rarity and drop.lowered_to < rarity
        # No change of fewer steps, of any input, lowers the tier.
        for fewer in range(1, min(drop.steps, 12)):
            assert not any(decide_rarity(s).rarity < rarity for s in _steps(spec, fewer))
