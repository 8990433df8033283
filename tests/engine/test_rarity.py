"""engine.card.rarity units: tiers, exact scores and their display, rule order."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.card.derive import derive
from engine.card.rarity import decide_rarity, format_score, tier_of, wardrobe_score
from engine.data import RULE_KEYS
from engine.types import AttributeKind, AttributeSpec, CardSpec, Rarity, Slot, Tier


def plain(**supplies: int) -> CardSpec:
    return CardSpec(
        1,
        "Pup",
        tuple(AttributeSpec(s, f"Plain {s}", supplies.get(s.value, 500)) for s in Slot),
    )


@pytest.mark.parametrize(
    ("supply", "tier"),
    [(1, Tier.UNIQUE), (5, Tier.UNIQUE), (6, Tier.RARE), (25, Tier.RARE), (26, Tier.BASE)],
)
def test_tier_edges(supply: int, tier: Tier) -> None:
    assert tier_of(supply) is tier


def test_rarity_order() -> None:
    assert list(Rarity) == sorted(Rarity)
    assert Rarity.FREE < Rarity.COMMON < Rarity.RARE < Rarity.EPIC < Rarity.LEGENDARY
    assert [r.rank for r in Rarity] == [0, 1, 2, 3, 4]
    assert Rarity.EPIC.next() is Rarity.LEGENDARY


def test_score_display_rounds_down() -> None:
    assert format_score(Fraction(2999999, 1000)) == "2999.9"
    assert format_score(Fraction(3000)) == "3000.0"
    assert format_score(Fraction(1, 3)) == "0.3"


def test_wardrobe_score_is_exact_and_distinct() -> None:
    attrs = [AttributeSpec(Slot.HEAD, "A", 3), AttributeSpec(Slot.BODY, "A", 3)]
    assert wardrobe_score(attrs) == Fraction(2000, 3)
    assert wardrobe_score([*attrs, AttributeSpec(Slot.HEAD, "A", 3)]) == Fraction(2000, 3)
    assert wardrobe_score([]) == 0


def test_rules_come_in_rule_order() -> None:
    decision = decide_rarity(plain())
    assert tuple(r.key for r in decision.rules) == RULE_KEYS


def test_breakdown_rule_lookup() -> None:
    b = derive(plain(head=2))
    assert b.rule("tier_badge").rarity is Rarity.RARE
    with pytest.raises(KeyError):
        b.rule("starter")


def test_legendary_has_no_next_tier_and_rules_at_top_have_none() -> None:
    b = derive(plain(head=1, body=1, paw=1))
    assert b.rarity is Rarity.LEGENDARY and b.next_tier is None
    assert b.rule("supply_count").next_tier is None


def test_every_lower_card_has_a_path_per_able_rule() -> None:
    b = derive(plain())
    assert b.next_tier is not None
    assert b.next_tier.target is Rarity.RARE
    # No combo is known, so the combo rule offers no path.
    assert "combo" not in {p.rule for p in b.next_tier.paths}


def test_evidence_keys_do_not_depend_on_what_was_found() -> None:
    found = derive(
        CardSpec(
            1,
            "Pup",
            tuple(
                AttributeSpec(
                    s, f"Plain {s}", 2, AttributeKind.GOD if s is Slot.PAW else AttributeKind.NORMAL
                )
                for s in Slot
            ),
        )
    )
    none = derive(plain())
    for key in ("tier_badge", "god_premium", "combo", "supply_count", "wardrobe_score"):
        assert set(found.rule(key).evidence) == set(none.rule(key).evidence), key


def test_paths_to_legendary_from_common_each_reach_it():
    """Every path towards Legendary, applied to the card, makes it at least Legendary."""
    from engine.card.derive import derive
    from engine.card.rarity import paths_to
    from engine.types import AttributeSpec, CardSpec, Rarity, Slot

    card = CardSpec(7, "Pup", tuple(AttributeSpec(s, f"Plain {s.value}", 999) for s in Slot))
    paths = paths_to(card, Rarity.LEGENDARY)
    assert paths is not None and paths.target is Rarity.LEGENDARY
    needs = {p.rule: p for p in paths.paths}
    assert needs["getgems_rank"].params["rank_at_most"] == 5
    assert needs["burned_stickers"].params["threshold"] == 6
    assert needs["supply_count"].params["slots_needed"] == 3
    legendary = CardSpec(7, "Pup", card.equipped, getgems_rank=5)
    assert derive(legendary).rarity is Rarity.LEGENDARY
    assert paths_to(legendary, Rarity.LEGENDARY) is None
    assert paths_to(CardSpec(8, "S", card.equipped, starter=True), Rarity.LEGENDARY) is None


def test_a_tie_between_combo_suggestions_is_broken_the_same_in_every_language() -> None:
    """Two epic combos, each one attribute away: the suggestion is the same whatever the
    combos are called (it was the first by the translated name, so EN and RU differed)."""
    from engine.types import ComboSpec

    def suggestion(first: str, second: str, order: int) -> tuple[tuple[Slot, str], ...]:
        combos = [
            ComboSpec(first, ((Slot.HEAD, "Plain head"), (Slot.PAW, "Hook")), Rarity.EPIC),
            ComboSpec(second, ((Slot.HEAD, "Plain head"), (Slot.BODY, "Coat")), Rarity.EPIC),
        ][::order]
        card = CardSpec(1, "Pup", plain().equipped, combos=tuple(combos))
        need = derive(card).rule("combo").next_tier
        assert need is not None and need.need == "combo"
        by_name = {c.name: c.attributes for c in combos}
        return by_name[need.params["combo"]]

    english = suggestion("Pirate", "Captain", 1)
    assert english == ((Slot.HEAD, "Plain head"), (Slot.BODY, "Coat"))  # body < paw
    assert suggestion("Пират", "Капитан", 1) == english
    assert suggestion("Pirate", "Captain", -1) == english
    assert suggestion("Zebra", "Aardvark", 1) == suggestion("Aardvark", "Zebra", 1) == english
