"""engine.card.skills units: keyword matching, role hash lines, the temporary-card roll."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from engine.card.derive import derive
from engine.card.skills import keyword_hits, keyword_skills, name_words, roll_temporary_skill
from engine.data import TEMPORARY_SKILL_CHANCE
from engine.types import AttributeSpec, CardSpec, Rarity, Skill, Slot


@pytest.mark.parametrize(
    ("name", "skills"),
    [
        ("Hexed Hood", (Skill.ARCANE, Skill.STEAL)),
        ("Daggers", (Skill.SPEED,)),
        ("Cabbage", ()),
        ("DAGGER", (Skill.SPEED,)),
        ("iron-HELM", (Skill.PIERCE,)),
        ("Kat4na", ()),  # digits split words: "kat", "na"
        ("Оракул Hexagon", (Skill.ARCANE,)),
        ("Crown of Candy", (Skill.STEAL, Skill.PIERCE)),
        ("Oracle Dagger Bag Axe", (Skill.ARCANE, Skill.SPEED, Skill.STEAL, Skill.PIERCE)),
        ("", ()),
    ],
)
def test_keyword_skills(name: str, skills: tuple[Skill, ...]) -> None:
    assert keyword_skills(name) == skills


def test_words_split_on_every_non_letter_and_normalise() -> None:
    assert name_words("Qx_Mitten·2000/Gold") == ("qx", "mitten", "gold")
    assert name_words("Cafe\u0301 Scepter") == ("café", "scepter")
    assert name_words("ÆTHER Wand") == ("æther", "wand")


def test_hits_name_the_matched_fragments() -> None:
    assert keyword_hits("Daggers of Hexing") == (
        (Skill.ARCANE, (("hexing", "hex"),)),
        (Skill.SPEED, (("daggers", "dagger"),)),
    )


def _roll(card_id: str) -> Fraction:
    digest = hashlib.sha256(f"skill:{card_id}".encode()).digest()
    return Fraction(int.from_bytes(digest[:8], "big"), 2**64)


@pytest.mark.parametrize("rarity", list(Rarity))
def test_temporary_roll_matches_the_rule(rarity: Rarity) -> None:
    chance = TEMPORARY_SKILL_CHANCE[rarity]
    for i in range(300):
        expected = Skill.STEAL if _roll(f"bot-{i}") < chance else None
        assert roll_temporary_skill(f"bot-{i}", rarity, Skill.STEAL) is expected


def test_temporary_roll_hit_rates_are_plausible() -> None:
    hits = sum(
        roll_temporary_skill(f"demo-{i}", Rarity.EPIC, Skill.SPEED) is not None for i in range(2000)
    )
    assert 0.30 < hits / 2000 < 0.40


def test_temporary_card_can_have_a_skill_below_legendary() -> None:
    card = CardSpec(
        9,
        "Bot",
        tuple(AttributeSpec(s, "Dagger" if s is Slot.PAW else f"Plain {s}", 500) for s in Slot),
        getgems_rank=150,
    )
    assert derive(card).active_skill is None  # a collection Rare never has one
    ids = [i for i in range(100) if _roll(f"t{i}") < Fraction(1, 5)]
    assert ids
    b = derive(card, temporary_id=f"t{ids[0]}")
    assert b.rarity is Rarity.RARE and b.active_skill is Skill.SPEED
    assert "skill.temporary_roll" in [s.code for s in b.trace]


def test_temporary_legendary_may_have_none() -> None:
    card = CardSpec(
        9,
        "Bot",
        tuple(AttributeSpec(s, f"Plain {s}", 500) for s in Slot),
        getgems_rank=1,
    )
    ids = [i for i in range(100) if _roll(f"t{i}") >= Fraction(1, 2)]
    b = derive(card, temporary_id=f"t{ids[0]}")
    assert b.rarity is Rarity.LEGENDARY and b.active_skill is None
