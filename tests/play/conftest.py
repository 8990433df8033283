"""A small collection for the match demo: every rarity and role, built through the ORM
(the cards app's signals derive the stored fields)."""

from __future__ import annotations

import pytest

from cards.models import Attribute, Card, Combo

SLOTS = ("head", "body", "paw", "background")

# token: (name, {slot: (attribute name, supply)}, extra card fields)
CARDS = {
    1: ("Axe Pup", {"paw": ("Axe", 900)}, {}),
    2: ("Dagger Pup", {"paw": ("Dagger", 900)}, {}),
    3: ("Candy Pup", {"paw": ("Candy Bag", 900)}, {}),
    4: ("Wand Pup", {"paw": ("Oak Wand", 900)}, {}),
    5: ("Ranked Axe", {"paw": ("Axe", 900)}, {"getgems_rank": 150}),
    6: ("Ranked Dagger", {"paw": ("Dagger", 900)}, {"getgems_rank": 120}),
    7: ("Epic Hood", {"head": ("Silk Hood", 4), "body": ("Velvet Cloak", 5)}, {}),
    8: ("Epic Wand", {"head": ("Hex Hat", 4), "paw": ("Oak Wand", 900)}, {"burned_stickers": 3}),
    9: (
        "Crowned",
        {"head": ("Iron Crown", 2), "body": ("Chain Armor", 3), "paw": ("War Axe", 1)},
        {},
    ),
    10: (
        "Swift Legend",
        {"head": ("Jet Cap", 2), "body": ("Wing Vest", 3), "paw": ("Katana", 1)},
        {},
    ),
    11: ("Candy Legend", {"paw": ("Candy Sack", 900)}, {"burned_stickers": 7}),
    12: ("Hex Legend", {"head": ("Hex Crown", 900)}, {"getgems_rank": 3}),
}


def _attribute(slot: str, name: str, supply: int) -> Attribute:
    found = Attribute.objects.filter(slot=slot, name=name).first()
    return found or Attribute.objects.create(slot=slot, name=name, supply=supply)


def build_collection() -> dict[int, Card]:
    """Replace whatever collection the database holds (another suite may have loaded the
    generator's, once per session; inside a test's transaction the removal is undone)."""
    Combo.objects.all().delete()
    Card.objects.all().delete()
    Attribute.objects.all().delete()
    plain = {"head": "Cap", "body": "Vest", "paw": "Ring", "background": "Meadow"}
    made = {}
    for token, (name, attrs, extra) in CARDS.items():
        equipped = {}
        for slot in SLOTS:
            attr_name, supply = attrs.get(slot, (plain[slot], 900))
            equipped[slot] = _attribute(slot, attr_name, supply)
        made[token] = Card.objects.create(token=token, name=name, **equipped, **extra)
    return {c.token: c for c in Card.objects.all()}


@pytest.fixture
def collection(db):
    return build_collection()


@pytest.fixture
def empty_collection(db):
    """No cards at all (whatever another suite loaded is removed inside this test)."""
    Combo.objects.all().delete()
    Card.objects.all().delete()
    Attribute.objects.all().delete()
