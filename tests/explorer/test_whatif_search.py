"""The what-if's searches through the catalogue (explorer.whatif) find what a plain scan
finds: the binary search behind a "score" suggestion, and the lazy candidates of a slot."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.types import CardSpec, Rarity, Requirement, Slot
from explorer.whatif import Catalogue, WhatIf, _concrete
from tests.engine.strategies import attributes, cards

ORDER = (Slot.BACKGROUND, Slot.BODY, Slot.HEAD, Slot.PAW)


def full_scan(card: CardSpec, catalogue: Catalogue, limit: int) -> WhatIf | None:
    """The former search: every attribute of every slot; the largest supply that fits,
    the first one met on a tie."""
    owned = {a.key for a in card.owned}
    best = None
    for slot in ORDER:
        for attribute in catalogue.by_supply[slot]:
            fits = attribute.supply <= limit and attribute.key not in owned
            if fits and (best is None or attribute.supply > best.supply):
                best = attribute
    return WhatIf({best.slot.value: best.name}) if best else None


@settings(max_examples=80, deadline=None)
@given(cards(), st.lists(attributes(), max_size=40), st.integers(1, 3000), st.booleans())
def test_the_score_suggestion_matches_a_full_scan(card, shop, limit, with_card):
    # The catalogue holds the card's own attributes too (as the collection's does), or not.
    catalogue = Catalogue([*shop, *card.owned] if with_card else shop)
    need = Requirement("wardrobe_score", Rarity.RARE, "score", {"one_attribute_max_supply": limit})
    assert _concrete(card, need, catalogue) == full_scan(card, catalogue, limit)


@settings(max_examples=50, deadline=None)
@given(cards(), st.lists(attributes(), max_size=40), st.integers(1, 3000))
def test_a_tier_suggestion_takes_the_first_fitting_candidate(card, shop, max_supply):
    catalogue = Catalogue(shop)
    need = Requirement("tier_equipped", Rarity.RARE, "tier_equipped", {"max_supply": max_supply})
    expected = None
    for slot in ORDER:
        owned = sorted((a for a in card.owned if a.slot is slot), key=lambda a: (a.supply, a.name))
        names = {a.name for a in owned}
        pool = owned + [a for a in catalogue.by_supply[slot] if a.name not in names]
        pick = next((a for a in pool if a.supply <= max_supply), None)
        if pick is not None:
            expected = WhatIf({slot.value: pick.name})
            break
    assert _concrete(card, need, catalogue) == expected


@settings(max_examples=80, deadline=None)
@given(cards(), st.lists(attributes(), max_size=40))
def test_a_suggestion_is_checked_with_the_rarity_a_full_derivation_gives(card, shop):
    """Suggestions are checked with the rarity rules alone; every one they keep must reach
    its target by a whole derive too, with the very rarity they show."""
    from engine.card.derive import derive
    from explorer.whatif import apply, suggestions

    catalogue = Catalogue([*shop, *card.owned])
    breakdown = derive(card)
    if breakdown.next_tier is None:
        return
    for found in suggestions(card, breakdown.next_tier.paths, catalogue):
        result = derive(apply(card, found.whatif, catalogue)).rarity
        assert result == found.result
        assert result >= found.requirement.target
