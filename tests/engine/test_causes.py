"""engine.card.causes: the causes of a change are found by deriving without each changed input."""

from __future__ import annotations

import dataclasses

from engine.card.causes import (
    EquipChange,
    OwnedChange,
    RankChange,
    RulesChange,
    SupplyChange,
    explain,
)
from engine.types import AttributeSpec, CardSpec, Slot


def card(head=3, body=2, paw=3, wardrobe=(), rank=None, paw_name="Axe") -> CardSpec:
    return CardSpec(
        42,
        "Pup",
        (
            AttributeSpec(Slot.HEAD, "Crown", head),
            AttributeSpec(Slot.BODY, "Armor", body),
            AttributeSpec(Slot.PAW, paw_name, paw),
            AttributeSpec(Slot.BACKGROUND, "Sky", 900),
        ),
        wardrobe=wardrobe,
        getgems_rank=rank,
    )


def rarity_change(changes):
    return next(c for c in changes if c.field == "rarity")


def test_nothing_changed_nothing_recorded():
    assert explain(card(), card(), (SupplyChange("background", "Sky", 800, 900),)) == ()


def test_two_inputs_that_only_together_change_the_tier_are_both_causes():
    before, after = card(), card(head=4, body=4)
    changes = (SupplyChange("head", "Crown", 3, 4), SupplyChange("body", "Armor", 2, 4))
    change = rarity_change(explain(before, after, changes))
    assert (change.before, change.after) == ("legendary", "epic")
    assert [c["attribute"] for c in change.causes] == ["Crown", "Armor"]


def test_of_two_inputs_only_the_one_whose_undoing_restores_the_field_is_named():
    before, after = card(rank=300), card(paw=4, rank=250)
    changes = (RankChange(300, 250), SupplyChange("paw", "Axe", 3, 4))
    change = rarity_change(explain(before, after, changes))
    assert change.causes == (SupplyChange("paw", "Axe", 3, 4).cause(),)


def test_equipping_another_attribute_is_a_card_cause():
    before, after = card(), card(paw=900, paw_name="Ring")
    axe, ring = AttributeSpec(Slot.PAW, "Axe", 3), AttributeSpec(Slot.PAW, "Ring", 900)
    changes = (EquipChange(axe, ring), RankChange(None, 500))
    change = rarity_change(explain(before, after, changes))
    assert change.causes == (
        {"kind": "card", "what": "equipped", "slot": "paw", "before": "Axe", "after": "Ring"},
    )
    # Undoing the change gives the card as it was (what the causes are found with).
    assert EquipChange(axe, ring).revert(after).attribute(Slot.PAW) == axe


def test_an_owned_attribute_given_up_is_a_card_cause():
    gem = AttributeSpec(Slot.BACKGROUND, "Gem Sky", 1)
    plain = {"head": 900, "body": 900, "paw": 900}
    before, after = card(**plain, wardrobe=(gem,)), card(**plain)
    change = rarity_change(explain(before, after, (OwnedChange(gem, False), RankChange(None, 900))))
    assert change.causes == (
        {
            "kind": "card",
            "what": "owned",
            "slot": "background",
            "attribute": "Gem Sky",
            "before": True,
            "after": False,
        },
    )
    assert OwnedChange(gem, False).revert(after).wardrobe == (gem,)


def test_a_rules_change_is_named_with_its_version_and_constant():
    rules = RulesChange("1.1", "GETGEMS_RANK_TIERS", "≤ 5", "≤ 6")
    before = card(head=900, body=900, paw=900, rank=6)
    after = dataclasses.replace(before, getgems_rank=5)  # stands in for the new rule
    change = rarity_change(explain(before, after, (rules,)))
    assert change.causes == (rules.cause(),)
