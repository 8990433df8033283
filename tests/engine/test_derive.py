"""engine.card.derive: the Breakdown as a value, its trace as data."""

from __future__ import annotations

import dataclasses
import re

import pytest

from engine.card.derive import derive
from engine.types import AttributeSpec, Breakdown, CardSpec, EffectSlot, Rarity, Slot, TraceStep

CARD = CardSpec(
    42,
    "Pup #42",
    (
        AttributeSpec(Slot.HEAD, "Iron Helm", 3),
        AttributeSpec(Slot.BODY, "Chain Armor", 2),
        AttributeSpec(Slot.PAW, "Axe", 3),
        AttributeSpec(Slot.BACKGROUND, "Blue Sky", 900),
    ),
    wardrobe=(AttributeSpec(Slot.PAW, "Dagger", 9),),
)

CODE = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")


def test_breakdown_is_frozen() -> None:
    b = derive(CARD)
    assert isinstance(b, Breakdown)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.rarity = Rarity.FREE  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.trace[0].code = "x"  # type: ignore[misc]


def test_trace_is_data_not_prose() -> None:
    b = derive(CARD)
    assert isinstance(b.trace, tuple) and all(isinstance(s, TraceStep) for s in b.trace)
    for step in b.trace:
        assert CODE.match(step.code), step.code


def test_shared_trace_params_are_read_only() -> None:
    b = derive(CARD)
    step = next(s for s in b.trace if s.code == "stats.final")
    with pytest.raises(TypeError):
        step.params["atk"] = 99  # type: ignore[index]


def test_derive_is_repeatable_and_caches_do_not_leak() -> None:
    first = derive(CARD)
    for _ in range(3):
        assert derive(CARD) == first


def test_effect_lookup() -> None:
    b = derive(CARD)
    assert b.rarity is Rarity.LEGENDARY
    assert b.effect(EffectSlot.DEPLOY) is b.effects[0]
    assert b.effect(EffectSlot.LAST_BREATH) is not None


def test_card_spec_normalises_and_validates() -> None:
    shuffled = CardSpec(42, "Pup #42", tuple(reversed(CARD.equipped)), wardrobe=CARD.wardrobe)
    assert shuffled == CARD
    with pytest.raises(ValueError, match=r"equipped\.paw: is missing"):
        CardSpec(1, "x", CARD.equipped[:2] + CARD.equipped[3:])
    with pytest.raises(ValueError, match=r"equipped\.head: is equipped twice"):
        CardSpec(1, "x", (*CARD.equipped, CARD.equipped[0]))
